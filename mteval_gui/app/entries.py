"""Builds the entries table's :class:`EntryFrame` from the workspace (no Qt).

One call per source, never one query per entry, and only the columns the table shows: the
corpus entries' ids and difficulties, each run's stored per-entry values
(``results.entry_value_columns``), verdicts
(``results.entry_verdicts``) and FST rejection counts (``results.entry_value_fields``), and
the review status from the current judgments. The verdict columns and the FST counts come
from the run's metrics of roles ``equivalence_verdict``, ``semantic_verdict`` and
``fst_analysis`` (:func:`mteval_gui.app.metrics.run_metrics`), a language's own metric first.

The texts (sources, references, outputs and their errors) are not read up front: a
:class:`WorkspaceTexts` reads the rows the table shows, a few hundred at a time, and whole columns
only for the text search (in its background thread) or a sort by a text column.
:func:`open_entry_frame` gives at once a frame whose values are still to be read (the table can
show its first rows), :func:`load_entry_frame` the complete one.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from mteval_gui.app.entry_frame import (
    REVIEW_FLAGGED,
    REVIEW_NONE,
    REVIEW_PARTIAL,
    REVIEW_RATED,
    EntryFrame,
    RowTexts,
    RunColumns,
)
from mteval_gui.app.metrics import run_metrics
from mteval_gui.app.review import current_judgments
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace


def _obj(values) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


class WorkspaceTexts(RowTexts):
    """The entry ids and texts of a corpus and the outputs of runs on it, read from the workspace by
    frame row (the corpus' entries in position order); each thread reads with its own connection."""

    def __init__(self, ws: Workspace, corpus_id: str, run_ids: Sequence[str]):
        n, first, last = repo.corpus_span(ws, corpus_id)
        super().__init__(n, ("entry_id", "source", "reference",
                                  *(f"{r}\x00{f}" for r in run_ids for f in ("predicted", "error"))))
        self.ws, self.corpus_id, self.run_ids = ws, corpus_id, list(run_ids)
        self._first = first
        self._positions: np.ndarray | None = None  # frame row -> position, when positions have gaps
        self._sorted_ids: tuple[list[str], np.ndarray | None] | None = None
        if n and last - first + 1 != n:
            self._positions = np.array(repo.entry_positions(ws, corpus_id), dtype=np.int64)

    def _position(self, rows: Sequence[int]) -> list[int]:
        if self._positions is None:
            return [self._first + r for r in rows]
        return self._positions[list(rows)].tolist()

    def _row(self, position: int) -> int:
        if self._positions is None:
            return position - self._first
        return int(np.searchsorted(self._positions, position))

    def fetch(self, rows: list[int]) -> list[tuple[Any, ...]]:
        positions = self._position(rows)
        entries = repo.entry_texts_at(self.ws, self.corpus_id, positions)
        got = [entries.get(p, (None, None, None)) for p in positions]
        ids = [g[0] for g in got if g[0] is not None]
        outputs = [repo.output_texts_of(self.ws, run_id, ids) for run_id in self.run_ids]
        return [(*g, *(x for found in outputs for x in found.get(g[0] or "", ("", None)))) for g in got]

    def read_all(self, name: str) -> list[Any]:
        if name in ("entry_id", "source", "reference"):
            return repo.entry_column(self.ws, self.corpus_id, name)
        run_id, field = name.split("\x00")
        if field not in ("predicted", "error"):
            raise KeyError(name)
        # in the order of the key (no index leads with the run's positions: that order is a sort)
        rows = repo.output_column_by_id(self.ws, run_id, field)
        ids, order = self._ids_in_key_order()
        default = "" if field == "predicted" else None
        if [r[0] for r in rows] == ids:
            if order is None:
                return [r[1] for r in rows]
            out: list[Any] = [default] * len(ids)
            for i, r in zip(order.tolist(), rows, strict=True):
                out[i] = r[1]
            return out
        # some entries without an output (empty), or outputs of other entries (left out)
        found = dict(rows)
        return [found.get(e, default) for e in self.array("entry_id").tolist()]

    def _ids_in_key_order(self) -> tuple[list[str], np.ndarray | None]:
        """The entry ids sorted, and the row of each (None when the rows are in that order already)."""
        if self._sorted_ids is None:
            ids = self.array("entry_id").tolist()
            if all(map(operator.lt, ids, ids[1:])):
                self._sorted_ids = (ids, None)
            else:
                order = np.argsort(np.array(ids, dtype=object), kind="stable")
                self._sorted_ids = ([ids[i] for i in order.tolist()], order)
        return self._sorted_ids

    def find(self, name: str, value: Any) -> int | None:
        if name != "entry_id":
            return super().find(name, value)
        try:
            return self._row(repo.entry_position(self.ws, self.corpus_id, str(value)))
        except repo.NotFoundError:
            return None

    def run_columns(self, run_id: str) -> tuple[Any, Any]:
        """The lazy (output, error) columns of a run."""
        return self.column(f"{run_id}\x00predicted"), self.column(f"{run_id}\x00error")


def review_status(ws: Workspace, run_id: str, reviewer_id: str | None, entry_ids: Sequence[str]) -> np.ndarray:
    """REVIEW_NONE / RATED (both aspects) / PARTIAL (one aspect) / FLAGGED per entry for one reviewer
    (any reviewer when None)."""
    status = np.full(len(entry_ids), REVIEW_NONE, dtype=np.int8)
    pos: dict[str, int] | None = None
    for j in current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id, task="A"):
        if pos is None:  # a million entries: only when there is a judgment
            pos = {e: i for i, e in enumerate(entry_ids)}
        i = pos.get(j.entry_id or "")
        if i is None:
            continue
        if j.flagged:
            status[i] = REVIEW_FLAGGED
        elif status[i] == REVIEW_FLAGGED:
            continue
        elif j.adequacy is not None and j.fluency is not None:
            status[i] = REVIEW_RATED
        elif (j.adequacy is not None or j.fluency is not None) and status[i] != REVIEW_RATED:
            status[i] = REVIEW_PARTIAL
    return status


def rated_entries(ws: Workspace, run_id: str, reviewer_id: str | None) -> int:
    """How many entries of the run the reviewer has rated on both aspects (adequacy and fluency)."""
    if not reviewer_id:
        return 0
    return len({j.entry_id for j in current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id, task="A")
                if j.entry_id is not None and j.adequacy is not None and j.fluency is not None})


def load_run_columns(ws: Workspace, run_id: str, label: str, entry_ids: Sequence[str],
                     reviewer_id: str | None, base: RunColumns | None = None, details: bool = True,
                     texts: WorkspaceTexts | None = None) -> RunColumns:
    """One run's columns. Its outputs are ``texts``' (read when shown) or, with ``base``, taken from
    it (they do not change while scoring); ``details=False`` keeps its verdicts and FST counts and
    reloads only the values."""
    from mteval_gui.store import results

    n = len(entry_ids)
    if base is not None:
        predicted, error = base.predicted, base.error
    elif texts is not None:
        predicted, error = texts.run_columns(run_id)
    else:
        raise ValueError("the run's outputs: give the frame's texts or the previous columns")
    metrics = {mid: col for mid, col in results.entry_value_columns(ws, run_id, entry_ids).items()
               if not np.all(np.isnan(col))}
    if base is not None and not details:
        descriptors = dict(base.descriptors)
        if any(m not in descriptors for m in metrics):
            descriptors = run_metrics(ws, run_id, metrics).descriptors
        return RunColumns(run_id=run_id, label=label, predicted=predicted, error=error, metrics=metrics,
                          lint_verdict=base.lint_verdict, semantic_verdict=base.semantic_verdict,
                          fst_rejected=base.fst_rejected, review=base.review, descriptors=descriptors)
    catalog = run_metrics(ws, run_id, metrics)
    pos = _Positions(entry_ids)
    lint = _verdicts(ws, run_id, catalog.by_role("equivalence_verdict"), pos, n)
    semantic = _verdicts(ws, run_id, catalog.by_role("semantic_verdict"), pos, n)
    rejected = None
    fst_metric = next((m for m in catalog.by_role("fst_analysis") if m in metrics), None)
    if fst_metric is not None:
        fields = results.entry_value_fields(ws, run_id, fst_metric, ("rejected", "tokens", "accepted"))
        rejected = np.full(n, -1, dtype=np.int64)
        for eid, i in pos.items():
            r = fields["rejected"].get(eid)
            if r is None and fields["tokens"].get(eid) is not None and fields["accepted"].get(eid) is not None:
                r = int(fields["tokens"][eid]) - int(fields["accepted"][eid])
            if r is not None:
                rejected[i] = int(r)
    return RunColumns(run_id=run_id, label=label, predicted=predicted, error=error, metrics=metrics,
                      lint_verdict=lint, semantic_verdict=semantic, fst_rejected=rejected,
                      review=review_status(ws, run_id, reviewer_id, entry_ids), descriptors=catalog.descriptors)


class _Positions:
    """Row of each entry id, made when first asked (a million entries: a second)."""

    def __init__(self, entry_ids: Sequence[str]):
        self._ids = entry_ids
        self._pos: dict[str, int] | None = None

    def _made(self) -> dict[str, int]:
        if self._pos is None:
            self._pos = {e: i for i, e in enumerate(self._ids)}
        return self._pos

    def get(self, entry_id: str) -> int | None:
        return self._made().get(entry_id)

    def items(self) -> Any:
        return self._made().items()


def _verdicts(ws: Workspace, run_id: str, metric_ids: Sequence[str], pos: _Positions, n: int) -> np.ndarray | None:
    from mteval_gui.store import results

    for mid in metric_ids:
        col = _obj([None] * n)
        hit = False
        for eid, v in results.entry_verdicts(ws, run_id, mid).items():
            i = pos.get(eid)
            if i is not None and isinstance(v, str) and v:
                col[i] = v
                hit = True
        if hit:
            return col
    return None


def refresh_entry_frame(ws: Workspace, frame: EntryFrame, reviewer_id: str | None = None, *,
                        details: bool = True) -> EntryFrame:
    """The same entries and outputs with the runs' stored results reloaded (entries and outputs do
    not change while a run is scored, so they are shared, not read again)."""
    if not frame.complete:
        texts = frame.texts if isinstance(frame.texts, WorkspaceTexts) else None
        return load_entry_frame(ws, [r.run_id for r in frame.runs], reviewer_id, texts=texts)
    ids = [str(e) for e in frame.entry_ids]
    new = EntryFrame(corpus_id=frame.corpus_id, entry_ids=frame.entry_ids, source=frame.source,
                     reference=frame.reference, difficulty=frame.difficulty, texts=frame.texts)
    for r in frame.runs:
        new.runs.append(load_run_columns(ws, r.run_id, r.label, ids, reviewer_id, base=r, details=details))
    new.share_search(frame)
    return new


def _corpus_and_labels(ws: Workspace, run_ids: Sequence[str]) -> tuple[str, list[str]]:
    if not run_ids:
        raise ValueError("no run selected")
    infos = repo.run_corpora(ws, run_ids)
    missing = [r for r in run_ids if r not in infos]
    if missing:
        raise KeyError(missing[0])
    corpora = {infos[r][0] for r in run_ids}
    if len(corpora) != 1:
        raise ValueError("runs shown side by side must share one corpus")
    labels = []
    for run_id in run_ids:
        label = infos[run_id][1] or run_id
        if sum(1 for r in run_ids if (infos[r][1] or r) == label) > 1:
            label = run_id
        labels.append(label)
    return corpora.pop(), labels


def open_entry_frame(ws: Workspace, run_ids: Sequence[str], rows: int = 256) -> EntryFrame:
    """At once, the entries of ``run_ids`` as a frame still to complete (``complete`` False): the
    first ``rows`` rows' texts are read, the others when shown; the runs' value columns are there
    (the metrics with stored values, the verdict and FST columns their metrics announce) but empty;
    :func:`load_entry_frame` with the same texts reads the rest."""
    from mteval_gui.store.results import metric_ids_with_values

    corpus_id, labels = _corpus_and_labels(ws, run_ids)
    texts = WorkspaceTexts(ws, corpus_id, run_ids)
    texts.load(range(min(rows, texts.n)))
    n = texts.n
    frame = EntryFrame(corpus_id=corpus_id, entry_ids=texts.column("entry_id"), source=texts.column("source"),
                       reference=texts.column("reference"), difficulty=np.full(n, np.nan), texts=texts,
                       complete=False)
    for run_id, label in zip(run_ids, labels, strict=True):
        valued = metric_ids_with_values(ws, [run_id])
        stored = set(metric_ids_with_values(ws, [run_id], like="%"))
        catalog = run_metrics(ws, run_id, valued)
        predicted, error = texts.run_columns(run_id)

        def announced(role: str, catalog: Any = catalog, stored: set[str] = stored) -> bool:
            return any(m in stored for m in catalog.by_role(role))

        fst = any(m in valued for m in catalog.by_role("fst_analysis"))
        frame.runs.append(RunColumns(
            run_id=run_id, label=label, predicted=predicted, error=error,
            metrics={m: np.full(n, np.nan) for m in valued},
            lint_verdict=_obj([None] * n) if announced("equivalence_verdict") else None,
            semantic_verdict=_obj([None] * n) if announced("semantic_verdict") else None,
            fst_rejected=np.full(n, -1, dtype=np.int64) if fst else None, review=None,
            descriptors=catalog.descriptors))
    return frame


def load_entry_frame(ws: Workspace, run_ids: Sequence[str], reviewer_id: str | None = None, *,
                     texts: WorkspaceTexts | None = None) -> EntryFrame:
    """Entries of the corpus shared by ``run_ids`` with each run's columns side by side (the texts
    read when shown, from ``texts`` if given: those of :func:`open_entry_frame`)."""
    corpus_id, labels = _corpus_and_labels(ws, run_ids)
    if texts is None or texts.corpus_id != corpus_id or texts.run_ids != list(run_ids):
        texts = WorkspaceTexts(ws, corpus_id, run_ids)
    ids, levels = repo.entry_ids_and_difficulty(ws, corpus_id)
    difficulty = np.array(levels, dtype=float)  # None: NaN
    del levels
    entry_ids = _obj(ids)
    texts.keep("entry_id", entry_ids)
    frame = EntryFrame(corpus_id=corpus_id, entry_ids=entry_ids, source=texts.column("source"),
                       reference=texts.column("reference"), difficulty=difficulty, texts=texts)
    for run_id, label in zip(run_ids, labels, strict=True):
        frame.runs.append(load_run_columns(ws, run_id, label, ids, reviewer_id, texts=texts))
    return frame
