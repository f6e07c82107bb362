"""The page contract and its parts: background tasks, the shared table model, error reporting."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QPersistentModelIndex, Qt
from PySide6.QtWidgets import QLabel

from mteval_gui.errors import Cancelled, MtevalError
from mteval_gui.qt.background import BackgroundTask, BusyBar, TaskProgress
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.page import EmptyState, Page
from mteval_gui.qt.table_model import KEY_ROLE, SORT_ROLE, Column, ColumnTableModel

QT_DIR = Path(__file__).resolve().parents[2] / "mteval_gui" / "qt"


# --------------------------------------------------------------------------- background tasks


@pytest.fixture
def owner(qtbot):
    w = QLabel()
    qtbot.addWidget(w)
    return w


def test_the_newest_start_wins_and_stale_results_are_dropped(qtbot, owner):
    busy = BusyBar(owner)
    task = BackgroundTask(owner, "t", busy=busy)
    release = threading.Event()
    applied: list[str] = []

    def slow(ctx):
        release.wait(10)
        return "old"

    task.start(slow, on_done=applied.append)
    assert task.running and not busy.isHidden()
    with qtbot.waitSignal(task.finished, timeout=10000) as blocker:
        task.start(lambda ctx: "new", on_done=applied.append)
        release.set()
    assert blocker.args[0].result == "new"
    qtbot.waitUntil(lambda: task.jobs.active == 0, timeout=10000)
    assert applied == ["new"]  # the superseded result never reached the page
    assert not task.running and busy.isHidden()


def test_superseded_work_sees_its_cancellation(qtbot, owner):
    task = BackgroundTask(owner, "t")
    started, seen = threading.Event(), []

    def loop(ctx):
        started.set()
        while True:
            try:
                ctx.check()
            except Cancelled:
                seen.append("cancelled")
                raise
            threading.Event().wait(0.005)

    task.start(loop, on_done=lambda r: seen.append("done"))
    assert started.wait(10)
    task.cancel()
    qtbot.waitUntil(lambda: task.jobs.active == 0, timeout=10000)
    assert seen == ["cancelled"] and not task.running


def test_errors_go_to_on_error_or_the_error_dialog(qtbot, owner, shown_errors):
    task = BackgroundTask(owner, "t")
    mine: list[BaseException] = []

    def fail(ctx):
        raise MtevalError("no such run")

    with qtbot.waitSignal(task.finished, timeout=10000):
        task.start(fail, on_error=mine.append)
    assert [str(e) for e in mine] == ["no such run"] and shown_errors == []
    with qtbot.waitSignal(task.finished, timeout=10000):
        task.start(fail)
    assert [str(e) for e in shown_errors] == ["no such run"]
    qtbot.waitUntil(lambda: task.jobs.active == 0, timeout=10000)


def test_progress_reaches_the_busy_bar(qtbot, owner):
    busy = BusyBar(owner)
    task = BackgroundTask(owner, "t", busy=busy, title="Comparing")
    seen: list[TaskProgress] = []

    def work(ctx):
        ctx.progress(2, 4, "bootstrap")
        return 1

    with qtbot.waitSignal(task.finished, timeout=10000):
        task.start(work, on_progress=seen.append)
    assert seen == [TaskProgress(2, 4, "bootstrap")]
    assert busy.bar.maximum() == 4 and busy.label.text() == "Comparing — bootstrap"
    qtbot.waitUntil(lambda: task.jobs.active == 0, timeout=10000)


def test_a_page_deleted_while_its_work_runs_does_not_take_the_thread_with_it(qtbot):
    import shiboken6

    owner = QLabel()
    task = BackgroundTask(owner, "t")
    jobs, release, applied = task.jobs, threading.Event(), []
    task.start(lambda ctx: release.wait(10), on_done=applied.append)
    shiboken6.delete(owner)  # the page goes while its thread runs (Qt aborts if the thread goes too)
    assert not shiboken6.isValid(task)
    release.set()
    qtbot.waitUntil(lambda: not shiboken6.isValid(jobs), timeout=10000)  # ended, then deleted
    assert applied == []


def test_wait_applies_the_result(qtbot, owner):
    task = BackgroundTask(owner, "t")
    out: list[int] = []
    task.start(lambda ctx: 41 + 1, on_done=out.append)
    assert task.wait(10000) and out == [42]
    qtbot.waitUntil(lambda: task.jobs.active == 0, timeout=10000)


# --------------------------------------------------------------------------- pages


class _Counting(Page):
    def __init__(self):
        super().__init__()
        self.refreshes = 0
        self.content = QLabel("content")
        self.body_layout().addWidget(self.content)

    def refresh(self):
        self.refreshes += 1
        self.update_empty()

    def empty_state(self):
        if self.ws is None:
            return EmptyState("Nothing here", "Open a workspace", [("Open", lambda: None)])
        return None


def test_a_hidden_page_refreshes_when_shown_and_shows_its_empty_state(qtbot):
    page = _Counting()
    qtbot.addWidget(page)
    page.set_workspace("ws")
    assert page.refreshes == 0  # hidden: deferred
    page.show()
    assert page.refreshes == 1 and not page.showing_empty
    page.mark_stale()  # visible: at once
    assert page.refreshes == 2
    page.set_workspace(None)
    assert page.refreshes == 3 and page.showing_empty
    assert page.empty_view.title.text() == "Nothing here"
    assert [b.text() for b in page.empty_view.buttons] == ["Open"]
    page.hide()
    page.mark_stale()
    page.mark_stale()
    page.show()
    assert page.refreshes == 4  # once per change seen


# --------------------------------------------------------------------------- table model


def _model():
    rows = [{"k": "a", "v": 2.0}, {"k": "b", "v": None}, {"k": "c", "v": 1.0}]
    cols = [Column("k", "Key", lambda r: r["k"]),
            Column("v", "Value", lambda r: r["v"], text=lambda r: "" if r["v"] is None else f"{r['v']:.1f}",
                   tooltip=lambda r: f"value of {r['k']}", foreground=lambda r: "#888888" if r["v"] is None else None,
                   numeric=True, bold=True, header_tip="a number")]
    m = ColumnTableModel(cols, key=lambda r: r["k"])
    m.set_rows(rows)
    return m


def test_column_model_passes_the_model_tester_and_sorts_inside(qtmodeltester):
    m = _model()
    qtmodeltester.check(m, force_py=True)
    assert m.headerData(1, Qt.Orientation.Horizontal) == "Value"
    assert m.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == "a number"
    keep = QPersistentModelIndex(m.index(0, 1))  # row "a"
    m.sort(1, Qt.SortOrder.DescendingOrder)
    assert [m.index(i, 0).data(KEY_ROLE) for i in range(3)] == ["a", "c", "b"]  # None last
    m.sort(1, Qt.SortOrder.AscendingOrder)
    assert [m.index(i, 0).data(KEY_ROLE) for i in range(3)] == ["c", "a", "b"]  # None still last
    assert keep.row() == 1 and keep.data() == "2.0"
    assert m.index(2, 1).data() == "" and m.index(2, 1).data(SORT_ROLE) is None
    assert m.index(2, 1).data(Qt.ItemDataRole.ForegroundRole).color().name() == "#888888"
    assert m.index(0, 1).data(Qt.ItemDataRole.FontRole).bold()
    assert m.index(0, 1).data(Qt.ItemDataRole.ToolTipRole) == "value of c"
    m.set_rows([{"k": "d", "v": 5.0}, *m.rows])  # the sort survives new rows
    assert [m.index(i, 0).data(KEY_ROLE) for i in range(4)] == ["c", "a", "d", "b"]
    m.update_row({"k": "d", "v": 0.5})
    assert m.index(m.row_of("d"), 1).data() == "0.5"
    qtmodeltester.check(m, force_py=True)


# --------------------------------------------------------------------------- errors


def test_reporting_errors_shows_and_swallows(qtbot, shown_errors):
    with reporting_errors(None) as report:
        raise MtevalError("bad file")
    assert report.failed and str(report.error) == "bad file" and [str(e) for e in shown_errors] == ["bad file"]
    with reporting_errors(None) as report:
        raise Cancelled("stop")
    assert report.failed and report.cancelled and len(shown_errors) == 1  # a cancellation is not an error
    with reporting_errors(None, busy=True) as report:
        pass
    assert not report.failed
    from PySide6.QtWidgets import QApplication

    assert QApplication.overrideCursor() is None


def test_one_error_path_in_the_gui():
    """Errors reach the user through reporting_errors/show_error, not through copies of a handler."""
    blind = {p.name: len(re.findall(r"except Exception", p.read_text(encoding="utf-8"))) for p in QT_DIR.glob("*.py")}
    assert {k: v for k, v in blind.items() if v} == {"dialogs.py": 1, "workers.py": 1}
