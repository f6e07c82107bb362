"""The metric-vs-human validation study, assembled from plain data (no workspace access).

Inputs are speaker ratings (Task A) keyed by item = (run_id, entry_id) and, per metric, the
per-entry values keyed the same way. The study reports:

- agreement: Krippendorff's α (ordinal) of adequacy and fluency with bootstrap CIs, and, when
  reviewers' dialects are known, within each dialect and across dialects (:func:`dialect_agreement`);
- per metric: segment-level Kendall τ-b and Spearman ρ between the metric and the mean
  human rating of each item (all rated items of all runs pooled), and system-level Pearson r
  between each run's mean metric value and mean human rating over its rated items;
- the scatter points behind each correlation (for plots);
- progress toward the study's targets (200+ items each rated by 3+ speakers).

The human score of an item is the mean over its raters of the chosen aspect: ``adequacy``,
``fluency`` or ``mean`` (the average of adequacy and fluency of a judgment having both).
Metrics where lower is better (TER, hallucination, code-switching) correlate negatively with
quality; signs are reported as computed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from mteval_gui.validation.agreement import AlphaResult, alpha_with_ci
from mteval_gui.validation.correlation import CorrelationResult, correlation_with_ci, system_pearson_with_ci

Item = tuple[str, str]  # (run_id, entry_id)
Aspect = Literal["adequacy", "fluency", "mean"]
ASPECTS: tuple[str, ...] = ("adequacy", "fluency", "mean")
TARGET_ITEMS = 200
TARGET_RATERS = 3


@dataclass(frozen=True)
class Rating:
    """One speaker's Task A rating of one item."""

    run_id: str
    entry_id: str
    rater: str
    adequacy: int | None = None
    fluency: int | None = None
    dialect: str | None = None  # the rater's dialect (their reviewer record)

    @property
    def item(self) -> Item:
        return (self.run_id, self.entry_id)

    def score(self, aspect: str) -> float | None:
        if aspect == "adequacy":
            return None if self.adequacy is None else float(self.adequacy)
        if aspect == "fluency":
            return None if self.fluency is None else float(self.fluency)
        if aspect == "mean":
            if self.adequacy is None or self.fluency is None:
                return None
            return (self.adequacy + self.fluency) / 2.0
        raise ValueError(f"unknown aspect {aspect!r} (use one of {', '.join(ASPECTS)})")


def ratings_by_item(ratings: Iterable[Rating], aspect: str) -> dict[Item, dict[str, float]]:
    """{item: {rater: score}} for the ratings that have the aspect (a rater's last rating wins)."""
    out: dict[Item, dict[str, float]] = defaultdict(dict)
    for r in ratings:
        s = r.score(aspect)
        if s is not None:
            out[r.item][r.rater] = s
    return dict(out)


def human_means(ratings: Iterable[Rating], aspect: str = "adequacy") -> dict[Item, float]:
    """Mean rating of each item over its raters."""
    return {item: float(np.mean(list(per.values()))) for item, per in ratings_by_item(ratings, aspect).items()}


@dataclass(frozen=True)
class Progress:
    items_rated: int
    items_at_target: int
    raters: int
    target_items: int = TARGET_ITEMS
    target_raters: int = TARGET_RATERS

    @property
    def target_met(self) -> bool:
        return self.items_at_target >= self.target_items

    def to_json(self) -> dict[str, object]:
        return {"items_rated": self.items_rated, "items_at_target": self.items_at_target, "raters": self.raters,
                "target_items": self.target_items, "target_raters": self.target_raters, "target_met": self.target_met}


def progress(
    ratings: Iterable[Rating], target_items: int = TARGET_ITEMS, target_raters: int = TARGET_RATERS
) -> Progress:
    raters_per_item: dict[Item, set[str]] = defaultdict(set)
    raters: set[str] = set()
    for r in ratings:
        if r.adequacy is not None or r.fluency is not None:
            raters_per_item[r.item].add(r.rater)
            raters.add(r.rater)
    at_target = sum(1 for s in raters_per_item.values() if len(s) >= target_raters)
    return Progress(len(raters_per_item), at_target, len(raters), target_items, target_raters)


def agreement(
    ratings: Sequence[Rating],
    aspect: str = "adequacy",
    level: str = "ordinal",
    *,
    n_bootstrap: int = 1000,
    seed: int = 12345,
) -> AlphaResult:
    """Krippendorff's α of one aspect over the items (units) and raters."""
    per_item = ratings_by_item(ratings, aspect)
    units = [list(per.values()) for _, per in sorted(per_item.items())]
    return alpha_with_ci(units, level, n_bootstrap=n_bootstrap, seed=seed)  # type: ignore[arg-type]


@dataclass(frozen=True)
class DialectAgreement:
    """Agreement of one aspect within each dialect and across dialects.

    ``within[d]``: α over the ratings of the raters of dialect ``d`` only; ``across``: α over the
    pairs of ratings of one item by two raters of different dialects (each pair a unit of two
    values), so it measures how far speakers of different dialects agree with each other.
    Raters without a recorded dialect take no part (``without_dialect`` counts them)."""

    within: dict[str, AlphaResult]
    across: AlphaResult
    raters: dict[str, int]
    without_dialect: int

    def to_json(self) -> dict[str, object]:
        return {"within": {d: a.to_json() for d, a in self.within.items()}, "across": self.across.to_json(),
                "raters": dict(self.raters), "without_dialect": self.without_dialect}


def dialect_agreement(
    ratings: Sequence[Rating],
    aspect: str = "adequacy",
    level: str = "ordinal",
    *,
    n_bootstrap: int = 1000,
    seed: int = 12345,
) -> DialectAgreement:
    """Krippendorff's α of one aspect within each dialect and across dialects (:class:`DialectAgreement`)."""
    dialect_of: dict[str, str | None] = {}
    for r in ratings:
        dialect_of[r.rater] = r.dialect
    per_item = ratings_by_item(ratings, aspect)
    dialects = sorted({d for d in dialect_of.values() if d})
    within = {}
    for d in dialects:
        units = [[v for rater, v in sorted(per.items()) if dialect_of.get(rater) == d]
                 for _, per in sorted(per_item.items())]
        within[d] = alpha_with_ci(units, level, n_bootstrap=n_bootstrap, seed=seed)  # type: ignore[arg-type]
    pairs = []
    for _, per in sorted(per_item.items()):
        raters = sorted(per)
        for i, a in enumerate(raters):
            for b in raters[i + 1:]:
                da, db = dialect_of.get(a), dialect_of.get(b)
                if da and db and da != db:
                    pairs.append([per[a], per[b]])
    across = alpha_with_ci(pairs, level, n_bootstrap=n_bootstrap, seed=seed)  # type: ignore[arg-type]
    counts = {d: sum(1 for v in dialect_of.values() if v == d) for d in dialects}
    return DialectAgreement(within, across, counts, sum(1 for v in dialect_of.values() if not v))


@dataclass
class MetricCorrelation:
    """One metric against the human scores."""

    metric_id: str
    kendall: CorrelationResult
    spearman: CorrelationResult
    system_pearson: CorrelationResult
    systems: list[dict[str, object]] = field(default_factory=list)  # run_id, metric_mean, human_mean, items
    points: list[tuple[str, str, float, float]] = field(default_factory=list)  # run, entry, metric, human

    def to_json(self) -> dict[str, object]:
        return {
            "metric_id": self.metric_id,
            "kendall_tau_b": self.kendall.to_json(),
            "spearman_rho": self.spearman.to_json(),
            "system_pearson": self.system_pearson.to_json(),
            "systems": list(self.systems),
            "points": [list(p) for p in self.points],
        }


@dataclass
class StudyResult:
    aspect: str
    agreement: dict[str, AlphaResult]
    metrics: list[MetricCorrelation]
    progress: Progress
    n_bootstrap: int
    seed: int
    excluded: dict[str, str] = field(default_factory=dict)  # metric id -> why it was left out
    # aspect -> agreement within and across dialects (empty when no rater's dialect is known)
    dialects: dict[str, DialectAgreement] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "aspect": self.aspect, "agreement": {k: v.to_json() for k, v in self.agreement.items()},
            "dialect_agreement": {k: v.to_json() for k, v in self.dialects.items()},
            "metrics": [m.to_json() for m in self.metrics], "progress": self.progress.to_json(),
            "n_bootstrap": self.n_bootstrap, "seed": self.seed, "excluded": dict(self.excluded),
        }


def correlate_metric(
    metric_id: str,
    values: Mapping[Item, float | None],
    human: Mapping[Item, float],
    *,
    n_bootstrap: int = 1000,
    seed: int = 12345,
) -> MetricCorrelation:
    """Segment- and system-level correlation of one metric with the human item means."""
    items = sorted(i for i in human if values.get(i) is not None and np.isfinite(float(values[i])))  # type: ignore[arg-type]
    x = np.array([float(values[i]) for i in items])  # type: ignore[arg-type]
    y = np.array([human[i] for i in items])
    kendall = correlation_with_ci(x, y, "kendall", n_bootstrap=n_bootstrap, seed=seed)
    spearman = correlation_with_ci(x, y, "spearman", n_bootstrap=n_bootstrap, seed=seed)
    runs = sorted({run for run, _ in items})
    entries = sorted({entry for _, entry in items})
    r_index = {r: k for k, r in enumerate(runs)}
    e_index = {e: k for k, e in enumerate(entries)}
    m = np.full((len(runs), len(entries)), np.nan)
    h = np.full((len(runs), len(entries)), np.nan)
    for (run, entry), xv, yv in zip(items, x, y, strict=True):
        m[r_index[run], e_index[entry]] = xv
        h[r_index[run], e_index[entry]] = yv
    system = system_pearson_with_ci(m, h, n_bootstrap=n_bootstrap, seed=seed)
    systems = []
    for run in runs:
        row = r_index[run]
        present = np.isfinite(m[row]) & np.isfinite(h[row])
        systems.append({"run_id": run, "metric_mean": float(m[row][present].mean()),
                        "human_mean": float(h[row][present].mean()), "items": int(present.sum())})
    points = [(run, entry, float(xv), float(yv)) for (run, entry), xv, yv in zip(items, x, y, strict=True)]
    return MetricCorrelation(metric_id, kendall, spearman, system, systems, points)


def run_study(
    ratings: Sequence[Rating],
    metric_values: Mapping[str, Mapping[Item, float | None]],
    *,
    aspect: str = "adequacy",
    n_bootstrap: int = 1000,
    seed: int = 12345,
    excluded: Mapping[str, str] | None = None,
) -> StudyResult:
    """Agreement, per-metric correlations and progress for one set of ratings.

    Metrics named in ``excluded`` (metric id -> reason) are left out of the correlations and
    listed with their reason (BLEU on short segments)."""
    if aspect not in ASPECTS:
        raise ValueError(f"unknown aspect {aspect!r} (use one of {', '.join(ASPECTS)})")
    skip = dict(excluded or {})
    human = human_means(ratings, aspect)
    agree = {a: agreement(ratings, a, n_bootstrap=n_bootstrap, seed=seed) for a in ("adequacy", "fluency")}
    rows = [
        correlate_metric(mid, vals, human, n_bootstrap=n_bootstrap, seed=seed)
        for mid, vals in sorted(metric_values.items())
        if mid not in skip
    ]
    left_out = {mid: why for mid, why in skip.items() if mid in metric_values}
    dialects = {a: dialect_agreement(ratings, a, n_bootstrap=n_bootstrap, seed=seed) for a in ("adequacy", "fluency")
                } if any(r.dialect for r in ratings) else {}
    return StudyResult(aspect, agree, rows, progress(ratings), n_bootstrap, seed, left_out, dialects)
