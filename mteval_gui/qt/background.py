"""One background helper for the pages of the window: nothing computes on the GUI thread.

A :class:`BackgroundTask` runs one kind of work of a page (a comparison, a validation study,
scoring a benchmark, an import) in a worker thread::

    self.compute_task = BackgroundTask(self, "compare", busy=self.busy)
    self.compute_task.start(lambda ctx: compare(ws, ...), on_done=self._show)

- ``fn(ctx)`` runs in the worker thread. ``ctx.progress(done, total, stage)`` reports progress
  (shown by the page's :class:`BusyBar`, throttled by the worker) and ``ctx.check()`` raises
  :class:`~mteval_gui.errors.Cancelled` once the work was cancelled or superseded.
- Starting again supersedes the running work: its result, error or progress is dropped when
  it arrives (each start has a *generation*; only the newest one is applied). ``cancel()``
  drops the running work too (e.g. when the page switches workspace).
- ``on_done(result)`` and ``on_error(exc)`` run in the GUI thread. Without ``on_error`` the
  error is shown with :func:`~mteval_gui.qt.dialogs.show_error`.
- ``workspace``: the worker thread's own SQLite connection to it is closed when ``fn`` ends.
- ``finished(JobOutcome)`` is emitted for the newest generation after its callback ran;
  :meth:`wait` blocks until the running work has been applied (scripts, screenshots).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from mteval_gui.app.tasks import FunctionJob, JobOutcome
from mteval_gui.errors import Cancelled
from mteval_gui.qt.workers import JobManager, Worker


@dataclass(frozen=True)
class TaskProgress:
    """What a background task reports: ``done`` of ``total`` (0 = unknown) in ``stage``."""

    done: int
    total: int
    stage: str = ""


@dataclass
class TaskContext:
    """Handed to the function of a :class:`BackgroundTask` (used in the worker thread)."""

    _report: Callable[[Any], None]
    _cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: int, total: int = 0, stage: str = "") -> None:
        self.check()
        self._report(TaskProgress(int(done), int(total), stage))

    def report(self, progress: Any) -> None:
        """Forward a progress object of the work's own kind (it needs ``done``, ``total``, ``stage``)
        without checking for cancellation (work that must finish as a whole, such as an import)."""
        self._report(TaskProgress(int(getattr(progress, "done", 0) or 0), int(getattr(progress, "total", 0) or 0),
                                  str(getattr(progress, "stage", "") or "")))

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def cancel_event(self) -> threading.Event:
        return self._cancel

    def check(self) -> None:
        """Raise :class:`Cancelled` if the work was cancelled or superseded."""
        if self._cancel.is_set():
            raise Cancelled("superseded")


class BusyBar(QWidget):
    """A page's progress line: a stage text and a bar (indeterminate until a total is known)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("busyBar")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setObjectName("busyLabel")
        self.bar = QProgressBar()
        self.bar.setObjectName("busyProgress")
        self.bar.setMaximumWidth(260)
        self.bar.setTextVisible(False)
        lay.addWidget(self.label)
        lay.addWidget(self.bar)
        lay.addStretch(1)
        self.hide()

    def start(self, text: str) -> None:
        self.label.setText(text)
        self.bar.setRange(0, 0)
        self.show()

    def update_progress(self, p: TaskProgress, title: str) -> None:
        if p.total > 0:
            self.bar.setRange(0, p.total)
            self.bar.setValue(min(p.done, p.total))
        self.label.setText(f"{title} — {p.stage}" if p.stage else title)

    def finish(self) -> None:
        self.hide()


def _retire(jobs: JobManager) -> None:
    """The task is gone: cancel its work and delete its threads' manager once they have ended."""
    jobs.cancel_all()
    if jobs.active == 0:
        jobs.deleteLater()
    else:
        jobs.active_changed.connect(lambda n: jobs.deleteLater() if n == 0 else None)


class BackgroundTask(QObject):
    """One kind of background work of a page; the newest start wins (see the module docstring)."""

    finished = Signal(object)  # JobOutcome of the newest generation, after its callback ran

    def __init__(self, owner: QWidget, name: str, *, busy: BusyBar | None = None, title: str = ""):
        super().__init__(owner)
        self.owner = owner
        self.name = name
        self.busy = busy
        self.title = title
        # the threads belong to the application, not to the page: a page deleted while its work
        # runs must not take a running thread with it (Qt aborts then); they end, then go
        jobs = JobManager(QCoreApplication.instance())
        self.jobs = jobs
        self.destroyed.connect(lambda *_: _retire(jobs))
        self.generation = 0
        self._running: dict[Worker, tuple[int, Callable[[Any], None] | None,
                                          Callable[[BaseException], None] | None,
                                          Callable[[TaskProgress], None] | None]] = {}
        self._cancels: dict[int, threading.Event] = {}
        self._title = title

    @property
    def running(self) -> bool:
        """True while the newest generation has not been applied yet."""
        return any(gen == self.generation for gen, *_ in self._running.values())

    def start(self, fn: Callable[[TaskContext], Any], *, on_done: Callable[[Any], None] | None = None,
              on_error: Callable[[BaseException], None] | None = None,
              on_progress: Callable[[TaskProgress], None] | None = None,
              workspace: Any = None, title: str | None = None) -> int:
        """Run ``fn(ctx)`` in a worker thread; returns the generation of this start."""
        self._supersede()
        self.generation += 1
        generation = self.generation

        def job(on_progress_: Callable[[Any], None], _on_partial: Callable[[Any], None],
                cancel: threading.Event) -> Any:
            ctx = TaskContext(on_progress_, cancel)
            try:
                return fn(ctx)
            finally:
                if workspace is not None:
                    workspace.close()  # this worker thread's connection only

        function_job = FunctionJob(job)
        self._cancels[generation] = function_job.cancel_event
        worker = Worker(function_job, name=f"{self.name}-{generation}")
        worker.progress.connect(self._progress)
        worker.finished.connect(self._finished)
        self._running[worker] = (generation, on_done, on_error, on_progress)
        self._title = title if title is not None else (self.title or QCoreApplication.translate(
            "BackgroundTask", "Working…"))
        if self.busy is not None:
            self.busy.start(self._title)
        self.jobs.start(worker)
        return generation

    def cancel(self) -> None:
        """Drop the running work: its result will not be applied."""
        self._supersede()
        self.generation += 1
        if self.busy is not None:
            self.busy.finish()

    def _supersede(self) -> None:
        for event in self._cancels.values():
            event.set()

    def _progress(self, p: Any) -> None:
        worker = self.sender()
        entry = self._running.get(worker)  # type: ignore[call-overload]
        if entry is None or entry[0] != self.generation or not isinstance(p, TaskProgress):
            return
        if self.busy is not None:
            self.busy.update_progress(p, self._title)
        if entry[3] is not None:
            entry[3](p)

    def _finished(self, outcome: JobOutcome) -> None:
        worker = self.sender()
        generation, on_done, on_error, _ = self._running.pop(worker, (None, None, None, None))  # type: ignore[call-overload]
        self._cancels.pop(generation, None)
        if generation != self.generation:
            return  # superseded or cancelled: dropped
        if self.busy is not None:
            self.busy.finish()
        if outcome.status == "done" and on_done is not None:
            on_done(outcome.result)
        elif outcome.status == "failed" and outcome.error is not None:
            if on_error is not None:
                on_error(outcome.error)
            else:
                from mteval_gui.qt.dialogs import show_error

                show_error(self.owner, outcome.error)
        self.finished.emit(outcome)

    def wait(self, timeout_ms: int = 60000) -> bool:
        """Block (running the event loop) until the newest work has been applied; False on timeout."""
        if not self.running:
            return True
        loop = QEventLoop()
        self.finished.connect(loop.quit)
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        timer.start(timeout_ms)
        if self.running:
            loop.exec()
        self.finished.disconnect(loop.quit)
        return not self.running

    def shutdown(self) -> None:
        """Cancel everything and wait for the threads (the window is closing)."""
        self.cancel()
        self.jobs.shutdown()
        self._running.clear()
        self._cancels.clear()
