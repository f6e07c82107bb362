"""The six ÈwéBench test methods on crafted responses: literal scores (SPEC §10)."""

from __future__ import annotations

import unicodedata

import pytest

from eval_standards.ewe.bench.methods import (
    chosen_letters,
    exact_key,
    function_call_in,
    markdown_found,
    score_composite,
    score_ewe_quality,
    score_exact_match,
    score_format,
    score_keywords,
    score_multiple_choice,
)


def nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


# ----------------------------------------------------------------------------- exact match

@pytest.mark.parametrize("expected,response,score", [
    ("Ama", "Ama", 1.0),
    ("Ama", "Ama.", 1.0),
    ("Ama", "  ama  ", 1.0),
    ("Kofi a ɖu fufu.", "kofi a ɖu fufu", 1.0),
    ("Kofi a ɖu fufu.", "Kofi  a ɖu\nfufu!!", 1.0),
    ("Nye ŋkɔ nye Kofi.", "NYE ŊKƆ NYE KOFI", 1.0),
    ("E-le xɔ me.", "E-le xɔ me", 1.0),
    ("Ama", "Ama le xɔ me.", 0.0),
    ("Ama", "Ama,", 0.0),  # a comma is not sentence punctuation
    ("Ama", "“Ama”", 0.0),  # quotes are kept (SPEC §2)
])
def test_exact_match(expected, response, score):
    assert score_exact_match(expected, response)[0] == score


def test_exact_match_nfd_response_matches():
    assert score_exact_match("Wò ɖu fufu.", nfd("Wò ɖu fufu"))[0] == 1.0


def test_exact_match_does_not_fold_lookalikes_but_says_so():
    score, expl = score_exact_match("ɖu", "Đu")  # U+0110
    assert score == 0.0
    assert expl["folded_match"] is True
    assert "folding" in expl["lines"][-1]


def test_exact_key():
    assert exact_key("  Kofi  le xɔ me ?! ") == "kofi le xɔ me"


# -------------------------------------------------------------------------------- keywords

@pytest.mark.parametrize("keywords,response,score", [
    (["Kofi le ku me"], "Eya ta Kofi le ku me.", 1.0),
    (["Kofi le ku me"], "Kofi le ku", 0.0),
    (["le"], "mele", 0.0),  # whole words only
    (["vɔ"], "Enyo alo vɔ̃", 0.0),  # a combining mark belongs to the word
    (["vɔ̃"], "Enyo alo vɔ̃", 1.0),
    (["ɖe asi", "hafi", "ɖu nu"], "Mì ɖe asi hafi mìaɖu nu.", 2 / 3),
    (["progressive", "continuing"], "It is the PROGRESSIVE aspect", 0.5),
    (["50 CFA"], "Ga susɔe nye 50 CFA.", 1.0),
    (["0 CFA"], "Ga susɔe nye 50 CFA.", 0.0),
    (["Mega", "va", "o"], "Megava o!", 1 / 3),
    (["Kofi"], "", 0.0),
])
def test_keywords(keywords, response, score):
    assert score_keywords(keywords, response)[0] == pytest.approx(score)


def test_keywords_distinct_and_explained():
    score, expl = score_keywords(["Ŋkɔnye", "nye", "nye"], "ŊKƆNYE Kofi")
    assert score == 0.5
    assert expl["found"] == ["Ŋkɔnye"] and expl["missing"] == ["nye"] and expl["distinct"] == 2
    assert "1 repeated keyword counted once" in expl["lines"]


def test_keywords_nfd_and_lookalikes():
    assert score_keywords(["wò"], nfd("Akpe na wò"))[0] == 1.0
    assert score_keywords(["ɖu"], "Đu nu")[0] == 1.0  # Đ U+0110 folded to Ɖ
    assert score_keywords(["Ðo"], "ɖo")[0] == 1.0  # look-alike in the keyword itself
    assert score_keywords(["ʋu"], "Ʊu")[0] == 1.0


# ------------------------------------------------------------------------- multiple choice

@pytest.mark.parametrize("response", [
    "B", "B)", "(B)", "b)", "B.", "B. Lomé", "**B**", "B) Lomé le Togo", "B - Lomé",
    "Answer: B", "answer: b", "The answer is B.", "Réponse : B", "Réponse: (B)", "Ŋuɖoɖo: B", "ŋuɖoɖo nye B",
    "Lomé. Answer: B", "Option B", "Answer: B. Option B is right.",
])
def test_multiple_choice_detects_b(response):
    assert chosen_letters(response) == ["B"]
    assert score_multiple_choice("B", response)[0] == 1.0


@pytest.mark.parametrize("response,letters", [
    ("A) Accra. Answer: B", ["A", "B"]),
    ("Answer: A or Answer: C", ["A", "C"]),
    ("Ama le xɔ me", []),  # a capital A starting a word is not a choice
    ("A ɖe nu", []),
    ("Answer: Because it rains", []),
    ("", []),
])
def test_multiple_choice_letters(response, letters):
    assert chosen_letters(response) == letters


@pytest.mark.parametrize("response", [
    "B (the other answers are wrong)",  # was S: the s of "answers"
    "B — les autres réponses sont fausses",  # was B and S
    "B. Ŋuɖoɖoe nye esia",  # was B and E
    "Ŋuɖoɖo la nye B",  # was none
    "La bonne réponse est la B.", "B est la bonne réponse", "B nye ŋuɖoɖo", "Réponse: **B**",
])
def test_multiple_choice_reads_tokens_not_letters_inside_words(response):
    assert chosen_letters(response) == ["B"]
    assert score_multiple_choice("B", response)[0] == 1.0


@pytest.mark.parametrize("response,letters", [
    ("Answer: I think so", []),  # the pronoun I before a word is not a choice
    ("A-t-il raison ? Réponse : C", ["C"]),  # a letter joined by a hyphen does not lead
    ("e le afi ma", []),  # the Ewe pronoun e
    ("Answers are hard", []),
])
def test_multiple_choice_words_that_look_like_letters(response, letters):
    assert chosen_letters(response) == letters


def test_multiple_choice_several_letters_score_zero():
    score, expl = score_multiple_choice("B", "A) Accra. Answer: B")
    assert score == 0.0
    assert expl["chosen"] == ["A", "B"]
    assert expl["lines"] == ["several letters chosen (A, B): 0 (expected B)"]


def test_multiple_choice_wrong_and_none():
    assert score_multiple_choice("B", "Answer: C")[0] == 0.0
    assert score_multiple_choice("(b)", "B")[0] == 1.0  # expected written "(b)"
    score, expl = score_multiple_choice("B", "Nyemenya o")
    assert score == 0.0 and expl["lines"] == ["no answer letter found (expected B)"]


# --------------------------------------------------------------------------------- format

CALL = '<function_call>get_weather(location="Lomé")</function_call>'


def test_contains_function_call_false_rewards_absence():
    assert score_format({"contains_function_call": False}, "Ŋdi na wò! Aleke nèfɔ?")[0] == 1.0
    assert score_format({"contains_function_call": False}, CALL)[0] == 0.0


def test_contains_function_call_true():
    assert score_format({"contains_function_call": True}, CALL)[0] == 1.0
    assert score_format({"contains_function_call": True}, "Mele Lomé.")[0] == 0.0
    assert score_format({"contains_function_call": True}, "", tool_calls=[{"name": "get_weather"}])[0] == 1.0


@pytest.mark.parametrize("text,how", [
    (CALL, "function-call tag"),
    ("<tool_call>{}</tool_call>", "function-call tag"),
    ('{"function_call": {"name": "f"}}', "function_call / tool_calls JSON key"),
    ('```json\n{"name": "get_weather", "arguments": {"city": "Lomé"}}\n```', "JSON object with name and arguments"),
    ("Mele Lomé, call me later", None),
])
def test_function_call_detection(text, how):
    assert function_call_in(text) == how


def test_agentic_clarification_with_ewe():
    spec = {"contains_function_call": False, "contains_ewe": True}
    score, expl = score_format(spec, "Ŋkeke kae nàdi be mawɔ akpaɖe la?")
    assert score == 1.0
    assert [c["status"] for c in expl["criteria"]] == ["passed", "passed"]
    assert score_format(spec, "Which day?")[0] == 0.5


def test_contains_ewe_both_ways_and_cases():
    assert score_format({"contains_ewe": True}, "EƲEGBE")[0] == 1.0
    assert score_format({"contains_ewe": True}, "Eʋegbe")[0] == 1.0
    assert score_format({"contains_ewe": True}, "Ewe")[0] == 0.0
    assert score_format({"contains_ewe": False}, "Hello")[0] == 1.0
    assert score_format({"contains_ewe": False}, "Ŋdi")[0] == 0.0


def test_lengths():
    assert score_format({"contains_ewe": True, "min_length": 60}, "Eʋegbe")[0] == 0.5
    assert score_format({"min_length": 6, "max_length": 6}, "  Eʋegbe \n")[0] == 1.0
    assert score_format({"max_length": 5}, "Eʋegbe")[0] == 0.0
    # NFD input: length is counted in NFC characters
    assert score_format({"max_length": 3}, nfd("wò."))[0] == 1.0


def test_markdown_elements():
    table = "| Ŋkɔ | Ƒe |\n|---|---|\n| Kofi | 25 |"
    found = markdown_found(table)
    assert found == {"table": True, "header": False, "list": False, "bold": False}
    assert markdown_found("## Akpe\n\n1. Kofi\n2. Ama\n\n**vevi**") == {
        "table": False,
        "header": True,
        "list": True,
        "bold": True,
    }
    assert markdown_found("- Kofi\n- Ama")["list"] is True
    assert markdown_found("2) Ama")["list"] is True
    assert markdown_found("a | b") == {"table": False, "header": False, "list": False, "bold": False}
    score, expl = score_format({"contains_ewe": True, "markdown_elements": ["table", "bold"]}, table)
    assert score == 0.75  # contains_ewe 1, markdown 1/2
    md = [c for c in expl["criteria"] if c["criterion"] == "markdown_elements"][0]
    assert md["status"] == "partial" and md["observed"] == ["table"] and md["missing"] == ["bold"]


def test_unknown_and_judged_criteria_are_listed_unscored():
    spec = {"contains_ewe": True, "min_length": 40, "proverb_count": 3, "rhyme": True}
    score, expl = score_format(spec, "Ŋdi")
    assert score == 0.5
    unscored = {c["criterion"]: c["reason"] for c in expl["criteria"] if c["status"] == "unscored"}
    assert unscored == {"proverb_count": "whether a passage is a proverb needs a reader",
                        "rhyme": "format criterion 'rhyme' is not defined by the methodology; listed as unscored"}
    assert expl["lines"][0] == "format criteria passed 1/2; unscored: proverb_count, rhyme"


FOUR_SENTENCES = "Ame si mele ŋutinya me o la, menya nu o. Esia nye nyateƒe. Míaƒe tɔgbuiwo gblɔe. Akpe."


def test_max_sentences_fails_a_four_sentence_answer():
    spec = {"contains_ewe": True, "min_length": 20, "max_sentences": 1}  # the real if_format_02
    score, expl = score_format(spec, FOUR_SENTENCES)
    assert score == pytest.approx(2 / 3)
    crit = {c["criterion"]: c for c in expl["criteria"]}
    assert (crit["max_sentences"]["observed"], crit["max_sentences"]["status"]) == (4, "failed")
    assert score_format(spec, "Ame si mele ŋutinya me o la, menya nu o.")[0] == 1.0


@pytest.mark.parametrize("spec,response,score", [
    ({"max_word_count": 5}, "Ŋdi na wò, Kofi kple Ama!", 0.0),  # 6 words
    ({"max_word_count": 6}, "Ŋdi na wò, Kofi kple Ama!", 1.0),
    ({"list_item_count": 3}, "Atikutsetsewo:\n- amangoti\n- akɔɖu\n* adodo", 1.0),
    ({"list_item_count": 5}, "- amangoti\n- akɔɖu\n- adodo", 0.0),
    ({"list_item_count": 2}, "1. amangoti\n2) akɔɖu", 1.0),
    ({"numbered_list_items": 3}, "1. a\n2. b\n3. c", 1.0),
    ({"numbered_list_items": 3}, "- a\n- b\n- c", 0.0),
    ({"starts_with": "Nyateƒe"}, "Nyateƒe, ame sia nye nyateƒetɔ.", 1.0),
    ({"starts_with": "Nyateƒe"}, "**NYATEƑE** la, ...", 1.0),  # case and markup do not matter
    ({"starts_with": "Nyateƒe"}, "Le nyateƒe me, ...", 0.0),
    ({"starts_with": "Nyateƒe"}, "Nyateƒetɔe", 0.0),  # a whole word
    ({"no_french": True}, "Dukɔwo me tɔwo katã sɔ.", 1.0),
    ({"no_french": True}, "Dukɔwo katã sɔ, mais avec une différence.", 0.0),
    ({"has_pro_con": True}, "Nu nyo: ... Nu vɔ̃: ...", 1.0),
    ({"has_pro_con": True}, "Pour : a, b. Contre : c, d.", 1.0),
    ({"has_pro_con": True}, "Nu nyo: a, b, c.", 0.0),
    ({"must_ask_clarification": True}, "Nu ka ŋue nèle nu ƒom tsoe?", 1.0),
    ({"must_ask_clarification": True}, "Mekpɔ xɔ aɖe.", 0.0),
])
def test_criteria_of_the_real_suite(spec, response, score):
    assert score_format(spec, response)[0] == score


def test_criteria_observations():
    _, expl = score_format({"numbered_list_items": 7, "no_french": True, "has_pro_con": True},
                           "1. nyo\n2. vɔ̃\n3. avec")
    crit = {c["criterion"]: c for c in expl["criteria"]}
    assert crit["numbered_list_items"]["detail"] == "3 numbered items (1, 2, 3)"
    assert crit["no_french"]["observed"] == ["avec"]
    assert crit["has_pro_con"]["observed"] == {"for": ["nyo"], "against": ["vɔ̃"]}


@pytest.mark.parametrize("spec", [{"no_french": False}, {"max_sentences": -1}, {"starts_with": ""},
                                  {"has_pro_con": "yes"}])
def test_invalid_values_of_the_new_criteria_are_unscored(spec):
    score, expl = score_format(spec, "Ŋdi")
    assert score is None
    assert [c["status"] for c in expl["criteria"]] == ["unscored"]


def test_unknown_markdown_element_is_unscored_and_invalid_values_too():
    score, expl = score_format({"markdown_elements": ["table", "italic"], "min_length": "long"}, "text")
    assert score == 0.0
    md = [c for c in expl["criteria"] if c["criterion"] == "markdown_elements"][0]
    assert md["unscored"] == ["italic"]
    assert [c["criterion"] for c in expl["criteria"] if c["status"] == "unscored"] == ["min_length"]


def test_format_with_no_checkable_criterion_is_none():
    assert score_format({"neutrality": True}, "Nyateƒe")[0] is None
    assert score_format({"markdown_elements": ["italic"]}, "*Nyateƒe*")[0] is None


# --------------------------------------------------------------------- ewe quality, composite

def test_ewe_quality_method():
    score, expl = score_ewe_quality("Eʋegbe")
    assert score == 0.3
    assert expl["components"]["ewe_letters"]["points"] == 0.3
    assert expl["lines"][0] == "Ewe quality 0.30"


def test_composite_is_the_mean_of_three():
    response = "Ame aɖe wɔ dɔ le afi sia. Akpe!"
    score, expl = score_composite(["ame", "dɔ"], {"contains_ewe": True, "min_length": 10}, response)
    comps = expl["components"]
    assert comps["keywords"]["score"] == 1.0
    assert comps["ewe_quality"]["score"] == 0.85  # 0.3 + 5 words 0.25 + 0.2 + 0.1
    assert comps["format"]["score"] == 1.0
    assert score == pytest.approx((1.0 + 0.85 + 1.0) / 3)


def test_composite_french_answer():
    response = "Le proverbe parle de la responsabilité et de l'effort personnel dans la vie, avec une leçon pour tous."
    score, expl = score_composite(["responsabilité", "effort personnel", "autonomie"],
                                  {"contains_ewe": True, "min_length": 60}, response)
    comps = expl["components"]
    assert comps["keywords"]["score"] == pytest.approx(2 / 3)
    # quality: no Ewe letter; common 'le'; French dans avec une pour tous et (6) -> -0.2; 1 sentence; long
    assert comps["ewe_quality"]["components"]["french_words"]["count"] == 6
    assert comps["ewe_quality"]["score"] == 0.0  # 0.05 - 0.2 + 0.1 clamped
    assert comps["format"]["score"] == 0.5
    assert score == pytest.approx((2 / 3 + 0.0 + 0.5) / 3)
