"""Both cores for one run: a forked process scores a share of a job's batches.

The runner prepares the metrics once; :class:`BatchHelper` forks the process (POSIX only,
:func:`mteval_gui.runtime.start`), so the child starts with the same prepared metrics,
corpus-side statistics and imported modules, and scores batches with the same code as the
parent (``score_batch``): the parent takes them from the front of the job's list and the
helper from the back (:class:`Claims`), so both finish together whatever the batches cost. A
metric that loads large data on first use (declared ``single_process``) is scored by the
helper alone, for the parent's batches too, so its data loads once and while the parent
scores. Each scored batch (or the helper's part of a parent's batch) comes back through a pipe
as a :class:`~mteval_gui.runtime.PartialMsg` holding a :data:`BatchOutcome` ``(batch index,
rows, failures, whole)``, sent by a thread of the child so that it scores on while the parent
is busy, and a :class:`~mteval_gui.runtime.DoneMsg` when it has no batch left; the parent
writes each batch to the sink once it has all of its rows, so batches are committed one by one
as in a serial job (a crash or a cancel keeps every committed batch and a rerun resumes) and
the results are those of serial scoring. A metric that fails in the child is reported with its
reason and marked failed in the parent.

The child never touches the sink, the progress callback or the cancel token: the parent
checks the token and ends the child (SIGTERM) when the job is cancelled or fails.

**The seam.** The schedule of a job (:mod:`mteval_gui.scoring.schedule`) sees a helper only
through :class:`Helper` — "score the batches you take from the back of these claims, stream
their outcomes back" — and starts one through a :data:`HelperFactory` (default
:class:`BatchHelper`). An executor outside this process cannot take ``score_batch`` (its
prepared metrics live here): it is given the job's portable description, :class:`RemoteWork`,
and opens the metrics itself — :class:`~mteval_gui.scoring.cluster.RayHelper`, the workers of a
Ray cluster, plugs in there.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

from mteval_gui import runtime

MIN_BATCHES = 4  # fewer batches to score: no helper (forking would cost more than it saves)

# batch index, rows, (metric id, reason) failures, whether the rows are the whole batch's (else
# only those of the metrics the helper alone scores, of a batch the parent took)
BatchOutcome = tuple[int, list[Any], list[tuple[str, str]], bool]


def default_workers() -> int:
    """Processes a job may use: the cores this process may run on, at most 2 (one helper)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def can_fork() -> bool:
    return runtime.can_fork()


# metrics whose library's threads do not survive a fork (MetricInfo.fork_safe False) that this
# process has scored itself: a process forked from it would hang in them
_RAN_HERE: set[str] = set()
STALL_ENV = "MTEVAL_HELPER_STALL_SECONDS"
DEFAULT_STALL_S = 600.0


def ran_here(metric_ids: Sequence[str]) -> None:
    """Note that this process scored these fork-unsafe metrics itself (no helper for them after)."""
    _RAN_HERE.update(metric_ids)


def stall_limit() -> float:
    """Seconds the parent waits for a batch of an idle-looking helper before it ends it
    (``MTEVAL_HELPER_STALL_SECONDS``, default 600)."""
    try:
        value = float(os.environ.get(STALL_ENV, DEFAULT_STALL_S))
    except ValueError:
        return DEFAULT_STALL_S
    return value if value > 0 else DEFAULT_STALL_S


def use_helper(todo: Sequence[int], workers: int, fork_unsafe: Sequence[str] = ()) -> bool:
    """Whether a forked helper takes part (``workers`` ≥ 2, at least :data:`MIN_BATCHES` batches
    to do, ``fork`` on this system, and no fork-unsafe metric of the job already run in this
    process)."""
    return (workers >= 2 and len(todo) >= MIN_BATCHES and can_fork()
            and not any(m in _RAN_HERE for m in fork_unsafe))


class Claims:
    """The batches of a job taken from both ends of one list: the parent takes from the front,
    the forked helper from the back, so the faster process does more and neither waits.

    The two positions live in shared memory, each written by one process only (no lock a
    killed helper could leave held). When both reach the same batch at the same moment they
    may both take it: the parent commits it once (:meth:`BatchHelper.outcomes` skips batches
    already committed, and the parent skips scoring one it has received)."""

    def __init__(self, todo: Sequence[int]) -> None:
        self.todo: list[int] = [int(b) for b in todo]
        self._ends = runtime.shared_ints([0, len(self.todo) - 1])

    def front(self) -> int | None:
        """The next batch for the parent (None when every batch is taken)."""
        lo = int(self._ends[0])
        if lo > self._ends[1]:
            return None
        self._ends[0] = lo + 1
        return self.todo[lo]

    def back(self) -> int | None:
        """The next batch for the helper (None when every batch is taken)."""
        hi = int(self._ends[1])
        if hi < self._ends[0]:
            return None
        self._ends[1] = hi - 1
        return self.todo[hi]

    def taken_from_front(self) -> int:
        """How many batches the parent has taken so far (``todo[:n]``)."""
        return min(int(self._ends[0]), len(self.todo))

    def taken_from_back(self) -> list[int]:
        """The batches the helper has taken so far."""
        return self.todo[int(self._ends[1]) + 1:]


Scorer = Callable[[int], tuple[list[Any], list[tuple[str, str]]]]  # batch index -> (rows, failures)


class Helper(Protocol):
    """A second scorer of a job's batches: it takes them from the back of ``claims`` and scores
    them (and, with ``lone``, the lone metrics' rows of each batch the parent takes)."""

    claims: Claims
    finished: bool  # every outcome received (or the helper given up)
    received: set[int]  # the batches it sent whole

    def outcomes(self, *, wait: bool, timeout: float = 0.2) -> Iterator[BatchOutcome]:
        """The batches it has finished; raises ``RuntimeError`` when it is lost."""
        ...

    def lost(self, committed: set[int]) -> list[int]:
        """The batches it took that nobody committed."""
        ...

    def close(self) -> None:
        """End it (if it still runs)."""
        ...


@dataclass(frozen=True)
class RemoteWork:
    """What an executor outside this process needs to score a job's batches itself: the request
    (it pickles: corpus, run, cards, options), the metrics it scores (``refs``), those of them
    that declare a GPU and the batch size."""

    request: Any  # a ScoringRequest
    refs: list[Any]  # MetricRef of each metric it scores
    gpu_ids: list[str] = field(default_factory=list)
    batch_size: int = 50


HelperFactory = Callable[..., Helper]  # (claims, score_batch, *, lone=None, work=None) -> Helper


def _child(claims: Claims, score_batch: Scorer, lone: Scorer | None, sender: Connection) -> int:
    """The helper's work: score batches from the back until none is left and, with ``lone``,
    the rows of the parent's batches that only the helper scores, as the parent takes them. A
    thread sends the outcomes, so that scoring goes on while the parent is too busy to read the
    pipe (a batch's rows fill its buffer). Returns the exit code (1 when the parent stopped
    reading)."""
    outbox: queue.SimpleQueue[runtime.Message] = queue.SimpleQueue()
    gone = threading.Event()

    def send_all() -> None:
        while True:
            item = outbox.get()
            try:
                sender.send(item)
            except (OSError, ValueError):  # the parent closed its end: it is stopping
                gone.set()
                return
            if isinstance(item, runtime.DoneMsg):
                return

    thread = threading.Thread(target=send_all, name="mteval-helper-send", daemon=True)
    thread.start()
    out = runtime.Outbox(outbox.put)
    whole: set[int] = set()
    front = 0  # the parent's batches whose lone rows are sent
    while not gone.is_set():
        if lone is not None and front < claims.taken_from_front():
            theirs = claims.todo[front]
            front += 1
            out.partial((theirs, *lone(theirs), False))
            continue
        b = claims.back()
        if b is None:
            break
        whole.add(b)
        out.partial((b, *score_batch(b), True))
    if lone is not None:  # every batch is taken: the lone rows of the parent's last ones
        for theirs in claims.todo[front:claims.taken_from_front()]:
            if gone.is_set():
                break
            if theirs not in whole:
                out.partial((theirs, *lone(theirs), False))
    outbox.put(runtime.DoneMsg())
    thread.join()
    with contextlib.suppress(OSError):
        sender.close()
    return 1 if gone.is_set() else 0


class BatchHelper:
    """A forked child scoring the batches it takes from the back of ``claims`` with
    ``score_batch(b) -> (rows, failures)`` and, with ``lone``, ``lone(b)`` of each batch the
    parent takes (the metrics only the helper scores)."""

    def __init__(self, claims: Claims, score_batch: Scorer, *, lone: Scorer | None = None,
                 work: RemoteWork | None = None):
        del work  # a forked child inherits the prepared metrics: it needs no description of them
        self.claims = claims
        self.received: set[int] = set()
        receiver, sender = runtime.pipe()
        self.child: runtime.Child | None = runtime.start(_child, claims, score_batch, lone, sender, method="fork",
                                                         name="mteval-helper")
        sender.close()
        self.pid: int | None = self.child.pid
        self.conn: Connection = receiver
        self.finished = False

    def outcomes(self, *, wait: bool, timeout: float = 0.2) -> Iterator[BatchOutcome]:
        """The batches the child has finished; with ``wait``, block up to ``timeout`` for one."""
        while not self.finished and self.conn.poll(timeout if wait else 0):
            try:
                msg = self.conn.recv()
            except (EOFError, OSError) as exc:
                self.close()
                raise RuntimeError(f"the scoring helper process ended early ({type(exc).__name__})") from exc
            if isinstance(msg, runtime.DoneMsg):
                self.finished = True
                self.close()
                return
            outcome: BatchOutcome = msg.value
            if outcome[3]:
                self.received.add(outcome[0])
            yield outcome
            wait = False

    def lost(self, committed: set[int]) -> list[int]:
        """The batches the helper took that nobody committed (it died on them)."""
        return [b for b in self.claims.taken_from_back() if b not in committed and b not in self.received]

    def close(self) -> None:
        """End the child (if it still runs) and reap it."""
        child, self.child, self.pid = self.child, None, None
        with contextlib.suppress(OSError):
            self.conn.close()
        if child is None:
            return
        if not self.finished:
            child.terminate()
        child.join()
