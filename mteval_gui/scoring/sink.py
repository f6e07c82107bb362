"""Where a scoring job's results go: the :class:`ResultSink` protocol and an in-memory sink.

The workspace implements the protocol (``mteval_gui.store.results.ResultsStore``, by duck
typing: the store does not import the core). Every batch is one :meth:`ResultSink.write_batch`
(one transaction in the workspace), so a crash or a cancel loses at most the batch in flight;
:meth:`ResultSink.begin_job` returns the batches already committed for the same configuration.

Reuse: a job's ``config_hash`` covers what all its metrics read; ``config["metric_keys"]`` what
each metric's results depend on besides (:func:`mteval_gui.scoring.batches.config_of`). A sink
keeps stored results only under the same hash, and of those only the metrics whose key is the
same as in the job that stored them (:func:`kept_metrics`); the job scores again, batch by
batch, what is then missing.
"""

from __future__ import annotations

import json
import pickle
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class EntryRow:
    """One stored per-entry result (``entry_metrics`` row)."""

    entry_id: str
    metric_id: str
    value: float | None
    data: dict[str, Any]
    text: str | None = None  # ``data`` as compact JSON, when the runner has encoded it already


@dataclass(frozen=True, slots=True)
class StoredRow:
    """A per-entry result as :class:`MemorySink` gives it back: its JSON text, decoded when read."""

    entry_id: str
    metric_id: str
    value: float | None
    text: str

    @property
    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self.text)
        return out


def _text(row: EntryRow) -> str:
    if row.text is not None:
        return row.text
    return json.dumps(row.data, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)


def _value(text: str) -> float | None:
    v = json.loads(text).get("value")
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None




@dataclass
class MetricRow:
    """One stored corpus result (``run_metrics`` row)."""

    metric_id: str
    availability: str
    reason: str | None
    values: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class ResultSink(Protocol):
    """Where a job's results go. The store implements it (``mteval_gui.store.results``)."""

    def begin_job(self, run_id: str, config: dict[str, Any], config_hash: str, batch_size: int,
                  n_batches: int) -> set[int]:
        """Register the job; drop results of another configuration, and those of a metric whose key
        (``config["metric_keys"]``) changed or that this job does not run; return committed batch indexes."""
        ...

    def done_batches(self, run_id: str, config_hash: str) -> set[int]: ...

    def write_batch(self, run_id: str, batch_index: int, config_hash: str, rows: Sequence[EntryRow]) -> None:
        """Store one batch's rows and mark the batch done, atomically."""
        ...

    def load_entry_scores(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        """``{metric_id: {entry_id: EntryScore JSON}}`` of everything stored for the run."""
        ...

    def entry_counts(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, int]:
        """``{metric_id: number of stored per-entry results}``."""
        ...

    def stored_entry_ids(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, set[str]]:
        """``{metric_id: entry ids with a stored result}`` (nothing decoded)."""
        ...

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[MetricRow]) -> None: ...

    def mark_job(self, run_id: str, state: str) -> None: ...


def kept_metrics(old: dict[str, Any] | None, new: dict[str, Any]) -> set[str] | None:
    """The metrics whose stored results a job with configuration ``new`` reuses from the job that
    stored them (configuration ``old``, same hash): those with the same key in both (None: a
    configuration without keys, every metric's)."""
    if "metric_keys" not in new:
        return None
    before = (old or {}).get("metric_keys") or {}
    return {m for m, key in (new["metric_keys"] or {}).items() if key is not None and before.get(m) == key}


class MemorySink:
    """A sink that keeps everything in memory (one-shot ``mteval evaluate``, tests).

    A per-entry result is kept as its JSON text only, decoded when it is read (the decoded
    results of every entry and metric take ten times the memory of their text), and the texts
    of one metric's batch are kept together, compressed (``{entry id: text}``, pickled and
    deflated: 30 bytes an entry and metric instead of about 250 as strings in a dict)."""

    def __init__(self) -> None:
        self.jobs: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[int, str]] = {}
        # run -> metric -> batch -> (entries, {entry id: JSON text} pickled and compressed)
        self._blocks: dict[str, dict[str, dict[int, tuple[int, bytes]]]] = {}
        self.cards: dict[str, dict[str, Any]] = {}
        self.metric_rows: dict[str, list[MetricRow]] = {}
        self.states: dict[str, str] = {}

    def begin_job(self, run_id: str, config: dict[str, Any], config_hash: str, batch_size: int,
                  n_batches: int) -> set[int]:
        old = self.jobs.get(run_id)
        if old is None or old["config_hash"] != config_hash:
            self.batches[run_id] = {}
            self._blocks[run_id] = {}
        else:
            keep = kept_metrics(old["config"], config)
            if keep is not None:
                self._blocks[run_id] = {m: t for m, t in self._blocks.get(run_id, {}).items() if m in keep}
        self.jobs[run_id] = {"config": config, "config_hash": config_hash, "batch_size": batch_size,
                             "n_batches": n_batches}
        self.states[run_id] = "running"
        return self.done_batches(run_id, config_hash)

    def done_batches(self, run_id: str, config_hash: str) -> set[int]:
        return {b for b, h in self.batches.get(run_id, {}).items() if h == config_hash}

    @staticmethod
    def _open(block: tuple[int, bytes]) -> dict[str, str]:
        texts: dict[str, str] = pickle.loads(zlib.decompress(block[1]))
        return texts

    def write_batch(self, run_id: str, batch_index: int, config_hash: str, rows: Sequence[EntryRow]) -> None:
        store = self._blocks.setdefault(run_id, {})
        by_metric: dict[str, dict[str, str]] = {}
        for r in rows:
            by_metric.setdefault(r.metric_id, {})[r.entry_id] = _text(r)
        for mid, texts in by_metric.items():
            blocks = store.setdefault(mid, {})
            if batch_index in blocks:  # scored again (a metric it lacked): the new texts win
                texts = {**self._open(blocks[batch_index]), **texts}
            blocks[batch_index] = (len(texts), zlib.compress(pickle.dumps(texts, protocol=pickle.HIGHEST_PROTOCOL),
                                                             1))
        self.batches.setdefault(run_id, {})[batch_index] = config_hash

    def _texts(self, run_id: str, metric_id: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for _, block in sorted(self._blocks.get(run_id, {}).get(metric_id, {}).items()):
            out.update(self._open(block))
        return out

    def load_entry_scores(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        return {m: {eid: json.loads(t) for eid, t in self._texts(run_id, m).items()} for m in set(metric_ids)}

    def load_entry_texts(self, run_id: str, metric_id: str) -> dict[str, str]:
        """``{entry id: JSON text}`` of one metric's per-entry results (not decoded)."""
        return self._texts(run_id, metric_id)

    @property
    def rows(self) -> dict[str, dict[tuple[str, str], StoredRow]]:
        """``{run_id: {(metric_id, entry_id): row}}`` of everything stored."""
        return {run: {(mid, eid): StoredRow(eid, mid, _value(t), t) for mid in metrics
                      for eid, t in self._texts(run, mid).items()} for run, metrics in self._blocks.items()}

    def entry_counts(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, int]:
        stored = self._blocks.get(run_id, {})
        return {m: sum(count for count, _ in stored.get(m, {}).values()) for m in metric_ids}

    def stored_entry_ids(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, set[str]]:
        return {m: set(self._texts(run_id, m)) for m in metric_ids}

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[MetricRow]) -> None:
        self.cards[run_id] = run_card
        self.metric_rows[run_id] = list(metric_rows)

    def mark_job(self, run_id: str, state: str) -> None:
        self.states[run_id] = state
