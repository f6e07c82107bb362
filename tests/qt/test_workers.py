"""Worker signal contract: order, cancellation, errors, and no thread left running."""

from __future__ import annotations

import threading

import pytest

from mteval_gui.app.tasks import Cancelled, FunctionJob, JobFailed, ProcessJob
from mteval_gui.errors import InputError
from mteval_gui.qt.workers import EtaEstimator, JobManager, Worker, format_eta


class Recorder:
    def __init__(self, worker: Worker):
        self.events: list[tuple[str, object]] = []
        worker.progress.connect(lambda p: self.events.append(("progress", p)))
        worker.partial.connect(lambda p: self.events.append(("partial", p)))
        worker.error.connect(lambda e: self.events.append(("error", e)))
        worker.finished.connect(lambda o: self.events.append(("finished", o)))

    def kinds(self) -> list[str]:
        return [k for k, _ in self.events]


def _steps(n, release: threading.Event | None = None):
    def fn(on_progress, on_partial, cancel_event):
        for i in range(n):
            if release is not None and i == 1:
                release.wait(5)
            if cancel_event.is_set():
                raise Cancelled("stop")
            on_progress((i + 1, n))
            on_partial(i)
        return n * 10
    return fn


@pytest.fixture
def manager(qtbot):
    m = JobManager()
    yield m
    m.shutdown(5000)


def test_signals_in_order_and_finished_last(qtbot, manager):
    worker = Worker(FunctionJob(_steps(4)))
    worker.PROGRESS_INTERVAL = 0.0
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        manager.start(worker)
    qtbot.waitUntil(lambda: manager.active == 0, timeout=5000)
    assert rec.kinds() == ["progress", "partial"] * 4 + ["finished"]
    outcome = rec.events[-1][1]
    assert outcome.status == "done" and outcome.result == 40
    assert [p for k, p in rec.events if k == "partial"] == [0, 1, 2, 3]


def test_progress_is_throttled_but_last_value_delivered(qtbot, manager):
    worker = Worker(FunctionJob(_steps(50)))
    worker.PROGRESS_INTERVAL = 60.0  # only the first and the flushed ones get through
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        manager.start(worker)
    progress = [p for k, p in rec.events if k == "progress"]
    assert progress[0] == (1, 50)
    assert progress[-1] == (50, 50)
    assert rec.kinds()[-1] == "finished"


def test_cancel_is_a_direct_call_and_ends_with_cancelled(qtbot, manager):
    release = threading.Event()
    worker = Worker(FunctionJob(_steps(10, release)))
    rec = Recorder(worker)
    manager.start(worker)
    qtbot.waitUntil(lambda: "progress" in rec.kinds(), timeout=5000)
    worker.cancel()  # the worker thread is blocked: a queued signal would never be seen
    release.set()
    qtbot.waitUntil(lambda: "finished" in rec.kinds(), timeout=5000)
    assert rec.events[-1][1].status == "cancelled"
    assert "error" not in rec.kinds()
    assert rec.kinds().count("finished") == 1


def test_error_reported_then_finished(qtbot, manager):
    def boom(on_progress, on_partial, cancel_event):
        on_progress((0, 1))
        raise InputError("x.tsv: bad")

    worker = Worker(FunctionJob(boom))
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        manager.start(worker)
    assert rec.kinds() == ["progress", "error", "finished"]
    assert isinstance(rec.events[1][1], InputError)
    assert rec.events[-1][1].status == "failed"


def test_scorer_cancellation_is_the_job_cancellation(qtbot, manager):
    from mteval_gui.scoring.runner import CancelToken

    def fn(on_progress, on_partial, cancel_event):
        token = CancelToken(cancel_event)
        token.cancel()
        token.raise_if_cancelled()  # what the scorer does between two batches

    worker = Worker(FunctionJob(fn))
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=5000):
        manager.start(worker)
    assert rec.kinds() == ["finished"]
    assert rec.events[0][1].status == "cancelled"


def test_shutdown_cancels_and_joins(qtbot):
    manager = JobManager()
    started = threading.Event()

    def forever(on_progress, on_partial, cancel_event):
        started.set()
        while not cancel_event.wait(0.01):
            pass
        raise Cancelled("closed")

    worker = Worker(FunctionJob(forever))
    thread = manager.start(worker)
    assert started.wait(5)
    assert manager.shutdown(5000)
    assert thread.isFinished()
    assert manager.active == 0


def test_process_job_relays_progress_partial_result(qtbot, manager):
    worker = Worker(ProcessJob("tests.qt.job_targets:count", {"n": 5}))
    worker.PROGRESS_INTERVAL = 0.0
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=60000):
        manager.start(worker)
    assert rec.kinds()[-1] == "finished"
    assert rec.events[-1][1].status == "done" and rec.events[-1][1].result == 10
    assert [p for k, p in rec.events if k == "progress"][-1] == (5, 5)
    assert [p for k, p in rec.events if k == "partial"] == [1, 3]


def test_process_job_cancel(qtbot, manager):
    worker = Worker(ProcessJob("tests.qt.job_targets:count", {"n": 1000, "delay": 0.02}))
    rec = Recorder(worker)
    manager.start(worker)
    qtbot.waitUntil(lambda: "progress" in rec.kinds(), timeout=60000)
    worker.cancel()
    qtbot.waitUntil(lambda: "finished" in rec.kinds(), timeout=20000)
    assert rec.events[-1][1].status == "cancelled"


def test_process_job_error_keeps_defects(qtbot, manager):
    worker = Worker(ProcessJob("tests.qt.job_targets:fail"))
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=60000):
        manager.start(worker)
    errors = [e for k, e in rec.events if k == "error"]
    assert len(errors) == 1 and isinstance(errors[0], InputError)
    assert "bad.tsv: line 3" in str(errors[0])


def test_process_job_crash_is_an_error(qtbot, manager):
    worker = Worker(ProcessJob("tests.qt.job_targets:die"))
    rec = Recorder(worker)
    with qtbot.waitSignal(worker.finished, timeout=60000):
        manager.start(worker)
    errors = [e for k, e in rec.events if k == "error"]
    assert isinstance(errors[0], JobFailed) and "exit code 3" in str(errors[0])
    assert rec.events[-1][1].status == "failed"


def test_eta_estimator():
    eta = EtaEstimator()
    assert eta.update(0, 100, "score", now=0.0) is None
    assert eta.update(10, 100, "score", now=2.0) == pytest.approx(18.0)
    assert eta.update(50, 100, "score", now=10.0) == pytest.approx(10.0)
    assert eta.update(1, 10, "aggregate", now=11.0) is None  # new stage restarts
    assert format_eta(None) == "…"
    assert format_eta(42) == "42 s"
    assert format_eta(125) == "2 min 05 s"
    assert format_eta(3725) == "1 h 02 min"
