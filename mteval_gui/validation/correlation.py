"""Metric-human correlation with bootstrap confidence intervals (numpy only).

- Segment level: Kendall τ-b (ties corrected on both sides) and Spearman ρ (Pearson of
  average ranks) between a metric's per-entry values and the mean human rating of each entry.
- System level: Pearson r between each system's mean metric value and mean human rating over
  the entries it was rated on.

Intervals are percentile bootstraps (B = 1000, 95 %, seeded). Segment-level resamples pairs;
system-level resamples items (entries) shared by the systems and recomputes every system's
means, so the interval reflects the uncertainty of the rated sample rather than of the handful
of systems. τ-b is computed for all resamples at once: with resampling counts ``w``,
``τ_b = wᵀ(S_x∘S_y)w / sqrt(wᵀ|S_x|w · wᵀ|S_y|w)`` where ``S_x[i, j] = sign(x_i − x_j)``;
pairs of copies of one item are ties on both sides, exactly as in the resampled data.
A coefficient is None (undefined) when one side is constant or fewer than 3 pairs exist.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

# the values of one variable: a list of numbers or a 1-D array
Values = Sequence[float] | np.ndarray

Method = Literal["kendall", "spearman", "pearson"]
MIN_PAIRS = 3
_BLOCK_ELEMENTS = 2_000_000


@dataclass(frozen=True)
class CorrelationResult:
    """A coefficient, its bootstrap interval and the sample behind it."""

    method: str
    value: float | None
    ci_lower: float | None
    ci_upper: float | None
    n: int
    n_bootstrap: int
    confidence: float
    seed: int

    def to_json(self) -> dict[str, object]:
        return {
            "method": self.method, "value": self.value, "ci_lower": self.ci_lower, "ci_upper": self.ci_upper,
            "n": self.n, "n_bootstrap": self.n_bootstrap, "confidence": self.confidence, "seed": self.seed,
        }


def _pairs(x: Values, y: Values) -> tuple[np.ndarray, np.ndarray]:
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError("x and y must be one-dimensional and of equal length")
    keep = np.isfinite(xa) & np.isfinite(ya)
    return xa[keep], ya[keep]


def rankdata(a: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties given their average rank."""
    a = np.asarray(a, dtype=float)
    _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    average = ends - (counts - 1) / 2.0
    return average[inverse]


def pearson_r(x: Values, y: Values) -> float | None:
    xa, ya = _pairs(x, y)
    return _pearson(xa, ya)


def _pearson(xa: np.ndarray, ya: np.ndarray) -> float | None:
    if len(xa) < MIN_PAIRS:
        return None
    dx = xa - xa.mean()
    dy = ya - ya.mean()
    sxx = float(dx @ dx)
    syy = float(dy @ dy)
    if sxx <= 0 or syy <= 0:
        return None
    return float(np.clip((dx @ dy) / np.sqrt(sxx * syy), -1.0, 1.0))


def spearman_rho(x: Values, y: Values) -> float | None:
    xa, ya = _pairs(x, y)
    if len(xa) < MIN_PAIRS:
        return None
    return _pearson(rankdata(xa), rankdata(ya))


def _tau_b_weighted(xa: np.ndarray, ya: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """τ-b for each row of ``weights`` (resampling counts); NaN where undefined."""
    n = len(xa)
    weights = np.atleast_2d(np.asarray(weights, dtype=float))
    num = np.zeros(weights.shape[0])
    step = max(1, _BLOCK_ELEMENTS // max(n, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        sx = np.sign(xa[start:stop, None] - xa[None, :])
        sy = np.sign(ya[start:stop, None] - ya[None, :])
        num += np.einsum("bi,bi->b", weights[:, start:stop], weights @ (sx * sy).T)
    # the pairs not tied on x: all pairs but those within a group of equal values, so
    # Σ w_i w_j |sign(x_i - x_j)| = (Σ w)² - Σ_groups (Σ_group w)² (exact: the weights are counts)
    total = weights.sum(axis=1) ** 2
    den_x = total - _tied_weight(xa, weights)
    den_y = total - _tied_weight(ya, weights)
    den = np.sqrt(den_x * den_y)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return np.clip(tau, -1.0, 1.0)


def _tied_weight(v: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Σ over groups of equal values of (the group's weight)², for each row of ``weights``."""
    order = np.argsort(v, kind="stable")
    sorted_v = v[order]
    starts = np.flatnonzero(np.r_[True, sorted_v[1:] != sorted_v[:-1]])
    groups = np.add.reduceat(weights[:, order], starts, axis=1)
    return np.asarray((groups ** 2).sum(axis=1))


def kendall_tau_b(x: Values, y: Values) -> float | None:
    xa, ya = _pairs(x, y)
    if len(xa) < MIN_PAIRS:
        return None
    tau = _tau_b_weighted(xa, ya, np.ones((1, len(xa))))[0]
    return None if np.isnan(tau) else float(tau)


def _percentile_ci(samples: np.ndarray, confidence: float) -> tuple[float | None, float | None]:
    samples = samples[np.isfinite(samples)]
    if samples.size == 0:
        return None, None
    tail = (1.0 - confidence) / 2.0 * 100.0
    lo, hi = np.percentile(samples, [tail, 100.0 - tail])
    return float(lo), float(hi)


_COUNTS_SLOTS = 8
_counts_cache: dict[tuple[int, int, int], np.ndarray] = {}
_counts_lock = threading.Lock()


def _resampling_counts(n: int, n_bootstrap: int, seed: int) -> np.ndarray:
    """Multinomial resampling counts (B × n), seeded. The same (n, B, seed) gives the same matrix, so
    it is drawn once and kept (a study correlates many metrics over the same items); read-only."""
    key = (n, n_bootstrap, seed)
    with _counts_lock:
        hit = _counts_cache.get(key)
    if hit is not None:
        return hit
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_bootstrap).astype(float)
    counts.setflags(write=False)
    with _counts_lock:
        if len(_counts_cache) >= _COUNTS_SLOTS:
            _counts_cache.pop(next(iter(_counts_cache)))
        _counts_cache[key] = counts
    return counts


def _counts_of(idx: np.ndarray, n: int) -> np.ndarray:
    """Resampling counts (B × n) of resampled indices (B × n)."""
    counts = np.zeros((idx.shape[0], n))
    np.add.at(counts, (np.repeat(np.arange(idx.shape[0]), idx.shape[1]), idx.ravel()), 1.0)
    return counts


def _resampled_ranks(a: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each resample (row of ``counts``), the average rank every original item's copies get in the
    resampled sample (what :func:`rankdata` gives them), and whether the resample is constant."""
    _, group = np.unique(a, return_inverse=True)
    order = np.argsort(group, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(group[order]) != 0])
    per_value = np.add.reduceat(counts[:, order], starts, axis=1)  # B × distinct values: copies of each value
    below = np.cumsum(per_value, axis=1) - per_value
    rank_of_value = below + (per_value + 1.0) / 2.0
    constant = (per_value > 0).sum(axis=1) <= 1
    return rank_of_value[:, group], constant


def _weighted_pearson(rx: np.ndarray, ry: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Pearson r of each resample: item values ``rx``/``ry`` (B × n) counted ``counts`` times."""
    total = counts.sum(axis=1)
    mx = (counts * rx).sum(axis=1) / total
    my = (counts * ry).sum(axis=1) / total
    dx = rx - mx[:, None]
    dy = ry - my[:, None]
    sxx = (counts * dx * dx).sum(axis=1)
    syy = (counts * dy * dy).sum(axis=1)
    sxy = (counts * dx * dy).sum(axis=1)
    ok = (sxx > 0) & (syy > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(ok, sxy / np.sqrt(np.where(ok, sxx * syy, 1.0)), np.nan)
    return np.clip(r, -1.0, 1.0)


def correlation_with_ci(
    x: Values,
    y: Values,
    method: Method = "kendall",
    *,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> CorrelationResult:
    """A segment-level coefficient of (x, y) pairs (non-finite pairs dropped) with its bootstrap CI."""
    xa, ya = _pairs(x, y)
    n = len(xa)
    if method == "kendall":
        value = kendall_tau_b(xa, ya)
    elif method == "spearman":
        value = spearman_rho(xa, ya)
    elif method == "pearson":
        value = _pearson(xa, ya)
    else:
        raise ValueError(f"unknown correlation method {method!r}")
    lo = hi = None
    if value is not None and n_bootstrap > 0:
        counts = _resampling_counts(n, n_bootstrap, seed)
        if method == "kendall":
            samples = _tau_b_weighted(xa, ya, counts)
        else:
            rng = np.random.default_rng(seed)
            idx = rng.integers(0, n, size=(n_bootstrap, n))
            if method == "spearman":  # every resample at once: the ranks of each item's copies, weighted
                w = _counts_of(idx, n)
                rx, const_x = _resampled_ranks(xa, w)
                ry, const_y = _resampled_ranks(ya, w)
                samples = np.where(const_x | const_y, np.nan, _weighted_pearson(rx, ry, w))
            else:
                samples = np.full(n_bootstrap, np.nan)
                for b in range(n_bootstrap):
                    r = _pearson(xa[idx[b]], ya[idx[b]])
                    if r is not None:
                        samples[b] = r
        lo, hi = _percentile_ci(samples, confidence)
    return CorrelationResult(method, value, lo, hi, n, n_bootstrap, confidence, seed)


def system_means(
    metric: np.ndarray, human: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per-system means of metric and human values over items where both are present.

    ``metric`` and ``human`` are systems × items (NaN = absent). With ``weights`` (B × items)
    the result is B × systems; systems without any item give NaN.
    """
    mask = np.isfinite(metric) & np.isfinite(human)
    m = np.where(mask, metric, 0.0)
    h = np.where(mask, human, 0.0)
    w = np.ones((1, metric.shape[1])) if weights is None else np.atleast_2d(weights)
    count = w @ mask.T.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mm = np.where(count > 0, (w @ m.T) / np.where(count > 0, count, 1.0), np.nan)
        hm = np.where(count > 0, (w @ h.T) / np.where(count > 0, count, 1.0), np.nan)
    return (mm[0], hm[0]) if weights is None else (mm, hm)


def system_pearson_with_ci(
    metric: Sequence[Sequence[float]] | np.ndarray,
    human: Sequence[Sequence[float]] | np.ndarray,
    *,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> CorrelationResult:
    """System-level Pearson r of per-system means; the CI resamples items (columns)."""
    ma = np.asarray(metric, dtype=float)
    ha = np.asarray(human, dtype=float)
    if ma.shape != ha.shape or ma.ndim != 2:
        raise ValueError("metric and human must be systems × items matrices of the same shape")
    mm, hm = system_means(ma, ha)
    value = pearson_r(mm, hm)
    n_systems = int(np.sum(np.isfinite(mm)))
    lo = hi = None
    n_items = ma.shape[1]
    if value is not None and n_bootstrap > 0 and n_items > 0:
        counts = _resampling_counts(n_items, n_bootstrap, seed)
        bm, bh = system_means(ma, ha, counts)
        samples = np.full(n_bootstrap, np.nan)
        for b in range(n_bootstrap):
            r = pearson_r(bm[b], bh[b])
            if r is not None:
                samples[b] = r
        lo, hi = _percentile_ci(samples, confidence)
    return CorrelationResult("pearson_system", value, lo, hi, n_systems, n_bootstrap, confidence, seed)
