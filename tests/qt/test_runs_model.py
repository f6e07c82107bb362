"""Runs model: Qt contract (no view), display of tiers, badges, CIs, coverage; in-model sort."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mteval_gui.app.runs import RunRow, load_run_rows
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.runs_model import RUN_ID_ROLE, RunsModel
from mteval_gui.store import judgments as jstore


def _row(run_id, composite, tier, confirmed=None, **kw):
    from mteval_gui.domain.runcard import RunCard

    card = RunCard.model_validate({
        "run_id": run_id, "harness_version": "t", "timestamp": "2026-01-01T00:00:00",
        "dataset": {"id": "c", "language_pair": "eng-crk", "entry_count": 40},
        "scores": {"composite": composite, "quality_tier": tier, "chrf_plus_plus": kw.get("chrf"),
                   "confidence_intervals": {"chrf_plus_plus": {"ci_lower": kw.get("lo"), "ci_upper": kw.get("hi")}}},
        "totals": {}, "fingerprint": {"hash": "x"},
        "metric_availability": {"chrf_plus_plus": "ok", "fst_acceptance_rate": "unavailable", "core.chrf": "ok"},
        "metric_reasons": {"fst_acceptance_rate": "no analyzer for crk"},
        "score_caveats": kw.get("caveats", []),
    })
    r = RunRow(run_id=run_id, corpus_id="c", model=run_id, condition=None, language_pair="eng-crk",
               status="scored", entries=40, errors=0, empty=0, card=card)
    r.composite, r.tier, r.chrf, r.confirmed = composite, tier, kw.get("chrf"), confirmed
    r.chrf_ci = (kw.get("lo"), kw.get("hi")) if kw.get("lo") is not None else None
    r.availability = dict(card.metric_availability)
    r.reasons = dict(card.metric_reasons)
    r.caveats = [(c["code"], c["message"]) for c in kw.get("caveats", [])]
    return r


def _cell(model, row, key, role=Qt.ItemDataRole.DisplayRole):
    return model.index(row, model.column_index(key)).data(role)


def test_qtmodeltester_and_sort(qtmodeltester):
    model = RunsModel()
    model.set_rows([_row("a", 0.5, "functional", chrf=40.0), _row("b", 0.9, "fluent", chrf=80.0),
                    _row("c", None, "unscored")])
    qtmodeltester.check(model, force_py=True)
    model.sort(model.column_index("composite"), Qt.SortOrder.DescendingOrder)
    assert [model.index(i, 0).data(RUN_ID_ROLE) for i in range(3)] == ["b", "a", "c"]  # null last
    model.sort(model.column_index("composite"), Qt.SortOrder.AscendingOrder)
    assert [model.index(i, 0).data(RUN_ID_ROLE) for i in range(3)] == ["a", "b", "c"]


def test_tier_badges():
    model = RunsModel()
    model.set_rows([_row("p", 0.75, "deployable"), _row("k", 0.9, "fluent", confirmed=True),
                    _row("r", 0.72, "deployable", confirmed=False), _row("f", 0.55, "functional")])
    assert _cell(model, 0, "tier") == "deployable · pending speaker review"
    assert _cell(model, 1, "tier") == "fluent ✓"
    assert _cell(model, 2, "tier") == "deployable · not confirmed"
    assert _cell(model, 3, "tier") == "functional"
    assert "speaker review must confirm" in _cell(model, 0, "tier", Qt.ItemDataRole.ToolTipRole)


def test_chrf_ci_coverage_and_caveats():
    model = RunsModel()
    caveat = {"code": "small_sample", "message": "only 5 entries"}
    model.set_rows([_row("a", 0.5, "functional", chrf=56.351, lo=50.04, hi=61.96, caveats=[caveat])])
    assert _cell(model, 0, "chrf") == "56.35 [50.0–62.0]"
    assert _cell(model, 0, "coverage") == "1/2"
    assert "no analyzer for crk" in _cell(model, 0, "coverage", Qt.ItemDataRole.ToolTipRole)
    assert _cell(model, 0, "caveats") == "⚠ Small sample"
    tip = _cell(model, 0, "caveats", Qt.ItemDataRole.ToolTipRole)
    assert "Fewer than 30 entries" in tip and "only 5 entries" in tip
    assert not model.column_is_empty(model.column_index("caveats"))
    assert model.column_is_empty(model.column_index("comet"))


def test_rows_from_scored_workspace(scored_ws):
    rows = {r.run_id: r for r in load_run_rows(scored_ws)}
    assert rows["good"].scored and rows["good"].tier == "fluent" and rows["good"].composite == 1.0
    assert rows["good"].pending_review and rows["good"].confirmed is None
    assert rows["poor"].errors == 1 and rows["poor"].tier == "baseline"
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    jstore.signoff(scored_ws, "good", "amy", "confirm")
    rows = {r.run_id: r for r in load_run_rows(scored_ws)}
    assert rows["good"].confirmed is None and rows["good"].pending_review  # no ratings behind it
    from mteval_gui.domain.judgments import Judgment

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="bo", name="Bo", languages=["crk"]))
    for rid in ("amy", "bo"):  # speakers of Cree agree the outputs are good (medians 5, α 1.0)
        for eid, a in zip(("e1", "e2", "e3", "e4", "e5"), (5, 4, 5, 5, 4), strict=True):
            jstore.record_judgment(scored_ws, Judgment(reviewer_id=rid, run_id="good", entry_id=eid, adequacy=a,
                                                       fluency=a))
    rows = {r.run_id: r for r in load_run_rows(scored_ws)}
    assert rows["good"].confirmed is True and not rows["good"].pending_review


def test_tier_tooltips_say_what_a_speaker_typically_sees():
    model = RunsModel()
    model.set_rows([_row("p", 0.75, "deployable"), _row("b", 0.2, "baseline")])
    assert _cell(model, 0, "tier", Qt.ItemDataRole.ToolTipRole).startswith(
        "deployable: Suitable for draft translation with human review. Most of the morphology is correct.")
    assert _cell(model, 1, "tier", Qt.ItemDataRole.ToolTipRole).startswith(
        "baseline: Raw LLM output without language-specific support. The morphology is mostly hallucinated.")


def test_the_cost_adjusted_score_is_a_column():
    row = _row("p", 0.75, "deployable")
    row.metrics = {"cost_adjusted": 0.2503}
    model = RunsModel()
    model.set_rows([row])
    assert model.headerData(model.column_index("cost_adjusted"), Qt.Orientation.Horizontal) == "Cost-adj."
    assert _cell(model, 0, "cost_adjusted") == "0.250"


def test_the_composite_tooltip_names_a_calibrated_profile():
    from mteval_gui.domain.runcard import CompositeCalibration

    plain, calibrated = _row("s", 0.6, "functional"), _row("k", 0.84, "fluent")
    plain.profile = calibrated.profile = "B"
    calibrated.calibration = CompositeCalibration(
        name="speakers-1", base="B", weights={"chrf_plus_plus": 1.0}, fitted="2026-12-02T13:00:00Z",
        tiers={"fluent": 0.818, "deployable": 0.525, "functional": 0.232, "emerging": 0.085})
    model = RunsModel()
    model.set_rows([plain, calibrated])
    assert "calibrated" not in _cell(model, 0, "tier", Qt.ItemDataRole.ToolTipRole)
    assert _cell(model, 1, "tier", Qt.ItemDataRole.ToolTipRole).splitlines()[:5] == [
        "fluent: Approaching competent human translation. Errors are rare and minor.", "",
        "Profile B", "Weights and tiers of the language card's calibrated profile speakers-1 (fitted 2026-12-02)",
        "Tiers: fluent ≥ 0.818, deployable ≥ 0.525, functional ≥ 0.232, emerging ≥ 0.085"]


def test_the_default_condition_is_said_in_the_interface_language(french):
    row = _row("p", 0.75, "deployable")
    row.condition = "unspecified"
    model = RunsModel()
    model.set_rows([row])
    assert _cell(model, 0, "model") == "p · non précisée"
