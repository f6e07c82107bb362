"""ESA in the GUI: the Validation tab (direct scores and, apart, the MQM-style penalty) and the File menu's
Appraise and Pearmut campaigns."""

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
    assert v.esa_summary.text() == ("good: no ESA score yet · MQM penalty 0\n"
                                    "poor: ESA 70 over 1 entries · MQM penalty 15")
    v.compute()  # the study computed in the background fills it too
    qtbot.waitUntil(lambda: not v.study_task.running, timeout=20000)
    assert v.esa_summary.text().endswith("poor: ESA 70 over 1 entries · MQM penalty 15")


def test_file_menu_exports_campaigns_and_imports_their_annotations(window, scored_ws, tmp_path, monkeypatch):
    import csv
    import io
    import json

    from PySide6.QtGui import QAction

    from mteval_gui.qt import dialogs, exports

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(exports, "inform", lambda parent, title, text: shown.append((title, text)))
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc: shown.append(("error", str(exc))))
    window.open_workspace(scored_ws.path)
    names = {a.objectName() for a in window.findChildren(QAction)}
    assert {"exportAppraise", "exportPearmut", "importAnnotations"} <= names
    window.runs_view.select_runs(["good", "poor"])
    exports.export_campaign(window, "appraise", path=str(tmp_path / "appraise"))
    manifest = json.loads((tmp_path / "appraise" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["TASKS_TO_ANNOTATORS"] == [["eng", "crk", "uniform", 1, 1]]
    assert [t for t, _ in shown] == ["Campaign written, with warnings"]
    assert "language 'crk' is not in Appraise's language table" in shown[0][1]
    exports.export_campaign(window, "pearmut", path=str(tmp_path / "camp.json"))
    camp = json.loads((tmp_path / "camp.json").read_text(encoding="utf-8"))
    assert set(camp["data"][0][0][0]["tgt"]) == {"good", "poor"}
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(
        ["amy", "poor", 1, "TGT", "eng", "crk", 68, "e1", "False",
         json.dumps([{"start_i": "missing", "end_i": "missing", "severity": "critical"}]), 1.0, 2.0])
    (tmp_path / "scores.csv").write_text(buf.getvalue(), encoding="utf-8")
    exports.import_annotations(window, str(tmp_path / "scores.csv"))
    from mteval_gui.store import judgments as J

    (j,) = J.current_judgments(window.ws, run_id="poor")
    assert (j.reviewer_id, j.entry_id, j.payload) == ("amy", "e1", {"esa_score": 68, "spans": [
        {"missing": True, "severity": "critical", "category": "omission"}]})
    assert window.statusBar().currentMessage() == "Imported 1 judgments (0 already present)"
