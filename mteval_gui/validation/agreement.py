"""Inter-rater agreement: Krippendorff's alpha from the coincidence matrix (numpy only).

Reliability data are given per unit (an entry of a run) as the values the raters gave it;
missing ratings are simply absent. Units with fewer than two values are not pairable and
do not count. Following Krippendorff (2011, "Computing Krippendorff's Alpha-Reliability"):

- the coincidence matrix ``o[c, k] = Σ_u (number of c-k pairs of different raters in u) / (m_u − 1)``,
  with marginals ``n_c`` and ``n = Σ n_c`` pairable values;
- ``α = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck``;
- difference functions δ²: nominal ``[c ≠ k]``, interval ``(c − k)²``, ratio ``((c − k)/(c + k))²``,
  ordinal ``(Σ_{g=c..k} n_g − (n_c + n_k)/2)²`` over the ordered values.

α is undefined (None) when fewer than two pairable values exist or all of them are equal.
The bootstrap interval resamples units (percentile method, seeded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")


@dataclass(frozen=True)
class Coincidences:
    """The value domain (sorted), the coincidence matrix and the per-unit value counts."""

    values: np.ndarray          # (V,)
    matrix: np.ndarray          # (V, V) coincidence matrix
    unit_counts: np.ndarray     # (U, V) counts of each value in each pairable unit

    @property
    def marginals(self) -> np.ndarray:
        return self.matrix.sum(axis=1)

    @property
    def n(self) -> float:
        return float(self.matrix.sum())


def units_from_matrix(data: Sequence[Sequence[float | None]] | np.ndarray) -> list[list[float]]:
    """Reliability data as raters × units (None or NaN = missing) -> per-unit value lists."""
    arr = np.array([[np.nan if v is None else float(v) for v in row] for row in data], dtype=float)
    return [[float(v) for v in arr[:, u] if not np.isnan(v)] for u in range(arr.shape[1])]


def units_from_ratings(ratings: Mapping[object, Mapping[object, float | None]]) -> list[list[float]]:
    """``{unit: {rater: value}}`` -> per-unit value lists (None values dropped)."""
    return [[float(v) for v in per_rater.values() if v is not None] for per_rater in ratings.values()]


def coincidences(units: Sequence[Sequence[float]], values: Sequence[float] | None = None) -> Coincidences:
    """Build the coincidence matrix of the pairable units (two values or more)."""
    pairable = [list(u) for u in units if len(u) >= 2]
    domain = np.array(sorted(set(values) if values is not None else {v for u in pairable for v in u}), dtype=float)
    index = {v: i for i, v in enumerate(domain.tolist())}
    counts = np.zeros((len(pairable), len(domain)), dtype=float)
    for row, unit in enumerate(pairable):
        for v in unit:
            if float(v) not in index:
                raise ValueError(f"value {v} is outside the declared value domain")
            counts[row, index[float(v)]] += 1
    return Coincidences(domain, _matrix(counts), counts)


def _matrix(counts: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Σ_u w_u (n_u n_uᵀ − diag n_u) / (m_u − 1) for unit count rows ``counts``."""
    if counts.shape[0] == 0:
        return np.zeros((counts.shape[1], counts.shape[1]))
    m = counts.sum(axis=1)
    scale = 1.0 / (m - 1.0)
    if weights is not None:
        scale = scale * weights
    scaled = counts * scale[:, None]
    return scaled.T @ counts - np.diag(scaled.sum(axis=0))


def difference(level: Level, values: np.ndarray, marginals: np.ndarray) -> np.ndarray:
    """The squared difference function δ²(c, k) on the value domain."""
    c = values[:, None]
    k = values[None, :]
    if level == "nominal":
        return (c != k).astype(float)
    if level == "interval":
        return (c - k) ** 2
    if level == "ratio":
        total = c + k
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(total == 0, 0.0, ((c - k) / np.where(total == 0, 1.0, total)) ** 2)
        return d
    if level == "ordinal":
        cum = np.concatenate([[0.0], np.cumsum(marginals)])
        i = np.arange(len(values))
        lo = np.minimum(i[:, None], i[None, :])
        hi = np.maximum(i[:, None], i[None, :])
        between = cum[hi + 1] - cum[lo]
        return (between - (marginals[:, None] + marginals[None, :]) / 2.0) ** 2
    raise ValueError(f"unknown level of measurement {level!r} (use one of {', '.join(LEVELS)})")


def alpha_from_matrix(matrix: np.ndarray, values: np.ndarray, level: Level) -> float | None:
    marg = matrix.sum(axis=1)
    n = marg.sum()
    if n < 2:
        return None
    delta = difference(level, values, marg)
    expected = float(marg @ delta @ marg)
    if expected <= 0:
        return None
    observed = float((matrix * delta).sum())
    return 1.0 - (n - 1.0) * observed / expected


def krippendorff_alpha(
    units: Sequence[Sequence[float]], level: Level = "ordinal", values: Sequence[float] | None = None
) -> float | None:
    """Krippendorff's α for per-unit value lists (see the module docstring)."""
    co = coincidences(units, values)
    return alpha_from_matrix(co.matrix, co.values, level)


@dataclass(frozen=True)
class AlphaResult:
    """α with its bootstrap interval and the amount of data behind it."""

    alpha: float | None
    ci_lower: float | None
    ci_upper: float | None
    level: str
    units: int            # pairable units
    pairable_values: int  # n
    n_bootstrap: int
    seed: int

    def to_json(self) -> dict[str, object]:
        return {
            "alpha": self.alpha, "ci_lower": self.ci_lower, "ci_upper": self.ci_upper, "level": self.level,
            "units": self.units, "pairable_values": self.pairable_values, "n_bootstrap": self.n_bootstrap,
            "seed": self.seed,
        }


def alpha_with_ci(
    units: Sequence[Sequence[float]],
    level: Level = "ordinal",
    *,
    values: Sequence[float] | None = None,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> AlphaResult:
    """α and a percentile bootstrap interval from resampling pairable units with replacement."""
    co = coincidences(units, values)
    value = alpha_from_matrix(co.matrix, co.values, level)
    n_units = co.unit_counts.shape[0]
    lo = hi = None
    if value is not None and n_units >= 2 and n_bootstrap > 0:
        rng = np.random.default_rng(seed)
        weights = rng.multinomial(n_units, np.full(n_units, 1.0 / n_units), size=n_bootstrap).astype(float)
        samples = []
        for w in weights:
            a = alpha_from_matrix(_matrix(co.unit_counts, w), co.values, level)
            if a is not None:
                samples.append(a)
        if samples:
            tail = (1.0 - confidence) / 2.0 * 100.0
            lo, hi = (float(x) for x in np.percentile(samples, [tail, 100.0 - tail]))
    return AlphaResult(value, lo, hi, level, n_units, int(round(co.n)), n_bootstrap, seed)
