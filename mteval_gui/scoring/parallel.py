"""Both cores for one run: a forked process scores a share of a job's batches.

The runner prepares the metrics once; :class:`BatchHelper` forks the process (POSIX only), so
the child starts with the same prepared metrics, corpus-side statistics and imported modules,
and scores batches with the same code as the parent (``score_batch``): the parent takes them
from the front of the job's list and the helper from the back (:class:`Claims`), so both
finish together whatever the batches cost. Each scored batch comes back through a pipe as
``(batch index, rows, failures)``; the parent writes it to the sink, so batches are committed
one by one as in a serial job (a crash or a cancel keeps every committed batch and a rerun
resumes) and the results are those of serial scoring. A metric that fails in the child is
reported with its reason and marked failed in the parent.

The child never touches the sink, the progress callback or the cancel token: the parent
checks the token and ends the child (SIGTERM) when the job is cancelled or fails.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any

MIN_BATCHES = 4  # fewer batches to score: no helper (forking would cost more than it saves)

BatchOutcome = tuple[int, list[Any], list[tuple[str, str]]]  # batch index, rows, (metric id, reason) failures


def default_workers() -> int:
    """Processes a job may use: the cores this process may run on, at most 2 (one helper)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def can_fork() -> bool:
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


def use_helper(todo: Sequence[int], workers: int) -> bool:
    """Whether a forked helper takes part (``workers`` ≥ 2, at least :data:`MIN_BATCHES` batches
    to do, and ``fork`` on this system)."""
    return workers >= 2 and len(todo) >= MIN_BATCHES and can_fork()


class Claims:
    """The batches of a job taken from both ends of one list: the parent takes from the front,
    the forked helper from the back, so the faster process does more and neither waits.

    The two positions live in shared memory, each written by one process only (no lock a
    killed helper could leave held). When both reach the same batch at the same moment they
    may both take it: the parent commits it once (:meth:`BatchHelper.outcomes` skips batches
    already committed, and the parent skips scoring one it has received)."""

    def __init__(self, todo: Sequence[int]) -> None:
        self.todo: list[int] = [int(b) for b in todo]
        self._ends = multiprocessing.get_context("fork").RawArray("q", [0, len(self.todo) - 1])

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

    def taken_from_back(self) -> list[int]:
        """The batches the helper has taken so far."""
        return self.todo[int(self._ends[1]) + 1:]


class BatchHelper:
    """A forked child scoring the batches it takes from the back of ``claims`` with
    ``score_batch(b) -> (rows, failures)``."""

    def __init__(self, claims: Claims, score_batch: Callable[[int], tuple[list[Any], list[tuple[str, str]]]]):
        self.claims = claims
        self.received: set[int] = set()
        receiver, sender = multiprocessing.Pipe(duplex=False)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child
            code = 1  # whatever goes wrong here, the parent sees the pipe end early and says so
            try:
                receiver.close()
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
                while (b := claims.back()) is not None:
                    rows, failures = score_batch(b)
                    sender.send((b, rows, failures))
                sender.send(None)
                code = 0
            finally:
                with contextlib.suppress(OSError):
                    sender.close()
                os._exit(code)
        sender.close()
        self.pid: int | None = pid
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
            if msg is None:
                self.finished = True
                self.close()
                return
            self.received.add(msg[0])
            yield msg
            wait = False

    def lost(self, committed: set[int]) -> list[int]:
        """The batches the helper took that nobody committed (it died on them)."""
        return [b for b in self.claims.taken_from_back() if b not in committed and b not in self.received]

    def close(self) -> None:
        """End the child (if it still runs) and reap it."""
        pid, self.pid = self.pid, None
        with contextlib.suppress(OSError):
            self.conn.close()
        if pid is None:
            return
        if not self.finished:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
