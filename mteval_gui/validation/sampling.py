"""Which items a review pack or queue asks about, and how wide the metric–human interval will be.

**Selection** (:func:`select`, seeded) chooses ``n`` of the candidate items (run, entry):

- ``first``: corpus order, entry after entry;
- ``random``: a seeded random sample;
- ``stratified``: round-robin over strata = (system, difficulty, verdict), each stratum in seeded
  random order. Difficulty is the tertile (hard / middle / easy) of the entry's mean metric
  percentile over the systems; the verdict is the FST verdict of the output (``rejected``: the
  analyzer rejected a word, ``accepted``: it accepted every word, ``none``: not analysed);
- ``informative``: the items in decreasing order of

      first   percentile(separation) + new FST verdict (0 or 1)
      then    percentile(disagreement)

  *separation* is the range of the entry's mean percentile across the systems (each metric's
  values ranked over the candidates, lower-is-better metrics reversed; an item's quality is
  the mean of its percentiles): the systems are separated on that entry; a *new FST verdict*
  is an output with a word the analyzer rejected that no reviewer has judged yet (task C);
  *disagreement* is the standard deviation, across metrics, of the item's percentiles: the
  metrics disagree most. Disagreement orders the outputs of entries equally separated (the
  systems of one entry) and comes second because it was measured to widen the metric–human
  interval when it weighs as much as separation (items where metrics disagree are the ones
  their noise moves most; ``perf/bench_sampling.py``). Remaining ties break in seeded random order.

**Projected width** (:func:`projected_width`): the 95% interval of Kendall's τ-b from Fisher's
z with the variance 0.437 / (n − 4) (Fieller, Hartley and Pearson 1957), at the observed τ-b.
At the 200 × 3 target the τ-b is first corrected for the number of raters per item: the
reliability of a mean of k ratings is kα / (1 + (k − 1)α) (Spearman–Brown, with Krippendorff's
α as the single-rating reliability), and a correlation with the mean scales with the square
root of that reliability.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

SELECT_MODES = ("first", "random", "stratified", "informative")
Z95 = 1.959964
KENDALL_VARIANCE = 0.437  # Fieller, Hartley and Pearson (1957): var(atanh(τ)) ≈ 0.437 / (n − 4)
Item = tuple[str, str]


@dataclass
class ItemFeatures:
    """What selection knows about the candidates (all maps keyed by item; missing = unknown)."""

    percentiles: dict[Item, list[float]] = field(default_factory=dict)  # one per metric with a value
    verdict: dict[Item, str] = field(default_factory=dict)  # rejected / accepted / none
    new_fst: set[Item] = field(default_factory=set)


def percentile_ranks(values: Mapping[Item, float | None], higher_is_better: bool = True) -> dict[Item, float]:
    """Each finite value's mid-rank percentile in [0, 1] (1 = best)."""
    items = [i for i, v in values.items() if v is not None and math.isfinite(float(v))]
    if not items:
        return {}
    arr = np.array([float(values[i]) for i in items])  # type: ignore[arg-type]
    if not higher_is_better:
        arr = -arr
    order = arr.argsort(kind="mergesort")
    ranks = np.empty(len(arr))
    sorted_vals = arr[order]
    i = 0
    while i < len(arr):  # mid-ranks for ties
        j = i
        while j + 1 < len(arr) and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2
        i = j + 1
    scale = max(len(arr) - 1, 1)
    return {item: float(r) / scale for item, r in zip(items, ranks, strict=True)}


def _quality(f: ItemFeatures, item: Item) -> float | None:
    p = f.percentiles.get(item)
    return float(np.mean(p)) if p else None


def informativeness(items: Sequence[Item], f: ItemFeatures) -> dict[Item, tuple[float, float]]:
    """The informativeness of each item, (first, then) as the module docstring says."""
    disagreement = {i: float(np.std(p)) for i in items if len(p := f.percentiles.get(i) or []) >= 2}
    by_entry: dict[str, list[float]] = defaultdict(list)
    for run, entry in items:
        q = _quality(f, (run, entry))
        if q is not None:
            by_entry[entry].append(q)
    separation = {i: max(by_entry[i[1]]) - min(by_entry[i[1]]) for i in items if len(by_entry.get(i[1], [])) >= 2}
    pd = percentile_ranks(disagreement)
    ps = percentile_ranks(separation)
    return {i: (ps.get(i, 0.0) + (1.0 if i in f.new_fst else 0.0), pd.get(i, 0.0)) for i in items}


def difficulty(items: Sequence[Item], f: ItemFeatures) -> dict[Item, str]:
    """hard / middle / easy: the tertile of the entry's mean percentile over the systems (unknown: "unknown")."""
    by_entry: dict[str, list[float]] = defaultdict(list)
    for run, entry in items:
        q = _quality(f, (run, entry))
        if q is not None:
            by_entry[entry].append(q)
    means = {e: float(np.mean(v)) for e, v in by_entry.items()}
    ranked = sorted(means, key=lambda e: (means[e], e))
    tertile = {e: ("hard", "middle", "easy")[min(2, k * 3 // max(len(ranked), 1))] for k, e in enumerate(ranked)}
    return {i: tertile.get(i[1], "unknown") for i in items}


def select(items: Sequence[Item], n: int | None, mode: str, seed: int | str = 0,
           features: ItemFeatures | None = None) -> list[Item]:
    """``n`` of ``items`` (all when None) chosen by ``mode`` (:data:`SELECT_MODES`), in the order chosen."""
    if mode not in SELECT_MODES:
        raise ValueError(f"selection {mode!r} is not one of {', '.join(SELECT_MODES)}")
    f = features or ItemFeatures()
    take = len(items) if n is None else min(n, len(items))
    rng = random.Random(f"select\x1f{mode}\x1f{seed}")
    if mode == "first":
        return list(items[:take])
    if mode == "random":
        return rng.sample(list(items), take)
    if mode == "informative":
        score = informativeness(items, f)
        tie = {i: rng.random() for i in items}
        return sorted(items, key=lambda i: (-score[i][0], -score[i][1], tie[i]))[:take]
    diff = difficulty(items, f)
    strata: dict[tuple[str, str, str], list[Item]] = defaultdict(list)
    for i in items:
        strata[(i[0], diff[i], f.verdict.get(i, "none"))].append(i)
    queues = [strata[k] for k in sorted(strata)]
    for q in queues:
        rng.shuffle(q)
    rng.shuffle(queues)
    out: list[Item] = []
    while len(out) < take:
        for q in queues:
            if q and len(out) < take:
                out.append(q.pop())
    return out


# --------------------------------------------------------------------------- projected interval width


def tau_interval(tau: float, n: int) -> tuple[float, float] | None:
    """The 95% interval of Kendall's τ-b over ``n`` items (Fisher z, variance 0.437 / (n − 4)); None below 5 items."""
    if n < 5:
        return None
    t = max(-0.999, min(0.999, tau))
    z, se = math.atanh(t), math.sqrt(KENDALL_VARIANCE / (n - 4))
    return math.tanh(z - Z95 * se), math.tanh(z + Z95 * se)


def tau_width(tau: float, n: int) -> float | None:
    ci = tau_interval(tau, n)
    return None if ci is None else ci[1] - ci[0]


def mean_reliability(alpha: float, raters: float) -> float:
    """Spearman–Brown: the reliability of the mean of ``raters`` ratings of single-rating reliability ``alpha``."""
    return raters * alpha / (1 + (raters - 1) * alpha)


@dataclass(frozen=True)
class WidthProjection:
    """The τ-b interval width now and projected at the target (items × raters)."""

    metric_id: str
    tau: float
    items: int  # rated items now
    raters: float  # mean raters per rated item now
    width_now: float | None
    tau_at_target: float
    width_at_target: float | None
    target_items: int
    target_raters: int
    items_for_width: int | None = None  # items (at the target raters) for an interval as narrow as ``goal``
    goal: float | None = None

    def to_json(self) -> dict[str, object]:
        return {"metric_id": self.metric_id, "tau_b": round(self.tau, 4), "items": self.items,
                "raters_per_item": round(self.raters, 3),
                "width_now": None if self.width_now is None else round(self.width_now, 4),
                "tau_b_at_target": round(self.tau_at_target, 4),
                "width_at_target": None if self.width_at_target is None else round(self.width_at_target, 4),
                "target_items": self.target_items, "target_raters": self.target_raters,
                "goal_width": self.goal, "items_for_goal": self.items_for_width}


def items_for_width(tau: float, goal: float, limit: int = 100_000) -> int | None:
    """The fewest items whose 95% τ-b interval (at ``tau``) is at most ``goal`` wide."""
    lo, hi = 5, limit
    w = tau_width(tau, hi)
    if w is None or w > goal:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        wm = tau_width(tau, mid)
        if wm is not None and wm <= goal:
            hi = mid
        else:
            lo = mid + 1
    return lo


def projected_width(metric_id: str, tau: float, items: int, raters: float, alpha: float | None,
                    target_items: int = 200, target_raters: int = 3, goal: float | None = None) -> WidthProjection:
    """The width of the τ-b interval now and at ``target_items`` × ``target_raters`` (module docstring)."""
    tau_t = tau
    if alpha is not None and alpha > 0 and raters > 0:
        tau_t = tau * math.sqrt(mean_reliability(alpha, target_raters) / mean_reliability(alpha, raters))
        tau_t = max(-0.999, min(0.999, tau_t))
    return WidthProjection(metric_id, tau, items, raters, tau_width(tau, items), tau_t,
                           tau_width(tau_t, target_items), target_items, target_raters,
                           items_for_width(tau_t, goal) if goal is not None else None, goal)
