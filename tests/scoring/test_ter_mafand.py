"""TER on every MAFAND fr↔ewe system output: the metric's corpus and sentence statistics equal
sacrebleu's (literal totals and digests computed with sacrebleu 2.6), and a sample of
sentences is checked against sacrebleu called directly."""

from __future__ import annotations

import hashlib
import random
import unicodedata
from pathlib import Path

import pytest
from sacrebleu.metrics import TER

from mteval_gui.scoring.metrics import ter_kernel
from mteval_gui.scoring.metrics.surface import TerMetric
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import item, run_metric

pytestmark = [pytest.mark.shared_data]

MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"

# system: (edits, reference words, digest of the sentence statistics) on NFC text as the
# metric scores it, then the same on the raw files (what sacrebleu's command line reads).
# Digest: sha256 of "edits,ref_len;..." over the 1,563 lines, first 16 hex digits.
SACREBLEU_TER = {
    "afribart_ewe_fr_news": (48522, 30793, "b05bc19ee60dbf4c", 48524, 30793, "8e549812cf360a11"),
    "afribart_fr_ewe_news": (26144, 27750, "1c26b49ad367d30c", 26211, 27750, "631af92d6e9a0c69"),
    "afribyt5_ewe_fr_news": (34898, 30793, "93c9e56e31443a7b", 34899, 30793, "9ef9a833ea3dca6b"),
    "afribyt5_fr_ewe_news": (25625, 27750, "86b2dfe8950c1314", 25634, 27750, "5731d1ad47ce4ed1"),
    "afrit5_ewe_fr_news": (70751, 30793, "74e65056f4439bae", 70753, 30793, "049d2ae50cbaa692"),
    "afrit5_fr_ewe_news": (33750, 27750, "5d33effbb382855b", 33812, 27750, "dc73eab0167d8773"),
    "byt5_ewe_fr_news": (37123, 30793, "c82b917b6394984a", 37129, 30793, "bd114aec6b274964"),
    "byt5_fr_ewe_news": (29561, 27750, "ce23f5cf7b01494e", 29576, 27750, "4c7917e18728121b"),
    "m2m100_ewe_fr_afro": (34658, 30793, "151d3ac287177b0c", 34663, 30793, "4be5cbf5d68aed27"),
    "m2m100_ewe_fr_news": (36647, 30793, "458612fa208e9622", 36649, 30793, "5642ca06e385f162"),
    "m2m100_ewe_fr_rel": (29184, 30793, "a6f5718a594c7c47", 29190, 30793, "2f1b16eebc9ec044"),
    "m2m100_ewe_fr_rel_news": (27114, 30793, "c5c975d4a07dc322", 27118, 30793, "a69ea7d72aee3ffc"),
    "m2m100_ewe_fr_rel_news_newsft": (27817, 30793, "1e6e93c448c017ca", 27822, 30793, "5bf19df9d116cde4"),
    "m2m100_ewe_fr_rel_newsft": (27993, 30793, "c6e39c3f2908127e", 27994, 30793, "3421b4522ac66f81"),
    "m2m100_fr_ewe_afro": (25335, 27750, "bf0912377786432e", 25412, 27750, "7400b34bf881ba0f"),
    "m2m100_fr_ewe_news": (23268, 27750, "d033087a29f3af60", 23358, 27750, "74a50c78b1e293fe"),
    "m2m100_fr_ewe_rel": (30162, 27750, "478d11c4eb5be6a0", 30258, 27750, "f2164853a5ac0f2b"),
    "m2m100_fr_ewe_rel_news": (26748, 27750, "09ccbe95354df96e", 26875, 27750, "298d2d218eed9c28"),
    "m2m100_fr_ewe_rel_news_newsft": (25044, 27750, "c98641ddb152f48a", 25190, 27750, "f397b200db258499"),
    "m2m100_fr_ewe_rel_newsft": (23225, 27750, "50aaad5934402ad0", 23342, 27750, "e53ce922086f7ca2"),
    "mbart50_ewe_fr_news": (36750, 30793, "922cfd1ca20e011d", 36750, 30793, "922cfd1ca20e011d"),
    "mbart50_fr_ewe_news": (24238, 27750, "a3f526b073c4c04a", 24284, 27750, "c84727e471b3649c"),
    "mt5_ewe_fr_news": (94277, 30793, "931072733135afdf", 94279, 30793, "a0b85909efd4b6db"),
    "mt5_fr_ewe_news": (49547, 27750, "4c7104de1ef7c2ba", 49585, 27750, "deee601448c2f001"),
    "transformer_ewe_fr_rel": (30002, 30793, "c8da9f49ebb76cc6", 30006, 30793, "1e1d594d292cbd4d"),
    "transformer_ewe_fr_rel_news": (27449, 30793, "77a547ea62b2e1ab", 27451, 30793, "8d85fcdda7ef6e23"),
    "transformer_ewe_fr_rel_news_newsft": (27573, 30793, "167cb9a91e11e175", 27574, 30793, "74ff8fd78d9ea3fe"),
    "transformer_ewe_fr_rel_newsft": (27274, 30793, "3bca317e74c963f3", 27279, 30793, "b1bc2ae604ae8be4"),
    "transformer_fr_ewe_rel": (30849, 27750, "082c1f7f8c0da685", 30923, 27750, "1fb54e2a6220044f"),
    "transformer_fr_ewe_rel_news": (24940, 27750, "7b5fe35af885be94", 25040, 27750, "05827d9a60db9e47"),
    "transformer_fr_ewe_rel_news_newsft": (24770, 27750, "0d14d9e5592463dd", 24881, 27750, "dfd022b6b759c0fd"),
    "transformer_fr_ewe_rel_newsft": (23335, 27750, "2c7722d89d3816eb", 23410, 27750, "b89a34ed087a4f83"),
}
SAMPLE_PER_SYSTEM = 6


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _nfc(lines: list[str]) -> list[str]:
    return [unicodedata.normalize("NFC", s) for s in lines]


def _system(name: str) -> tuple[list[str], list[str]]:
    """(raw hypotheses, raw references) of one system's direction."""
    ref = _lines(MAFAND / ("test.ewe" if "_fr_ewe_" in name else "test.fr"))
    hyp = _lines(MAFAND / "predictions" / f"{name}.txt")
    assert len(hyp) == len(ref) == 1563
    return hyp, ref


def _items(hyps: list[str], refs: list[str]) -> list:
    return [item(i, "s", r, h) for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]


def _digest(stats: list[list[float]]) -> str:
    return hashlib.sha256(";".join(f"{int(e)},{int(r)}" for e, r in stats).encode()).hexdigest()[:16]


def test_every_system_has_literals():
    assert sorted(p.stem for p in (MAFAND / "predictions").glob("*.txt")) == sorted(SACREBLEU_TER)


@pytest.mark.parametrize("system", sorted(SACREBLEU_TER))
def test_metric_statistics_equal_sacrebleu(system):
    edits, ref_len, digest, raw_edits, raw_ref_len, raw_digest = SACREBLEU_TER[system]
    hyp, ref = _system(system)
    per, cs = run_metric(TerMetric(), _items(hyp, ref), batch=500)
    stats = [p.detail["stats"] for p in per]
    assert [sum(s[0] for s in stats), sum(s[1] for s in stats), _digest(stats)] == [edits, ref_len, digest]
    assert cs.values["ter"] == pytest.approx(100 * edits / ref_len, abs=1e-12)
    assert cs.extra["implementation"] == "numba"
    # the raw files, tokenised by sacrebleu, through the kernel directly
    ter = TER()
    pairs = [(ter._preprocess_segment(h).split(), ter._preprocess_segment(r).split())
             for h, r in zip(hyp, ref, strict=True)]
    raw = [[e, len(r)] for e, (_h, r) in zip(ter_kernel.ter_edits(pairs), pairs, strict=True)]
    assert [sum(s[0] for s in raw), sum(s[1] for s in raw), _digest(raw)] == [raw_edits, raw_ref_len, raw_digest]


def test_sampled_sentences_equal_sacrebleu_called_directly():
    """A few lines of every system, scored by sacrebleu here and now (the literals above
    were computed the same way over all lines)."""
    hyps: list[str] = []
    refs: list[str] = []
    for system in sorted(SACREBLEU_TER):
        hyp, ref = _system(system)
        for i in random.Random(system).sample(range(len(hyp)), SAMPLE_PER_SYSTEM):
            hyps.append(hyp[i])
            refs.append(ref[i])
    hyps, refs = _nfc(hyps), _nfc(refs)
    per, _cs = run_metric(TerMetric(), _items(hyps, refs), batch=100)
    expected = TER()._extract_corpus_statistics(hyps, [refs])
    assert [p.detail["stats"] for p in per] == expected
