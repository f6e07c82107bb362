"""Structural metrics: FST acceptance, morphological accuracy, orthographic accuracy."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

from mteval_gui.cards import load_card
from mteval_gui.domain.card import LanguageCard, OrthographyProfile, OrthographyRule
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.fst.backends import choose_backend
from mteval_gui.scoring.metrics.orthography import OrthographyChecker
from mteval_gui.scoring.metrics.structural import (
    FstAcceptanceMetric,
    MorphologicalAccuracyMetric,
    OrthographicAccuracyMetric,
)
from mteval_gui.scoring.plugins import EntryInput, EntryScore, MetricUnavailable, ScoringContext
from tests.fst._support import build_tiny_hfstol, install_crk


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("tiny") / "tiny.hfstol")


def _items(pairs: list[tuple[Entry, Output]]) -> list[EntryInput]:
    return [EntryInput(i, e, o) for i, (e, o) in enumerate(pairs)]


def _ctx(tiny: Path | None, card: LanguageCard | None = None, lang: str = "tst", **options) -> ScoringContext:
    opts = dict(options)
    if tiny is not None:
        opts["analyzer_path"] = str(tiny)
    return ScoringContext("eng", lang, target_card=card, options=opts)


def _run(metric_cls, ctx: ScoringContext, items: list[EntryInput]):
    m = metric_cls()
    m.prepare(ctx)
    per = m.score_entries(items)
    for e in per:
        json.dumps(e.to_json(), allow_nan=False)
    return per, m.aggregate([EntryScore.from_json(e.to_json()) for e in per], ctx)


# -- hand-computed examples on a tiny analyzer ------------------------------------------
def test_fst_acceptance_by_hand(tiny):
    e = Entry(id="1", source="x", reference="nipâw")
    items = _items([
        (e, Output(id="1", predicted="nipâw atim.")),        # 2/2
        (e, Output(id="2", predicted="Nipâw kotak")),         # 1/2 (case fallback)
        (e, Output(id="3", predicted="", error="timeout")),  # empty: 0
        (e, Output(id="4", predicted="« 2024 »")),            # no word tokens: 0
    ])
    per, cs = _run(FstAcceptanceMetric, _ctx(tiny), items)
    assert [p.value for p in per] == [1.0, 0.5, 0.0, 0.0]
    assert [p.values["rejected"] for p in per] == [0, 1, 0, 0]
    assert per[1].detail["analyses"] == [
        {"token": "Nipâw", "form": "nipâw", "accepted": True, "analyses": ["nipâw+V+AI+Ind+3Sg"]},
        {"token": "kotak", "form": "kotak", "accepted": False, "analyses": []},
    ]
    assert cs.availability == "ok"
    assert cs.values == {"fst_acceptance_rate": 0.375, "fst_acceptance_rate_micro": 0.75, "fst_accepted": 3}
    assert cs.analyzer is not None and cs.analyzer.file == "tiny.hfstol" and len(cs.analyzer.sha256 or "") == 64
    assert cs.analyzer.descriptive_file is None


def test_a_word_rejected_as_written_is_looked_up_after_the_card_folds(tiny):
    card = LanguageCard(code="tst", name="Test", orthography=OrthographyProfile(
        alphabet="aâeêiîoôcehkmnpstwy", lookalikes={"ā": "â"}, folds={"ā": "â"}))
    e = Entry(id="1", source="x", reference="nipâw")
    items = _items([(e, Output(id="1", predicted="nipāw ê‐nipât kotak")), (e, Output(id="2", predicted="nipâw"))])
    per, cs = _run(FstAcceptanceMetric, _ctx(tiny, card), items)
    assert per[0].detail["analyses"] == [
        {"token": "nipāw", "form": "nipâw", "accepted": True, "analyses": ["nipâw+V+AI+Ind+3Sg"],
         "folded": "nipâw"},
        {"token": "ê‐nipât", "form": "ê-nipât", "accepted": True, "analyses": ["PV/e+nipâw+V+AI+Cnj+3Sg"],
         "folded": "ê-nipât"},
        {"token": "kotak", "form": "kotak", "accepted": False, "analyses": []},
    ]
    assert [p.value for p in per] == [pytest.approx(2 / 3), 1.0]
    assert cs.values["fst_acceptance_rate_micro"] == 0.75
    assert cs.extra["accepted_after_fold"] == 2 and cs.extra["accepted_after_fold_share"] == 0.5
    assert [c.model_dump() for c in cs.caveats] == [{
        "code": "fst_accepts_after_fold",
        "message": "2 of 4 output words (50.0%) are accepted by the analyzer only after an orthographic fold "
                   "(ā→â); they count as accepted for FST acceptance and morphology and against orthographic "
                   "accuracy",
        "detail": {"words": 2, "total": 4, "share": 0.5}}]
    per, cs = _run(MorphologicalAccuracyMetric, _ctx(tiny, card), items[:1])
    assert [w["status"] for w in per[0].detail["words"]] == ["correct", "wrong", "rejected"]
    per, cs = _run(OrthographicAccuracyMetric, _ctx(tiny, card), items)
    flagged = {f["token"]: [v["code"] for v in f["violations"]] for f in per[0].detail["flagged"]}
    assert flagged == {"nipāw": ["lookalike", "fst_after_fold"], "ê‐nipât": ["alphabet", "fst_after_fold"]}
    assert cs.values["orthographic_accuracy"] == 0.5
    # without folds the macron spelling is rejected, as before
    per, _ = _run(FstAcceptanceMetric, _ctx(tiny), items[:1])
    assert [w["accepted"] for w in per[0].detail["analyses"]] == [False, True, False]


def test_morphological_accuracy_by_hand(tiny):
    ref = Entry(id="1", source="as he sleeps", reference="ê-nipât")
    gold = Entry(id="2", source="he sleeps", reference="nipâw",
                 expected_morphology={"nipâw": "PV/e+nipâw+V+AI+Cnj+3Sg"})  # gold overrides the FST
    items = _items([
        (ref, Output(id="1", predicted="ê-nipât")),             # correct
        (ref, Output(id="1", predicted="nipâw atim kotak")),     # wrong, uncovered, rejected
        (gold, Output(id="2", predicted="nipâw")),              # wrong against the gold analysis
        (Entry(id="3", source="s"), Output(id="3", predicted="nipâw")),  # nothing to compare with
    ])
    per, cs = _run(MorphologicalAccuracyMetric, _ctx(tiny), items)
    assert [p.value for p in per] == [1.0, 0.0, 0.0, None]
    assert [w["status"] for w in per[1].detail["words"]] == ["wrong", "uncovered", "rejected"]
    assert per[1].values["covered"] == 1 and per[1].values["analysable"] == 2
    stats = MorphologicalAccuracyMetric.__new__(MorphologicalAccuracyMetric).entry_statistics(per)
    assert stats["morph_coverage"].matrix.tolist() == [[1.0, 1.0], [1.0, 2.0], [1.0, 1.0], [0.0, 0.0]]
    assert cs.availability == "ok"
    assert cs.values == {"morphological_accuracy": pytest.approx(1 / 3), "morph_coverage": pytest.approx(3 / 4)}


def test_morph_low_coverage_and_nothing_covered(tiny):
    e = Entry(id="1", source="s", reference="ê-nipât")
    items = _items([(e, Output(id="1", predicted="ê-nipât atim atim atim atim"))])  # covered 1 of 5
    _, cs = _run(MorphologicalAccuracyMetric, _ctx(tiny), items)
    assert cs.availability == "below_coverage"
    assert cs.values == {"morphological_accuracy": 1.0, "morph_coverage": 0.2}
    _, cs = _run(MorphologicalAccuracyMetric, _ctx(tiny), _items([(e, Output(id="1", predicted="kotak"))]))
    assert cs.availability == "not_applicable" and cs.values["morphological_accuracy"] is None
    assert cs.reason == "no output word was accepted by the analyzer"


def test_missing_analyzer_makes_metrics_unavailable(tmp_path, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "none"))
    card = load_card("crk")
    for cls in (FstAcceptanceMetric, MorphologicalAccuracyMetric):
        with pytest.raises(MetricUnavailable) as err:
            cls().prepare(_ctx(None, card, "crk"))
        assert err.value.availability == "unavailable"
        assert err.value.reason == "no analyzer for crk: run `mteval analyzers install crk PATH_OR_URL`"
    # orthography still runs from the card's profile alone
    m = OrthographicAccuracyMetric()
    m.prepare(_ctx(None, card, "crk"))
    e = Entry(id="1", source="s", reference="nipâw")
    per = m.score_entries(_items([(e, Output(id="1", predicted="nipāw nipaaw nipâw"))]))
    assert per[0].value == pytest.approx(1 / 3)
    with pytest.raises(MetricUnavailable) as err:
        OrthographicAccuracyMetric().prepare(_ctx(None, None, "zzz"))
    assert err.value.availability == "not_applicable"


# -- orthography ------------------------------------------------------------------------
def test_ewe_lookalikes_and_digits():
    card = load_card("ewe")
    chk = OrthographyChecker.for_card(card)
    codes = lambda w: [v.code for v in chk.check(w)]  # noqa: E731
    assert codes("Ɖevi") == []
    assert codes("Ðevi") == ["lookalike"] and codes("Đevi") == ["lookalike"]
    assert codes("ʊu") == ["lookalike"] and codes("ɑɖe") == ["lookalike"] and codes("ɩ") == ["lookalike"]
    assert codes("3ʋe") == ["digit"]
    assert codes("Lomé") == [] and codes("Togo") == []
    assert chk.check("Ðevi")[0].message == "look-alike 'Ð' (U+00D0) written for 'Ɖ'"
    m = OrthographicAccuracyMetric()
    m.prepare(_ctx(None, card, "ewe"))
    e = Entry(id="1", source="s", reference="x")
    per = m.score_entries(_items([(e, Output(id="1", predicted="Ðevi la ʋu 3e nyuie!")),
                                  (e, Output(id="2", predicted="", error="HTTP 503"))]))
    assert per[0].value == pytest.approx(3 / 5) and per[1].value is None
    assert [f["token"] for f in per[0].detail["flagged"]] == ["Ðevi", "3e"]
    cs = m.aggregate(per, _ctx(None, card, "ewe"))
    assert cs.values == {"orthographic_accuracy": pytest.approx(3 / 5)}
    assert cs.extra["violations_by_code"] == {"digit": 1, "lookalike": 1}


def test_profile_rules_forbidden_and_folds():
    prof = OrthographyProfile(alphabet="abcê", forbidden={"@": "not a letter"}, folds={"ē": "ê", "ae": "ê"},
                              rules=[OrthographyRule(pattern="cc", message="no double c")])
    chk = OrthographyChecker(prof)
    assert [v.code for v in chk.check("Abê")] == []
    assert [v.code for v in chk.check("a@b")] == ["forbidden"]
    assert [v.code for v in chk.check("bē")] == ["fold"]
    assert [v.code for v in chk.check("bae")] == ["alphabet", "fold"]  # 'e' is not a letter; 'ae' is folded
    assert [(v.code, v.message) for v in chk.check("acc")] == [("rule", "no double c")]


# -- the crk verbforms corpus (real analyzers, real runs) -------------------------------
def _load(shared_data: Path, run: str) -> list[EntryInput]:
    base = shared_data / "crk" / "verbforms"
    entries = [
        Entry(**json.loads(line)) for line in (base / "corpus.jsonl").read_text("utf-8").splitlines() if line.strip()
    ]
    lines = (base / "runs" / f"{run}.jsonl").read_text("utf-8").splitlines()
    assert "run" in json.loads(lines[0])
    outs = {o.id: o for o in (Output(**json.loads(line)) for line in lines[1:] if line.strip())}
    return [EntryInput(i, e, outs.get(e.id, Output(id=e.id))) for i, e in enumerate(entries)]


@pytest.fixture(scope="module")
def crk_dir(shared_data_dir, tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("analyzers")
    install_crk(shared_data_dir, base)
    return base


@pytest.fixture(scope="module")
def shared_data_dir() -> Path:
    from tests.conftest import SHARED_DATA

    return SHARED_DATA


# run -> (fst macro, fst micro, accepted, morph acc, morph coverage, ortho acc, ortho violation codes)
# macron spellings are accepted after the card's folds (ā -> â): accepted for FST and morphology,
# counted against orthography (run -> words accepted only after a fold)
CRK_EXPECTED = {
    "oracle": (1.0, 1.0, 571, 1.0, 1.0, 1.0, {}),
    "macron": (1.0, 1.0, 571, 1.0, 1.0, 31 / 571, {"fst_after_fold": 540, "lookalike": 540}),
    "no-circumflex": (38 / 571, 38 / 571, 38, 31 / 36, 36 / 38, 46 / 571, {"alphabet": 294, "non_standard": 518}),
    "wrong-person": (1.0, 1.0, 571, 132 / 571, 1.0, 1.0, {}),
    "mixed": (0.6961471103327496, 413 / 832, 413, 348 / 413, 1.0, 430 / 832,
              {"alphabet": 291, "fst_after_fold": 68, "lookalike": 68, "non_standard": 81, "rule": 9}),
}
CRK_FOLDED = {"oracle": 0, "macron": 540, "no-circumflex": 0, "wrong-person": 0, "mixed": 68}


@pytest.mark.shared_data
@pytest.mark.parametrize("run", sorted(CRK_EXPECTED))
def test_crk_verbforms_runs(run, shared_data, crk_dir, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(crk_dir))
    items = _load(shared_data, run)
    assert len(items) == 571
    ctx = ScoringContext("eng", "crk", target_card=load_card("crk"))
    fst_per, fst = _run(FstAcceptanceMetric, ctx, items)
    _, morph = _run(MorphologicalAccuracyMetric, ctx, items)
    ortho_per, ortho = _run(OrthographicAccuracyMetric, ctx, items)
    assert ctx.shared["fst.strict"].name == "crk-strict-analyzer-for-dictionary.hfstol"
    macro, micro, accepted, macc, mcov, oacc, codes = CRK_EXPECTED[run]
    assert fst.availability == "ok"
    assert fst.values["fst_acceptance_rate"] == pytest.approx(macro, abs=1e-12)
    assert fst.values["fst_acceptance_rate_micro"] == pytest.approx(micro, abs=1e-12)
    assert fst.values["fst_accepted"] == accepted
    assert morph.values["morphological_accuracy"] == pytest.approx(macc, abs=1e-12)
    assert morph.values["morph_coverage"] == pytest.approx(mcov, abs=1e-12)
    assert ortho.values["orthographic_accuracy"] == pytest.approx(oacc, abs=1e-12)
    assert ortho.extra["violations_by_code"] == codes
    assert fst.analyzer is not None and fst.analyzer.model_dump() == {
        "file": "crk-strict-analyzer-for-dictionary.hfstol",
        "sha256": "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e",
        "descriptive_file": "crk-descriptive-analyzer.hfstol",
        "descriptive_sha256": ctx.shared["fst.descriptive"].sha256,
        "backend": choose_backend(),  # hfst unless MTEVAL_FST_BACKEND says otherwise
        "backend_version": version(choose_backend()),
    }
    assert ctx.shared["target_accepts"]("nititwân") is True
    assert ctx.shared["target_accepts"]("nititwān") is True  # after the fold ā -> â
    assert fst.extra["accepted_after_fold"] == CRK_FOLDED[run]
    caveats = [c.code for c in fst.caveats]
    assert caveats == (["fst_accepts_after_fold"] if CRK_FOLDED[run] else [])
    if run == "macron":
        folded = [w for p in fst_per for w in p.detail["analyses"] if "folded" in w]
        assert len(folded) == 540
        assert all(w["accepted"] and "ā" not in w["folded"] and w["folded"] == w["form"] for w in folded[:50])
        assert fst.caveats[0].detail["share"] == pytest.approx(540 / 571)
    if run == "no-circumflex":  # a non-standard spelling carries the descriptive analyzer's readings
        flagged = [f for p in ortho_per for f in p.detail.get("flagged", [])]
        word = next(v for f in flagged if f["token"] == "nititwan" for v in f["violations"]
                    if v["code"] == "non_standard")
        assert word["analyses"] and all(a.startswith("itwêw+V+AI+") for a in word["analyses"])
        assert word["message"].endswith(f"as {word['analyses'][0]}")
    if run == "mixed":
        empty = [p for it, p in zip(items, fst_per, strict=True) if not it.predicted]
        assert len(empty) == 37 and all(p.value == 0.0 for p in empty)


@pytest.mark.shared_data
def test_crk_behaviour_is_what_a_linguist_expects(shared_data, crk_dir, monkeypatch):
    """Diacritic-less spellings fail FST and orthography; macron spellings pass FST after the folds but fail
    orthography; wrong person keeps FST, loses morphology."""
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(crk_dir))
    card = load_card("crk")
    got = {}
    for run in ("oracle", "macron", "no-circumflex", "wrong-person"):
        ctx = ScoringContext("eng", "crk", target_card=card)
        items = _load(shared_data, run)
        got[run] = {m.info.id: _run(m, ctx, items)[1].values for m in
                    (FstAcceptanceMetric, MorphologicalAccuracyMetric, OrthographicAccuracyMetric)}
    assert got["oracle"]["core.fst"]["fst_acceptance_rate"] == 1.0
    assert got["no-circumflex"]["core.fst"]["fst_acceptance_rate"] < 0.1
    assert got["macron"]["core.fst"]["fst_acceptance_rate"] >= 0.95
    for run in ("macron", "no-circumflex"):
        assert got[run]["core.ortho"]["orthographic_accuracy"] < 0.1
    assert got["wrong-person"]["core.fst"]["fst_acceptance_rate"] == 1.0
    assert (
        got["wrong-person"]["core.morph"]["morphological_accuracy"]
        < 0.25
        < got["oracle"]["core.morph"]["morphological_accuracy"]
    )


def test_workspace_cache_is_filled_and_flushed_by_a_job(tiny, workspace):
    from mteval_gui.store.fst_cache import WorkspaceFstCache

    factory = WorkspaceFstCache.factory(workspace)
    ctx = _ctx(tiny, fst_cache=factory)
    e = Entry(id="1", source="s", reference="nipâw")
    _run(FstAcceptanceMetric, ctx, _items([(e, Output(id="1", predicted="Nipâw kotak"))]))
    rows = workspace.conn.execute("SELECT word, analyses FROM fst_cache ORDER BY word").fetchall()
    assert [tuple(r) for r in rows] == [("Nipâw", "[]"), ("kotak", "[]"), ("nipâw", '["nipâw+V+AI+Ind+3Sg"]')]


# -- inside a scoring job ---------------------------------------------------------------
def _request(shared_data: Path, run_name: str, **kw):
    from mteval_gui.domain.corpus import Corpus, LanguagePair
    from mteval_gui.domain.run import Run, RunMeta
    from mteval_gui.scoring.plugins import metrics_for
    from mteval_gui.scoring.runner import ScoringRequest

    items = _load(shared_data, run_name)[:40]
    card = load_card("crk")
    corpus = Corpus(corpus_id="crk-verbforms", language_pair=LanguagePair(source="eng", target="crk"),
                    entries=[it.entry for it in items])
    run = Run(meta=RunMeta(run_id=f"crk-{run_name}"), corpus_id=corpus.corpus_id, outputs=[it.output for it in items])
    refs = metrics_for(card, include=["core.fst", "core.morph", "core.ortho", "core.exact"])
    return ScoringRequest(run_id=run.meta.run_id, corpus=corpus, run=run, target_card=card, metrics=refs,
                          n_bootstrap=50, **kw)


@pytest.mark.shared_data
def test_missing_analyzer_leaves_fst_null_and_the_run_completes(shared_data, tmp_path, monkeypatch):
    from mteval_gui.scoring.runner import score_run

    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "nothing-installed"))
    res = score_run(_request(shared_data, "oracle"))
    rc = res.run_card
    reason = "no analyzer for crk: run `mteval analyzers install crk PATH_OR_URL`"
    assert rc.metric_availability["core.fst"] == "unavailable" and rc.metric_reasons["core.fst"] == reason
    assert rc.metric_availability["core.morph"] == "unavailable" and rc.metric_reasons["core.morph"] == reason
    assert rc.scores.fst_acceptance_rate is None and rc.scores.morphological_accuracy is None
    assert rc.fst.file is None and rc.fst.sha256 is None
    assert rc.scores.exact_match_rate == 1.0 and rc.scores.orthographic_accuracy == 1.0  # the rest is scored
    assert len(rc.results) == 40


@pytest.mark.shared_data
def test_analyzer_file_and_analyses_reach_the_run_card(shared_data, crk_dir, monkeypatch):
    from mteval_gui.scoring.runner import score_run

    monkeypatch.setenv("MTEVAL_ANALYZERS", str(crk_dir))
    rc = score_run(_request(shared_data, "no-circumflex")).run_card
    assert rc.metric_availability["core.fst"] == "ok"
    assert rc.fst.file == "crk-strict-analyzer-for-dictionary.hfstol"
    assert rc.fst.sha256 == "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e"
    assert rc.fst.descriptive_file == "crk-descriptive-analyzer.hfstol"
    assert rc.fst.descriptive_sha256 == "c0bd93af116cd9e6df70f2bbb8defc1e83cb63f2b72cb81491a9e1b65ccb8831"
    first = rc.results[0]
    assert (first.reference, first.predicted) == ("nititwân", "nititwan")
    assert first.fst_accepted == 0.0
    assert first.fst_analysis == [{"token": "nititwan", "form": "nititwan", "accepted": False, "analyses": []}]


@pytest.mark.shared_data
def test_explicit_analyzer_path_option(shared_data, tmp_path, monkeypatch):
    from mteval_gui.scoring.runner import score_run

    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "nothing-installed"))
    strict = shared_data / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    rc = score_run(_request(shared_data, "oracle", options={"analyzer_path": str(strict)})).run_card
    assert rc.scores.fst_acceptance_rate == 1.0 and rc.fst.file == strict.name
