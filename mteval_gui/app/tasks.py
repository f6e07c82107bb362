"""Background tasks as plain Python: what runs in a worker thread or a child process.

A *job* is an object with ``run(on_progress, on_partial) -> result`` and ``cancel()``.
:mod:`mteval_gui.qt.workers` adapts jobs to Qt signals and the CLI runs them directly; this
module must also import in a child process (no PySide6 here):

- :class:`FunctionJob` runs a callable in the calling (worker) thread.
- :class:`ProcessJob` runs a named top-level function in a separate process (``spawn``,
  :mod:`mteval_gui.runtime`) and relays its progress, partial results, result or error (the
  exception itself, its type kept). Long C calls
  holding the GIL (sacrebleu, HFST) then cannot stall the GUI's event loop: measured on two
  cores, scoring in a thread doubled timer gaps while a child process kept them at idle
  level. Cancelling sets an event the child checks between batches (it is set too once this
  process is gone); a child that does not stop within ``kill_after`` seconds is killed.

A job that stops because it was cancelled raises :class:`~mteval_gui.errors.Cancelled`, the
one cancellation type of the application (the scorer raises it too).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mteval_gui import runtime
from mteval_gui.app.batchgc import batch_gc
from mteval_gui.errors import Cancelled

ProgressFn = Callable[[Any], None]
PartialFn = Callable[[Any], None]
__all__ = ["Cancelled", "FunctionJob", "JobFailed", "JobOutcome", "ProcessJob", "resolve_target"]


JobFailed = runtime.ChildFailed  # a child failed in a way that could not be carried back as the original error


@dataclass(frozen=True)
class JobOutcome:
    """How a job ended: ``status`` is ``done``, ``cancelled`` or ``failed``."""

    status: str
    result: Any = None
    error: BaseException | None = None


class FunctionJob:
    """Run ``fn(on_progress, on_partial, cancel_event)`` in the calling thread."""

    def __init__(self, fn: Callable[[ProgressFn, PartialFn, threading.Event], Any]):
        self._fn = fn
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self, on_progress: ProgressFn, on_partial: PartialFn) -> Any:
        return self._fn(on_progress, on_partial, self.cancel_event)


def resolve_target(name: str) -> Callable[..., Any]:
    """``"package.module:function"`` -> the function."""
    module_name, _, attr = name.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr)


def child_main(messages: Any, cancel_event: Any, target: str, kwargs: dict[str, Any]) -> None:
    """Entry point of the child process: run ``target(**kwargs, on_progress, on_partial, cancel_event)``
    and send its messages (:data:`~mteval_gui.runtime.Message`) to ``messages`` (a connection or a queue)."""
    outbox = runtime.Outbox.of(messages)

    def work() -> Any:
        fn = resolve_target(target)
        with batch_gc():
            return fn(on_progress=outbox.progress, on_partial=outbox.partial, cancel_event=cancel_event, **kwargs)

    runtime.report(outbox, work, cancel_event)


class ProcessJob:
    """Run ``target(**kwargs, on_progress=, on_partial=, cancel_event=)`` in a child process.

    ``target`` names a top-level function (``"module:function"``) importable without Qt.
    ``run`` blocks the calling thread (a worker thread) until the child ends, relaying its
    messages to the callbacks.
    """

    def __init__(self, target: str, kwargs: dict[str, Any] | None = None, *, kill_after: float = 10.0):
        self.target = target
        self.kwargs = dict(kwargs or {})
        self.kill_after = kill_after
        self.cancel_event = runtime.CancelEvent("spawn")

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self, on_progress: ProgressFn, on_partial: PartialFn, *,
            should_cancel: Callable[[], bool] | None = None) -> Any:
        """Run the child to its end. ``should_cancel`` is polled too (e.g. a Ctrl-C handler's token)."""
        if self.cancel_event.is_set():
            raise Cancelled("cancelled before start")
        receiver, sender = runtime.pipe()
        # the Ctrl-C of a terminal reaches the child too: once cancelled it reports "cancelled"
        child = runtime.start(child_main, sender, self.cancel_event, self.target, self.kwargs, method="spawn",
                              name="mteval-job", ignore_sigint=False)
        sender.close()

        def relay(msg: runtime.Message) -> None:
            if isinstance(msg, runtime.ProgressMsg):
                on_progress(msg.value)
            elif isinstance(msg, runtime.PartialMsg):
                on_partial(msg.value)

        try:
            end = runtime.supervise(child, receiver, self.cancel_event, on_message=relay,
                                    should_cancel=should_cancel, kill_after=self.kill_after)
        finally:
            child.end()
            receiver.close()
        if isinstance(end, runtime.DoneMsg):
            return end.result
        if isinstance(end, runtime.FailedMsg):
            raise end.error
        raise Cancelled("cancelled")
