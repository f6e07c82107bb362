"""chrF++ and BLEU n-gram counts (compiled kernel and sacrebleu fallback) and BLEU's 13a
tokens: literal counts, and every sentence's statistics equal to sacrebleu called directly."""

from __future__ import annotations

import random

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from mteval_gui.scoring.metrics import bleu_tokens, ngram_kernel
from mteval_gui.scoring.metrics.surface import BleuMetric, ChrfMetric
from tests.scoring.metric_helpers import item, run_metric

numba = pytest.importorskip("numba")


@pytest.fixture(params=["numba", "sacrebleu"])
def implementation(request, monkeypatch):
    """Each test runs with the compiled kernel and with sacrebleu's own code (numba absent)."""
    if request.param == "sacrebleu":
        def no_numba():
            raise ImportError("No module named 'numba'")

        monkeypatch.setattr(ngram_kernel._KERNEL, "_state", {})
        monkeypatch.setattr(ngram_kernel._KERNEL, "load", no_numba)
    assert ngram_kernel.implementation() == request.param
    return request.param


# --------------------------------------------------------------------------- the kernel's counts


def test_character_counts_per_order_and_reference():
    # "abab" against "aba": unigrams 4 / 3, matches a: min(2, 2) + b: min(2, 1) = 3;
    # bigrams ab ba ab / ab ba: matches min(2, 1) + min(1, 1) = 2; trigrams aba bab / aba: 1
    assert ngram_kernel.char_counts([("abab", ["aba"])], 3).tolist() == [[4, 3, 3, 3, 2, 2, 2, 1, 1]]
    # one row per reference; a reference without n-grams of an order counts no hypothesis n-grams
    assert ngram_kernel.char_counts([("abc", ["c", "xabc"])], 2).tolist() == [
        [3, 1, 1, 0, 0, 0],
        [3, 4, 3, 2, 3, 2],
    ]
    assert ngram_kernel.char_counts([("", ["ab"]), ("ab", [""])], 2).tolist() == [
        [0, 2, 0, 0, 1, 0],
        [0, 0, 0, 0, 0, 0],
    ]


def test_word_counts_compare_whole_words():
    # "ab" is not "a" followed by "b": words are symbols
    assert ngram_kernel.word_counts([(["a", "b", "ab"], [["ab", "a", "b"]])], 2).tolist() == [[3, 3, 3, 2, 2, 1]]


def test_bleu_counts_merge_references_as_sacrebleu():
    # hypothesis a b a; references "a" and "a a b": a counts max(1, 2) = 2 times, b once;
    # bigrams ab ba against a / aa ab: ab matches once
    assert ngram_kernel.bleu_counts([(["a", "b", "a"], [["a"], ["a", "a", "b"]])], 2).tolist() == [[3, 1, 3, 2]]
    # orders beyond the hypothesis length: nothing to count
    assert ngram_kernel.bleu_counts([(["x"], [["x", "y"]])], 3).tolist() == [[1, 0, 0, 1, 0, 0]]


def test_non_bmp_characters_and_lone_surrogates_are_symbols():
    assert ngram_kernel.char_counts([("😀a\ud800", ["\ud800😀a"])], 2).tolist() == [[3, 3, 3, 2, 2, 1]]


# --------------------------------------------------------------------------- BLEU's 13a tokens

TRICKY = [
    "", " ", "Hello, world.", "3.5 and 3,5 and a.b and .5 and 5. and ,,..", "x--y 12-3 a-1 -5 5-",
    "&quot;quoted&quot; &amp; &lt;tag&gt; &amp;amp;", "line\nbreak-\njoined <skipped> here",
    "(paren) [brack] {brace} ~tilde~ `tick` ^hat^ |bar| \\slash/ @at #hash $10 %pct",
    "«Ewe» ɖe ƒe ŋ Ɔ — “quotes” …", "a.,b ,.x 1.,2 .1.2. ,", "tab\there\u00a0nbsp\u2003em",
    "trailing spaces   ", "  leading", "digits ٣.٤ and 3.٤", "end.", ".start", "a . b , c",
]


def test_13a_tokens_equal_sacrebleus():
    sb = Tokenizer13a()
    rng = random.Random(13)
    alphabet = [*"ab1 9.,.,-&;<>q\n\t\u00a0x05é", "&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n",
                *(chr(c) for c in range(0x20, 0x7F))]
    lines = TRICKY + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(5000)]
    for line in lines:
        assert bleu_tokens.tokens_13a(line) == sb(line.rstrip()).split(), line


def test_13a_tokens_literal():
    assert bleu_tokens.tokens_13a("Il a dit: «3,5-2»&amp; (ok). 1.5, x.y") == [
        "Il", "a", "dit", ":", "«3,5", "-", "2»", "&", "(", "ok", ")", ".", "1.5", ",", "x", ".", "y"]


def test_other_tokenizers_are_sacrebleus():
    assert bleu_tokens.tokenizer_for(BLEU(tokenize="char"))("ab c") == ["a", "b", "c"]
    assert bleu_tokens.tokenizer_for(BLEU(tokenize="none"))("a,b c.") == ["a,b", "c."]
    assert bleu_tokens.tokenizer_for(BLEU(lowercase=True))("A,B") == ["a", ",", "b"]


# --------------------------------------------------------------------------- parity with sacrebleu

WORDS = ["the", "cat", "sat", "on", "mat", ",", ".", "!", "(", ")", "1", "2", "3.5", "x-y", "é", "É", "ɖe", "ƒe",
         "Ŋu", "the.", "(the", "cat)", "a"]


def _corpus(seed: int, n: int = 120) -> tuple[list[str], list[list[str]]]:
    """Random hypotheses and 1–3 references each (the second and third as variants)."""
    rng = random.Random(seed)

    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))

    hyps = [sentence() for _ in range(n)]
    refs = [[sentence() for _ in range(rng.randint(1, 3))] for _ in range(n)]
    return hyps, refs


def _references(refs: list[str]) -> list[str]:
    """What the metrics compare with: the reference, then each distinct non-empty variant."""
    out = [refs[0]]
    for v in refs[1:]:
        if v and v not in out:
            out.append(v)
    return out


def _items(hyps: list[str], refs: list[list[str]]):
    return [item(i, "s", rs[0], h, variants=rs[1:]) for i, (h, rs) in enumerate(zip(hyps, refs, strict=True))]


def _streams(refs: list[list[str]]) -> list[list[str | None]]:
    used = [_references(rs) for rs in refs]
    width = max(len(u) for u in used)
    return [[u[k] if k < len(u) else None for u in used] for k in range(width)]


CHRF_CONFIGS = [{}, {"lowercase": True}, {"whitespace": True}, {"char_order": 4, "word_order": 0},
                {"eps_smoothing": True}, {"word_order": 1, "beta": 3}]


@pytest.mark.parametrize("params", CHRF_CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
@pytest.mark.parametrize("multi_ref", [False, True])
def test_chrf_statistics_equal_sacrebleus(params, multi_ref, implementation):
    hyps, refs = _corpus(len(str(params)) + multi_ref)
    if not multi_ref:
        refs = [rs[:1] for rs in refs]
    per, cs = run_metric(ChrfMetric(multi_ref=multi_ref, **params), _items(hyps, refs), batch=25)
    sb = CHRF(**{"word_order": 2, **params})
    for p, h, rs in zip(per, hyps, refs, strict=True):
        used = _references(rs)
        assert p.detail["stats"] == sb._extract_corpus_statistics([h], [[r] for r in used])[0]
        assert p.value == sb.sentence_score(h, used).score
    assert cs.values["chrf_plus_plus"] == pytest.approx(sb.corpus_score(hyps, _streams(refs)).score, abs=1e-9)
    assert cs.extra["implementation"] == implementation


BLEU_CONFIGS = [{}, {"lowercase": True}, {"tokenize": "none"}, {"tokenize": "char"}, {"tokenize": "intl"},
                {"tokenize": "zh"}, {"max_ngram_order": 2}, {"smooth_method": "floor", "smooth_value": 0.2},
                {"smooth_method": "add-k"}, {"smooth_method": "none"}]


@pytest.mark.parametrize("params", BLEU_CONFIGS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
@pytest.mark.parametrize("multi_ref", [False, True])
def test_bleu_statistics_equal_sacrebleus(params, multi_ref, implementation):
    hyps, refs = _corpus(len(str(params)) + 7 * multi_ref)
    if not multi_ref:
        refs = [rs[:1] for rs in refs]
    per, cs = run_metric(BleuMetric(multi_ref=multi_ref, **params), _items(hyps, refs), batch=25)
    sb = BLEU(**params)
    sentence = BLEU(effective_order=True, **params)
    for p, h, rs in zip(per, hyps, refs, strict=True):
        used = _references(rs)
        assert p.detail["stats"] == sb._extract_corpus_statistics([h], [[r] for r in used])[0]
        assert p.value == sentence.sentence_score(h, used).score
    assert cs.values["bleu"] == pytest.approx(sb.corpus_score(hyps, _streams(refs)).score, abs=1e-9)
    assert cs.extra["implementation"] == implementation


def test_without_numba_the_run_card_says_why(implementation):
    hyps, refs = _corpus(1, 10)
    _per, cs = run_metric(ChrfMetric(), _items(hyps, [rs[:1] for rs in refs]))
    if implementation == "numba":
        assert "implementation_note" not in cs.extra
    else:
        assert cs.extra["implementation_note"] == "numba is not available (No module named 'numba')"
    assert cs.signature.endswith(f"version:{sacrebleu.__version__}")


def test_reference_side_is_computed_once_per_entry_and_texts(implementation):
    hyps, refs = _corpus(5, 30)
    items = _items(hyps, [rs[:1] for rs in refs])
    metric = ChrfMetric()
    first, _ = run_metric(metric, items)
    calls = []
    original = metric._reference_units if implementation == "numba" else metric._compute_reference_info
    name = "_reference_units" if implementation == "numba" else "_compute_reference_info"
    setattr(metric, name, lambda r: calls.append(r) or original(r))
    again, _ = run_metric(metric, items)
    assert calls == [] and [p.detail for p in again] == [p.detail for p in first]


# --------------------------------------------------------------------------- kept machine code


def test_a_new_process_loads_the_machine_code_without_numba(tmp_path):
    import os
    import subprocess
    import sys

    assert ngram_kernel.kernel() is not None  # compiled or loaded here: the machine code is on disk
    from tests.conftest import REPO

    # the child looks where this process kept the machine code: $NUMBA_CACHE_DIR when it is set
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    code = ("import sys\nfrom mteval_gui.scoring.metrics import ngram_kernel as k\n"
            "print(k.char_counts([('abab', ['aba'])], 3).tolist()[0], k._KERNEL.loader, 'numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                          check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[4,", "3,", "3,", "3,", "2,", "2,", "2,", "1,", "1]", "cached", "False"]


def _probe(tmp_path):
    from mteval_gui.scoring.metrics.native import KeptKernel

    source = tmp_path / "probe.py"
    source.write_text("def f(a, n):\n    return n\n", encoding="utf-8")
    return KeptKernel("probe", source, lambda a, n: n, (), ("i64*", "i64"))


def _tiny_ir(body: str) -> str:
    return f'declare i64 @elsewhere()\ndefine i64 @"entry.1"(ptr %a, i64 %n) {{\n{body}\n}}\n'


def test_kept_machine_code_loads_and_is_checked(tmp_path):
    from mteval_gui.scoring.metrics.native import llvm_binding

    llvm = llvm_binding()
    probe = _probe(tmp_path)
    code = probe.machine_code(llvm, _tiny_ir("  ret i64 %n"), "entry.1")
    path = tmp_path / "k.o"
    path.write_bytes(probe.magic + __import__("hashlib").sha256(code).digest() + code)
    run, _engine = probe.load_file(llvm, path)
    assert run(0, 41) == 41
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one bit changed: not loaded
    with pytest.raises(ValueError, match="is not this kernel's machine code"):
        probe.load_file(llvm, path)
    path.write_bytes(code)  # no header
    with pytest.raises(ValueError, match="is not this kernel's machine code"):
        probe.load_file(llvm, path)
    with pytest.raises(ValueError, match="the compiled kernel calls elsewhere"):
        probe.machine_code(llvm, _tiny_ir("  %r = call i64 @elsewhere()\n  ret i64 %r"), "entry.1")


def test_the_machine_code_is_named_after_its_source_and_the_machine(monkeypatch, tmp_path):
    from mteval_gui.scoring.metrics.native import llvm_binding

    llvm = llvm_binding()
    probe = _probe(tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    first = probe.object_path(llvm)
    assert first.parent == tmp_path / "cache" and first.name.startswith("probe.") and first.suffix == ".o"
    monkeypatch.setattr(llvm, "get_host_cpu_name", lambda: "another-cpu")
    assert probe.object_path(llvm) != first
    monkeypatch.undo()
    probe.source.write_text("def f(a, n):\n    return n + 0\n", encoding="utf-8")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    assert probe.object_path(llvm) != first
