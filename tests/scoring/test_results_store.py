"""Scoring a workspace run: per-batch commits, resume, denormalised columns, readers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_gui.app.compare import CompareOptions, compare_workspace_runs, run_statistics
from mteval_gui.app.scoring import score_in_process, score_workspace_run
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import Cancelled
from mteval_gui.scoring.runner import CancelToken
from mteval_gui.store import repo
from mteval_gui.store.results import (
    clear_results,
    entry_details,
    entry_value_columns,
    entry_values,
    entry_values_bulk,
    load_run_card,
    run_metric_rows,
    scoring_job,
)
from tests.scoring import runner_metrics

FAST = ["core.exact", "core.equivalent", "core.chrf", "core.bleu", "core.length_ratio", "core.hallucination"]


def _setup(ws, n: int = 30, *, runs: int = 1) -> list[str]:
    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"The cat number {i} sits", reference=f"Le chat numéro {i} est assis", difficulty=1)
        for i in range(n)])
    repo.add_corpus(ws, corpus)
    ids = []
    for k in range(runs):
        outs = [Output(id=f"e{i}", predicted=(f"Le chat numéro {i} est assis" if (i + k) % 3 == 0 else f"Un chat {i}"),
                       latency_s=0.5, cost_usd=0.001)
                for i in range(n) if i != n - 1]  # the last entry has no output
        res = repo.import_run(ws, Run(meta=RunMeta(run_id=f"run{k}", model_slug=f"m{k}", elapsed_seconds=30.0),
                                      corpus_id="toy", outputs=outs))
        ids.append(res.run_id)
    return ids


def test_score_workspace_run_stores_everything(workspace):
    (rid,) = _setup(workspace)
    res = score_workspace_run(workspace, rid, metrics=FAST, batch_size=7, n_bootstrap=100)
    card = load_run_card(workspace, rid)
    assert card is not None and card.scores.chrf_plus_plus == res.run_card.scores.chrf_plus_plus
    assert card.scores.errors == 1 and card.scores.missing_outputs == 1
    row = dict(workspace.conn.execute("SELECT * FROM runs WHERE run_id = ?", (rid,)).fetchone())
    assert row["chrf_plus_plus"] == card.scores.chrf_plus_plus
    assert row["corpus_bleu"] == card.scores.bleu
    assert row["composite_score"] == card.scores.composite
    assert row["quality_tier"] == card.scores.quality_tier
    assert row["exact_match_rate"] == pytest.approx(10 / 30)
    assert row["total_cost_usd"] == pytest.approx(0.029)
    assert row["dataset_id"] == "toy" and row["language_pair"] == "eng-fra"
    assert row["fingerprint_hash"] == card.fingerprint.hash
    assert row["status"] == "scored" and json.loads(row["run_card"])["run_id"] == rid
    ev = entry_values(workspace, rid, "core.exact")
    assert len(ev) == 30 and ev["e0"] == 1.0 and ev["e1"] == 0.0
    bulk = entry_values_bulk(workspace, rid, ["core.exact", "core.chrf"])
    assert set(bulk) == {"core.exact", "core.chrf"}
    cols = entry_value_columns(workspace, rid, [f"e{i}" for i in range(30)], ["core.chrf"])
    assert isinstance(cols["core.chrf"], np.ndarray) and cols["core.chrf"][0] == pytest.approx(100.0)
    det = entry_details(workspace, rid, "e1")
    assert len(det["core.chrf"]["detail"]["stats"]) == 24
    rows = {r["metric_id"]: r for r in run_metric_rows(workspace, rid)}
    assert rows["core.exact"]["availability"] == "ok"
    assert rows["core.exact"]["values"]["exact_matches"] == 10
    job = scoring_job(workspace, rid)
    assert job["state"] == "done" and job["batches_done"] == job["n_batches"] == 5


def test_workspace_job_resumes_after_cancel(workspace):
    (rid,) = _setup(workspace)
    metrics = ["test.count", "core.chrf"]
    from mteval_gui.scoring import plugins

    ref = plugins.MetricRef(id="test.count", python_name="tests.scoring.runner_metrics:CountingMetric")
    plugins.BUILTIN_METRICS.append(ref)
    try:
        runner_metrics.CALLS.clear()
        token = CancelToken()
        runner_metrics.CANCEL.update(token=token, after=10)
        with pytest.raises(Cancelled):
            score_workspace_run(workspace, rid, metrics=metrics, batch_size=5, cancel=token, n_bootstrap=50)
        assert runner_metrics.CALLS["test.count"] == 10
        assert scoring_job(workspace, rid)["state"] == "cancelled"
        n_rows = workspace.conn.execute("SELECT COUNT(*) FROM entry_metrics WHERE run_id = ?", (rid,)).fetchone()[0]
        assert n_rows == 20  # two committed batches of 5 entries x 2 metrics
        res = score_workspace_run(workspace, rid, metrics=metrics, batch_size=5, n_bootstrap=50)
        assert runner_metrics.CALLS["test.count"] == 30
        assert res.batches_reused == 2 and res.batches_scored == 4
    finally:
        plugins.BUILTIN_METRICS.remove(ref)


def test_clear_results(workspace):
    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=["core.exact"], n_bootstrap=20)
    clear_results(workspace, rid)
    assert load_run_card(workspace, rid) is None
    assert entry_values(workspace, rid, "core.exact") == {}
    assert scoring_job(workspace, rid) is None


def test_glossary_from_workspace_setting(workspace):
    (rid,) = _setup(workspace)
    gid = repo.add_glossary(workspace, "cats", {"cat": ["chat"]})
    repo.set_setting(workspace, "glossary.toy", gid)
    card = score_workspace_run(workspace, rid, metrics=["core.terminology"], n_bootstrap=20).run_card
    # outputs "Le chat numéro …" (10 entries) hit; "Un chat …" also contain "chat": 29 hits of 30 terms
    assert card.scores.terminology_adherence == pytest.approx(29 / 30)


def test_run_statistics_and_compare(workspace):
    ids = _setup(workspace, runs=3)
    for rid in ids:
        score_workspace_run(workspace, rid, metrics=FAST, n_bootstrap=100)
    st = run_statistics(workspace, ids[0])
    assert st.stats["chrf_plus_plus"].point() == pytest.approx(st.card["scores"]["chrf_plus_plus"], abs=1e-12)
    assert round(st.composite.point(), 4) == st.card["scores"]["composite"]
    cmp = compare_workspace_runs(workspace, ids[1:], ids[0], CompareOptions(trials=200, holm=True))
    assert "chrf_plus_plus" in cmp.metrics and "composite" in cmp.metrics
    r = cmp.results[ids[1]]["chrf_plus_plus"]
    assert r.baseline_score == pytest.approx(st.card["scores"]["chrf_plus_plus"])
    assert r.p_adjusted is not None and r.p_adjusted >= r.p_value
    same = compare_workspace_runs(workspace, [ids[0]], ids[0], CompareOptions(trials=100))
    assert same.runs == []
    # the statistics are kept until the run is scored again; the progress names its stages
    assert run_statistics(workspace, ids[0]) is st
    seen = []
    compare_workspace_runs(workspace, ids[1:], ids[0], CompareOptions(trials=50),
                           on_progress=lambda d, t, s: seen.append((d, t, s)))
    assert seen[0] == (1, 3, "reading the runs") and seen[-1][2] == "paired tests" and seen[-1][0] == seen[-1][1]
    clear_results(workspace, ids[0])
    score_workspace_run(workspace, ids[0], metrics=FAST, n_bootstrap=100)
    assert run_statistics(workspace, ids[0]) is not st


def test_entry_scores_of_several_metrics_at_once(workspace):
    from mteval_gui.store.results import entry_scores, entry_scores_many, load_run_card_dict, load_run_card_summary

    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=FAST, n_bootstrap=20)
    many = entry_scores_many(workspace, rid, ["core.chrf", "core.exact", "core.chrf"])
    assert many == {"core.chrf": entry_scores(workspace, rid, "core.chrf"),
                    "core.exact": entry_scores(workspace, rid, "core.exact")}
    full = load_run_card_dict(workspace, rid)
    summary = load_run_card_summary(workspace, rid)
    assert full["results"] and "results" not in summary
    assert {k: v for k, v in full.items() if k != "results"} == summary


@pytest.mark.slow
def test_score_in_a_worker_process(workspace):
    (rid,) = _setup(workspace)
    seen = []
    card = score_in_process(workspace, rid, on_progress=seen.append, metrics=["core.chrf"], n_bootstrap=20)
    assert card.scores.chrf_plus_plus is not None
    assert seen and seen[-1].stage == "done"
    assert load_run_card(workspace, rid).scores.chrf_plus_plus == card.scores.chrf_plus_plus


def test_workspace_settings_become_options_unless_given(workspace):
    from mteval_gui.app.scoring import build_request
    from mteval_gui.app.settings import ScoringOptions, scoring_options_for, set_setting

    (rid,) = _setup(workspace)
    set_setting(workspace, "gloss_files", {"crk": ["/x/crkeng.importjson"]})
    set_setting(workspace, "comet_model", "masakhane/africomet-mtl")
    set_setting(workspace, "analyzer_paths", {"fra": {"strict": "/a/fra.hfstol", "descriptive": "/a/d.hfstol"},
                                              "crk": {"strict": "/a/crk.hfstol"}})
    set_setting(workspace, "analyzer_dir", "/a/folder")
    assert scoring_options_for(workspace, "fra").to_context() == {
        "gloss_files": {"crk": ["/x/crkeng.importjson"]}, "comet_model": "masakhane/africomet-mtl",
        "analyzer_path": "/a/fra.hfstol", "descriptive_analyzer_path": "/a/d.hfstol", "analyzers_dir": "/a/folder"}
    req = build_request(workspace, rid, options=ScoringOptions(comet_model="Unbabel/wmt22-comet-da"))
    assert req.options["comet_model"] == "Unbabel/wmt22-comet-da"
    assert req.options["analyzer_path"] == "/a/fra.hfstol"
    assert req.options["analyzers_dir"] == "/a/folder"  # the GUI's analyzer folder reaches every scorer


def test_sql_side_readers(workspace):
    from mteval_gui.store.results import entry_value_fields, entry_verdicts

    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=["core.equivalent", "core.length_ratio"], n_bootstrap=20)
    v = entry_verdicts(workspace, rid, "core.equivalent")
    assert v["e0"] == "EXACT" and v["e1"] == "MISS" and v["e29"] == "NO_OUTPUT"
    f = entry_value_fields(workspace, rid, "core.length_ratio", ["chars", "ref_chars"])
    assert f["ref_chars"]["e0"] == len("Le chat numéro 0 est assis") and f["chars"]["e29"] == 0


def test_the_review_status_is_joined_when_the_card_is_read(workspace):
    from mteval_gui.app.review_status import read_run_card
    from mteval_gui.domain.judgments import Reviewer
    from mteval_gui.store import judgments

    (rid,) = _setup(workspace)
    card = score_workspace_run(workspace, rid, metrics=["core.exact", "core.chrf"], n_bootstrap=20).run_card
    assert card.human_review.confirmed is None and card.human_review.judgments == 0
    from mteval_gui.domain.judgments import Judgment

    for reviewer in ("ana", "ben"):  # speakers of French rate the 30 entries alike (the tier's rule: 20 by 2)
        judgments.add_reviewer(workspace, Reviewer(reviewer_id=reviewer, name=reviewer.title(), languages=["fra"]))
        for i in range(30):
            a = 5 if i % 3 == 0 else 2
            judgments.record_judgment(workspace, Judgment(reviewer_id=reviewer, run_id=rid, entry_id=f"e{i}",
                                                          adequacy=a, fluency=a))
    judgments.signoff(workspace, rid, "ana", "confirm")
    read = read_run_card(workspace, rid)
    assert read is not None and read.card.human_review.confirmed is True and read.review.confirmed is True
    assert card.scores.quality_tier == "emerging"  # composite of exact match 10/30 and chrF++ (Profile B)
    assert read.card.scores.quality_tier_display == "emerging"  # not a review-gated tier
    assert load_run_card(workspace, rid).human_review.confirmed is None  # the stored scoring result


def test_a_scored_run_holds_its_results_only_as_the_stored_text(workspace):
    """The result of scoring a workspace run kept every results[] item as a model and as JSON
    after the card's text was stored; the models and the JSON are dropped, the text has them all."""
    (rid,) = _setup(workspace)
    result = score_workspace_run(workspace, rid, metrics=["core.exact"], n_bootstrap=20)
    assert result.run_card.results == [] and result.card_json is None
    stored = load_run_card(workspace, rid)
    assert [r.entry_id for r in stored.results] == [f"e{i}" for i in range(30)]
    assert [r.exact_match for r in stored.results[:4]] == [True, False, False, True]
    assert stored.model_dump(exclude={"results"}) == result.run_card.model_dump(exclude={"results"})
