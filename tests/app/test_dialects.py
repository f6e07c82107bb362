"""Reviewers' dialects: agreement within and across dialects; ratings and promoted variants carry the dialect."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import review
from mteval_gui.app.entry_review import load_review_data, review_html
from mteval_gui.app.study import validation_study
from mteval_gui.app.variants import promote_variants, speaker_variants, variant_dialects
from mteval_gui.cli import main
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J
from mteval_gui.validation.study import Rating, dialect_agreement, run_study

SCORES = {"a1": [5, 4, 2, 1], "a2": [5, 4, 2, 2], "b1": [1, 2, 4, 5], "b2": [2, 2, 4, 5], "c": [3, 3, 3, 3]}
DIALECTS = {"a1": "Plains", "a2": "Plains", "b1": "Woods", "b2": "Woods", "c": None}


def rating_list():
    return [Rating("run", f"e{i}", r, x, None, DIALECTS[r]) for r, v in SCORES.items() for i, x in enumerate(v)]


def test_agreement_within_each_dialect_and_across_dialects():
    d = dialect_agreement(rating_list(), "adequacy", n_bootstrap=200)
    # within: the raters of the dialect alone (both pairs of raters agree on 3 of 4 items)
    assert {k: (round(a.alpha, 4), a.units, a.pairable_values) for k, a in d.within.items()} == {
        "Plains": (0.9103, 4, 8), "Woods": (0.9103, 4, 8)}
    # across: every pair of ratings of one item by raters of two dialects (2 x 2 pairs on 4 items)
    assert (round(d.across.alpha, 4), d.across.units, d.across.pairable_values) == (-0.863, 16, 32)
    assert (round(d.across.ci_lower, 4), round(d.across.ci_upper, 4)) == (-0.9143, -0.8355)
    assert d.raters == {"Plains": 2, "Woods": 2} and d.without_dialect == 1
    assert d.to_json()["raters"] == {"Plains": 2, "Woods": 2}


def test_one_rater_of_a_dialect_has_no_within_agreement():
    ratings = [r for r in rating_list() if r.rater in ("a1", "a2", "b1")]
    d = dialect_agreement(ratings, "adequacy", n_bootstrap=0)
    assert d.within["Woods"].alpha is None and d.within["Woods"].units == 0
    assert d.across.units == 8


def test_the_study_reports_dialects_only_when_some_are_known():
    with_dialects = run_study(rating_list(), {}, n_bootstrap=50)
    assert sorted(with_dialects.dialects) == ["adequacy", "fluency"]
    assert with_dialects.to_json()["dialect_agreement"]["adequacy"]["raters"] == {"Plains": 2, "Woods": 2}
    without = run_study([Rating(r.run_id, r.entry_id, r.rater, r.adequacy) for r in rating_list()], {}, n_bootstrap=50)
    assert without.dialects == {} and without.to_json()["dialect_agreement"] == {}


REFS = {"e1": ("I say so", "nititwân"), "e2": ("you leave", "kisipwêhtân"), "e3": ("as I am", "ê-ayâyân"),
        "e4": ("he sleeps", "nipâw")}


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path / "ws.sqlite")
    entries = [Entry(id=k, source=s, reference=r) for k, (s, r) in REFS.items()]
    repo.add_corpus(w, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries))
    repo.import_run(w, Run(corpus_id="c", meta=RunMeta(run_id="sys"), outputs=[
        Output(id=e, predicted=p) for e, p in zip(REFS, ["kititwân", "kisipwêhtân", "ê-ayâyan", "nipâw"],
                                                   strict=True)]))
    for rid, dialect in (("a1", "Plains"), ("a2", "Plains"), ("b1", "Woods"), ("b2", "Woods"), ("c", None)):
        J.add_reviewer(w, Reviewer(reviewer_id=rid, name=rid.upper(), dialect=dialect))
    yield w
    w.close()


def test_ratings_carry_the_reviewers_dialect_and_validate_prints_the_agreement(ws, capsys):
    for rater, values in SCORES.items():
        for i, x in enumerate(values):
            review.record_judgment(ws, Judgment(reviewer_id=rater, run_id="sys", entry_id=f"e{i + 1}", adequacy=x,
                                                fluency=x))
    got = review.ratings(ws, ["sys"])
    assert sorted({(r.rater, r.dialect) for r in got}) == [
        ("a1", "Plains"), ("a2", "Plains"), ("b1", "Woods"), ("b2", "Woods"), ("c", None)]
    study = validation_study(ws, ["sys"], n_bootstrap=100)
    assert round(study.dialects["adequacy"].across.alpha, 4) == -0.863
    assert main(["--db", str(ws.path), "validate", "sys", "--bootstrap", "100"]) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index("agreement within and across dialects (Krippendorff's alpha, ordinal; 95% bootstrap CI):")
    rows = [line.split() for line in out[start + 1:start + 9]]
    assert [r[:4] for r in rows[:3]] == [["adequacy", "within", "Plains", "0.910"],
                                         ["adequacy", "within", "Woods", "0.910"],
                                         ["adequacy", "across", "dialects", "-0.863"]]
    assert out[start + 1].endswith("4 items, 2 reviewers") and out[start + 3].endswith("16 pairs of ratings")
    assert out[start + 4] == "  adequacy  1 reviewer(s) without a dialect left out"
    assert main(["--db", str(ws.path), "validate", "sys", "--bootstrap", "20", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["dialect_agreement"]["fluency"]["raters"] == {"Plains": 2, "Woods": 2}


def test_a_variant_promoted_from_a_speaker_is_marked_with_their_dialect(ws, capsys):
    review.record_judgment(ws, Judgment(reviewer_id="a1", run_id="sys", entry_id="e1", adequacy=2,
                                        payload={"correction": "ê-itwêyân"}))
    review.record_judgment(ws, Judgment(reviewer_id="b1", run_id="sys", entry_id="e3", adequacy=5))
    review.record_judgment(ws, Judgment(reviewer_id="c", run_id="sys", entry_id="e1", adequacy=2,
                                        payload={"correction": "nititwânân"}))
    assert main(["--db", str(ws.path), "variants", "promote", "sys"]) == 0
    out = capsys.readouterr().out
    assert "  + e1: ê-itwêyân  (correction, a1, dialect Plains, run sys)" in out
    assert "  + e3: ê-ayâyan  (adequacy5, b1, dialect Woods, run sys)" in out
    assert "  + e1: nititwânân  (correction, c, run sys)" in out
    # the corpus version records the dialect of each variant
    assert [(v["entry_id"], v["variant"], v["dialect"], v["version"]) for v in speaker_variants(ws, "c")] == [
        ("e1", "ê-itwêyân", "Plains", "1+s1"), ("e3", "ê-ayâyan", "Woods", "1+s1"), ("e1", "nititwânân", None, "1+s1")]
    assert variant_dialects(ws, "c") == {"e1": {"ê-itwêyân": ["Plains"]}, "e3": {"ê-ayâyan": ["Woods"]}}
    assert main(["--db", str(ws.path), "variants", "versions", "c"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:] == ["  + e1: ê-itwêyân  (correction, a1, accepted for Plains)",
                         "  + e3: ê-ayâyan  (adequacy5, b1, accepted for Woods)",
                         "  + e1: nititwânân  (correction, c)"]
    # and the review pane shows it beside the variant
    data = load_review_data(ws, "c", "e1", [("sys", "sys")])
    assert data.variant_dialects == {"ê-itwêyân": ["Plains"]}
    labels = {k: k for k in ("source", "reference", "variants", "output", "error", "no_output", "metrics",
                             "difficulty", "terminology", "phenomena", "spans", "correction")}
    html = review_html(data, blind=False, labels=labels, metric_names={}, verdict_colours={})
    assert ("<p><i>variants</i>: ê-itwêyân <span class=\"dialect\">(Plains)</span> · nititwânân</p>" in html)


def test_promotion_without_dialects_records_none(ws):
    review.record_judgment(ws, Judgment(reviewer_id="c", run_id="sys", entry_id="e2", task="B",
                                        payload={"same_meaning": "Yes", "natural": "Yes"}))
    review.record_judgment(ws, Judgment(reviewer_id="c", run_id="sys", entry_id="e1", adequacy=5))
    [p] = promote_variants(ws, ["sys"])
    assert [(c.entry_id, c.dialect) for c in p.added] == [("e1", None)]
    assert variant_dialects(ws, "c") == {}


def test_the_run_card_lists_the_dialect_of_each_speaker_variant(ws):
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.store.results import load_run_card

    review.record_judgment(ws, Judgment(reviewer_id="b2", run_id="sys", entry_id="e1", adequacy=2,
                                        payload={"correction": "ê-itwêyân"}))
    promote_variants(ws, ["sys"])
    score_workspace_run(ws, "sys", n_bootstrap=10)
    [sv] = load_run_card(ws, "sys").dataset.speaker_variants
    assert (sv["entry_id"], sv["variant"], sv["reviewer_id"], sv["dialect"]) == ("e1", "ê-itwêyân", "b2", "Woods")


def test_a_withdrawn_reviewers_dialect_leaves_the_corpus_version_with_them(ws):
    from mteval_gui.app.consent import withdraw_reviewer

    review.record_judgment(ws, Judgment(reviewer_id="a1", run_id="sys", entry_id="e1", adequacy=2,
                                        payload={"correction": "ê-itwêyân"}))
    review.record_judgment(ws, Judgment(reviewer_id="b1", run_id="sys", entry_id="e3", adequacy=5))
    promote_variants(ws, ["sys"])
    withdraw_reviewer(ws, "a1", "community lead")
    assert [(v["variant"], v["reviewer_id"], v["dialect"]) for v in speaker_variants(ws, "c")] == [
        ("ê-itwêyân", None, None), ("ê-ayâyan", "b1", "Woods")]
    assert variant_dialects(ws, "c") == {"e3": {"ê-ayâyan": ["Woods"]}}


def test_the_same_variant_from_speakers_of_two_dialects_is_accepted_for_both(ws, capsys):
    for rid in ("a1", "a2", "b1"):  # two Plains speakers and a Woods speaker write the same correction
        review.record_judgment(ws, Judgment(reviewer_id=rid, run_id="sys", entry_id="e1", adequacy=2,
                                            payload={"correction": "ê-itwêyân"}))
    assert main(["--db", str(ws.path), "variants", "promote", "sys"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["corpus c: version 1 -> 1+s1; added 1 variant, skipped 1",
                       "  + e1: ê-itwêyân  (correction, a1, dialect Plains, run sys)",
                       "  = e1: ê-itwêyân  (correction, b1, dialect Woods, run sys): also accepted for this dialect"]
    assert repo.get_entry(ws, "c", "e1").variants == ["ê-itwêyân"]
    assert [(v["reviewer_id"], v["dialect"], v.get("also", False)) for v in speaker_variants(ws, "c")] == [
        ("a1", "Plains", False), ("b1", "Woods", True)]
    assert variant_dialects(ws, "c") == {"e1": {"ê-itwêyân": ["Plains", "Woods"]}}
    assert main(["--db", str(ws.path), "variants", "versions", "c"]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "  + e1: ê-itwêyân  (correction, a1, accepted for Plains)",
        "  = e1: ê-itwêyân  (correction, b1, accepted for Woods)"]
    # a speaker who withdraws takes their dialect's mark with them
    from mteval_gui.app.consent import withdraw_reviewer

    withdraw_reviewer(ws, "b1", "community lead")
    assert variant_dialects(ws, "c") == {"e1": {"ê-itwêyân": ["Plains"]}}
