"""Builds the entries table's :class:`EntryFrame` from the workspace (no Qt).

One call per source, never one query per entry: the corpus entries, each run's outputs,
each run's stored per-entry metric values (``results.entry_value_columns``), verdicts and FST
rejection counts (``results.entry_scores``), and the review status from the current
judgments.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_gui.qt.entry_frame import REVIEW_FLAGGED, REVIEW_NONE, REVIEW_RATED, EntryFrame, RunColumns
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

LINT_METRICS = ("crk.lint", "core.equivalent")  # first that stored a verdict gives the verdict column
SEMANTIC_METRICS = ("crk.semantic", "core.embedding_semantic")
FST_METRIC = "core.fst"


def _obj(values) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def review_status(ws: Workspace, run_id: str, reviewer_id: str | None, entry_ids: Sequence[str]) -> np.ndarray:
    """REVIEW_NONE / RATED / FLAGGED per entry for one reviewer (any reviewer when None)."""
    pos = {e: i for i, e in enumerate(entry_ids)}
    status = np.full(len(entry_ids), REVIEW_NONE, dtype=np.int8)
    for j in jstore.current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id, task="A"):
        i = pos.get(j.entry_id or "")
        if i is None:
            continue
        if j.flagged:
            status[i] = REVIEW_FLAGGED
        elif (j.adequacy is not None or j.fluency is not None) and status[i] != REVIEW_FLAGGED:
            status[i] = REVIEW_RATED
    return status


def load_run_columns(ws: Workspace, run_id: str, label: str, entry_ids: Sequence[str],
                     reviewer_id: str | None) -> RunColumns:
    from mteval_gui.store import results

    n = len(entry_ids)
    pos = {e: i for i, e in enumerate(entry_ids)}
    predicted = _obj([""] * n)
    error = _obj([None] * n)
    for o in repo.get_outputs(ws, run_id):
        i = pos.get(o.id)
        if i is not None:
            predicted[i] = o.predicted
            error[i] = o.error
    metrics = {mid: col for mid, col in results.entry_value_columns(ws, run_id, entry_ids).items()
               if not np.all(np.isnan(col))}
    lint = _verdicts(ws, run_id, LINT_METRICS, pos, n)
    semantic = _verdicts(ws, run_id, SEMANTIC_METRICS, pos, n)
    rejected = None
    fst = results.entry_scores(ws, run_id, FST_METRIC) if FST_METRIC in metrics else {}
    if fst:
        rejected = np.full(n, -1, dtype=np.int64)
        for eid, data in fst.items():
            i = pos.get(eid)
            values = data.get("values") or {}
            if i is None:
                continue
            if values.get("rejected") is not None:
                rejected[i] = int(values["rejected"])
            elif values.get("tokens") is not None and values.get("accepted") is not None:
                rejected[i] = int(values["tokens"]) - int(values["accepted"])
    return RunColumns(run_id=run_id, label=label, predicted=predicted, error=error, metrics=metrics,
                      lint_verdict=lint, semantic_verdict=semantic, fst_rejected=rejected,
                      review=review_status(ws, run_id, reviewer_id, entry_ids))


def _verdicts(ws: Workspace, run_id: str, metric_ids: Sequence[str], pos: dict[str, int], n: int) -> np.ndarray | None:
    from mteval_gui.store import results

    for mid in metric_ids:
        found = results.entry_scores(ws, run_id, mid)
        col = _obj([None] * n)
        hit = False
        for eid, data in found.items():
            i = pos.get(eid)
            v = (data.get("detail") or {}).get("verdict")
            if isinstance(v, dict):
                v = v.get("verdict")
            if i is not None and v is not None:
                col[i] = str(v)
                hit = True
        if hit:
            return col
    return None


def load_entry_frame(ws: Workspace, run_ids: Sequence[str], reviewer_id: str | None = None) -> EntryFrame:
    """Entries of the corpus shared by ``run_ids`` with each run's columns side by side."""
    if not run_ids:
        raise ValueError("no run selected")
    infos = {r["run_id"]: r for r in repo.list_runs(ws)}
    corpora = {infos[r]["corpus_id"] for r in run_ids}
    if len(corpora) != 1:
        raise ValueError("runs shown side by side must share one corpus")
    corpus_id = corpora.pop()
    entries = repo.get_entries(ws, corpus_id)
    ids = [e.id for e in entries]
    frame = EntryFrame(
        corpus_id=corpus_id,
        entry_ids=_obj(ids),
        source=_obj([e.source for e in entries]),
        reference=_obj([e.reference for e in entries]),
        difficulty=np.array([np.nan if e.difficulty is None else float(e.difficulty) for e in entries], dtype=float),
    )
    for run_id in run_ids:
        row = infos[run_id]
        label = row.get("model_slug") or run_id
        if sum(1 for r in run_ids if (infos[r].get("model_slug") or r) == label) > 1:
            label = run_id
        frame.runs.append(load_run_columns(ws, run_id, label, ids, reviewer_id))
    return frame
