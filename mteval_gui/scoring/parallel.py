"""Both cores for one run: a forked process scores a share of a job's batches.

The runner prepares the metrics once; :class:`BatchHelper` forks the process (POSIX only), so
the child starts with the same prepared metrics, corpus-side statistics and imported modules,
and scores the batches it is given with the same code as the parent (``score_batch``). Each
scored batch comes back through a pipe as ``(batch index, rows, failures)``; the parent writes
it to the sink, so batches are committed one by one as in a serial job (a crash or a cancel
keeps every committed batch and a rerun resumes) and the results are those of serial scoring.
A metric that fails in the child is reported with its reason and marked failed in the parent.

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


def split(todo: Sequence[int], workers: int) -> tuple[list[int], list[int]]:
    """(the parent's batches, the helper's batches): the first half and the second half
    (no helper when ``workers`` < 2 or fewer than :data:`MIN_BATCHES` batches are to do)."""
    if workers < 2 or len(todo) < MIN_BATCHES or not can_fork():
        return list(todo), []
    half = (len(todo) + 1) // 2
    return list(todo[:half]), list(todo[half:])


class BatchHelper:
    """A forked child scoring ``batches`` with ``score_batch(b) -> (rows, failures)``."""

    def __init__(self, batches: Sequence[int], score_batch: Callable[[int], tuple[list[Any], list[tuple[str, str]]]]):
        self.batches = list(batches)
        self.pending = set(self.batches)
        receiver, sender = multiprocessing.Pipe(duplex=False)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child
            code = 1  # whatever goes wrong here, the parent sees the pipe end early and says so
            try:
                receiver.close()
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
                for b in self.batches:
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
            self.pending.discard(msg[0])
            yield msg
            wait = False

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
