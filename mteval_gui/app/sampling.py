"""Which entries a review pack or a desktop queue asks about (``first``, ``random``, ``stratified``,
``informative``), from the runs' stored per-entry values, and the projected width of the
metric–human correlation interval at the study's target.

The rules are those of :mod:`mteval_gui.validation.sampling`; this module reads what they need:
every metric with per-entry values (its direction from the metric's declaration), the words
the analyzer rejected (the FST verdict of each output) and the words reviewers already judged
(task C): a rejected word nobody judged yet makes its output's FST verdict new.
"""

from __future__ import annotations

from collections.abc import Sequence

from mteval_gui.app.audits import rejected_words
from mteval_gui.app.metrics import run_metrics
from mteval_gui.app.review import current_judgments, require_runs
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import entry_values_bulk
from mteval_gui.validation.sampling import (
    SELECT_MODES,
    ItemFeatures,
    WidthProjection,
    percentile_ranks,
    projected_width,
    select,
)
from mteval_gui.validation.study import TARGET_ITEMS, TARGET_RATERS, StudyResult

__all__ = ["SELECT_MODES", "WidthProjection", "candidate_items", "entry_order", "item_features", "select_items",
           "width_projections"]

Item = tuple[str, str]


def candidate_items(ws: Workspace, run_ids: Sequence[str]) -> list[Item]:
    """Every (run, entry) of the runs, entry after entry (corpus order), the runs side by side."""
    require_runs(ws, run_ids)
    per_run = {r: repo.entry_ids(ws, repo.get_run_info(ws, r)["corpus_id"]) for r in run_ids}
    position: dict[str, int] = {}
    for ids in per_run.values():
        for e in ids:
            position.setdefault(e, len(position))
    order = {r: k for k, r in enumerate(run_ids)}
    items = [(r, e) for r, ids in per_run.items() for e in ids]
    return sorted(items, key=lambda it: (position[it[1]], order[it[0]]))


def item_features(ws: Workspace, run_ids: Sequence[str]) -> ItemFeatures:
    """Percentiles of every metric with per-entry values, FST verdicts and new FST verdicts of the runs' outputs."""
    features = ItemFeatures()
    by_metric: dict[str, dict[Item, float | None]] = {}
    higher: dict[str, bool] = {}
    judged = {str(j.payload.get("word")) for r in run_ids for j in current_judgments(ws, run_id=r, task="C")}
    for run_id in run_ids:
        metrics = run_metrics(ws, run_id)
        for mid, values in entry_values_bulk(ws, run_id).items():
            higher.setdefault(mid, metrics.descriptor(mid).higher_is_better)
            bucket = by_metric.setdefault(mid, {})
            for entry_id, v in values.items():
                bucket[(run_id, entry_id)] = v
        analysed = metrics.first("fst_analysis") is not None
        rejected: dict[str, set[str]] = {}
        for entry_id, word in rejected_words(ws, run_id):
            rejected.setdefault(entry_id, set()).add(word)
        for entry_id in repo.entry_ids(ws, repo.get_run_info(ws, run_id)["corpus_id"]):
            item = (run_id, entry_id)
            words = rejected.get(entry_id)
            features.verdict[item] = "rejected" if words else ("accepted" if analysed else "none")
            if words and words - judged:
                features.new_fst.add(item)
    for mid, per_item in sorted(by_metric.items()):
        for item, p in percentile_ranks(per_item, higher[mid]).items():
            features.percentiles.setdefault(item, []).append(p)
    return features


def select_items(ws: Workspace, run_ids: Sequence[str], n: int | None, mode: str = "first",
                 seed: int | str = 0) -> list[Item]:
    """``n`` (run, entry) items of the runs chosen by ``mode`` (seeded), in the order chosen."""
    items = candidate_items(ws, run_ids)
    if mode in ("first", "random"):
        return select(items, n, mode, seed)
    return select(items, n, mode, seed, item_features(ws, run_ids))


def entry_order(ws: Workspace, run_ids: Sequence[str], mode: str, seed: int | str = 0) -> list[str]:
    """The desktop queue's order of the corpus entries: each entry where its first (run, entry) item comes
    in the ``mode`` selection over the runs' items (the most informative output of an entry brings it first)."""
    seen: dict[str, None] = {}
    for _, entry_id in select_items(ws, run_ids, None, mode, seed):
        seen.setdefault(entry_id, None)
    return list(seen)


def width_projections(study: StudyResult, goal: float | None = None) -> list[WidthProjection]:
    """Per metric of a study: the width of its τ-b interval now and projected at the 200 × 3 target
    (:func:`mteval_gui.validation.sampling.projected_width`)."""
    alpha = study.agreement.get("adequacy")
    a = alpha.alpha if alpha is not None else None
    out = []
    for m in study.metrics:
        tau = m.kendall.value
        if tau is None or m.kendall.n < 5:
            continue
        raters = study.progress.ratings_per_item if study.progress.items_rated else 0.0
        out.append(projected_width(m.metric_id, tau, m.kendall.n, raters, a, TARGET_ITEMS, TARGET_RATERS, goal))
    return out
