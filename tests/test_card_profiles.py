"""A language card's calibrated composite profiles are checked like the rest of the card."""

from __future__ import annotations

import json

from mteval_gui import cards


def _problems(tmp_path, **fields):
    path = tmp_path / "fra.json"
    path.write_text(json.dumps({"code": "fra", "name": "French", **fields}), encoding="utf-8")
    return list(cards.read_card(path).problems)


GOOD = {"base": "B", "weights": {"chrf_plus_plus": 0.6, "code_switching_rate": 0.4},
        "tiers": {"fluent": 0.8, "deployable": 0.6, "functional": 0.4, "emerging": 0.2}}


def test_a_calibrated_profile_is_accepted(tmp_path):
    assert _problems(tmp_path, composite_profiles={"s1": GOOD}, default_composite_profile="s1") == []


def test_what_is_wrong_with_a_profile_is_named(tmp_path):
    bad = {"base": "B", "weights": {"chrf_plus_plus": 0.7, "bleu": 0.1, "code_switching_rate": -0.1},
           "tiers": {"fluent": 0.5, "deployable": 0.6, "superb": 0.9}}
    assert _problems(tmp_path, composite_profiles={"s1": bad}, default_composite_profile="s2") == [
        "composite_profiles.s1.weights: bleu is not a composite input",
        "composite_profiles.s1.weights: a weight is negative or not a number",
        "composite_profiles.s1.tiers: superb is not a tier (fluent, deployable, functional, emerging)",
        "composite_profiles.s1.tiers: thresholds must not rise from fluent down to emerging",
        "default_composite_profile: 's2' is not one of composite_profiles",
    ]
    assert _problems(tmp_path, composite_profiles={"s1": {**GOOD, "weights": {"chrf_plus_plus": 0.5}}}) == [
        "composite_profiles.s1.weights: they sum to 0.5, not 1"]
    assert _problems(tmp_path, composite_profiles={"s1": {**GOOD, "tiers": {"fluent": 1.2}}}) == [
        "composite_profiles.s1.tiers: a threshold is outside [0, 1]"]
