"""Reviewer quality control rules, selection helpers and the projected width of the τ-b interval."""

from __future__ import annotations

import pytest

from mteval_gui.validation.quality import CheckAnswer, flagged, interleave, perturb, reviewer_quality
from mteval_gui.validation.sampling import (
    ItemFeatures,
    informativeness,
    items_for_width,
    mean_reliability,
    percentile_ranks,
    projected_width,
    select,
    tau_interval,
)


def test_perturbations():
    assert perturb("shuffled", "a b c d e", seed=1) == "a e b c d"
    assert perturb("truncated", "a b c d e") == "a b"
    assert perturb("wrong_sentence", "a b", other="x y") == "x y"
    # too short, one repeated word, the same sentence: no check can be made
    assert [perturb("shuffled", "a b c"), perturb("truncated", "a a a"), perturb("shuffled", "a a a a"),
            perturb("wrong_sentence", "a", other=" a ")] == [None, None, None, None]
    with pytest.raises(ValueError, match="unknown attention check 'x'"):
        perturb("x", "a b c d")


def test_checks_come_after_their_real_item():
    assert interleave(5, [0, 3], "s") == [(False, 0), (False, 1), (False, 2), (False, 3), (True, 0), (False, 4),
                                          (True, 1)]


def _a(reviewer, a, real, check="attention"):
    return CheckAnswer(reviewer, check, "shuffled", ("r", "e"), a, None, real, None)


def test_attention_rule_needs_more_than_one_failure_and_a_fifth_of_the_decisive_checks():
    # real item rated 1: not decisive; 2 failed of 10 decisive = 20%: not above the share
    answers = [_a("p", 1, 1)] + [_a("p", 3, 3), _a("p", 4, 3)] + [_a("p", 1, 4)] * 8
    q = reviewer_quality(answers, {})["p"]
    assert (q.checks, q.decisive, q.failed, q.flagged) == (11, 10, 2, False)
    q = reviewer_quality(answers + [_a("p", 5, 5)], {})["p"]
    assert (q.decisive, q.failed, q.flagged) == (11, 3, True)
    assert flagged({"p": q}) == {"p": "inattentive: rated the known-bad item at least as high as the real one in 3 "
                                      "of 11 attention checks (flagged above 1 failed and above 20% of them)"}


def test_a_reviewer_who_ranks_the_items_against_the_others_is_flagged():
    adequacy = {("r", f"e{i}"): {"x": float(5 - i % 5), "y": float(1 + i % 5), "z": float(1 + i % 5),
                                 "w": float(1 + (i % 5) // 2)} for i in range(12)}
    q = reviewer_quality([], adequacy)
    assert {r: (v.shared_items, v.agreement, v.flagged) for r, v in q.items()} == {
        "w": (12, 0.8786, False), "x": (12, -1.0, True), "y": (12, 0.8786, False), "z": (12, 0.8786, False)}
    assert q["x"].reason == ("disagrees with the others: Kendall's τ-b -1.000 with their mean adequacy on 12 shared "
                             "items (below 0.1)")
    few = dict(list(adequacy.items())[:9])  # 9 shared items: too few to judge
    assert reviewer_quality([], few)["x"].flagged is False


def test_percentiles_informativeness_and_strata():
    items = [("s1", "e1"), ("s1", "e2"), ("s2", "e1"), ("s2", "e2")]
    assert percentile_ranks({items[0]: 3.0, items[1]: 1.0, items[2]: 1.0, items[3]: None}) == {
        items[0]: 1.0, items[1]: 0.25, items[2]: 0.25}
    assert percentile_ranks({items[0]: 3.0, items[1]: 1.0}, higher_is_better=False) == {items[0]: 0.0, items[1]: 1.0}
    f = ItemFeatures(percentiles={items[0]: [1.0, 0.0], items[1]: [0.5, 0.5], items[2]: [0.2, 0.2],
                                  items[3]: [0.6, 0.4]}, new_fst={items[1]})
    # separation of e1 0.3, e2 0 -> percentiles 5/6, 1/6 (+1 for the new FST verdict of s1 e2);
    # disagreement std 0.5, 0, 0, 0.1 -> percentiles 1, 1/6, 1/6, 2/3
    assert {i: (round(a, 4), round(b, 4)) for i, (a, b) in informativeness(items, f).items()} == {
        items[0]: (0.8333, 1.0), items[1]: (1.1667, 0.1667), items[2]: (0.8333, 0.1667), items[3]: (0.1667, 0.6667)}
    assert select(items, 3, "informative", 1, f) == [items[1], items[0], items[2]]
    assert select(items, None, "first") == items
    with pytest.raises(ValueError, match="selection 'best' is not one of first, random, stratified, informative"):
        select(items, 1, "best")


def test_projected_width_of_the_tau_interval():
    lo, hi = tau_interval(0.3, 200)
    assert (round(lo, 4), round(hi, 4)) == (0.2136, 0.3817)
    assert tau_interval(0.3, 4) is None
    assert mean_reliability(0.5, 3) == 0.75
    assert items_for_width(0.3, 0.2) == 143
    assert projected_width("m", 0.3, 50, 1.5, 0.5, goal=0.2).to_json() == {
        "metric_id": "m", "tau_b": 0.3, "items": 50, "raters_per_item": 1.5, "width_now": 0.3446,
        "tau_b_at_target": 0.3354, "width_at_target": 0.164, "target_items": 200, "target_raters": 3,
        "goal_width": 0.2, "items_for_goal": 136}


def test_tau_b_from_the_table_is_the_pairwise_tau_b():
    import numpy as np

    from mteval_gui.validation.correlation import kendall_tau_b
    from mteval_gui.validation.quality import tau_b_table

    rng = np.random.default_rng(3)
    for n in (7, 60, 200):
        x = rng.integers(1, 6, n).astype(float)
        y = np.round(x + rng.normal(0, 1.5, n), 1) / 2
        assert round(tau_b_table(x, y), 12) == round(kendall_tau_b(x, y), 12)
    assert tau_b_table([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert tau_b_table([1, 1, 1], [1, 2, 3]) is None
    assert tau_b_table([3], [2]) is None
