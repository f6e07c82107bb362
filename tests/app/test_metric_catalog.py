"""The application layer finds a run's metrics by role: a new language's linter gets its verdict
column, its label and its place in the review pane and the linter audit with no change to the app."""

from __future__ import annotations

import pytest

from tests.scoring.role_metrics import LINTER_ID, install_zzx_plugin, make_zzx_workspace, uninstall_zzx_plugin


@pytest.fixture
def zzx_ws(tmp_path, monkeypatch):
    install_zzx_plugin(monkeypatch)
    ws = make_zzx_workspace(tmp_path / "ws.sqlite", monkeypatch)
    yield ws
    ws.close()
    monkeypatch.undo()
    uninstall_zzx_plugin()


def test_run_metrics_by_role(zzx_ws):
    from mteval_gui.app.metrics import run_metrics

    m = run_metrics(zzx_ws, "zrun")
    assert m.by_role("equivalence_verdict") == [LINTER_ID, "core.equivalent"]
    assert m.by_role("equivalence_verdict", builtin=True) == ["core.equivalent"]
    assert m.first("chrf") == "core.chrf" and m.first("fst_analysis") is None
    assert m.sources["equivalent_match_rate"] == LINTER_ID and m.sources["chrf_plus_plus"] == "core.chrf"
    d = m.descriptor(LINTER_ID)
    assert (d.label, d.labels, d.role, d.validation, d.builtin) == (
        "Zzx checker", {"fr": "Vérificateur zzx"}, "equivalence_verdict", "heuristic", False)


def test_run_metrics_while_scoring_come_from_the_job(zzx_ws):
    from mteval_gui.app.metrics import run_metrics

    zzx_ws.conn.execute("DELETE FROM run_metrics")
    m = run_metrics(zzx_ws, "zrun")
    assert list(m.descriptors) == ["core.exact", "core.equivalent", "core.chrf", "core.length_ratio",
                                   "core.hallucination", LINTER_ID]
    assert m.first("equivalence_verdict") == LINTER_ID and m.sources == {}


def test_entries_view_shows_the_linters_verdicts(zzx_ws):
    from mteval_gui.app.entries import load_entry_frame

    run = load_entry_frame(zzx_ws, ["zrun"]).runs[0]
    assert list(run.lint_verdict) == ["EQUIVALENT", "EQUIVALENT", "MISS", "MISS"]
    assert run.semantic_verdict is None and run.fst_rejected is None
    assert run.descriptors[LINTER_ID].label == "Zzx checker"
    assert run.descriptors["core.chrf"].format_value(float(run.metrics["core.chrf"][0])) == "100.0"


def test_review_data_shows_the_linter_not_the_generic_rule(zzx_ws):
    from mteval_gui.app.entry_review import load_review_data, review_html

    data = load_review_data(zzx_ws, "zz", "e2", [("zrun", "zmodel")])
    view = data.outputs[0]
    assert [(mid, v.verdict) for mid, v in view.verdicts()] == [(LINTER_ID, "EQUIVALENT")]
    labels = dict.fromkeys(("source", "reference", "variants", "output", "error", "no_output", "metrics",
                            "difficulty", "terminology", "phenomena"), "x")
    html = review_html(data, blind=False, labels=labels, metric_names={LINTER_ID: "Zzx checker"},
                       verdict_colours={}, validation_names={"proxy": "stand-in"})
    assert "<b>Zzx checker</b>" in html and "WORD_COUNT" in html
    # headline values: the role's metric (the linter supplied equivalent match), with its validation level;
    # chrF++ of "c x e" against "c d e" is 26.67 (sacrebleu sentence chrF++)
    assert 'chrF++ <b>26.7</b> <span class="validation">(stand-in)</span>' in html
    assert 'Exact <b>✗</b> <span class="validation">(stand-in)</span>' in html
    assert 'Zzx checker <b>1.000</b> <span class="validation">(heuristic)</span>' in html


def test_linter_audit_queue_reads_the_language_linter(zzx_ws):
    from mteval_gui.app.audits import linter_audit_queue, linter_detail, linter_ids

    assert linter_ids(zzx_ws, "zrun") == [LINTER_ID]
    assert [(q["entry_id"], q["classes"]) for q in linter_audit_queue(zzx_ws, ["zrun"])] == [
        ("e1", ["WORD_COUNT"]), ("e2", ["WORD_COUNT"])]
    detail = linter_detail(zzx_ws, "zrun", "e3")
    assert detail is not None and (detail.verdict, detail.explanation) == ("MISS", "different number of words")


def test_runs_row_carries_validation_levels(zzx_ws):
    from mteval_gui.app.runs import load_run_row, role_values

    row = load_run_row(zzx_ws, "zrun")
    assert row is not None
    assert row.validation["chrf_plus_plus"] == "proxy" and row.validation["equivalent_match_rate"] == "heuristic"
    assert row.composite_validation is not None and row.composite_validation.engineering_estimate is True
    assert role_values(zzx_ws, "zrun", "exact") == {"e1": 1.0, "e2": 0.0, "e3": 0.0, "e4": 0.0}
    assert role_values(zzx_ws, "zrun", "fst_analysis") == {}


def test_describe_unknown_and_registry():
    from mteval_gui.app.metrics import describe, heavy_metric_ids

    assert describe("core.fst").role == "fst_analysis"
    assert describe("crk.lint").label == "Cree linter" and describe("crk.lint").builtin is False
    unknown = describe("nope.nothing")
    assert (unknown.label, unknown.role, unknown.validation) == ("nope.nothing", "other", "unvalidated")
    assert heavy_metric_ids() == ("core.comet", "core.embedding_semantic")
