"""Confirming a tier needs speakers' ratings that support it (the rule table of mteval_gui.domain.signoff)."""

from __future__ import annotations

import pytest

from mteval_gui.app import signoff
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.signoff import SIGNOFF_RULES, rules_table
from mteval_gui.store import judgments as J
from tests.store.judgment_helpers import add_corpus, add_run

ENTRIES = [f"e{i}" for i in range(30)]
TIERS = ("fluent", "deployable", "functional", "emerging", "baseline")


@pytest.fixture
def ws(workspace):
    add_corpus(workspace, "c", ENTRIES, target_lang="ewe")
    for tier in TIERS:
        add_run(workspace, tier, "c", tier=tier)
    J.add_reviewer(workspace, Reviewer(reviewer_id="ama", name="Ama", languages=["ewe", "fra"]))
    J.add_reviewer(workspace, Reviewer(reviewer_id="kofi", name="Kofi", languages=["ee"]))  # ISO 639-1 for ewe
    J.add_reviewer(workspace, Reviewer(reviewer_id="zoe", name="Zoe", languages=["fra"]))
    return workspace


def _rate(ws, run_id, reviewer, values):
    for eid, (a, f) in zip(ENTRIES, values, strict=True):
        J.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id=run_id, entry_id=eid, adequacy=a, fluency=f))


GOOD_AMA = [(4, 4) if i % 3 == 0 else (5, 5) for i in range(30)]
GOOD_KOFI = [(4, 4) if i % 3 == 0 else (5, 5) for i in range(29)] + [(5, 4)]


def test_thirty_entries_rated_one_one_by_two_speakers_confirm_no_tier(ws):
    for tier in TIERS:
        _rate(ws, tier, "ama", [(1, 1)] * 30)
        _rate(ws, tier, "kofi", [(1, 1)] * 30)
    with pytest.raises(signoff.SignoffRefused) as refused:
        signoff.signoff(ws, "fluent", "ama", "confirm")
    assert str(refused.value) == (
        "cannot confirm tier fluent of fluent: median adequacy 1.0 and fluency 1.0 of 30 entries rated by 2 "
        "speakers: below 'fluent' (needs ≥ 4 and ≥ 4); Krippendorff's α of adequacy and fluency is not computable "
        "(every rating is the same value, or no entry has two ratings): the ratings cannot show that the speakers "
        "agree. Confirming needs median adequacy ≥ 4 and fluency ≥ 4 from speakers of ewe on at least 30 entries "
        "rated by 2 or more of them, with Krippendorff's α ≥ 0.667 on both scales (`mteval signoff --help` lists "
        "every tier); rejecting the tier stays possible")
    for tier in ("deployable", "functional"):
        with pytest.raises(signoff.SignoffRefused, match=rf"median adequacy 1\.0 and fluency 1\.0 of 30 entries rated "
                                                         rf"by 2 speakers: below '{tier}'"):
            signoff.signoff(ws, tier, "kofi", "confirm")
    for tier in ("emerging", "baseline"):  # the medians reach level 1, but agreement cannot be shown
        with pytest.raises(signoff.SignoffRefused) as refused:
            signoff.signoff(ws, tier, "ama", "confirm")
        assert refused.value.problems == [
            "Krippendorff's α of adequacy and fluency is not computable (every rating is the same value, or no entry "
            "has two ratings): the ratings cannot show that the speakers agree"]
    for tier in TIERS:
        assert J.current_judgments(ws, run_id=tier, task="signoff") == []
        assert signoff.signoff_status(ws, tier)["confirmed"] is None


def test_a_reviewer_who_does_not_speak_the_language_confirms_no_tier(ws):
    # speakers' ratings support "functional"; zoe lists only French and never rated the run
    _rate(ws, "functional", "ama", [(2, 2)] * 15 + [(3, 3)] * 15)
    _rate(ws, "functional", "kofi", [(2, 2)] * 15 + [(3, 3)] * 14 + [(3, 2)])
    with pytest.raises(signoff.SignoffRefused) as refused:
        signoff.signoff(ws, "functional", "zoe", "confirm")
    assert refused.value.problems == [
        "reviewer zoe cannot confirm a tier of functional: their reviewer record does not list its target language ewe"]
    # she rates it too: her ratings do not count and she still cannot confirm
    _rate(ws, "functional", "zoe", [(5, 5)] * 30)
    with pytest.raises(signoff.SignoffRefused, match="reviewer zoe cannot confirm a tier of functional: their "
                                                     "reviewer record does not list its target language ewe"):
        signoff.signoff(ws, "functional", "zoe", "confirm")
    assert signoff.signoff_evidence(ws, "functional").non_speakers == ("zoe",)
    assert signoff.signoff_evidence(ws, "functional").median_adequacy == 2.5
    # a confirmation recorded by her anyway (an imported log) confirms nothing
    J.signoff(ws, "functional", "zoe", "confirm")
    st = signoff.signoff_status(ws, "functional")
    assert st["confirmed"] is None and st["unsupported"] is True and st["confirmed_by"] == []
    # a speaker who rated the run can
    signoff.signoff(ws, "functional", "ama", "confirm")
    assert signoff.signoff_status(ws, "functional")["confirmed_by"] == ["ama"]


def test_a_speaker_who_never_rated_the_run_cannot_confirm_it(ws):
    _rate(ws, "deployable", "ama", GOOD_AMA)
    _rate(ws, "deployable", "kofi", GOOD_KOFI)
    J.add_reviewer(ws, Reviewer(reviewer_id="yao", name="Yao", languages=["ewe"]))
    with pytest.raises(signoff.SignoffRefused) as refused:
        signoff.signoff(ws, "deployable", "yao", "confirm")
    assert refused.value.problems == [
        "reviewer yao has not rated any entry of deployable: a tier is confirmed by a speaker who rated its output"]


def test_ratings_by_non_speakers_do_not_count(ws):
    _rate(ws, "emerging", "ama", GOOD_AMA)
    _rate(ws, "emerging", "zoe", GOOD_KOFI)
    ev = signoff.signoff_evidence(ws, "emerging")
    assert (ev.rated_entries, ev.reviewers, ev.speakers, ev.non_speakers) == (0, 1, ("ama",), ("zoe",))
    assert ev.missing == ["20 more entries rated by at least 2 speakers of ewe (0 of 20 so far)",
                          "1 more speaker of ewe (1 of 2 have rated entries of this run)",
                          "the ratings of zoe do not count: the reviewer record does not list ewe"]


def test_well_supported_fluent_run_is_confirmed(ws):
    _rate(ws, "fluent", "ama", GOOD_AMA)
    _rate(ws, "fluent", "kofi", GOOD_KOFI)
    ev = signoff.signoff_evidence(ws, "fluent")
    assert (ev.median_adequacy, ev.median_fluency, ev.agreement, ev.fluency_agreement) == (5.0, 5.0, 1.0, 0.928)
    assert ev.missing == []
    j = signoff.signoff(ws, "fluent", "kofi", "confirm")
    assert j.payload["evidence"] == {"entries": 30, "rated_entries": 30, "required_entries": 30, "reviewers": 2,
                                     "agreement": 1.0, "language": "ewe", "median_adequacy": 5.0,
                                     "median_fluency": 5.0, "fluency_agreement": 0.928}
    st = signoff.signoff_status(ws, "fluent")
    assert st["confirmed"] is True and st["confirmed_by"] == ["kofi"]
    # the same ratings support the lower tiers too
    for tier in ("deployable", "functional"):
        assert signoff.signoff_evidence(ws, "fluent", tier).missing == []


def test_fluent_ratings_below_four_refuse_fluent_but_support_deployable(ws):
    _rate(ws, "fluent", "ama", [(3, 4) if i % 2 else (4, 3) for i in range(30)])
    _rate(ws, "fluent", "kofi", [(3, 4) if i % 2 else (4, 3) for i in range(30)])
    assert signoff.signoff_evidence(ws, "fluent").missing == [
        "median adequacy 3.5 and fluency 3.5 of 30 entries rated by 2 speakers: below 'fluent' (needs ≥ 4 and ≥ 4)"]
    assert signoff.signoff_evidence(ws, "fluent", "deployable").missing == []


def test_rule_table_is_one_table():
    assert [(r.tier, r.min_adequacy, r.min_fluency, r.min_entries, r.min_speakers, r.min_alpha)
            for r in SIGNOFF_RULES.values()] == [
        ("fluent", 4, 4, 30, 2, 0.667), ("deployable", 3, 3, 30, 2, 0.667), ("functional", 2, 2, 20, 2, 0.667),
        ("emerging", 1, 1, 20, 2, 0.667), ("baseline", 1, 1, 20, 2, 0.667)]
    assert rules_table().splitlines()[:2] == [
        "tier        median adequacy  median fluency          rated entries     speakers per entry  α",
        "fluent      ≥ 4 (Most)       ≥ 4 (Good)              min(30, entries)  ≥ 2                 ≥ 0.667",
    ]


def _check(ws, reviewer, entry_id, adequacy, fluency, n, check="attention", kind="shuffled", run_id="fluent"):
    J.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id=run_id, entry_id=entry_id, task="check",
                                   adequacy=adequacy, fluency=fluency,
                                   payload={"check": check, "check_id": f"rp-1/{n}", "kind": kind}))


def test_an_inattentive_reviewer_is_left_out_of_the_evidence_with_the_reason(ws):
    _rate(ws, "fluent", "ama", GOOD_AMA)
    _rate(ws, "fluent", "kofi", GOOD_KOFI)
    # kofi rates three known-bad outputs of e0-e2 (real: 4, 5, 5) at 5: he fails 3 of 3 attention checks
    for n, eid in enumerate(ENTRIES[:3]):
        _check(ws, "kofi", eid, 5, 5, n)
    # ama rates hers lower than the real items: she passes
    for n, eid in enumerate(ENTRIES[:3]):
        _check(ws, "ama", eid, 1, 2, 10 + n)
    why = ("inattentive: rated the known-bad item at least as high as the real one in 3 of 3 attention checks "
           "(flagged above 1 failed and above 20% of them)")
    ev = signoff.signoff_evidence(ws, "fluent")
    assert (ev.reviewers, ev.speakers, ev.rated_entries, ev.excluded) == (1, ("ama",), 0, (("kofi", why),))
    assert ev.missing == ["30 more entries rated by at least 2 speakers of ewe (0 of 30 so far)",
                          "1 more speaker of ewe (1 of 2 have rated entries of this run)",
                          f"the ratings of kofi do not count: quality control flags them ({why})"]
    assert ev.summary().endswith(f"; left out: kofi ({why})")
    # the check ratings are not ratings of the real entries: ama's median stays that of her task A ratings
    assert (ev.median_adequacy, ev.judged_entries) == (5.0, 30)
    with pytest.raises(signoff.SignoffRefused) as refused:
        signoff.signoff(ws, "fluent", "kofi", "confirm")
    assert refused.value.problems[0] == (
        f"reviewer kofi cannot confirm a tier of fluent: quality control flags them ({why})")
    with pytest.raises(signoff.SignoffRefused):
        signoff.signoff(ws, "fluent", "ama", "confirm")
    assert signoff.signoff_status(ws, "fluent")["evidence"].excluded == (("kofi", why),)


def test_one_failed_attention_check_flags_no_one(ws):
    _rate(ws, "fluent", "ama", GOOD_AMA)
    _rate(ws, "fluent", "kofi", GOOD_KOFI)
    _check(ws, "kofi", "e0", 5, 5, 0)  # 5 >= 4: failed
    _check(ws, "kofi", "e1", 2, 2, 1)  # passed
    _check(ws, "kofi", "e2", 1, 1, 2)  # passed
    ev = signoff.signoff_evidence(ws, "fluent")
    assert (ev.reviewers, ev.excluded, ev.missing) == (2, (), [])
    assert signoff.signoff(ws, "fluent", "kofi", "confirm").payload["evidence"]["reviewers"] == 2
