"""Qt test fixtures.

``_dangling_qthreads`` (autouse) records every ``QThread`` started during a test and fails
the test if one is still running when it ends: background work must always be cancelled
and joined, also when a window closes.
"""

from __future__ import annotations

import traceback

import pytest


def _caller() -> str:
    stack = traceback.extract_stack()[:-2]
    for frame in reversed(stack):
        if "mteval_gui" in frame.filename or "/tests/" in frame.filename:
            return f"{frame.filename}:{frame.lineno}"
    return "unknown"


@pytest.fixture(autouse=True)
def _dangling_qthreads(monkeypatch, qtbot):
    from PySide6.QtCore import QThread

    # strong references (to the thread and its parent) so that a leaked thread is reported
    # here instead of aborting the process when its owner is garbage-collected mid-run
    started: list[tuple[QThread, object, str]] = []
    original_start = QThread.start

    def start(self, *args, **kwargs):
        started.append((self, self.parent(), _caller()))
        return original_start(self, *args, **kwargs)

    monkeypatch.setattr(QThread, "start", start)
    yield
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.processEvents()
    dangling = []
    for thread, _owner, where in started:
        try:
            if thread.isRunning():
                dangling.append((thread, where))
        except RuntimeError:  # C++ object already deleted: it is not running
            continue
    def ended(thread: QThread) -> bool:
        try:
            return thread.isFinished()
        except RuntimeError:  # deleted once finished
            return True

    for thread, _ in dangling:
        thread.quit()
        qtbot.waitUntil(lambda t=thread: ended(t), timeout=10000)
    if dangling:
        places = "\n".join(f"  started at {where}" for _, where in dangling)
        started.clear()
        pytest.fail(f"{len(dangling)} QThread(s) still running after the test:\n{places}", pytrace=False)
