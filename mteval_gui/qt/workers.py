"""Background work adapted to Qt signals (DESIGN §4).

A :class:`Worker` is a ``QObject`` moved to a ``QThread``. It runs one job
(:mod:`mteval_gui.app.tasks`) and reports through four signals:

- ``progress(object)``: the job's progress object (for scoring ``Progress(done, total,
  stage, message)``), throttled to one emission per :attr:`Worker.PROGRESS_INTERVAL`
  seconds, the last one always delivered;
- ``partial(object)``: a batch of results became available (the store already holds it);
- ``error(object)``: the exception that ended the job (never raised into Qt);
- ``finished(object)``: a :class:`~mteval_gui.app.tasks.JobOutcome`, always emitted, always last.

``Worker.cancel()`` is a direct, thread-safe method call (never a queued signal: the worker
thread is busy and would not process it). :class:`JobManager` owns the threads and waits
for them when the window closes, so no thread outlives the application.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from mteval_gui.app.tasks import Cancelled, JobOutcome


class Worker(QObject):
    progress = Signal(object)
    partial = Signal(object)
    error = Signal(object)
    finished = Signal(object)

    PROGRESS_INTERVAL = 0.05

    def __init__(self, job: Any, name: str = ""):
        super().__init__()
        self.job = job
        self.name = name
        self._last_emit = 0.0
        self._pending: Any = None
        self._cancel_lock = threading.Lock()
        self.cancel_requested = False

    def cancel(self) -> None:
        """Ask the job to stop at its next check (safe from any thread)."""
        with self._cancel_lock:
            self.cancel_requested = True
        self.job.cancel()

    def _on_progress(self, p: Any) -> None:
        now = time.monotonic()
        if now - self._last_emit >= self.PROGRESS_INTERVAL:
            self._last_emit = now
            self._pending = None
            self.progress.emit(p)
        else:
            self._pending = p

    def _flush_progress(self) -> None:
        if self._pending is not None:
            p, self._pending = self._pending, None
            self.progress.emit(p)

    @Slot()
    def run(self) -> None:
        outcome: JobOutcome
        try:
            result = self.job.run(self._on_progress, self._on_partial)
        except Cancelled:
            self._flush_progress()
            outcome = JobOutcome("cancelled")
        except Exception as exc:  # noqa: BLE001 - reported through the error signal, never raised into Qt
            self._flush_progress()
            self.error.emit(exc)
            outcome = JobOutcome("failed", error=exc)
        else:
            self._flush_progress()
            outcome = JobOutcome("done", result=result)
        self.finished.emit(outcome)

    def _on_partial(self, payload: Any) -> None:
        self._flush_progress()
        self.partial.emit(payload)


class JobManager(QObject):
    """Starts workers in their own threads and shuts them all down cleanly."""

    active_changed = Signal(int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._running: list[tuple[QThread, Worker]] = []

    @property
    def active(self) -> int:
        return len(self._running)

    def workers(self) -> list[Worker]:
        return [w for _, w in self._running]

    def start(self, worker: Worker) -> QThread:
        thread = QThread(self)
        thread.setObjectName(f"worker-{worker.name or id(worker)}")
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        # quit() is thread-safe; a direct connection lets shutdown() wait without the GUI loop
        worker.finished.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._on_thread_finished)
        self._running.append((thread, worker))
        thread.start()
        self.active_changed.emit(len(self._running))
        return thread

    @Slot()
    def _on_thread_finished(self) -> None:
        thread = self.sender()
        for t, w in list(self._running):
            if t is thread:
                self._reap(t, w)

    def _reap(self, thread: QThread, worker: Worker) -> None:
        for i, (t, _) in enumerate(self._running):
            if t is thread:
                del self._running[i]
                break
        else:
            return
        worker.deleteLater()
        thread.deleteLater()
        self.active_changed.emit(len(self._running))

    def cancel_all(self) -> None:
        for _, w in self._running:
            w.cancel()

    def shutdown(self, timeout_ms: int = 30000) -> bool:
        """Cancel every job and wait for its thread. True if all threads ended in time."""
        self.cancel_all()
        ok = True
        for thread, worker in list(self._running):
            if not thread.wait(timeout_ms):
                ok = False
                continue
            self._reap(thread, worker)
        return ok


class EtaEstimator:
    """Remaining time from progress samples (rate since the first sample of a stage)."""

    def __init__(self) -> None:
        self._t0: float | None = None
        self._done0 = 0
        self._stage: str | None = None

    def update(self, done: int, total: int, stage: str | None = None, now: float | None = None) -> float | None:
        now = time.monotonic() if now is None else now
        if self._t0 is None or stage != self._stage or done < self._done0:
            self._t0, self._done0, self._stage = now, done, stage
            return None
        elapsed = now - self._t0
        advanced = done - self._done0
        if advanced <= 0 or elapsed <= 0 or total <= 0:
            return None
        return max(0.0, (total - done) * elapsed / advanced)


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return "…"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    m, s = divmod(s, 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min"
