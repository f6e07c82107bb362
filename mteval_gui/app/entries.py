"""Builds the entries table's :class:`EntryFrame` from the workspace (no Qt).

One call per source, never one query per entry, and only the columns the table shows: the
corpus entries (``repo.entry_columns``), each run's outputs (``repo.output_columns``), its
stored per-entry values (``results.entry_value_columns``), verdicts
(``results.entry_verdicts``) and FST rejection counts (``results.entry_value_fields``), and
the review status from the current judgments. The verdict columns and the FST counts come
from the run's metrics of roles ``equivalence_verdict``, ``semantic_verdict`` and
``fst_analysis`` (:func:`mteval_gui.app.metrics.run_metrics`), a language's own metric first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_gui.app.entry_frame import REVIEW_FLAGGED, REVIEW_NONE, REVIEW_PARTIAL, REVIEW_RATED, EntryFrame, RunColumns
from mteval_gui.app.metrics import run_metrics
from mteval_gui.app.review import current_judgments
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace


def _obj(values) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def review_status(ws: Workspace, run_id: str, reviewer_id: str | None, entry_ids: Sequence[str]) -> np.ndarray:
    """REVIEW_NONE / RATED (both aspects) / PARTIAL (one aspect) / FLAGGED per entry for one reviewer
    (any reviewer when None)."""
    pos = {e: i for i, e in enumerate(entry_ids)}
    status = np.full(len(entry_ids), REVIEW_NONE, dtype=np.int8)
    for j in current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id, task="A"):
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
                     reviewer_id: str | None, base: RunColumns | None = None, details: bool = True) -> RunColumns:
    """One run's columns. With ``base`` the outputs are taken from it (they do not change while
    scoring); ``details=False`` keeps its verdicts and FST counts and reloads only the values."""
    from mteval_gui.store import results

    n = len(entry_ids)
    pos = {e: i for i, e in enumerate(entry_ids)}
    if base is not None:
        predicted, error = base.predicted, base.error
    else:
        cols = repo.output_columns(ws, run_id, ("entry_id", "predicted", "error"))
        if cols["entry_id"] == list(entry_ids):
            predicted, error = _obj(cols["predicted"]), _obj(cols["error"])
        else:  # the run's outputs are stored in corpus order; align by id all the same
            predicted = _obj([""] * n)
            error = _obj([None] * n)
            for eid, p, e in zip(cols["entry_id"], cols["predicted"], cols["error"], strict=False):
                i = pos.get(eid)
                if i is not None:
                    predicted[i], error[i] = p, e
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


def _verdicts(ws: Workspace, run_id: str, metric_ids: Sequence[str], pos: dict[str, int], n: int) -> np.ndarray | None:
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
    ids = [str(e) for e in frame.entry_ids]
    new = EntryFrame(corpus_id=frame.corpus_id, entry_ids=frame.entry_ids, source=frame.source,
                     reference=frame.reference, difficulty=frame.difficulty)
    for r in frame.runs:
        new.runs.append(load_run_columns(ws, r.run_id, r.label, ids, reviewer_id, base=r, details=details))
    new.share_search(frame)
    return new


def load_entry_frame(ws: Workspace, run_ids: Sequence[str], reviewer_id: str | None = None) -> EntryFrame:
    """Entries of the corpus shared by ``run_ids`` with each run's columns side by side."""
    if not run_ids:
        raise ValueError("no run selected")
    infos = {r["run_id"]: r for r in repo.list_runs(ws)}
    corpora = {infos[r]["corpus_id"] for r in run_ids}
    if len(corpora) != 1:
        raise ValueError("runs shown side by side must share one corpus")
    corpus_id = corpora.pop()
    cols = repo.entry_columns(ws, corpus_id, ("entry_id", "source", "reference", "difficulty"))
    ids = cols["entry_id"]
    frame = EntryFrame(
        corpus_id=corpus_id,
        entry_ids=_obj(ids),
        source=_obj(cols["source"]),
        reference=_obj(cols["reference"]),
        difficulty=np.array([np.nan if d is None else float(d) for d in cols["difficulty"]], dtype=float),
    )
    for run_id in run_ids:
        row = infos[run_id]
        label = row.get("model_slug") or run_id
        if sum(1 for r in run_ids if (infos[r].get("model_slug") or r) == label) > 1:
            label = run_id
        frame.runs.append(load_run_columns(ws, run_id, label, ids, reviewer_id))
    return frame
