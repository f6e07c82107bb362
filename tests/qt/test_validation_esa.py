"""The Validation tab shows each run's ESA (direct scores) and, apart, the MQM-style penalty."""

from __future__ import annotations

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import judgments as jstore


def test_the_validation_tab_shows_esa_and_the_penalty_apart(qtbot, scored_ws):
    from mteval_gui.qt.validation_view import ValidationView

    for rid in ("amy", "bob"):
        jstore.add_reviewer(scored_ws, Reviewer(reviewer_id=rid, name=rid))
    missing = {"missing": True, "severity": "major", "category": "omission"}
    jstore.record_judgment(scored_ws, Judgment(reviewer_id="amy", run_id="poor", entry_id="e1", payload={
        "esa_score": 68, "spans": [{"start": 0, "end": 7, "severity": "critical", "category": None}, missing]}))
    jstore.record_judgment(scored_ws, Judgment(reviewer_id="bob", run_id="poor", entry_id="e1",
                                               payload={"esa_score": 72}))
    jstore.record_judgment(scored_ws, Judgment(reviewer_id="amy", run_id="good", entry_id="e2",
                                               payload={"spans": []}))
    v = ValidationView()
    qtbot.addWidget(v)
    v.set_workspace(scored_ws)
    v.show_esa(["good", "poor"])
    assert v.esa_summary.text() == "good: no ESA score yet · MQM penalty 0\npoor: ESA 70 over 1 entries · MQM penalty 15"
    v.compute()  # the study computed in the background fills it too
    qtbot.waitUntil(lambda: not v.study_task.running, timeout=20000)
    assert v.esa_summary.text().endswith("poor: ESA 70 over 1 entries · MQM penalty 15")
