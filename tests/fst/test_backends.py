"""The two lookup backends (hfst, pyhfst): choice, the input-alphabet check, conformance on real analyzers."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from mteval_gui.fst import Analyzer, AnalyzerError, backends, load_analyzer
from mteval_gui.fst.analyzer import read_transducer
from mteval_gui.fst.backends import (
    BACKEND_ENV,
    MAX_FORM_CHARS,
    BackendError,
    choose_backend,
)
from mteval_gui.text import apply_folds, case_variants, fst_form, word_tokens
from tests.fst._support import CRK_FILES, build_multichar_hfstol, build_tiny_hfstol

pytest.importorskip("pyhfst")
pytest.importorskip("hfst", reason="these tests hold pyhfst to hfst, and compile test transducers with it")

BOTH = ("hfst", "pyhfst")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("tiny") / "tiny.hfstol")


# -- choosing a backend -------------------------------------------------------------------
def test_backend_choice_follows_the_environment(monkeypatch):
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    assert choose_backend() == "hfst"  # preferred wherever it is installed
    monkeypatch.setenv(BACKEND_ENV, "pyhfst")
    assert choose_backend() == "pyhfst"
    monkeypatch.setenv(BACKEND_ENV, " HFST ")
    assert choose_backend() == "hfst"
    monkeypatch.setenv(BACKEND_ENV, "auto")
    assert choose_backend() == "hfst"
    assert choose_backend("pyhfst") == "pyhfst"  # an explicit choice beats the environment
    monkeypatch.setenv(BACKEND_ENV, "foma")
    with pytest.raises(BackendError, match="MTEVAL_FST_BACKEND='foma': expected one of hfst, pyhfst or auto"):
        choose_backend()


def test_without_hfst_pyhfst_is_taken_and_forcing_hfst_says_why_not(monkeypatch, tiny):
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    real = backends._importable
    monkeypatch.setattr(backends, "_importable", lambda name: False if name == "hfst" else real(name))
    assert choose_backend() == "pyhfst"
    an = load_analyzer(tiny)
    assert an.backend == "pyhfst" and an.analyse("nipâw").accepted
    monkeypatch.setenv(BACKEND_ENV, "hfst")
    with pytest.raises(AnalyzerError, match="the hfst FST backend was asked for but the hfst package is not installed"):
        load_analyzer(tiny)


def test_analyzer_records_backend_and_version(tiny):
    from importlib.metadata import version

    for name in BOTH:
        an = load_analyzer(tiny, backend=name)
        assert an.backend_info() == {"backend": name, "backend_version": version(name)}
    assert load_analyzer(tiny, backend="hfst")._transducer is not load_analyzer(tiny, backend="pyhfst")._transducer


# -- the input-alphabet check ---------------------------------------------------------------
def test_raw_pyhfst_gives_false_analyses_that_the_backend_refuses(tiny):
    import pyhfst

    raw = pyhfst.HfstInputStream(str(tiny)).read()
    assert raw.lookup("nipâwx") and raw.lookup("nipâw?")  # the trap: the valid prefix is analysed
    t = read_transducer(tiny, "pyhfst")
    assert t.lookup("nipâwx") == () and t.lookup("nipâw?") == ()
    assert t.lookup("nipâw") == ("nipâw+V+AI+Ind+3Sg",)
    an = Analyzer(t)
    assert not an.analyse("nipâwx").accepted
    assert an.analyse("nipâw").accepted and an.analyse("Nipâw").form == "nipâw"


@pytest.mark.parametrize("weighted", [False, True])
def test_multicharacter_symbols_and_weights_as_hfst_reads_them(tmp_path, weighted):
    import pyhfst

    path = build_multichar_hfstol(tmp_path / "mc.hfstol", weighted=weighted)
    raw = pyhfst.HfstInputStream(str(path)).read()
    assert raw.lookup("ab") == []  # pyhfst's own tokeniser gives up on a prefix of the symbol "abc"
    h, p = read_transducer(path, "hfst"), read_transducer(path, "pyhfst")
    expected = {"ab": ("AB",), "abc": ("X",), "x": ("Z", "W", "Y") if weighted else ("W", "Y", "Z"),
                "abx": (), "a": (), "": ()}
    for word, analyses in expected.items():
        assert h.lookup(word) == analyses, word
        assert p.lookup(word) == analyses, word


def test_forms_longer_than_the_limit_are_rejected_without_a_lookup(tiny):
    for name in BOTH:
        an = load_analyzer(tiny, backend=name)
        assert not an.analyse("nipâw" * 60).accepted  # 300 characters
        assert not an.analyse("a" * 100_000).accepted  # pyhfst's tokeniser alone took 40 s for 10,000
        assert an.transducer_lookups == 0
        assert an._transducer.lookup("a" * (MAX_FORM_CHARS + 1)) == ()
        assert an._transducer.lookup("a" * MAX_FORM_CHARS) == ()  # looked up (and rejected)


def test_identity_symbols_on_the_input_side_are_refused_by_pyhfst(tmp_path):
    hfst = pytest.importorskip("hfst")
    t = hfst.regex("?:x")  # any character -> x: pyhfst has no identity/unknown symbols
    t.convert(hfst.ImplementationType.HFST_OL_TYPE)
    path = tmp_path / "identity.hfstol"
    out = hfst.HfstOutputStream(filename=str(path), type=t.get_type())
    out.write(t)
    out.close()
    with pytest.raises(AnalyzerError, match="which pyhfst does not implement; install hfst"):
        read_transducer(path, "pyhfst")
    read_transducer(path, "hfst")


# -- conformance on the real Plains Cree analyzers -------------------------------------------
def _texts(path: Path):
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        for key in ("predicted", "reference", "source"):
            if isinstance(rec.get(key), str):
                yield rec[key]
        yield from (v for v in rec.get("variants") or () if isinstance(v, str))
        yield from (rec.get("expected_morphology") or {})


def _lookup_forms(files: list[Path], folds: dict[str, str]) -> set[str]:
    forms: set[str] = set()
    for f in files:
        for text in _texts(f):
            for tok in word_tokens(text):
                for form in {fst_form(tok), fst_form(apply_folds(tok, folds))}:
                    forms.update(case_variants(form))
    return forms


GARBAGE = [
    "nipâwx", "tânisi?", "nipâw!", "nipâw.", "«nipâw»", "(nipâw)", "nipâw,", "nipâw…",  # punctuation, alphabet
    unicodedata.normalize("NFD", "nipâw"), unicodedata.normalize("NFD", "ê-nipât"),  # NFD
    "ê\u2010nipât", "ê\u2011nipât", "ê\u2013nipât", "ê\u2014nipât", "ê\u2212nipât",  # typographic hyphens
    "", " ", "nipâw nipâw", "nipâw\t", "\u200bnipâw", "nipâw\x00", "nipâw\ufeff",  # empty, spaces, invisibles
    "nipâw" * 60, "a" * 10_000, "ê-" * 100 + "nipâw", "ki" * 120, "nipâw" * 51,  # long words
    "animal", "ayāw", "nipāw", "ᓂᐸᐤ", "nipâw🙂", "NIPÂW", "Nipâw", "@U.order.indep@nipâw", "nipâw+V+AI",
    "t2", "DRV-FST", "DRV-", "0", "§", "²", "€", "a\udcff",  # odd symbols of the alphabets, a lone surrogate
]
MUST_REJECT = [w for w in GARBAGE if w not in ("Nipâw", "nipâw+V+AI", "t2", "DRV-FST", "0", "§", "²", "€",
                                                "NIPÂW", "nipâw nipâw", " ", "nipâw\t")]


class _Recorded:
    """A transducer whose lookups are kept, so the word-level comparison repeats none of them."""

    def __init__(self, transducer) -> None:
        self._t = transducer
        self.backend, self.version = transducer.backend, transducer.version
        self.seen: dict[str, tuple[str, ...]] = {}

    def lookup(self, form: str) -> tuple[str, ...]:
        if form not in self.seen:
            self.seen[form] = self._t.lookup(form)
        return self.seen[form]


@pytest.mark.slow
@pytest.mark.shared_data
def test_both_backends_give_identical_analyses_on_the_crk_analyzers(shared_data):
    from mteval_gui.cards import load_card
    from mteval_gui.paths import demo_dir

    folds = load_card("crk").orthography.folds
    assert folds
    files = sorted((shared_data / "crk" / "verbforms" / "runs").glob("*.jsonl"))
    assert [f.stem for f in files] == ["macron", "mixed", "no-circumflex", "oracle", "wrong-person"]
    files += [shared_data / "crk" / "verbforms" / "corpus.jsonl"]
    files += sorted(demo_dir().glob("crk-*.jsonl"))
    assert [f.name for f in files[5:]] == ["corpus.jsonl", "crk-verbs.flawed.jsonl", "crk-verbs.good.jsonl",
                                           "crk-verbs.jsonl"]
    texts = [t for f in files for t in _texts(f)]
    assert (len(texts), sum(len(word_tokens(t)) for t in texts)) == (4_739, 7_995)
    forms = sorted(_lookup_forms(files, folds))
    assert len(forms) == 2_794  # every token as written, folded, and in its case variants
    fst_dir = shared_data / "crk" / "fst"
    analyses: set[str] = set()
    counts = {}
    for kind in ("strict", "descriptive", "generator"):
        path = fst_dir / CRK_FILES[kind]
        h, p = _Recorded(read_transducer(path, "hfst")), _Recorded(read_transducer(path, "pyhfst"))
        assert (h.backend, p.backend) == BOTH
        inputs = forms if kind != "generator" else sorted(analyses)  # the generator reads the strict analyses
        accepted = 0
        for form in inputs:
            got = h.lookup(form)
            assert p.lookup(form) == got, (kind, form)
            accepted += bool(got)
            if kind == "strict":
                analyses.update(got)
        counts[kind] = (len(inputs), accepted)
        for word in GARBAGE:
            assert p.lookup(word) == h.lookup(word), (kind, word)
        for word in MUST_REJECT:
            assert h.lookup(word) == () and p.lookup(word) == (), (kind, word)
        if kind == "generator":
            continue
        # what the metrics see: every word of every text, through tokenisation and the case fallback
        ha, pa = Analyzer(h), Analyzer(p)
        for text in texts:
            assert pa.analyse_text(text) == ha.analyse_text(text), (kind, text)
        assert [pa.analyse(w) for w in GARBAGE] == [ha.analyse(w) for w in GARBAGE], kind
        # tokens are looked up in NFC, with ASCII hyphens for these four (not the em dash), lower-cased if need be
        normalised = [unicodedata.normalize("NFD", "nipâw"), unicodedata.normalize("NFD", "ê-nipât"), "ê\u2010nipât",
                      "ê\u2011nipât", "ê\u2013nipât", "ê\u2212nipât", "NIPÂW", "Nipâw"]
        assert [w for w in GARBAGE if pa.analyse(w).accepted] == normalised + (["0", "²"] if kind == "descriptive"
                                                                               else []), kind
        counts[kind] += (sum(ha.analyse(w).accepted for t in texts for w in word_tokens(t)),)
    assert counts == {"strict": (2_794, 1_127, 2_833), "descriptive": (2_794, 1_625, 3_503),
                      "generator": (1_318, 1_318)}  # (forms, accepted, accepted words of the 7,995)


@pytest.fixture(scope="module")
def crk_installed(tmp_path_factory):
    from tests.conftest import SHARED_DATA
    from tests.fst._support import install_crk

    if not SHARED_DATA.is_dir():
        pytest.skip("shared data folder not found")
    base = tmp_path_factory.mktemp("analyzers")
    install_crk(SHARED_DATA, base)
    return base


FST_SCORES = ("fst_acceptance_rate", "fst_acceptance_rate_micro", "fst_accepted", "morphological_accuracy",
              "morph_coverage", "orthographic_accuracy")
# (fst_acceptance_rate, fst_acceptance_rate_micro, morphological_accuracy, orthographic_accuracy), to 4 places;
# the macron run's words are accepted after the card's folds (ā -> â), which orthographic accuracy counts against
CRK_FST_NUMBERS = {"oracle": (1.0, 1.0, 1.0, 1.0), "macron": (1.0, 1.0, 1.0, 0.0543),
                   "no-circumflex": (0.0665, 0.0665, 0.8611, 0.0806), "wrong-person": (1.0, 1.0, 0.2312, 1.0),
                   "mixed": (0.6961, 0.4964, 0.8426, 0.5168)}


@pytest.mark.shared_data
@pytest.mark.parametrize("run", ["oracle", "macron", "no-circumflex", "wrong-person", "mixed"])
def test_forcing_pyhfst_gives_the_same_run_card(run, crk_installed, shared_data, tmp_path, monkeypatch, capsys):
    from importlib.metadata import version

    from mteval_gui.cli import main

    monkeypatch.setenv("MTEVAL_ANALYZERS", str(crk_installed))
    d = shared_data / "crk" / "verbforms"
    cards = {}
    for name in BOTH:
        monkeypatch.setenv(BACKEND_ENV, name)
        out = tmp_path / f"{name}.json"
        assert main(["evaluate", "--corpus", str(d / "corpus.jsonl"), "--run", str(d / "runs" / f"{run}.jsonl"),
                     "--lang", "crk", "--source-lang", "eng", "--metrics", "core.fst", "core.morph", "core.ortho",
                     "crk.lint", "--bootstrap", "0", "-o", str(out)]) == 0
        cards[name] = json.loads(out.read_text(encoding="utf-8"))
    capsys.readouterr()
    h, p = cards["hfst"], cards["pyhfst"]
    assert h["fst"]["backend"] == "hfst" and h["fst"]["backend_version"] == version("hfst")
    assert p["fst"]["backend"] == "pyhfst" and p["fst"]["backend_version"] == version("pyhfst")
    assert {k: v for k, v in h["fst"].items() if not k.startswith("backend")} == \
        {k: v for k, v in p["fst"].items() if not k.startswith("backend")}
    assert h["fst"]["sha256"] == "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e"
    for key in FST_SCORES:
        assert h["scores"][key] is not None and p["scores"][key] == h["scores"][key], key
    assert tuple(round(p["scores"][k], 4) for k in ("fst_acceptance_rate", "fst_acceptance_rate_micro",
                                                    "morphological_accuracy", "orthographic_accuracy")) \
        == CRK_FST_NUMBERS[run]
    assert h["scores"]["equivalent_match_rate"] == p["scores"]["equivalent_match_rate"]
    assert h["metric_availability"]["core.fst"] == p["metric_availability"]["core.fst"] == "ok"
    assert [r["fst_analysis"] for r in h["results"]] == [r["fst_analysis"] for r in p["results"]]
    assert [r["lint_verdict"] for r in h["results"]] == [r["lint_verdict"] for r in p["results"]]
