"""The workspace glue of the validation study: the review status read with a run card, study, audits, audit queues."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import audits, signoff
from mteval_gui.app.review_status import review_status
from mteval_gui.app.study import validation_study
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import StoreError
from mteval_gui.store import judgments as J
from mteval_gui.validation.agreement import krippendorff_alpha
from mteval_gui.validation.correlation import kendall_tau_b
from tests.store.judgment_helpers import add_corpus, add_entry_metric, add_run

ENTRIES = [f"e{i}" for i in range(1, 7)]
# adequacy per run and entry for three reviewers
ADEQ = {
    "good": {"ana": [5, 4, 5, 4, 5, 3], "ben": [5, 5, 4, 4, 5, 3], "cat": [4, 4, 5, 3, 5, 4]},
    "poor": {"ana": [2, 1, 3, 2, 1, 2], "ben": [1, 1, 2, 2, 2, 1], "cat": [2, 2, 3, 1, 1, 2]},
    "mid": {"ana": [3, 3, 4, 2, 3, 3], "ben": [3, 2, 4, 3, 3, 2]},
}
CHRF = {"good": [80, 70, 85, 60, 90, 50], "poor": [20, 10, 35, 25, 15, 20], "mid": [50, 45, 60, 30, 55, 40]}


@pytest.fixture
def ws(workspace):
    add_corpus(workspace, "c", ENTRIES)
    add_run(workspace, "good", "c", tier="deployable")
    add_run(workspace, "poor", "c", tier="baseline")
    add_run(workspace, "mid", "c", tier="functional")
    for rid in ("ana", "ben", "cat"):
        J.add_reviewer(workspace, Reviewer(reviewer_id=rid, name=rid.title(), languages=["crk"]))
    for run, per in ADEQ.items():
        for rid, values in per.items():
            for eid, a in zip(ENTRIES, values, strict=True):
                J.record_judgment(workspace, Judgment(reviewer_id=rid, run_id=run, entry_id=eid, adequacy=a, fluency=a))
        add_entry_metric(workspace, run, "core.chrf", dict(zip(ENTRIES, map(float, CHRF[run]), strict=True)))
    return workspace


def human_review(ws, run_id):
    """The ``human_review`` block a run card is read with."""
    return review_status(ws, run_id).human_review().model_dump()


def test_the_review_status_feeds_the_run_card(ws):
    status = human_review(ws, "good")
    units = [[ADEQ["good"][r][i] for r in ("ana", "ben", "cat")] for i in range(6)]
    assert status == {"reviewers": 3, "judgments": 18, "agreement": round(krippendorff_alpha(units, "ordinal"), 4),
                      "confirmed": None, "rated_entries": 6, "raters": 3, "required_entries": 6, "confirmed_by": [],
                      "esa_score": None, "esa_entries": 0, "mqm_penalty": None}
    # 6 entries (all of the run) rated by 3 speakers with medians 4.5, but α 0.499: the agreement does not
    # support the tier, so a confirmation recorded anyway (an imported log) confirms nothing
    J.signoff(ws, "good", "ana", "confirm")
    status = human_review(ws, "good")
    assert status["confirmed"] is None and status["confirmed_by"] == []
    assert signoff.signoff_evidence(ws, "good").missing == ["Krippendorff's α of adequacy 0.499 is below 0.667",
                                                          "Krippendorff's α of fluency 0.499 is below 0.667"]
    for rid, eid in (("ben", "e2"), ("cat", "e1"), ("cat", "e3"), ("cat", "e6")):  # they come to agree with ana
        a = ADEQ["good"]["ana"][int(eid[1:]) - 1]
        J.record_judgment(ws, Judgment(reviewer_id=rid, run_id="good", entry_id=eid, adequacy=a, fluency=a))
    status = human_review(ws, "good")
    assert status["confirmed"] is True and status["confirmed_by"] == ["ana"] and status["agreement"] == 0.8336
    with pytest.raises(StoreError, match="unknown run"):
        human_review(ws, "nope")


def test_validation_study_over_three_runs(ws):
    study = validation_study(ws, ["good", "poor", "mid"], n_bootstrap=200, seed=2)
    assert [m.metric_id for m in study.metrics] == ["core.chrf"]
    chrf = study.metrics[0]
    items = sorted((run, e) for run in ADEQ for e in ENTRIES)
    means = {
        (run, e): sum(per[r][ENTRIES.index(e)] for r in per) / len(per) for run, per in ADEQ.items() for e in ENTRIES
    }
    x = [CHRF[run][ENTRIES.index(e)] for run, e in items]
    y = [means[i] for i in items]
    assert chrf.kendall.n == 18 and chrf.kendall.value == pytest.approx(kendall_tau_b(x, y))
    assert chrf.system_pearson.n == 3 and chrf.system_pearson.value > 0.95
    assert (study.progress.items_rated, study.progress.items_at_target, study.progress.raters) == (18, 12, 3)
    with pytest.raises(StoreError, match="no per-entry values for metric core.bleu"):
        validation_study(ws, ["good"], ["core.bleu"])


def test_linter_audit_uses_judgment_classes_or_the_stored_linter_result(ws):
    with ws.transaction() as c:
        for eid, verdict, classes in (("e1", "EQUIVALENT", ["LONG_VOWEL_MACRON"]), ("e2", "EQUIVALENT", ["WORD_ORDER"]),
                                      ("e3", "MISS", [])):
            c.execute(
                "INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data)"
                " VALUES ('mid', ?, 'crk.lint', ?, ?)",
                (
                    eid,
                    1.0 if verdict == "EQUIVALENT" else 0.0,
                    json.dumps({"value": 1.0, "values": {}, "detail": {"verdict": verdict, "classes": classes}}),
                ),
            )
    queue = audits.linter_audit_queue(ws, ["mid"])
    assert [(q["entry_id"], q["classes"]) for q in queue] == [("e1", ["LONG_VOWEL_MACRON"]), ("e2", ["WORD_ORDER"])]
    J.record_judgment(
        ws, Judgment(reviewer_id="ana", run_id="mid", entry_id="e1", task="B", payload={"same_meaning": "Yes"})
    )
    J.record_judgment(
        ws, Judgment(reviewer_id="ben", run_id="mid", entry_id="e1", task="B", payload={"same_meaning": "Yes"})
    )
    J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="mid", entry_id="e2", task="B",
                                   payload={"same_meaning": "No", "classes": ["OPTIONAL_PARTICLE"]}))
    rows = {r.variant_class: r for r in audits.linter_audit(ws, ["mid"])}
    assert rows["LONG_VOWEL_MACRON"].strict.value == 1.0 and rows["LONG_VOWEL_MACRON"].answers == 2
    assert rows["OPTIONAL_PARTICLE"].refuted == 1 and "WORD_ORDER" not in rows


def test_fst_audit_queue_audit_and_allowlist(ws):
    with ws.transaction() as c:
        for eid, words in (("e1", [("nipâw", True), ("namôya", False), ("kotak", False)]),
                           ("e2", [("namôya", False), ("namôya", False)])):
            detail = {"analyses": [{"token": t, "form": t, "accepted": a, "analyses": []} for t, a in words]}
            c.execute(
                "INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data)"
                " VALUES ('good', ?, 'core.fst', 0.5, ?)",
                (eid, json.dumps({"value": 0.5, "values": {}, "detail": detail})),
            )
    assert audits.fst_audit_queue(ws, ["good"]) == [
        ("good", "e1", "namôya"),
        ("good", "e1", "kotak"),
        ("good", "e2", "namôya"),
    ]
    assert len(audits.fst_audit_queue(ws, ["good"], limit=2, seed=1)) == 2
    for rid, valid in (("ana", "Yes"), ("ben", "Yes"), ("cat", "No")):
        J.record_judgment(ws, Judgment(reviewer_id=rid, run_id="good", entry_id="e1", task="C",
                                       payload={"word": "namôya", "valid": valid, "kind": "Established"}))
    J.record_judgment(
        ws,
        Judgment(reviewer_id="ana", run_id="good", entry_id="e1", task="C", payload={"word": "kotak", "valid": "No"}),
    )
    audit = audits.fst_audit(ws, ["good"])
    assert (audit.valid, audit.invalid, audit.false_rejection.value) == (1, 1, 0.5)
    assert audits.allowlist_rows(audit) == [
        {"word": "namôya", "kind": "Established", "occurrences": 1, "raters": 2, "run_id": "good", "entry_id": "e1"}]


def test_bleu_on_short_segments_is_left_out_of_the_correlations_unless_asked_for(ws, monkeypatch):
    bleu = {"good": [60, 50, 70, 40, 80, 30], "poor": [5, 0, 10, 5, 0, 0], "mid": [30, 20, 40, 10, 35, 20]}
    short = {"code": "short_segments", "message": "the median reference has 1 token (< 4)",
             "detail": {"median_reference_tokens": 1.0, "threshold": 4, "metric": "bleu"}}
    for run in ADEQ:
        add_entry_metric(ws, run, "core.bleu", dict(zip(ENTRIES, map(float, bleu[run]), strict=True)))
        card = {"score_sources": {"bleu": "core.bleu", "chrf_plus_plus": "core.chrf"},
                "score_caveats": [short] if run == "mid" else [],
                "results": [{"entry_id": e, "detail": "x" * 1000} for e in ENTRIES]}  # what the study never reads
        with ws.transaction() as c:
            c.execute("UPDATE runs SET run_card = ? WHERE run_id = ?", (json.dumps(card), run))
    decoded: list[int] = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: decoded.append(len(text)) or real_loads(text, *a, **k))
    study = validation_study(ws, ["good", "poor", "mid"], n_bootstrap=50, seed=2)
    monkeypatch.undo()
    assert max(decoded) < 1000  # the run cards are read without their per-entry results
    assert [m.metric_id for m in study.metrics] == ["core.chrf"]
    assert study.excluded == {"core.bleu": "short segments: the median reference of mid has 1 token (< 4), "
                                           "where BLEU's 4-grams hardly exist and BLEU says little"}
    assert study.to_json()["excluded"] == study.excluded
    asked = validation_study(ws, ["good", "poor", "mid"], n_bootstrap=50, seed=2, short_bleu=True)
    assert [m.metric_id for m in asked.metrics] == ["core.bleu", "core.chrf"] and asked.excluded == {}
    # runs without the caveat: BLEU is correlated
    study = validation_study(ws, ["good", "poor"], n_bootstrap=50, seed=2)
    assert [m.metric_id for m in study.metrics] == ["core.bleu", "core.chrf"]
