"""Live views and layout: the window follows what other programs write to the workspace, F5
rereads it, exports write what the window shows, and the layout survives switching workspaces."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as jstore


def _cell(window, run_id, key):
    model = window.runs_view.model
    return model.index(model.row_of(run_id), model.column_index(key)).data()


def test_scoring_by_another_program_reaches_the_open_window(window, small_ws, qtbot):
    from mteval_gui.app.scoring import score_workspace_run

    window.open_workspace(small_ws.path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    assert _cell(window, "good", "composite") == "not scored"
    other = Workspace(small_ws.path)  # what `mteval score good` does, on its own connection
    try:
        score_workspace_run(other, "good")
    finally:
        other.close()
    # the watcher polls while the window is active: no refresh by hand
    qtbot.waitUntil(lambda: _cell(window, "good", "composite") == "1.0000 · engineering estimate",
                    timeout=20000)
    assert _cell(window, "poor", "composite") == "not scored"
    assert window.runs_view.model.rows[0].run_id == "good"


def test_refresh_is_f5_and_scoring_moved_to_ctrl_r(window, scored_ws, qtbot):
    assert window.menu_actions["refresh"].shortcut().toString() == "F5"
    assert window.menu_actions["scoreRuns"].shortcut().toString() == "Ctrl+R"
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    assert window.entries_page.ratings.reviewer_id == "amy"
    other = Workspace(scored_ws.path)
    try:
        jstore.record_judgment(other, Judgment(reviewer_id="amy", run_id="poor", entry_id="e1", adequacy=2, fluency=3))
    finally:
        other.close()
    page = window.entries_page
    col = [c.key for c in page.model.visible_columns()].index("poor:review")
    assert page.model.index(0, col).data() == ""
    window.menu_actions["refresh"].trigger()
    qtbot.waitUntil(lambda: page.model.index(0, col).data() == "rated", timeout=20000)


def test_an_export_after_a_change_elsewhere_refreshes_first_and_says_so(window, scored_ws, tmp_path, qtbot):
    from mteval_gui.qt import exports

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.entries_page.ratings.set_reviewer("amy")
    window.open_entries(["poor"])
    out = tmp_path / "before.csv"
    exports.export_entries_csv(window, str(out))
    assert "refreshed first" not in window.statusBar().currentMessage()
    other = Workspace(scored_ws.path)
    try:
        jstore.record_judgment(other, Judgment(reviewer_id="amy", run_id="poor", entry_id="e1", adequacy=2))
    finally:
        other.close()
    out = tmp_path / "after.csv"
    exports.export_entries_csv(window, str(out))
    assert "refreshed first" in window.statusBar().currentMessage()
    first = out.read_text(encoding="utf-8").splitlines()[1]
    assert first.startswith("e1,") and "half rated" in first  # the export holds the judgment made elsewhere


def test_runs_layout_survives_switching_workspaces(window, scored_ws, tmp_path, qtbot):
    window.open_workspace(scored_ws.path)
    view, model = window.runs_view, window.runs_view.model
    metric_columns = ("caveats", "coverage", "exact", "equivalent", "code_switching")
    for key in metric_columns:
        c = model.column_index(key)
        assert not view.table.isColumnHidden(c) and view.table.columnWidth(c) > 0, key
    view.table.sortByColumn(model.column_index("model"), Qt.SortOrder.AscendingOrder)
    view.table.setColumnWidth(model.column_index("model"), 210)
    splitter = window.entries_page.splitter
    splitter.setSizes([700, 700])
    sizes = splitter.sizes()
    order = [r.run_id for r in model.rows]
    assert order == ["good", "poor"]

    window.open_workspace(tmp_path / "empty.sqlite")  # File > New
    assert model.rowCount() == 0
    window.open_workspace(scored_ws.path)  # and back

    for key in metric_columns:
        c = model.column_index(key)
        assert not view.table.isColumnHidden(c) and view.table.columnWidth(c) > 0, key
    header = view.table.horizontalHeader()
    assert header.sortIndicatorSection() == model.column_index("model")
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    assert [r.run_id for r in model.rows] == order
    assert view.table.columnWidth(model.column_index("model")) == 210
    assert splitter.sizes() == sizes


def test_switching_workspace_with_entries_open_and_a_reviewer_shows_no_error(window, scored_ws, tmp_path, shown_errors):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    assert window.entries_page.ratings.reviewer_id == "amy"
    assert window.open_workspace(tmp_path / "empty.sqlite")  # no reviewer there: the old runs are not reread
    assert shown_errors == [] and window.entries_page.model.frame is None
