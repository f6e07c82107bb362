"""The Plains Cree linter's and semantic validator's explanations in French (the plugin's catalog)."""

from __future__ import annotations

import pytest

from eval_standards.crk.linter import CrkLinter
from mteval_gui.app.messages import detail_text, localized_detail


def test_linter_explanations_in_french_and_english():
    linter = CrkLinter()
    d = linter.lint_entry(["ê-kî-wâpamât atim"], "atim ê kī wâpamât").to_detail()
    assert d["explanation"] == ("WORD_ORDER: output order: atim ê-kî-wâpamât; reference order: ê-kî-wâpamât atim; "
                                "LONG_VOWEL_MACRON: ê kī wâpamât / ê-kî-wâpamât: macron vs circumflex long vowels; "
                                "ORTHOGRAPHIC: ê kī wâpamât / ê-kî-wâpamât: preverb written apart vs hyphenated")
    assert detail_text(d, "explanation", "fr") == (
        "WORD_ORDER : ordre de la sortie : atim ê-kî-wâpamât ; ordre de la référence : ê-kî-wâpamât atim ; "
        "LONG_VOWEL_MACRON : ê kī wâpamât / ê-kî-wâpamât : voyelles longues notées par un macron ou par un accent "
        "circonflexe ; ORTHOGRAPHIC : ê kī wâpamât / ê-kî-wâpamât : préverbe écrit séparé ou avec trait d’union")
    assert detail_text(d, "explanation", "en") == d["explanation"]
    assert detail_text(d, "matched", "fr") == "référence"
    assert [f["note"] for f in localized_detail(d, "fr")["findings"]][0] == (
        "ordre de la sortie : atim ê-kî-wâpamât ; ordre de la référence : ê-kî-wâpamât atim")
    miss = linter.lint_entry(["ê-kî-wâpamât atim", "atim"], "mistik").to_detail()
    assert detail_text(miss, "explanation", "fr") == (
        "mots de la référence sans contrepartie : atim ; mots de la sortie sans contrepartie : mistik")
    assert detail_text(miss, "matched", "fr") == "variante 1"
    exact = linter.lint_entry(["nipâw", "nipāw"], "Nipāw.").to_detail()
    assert detail_text(exact, "explanation", "fr") == ("mots identiques (la casse, la forme Unicode ou la "
                                                        "ponctuation en bord de mot diffèrent) à la variante "
                                                        "acceptée 1")


def test_a_template_the_catalog_lacks_is_shown_in_english():
    detail = {"explanation": "WORD_ORDER: something new",
              "explanation_msg": {"template": "{cls}: {note}", "args": {
                  "cls": "WORD_ORDER", "note": {"template": "something {what}", "args": {"what": "new"}}}}}
    assert detail_text(detail, "explanation", "fr") == "WORD_ORDER : something new"
    assert detail_text({"explanation": "no message"}, "explanation", "fr") == "no message"
    assert detail_text(detail, "explanation", "de") == "WORD_ORDER: something new"


@pytest.mark.shared_data
def test_semantic_explanations_in_french(validator_fixture):
    v = validator_fixture
    d = v.validate("I sleep", ["ninipân"], "nipâw").to_detail()
    assert d["explanation"] == ("1 of 1 meaning units rendered; form issues: nipâw: other inflection than ninipân "
                                "(nipâw+V+AI+Ind+3Sg vs nipâw+V+AI+Ind+1Sg)")
    assert detail_text(d, "explanation", "fr") == (
        "unités de sens rendues : 1 sur 1 ; problèmes de forme : nipâw : autre flexion que ninipân "
        "(nipâw+V+AI+Ind+3Sg contre nipâw+V+AI+Ind+1Sg)")
    wrong = v.validate("he/she sleeps", ["nipâw"], "he sleeps").to_detail()
    assert detail_text(wrong, "explanation", "fr") == (
        "unités de sens rendues : 0 sur 2 ; il manque : nipâw ; en trop : sleeps")
    assert detail_text(wrong, "grammar", "fr") == ["he : mot grammatical anglais recopié de la source"]
    assert [p.get("note") for p in localized_detail(wrong, "fr")["pairs"]] == [
        "mot grammatical anglais venu de la source", "recopié de la source"]
    open_ = v.validate("now he/she sleeps", ["anohc nipâw"], "anohc atim").to_detail()
    assert detail_text(open_, "explanation", "fr") == (
        "entre INCOMPLETE et VALID : dépend de mots que le dictionnaire ne glose pas ; "
        "non déterminable (pas de glose) : nipâw / atim")
    valid = v.validate("he/she sleeps", ["nipâw"], "nipāw").to_detail()
    assert detail_text(valid, "explanation", "fr") == "une variante acceptable de la référence : LONG_VOWEL_MACRON"


@pytest.fixture(scope="module")
def validator_fixture():
    from eval_standards.crk.glosses import load_glosses
    from eval_standards.crk.semantic import CrkSemanticValidator
    from eval_standards.crk.wordlists import load_wordlists
    from mteval_gui.fst import Analyzer
    from tests.conftest import SHARED_DATA
    from tests.standards.test_crk_semantic import DESCRIPTIVE, GLOSSES, STRICT

    if not (SHARED_DATA / STRICT).is_file():
        pytest.skip("shared data not available")
    lists = load_wordlists()
    glosses = load_glosses([SHARED_DATA / GLOSSES], lists.fold_chars)
    strict, desc = Analyzer.load(SHARED_DATA / STRICT), Analyzer.load(SHARED_DATA / DESCRIPTIVE)
    return CrkSemanticValidator(lists, glosses, lambda f: strict.analyse(f).analyses,
                                lambda f: desc.analyse(f).analyses)
