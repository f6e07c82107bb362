"""The calibration fitter, the tier rule and the evidence rules, on small literal data."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_gui.validation.calibration import (
    CalibrationRefused,
    EvidenceRules,
    HumanScore,
    calibrate,
    esa_direct_score,
    fit_weights,
    line_fit,
    nnls,
    task_a_score,
    tier_of,
    tier_thresholds,
)

SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def test_nnls_matches_the_unconstrained_solution_when_it_is_non_negative():
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert nnls(a, np.array([1.0, 2.0, 3.0])).tolist() == pytest.approx([1.0, 2.0])


def test_nnls_holds_a_coefficient_at_zero_where_least_squares_would_make_it_negative():
    # least squares: x = (1, -1); with x >= 0 the best is x2 = 0 and x1 = argmin |(1,0,1) x1 - (1,-1,0)| = 0.5
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert nnls(a, np.array([1.0, -1.0, 0.0])).tolist() == pytest.approx([0.5, 0.0])


def test_weights_of_an_exact_weighted_sum_are_recovered():
    y = 0.2 + 0.6 * SQUARE[:, 0] + 0.2 * SQUARE[:, 1]
    assert fit_weights(SQUARE, y).tolist() == pytest.approx([0.75, 0.25])


def test_an_input_that_lowers_the_score_gets_weight_zero():
    y = SQUARE[:, 0] - 0.5 * SQUARE[:, 1]
    assert fit_weights(SQUARE, y).tolist() == pytest.approx([1.0, 0.0])


def test_no_weights_when_no_input_rises_with_the_score():
    assert fit_weights(SQUARE, -SQUARE.sum(axis=1)) is None


def test_the_tier_rule():
    # y = 0.1 + 0.6 c: fluent (0.75) at 1.0833 -> clamped to 1; deployable (0.5) at 0.6667;
    # functional (0.25) at 0.25; emerging (0.125) at 0.0417
    a, b = line_fit(np.array([0.0, 0.5, 1.0]), np.array([0.1, 0.4, 0.7]))
    assert (round(a, 10), round(b, 10)) == (0.1, 0.6)
    assert tier_thresholds(a, b) == {"fluent": 1.0, "deployable": 0.6667, "functional": 0.25, "emerging": 0.0417}
    assert tier_thresholds(0.5, 0.0) is None and tier_thresholds(0.5, -0.2) is None
    assert line_fit(np.array([0.3, 0.3]), np.array([0.1, 0.9])) is None


def test_tier_of_reads_the_thresholds_from_the_top():
    t = {"fluent": 0.9, "deployable": 0.6, "functional": 0.3, "emerging": 0.1}
    assert [tier_of(v, t) for v in (0.95, 0.9, 0.6, 0.59, 0.3, 0.1, 0.05, None)] == [
        "fluent", "fluent", "deployable", "functional", "functional", "emerging", "baseline", "unscored"]


def test_human_scores_on_zero_to_one():
    assert task_a_score(5, 5) == 1.0 and task_a_score(1, 1) == 0.0 and task_a_score(4, 3) == 0.625
    assert task_a_score(3, None) == 0.5 and task_a_score(None, None) is None
    assert esa_direct_score(68) == 0.68 and esa_direct_score(120) == 1.0


def _study(n_items: int, raters=("a", "b", "c"), *, noise=0.02, seed=0):
    """Items with two inputs; every rater scores 0.1 + 0.8 (0.7 x1 + 0.3 x2) plus a little noise."""
    rng = np.random.default_rng(seed)
    inputs, scores = {}, []
    for i in range(n_items):
        x1, x2 = rng.uniform(0, 1, 2)
        item = ("r", f"e{i}")
        inputs[item] = {"chrf_plus_plus": x1, "code_switching_rate": x2, "exact_match_rate": 1.0}
        for r in raters:
            scores.append(HumanScore("r", f"e{i}", r, float(0.1 + 0.8 * (0.7 * x1 + 0.3 * x2) + rng.normal(0, noise))))
    return inputs, scores


PROFILE = {"chrf_plus_plus": 0.5, "exact_match_rate": 0.3, "code_switching_rate": 0.2}


def test_calibrate_recovers_weights_and_places_tiers():
    inputs, scores = _study(60)
    cal = calibrate(inputs, scores, PROFILE, profile="B", n_bootstrap=200, seed=1)
    assert cal.keys == ["chrf_plus_plus", "code_switching_rate"]
    assert cal.left_out == {"exact_match_rate": "the same value for every rated item"}
    assert cal.weights["chrf_plus_plus"] == pytest.approx(0.7, abs=0.02)
    lo, hi = cal.weights_ci["chrf_plus_plus"]
    assert lo <= 0.7 <= hi
    # the line is y = 0.1 + 0.8 c: fluent at 0.8125, deployable 0.5, functional 0.1875, emerging 0.03125
    assert cal.thresholds["fluent"] == pytest.approx(0.8125, abs=0.02)
    assert cal.thresholds["functional"] == pytest.approx(0.1875, abs=0.02)
    assert cal.seed_weights == {"chrf_plus_plus": 0.7143, "code_switching_rate": 0.2857}
    assert cal.evidence["items"] == 60 and cal.evidence["raters"] == 3 and cal.evidence["ratings"] == 180
    # 60 items, fewer than the study's 200: calibrated, with the warning
    assert cal.warnings == ["60 items rated by 3+ raters (the study's target is 200): the intervals are wide"]
    doc = cal.to_json()
    assert set(doc) == {"weights", "weights_ci", "tiers", "tau_b", "evidence"}
    assert set(doc["tau_b"]) == {"seed", "calibrated"}


def test_an_excluded_rater_does_not_count():
    inputs, scores = _study(40)
    scores += [HumanScore("r", f"e{i}", "careless", 1.0) for i in range(40)]
    cal = calibrate(inputs, scores, PROFILE, excluded_raters={"careless": "failed 3 of 4 attention checks"},
                    n_bootstrap=100)
    assert cal.evidence["raters"] == 3 and cal.evidence["rater_ids"] == ["a", "b", "c"]
    assert cal.evidence["excluded_raters"] == {"careless": "failed 3 of 4 attention checks"}


def test_refused_below_the_evidence_rules():
    inputs, scores = _study(20)
    with pytest.raises(CalibrationRefused) as exc:
        calibrate(inputs, scores, PROFILE, n_bootstrap=100)
    assert exc.value.reasons == ["20 rated items with every composite input (at least 30 needed)"]
    inputs, scores = _study(40, raters=("a",))
    with pytest.raises(CalibrationRefused) as exc:
        calibrate(inputs, scores, PROFILE, n_bootstrap=100)
    assert exc.value.reasons == [
        "1 rater (at least 2 needed)",
        "agreement α cannot be computed (no item has two ratings, or every rating is the same)"]
    inputs, scores = _study(40, noise=0.3)
    with pytest.raises(CalibrationRefused, match="agreement α 0.[0-3][0-9]* is below 0.4"):
        calibrate(inputs, scores, PROFILE, n_bootstrap=100)
    # a stricter rule set refuses what the default accepts
    inputs, scores = _study(40)
    with pytest.raises(CalibrationRefused, match=r"40 rated items .* \(at least 50 needed\)"):
        calibrate(inputs, scores, PROFILE, n_bootstrap=100, rules=EvidenceRules(min_items=50))


def test_agreement_is_read_on_a_grid_of_0_005():
    # two raters 0.001 apart on every item agree perfectly on the grid (and α stays cheap for fine scores)
    inputs, rated = _study(40, raters=("a",))
    on_grid = [round(s.value * 200) / 200 for s in rated]
    scores = [HumanScore(s.run_id, s.entry_id, "a", v) for s, v in zip(rated, on_grid, strict=True)]
    scores += [HumanScore(s.run_id, s.entry_id, "b", v + 0.001) for s, v in zip(rated, on_grid, strict=True)]
    cal = calibrate(inputs, scores, PROFILE, n_bootstrap=100)
    assert cal.evidence["alpha"] == 1.0
