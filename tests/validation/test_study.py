"""The metric-vs-human study assembled from plain ratings and metric values."""

from __future__ import annotations

import pytest

from mteval_gui.validation.agreement import krippendorff_alpha
from mteval_gui.validation.correlation import kendall_tau_b, pearson_r, spearman_rho
from mteval_gui.validation.study import Rating, agreement, human_means, progress, run_study


def ratings() -> list[Rating]:
    table = {
        # (run, entry): {rater: (adequacy, fluency)}
        ("A", "e1"): {"ana": (5, 5), "ben": (4, 5), "cat": (5, 4)},
        ("A", "e2"): {"ana": (3, 4), "ben": (3, 3), "cat": (2, 3)},
        ("A", "e3"): {"ana": (4, 4), "ben": (5, 4)},
        ("B", "e1"): {"ana": (2, 2), "ben": (1, 2), "cat": (2, 1)},
        ("B", "e2"): {"ana": (1, 1), "ben": (2, 1)},
        ("B", "e3"): {"ana": (3, None)},
        ("C", "e1"): {"ana": (4, 3), "cat": (3, 3)},
        ("C", "e2"): {"ana": (2, 3), "ben": (3, 3), "cat": (3, 2)},
    }
    return [Rating(run, entry, rater, a, f) for (run, entry), per in table.items() for rater, (a, f) in per.items()]


METRIC = {
    "core.chrf": {("A", "e1"): 90.0, ("A", "e2"): 55.0, ("A", "e3"): 70.0, ("B", "e1"): 20.0, ("B", "e2"): 15.0,
                  ("B", "e3"): 40.0, ("C", "e1"): 60.0, ("C", "e2"): 45.0, ("C", "e9"): 99.0},
    "core.exact": {("A", "e1"): 1.0, ("A", "e2"): 0.0, ("A", "e3"): 0.0, ("B", "e1"): 0.0, ("B", "e2"): None,
                   ("B", "e3"): 0.0, ("C", "e1"): 0.0, ("C", "e2"): 0.0},
}


def test_human_means_per_aspect():
    adequacy = human_means(ratings(), "adequacy")
    assert adequacy[("A", "e1")] == pytest.approx(14 / 3)
    assert adequacy[("B", "e3")] == 3.0
    fluency = human_means(ratings(), "fluency")
    assert ("B", "e3") not in fluency
    mean = human_means(ratings(), "mean")
    assert mean[("C", "e1")] == pytest.approx((3.5 + 3.0) / 2)


def test_progress_toward_targets():
    p = progress(ratings())
    assert (p.items_rated, p.items_at_target, p.raters) == (8, 4, 3)
    assert (p.target_items, p.target_raters, p.target_met) == (200, 3, False)
    assert progress(ratings(), target_items=4).target_met


def test_agreement_is_alpha_over_items():
    r = agreement(ratings(), "adequacy", n_bootstrap=200, seed=1)
    units = [[5, 4, 5], [3, 3, 2], [4, 5], [2, 1, 2], [1, 2], [3], [4, 3], [2, 3, 3]]
    assert r.alpha == pytest.approx(krippendorff_alpha(units, "ordinal"))
    assert r.units == 7 and r.pairable_values == 18


def test_run_study_matches_direct_computation():
    study = run_study(ratings(), METRIC, aspect="adequacy", n_bootstrap=200, seed=4)
    assert [m.metric_id for m in study.metrics] == ["core.chrf", "core.exact"]
    chrf = study.metrics[0]
    human = human_means(ratings(), "adequacy")
    items = sorted(human)
    x = [METRIC["core.chrf"][i] for i in items]
    y = [human[i] for i in items]
    assert chrf.kendall.n == 8  # ("C", "e9") has no rating
    assert chrf.kendall.value == pytest.approx(kendall_tau_b(x, y))
    assert chrf.spearman.value == pytest.approx(spearman_rho(x, y))
    # system level: per-run means over rated items
    assert chrf.systems == [
        {
            "run_id": "A",
            "metric_mean": pytest.approx(215 / 3),
            "human_mean": pytest.approx((14 / 3 + 8 / 3 + 4.5) / 3),
            "items": 3,
        },
        {
            "run_id": "B",
            "metric_mean": pytest.approx(25.0),
            "human_mean": pytest.approx((5 / 3 + 1.5 + 3) / 3),
            "items": 3,
        },
        {"run_id": "C", "metric_mean": pytest.approx(52.5), "human_mean": pytest.approx((3.5 + 8 / 3) / 2), "items": 2},
    ]
    assert chrf.system_pearson.value == pytest.approx(
        pearson_r([215 / 3, 25.0, 52.5], [(14 / 3 + 8 / 3 + 4.5) / 3, (5 / 3 + 1.5 + 3) / 3, (3.5 + 8 / 3) / 2])
    )
    assert chrf.kendall.ci_lower <= chrf.kendall.value <= chrf.kendall.ci_upper
    assert len(chrf.points) == 8 and chrf.points[0] == ("A", "e1", 90.0, pytest.approx(14 / 3))
    exact = study.metrics[1]
    assert exact.kendall.n == 7  # the None value is left out
    assert set(study.agreement) == {"adequacy", "fluency"}
    js = study.to_json()
    assert js["progress"]["items_at_target"] == 4 and js["metrics"][0]["metric_id"] == "core.chrf"


def test_unknown_aspect_is_refused():
    with pytest.raises(ValueError, match="aspect"):
        run_study(ratings(), METRIC, aspect="beauty")
