"""The analyzer-gap report on plain data: ranking, kinds, speakers' verdicts, GiellaLT exports, before/after."""

from __future__ import annotations

import yaml

from mteval_gui.validation.audits import WordAnswer
from mteval_gui.validation.gaps import (
    NearWords,
    Occurrence,
    Verdicts,
    compare_rates,
    gap_report,
    missing_list,
    morph_test_yaml,
    one_edit,
    speaker_verdicts,
    yaml_scalar,
)


def occ(word, entry, run=None, text=None, initial=False):
    return Occurrence(word, "c", entry, run, text or f"text of {entry}", initial)


def test_one_edit_distance():
    assert one_edit("nipaw", "nipâw") and one_edit("nipâw", "nipâwa") and one_edit("atim", "atm")
    assert not one_edit("atim", "atim") and not one_edit("atim", "mita") and not one_edit("atim", "atimwak")
    near = NearWords(["nipâw", "atim", "Wâpos"])
    assert near.neighbour("nipaw") == "nipâw"
    assert near.neighbour("wapoz") is None  # two edits (case ignored)
    assert near.neighbour("Wâpoz") == "wâpos"
    assert near.neighbour("kotak") is None
    assert near.respelt("nipaw") == "nipâw" and near.respelt("NIPÂW") is None and near.respelt("nipa") is None


def test_words_are_ranked_by_occurrences_with_sides_and_examples():
    occurrences = [occ("kotak", "e2"), occ("êwako", "e1", text="êwako nipâw."), occ("êwako", "e3"),
                   occ("êwako", "e1", run="sys", text="êwako nipâw"), occ("kotak", "e3"), occ("zz", "e4"),
                   occ("êwako", "e4"), occ("kotak", "e5", run="sys")]
    words = gap_report(occurrences, {"êwako": ["êwako+Ipc"]}, {})
    assert [(g.word, g.count, g.references, g.outputs) for g in words] == [
        ("êwako", 4, 3, 1), ("kotak", 3, 2, 1), ("zz", 1, 1, 0)]
    assert words[0].descriptive == ("êwako+Ipc",) and words[1].descriptive == ()
    # references first, three distinct sentences at most
    assert [(o.side, o.entry_id, o.text) for o in words[0].examples] == [
        ("reference", "e1", "êwako nipâw."), ("reference", "e3", "text of e3"), ("reference", "e4", "text of e4")]
    assert words[0].to_json()["examples"][0] == {"corpus_id": "c", "entry_id": "e1", "run_id": None,
                                                 "side": "reference", "text": "êwako nipâw."}


def test_kinds_follow_the_documented_rules_in_order():
    confirmed_name = speaker_verdicts([WordAnswer(("r", "e1", "Maskwa"), "Maskwa", "ana", "Yes", "Name")])
    occurrences = [
        occ("Maskwa", "e1", initial=True),          # speakers: Name
        occ("computer", "e2"),                      # card loanword list
        occ("Edmonton", "e3", initial=True),        # descriptive +Prop (initial: capitalisation would not say)
        occ("nîsta", "e4"),                          # descriptive dialect tag
        occ("nipaaw", "e5"),                        # descriptive: only Err/Orth analyses
        occ("Sarah", "e6", initial=True), occ("Sarah", "e7"),  # capitalised inside a sentence once
        occ("Ottawa", "e8", initial=True),          # capitalised, always first: not a name by capitalisation
        occ("atimw", "e9"),                         # one edit from an accepted word
        occ("e-nipat", "e11"),                      # an accepted word without its diacritics
        occ("êwako", "e10"),                        # nothing applies
    ]
    descriptive = {"Edmonton": ["Edmonton+N+Prop+Sg"], "nîsta": ["nîsta+Pron+Dial/Northern"],
                   "nipaaw": ["nipâw+V+AI+Ind+3Sg+Err/Orth"], "êwako": ["êwako+Ipc"]}
    words = {g.word: (g.kind, g.reason) for g in gap_report(
        occurrences, descriptive, confirmed_name, loanwords=["Computer"], accepted=["atim", "nipâw", "ê-nipât"])}
    assert words == {
        "Maskwa": ("name", "speakers: Name"),
        "computer": ("loanword", "the language card's loanword list"),
        "Edmonton": ("name", "descriptive analyzer: proper noun (+Prop)"),
        "nîsta": ("dialectal", "descriptive analyzer: +Dial/Northern"),
        "nipaaw": ("typo", "descriptive analyzer: +Err/Orth"),
        "Sarah": ("name", "capitalised inside a sentence"),
        "Ottawa": ("unknown", "no rule applies"),
        "atimw": ("typo", "one edit from the accepted word atim"),
        "e-nipat": ("typo", "the accepted word ê-nipât with other diacritics"),
        "êwako": ("unknown", "no rule applies"),
    }


def test_speaker_verdicts_per_occurrence_and_unconfirmed_kinds_do_not_count():
    answers = [
        WordAnswer(("r", "e1", "kotak"), "kotak", "ana", "Yes", "Established"),
        WordAnswer(("r", "e1", "kotak"), "kotak", "ben", "Yes", "Established"),
        WordAnswer(("r", "e2", "kotak"), "kotak", "ana", "No"),
        WordAnswer(("r", "e3", "kotak"), "kotak", "ana", "Unsure"),
        WordAnswer(("r", "e4", "Wayne"), "Wayne", "ana", "No", None),
        WordAnswer(("r", "e5", "Wayne"), "Wayne", "ben", None, "Name"),  # no answer: not counted
    ]
    v = speaker_verdicts(answers)
    assert v["kotak"].to_json() == {"valid": 1, "invalid": 1, "unresolved": 1, "kind": "Established", "raters": 2}
    assert not v["kotak"].confirmed  # as many valid as invalid occurrences
    assert v["Wayne"].to_json() == {"valid": 0, "invalid": 1, "unresolved": 0, "kind": None, "raters": 0}
    # a Name kind on a word speakers did not confirm does not make it a name
    words = gap_report([occ("Wayne", "e4", initial=True)], {}, v)
    assert (words[0].kind, words[0].reason) == ("unknown", "no rule applies")


def test_missing_list_has_the_uniq_c_layout_without_typos():
    words = gap_report([occ("êwako", "e1"), occ("êwako", "e2"), occ("kotak", "e3"), occ("nipaw", "e4")], {}, {},
                       accepted=["nipâw"])
    assert missing_list(words) == "      2 êwako\n      1 kotak\n"


def test_morph_test_yaml_parses_with_the_giellalt_layout():
    yes = [WordAnswer(("r", e, w), w, "ana", "Yes", "Established") for e, w in
           (("e1", "êwako"), ("e2", "kotak"), ("e3", "êkoni"), ("e4", "ewako"))]
    no = [WordAnswer(("r", "e5", "zzq"), "zzq", "ana", "No")]
    descriptive = {"êwako": ["êwako+Ipc"], "kotak": ["kotak+Ipc", "kotak+Pron+Err/Orth"],
                   "ewako": ["êwako+Ipc+Err/Orth"], "zzq": ["zzq+N"]}
    words = gap_report([occ(w, e) for e, w in (("e1", "êwako"), ("e2", "kotak"), ("e3", "êkoni"), ("e4", "ewako"),
                                                ("e5", "zzq"))], descriptive, speaker_verdicts(yes + no))
    text = morph_test_yaml(words, section="crk words speakers confirmed", header=["made from a test"])
    assert text.splitlines()[:7] == [
        "# made from a test", "Config:", "  hfst:", "    Gen: ../../../src/generator-gt-norm.hfst",
        "    Morph: ../../../src/analyser-gt-norm.hfst", "", "Tests:"]
    doc = yaml.safe_load(text)
    assert doc == {"Config": {"hfst": {"Gen": "../../../src/generator-gt-norm.hfst",
                                       "Morph": "../../../src/analyser-gt-norm.hfst"}},
                   "Tests": {"crk words speakers confirmed": {"êwako+Ipc": ["êwako"], "kotak+Ipc": ["kotak"]}}}
    # confirmed without an analysis (no guess, or only a misspelling's): a comment for the maintainers
    assert "    # êkoni: confirmed by 1 speaker(s), no analysis known" in text.splitlines()
    assert "    # ewako: confirmed by 1 speaker(s), no analysis known" in text.splitlines()
    assert "zzq" not in text


def test_morph_test_yaml_without_confirmed_words_still_parses():
    text = morph_test_yaml([], section="crk")
    assert yaml.safe_load(text)["Tests"] == {"crk": {}}


def test_yaml_scalars_that_would_read_differently_are_quoted():
    assert [yaml_scalar(s) for s in ("êwako+Ipc", "PV/e+nipâw+V+AI+Cnj+3Sg", "yes", "1.5", "-x", "a: b", "#x",
                                     "it's")] == [
        "êwako+Ipc", "PV/e+nipâw+V+AI+Cnj+3Sg", '"yes"', '"1.5"', '"-x"', '"a: b"', '"#x"', "it's"]
    for s in ("yes", "1.5", "-x", "a: b", "#x", "it's", "[a]", "~", "null", ".5", "x\ty"):
        assert yaml.safe_load(f"k: {yaml_scalar(s)}") == {"k": s}


def test_compare_rates_before_and_after_with_wilson_intervals():
    judged = [("êwako", "valid")] * 3 + [("kotak", "valid")] * 2 + [("zzq", "invalid")] * 2 + \
             [("nipaw", "invalid"), ("ambig", "unresolved")]
    old = {"êwako": False, "kotak": False, "zzq": False, "nipaw": False}
    new = {"êwako": True, "kotak": False, "zzq": False, "nipaw": True}
    c = compare_rates(judged, old, new)
    assert (c.old.successes, c.old.n, c.new.successes, c.new.n) == (5, 8, 2, 4)
    assert round(c.old.value, 4) == 0.625 and round(c.new.value, 4) == 0.5
    assert (round(c.old.ci_lower, 4), round(c.old.ci_upper, 4)) == (0.3057, 0.8632)
    assert (round(c.new.ci_lower, 4), round(c.new.ci_upper, 4)) == (0.15, 0.85)
    assert (c.fixed, c.newly_accepted_invalid) == (3, 1)


def test_verdicts_default_is_empty():
    assert Verdicts().to_json() == {"valid": 0, "invalid": 0, "unresolved": 0, "kind": None, "raters": 0}
