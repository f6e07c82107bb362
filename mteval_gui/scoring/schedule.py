"""The batch schedule of one scoring job: which batches are scored, and when each is committed.

:class:`BatchSchedule` is the bookkeeping of :func:`~mteval_gui.scoring.batches.score_batches`
without metrics, sinks or processes, so it can be read and tested alone:

- the batches of ``n_entries`` entries in batches of ``batch_size``; those ``stored`` by an
  earlier attempt are skipped, those to ``retry`` (stored, but lacking some metrics' results)
  are scored again at the end, the rest are ``todo``;
- with a helper (:class:`~mteval_gui.scoring.parallel.Helper`) a batch may arrive in two
  parts — this process's rows and the helper's rows of the metrics it alone scores — or whole
  from the helper. :meth:`mine` and :meth:`theirs` take a part and give the batch's rows once
  both are there; :meth:`whole` says whether a batch the helper sent whole is still to be
  committed (it replaces any part of it); every batch is committed once (:meth:`commit`), even
  when both processes took the last one;
- the batches of a helper that was lost are noted (:meth:`lose`) and scored here.

Which process scores what is decided by :func:`split_metrics`: a metric in a process of its
own (a forked helper must not use its pipe) is scored here only; one declared
``single_process`` or not ``fork_safe`` by the helper only, for every batch; the others by both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.scoring.isolation import ProcessMetric
from mteval_gui.scoring.job import MetricState


def batch_count(n_entries: int, batch_size: int) -> int:
    """How many batches ``n_entries`` make (0 for none)."""
    return max(1, math.ceil(n_entries / batch_size)) if n_entries else 0


def split_metrics(states: Sequence[MetricState]) -> tuple[list[MetricState], list[MetricState], list[MetricState]]:
    """(scored here only, scored by the helper only, scored by both) — see the module docstring."""
    here: list[MetricState] = []
    lone: list[MetricState] = []
    shared: list[MetricState] = []
    for st in states:
        if isinstance(st.metric, ProcessMetric):
            here.append(st)
        elif st.info is not None and (st.info.single_process or not st.info.fork_safe):
            lone.append(st)
        else:
            shared.append(st)
    return here, lone, shared


@dataclass
class BatchSchedule:
    """The batches of a job and the rows waiting for their other part (see the module docstring)."""

    n_entries: int
    batch_size: int
    stored: set[int] = field(default_factory=set)
    retry: set[int] = field(default_factory=set)
    committed: set[int] = field(default_factory=set)
    lost: list[int] = field(default_factory=list)  # batches of a lost helper, scored here
    _mine: dict[int, list[Any]] = field(default_factory=dict)  # this process's part of a batch
    _theirs: dict[int, list[Any]] = field(default_factory=dict)  # the helper's part of a batch

    def __post_init__(self) -> None:
        self.n_batches = batch_count(self.n_entries, self.batch_size)
        self.stored = {b for b in self.stored if b < self.n_batches} - self.retry
        self.todo = [b for b in range(self.n_batches) if b not in self.stored and b not in self.retry]
        self.entries_done = sum(self.size(b) for b in self.stored)  # then those of each batch committed

    def bounds(self, b: int) -> slice:
        """The entries of batch ``b``."""
        return slice(b * self.batch_size, (b + 1) * self.batch_size)

    def size(self, b: int) -> int:
        return len(range(self.n_entries)[self.bounds(b)])

    def commit(self, b: int) -> None:
        """Batch ``b`` is committed (``entries_done`` counts its entries)."""
        if b not in self.committed:
            self.committed.add(b)
            self.entries_done += self.size(b)

    def mine(self, b: int, rows: Sequence[Any]) -> list[Any] | None:
        """This process's part of batch ``b``: the whole batch's rows when the helper's part is
        there too (None: wait for it)."""
        self._mine[b] = list(rows)
        return self._joined(b)

    def theirs(self, b: int, rows: Sequence[Any]) -> list[Any] | None:
        """The helper's part of batch ``b`` (see :meth:`mine`)."""
        self._theirs[b] = list(rows)
        return self._joined(b)

    def whole(self, b: int) -> bool:
        """The helper sent batch ``b`` whole: True when it is still to be committed (its parts,
        if any, are dropped), False when it is committed already."""
        if b in self.committed:
            return False
        self._mine.pop(b, None)
        self._theirs.pop(b, None)
        return True

    def waiting(self) -> list[int]:
        """The batches whose part from this process waits for the helper's (a lost helper's:
        their helper part is scored here)."""
        return sorted(self._mine)

    def lose(self, batches: Iterable[int]) -> None:
        """A lost helper's batches, scored here at the end."""
        self.lost.extend(sorted(batches))

    def _joined(self, b: int) -> list[Any] | None:
        if b in self._mine and b in self._theirs:
            return self._mine.pop(b) + self._theirs.pop(b)
        return None
