"""Progress and cancellation of a scoring job.

:class:`Progress` is what a job reports (done, total, stage, message); :class:`Throttle`
forwards it to a callback a few times per second (a stage change and the last update of a
stage always pass). :class:`CancelToken` is checked between batches; a cancelled job raises
:class:`~mteval_gui.errors.Cancelled` and keeps the batches it committed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mteval_gui.errors import Cancelled

PROGRESS_INTERVAL = 0.1  # seconds between two forwarded progress updates of the same stage


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    stage: str
    message: str = ""

    @property
    def fraction(self) -> float:
        return (self.done / self.total) if self.total else 0.0


class CancelToken:
    """Cooperative cancellation: wraps a ``threading.Event`` (or a ``multiprocessing`` Event)."""

    def __init__(self, event: Any | None = None) -> None:
        self._event = event if event is not None else threading.Event()

    @property
    def event(self) -> Any:
        return self._event

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return bool(self._event.is_set())

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled("scoring cancelled; committed batches are kept and a rerun resumes")


class Throttle:
    """Forwards :class:`Progress` to ``callback`` at most every ``interval`` seconds per stage."""

    def __init__(self, callback: Callable[[Progress], None] | None, interval: float = PROGRESS_INTERVAL) -> None:
        self.callback = callback
        self.interval = interval
        self._last_time = 0.0
        self._last_stage: str | None = None

    def __call__(self, p: Progress, *, force: bool = False) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        if force or p.stage != self._last_stage or p.done >= p.total or now - self._last_time >= self.interval:
            self._last_time = now
            self._last_stage = p.stage
            self.callback(p)
