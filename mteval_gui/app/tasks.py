"""Background tasks as plain Python: what runs in a worker thread or a child process.

A *job* is an object with ``run(on_progress, on_partial) -> result`` and ``cancel()``.
:mod:`mteval_gui.qt.workers` adapts jobs to Qt signals and the CLI runs them directly; this
module must also import in a child process (no PySide6 here):

- :class:`FunctionJob` runs a callable in the calling (worker) thread.
- :class:`ProcessJob` runs a named top-level function in a separate process (``spawn``)
  and relays its progress, partial results, result or error through a queue. Long C calls
  holding the GIL (sacrebleu, HFST) then cannot stall the GUI's event loop: measured on two
  cores, scoring in a thread doubled timer gaps while a child process kept them at idle
  level. Cancelling sets an event the child checks between batches; a child that does not
  stop within ``kill_after`` seconds is terminated.

A job that stops because it was cancelled raises :class:`~mteval_gui.errors.Cancelled`, the
one cancellation type of the application (the scorer raises it too).
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import pickle
import queue as queue_mod
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mteval_gui.app.batchgc import batch_gc
from mteval_gui.errors import Cancelled, Defect, InputError, MtevalError

ProgressFn = Callable[[Any], None]
PartialFn = Callable[[Any], None]
__all__ = ["Cancelled", "FunctionJob", "JobFailed", "JobOutcome", "ProcessJob", "resolve_target"]


class JobFailed(MtevalError):
    """A child process failed in a way that could not be carried back as the original error."""

    def __init__(self, message: str, detail: str = ""):
        self.detail = detail
        super().__init__(message)


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


def _portable(exc: BaseException) -> Any:
    """What the parent can rebuild the exception from: the exception itself if it survives
    pickling, the defect list of an InputError, else a JobFailed carrying its text."""
    if isinstance(exc, InputError):
        return ("InputError", [(d.file, d.line, d.message, d.column) for d in exc.defects])
    try:
        clone = pickle.loads(pickle.dumps(exc))
        if type(clone) is type(exc) and str(clone) == str(exc):
            return exc
    except Exception:  # noqa: BLE001 - an exception class whose constructor does not round-trip
        pass
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return JobFailed(f"{type(exc).__name__}: {exc}", tb)


def _rebuild(payload: Any) -> BaseException:
    if isinstance(payload, tuple) and payload and payload[0] == "InputError":
        return InputError([Defect(*d) for d in payload[1]])
    return payload


def child_main(messages: Any, cancel_event: Any, target: str, kwargs: dict[str, Any]) -> None:
    """Entry point of the child process: run ``target(**kwargs, on_progress, on_partial, cancel_event)``."""
    try:
        fn = resolve_target(target)
        with batch_gc():
            result = fn(on_progress=lambda p: messages.put(("progress", p)),
                        on_partial=lambda x: messages.put(("partial", x)),
                        cancel_event=cancel_event, **kwargs)
        messages.put(("result", result))
    except Cancelled:
        messages.put(("cancelled", None))
    except BaseException as exc:  # noqa: BLE001 - everything the child hits is reported to the parent
        if cancel_event.is_set() and isinstance(exc, KeyboardInterrupt):
            messages.put(("cancelled", None))
        else:
            messages.put(("error", _portable(exc)))


class ProcessJob:
    """Run ``target(**kwargs, on_progress=, on_partial=, cancel_event=)`` in a child process.

    ``target`` names a top-level function (``"module:function"``) importable without Qt.
    ``run`` blocks the calling thread (a worker thread) until the child ends, relaying its
    messages to the callbacks.
    """

    POLL_SECONDS = 0.05

    def __init__(self, target: str, kwargs: dict[str, Any] | None = None, *, kill_after: float = 10.0):
        self.target = target
        self.kwargs = dict(kwargs or {})
        self.kill_after = kill_after
        self._ctx = mp.get_context("spawn")
        self.cancel_event = self._ctx.Event()
        self._cancel_requested_at: float | None = None
        self._lock = threading.Lock()
        self._should_cancel: Callable[[], bool] | None = None

    def cancel(self) -> None:
        with self._lock:
            if self._cancel_requested_at is None:
                self._cancel_requested_at = time.monotonic()
        self.cancel_event.set()

    def run(self, on_progress: ProgressFn, on_partial: PartialFn, *,
            should_cancel: Callable[[], bool] | None = None) -> Any:
        """Run the child to its end. ``should_cancel`` is polled too (e.g. a Ctrl-C handler's token)."""
        self._should_cancel = should_cancel
        if self.cancel_event.is_set():
            raise Cancelled("cancelled before start")
        messages = self._ctx.Queue()
        # not a daemon: a scorer may start processes of its own (model loading); the finally
        # clause below makes sure the child never outlives this call
        proc = self._ctx.Process(target=child_main, args=(messages, self.cancel_event, self.target, self.kwargs),
                                 daemon=False, name="mteval-job")
        proc.start()
        try:
            return self._relay(proc, messages, on_progress, on_partial)
        finally:
            if proc.is_alive():
                proc.terminate()
            proc.join(5)
            messages.close()
            messages.join_thread()

    def _relay(self, proc: Any, messages: Any, on_progress: ProgressFn, on_partial: PartialFn) -> Any:
        dead_since: float | None = None
        while True:
            if self._should_cancel is not None and not self.cancel_event.is_set() and self._should_cancel():
                self.cancel()
            try:
                kind, payload = messages.get(timeout=self.POLL_SECONDS)
            except queue_mod.Empty:
                if (
                    self._cancel_requested_at is not None
                    and time.monotonic() - self._cancel_requested_at > self.kill_after
                ):
                    proc.terminate()
                    raise Cancelled("the job did not stop in time and was terminated") from None
                if not proc.is_alive():
                    # the queue may still be flushing; give it a moment before declaring the child lost
                    dead_since = dead_since or time.monotonic()
                    if time.monotonic() - dead_since > 1.0:
                        if self.cancel_event.is_set():
                            raise Cancelled("job process ended after cancellation") from None
                        raise JobFailed(
                            f"the background process ended unexpectedly (exit code {proc.exitcode})") from None
                continue
            if kind == "progress":
                on_progress(payload)
            elif kind == "partial":
                on_partial(payload)
            elif kind == "result":
                return payload
            elif kind == "cancelled":
                raise Cancelled("cancelled")
            elif kind == "error":
                raise _rebuild(payload)
