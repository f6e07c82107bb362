"""TER: the compiled kernel against sacrebleu's test vectors, literal edge cases, random
pairs scored by sacrebleu called directly, every option of the metric, and the fallback."""

from __future__ import annotations

import itertools
import random
import sys

import pytest
import sacrebleu
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate

from mteval_gui.scoring.metrics import native, ter_kernel
from mteval_gui.scoring.metrics.surface import TerMetric
from tests.scoring.metric_helpers import item, run_metric

pytest.importorskip("numba")


def edits(hyp: str, ref: str) -> int:
    return ter_kernel.ter_edits([(hyp.split(), ref.split())])[0]


def _items(hyps: list[str], refs: list[str]) -> list:
    return [item(i, "s", r, h) for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]


# sacrebleu's own test vectors (test/test_ter.py): corpus TER as a fraction
REALISTIC_HYPS = [
    ('wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , '
     'damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .'),
    ('wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des '
     'Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "'),
    ('klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie '
     'Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .'),
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
REALISTIC_REFS = [
    ('wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , '
     'damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .'),
    ('wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des '
     'Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "'),
    ('klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie '
     'für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .'),
    'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .',
    'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "',
]
SACREBLEU_VECTORS = [
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0.0),  # perfect match
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1.0),  # no overlap
    ([""], ["a"], 1.0),  # empty hypothesis
    (["a"], [""], 1.0),  # empty reference
    ([""], [""], 0.0),  # both empty
    (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),  # one shift fixes it
    (REALISTIC_HYPS, REALISTIC_REFS, 0.136),  # WMT 2019 dev data
]


@pytest.mark.parametrize("hyps, refs, expected", SACREBLEU_VECTORS)
def test_sacrebleu_test_vectors(hyps, refs, expected):
    ter = TER()
    pairs = [(ter._preprocess_segment(h).split(), ter._preprocess_segment(r).split())
             for h, r in zip(hyps, refs, strict=True)]
    total = [sum(ter_kernel.ter_edits(pairs)), sum(len(r) for _, r in pairs)]
    assert ter._compute_score_from_stats(total).score == pytest.approx(100 * expected, abs=1e-3)  # sacrebleu's EPSILON
    if all(refs):  # the metric scores entries that have a reference
        _, cs = run_metric(TerMetric(), _items(hyps, refs))
        assert cs.values["ter"] == pytest.approx(100 * expected, abs=1e-3)
        assert cs.extra["implementation"] == "numba"


def test_realistic_vector_segment_statistics():
    per, cs = run_metric(TerMetric(), _items(REALISTIC_HYPS, REALISTIC_REFS))
    assert [p.detail["stats"] for p in per] == [[10, 31], [0, 24], [2, 31], [5, 19], [0, 20]]
    assert cs.values["ter"] == pytest.approx(100 * 17 / 125, abs=1e-12)


BINARY_HYP = "1 0 1 0 1 1 0 0 1 1 1 0 0 0 0 1 0 0 0 0 1 0 0 0 1 0 1"
BINARY_REF = "0 0 0 0 0 1 0 0 0 0 1 0 1 1 1 0 0 0 0 0 1 1 0 1 0 1 1 1"
BEAM_REF = "10 3 2 1 18 1 5 14 17 10 0 14 10 19 16 7 8 18 3 0 10 4 9 7 4 17 19 13 10 1 1 5 13 13 11 4 13 12 14 6 12 5 0"
FILLER = " ".join(f"w{k}" for k in range(60))


@pytest.mark.parametrize("hyp, ref, expected", [
    ("", "", 0),
    ("", "a b c", 3),
    ("a b c", "", 3),
    ("a b c", "a b c", 0),
    ("A b", "a b", 1),  # the kernel compares words as given (the tokenizer lowercases)
    ("c d a b f e", "a b c d e f", 2),
    ("b a d c f e h g", "a b c d e f g h", 4),  # four shifts
    ("e f g h a b c d x y z", "a b c d e f g h x y z", 1),
    ("the cat sat on the mat", "on the mat the cat sat", 1),
    ("z y x a b c d e f g h i j k l", "a b c d e f g h i j k l z y x", 1),
    ("a b c d e f g h i j k l m n o p", "m n o p i j k l e f g h a b c d", 9),
    # a target inside the shifted block moves it right by target - start words (sacrebleu's
    # reading): 2; moving it before the target would give 3
    ("0 2 0 1 1", "0 1 0 2 1 2", 2),
    # the 1,000-candidate budget ends the search with the last shift discarded: 12
    # (an unlimited search finds 6)
    (BINARY_HYP, BINARY_REF, 12),
    # the beam keeps the path near the diagonal: 42 (the full Levenshtein distance is 41)
    ("18 16", BEAM_REF, 42),
    # lengths differing more than 50 times widen the beam
    ("19 8", " ".join(str((7 * k + 3) % 20) for k in range(130)), 128),
    # a block is shifted at most 50 positions: a word 60 positions away costs two edits
    ("q " + FILLER, FILLER + " q", 2),
    ("q " + " ".join(FILLER.split()[:40]), " ".join(FILLER.split()[:40]) + " q", 1),
    # at most 10 words move at once
    ("x " + " ".join("abcdefghijkl"), " ".join("abcdefghijkl") + " x", 1),
    (" ".join("abcdefghijkl") + " x y", "x y " + " ".join("abcdefghijkl"), 1),
])
def test_literal_edits(hyp, ref, expected):
    assert edits(hyp, ref) == expected
    assert translation_edit_rate(hyp.split(), ref.split())[0] == expected


def test_batch_equals_one_by_one():
    pairs = [(h.split(), r.split()) for h, r in [("a b", "b a"), ("", "x"), ("x y z", "z y x w"), ("p", "")]]
    assert ter_kernel.ter_edits(pairs) == [ter_kernel.ter_edits([p])[0] for p in pairs] == [1, 1, 3, 1]
    assert ter_kernel.ter_edits([]) == []


def _random_pairs(rng: random.Random, count: int, max_len: int) -> list[tuple[list[str], list[str]]]:
    pairs = []
    for _ in range(count):
        vocab = rng.choice([2, 3, 5, 12, 40])
        n = rng.randrange(0, max_len + 1)
        m = max(0, n + rng.randrange(-4, 5)) if rng.random() < 0.8 else rng.randrange(0, max_len + 1)
        pairs.append(([f"t{rng.randrange(vocab)}" for _ in range(n)], [f"t{rng.randrange(vocab)}" for _ in range(m)]))
    return pairs


@pytest.mark.parametrize("seed", range(4))
def test_random_pairs_equal_sacrebleu(seed):
    pairs = _random_pairs(random.Random(seed), 120, 14)
    assert ter_kernel.ter_edits(pairs) == [translation_edit_rate(h, r)[0] for h, r in pairs]


def test_long_repetitive_pairs_equal_sacrebleu():
    rng = random.Random(99)
    pairs = [([str(rng.randrange(2)) for _ in range(n)], [str(rng.randrange(2)) for _ in range(n + d)])
             for n, d in [(24, 1), (28, -2), (30, 0), (33, 3)]]
    assert ter_kernel.ter_edits(pairs) == [translation_edit_rate(h, r)[0] for h, r in pairs]


def test_extreme_length_ratios_equal_sacrebleu():
    rng = random.Random(5)
    pairs = []
    for _ in range(12):
        short = [str(rng.randrange(30)) for _ in range(rng.randrange(1, 4))]
        long_ = [str(rng.randrange(30)) for _ in range(rng.randrange(60, 180))]
        pairs += [(short, long_), (long_, short)]
    assert ter_kernel.ter_edits(pairs) == [translation_edit_rate(h, r)[0] for h, r in pairs]


TOKENS = ["The", "the", "cat", "Cat", "sat", "on", "mat", ",", ".", "?", "!", "(c)", "Jim's", "4.2", "&amp;",
          "&lt;b&gt;", "美众院", "公布", "りの拳銃", "を", "。", "，", "「", "」", "ɖe", "Ɖe", "ŋu", "wò", "-", "\n"]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(TOKENS) for _ in range(rng.randrange(0, 10))]
    return "".join(w + rng.choice([" ", " ", "", "  "]) for w in words)


OPTIONS = [dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), flags, strict=True))
           for flags in itertools.product([False, True], repeat=4)]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(k for k, v in o.items() if v) or "defaults")
def test_metric_options_equal_sacrebleu(options):
    rng = random.Random(str(options))
    hyps = [_sentence(rng) for _ in range(24)] + ["", "The cat"]
    refs = [_sentence(rng) or "x" for _ in range(24)] + ["the cat", ""]
    items = [item(i, "s", r or None, h) for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]
    per, cs = run_metric(TerMetric(**options), items, batch=7)
    scored = [(h, r) for h, r in zip(hyps, refs, strict=True) if r]
    ter = TER(**options)
    assert cs.values["ter"] == pytest.approx(ter.corpus_score([h for h, _ in scored], [[r for _, r in scored]]).score,
                                             abs=1e-9)
    for p, h, r in zip(per, hyps, refs, strict=True):
        if not r:
            assert p.value is None
            continue
        # sacrebleu's own pipeline (it tokenises TER references twice: not idempotent with normalized)
        assert p.detail["stats"] == ter._extract_corpus_statistics([h], [[r]])[0]
        assert p.value == pytest.approx(TER(**options).sentence_score(h, [r]).score, abs=1e-9)
    ter.num_refs = 1
    assert cs.signature == ter.get_signature().format()
    assert cs.extra["implementation"] == "numba"


def test_signature_is_sacrebleus():
    _, cs = run_metric(TerMetric(case_sensitive=True, no_punct=True), [item(0, "s", "a b", "a c")])
    assert cs.signature == ("nrefs:1|case:mixed|tok:tercom|norm:no|punct:no|asian:no|version:"
                                     + sacrebleu.__version__)
    assert cs.extra["implementation"] == "numba" and "implementation_note" not in cs.extra


def test_multi_reference_takes_the_fewest_edits_and_the_mean_length():
    items = [item(0, "s", "the cat sat on the mat", "on the mat sat the cat", variants=["the cat sat"]),
             item(1, "s", "a dog", "the dog", variants=["the dog", "one dog barks"])]
    per, cs = run_metric(TerMetric(multi_ref=True), items)
    assert [p.detail["stats"] for p in per] == [[2, 4.5], [0, 2.3333333333333335]]
    streams = [["the cat sat on the mat", "a dog"], ["the cat sat", "the dog"], [None, "one dog barks"]]
    hyps = ["on the mat sat the cat", "the dog"]
    assert cs.values["ter"] == pytest.approx(TER().corpus_score(hyps, streams).score, abs=1e-12)
    assert cs.values["ter"] == pytest.approx(100 * 2 / (4.5 + 7 / 3), abs=1e-12)
    assert cs.signature.startswith("nrefs:var|")


def test_without_numba_sacrebleu_counts_the_edits(monkeypatch):
    def no_numba():
        raise ImportError("No module named 'numba'")

    monkeypatch.setattr(ter_kernel._KERNEL, "_state", {})
    monkeypatch.setattr(ter_kernel._KERNEL, "load", no_numba)
    assert ter_kernel.kernel() is None and ter_kernel.implementation() == "sacrebleu"
    assert edits("b a d c f e h g", "a b c d e f g h") == 4
    per, cs = run_metric(TerMetric(), _items(REALISTIC_HYPS, REALISTIC_REFS))
    assert [p.detail["stats"] for p in per] == [[10, 31], [0, 24], [2, 31], [5, 19], [0, 20]]
    assert cs.extra["implementation"] == "sacrebleu"
    assert cs.extra["implementation_note"] == "numba is not available (No module named 'numba')"


def test_compiled_code_is_cached_beside_the_source_or_per_user(monkeypatch, tmp_path, _isolated_home):
    assert native.writable_cache_dir(tmp_path) is None  # writable: numba's own __pycache__
    monkeypatch.setattr(native.os, "access", lambda path, mode: False)  # a read-only installation
    assert native.writable_cache_dir(tmp_path) == _isolated_home / "cache" / "numba"


@pytest.mark.skipif(sys.platform != "linux", reason="XDG folders are Linux's")
def test_user_cache_dir_follows_xdg(monkeypatch, tmp_path):
    from mteval_gui import paths

    monkeypatch.delenv("MTEVAL_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert paths.user_cache_dir() == tmp_path / "mteval-gui"


def test_empty_sides_in_one_batch():
    pairs = [([], []), ([], ["a", "b"]), (["a"], []), (["a", "b", "c"], ["c", "a", "b"]),
             (["x", "y", "z", "w"], ["w", "x", "y", "z", "q"])]
    assert ter_kernel.ter_edits(pairs) == [0, 2, 1, 1, 2]
    assert ter_kernel.ter_edits(pairs) == [translation_edit_rate(h, r)[0] for h, r in pairs]


def test_a_new_process_loads_the_machine_code_without_numba(tmp_path):
    import os
    import subprocess

    ter_kernel.kernel()  # compiled (or loaded) here: the machine code is on disk for this machine
    from tests.conftest import REPO

    # the child looks where this process kept the machine code: $NUMBA_CACHE_DIR when it is set
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    code = ("import sys\nfrom mteval_gui.scoring.metrics import native, ter_kernel as t\n"
            "print(t.ter_edits([('b a d c f e h g'.split(), 'a b c d e f g h'.split())]), t._KERNEL.loader,"
            " 'numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[4]", "cached", "False"]


def _tiny_ir(body: str) -> str:
    params = ", ".join(("i64" if a == "i64" else "ptr") for a in ter_kernel._ARGS)
    return f'declare i64 @elsewhere()\ndefine i64 @"entry.1"({params}) {{\n{body}\n}}\n'


def test_kept_machine_code_loads_and_is_checked(tmp_path):
    llvm = native.llvm_binding()
    kept = ter_kernel._KERNEL
    code = kept.machine_code(llvm, _tiny_ir("  ret i64 7"), "entry.1")
    path = tmp_path / "k.o"
    path.write_bytes(kept.magic + __import__("hashlib").sha256(code).digest() + code)
    run, _engine = kept.load_file(llvm, path)
    assert run(*([0] * len(ter_kernel._ARGS))) == 7
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit changed: not loaded
    with pytest.raises(ValueError, match="is not this kernel's machine code"):
        kept.load_file(llvm, path)
    path.write_bytes(code)  # no header
    with pytest.raises(ValueError, match="is not this kernel's machine code"):
        kept.load_file(llvm, path)


def test_machine_code_that_calls_outside_itself_is_not_kept():
    llvm = native.llvm_binding()
    with pytest.raises(ValueError, match="the compiled kernel calls elsewhere"):
        ter_kernel._KERNEL.machine_code(llvm, _tiny_ir("  %r = call i64 @elsewhere()\n  ret i64 %r"), "entry.1")


def test_the_machine_code_is_named_after_its_source_and_the_machine(monkeypatch, tmp_path):
    llvm = native.llvm_binding()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    first = ter_kernel._KERNEL.object_path(llvm)
    assert first.parent == tmp_path and first.name.startswith("ter_kernel.") and first.suffix == ".o"
    monkeypatch.setattr(llvm, "get_host_cpu_name", lambda: "another-cpu")
    assert ter_kernel._KERNEL.object_path(llvm) != first
