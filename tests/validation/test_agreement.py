"""Krippendorff's alpha against published worked examples and an independent pairwise implementation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_gui.validation.agreement import (
    LEVELS,
    alpha_with_ci,
    coincidences,
    krippendorff_alpha,
    units_from_matrix,
    units_from_ratings,
)

N = None
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers x 12 units.
K2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
]
# Hayes & Krippendorff (2007), Table 1: 40 news articles x 5 observers, tone 0-3, "." missing.
HAYES2007 = """1 1 2 . 2|1 1 0 1 .|2 3 3 3 .|. 0 0 . 0|0 0 0 . 0|0 0 0 . 0|1 0 2 . 1|1 . 2 0 .|2 2 2 . 2|2 1 1 1 .|
. 1 0 0 .|0 0 0 0 .|1 2 2 2 .|3 3 2 2 3|1 1 1 . 1|1 1 1 . 1|2 1 2 . 2|1 2 3 3 .|1 1 0 1 .|0 0 0 . 0|
0 0 1 1 .|0 0 . 0 0|2 3 3 3 .|0 0 0 0 .|1 2 . 2 2|0 1 1 1 .|0 0 0 1 0|1 2 1 2 .|1 1 2 2 .|1 1 2 . 2|
1 1 0 . 0|2 1 2 1 .|2 2 . 2 2|3 2 2 2 .|2 2 2 . 2|2 2 3 . 2|2 2 2 . 2|2 2 . 1 2|2 2 2 2 .|1 1 1 . 1"""


def hayes_units() -> list[list[float]]:
    rows = [r for r in HAYES2007.replace("\n", "").split("|") if r.strip()]
    assert len(rows) == 40
    return [[float(v) for v in r.split() if v != "."] for r in rows]


def pairwise_alpha(units: list[list[float]], level: str) -> float:
    """Independent check: α = 1 − D_o / D_e summed over value pairs (no coincidence matrix)."""
    pairable = [u for u in units if len(u) >= 2]
    pool = [v for u in pairable for v in u]
    n = len(pool)
    freq = {v: pool.count(v) for v in set(pool)}
    ordered = sorted(freq)

    def d2(a: float, b: float) -> float:
        if level == "nominal":
            return 0.0 if a == b else 1.0
        if level == "interval":
            return (a - b) ** 2
        if level == "ratio":
            return 0.0 if a + b == 0 else ((a - b) / (a + b)) ** 2
        lo, hi = sorted((a, b))
        between = sum(freq[g] for g in ordered if lo <= g <= hi)
        return (between - (freq[a] + freq[b]) / 2) ** 2

    d_o = sum(
        d2(u[i], u[j]) / (len(u) - 1) for u in pairable for i in range(len(u)) for j in range(len(u)) if i != j
    ) / n
    d_e = sum(d2(pool[i], pool[j]) for i in range(n) for j in range(n) if i != j) / (n * (n - 1))
    return 1 - d_o / d_e


def test_coincidence_matrix_of_krippendorff_2011_example():
    co = coincidences(units_from_matrix(K2011))
    assert co.values.tolist() == [1, 2, 3, 4, 5]
    assert (co.matrix * 3).round(9).tolist() == [
        [21, 4, 1, 1, 0],
        [4, 30, 4, 1, 0],
        [1, 4, 24, 1, 0],
        [1, 1, 1, 12, 0],
        [0, 0, 0, 0, 9],
    ]
    assert co.marginals.round(9).tolist() == [9, 13, 10, 5, 3]
    assert co.n == 40  # unit 12 (one value) is not pairable


def test_krippendorff_2011_published_values():
    units = units_from_matrix(K2011)
    assert round(krippendorff_alpha(units, "nominal"), 3) == 0.743   # published
    assert round(krippendorff_alpha(units, "interval"), 3) == 0.849  # published
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.743421052631579, abs=1e-12)
    assert krippendorff_alpha(units, "ordinal") == pytest.approx(0.8153875037548813, abs=1e-12)
    assert krippendorff_alpha(units, "interval") == pytest.approx(0.8491071428571428, abs=1e-12)
    assert krippendorff_alpha(units, "ratio") == pytest.approx(0.7974027747116121, abs=1e-12)


def test_hayes_krippendorff_2007_published_ordinal_value():
    units = hayes_units()
    assert round(krippendorff_alpha(units, "ordinal"), 4) == 0.7598  # published in Table 1's worked example
    assert round(krippendorff_alpha(units, "nominal"), 3) == 0.477
    assert round(krippendorff_alpha(units, "interval"), 3) == 0.757


@pytest.mark.parametrize("level", LEVELS)
def test_matches_independent_pairwise_implementation(level):
    for units in (units_from_matrix(K2011), hayes_units()):
        assert krippendorff_alpha(units, level) == pytest.approx(pairwise_alpha(units, level), abs=1e-12)
    rng = np.random.default_rng(3)
    random_units = [[float(v) for v in rng.integers(1, 6, rng.integers(1, 5))] for _ in range(60)]
    assert krippendorff_alpha(random_units, level) == pytest.approx(pairwise_alpha(random_units, level), abs=1e-12)


def test_undefined_and_perfect_cases():
    assert krippendorff_alpha([[3, 3], [3, 3, 3]], "ordinal") is None      # no variation: undefined
    assert krippendorff_alpha([[1], [2], [3]], "ordinal") is None          # nothing pairable
    assert krippendorff_alpha([[1, 1], [2, 2], [5, 5, 5]], "ordinal") == 1.0
    # two raters who always disagree by the maximum: alpha below zero
    assert krippendorff_alpha([[1, 5], [5, 1]], "interval") < 0


def test_units_from_ratings_dict():
    units = units_from_ratings({("r", "e1"): {"a": 4, "b": 5}, ("r", "e2"): {"a": 2, "b": None, "c": 2}})
    assert units == [[4.0, 5.0], [2.0, 2.0]]


def test_bootstrap_interval_is_seeded_and_brackets_alpha():
    units = hayes_units()
    r = alpha_with_ci(units, "ordinal", n_bootstrap=500, seed=7)
    again = alpha_with_ci(units, "ordinal", n_bootstrap=500, seed=7)
    assert (r.ci_lower, r.ci_upper) == (again.ci_lower, again.ci_upper)
    assert r.ci_lower < r.alpha < r.ci_upper
    assert (r.units, r.pairable_values, r.level) == (40, 159, "ordinal")
    assert not math.isclose(r.ci_lower, r.ci_upper)
    none = alpha_with_ci([[2, 2], [2, 2]], "ordinal")
    assert none.alpha is None and none.ci_lower is None
