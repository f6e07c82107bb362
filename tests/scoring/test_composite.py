"""Composite, tiers and caveats (SPEC §5) with the specification's check values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_gui.scoring.composite import (
    MIN_WEIGHT_COVERAGE,
    PROFILE_A,
    PROFILE_B,
    CompositeError,
    choose_profile,
    composite_vectorised,
    compute_caveats,
    compute_composite,
    coverage_differs_caveat,
    normalise,
    not_enough_metrics_caveat,
    quality_tier,
    tier_display,
)


def test_profiles_sum_to_one():
    assert sum(PROFILE_A.values()) == pytest.approx(1.0)
    assert sum(PROFILE_B.values()) == pytest.approx(1.0)


def test_check_value_profile_a():
    r = compute_composite({"fst_acceptance_rate": 1.0, "chrf_plus_plus": 80.0, "exact_match_rate": 0.6})
    assert r.profile == "A"
    assert r.value == 0.8889


def test_check_value_profile_b():
    r = compute_composite({"chrf_plus_plus": 80.0, "exact_match_rate": 0.6})
    assert r.profile == "B"
    assert r.value == 0.7429


def test_breakdown_weight_shares_and_contributions():
    r = compute_composite({"chrf_plus_plus": 80.0, "exact_match_rate": 0.6})
    items = {i.metric: i for i in r.breakdown}
    assert items["chrf_plus_plus"].weight_share == pytest.approx(0.25 / 0.35)
    assert items["chrf_plus_plus"].normalised == pytest.approx(0.8)
    assert items["chrf_plus_plus"].contribution == pytest.approx(0.2 / 0.35)
    assert items["exact_match_rate"].contribution == pytest.approx(0.06 / 0.35)
    assert sum(i.contribution for i in r.breakdown) == pytest.approx(0.26 / 0.35)
    assert "semantic_score" in r.excluded


def test_inverted_metrics_and_clamping():
    r = compute_composite({"chrf_plus_plus": 120.0, "code_switching_rate": 0.2, "hallucination_rate": 1.5})
    items = {i.metric: i for i in r.breakdown}
    assert items["chrf_plus_plus"].normalised == 1.0
    assert items["code_switching_rate"].normalised == pytest.approx(0.8)
    assert items["hallucination_rate"].normalised == 0.0
    # (0.25*1 + 0.10*0.8 + 0.05*0) / 0.40 = 0.825
    assert r.value == 0.825


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_or_inf_is_an_error(bad):
    with pytest.raises(CompositeError):
        compute_composite({"chrf_plus_plus": bad})
    with pytest.raises(CompositeError):
        normalise("exact_match_rate", bad)


def test_no_metric_gives_null_and_unscored():
    r = compute_composite({"bleu": 30.0, "ter": 50.0})
    assert r.value is None
    assert quality_tier(r.value) == "unscored"


def test_rounding_to_four_places():
    r = compute_composite({"chrf_plus_plus": 33.333333, "exact_match_rate": 0.0})
    assert r.value == round((0.25 * 0.33333333) / 0.35, 4)
    assert r.raw_value == pytest.approx(0.25 * 0.33333333 / 0.35)


@pytest.mark.parametrize("value,tier", [
    (0.85, "fluent"), (0.8499, "deployable"), (0.70, "deployable"), (0.6999, "functional"),
    (0.50, "functional"), (0.4999, "emerging"), (0.30, "emerging"), (0.2999, "baseline"), (0.0, "baseline"),
    (1.0, "fluent"),
])
def test_tier_boundaries(value, tier):
    assert quality_tier(value) == tier


def test_tier_display_pending_review():
    assert tier_display("deployable") == "deployable (pending speaker review)"
    assert tier_display("fluent", None) == "fluent (pending speaker review)"
    assert tier_display("fluent", True) == "fluent (confirmed by speaker review)"
    assert tier_display("functional") == "functional"
    assert tier_display(None) == "unscored"


def test_morph_enters_only_with_coverage():
    base = {"fst_acceptance_rate": 1.0, "chrf_plus_plus": 80.0, "exact_match_rate": 0.6,
            "morphological_accuracy": 0.5}
    low = compute_composite({**base, "morph_coverage": 0.2})
    assert low.value == 0.8889
    assert "morphological_accuracy" in low.excluded
    ok = compute_composite({**base, "morph_coverage": 0.25})
    # (0.25 + 0.15*0.5 + 0.12 + 0.03) / 0.60 = 0.475/0.60
    assert ok.value == round(0.475 / 0.60, 4)


def test_profile_choice():
    assert choose_profile({"fst_acceptance_rate": 0.0}) == "A"
    assert choose_profile({"fst_acceptance_rate": None, "chrf_plus_plus": 3}) == "B"


def test_vectorised_composite_equals_scalar():
    scores = {"chrf_plus_plus": 61.2, "exact_match_rate": 0.3, "code_switching_rate": 0.1, "hallucination_rate": 0.05}
    r = compute_composite(scores)
    vec = composite_vectorised({k: np.array([v]) for k, v in scores.items()}, "B")
    assert vec[0] == pytest.approx(r.raw_value, abs=1e-15)
    # a non-finite resample value drops out of that resample only
    vec2 = composite_vectorised(
        {"chrf_plus_plus": np.array([50.0, 50.0]), "exact_match_rate": np.array([np.nan, 1.0])}, "B"
    )
    assert vec2[0] == pytest.approx(0.5)
    assert vec2[1] == pytest.approx((0.25 * 0.5 + 0.1) / 0.35)


def test_source_copy_caveat():
    src = [f"sentence number {i}" for i in range(40)]
    out = [s if i < 20 else f"autre {i}" for i, s in enumerate(src)]
    codes = [c.code for c in compute_caveats(src, out, [f"ref {i}" for i in range(40)], length_ratio=1.0)]
    assert codes == ["source_copy"]
    codes = [
        c.code for c in compute_caveats(src, out[:19] + [f"x{i}" for i in range(21)], ["r"] * 40, length_ratio=1.0)
    ]
    assert "source_copy" not in codes


def test_near_constant_output_caveat():
    src = [f"source {i}" for i in range(40)]
    refs = [f"reference {i}" for i in range(40)]
    out = ["the same sentence"] * 8 + [f"output {i}" for i in range(32)]
    cav = compute_caveats(src, out, refs, length_ratio=1.0)
    assert [c.code for c in cav] == ["near_constant_output"]
    assert cav[0].detail["entries"] == 8
    # a repeated output that is the entries' own reference is not flagged
    refs2 = ["the same sentence"] * 8 + refs[8:]
    assert compute_caveats(src, out, refs2, length_ratio=1.0) == []


def test_length_and_small_sample_caveats():
    codes = [c.code for c in compute_caveats(["a"] * 10, ["b"] * 10, ["c"] * 10, length_ratio=0.5)]
    assert "length_deflation" in codes and "small_sample" in codes
    codes = [c.code for c in compute_caveats(["a"] * 30, [f"b{i}" for i in range(30)], ["c"] * 30, length_ratio=2.0)]
    assert codes == ["length_inflation"]


def test_metric_coverage_differs():
    a = {
        "composite_profile": "A",
        "composite_breakdown": [{"metric": "fst_acceptance_rate"}, {"metric": "chrf_plus_plus"}],
    }
    b = {"composite_profile": "B", "composite_breakdown": [{"metric": "chrf_plus_plus"}]}
    c = coverage_differs_caveat({"r1": a, "r2": b})
    assert c is not None and c.code == "metric_coverage_differs"
    assert c.detail["r2"]["missing"] == ["fst_acceptance_rate"]
    assert coverage_differs_caveat({"r1": a, "r3": a}) is None


@pytest.mark.parametrize(("scores", "coverage"), [
    ({"code_switching_rate": 0.0}, 0.10),  # a failure-mode detector is not quality
    ({"chrf_plus_plus": 80.0}, 0.25),
    ({"code_switching_rate": 0.0, "hallucination_rate": 0.0, "terminology_adherence": 1.0,
      "orthographic_accuracy": 1.0}, 0.25),
    ({"fst_acceptance_rate": 1.0}, 0.25),
])
def test_too_little_of_the_profiles_weight_gives_no_composite_and_says_why(scores, coverage):
    r = compute_composite(scores)
    assert r.value is None and quality_tier(r.value) == "unscored"
    assert r.not_enough_metrics and r.weight_coverage == pytest.approx(coverage)
    caveat = not_enough_metrics_caveat(r)
    assert caveat is not None and caveat.code == "composite_not_enough_metrics"
    assert caveat.message.startswith("not enough metrics for a composite: ")
    assert caveat.detail["threshold"] == MIN_WEIGHT_COVERAGE == 0.30


def test_the_check_values_carry_enough_weight():
    b = compute_composite({"chrf_plus_plus": 80.0, "exact_match_rate": 0.6})
    a = compute_composite({"fst_acceptance_rate": 1.0, "chrf_plus_plus": 80.0, "exact_match_rate": 0.6})
    assert (b.value, b.weight_coverage) == (0.7429, pytest.approx(0.35))
    assert (a.value, a.weight_coverage) == (0.8889, pytest.approx(0.45))
    assert not_enough_metrics_caveat(a) is None and not_enough_metrics_caveat(compute_composite({})) is None


def test_code_switching_alone_in_a_run_has_no_composite_and_no_tier():
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.scoring.runner import ScoringRequest, score_run

    entries = [Entry(id=str(i), source=f"source {i}", reference=f"référence {i}") for i in range(3)]
    corpus = Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="fra"), entries=entries)
    run = Run(meta=RunMeta(run_id="r"), corpus_id="c",
              outputs=[Output(id=str(i), predicted=f"référence {i}") for i in range(3)])
    card = score_run(ScoringRequest(run_id="r", corpus=corpus, run=run, include=["core.code_switching"],
                                    n_bootstrap=20)).run_card
    assert card.scores.code_switching_rate == 0.0
    assert card.scores.composite is None and card.scores.quality_tier == "unscored"
    assert card.composite_breakdown == [] and card.composite_validation is None
    assert "composite" not in card.scores.confidence_intervals
    codes = [c.code for c in card.score_caveats]
    assert "composite_not_enough_metrics" in codes
