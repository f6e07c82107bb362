"""Kendall tau-b, Spearman rho and system-level Pearson with bootstrap CIs: hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_gui.validation.correlation import (
    _tau_b_weighted,
    correlation_with_ci,
    kendall_tau_b,
    pearson_r,
    rankdata,
    spearman_rho,
    system_means,
    system_pearson_with_ci,
)


def tau_b_by_pairs(x, y) -> float:
    """Independent check: count concordant/discordant pairs and ties directly."""
    nc = nd = tx = ty = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tx += 1
            if dy == 0:
                ty += 1
            if dx * dy > 0:
                nc += 1
            elif dx * dy < 0:
                nd += 1
    n0 = n * (n - 1) // 2
    return (nc - nd) / ((n0 - tx) * (n0 - ty)) ** 0.5


def test_hand_computed_without_ties():
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    assert kendall_tau_b(x, y) == pytest.approx(0.6)     # nc 8, nd 2, 10 pairs
    assert spearman_rho(x, y) == pytest.approx(0.8)      # 1 - 6*4/(5*24)
    assert pearson_r(x, y) == pytest.approx(0.8)


def test_hand_computed_with_ties():
    x, y = [1, 1, 2, 2, 3], [1, 2, 1, 3, 3]
    assert kendall_tau_b(x, y) == pytest.approx(0.5)     # nc 5, nd 1, 2 ties in x, 2 in y: 4/sqrt(8*8)
    assert rankdata(np.array(x)).tolist() == [1.5, 1.5, 3.5, 3.5, 5.0]
    assert spearman_rho(x, y) == pytest.approx(5.25 / 9)


def test_against_pair_counting_and_scipy_on_random_ratings():
    rng = np.random.default_rng(1)
    x = rng.integers(1, 6, 120).astype(float)
    y = np.round(x + rng.normal(0, 1.2, 120))
    assert kendall_tau_b(x, y) == pytest.approx(tau_b_by_pairs(x, y), abs=1e-12)
    stats = pytest.importorskip("scipy.stats")
    assert kendall_tau_b(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    assert spearman_rho(x, y) == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    assert pearson_r(x, y) == pytest.approx(stats.pearsonr(x, y).statistic, abs=1e-12)


def test_weighted_tau_equals_tau_of_the_resampled_data():
    rng = np.random.default_rng(2)
    x = rng.integers(1, 6, 40).astype(float)
    y = rng.integers(1, 6, 40).astype(float) + x
    counts = rng.multinomial(40, np.full(40, 1 / 40), size=5).astype(float)
    taus = _tau_b_weighted(x, y, counts)
    for b in range(5):
        idx = np.repeat(np.arange(40), counts[b].astype(int))
        assert taus[b] == pytest.approx(tau_b_by_pairs(x[idx], y[idx]), abs=1e-12)


def test_undefined_cases_give_none():
    assert kendall_tau_b([1, 2, 3], [4, 4, 4]) is None
    assert spearman_rho([1, 2], [1, 2]) is None          # fewer than 3 pairs
    assert pearson_r([1, 1, 1], [1, 2, 3]) is None
    assert kendall_tau_b([1, 2, float("nan"), 4], [1, 2, 3, 4]) == pytest.approx(1.0)  # non-finite pair dropped
    r = correlation_with_ci([1, 2, 3], [5, 5, 5], "kendall")
    assert r.value is None and r.ci_lower is None and r.n == 3


@pytest.mark.parametrize("method", ["kendall", "spearman", "pearson"])
def test_bootstrap_ci_is_seeded_and_brackets_the_value(method):
    rng = np.random.default_rng(5)
    x = rng.random(80)
    y = x + rng.normal(0, 0.3, 80)
    r = correlation_with_ci(x, y, method, n_bootstrap=400, seed=11)
    again = correlation_with_ci(x, y, method, n_bootstrap=400, seed=11)
    assert (r.ci_lower, r.ci_upper) == (again.ci_lower, again.ci_upper)
    assert r.ci_lower < r.value < r.ci_upper
    assert r.n == 80 and r.n_bootstrap == 400
    no_ci = correlation_with_ci(x, y, method, n_bootstrap=0)
    assert no_ci.value == r.value and no_ci.ci_lower is None


def test_system_level_pearson_hand_computed():
    metric = [[0.2, 0.4], [0.5, 0.7], [0.9, np.nan]]
    human = [[2, 3], [4, 4], [3, 5]]
    mm, hm = system_means(np.array(metric), np.array(human, dtype=float))
    assert mm.tolist() == pytest.approx([0.3, 0.6, 0.9])
    assert hm.tolist() == pytest.approx([2.5, 4.0, 3.0])  # system 3: only the item with a metric value
    r = system_pearson_with_ci(metric, human, n_bootstrap=200, seed=3)
    assert r.value == pytest.approx(0.15 / (0.18 * (7 / 6)) ** 0.5)  # 0.3273268...
    assert r.value == pytest.approx(0.3273268, abs=1e-7)
    assert r.n == 3 and r.method == "pearson_system"
    assert r.ci_lower is not None and r.ci_lower <= r.ci_upper


def test_system_level_ci_resamples_items():
    rng = np.random.default_rng(9)
    quality = np.array([0.2, 0.4, 0.5, 0.7, 0.9])
    metric = quality[:, None] + rng.normal(0, 0.1, (5, 60))
    human = 1 + 4 * quality[:, None] + rng.normal(0, 0.8, (5, 60))
    r = system_pearson_with_ci(metric, human, n_bootstrap=300, seed=1)
    assert r.value > 0.9 and r.ci_lower <= r.value <= r.ci_upper


def test_spearman_interval_equals_ranking_every_resample():
    """The resamples are ranked all at once (copies of an item share its average rank); the interval is
    the one ranking each resampled sample separately gives."""
    import numpy as np

    from mteval_gui.validation.correlation import _pearson, correlation_with_ci, rankdata

    rng = np.random.default_rng(3)
    x = np.round(rng.random(60) * 4) / 4  # many ties
    y = rng.integers(1, 6, 60).astype(float)
    got = correlation_with_ci(x, y, "spearman", n_bootstrap=300, seed=7)
    idx = np.random.default_rng(7).integers(0, 60, size=(300, 60))
    samples = []
    for row in idx:
        r = _pearson(rankdata(x[row]), rankdata(y[row]))
        if r is not None:
            samples.append(r)
    lo, hi = np.percentile(samples, [2.5, 97.5])
    assert (got.ci_lower, got.ci_upper) == (float(lo), float(hi))
    constant = correlation_with_ci([1.0, 1.0, 1.0, 2.0], [1, 2, 3, 4], "spearman", n_bootstrap=200, seed=1)
    assert constant.value is not None  # resamples drawing only the tied items are left out, as before


def test_weighted_tau_b_equals_the_sum_over_all_pairs_with_ties_and_repeated_items():
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, 40).astype(float)  # many ties, as with human ratings
    y = np.round(rng.normal(size=40), 1)
    counts = rng.multinomial(40, np.full(40, 1 / 40), size=30).astype(float)
    sx, sy = np.sign(x[:, None] - x[None, :]), np.sign(y[:, None] - y[None, :])
    num = np.einsum("bi,ij,bj->b", counts, sx * sy, counts)
    den = np.sqrt(np.einsum("bi,ij,bj->b", counts, np.abs(sx), counts)
                  * np.einsum("bi,ij,bj->b", counts, np.abs(sy), counts))
    expected = np.clip(np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan), -1.0, 1.0)
    assert np.array_equal(_tau_b_weighted(x, y, counts), expected, equal_nan=True)
    assert np.isnan(_tau_b_weighted(np.ones(5), np.arange(5.0), np.ones((1, 5)))[0])  # all tied on x: undefined
