"""chrF++ and BLEU on every MAFAND fr↔ewe system output: each sentence's statistics equal
sacrebleu's (digests computed with sacrebleu 2.6 called directly), with the compiled n-gram
kernel and without it, and a sample of sentences is checked against sacrebleu called directly."""

from __future__ import annotations

import hashlib
import random
import unicodedata
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF

from mteval_gui.scoring.metrics import ngram_kernel
from mteval_gui.scoring.metrics.surface import BleuMetric, ChrfMetric
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import context, item

pytestmark = [pytest.mark.shared_data]

MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"

# system: (digest of the chrF++ sentence statistics, digest of the BLEU ones, [BLEU's summed
# hypothesis length, reference length]) on NFC text as the metrics score it. Digest: sha256 of
# "s1,s2,...;s1,s2,...;..." over the 1,563 lines (sacrebleu's CHRF(word_order=2) and BLEU()
# _extract_corpus_statistics), first 16 hex digits.
SACREBLEU_STATS = {
    "afribart_ewe_fr_news": ("3e8825dd4ade17be", "55dbc54862e6c63a", [55242, 35216]),
    "afribart_fr_ewe_news": ("156a28a9575d7cf3", "1d5f900ee4fd0fc4", [26487, 30891]),
    "afribyt5_ewe_fr_news": ("d1ffccd1f64d7a64", "b9af5af7c03df531", [36554, 35216]),
    "afribyt5_fr_ewe_news": ("48e87f5030c9a6df", "76030132bc3a9eff", [23729, 30891]),
    "afrit5_ewe_fr_news": ("9ff91abb24ac64bb", "5300862d543e12e8", [78051, 35216]),
    "afrit5_fr_ewe_news": ("00eee2dfc56556a5", "6705b3274b6b834a", [29734, 30891]),
    "byt5_ewe_fr_news": ("1deaf73449d242ec", "e20187d0431d1544", [39229, 35216]),
    "byt5_fr_ewe_news": ("a9bf2a99fb412266", "2f448d5a33fb2bed", [29873, 30891]),
    "m2m100_ewe_fr_afro": ("605f4823f24e3240", "d0cd5ec7f165293f", [39616, 35216]),
    "m2m100_ewe_fr_news": ("6eb473a3993dff05", "23ba6f0bd7873795", [41978, 35216]),
    "m2m100_ewe_fr_rel": ("cd4d7de49b55440d", "c5f76b40f8efc57d", [34369, 35216]),
    "m2m100_ewe_fr_rel_news": ("23fc80354f95c858", "8627d0576a3ddf46", [31500, 35216]),
    "m2m100_ewe_fr_rel_news_newsft": ("473139c05afc9668", "a1d5026d1da329bc", [33058, 35216]),
    "m2m100_ewe_fr_rel_newsft": ("6d3a82a94391dfab", "c90630831b34c04a", [33438, 35216]),
    "m2m100_fr_ewe_afro": ("8c5cc93b851a5cff", "b9e28ff5398990aa", [27075, 30891]),
    "m2m100_fr_ewe_news": ("a92a8867e1abd206", "f1cdd9c7c5462572", [24446, 30891]),
    "m2m100_fr_ewe_rel": ("18e26e2009750c8c", "f44ed6796a5a5d06", [37026, 30891]),
    "m2m100_fr_ewe_rel_news": ("19b79c5b848435ec", "04b7734961e7f9ef", [32739, 30891]),
    "m2m100_fr_ewe_rel_news_newsft": ("4da2ce19a39d690d", "f85b76947f4ba99e", [30591, 30891]),
    "m2m100_fr_ewe_rel_newsft": ("8c190609557d09a1", "f4fd30616a8d4b2b", [25787, 30891]),
    "mbart50_ewe_fr_news": ("9778b0f64aec12b4", "96e2295bc1b572b7", [36528, 35216]),
    "mbart50_fr_ewe_news": ("851d4591f1dca90a", "92e9f110999e1a0c", [24198, 30891]),
    "mt5_ewe_fr_news": ("3b9449bc7ef67ee7", "87ae771d89043928", [108345, 35216]),
    "mt5_fr_ewe_news": ("85e43ec02ece9499", "d887b1111e48183c", [38707, 30891]),
    "transformer_ewe_fr_rel": ("c60439b8cd590d3c", "5b7372c6c04bc2f1", [31273, 35216]),
    "transformer_ewe_fr_rel_news": ("68af3219c1416252", "b85f821ab815de9d", [27514, 35216]),
    "transformer_ewe_fr_rel_news_newsft": ("846290096bb7fc8e", "e9cf5c338db93ca3", [28479, 35216]),
    "transformer_ewe_fr_rel_newsft": ("ca37c8a4facf4c3c", "f991f090b7236bb4", [27616, 35216]),
    "transformer_fr_ewe_rel": ("252a77b514331026", "b41e2c86f95cf6cc", [34817, 30891]),
    "transformer_fr_ewe_rel_news": ("1795a9586a4f354e", "afbbbde020fd1af3", [26453, 30891]),
    "transformer_fr_ewe_rel_news_newsft": ("902442ea70a1204f", "6464c93faaeeeee5", [26818, 30891]),
    "transformer_fr_ewe_rel_newsft": ("e10f75761fb60949", "d533c11fa80dafbf", [20687, 30891]),
}


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = text[:-1] if text.endswith("\n") else text
    return [unicodedata.normalize("NFC", line) for line in text.split("\n")]


def _system(name: str) -> tuple[list[str], list[str]]:
    """(references, hypotheses) of one system, NFC."""
    ref = _lines(MAFAND / ("test.ewe" if "_fr_ewe_" in name else "test.fr"))
    hyp = _lines(MAFAND / "predictions" / f"{name}.txt")
    assert len(ref) == len(hyp) == 1563
    return ref, hyp


def _digest(stats: list[list[int]]) -> str:
    return hashlib.sha256(";".join(",".join(str(int(x)) for x in s) for s in stats).encode()).hexdigest()[:16]


def _score(name: str) -> tuple[list[list[int]], list[list[int]], list[str], list[str], list[list[float]]]:
    ref, hyp = _system(name)
    items = [item(i, "source", r, h) for i, (r, h) in enumerate(zip(ref, hyp, strict=True))]
    out = []
    values = []
    for metric in (ChrfMetric(), BleuMetric()):
        metric.prepare(context())
        per = [s for k in range(0, len(items), 100) for s in metric.score_entries(items[k:k + 100])]
        assert metric.aggregate(per, context()).extra["implementation"] == ngram_kernel.implementation()
        out.append([p.detail["stats"] for p in per])
        values.append([p.value for p in per])
    return out[0], out[1], ref, hyp, values


@pytest.mark.skipif(not MAFAND.is_dir(), reason="needs ../shared/data")
def test_every_system_is_listed():
    assert sorted(p.stem for p in (MAFAND / "predictions").glob("*.txt")) == sorted(SACREBLEU_STATS)


@pytest.mark.parametrize("name", sorted(SACREBLEU_STATS))
def test_sentence_statistics_equal_sacrebleus(name):
    pytest.importorskip("numba")
    chrf, bleu, ref, hyp, values = _score(name)
    chrf_digest, bleu_digest, lengths = SACREBLEU_STATS[name]
    assert ngram_kernel.implementation() == "numba"
    assert [sum(s[0] for s in bleu), sum(s[1] for s in bleu)] == lengths
    assert (_digest(chrf), _digest(bleu)) == (chrf_digest, bleu_digest)
    rng = random.Random(name)
    for k in rng.sample(range(len(hyp)), 25):  # sacrebleu called directly
        assert chrf[k] == CHRF(word_order=2)._extract_corpus_statistics([hyp[k]], [[ref[k]]])[0]
        assert bleu[k] == BLEU()._extract_corpus_statistics([hyp[k]], [[ref[k]]])[0]
        assert values[0][k] == CHRF(word_order=2).sentence_score(hyp[k], [ref[k]]).score
        assert values[1][k] == BLEU(effective_order=True).sentence_score(hyp[k], [ref[k]]).score


@pytest.mark.parametrize("name", ["m2m100_fr_ewe_rel_news_newsft", "mt5_ewe_fr_news"])
def test_without_numba_the_statistics_are_the_same(name, monkeypatch):
    def no_numba():
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(ngram_kernel._KERNEL, "_state", {})
    monkeypatch.setattr(ngram_kernel._KERNEL, "load", no_numba)
    chrf, bleu, _ref, _hyp, _values = _score(name)
    assert ngram_kernel.implementation() == "sacrebleu"
    assert (_digest(chrf), _digest(bleu)) == SACREBLEU_STATS[name][:2]
