"""The one owner of child processes: starting them, what they say, cancelling and ending them.

Every process the application starts goes through this module (Qt-free, standard library
only, so the language-model service can start before anything heavy is imported):

- :func:`start` — a function in a child process, *spawned* (a fresh interpreter: the
  background job, an isolated plugin metric) or *forked* (a copy of this process with its
  prepared metrics and imported modules: the run pool, the batch helper, the language-model
  service). A forked child runs its function and leaves with ``os._exit``: no ``atexit``
  handler, finaliser or inherited lock of the parent's runs there (the workspace guard's OFD
  locks, :mod:`mteval_gui.store.walguard`, stay the parent's). :func:`start_python` starts
  a bare interpreter on a line protocol (the plugin probe, which must not import the
  application's ``__main__``), :func:`run_command` a program to its end under a time limit
  (the analyzer probe, :mod:`mteval_gui.fst.probe`). Each returns a :class:`Child`: ``alive``, ``exitcode``,
  :meth:`Child.join`, :meth:`Child.terminate`, :meth:`Child.kill` and :meth:`Child.end`
  (terminate, then kill after a grace period: *kill-after*).
- A typed message union, :data:`Message`: :class:`ProgressMsg`, :class:`PartialMsg`,
  :class:`DoneMsg`, :class:`FailedMsg` (the exception itself, type and attributes kept across
  the process boundary: an :class:`~mteval_gui.errors.InputError` keeps its defects, a
  ``RunBusy`` its run id; one that cannot be rebuilt becomes :class:`ChildFailed` with the
  child's traceback) and :class:`CancelledMsg`. Each carries a ``tag`` (which task it is
  about). A child writes them to an :class:`Outbox`; :func:`report` runs a function and sends
  how it ended.
- :class:`CancelEvent` — the one cancel event: set by the parent, checked by the child
  between units of work; in the child it also counts as set once the process that created
  it is gone (*orphan detection*: nobody would collect the results).
- :func:`supervise` — relay one child's messages until it ends, cancelling it when asked and
  killing it ``kill_after`` seconds after a cancel it does not obey; :func:`fan_out` — tasks
  shared by several forked workers (each takes the next when it has finished one), their
  messages relayed as they come, a worker that dies reported as the failure of its tasks.

Where work runs is chosen by the callers (the batches of one run: :mod:`mteval_gui.scoring.parallel`);
they see only these pieces, so another executor (a cluster) can replace a forked child
behind the same interface.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.sharedctypes import RawArray
from typing import Any, Literal, TypeVar

from mteval_gui import errors

Method = Literal["spawn", "fork"]
POLL_S = 0.05  # how often a waiting parent looks at its cancel token and its children
S = TypeVar("S")

__all__ = [
    "CancelEvent", "CancelledMsg", "Child", "ChildFailed", "Claims", "DoneMsg", "FailedMsg", "Message", "Method",
    "Outbox", "PartialMsg", "ProgressMsg", "can_fork", "fan_out", "pipe", "report", "run_command", "shared_ints",
    "start", "start_python", "supervise",
]


def can_fork() -> bool:
    """Whether this system can fork a process (POSIX)."""
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


class ChildFailed(errors.MtevalError):
    """A child process failed in a way that could not be carried back as the original error
    (it died, or its exception cannot be rebuilt here); ``detail`` is its traceback, if any."""

    def __init__(self, message: str, detail: str = ""):
        self.detail = detail
        super().__init__(message)


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class ProgressMsg:
    """Progress of the work (whatever the target reports: a scoring ``Progress``, a tuple…)."""

    value: Any
    tag: Any = None


@dataclass(frozen=True)
class PartialMsg:
    """A partial result (e.g. a run finished while the others go on)."""

    value: Any
    tag: Any = None


@dataclass(frozen=True)
class DoneMsg:
    """The work ended with ``result``."""

    result: Any = None
    tag: Any = None


def _portable(exc: BaseException) -> tuple[Any, ...]:
    """What rebuilds ``exc`` in another process: its class, ``args`` and attributes, applied
    without calling its constructor (``RunBusy(run_id, holder)`` does not take its message back)."""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        state = pickle.dumps((type(exc), exc.args, dict(getattr(exc, "__dict__", {}))))
        pickle.loads(state)
    except Exception:  # noqa: BLE001 - anything that does not survive pickling is sent as text
        return ("text", f"{type(exc).__name__}: {exc}", tb)
    return ("exception", state, str(exc), tb)


def _rebuild(portable: tuple[Any, ...]) -> BaseException:
    if portable[0] == "exception":
        cls, args, attrs = pickle.loads(portable[1])
        exc: BaseException = cls.__new__(cls, *args)
        exc.args = args
        exc.__dict__.update(attrs)
        if str(exc) == portable[2]:
            return exc
        return ChildFailed(f"{cls.__name__}: {portable[2]}", portable[3])
    return ChildFailed(portable[1], portable[2])


@dataclass(frozen=True)
class FailedMsg:
    """The work raised ``error``: the exception itself on both sides of the process boundary."""

    error: BaseException
    tag: Any = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (_failed, (_portable(self.error), self.tag))


def _failed(portable: tuple[Any, ...], tag: Any) -> FailedMsg:
    return FailedMsg(_rebuild(portable), tag)


@dataclass(frozen=True)
class CancelledMsg:
    """The work stopped because it was cancelled (or its parent is gone)."""

    tag: Any = None


Message = ProgressMsg | PartialMsg | DoneMsg | FailedMsg | CancelledMsg
FINAL = (DoneMsg, FailedMsg, CancelledMsg)  # the messages that end a task


class Outbox:
    """The child's end of a channel: typed messages about ``tag``; ``put`` is what a queue
    offers (``queue.Queue``, a multiprocessing queue, a connection's ``send``)."""

    def __init__(self, put: Callable[[Any], Any], tag: Any = None) -> None:
        self.put = put
        self.tag = tag

    @classmethod
    def of(cls, sink: Any, tag: Any = None) -> Outbox:
        """An outbox writing to a connection (``send``) or a queue (``put``)."""
        return cls(sink.send if isinstance(sink, Connection) else sink.put, tag)

    def about(self, tag: Any) -> Outbox:
        return Outbox(self.put, tag)

    def progress(self, value: Any) -> None:
        self.put(ProgressMsg(value, self.tag))

    def partial(self, value: Any) -> None:
        self.put(PartialMsg(value, self.tag))


def report(outbox: Outbox, work: Callable[[], Any], cancel: Any = None) -> Message:
    """Run ``work()`` and send how it ended: done with its result, cancelled
    (:class:`~mteval_gui.errors.Cancelled`, or an interrupt once ``cancel`` is set) or failed
    with the exception. Returns the message sent."""
    msg: Message
    try:
        msg = DoneMsg(work(), outbox.tag)
    except errors.Cancelled:
        msg = CancelledMsg(outbox.tag)
    except BaseException as exc:  # noqa: BLE001 - everything the child hits is reported to the parent
        cancelled = cancel is not None and cancel.is_set() and isinstance(exc, KeyboardInterrupt)
        msg = CancelledMsg(outbox.tag) if cancelled else FailedMsg(exc, outbox.tag)
    outbox.put(msg)
    return msg


# --------------------------------------------------------------------------- cancellation


class CancelEvent:
    """The one cancel event of a child: the parent sets it, the child checks it between units of
    work. In a child it is also set once the process that created it has ended (orphan
    detection: a killed parent leaves nobody to collect the results, so the work stops after
    its current unit instead of running on)."""

    def __init__(self, method: Method = "spawn", *, event: Any = None) -> None:
        self._event = event if event is not None else multiprocessing.get_context(method).Event()
        self._owner = os.getpid()

    def set(self) -> None:
        self._event.set()

    def orphaned(self) -> bool:
        """True in a child whose creating process is gone (never in the creating process)."""
        return os.getpid() != self._owner and os.getppid() != self._owner

    def is_set(self) -> bool:
        return bool(self._event.is_set()) or self.orphaned()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the event (an orphan's returns at once)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            self._event.wait(POLL_S if left is None else min(POLL_S * 4, left))
        return True


# --------------------------------------------------------------------------- processes


class Child:
    """A started child process (spawned, forked or an interpreter)."""

    def __init__(self, pid: int, name: str, *, process: Any = None, popen: subprocess.Popen[str] | None = None):
        self.pid = pid
        self.name = name
        self._process = process  # a multiprocessing Process (spawned)
        self._popen = popen  # a started interpreter
        self._parent = os.getpid()
        self._status: int | None = None  # exit code once reaped (negative: the signal)

    @property
    def exitcode(self) -> int | None:
        """The exit code (negative: killed by that signal); None while it runs."""
        self._poll(block=False)
        return self._status

    @property
    def alive(self) -> bool:
        return self.exitcode is None and not self._lost()

    def _lost(self) -> bool:
        # a forked child reaped by someone else (a caller's waitpid): gone, status unknown
        if self._process is not None or self._popen is not None or self._status is not None:
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False

    def _poll(self, *, block: bool) -> None:
        if self._status is not None or os.getpid() != self._parent:
            return
        if self._process is not None:
            if block:
                self._process.join()
            self._status = self._process.exitcode
            return
        if self._popen is not None:
            self._status = self._popen.wait() if block else self._popen.poll()
            return
        try:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere
            return
        if pid:
            self._status = os.waitstatus_to_exitcode(status)

    def join(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: until it ends) for the child to end; True when
        it has (a child of another process is never waited for)."""
        if os.getpid() != self._parent:
            return False
        if timeout is None:
            self._poll(block=True)
            return True
        deadline = time.monotonic() + timeout
        while self.alive:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._process is not None:
                self._process.join(min(left, POLL_S * 4))
            else:
                time.sleep(min(left, POLL_S / 5))
        return True

    def _signal(self, sig: int, *, hard: bool) -> None:
        if self._status is not None:
            return
        mine = os.getpid() == self._parent
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if mine and self._process is not None:  # the platform's own way (Windows too)
                self._process.kill() if hard else self._process.terminate()
            elif mine and self._popen is not None:
                self._popen.kill() if hard else self._popen.terminate()
            else:
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM, hard=False)

    def kill(self) -> None:
        """SIGKILL (it ends a stopped process too); it is reaped by :meth:`join`."""
        self._signal(getattr(signal, "SIGKILL", signal.SIGTERM), hard=True)

    def end(self, grace: float = 5.0) -> None:
        """Terminate the child, kill it if it is still there after ``grace`` seconds, reap it."""
        if not self.alive:
            self.join(0)
            return
        self.terminate()
        if not self.join(grace):
            self.kill()
            self.join(grace)


def _forked(target: Callable[..., Any], args: Sequence[Any], ignore_sigint: bool, quiet: bool) -> None:
    code = 1  # whatever goes wrong here, the parent sees the child end early and says so
    try:
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
        if quiet:
            # it writes nothing and holds no end of the parent's own pipes (a reader waiting for
            # the parent's output to end never waits for it)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
        result = target(*args)
        code = result if isinstance(result, int) else 0
    finally:
        os._exit(code)


def _spawned(target: Callable[..., Any], args: Sequence[Any], ignore_sigint: bool) -> None:
    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    target(*args)


_TRIM: list[Any] = []


def release_free_memory() -> None:
    """Give the memory this process has freed back to the system where the C library allows it
    (glibc's ``malloc_trim``; nothing elsewhere): a process forked next starts with the pages in
    use only, not those of the large lists freed before (a corpus read, then packed)."""
    if not _TRIM:
        try:
            import ctypes

            _TRIM.append(ctypes.CDLL("libc.so.6").malloc_trim)
        except (OSError, AttributeError):
            _TRIM.append(None)
    if _TRIM[0] is not None:
        _TRIM[0](0)


def start(target: Callable[..., Any], *args: Any, method: Method, name: str, ignore_sigint: bool = True,
          quiet: bool = False) -> Child:
    """Run ``target(*args)`` in a child process.

    ``spawn``: a fresh interpreter (``target`` and ``args`` pickle; the child may start
    processes of its own). ``fork``: a copy of this process that runs ``target`` (any callable:
    nothing is pickled) and ends with ``os._exit`` — its exit code is ``target``'s return value
    when that is an int, else 0, and 1 when it raises. ``ignore_sigint``: a Ctrl-C typed in the
    terminal is the parent's to handle; ``quiet`` (fork only): the child's standard streams go
    to the null device.
    """
    if method == "fork":
        if not can_fork():
            raise RuntimeError("this system cannot fork a process")
        sys.stdout.flush()
        sys.stderr.flush()
        release_free_memory()
        pid = os.fork()
        if pid == 0:  # the child
            _forked(target, args, ignore_sigint, quiet)
        return Child(pid, name)
    ctx = multiprocessing.get_context("spawn")
    # not a daemon: the work may start processes of its own; the caller ends the child
    proc = ctx.Process(target=_spawned, args=(target, tuple(args), ignore_sigint), daemon=False, name=name)
    proc.start()
    assert proc.pid is not None
    return Child(proc.pid, name, process=proc)


def start_python(code: str, *, name: str) -> tuple[Child, subprocess.Popen[str]]:
    """A bare ``python -c code`` with its standard input and output as text pipes (standard error
    discarded): for a check that must not import the application's ``__main__``. Raises
    ``OSError`` when no interpreter can be started."""
    popen = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
    return Child(popen.pid, name, popen=popen), popen


def run_command(argv: Sequence[str], *, env: dict[str, str] | None = None,
                timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a program to its end, its output captured as text (undecodable bytes replaced), no
    input; past ``timeout`` seconds it is killed and ``subprocess.TimeoutExpired`` raised
    (``OSError`` when it cannot be started)."""
    return subprocess.run(list(argv), env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          encoding="utf-8", errors="replace", timeout=timeout, check=False)


def pipe(duplex: bool = False) -> tuple[Connection, Connection]:
    """A pipe between this process and a child: (receiving end, sending end) when not ``duplex``."""
    return multiprocessing.Pipe(duplex=duplex)


def shared_ints(values: Sequence[int]) -> Any:
    """Integers in shared memory, seen and written by this process and the children it forks
    after (no lock: give each slot one writer)."""
    return RawArray("q", list(values))


class Claims:
    """Indices ``0 .. n-1`` handed out one at a time, in order, to this process and the children it
    forks after (a counter in shared memory, under a lock held for one increment): each index is
    taken once, by whichever process asks first."""

    def __init__(self, n: int, start: int = 0) -> None:
        self.n = n
        self._next = shared_ints([start])
        self._lock = multiprocessing.get_context("fork").Lock()

    def take(self) -> int | None:
        """The next index not taken yet, now taken by the caller; None when all are taken."""
        with self._lock:
            i = int(self._next[0])
            if i >= self.n:
                return None
            self._next[0] = i + 1
        return i


# --------------------------------------------------------------------------- relaying


def supervise(child: Child, inbox: Connection, cancel: CancelEvent, *, on_message: Callable[[Message], None],
              should_cancel: Callable[[], bool] | None = None, kill_after: float = 10.0) -> Message:
    """Relay ``child``'s messages from ``inbox`` to ``on_message`` until one ends the work, and
    return that one. ``should_cancel`` is polled too (e.g. a Ctrl-C handler's token); once
    cancelled, a child that has not stopped after ``kill_after`` seconds is killed
    (:class:`CancelledMsg`). A child that ends without a word is a :class:`FailedMsg`
    (:class:`ChildFailed` naming its exit code), or cancelled when a cancel was asked."""
    cancelled_at: float | None = None
    while True:
        if should_cancel is not None and cancelled_at is None and should_cancel():
            cancel.set()
        if cancelled_at is None and cancel.is_set():
            cancelled_at = time.monotonic()
        msg: Any = None
        try:
            if inbox.poll(POLL_S):
                msg = inbox.recv()
        except (EOFError, OSError):  # every message sent is read before the end of the pipe
            child.join(5)
            if cancelled_at is not None:
                return CancelledMsg()
            return FailedMsg(ChildFailed(f"the background process ended unexpectedly (exit code {child.exitcode})"))
        if msg is None:
            if cancelled_at is not None and time.monotonic() - cancelled_at > kill_after:
                child.kill()
                return CancelledMsg()
            continue
        if isinstance(msg, FINAL):
            return msg
        on_message(msg)


@dataclass
class _Worker:
    child: Child
    inbox: Connection
    open: bool = True
    current: Any = None  # the tag of the task it works on (from its progress messages)


@dataclass
class _Tasks:
    """Tasks shared by forked workers: the next index in shared memory, under a lock held for
    one increment."""

    items: list[tuple[Any, Any]]
    next: Any = field(default_factory=lambda: shared_ints([0]))
    lock: Any = field(default_factory=lambda: multiprocessing.get_context("fork").Lock())

    def take(self) -> tuple[Any, Any] | None:
        with self.lock:
            i = int(self.next[0])
            if i >= len(self.items):
                return None
            self.next[0] = i + 1
        return self.items[i]

    def taken(self) -> list[Any]:
        return [tag for tag, _ in self.items[:min(int(self.next[0]), len(self.items))]]


def _work_loop(tasks: _Tasks, session: Callable[[], AbstractContextManager[S]],
               work: Callable[[S, Any, Outbox, CancelEvent], Any], sender: Connection, cancel: CancelEvent) -> int:
    with session() as state:
        while (task := tasks.take()) is not None:
            tag, payload = task
            out = Outbox(sender.send, tag)
            out.put(ProgressMsg(None, tag))  # "started": the parent knows which task a dead worker held
            report(out, functools.partial(work, state, payload, out, cancel), cancel)
    sender.close()
    return 0


def fan_out(items: Sequence[tuple[Any, Any]], *, workers: int, session: Callable[[], AbstractContextManager[S]],
            work: Callable[[S, Any, Outbox, CancelEvent], Any], on_message: Callable[[Message], None],
            cancelled: Callable[[], bool], name: str, grace: float = 60.0) -> None:
    """Run ``work(state, payload, outbox, cancel)`` for each ``(tag, payload)`` of ``items`` in
    ``workers`` forked processes; each opens ``session()`` once (its ``state``) and takes the
    next task when it has finished one. Every message reaches ``on_message`` but the one a
    worker sends when it takes a task (progress with ``value`` None: it tells this process which
    task a worker that dies was on); each task ends with one final message
    (a task of a worker that died: :class:`FailedMsg` with :class:`ChildFailed`). Once
    ``cancelled()``, every worker's cancel event is set; on leaving, workers still running
    get ``grace`` seconds to finish their task, then are ended."""
    tasks = _Tasks(list(items))
    cancel = CancelEvent("fork")
    pool: list[_Worker] = []
    for i in range(min(workers, len(tasks.items))):
        receiver, sender = pipe()
        child = start(_work_loop, tasks, session, work, sender, cancel, method="fork", name=f"{name}-{i}")
        sender.close()
        pool.append(_Worker(child, receiver))
    ended: set[Any] = set()
    tags = [tag for tag, _ in tasks.items]

    def deliver(w: _Worker, msg: Any) -> None:
        if isinstance(msg, ProgressMsg) and msg.value is None:
            w.current = msg.tag
            return
        if isinstance(msg, FINAL):
            ended.add(msg.tag)
            w.current = None
        on_message(msg)

    try:
        while len(ended) < len(tags):
            if cancelled():
                cancel.set()
            ready = wait([w.inbox for w in pool if w.open], timeout=POLL_S * 4)
            for w in pool:
                if not w.open or w.inbox not in ready:
                    continue
                try:
                    deliver(w, w.inbox.recv())
                except (EOFError, OSError):  # the worker ended: a task it held is lost
                    w.open = False
                    if w.current is not None and w.current not in ended:
                        deliver(w, FailedMsg(ChildFailed("the scoring process ended unexpectedly"), w.current))
            if not any(w.open for w in pool):
                for tag in tags:  # never taken: every worker died
                    if tag not in ended:
                        deliver(pool[0], FailedMsg(ChildFailed("the scoring process ended unexpectedly"), tag))
    finally:
        if len(ended) < len(tags):
            cancel.set()
        for w in pool:
            if not w.child.join(grace):
                w.child.end()
            with contextlib.suppress(OSError):
                w.inbox.close()

