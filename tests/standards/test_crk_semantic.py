"""The Plains Cree semantic validator (crk.semantic): crafted verdicts, availability, verbforms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_standards.crk.english import content_words, stem
from eval_standards.crk.glosses import load_glosses
from eval_standards.crk.semantic import CrkSemanticMetric, CrkSemanticValidator
from eval_standards.crk.wordlists import load_wordlists
from mteval_gui.cards import load_card
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.errors import InputError
from mteval_gui.scoring.plugins import EntryInput, MetricUnavailable, ScoringContext
from tests.conftest import SHARED_DATA

STRICT = "crk/fst/crk-strict-analyzer-for-dictionary.hfstol"
DESCRIPTIVE = "crk/fst/crk-descriptive-analyzer.hfstol"
GLOSSES = "crk/glosses/crkeng_test_db.importjson"


# -- English side (no shared data) -----------------------------------------------------------

def test_stemmer_meets_sources_and_glosses():
    lists = load_wordlists()
    assert stem("arrives") == stem("arrived") == stem("arriving") == "arriv"
    assert stem("cries") == stem("cried") == "cry"
    assert list(content_words("as we and you are going to sleep", lists)) == ["go", "sleep"]
    assert list(content_words("s/he sees s.o., s/he beholds s.o.", lists)) == ["se", "behold"]
    assert list(content_words("he/she saw him", lists)) == ["se"]  # irregular form -> base
    assert content_words("as you all came home", lists) == {"com": "came", "hom": "home"}


def test_tsv_glosses_and_defects(tmp_path):
    lists = load_wordlists()
    good = tmp_path / "g.tsv"
    good.write_text("lemma\tgloss\nnipâw\ts/he sleeps; s/he is asleep\npê-\tcome and\n", encoding="utf-8")
    gd = load_glosses([good], lists.fold_chars)
    assert gd.definitions("nipāw") == ["s/he sleeps", "s/he is asleep"]  # macron key folds
    assert gd.preverb_definitions("pê") == ["come and"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("nipâw\ts/he sleeps\nmîcisow\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_glosses([bad], lists.fold_chars)
    assert str(exc.value) == f"{bad}:2: expected lemma<TAB>gloss"
    broken = tmp_path / "broken.importjson"
    broken.write_text('[{"head": "nipâw",\n  "senses": [}]', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_glosses([broken], lists.fold_chars)
    assert str(exc.value).startswith(f"{broken}:2:")


# -- crafted verdicts with the real analyzers and the dictionary sample --------------------

@pytest.fixture(scope="module")
def validator() -> CrkSemanticValidator:
    from mteval_gui.fst import Analyzer

    if not (SHARED_DATA / STRICT).is_file():
        pytest.skip("shared data not available")
    lists = load_wordlists()
    glosses = load_glosses([SHARED_DATA / GLOSSES], lists.fold_chars)
    strict = Analyzer.load(SHARED_DATA / STRICT)
    desc = Analyzer.load(SHARED_DATA / DESCRIPTIVE)
    return CrkSemanticValidator(
        lists, glosses, lambda f: strict.analyse(f).analyses, lambda f: desc.analyse(f).analyses
    )


CASES = [
    # source, references, output, verdict, weight
    ("he/she sleeps", ["nipâw"], "nipâw", "EXACT_MATCH", 1.0),
    ("he/she sleeps", ["nipâw"], "Nipâw.", "EXACT_MATCH", 1.0),
    ("he/she sleeps", ["nipâw"], "nipāw", "VALID", 1.0),  # linter: LONG_VOWEL_MACRON
    ("he/she eats", ["mîcisow"], "mîciw", "VALID", 1.0),  # both glossed 'eat'
    ("I sleep", ["ninipân"], "nipâw", "GRAMMAR_ISSUES", 0.7),  # right lemma, 3Sg for 1Sg
    ("he/she sleeps", ["nipâw"], "nipaw", "GRAMMAR_ISSUES", 0.7),  # descriptive analyzer only
    ("now he/she sleeps", ["anohc nipâw"], "nipâw", "PARTIAL", 0.4),  # 1 of 2
    ("now the bear sleeps", ["anohc maskwa nipâw"], "nipâw", "INCOMPLETE", 0.3),  # 1 of 3
    ("the beaver sleeps", ["amisk nipâw"], "amisk mîcisow", "INCOMPLETE", 0.3),  # 1 of 3 (eat is extraneous)
    ("he/she sleeps", ["nipâw"], "mîcisow", "WRONG", 0.0),
    ("he/she sleeps", ["nipâw"], "he sleeps", "WRONG", 0.0),  # English left in the output
    ("he/she sleeps", ["nipâw"], "", "NO_OUTPUT", 0.0),
    ("he/she sleeps", [], "nipâw", "VALID", 1.0),  # no reference: against the source
    ("he/she sleeps", [], "mîcisow", "WRONG", 0.0),
    ("come and see him", [], "pê-wâpam", "VALID", 1.0),  # lexical preverb pê- glossed 'come'
    ("he/she sleeps", ["nipâw"], "atim", None, None),  # atim is not in the dictionary
    ("now he/she sleeps", ["anohc nipâw"], "anohc atim", None, None),  # INCOMPLETE..VALID: undecided
]


@pytest.mark.shared_data
@pytest.mark.parametrize("source,refs,output,verdict,weight", CASES)
def test_crafted_verdicts(validator, source, refs, output, verdict, weight):
    res = validator.validate(source, refs, output)
    assert res.verdict == verdict, res.explanation
    assert res.weight == weight


@pytest.mark.shared_data
def test_pairing_shown_to_the_reviewer(validator):
    res = validator.validate("come and see him", [], "pê-wâpam")
    assert res.pairs == [{
        "output": "pê-wâpam",
        "lemmas": ["pê-wâpamêw", "wâpamêw"],
        "gloss": "s/he sees s.o., s/he beholds s.o.; s/he recognizes s.o.; s/he witnesses s.o., s/he observes s.o., "
                 "s/he bears witness to s.o.'s existence",
        "source_words": ["come", "see"],
        "reference": None,
        "match": "source",
    }]
    res = validator.validate("I sleep", ["ninipân"], "nipâw")
    assert res.pairs[0]["reference"] == "ninipân" and res.pairs[0]["match"] == "lemma"
    assert res.pairs[0]["note"] == "nipâw: other inflection than ninipân (nipâw+V+AI+Ind+3Sg vs nipâw+V+AI+Ind+1Sg)"
    res = validator.validate("he/she sleeps", ["nipâw"], "nipāw")
    assert res.pairs[0]["source_words"] == ["sleeps"] and res.matched == "reference"


@pytest.mark.shared_data
def test_reduplication_is_stripped_from_lemmas(validator):
    from eval_standards.crk.orthography import Orthography

    w = Orthography(validator.lists).words("niwî-pa-pakamahwânânak")[0]
    assert validator.meaning(w).lemmas == ("pakamahwêsiw", "pakamahwêw")


# -- the metric: availability and the verbforms runs ----------------------------------------

def _ctx(options: dict, source_lang: str = "eng") -> ScoringContext:
    return ScoringContext(source_lang=source_lang, target_lang="crk", target_card=load_card("crk"), options=options)


def test_unavailable_without_gloss_file():
    with pytest.raises(MetricUnavailable) as exc:
        CrkSemanticMetric().prepare(_ctx({}))
    assert exc.value.availability == "unavailable"
    assert "no Cree→English gloss file" in exc.value.reason


def test_unavailable_when_gloss_file_is_missing(tmp_path):
    missing = tmp_path / "nowhere.importjson"
    with pytest.raises(MetricUnavailable) as exc:
        CrkSemanticMetric().prepare(_ctx({"gloss_files": {"crk": str(missing)}}))
    assert exc.value.reason.startswith("gloss file unusable: ")
    assert str(missing) in exc.value.reason


def test_unavailable_without_analyzer(tmp_path):
    g = tmp_path / "g.tsv"
    g.write_text("nipâw\ts/he sleeps\n", encoding="utf-8")
    with pytest.raises(MetricUnavailable) as exc:
        CrkSemanticMetric().prepare(_ctx({"gloss_files": {"crk": str(g)}}))
    assert exc.value.reason == "no analyzer for crk: run `mteval analyzers install crk PATH_OR_URL`"


def test_not_applicable_for_non_english_source(tmp_path):
    with pytest.raises(MetricUnavailable) as exc:
        CrkSemanticMetric().prepare(_ctx({}, source_lang="fra"))
    assert exc.value.availability == "not_applicable"


def _items(shared: Path, run: str) -> list[EntryInput]:
    corpus = {e.id: e for e in (Entry(**json.loads(line)) for line in
                                (shared / "crk/verbforms/corpus.jsonl").read_text(encoding="utf-8").splitlines())}
    out = []
    for line in (shared / f"crk/verbforms/runs/{run}.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if "run" not in rec:
            out.append(EntryInput(len(out), corpus[rec["id"]], Output(**rec)))
    return out


@pytest.fixture(scope="module")
def prepared():
    if not (SHARED_DATA / STRICT).is_file():
        pytest.skip("shared data not available")
    ctx = _ctx({
        "analyzer_path": str(SHARED_DATA / STRICT),
        "descriptive_analyzer_path": str(SHARED_DATA / DESCRIPTIVE),
        "gloss_files": {"crk": str(SHARED_DATA / GLOSSES)},
    })
    m = CrkSemanticMetric()
    m.prepare(ctx)
    return m, ctx


@pytest.mark.shared_data
def test_metric_on_macron_and_wrong_person_runs(prepared, shared_data):
    m, ctx = prepared
    items = _items(shared_data, "macron")
    agg = m.aggregate(m.score_entries(items), ctx)
    assert agg.values == {"semantic_score": 1.0, "semantic_coverage": 1.0}
    assert agg.extra["verdicts"]["VALID"] == 540 and agg.extra["verdicts"]["EXACT_MATCH"] == 31
    assert agg.extra["glosses"]["files"] == {
        "crkeng_test_db.importjson": agg.extra["glosses"]["files"]["crkeng_test_db.importjson"]
    }

    items = _items(shared_data, "wrong-person")
    scores = m.score_entries(items)
    for it, s in zip(items, scores, strict=True):
        same = it.predicted in it.entry.references()
        assert s.detail["verdict"] == ("EXACT_MATCH" if same else "GRAMMAR_ISSUES"), (it.predicted, s.detail)
    agg = m.aggregate(scores, ctx)
    # 132 identical outputs (1.0) and 439 right lemmas in the wrong person (0.7)
    assert agg.values["semantic_score"] == pytest.approx((132 * 1.0 + 439 * 0.7) / 571)
    assert agg.values["semantic_coverage"] == 1.0
    json.dumps([s.to_json() for s in scores])


@pytest.mark.shared_data
def test_metric_mixed_run_reports_coverage(prepared, shared_data):
    m, ctx = prepared
    items = _items(shared_data, "mixed")
    scores = m.score_entries(items)
    agg = m.aggregate(scores, ctx)
    scored = [s for s in scores if s.value is not None]
    assert agg.values["semantic_coverage"] == pytest.approx(len(scored) / 571)
    assert agg.values["semantic_score"] == pytest.approx(sum(s.value for s in scored) / len(scored))
    assert agg.extra["unscored"] == 571 - len(scored)
    for it, s in zip(items, scores, strict=True):
        if it.output.error or not it.predicted.strip():
            assert (s.detail["verdict"], s.value) == ("NO_OUTPUT", 0.0)
        if s.value is None:
            assert "dictionary" in s.detail["explanation"]
