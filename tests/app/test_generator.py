"""Generator-assisted correction: neighbouring paradigm cells, ranking, the corrected output."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.generator import (
    CorrectionHelper,
    corrected_output,
    edit_distance,
    entry_suggestions,
    neighbour_analyses,
    suggest_for_word,
)
from mteval_gui.cards import load_card
from mteval_gui.domain.corpus import Entry
from mteval_gui.fst.analyzer import Analyzer
from tests.conftest import SHARED_DATA
from tests.fst._support import install_crk


class FakeGenerator:
    """A generator as a table: analysis -> forms."""

    def __init__(self, table: dict[str, tuple[str, ...]]):
        self.table = table

    def lookup_strings(self, analysis: str) -> tuple[str, ...]:
        return self.table.get(analysis, ())


def test_edit_distance():
    assert edit_distance("itwêwak", "itwêw") == 2
    assert edit_distance("nititwân", "itwêwak") == 5
    assert edit_distance("", "abc") == 3


def test_neighbours_change_one_tag_of_one_feature_set():
    features = [["1Sg", "2Sg", "3Sg"], ["Ind", "Cnj"]]
    assert neighbour_analyses("itwêw+V+AI+Ind+1Sg", features) == [
        ("itwêw+V+AI+Cnj+1Sg", "Ind → Cnj"), ("itwêw+V+AI+Ind+2Sg", "1Sg → 2Sg"), ("itwêw+V+AI+Ind+3Sg", "1Sg → 3Sg")]
    assert neighbour_analyses("atim+N+A+Sg", features) == []


def test_gold_forms_first_then_cells_by_closeness_and_never_the_word_as_written():
    gen = FakeGenerator({"x+V+1Sg": ("nixan", "nixân"), "x+V+2Sg": ("kixan",), "x+V+3Sg": ("xaw",),
                         "x+V+3Pl": ("xawak",)})
    s = suggest_for_word("xawak", "x+V+1Sg", gen, [["1Sg", "2Sg", "3Sg", "3Pl"]], reason="other_analysis")
    assert [(f.form, f.gold, f.distance, f.changed) for f in s.forms] == [
        ("nixan", True, 4, None), ("nixân", True, 5, None), ("xaw", False, 2, "1Sg → 3Sg"),
        ("kixan", False, 4, "1Sg → 2Sg")]


def test_corrected_output_replaces_the_word_keeping_punctuation():
    assert corrected_output("êkwa itwêwak.", "itwêwak", "nititwân") == "êkwa nititwân."
    assert corrected_output("itwêwak", "itwêwak", "nititwân") == "nititwân"
    assert corrected_output("atim", "itwêwak", "nititwân") == "atim"


def test_words_of_the_gold_inflection_or_without_gold_need_nothing():
    gen = FakeGenerator({})
    entry = Entry(id="e", source="I say so", reference="nititwân")
    assert entry_suggestions(entry, "itwêwak", None, gen, None) == []  # type: ignore[arg-type]


def test_without_a_generator_installed_there_are_no_suggestions(tmp_path):
    helper = CorrectionHelper(tmp_path)
    entry = Entry(id="e", source="I say so", reference="nititwân",
                  expected_morphology={"nititwân": "itwêw+V+AI+Ind+1Sg"})
    assert helper.suggestions("crk", entry, "itwêwak") is None


@pytest.mark.shared_data
def test_every_wrong_person_output_gets_a_reference_form_first(tmp_path):
    """On the shared wrong-person run, the first form offered is the reference or an accepted
    variant for every entry whose output is not already the gold form."""
    base = tmp_path / "analyzers"
    install_crk(SHARED_DATA, base)
    helper = CorrectionHelper(base)
    card = load_card("crk")
    strict, generator = helper.analyzers("crk", card)
    assert isinstance(generator, Analyzer) and generator.name == "crk-strict-generator.hfstol"
    folder = SHARED_DATA / "crk" / "verbforms"
    entries = {e.id: e for e in (Entry(**json.loads(x)) for x in (folder / "corpus.jsonl").read_text("utf-8")
                                 .splitlines() if x)}
    outputs = [json.loads(x) for x in (folder / "runs" / "wrong-person.jsonl").read_text("utf-8").splitlines()[1:]]
    first_ok = needing = 0
    for o in outputs:
        e = entries[o["id"]]
        got = entry_suggestions(e, o["predicted"], strict, generator, card)
        if o["predicted"] == e.reference:
            assert got == []
            continue
        needing += 1
        first_ok += got[0].forms[0].form in e.references() and got[0].forms[0].gold
    assert (needing, first_ok) == (439, 439)
    (word,) = entry_suggestions(entries["crk-v0001"], "itwêwak", strict, generator, card)
    assert [f.form for f in word.forms][:3] == ["nititwân", "itwêw", "itwêyiwa"]
    # a syllabic output is read through the card's transliteration
    (word,) = entry_suggestions(entries["crk-v0001"], "ᐃᑘᐘᐠ", strict, generator, card)
    assert (word.token, word.analyses, word.forms[0].form) == ("ᐃᑘᐘᐠ", ("itwêw+V+AI+Ind+3Pl",), "nititwân")


@pytest.mark.shared_data
@pytest.mark.parametrize("backend", ["hfst", "pyhfst"])
def test_the_generator_is_pinned_and_read_with_either_backend(tmp_path, monkeypatch, backend):
    monkeypatch.setenv("MTEVAL_FST_BACKEND", backend)
    base = tmp_path / "analyzers"
    install_crk(SHARED_DATA, base)
    entry = Entry(id="e", source="I say so", reference="nititwân",
                  expected_morphology={"nititwân": "itwêw+V+AI+Ind+1Sg"})
    helper = CorrectionHelper(base)
    (word,) = helper.suggestions("crk", entry, "itwêwak")
    assert word.forms[0].form == "nititwân"
    assert helper.analyzers("crk", load_card("crk"))[1].backend == backend
    # a generator that is not the file the card pins is not used, and the helper says why
    card = load_card("crk").model_copy(deep=True)
    card.analyzers.sha256["crk-strict-generator.hfstol"] = "0" * 64
    other = CorrectionHelper(base)
    assert other.suggestions("crk", entry, "itwêwak", card) is None
    assert "the generator analyzer for crk cannot be used" in other.problems["crk"]
