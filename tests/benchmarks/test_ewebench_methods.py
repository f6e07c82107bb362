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


def test_unknown_criteria_are_listed_unscored_and_the_suites_judged_ones_are_scored():
    spec = {"contains_ewe": True, "min_length": 40, "proverb_count": 3, "rhyme": True}
    score, expl = score_format(spec, "Ŋdi")
    assert score == pytest.approx(1 / 3)
    unscored = {c["criterion"]: c["reason"] for c in expl["criteria"] if c["status"] == "unscored"}
    assert unscored == {"rhyme": "format criterion 'rhyme' is not defined by the methodology; listed as unscored"}
    assert expl["lines"][0] == "format criteria passed 1/3; unscored: rhyme"
    assert expl["lines"][3] == "proverb_count = 3: failed (heuristic check: no Ewe quoted passage or list item)"


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
    assert score_format({"neutrality": False}, "Nyateƒe")[0] is None
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


# ------------------------------------------------- heuristic criteria (proverbs, answers, stance, role)

def _criterion(spec, response, key):
    _, expl = score_format(spec, response)
    return next(c for c in expl["criteria"] if c["criterion"] == key), expl


PROVERBS_QUOTED = (
    "Lãmeme nye nu vevi le agbe me. Míaƒe tɔgbuiwo gblɔ be:\n"
    "1. «Ati ɖeka mate ŋu awɔ ave o» («Un seul arbre ne fait pas une forêt»)\n"
    "2. «Nu nyui mehiã adzɔ o» (« Une bonne chose n'a pas besoin de publicité »)\n"
    "3. “Ame ɖeka ƒe ta mewɔa takpekpe o” (“A single head does not hold a council”)\n"
    "Lo siawo fia be ɖekawɔwɔ kple lãmesẽ le vevie. «Ati ɖeka mate ŋu awɔ ave o»!"
)


def test_proverb_count_counts_distinct_ewe_quotations_not_their_translations():
    spec = {"contains_ewe": True, "proverb_count": 3, "min_length": 50}  # the real if_format_07
    score, expl = score_format(spec, PROVERBS_QUOTED)
    assert score == 1.0
    crit = next(c for c in expl["criteria"] if c["criterion"] == "proverb_count")
    assert crit["validation"] == "heuristic" and crit["status"] == "passed" and crit["observed"] == 3
    assert crit["found_in"] == "quoted"
    assert crit["passages"] == ["Ati ɖeka mate ŋu awɔ ave o", "Nu nyui mehiã adzɔ o",
                                "Ame ɖeka ƒe ta mewɔa takpekpe o"]  # the repeated first one counts once
    assert crit["not_counted"] == ["Un seul arbre ne fait pas une forêt",
                                   "Une bonne chose n'a pas besoin de publicité",
                                   "A single head does not hold a council"]
    assert expl["lines"][2] == (
        "proverb_count = 3: passed (heuristic check: 3 Ewe quoted passages: «Ati ɖeka mate ŋu awɔ ave o», "
        "«Nu nyui mehiã adzɔ o», «Ame ɖeka ƒe ta mewɔa takpekpe o»; quoted but not Ewe, not counted: "
        "«Un seul arbre ne fait pas une forêt», «Une bonne chose n'a pas besoin de publicité», "
        "«A single head does not hold a council»)")
    # two proverbs where three are asked for
    two = "\n".join(PROVERBS_QUOTED.splitlines()[:3])
    crit, _ = _criterion(spec, two, "proverb_count")
    assert (crit["observed"], crit["status"]) == (2, "failed")


@pytest.mark.parametrize("response,found_in,passages", [
    # numbered items, a translation in parentheses left out
    ("Lo etɔ̃:\n1. Ati ɖeka mate ŋu awɔ ave o (Un seul arbre ne fait pas une forêt)\n"
     "2. **Ame ɖeka ƒe ta mewɔa takpekpe o**\n3) Nu nyui mehiã adzɔ o",
     "numbered", ["Ati ɖeka mate ŋu awɔ ave o", "Ame ɖeka ƒe ta mewɔa takpekpe o", "Nu nyui mehiã adzɔ o"]),
    # bullets, when no numbered item is Ewe
    ("- Ati ɖeka mate ŋu awɔ ave o\n- Ame ɖeka ƒe ta mewɔa takpekpe o\n* Nu nyui mehiã adzɔ o",
     "bulleted", ["Ati ɖeka mate ŋu awɔ ave o", "Ame ɖeka ƒe ta mewɔa takpekpe o", "Nu nyui mehiã adzɔ o"]),
    # single quotes between non-letters; the apostrophe of "n'a" is not a quote
    ("Lo gbãtɔ: 'Ati ɖeka mate ŋu awɔ ave o'. Lo evelia: ‘Nu nyui mehiã adzɔ o’. Lo etɔ̃lia: "
     "\"Ame ɖeka ƒe ta mewɔa takpekpe o\" — ce qui n'a pas de prix.",
     "quoted", ["Ati ɖeka mate ŋu awɔ ave o", "Nu nyui mehiã adzɔ o", "Ame ɖeka ƒe ta mewɔa takpekpe o"]),
])
def test_proverb_count_list_items_and_quote_styles(response, found_in, passages):
    crit, _ = _criterion({"proverb_count": 3}, response, "proverb_count")
    assert (crit["status"], crit["found_in"], crit["passages"]) == ("passed", found_in, passages)


@pytest.mark.parametrize("response,observed", [
    # French proverbs, quoted and listed: none is Ewe
    ("Voici trois proverbes :\n1. « Petit à petit, l'oiseau fait son nid »\n2. « Qui va lentement va sûrement »\n"
     "3. « L'union fait la force »", 0),
    # English list
    ("1. Many hands make light work\n2. Unity is strength\n3. Slow and steady wins the race", 0),
    # one-word quotations ("lo") are not passages
    ("«lo» kple «loɖo» nye nya siwo ku ɖe lowo ŋu.", 0),
    ("", 0),
])
def test_proverb_count_fails_without_ewe_passages(response, observed):
    crit, _ = _criterion({"proverb_count": 3}, response, "proverb_count")
    assert (crit["observed"], crit["status"], crit["found_in"]) == (observed, "failed", None)


def test_proverb_count_zero_and_explanation_without_passages():
    crit, expl = _criterion({"proverb_count": 0}, "Lãmeme le vevie na ame sia ame.", "proverb_count")
    assert crit["status"] == "passed"
    assert expl["lines"][1] == "proverb_count = 0: passed (heuristic check: no Ewe quoted passage or list item)"
    crit, expl = _criterion({"proverb_count": 1}, "«Ati ɖeka mate ŋu awɔ ave o»", "proverb_count")
    assert expl["lines"][1] == "proverb_count = 1: passed (heuristic check: 1 Ewe quoted passage: " \
                               "«Ati ɖeka mate ŋu awɔ ave o»)"


@pytest.mark.parametrize("response,answers,found_in", [
    ("Ŋkɔnye nye Yawo. Ŋkɔnye enye Yawo. Nyee nye Yawo.", ["Yawo", "Yawo", "Yawo"], "naming phrases"),
    ("Nye ŋkɔ nye Yawo, eye Yawo nye ŋkɔnye le afi sia hã.", ["Yawo", "Yawo"], "naming phrases"),
    ("Yawo.", ["Yawo"], "lone names"),  # the prompt asks for one name only
    ("1. Ŋkɔwò ɖe? — Yawo\n2. Wò ŋkɔe nye? — **Yawo**\n3. Ame kae nènye? — Yawo Mensah",
     ["Yawo", "Yawo", "Yawo Mensah"], "lone names"),
    ("Je m'appelle Yawo. Mon nom est Yawo, et je suis Yawo.", ["Yawo", "Yawo", "Yawo"], "naming phrases"),
    ("My name is Yawo. I'm Yawo; call me Yawo.", ["Yawo", "Yawo", "Yawo"], "naming phrases"),
])
def test_answer_consistency_passes_when_the_answers_agree(response, answers, found_in):
    crit, _ = _criterion({"contains_ewe": True, "answer_consistency": True}, response, "answer_consistency")
    assert (crit["status"], crit["observed"], crit["found_in"], crit["validation"]) == (
        "passed", answers, found_in, "heuristic")


@pytest.mark.parametrize("response,answers,line", [
    ("Ŋkɔnye nye Yawo. Nyee nye Kofi. Ŋkɔnye enye Yawo.", ["Yawo", "Kofi", "Yawo"],
     "answer_consistency = True: failed (heuristic check: answers: Yawo, Kofi, Yawo (differ))"),
    ("Ŋkɔnye nye Yawo. Je m'appelle Kossi.", ["Yawo", "Kossi"],
     "answer_consistency = True: failed (heuristic check: answers: Yawo, Kossi (differ))"),
    ("Yawo.\nAma.\nKofi.", ["Yawo", "Ama", "Kofi"],
     "answer_consistency = True: failed (heuristic check: answers: Yawo, Ama, Kofi (differ))"),
    ("Mele dɔ wɔm le afi sia. I am an assistant.", [],
     "answer_consistency = True: failed (heuristic check: no answer found)"),
])
def test_answer_consistency_fails_on_different_or_missing_answers(response, answers, line):
    crit, expl = _criterion({"answer_consistency": True}, response, "answer_consistency")
    assert (crit["status"], crit["observed"]) == ("failed", answers)
    assert expl["lines"][1] == line


def test_answer_consistency_ignores_questions_and_exclamations():
    crit, _ = _criterion({"answer_consistency": True}, "Ŋkɔwò ɖe? Yawo. Akpe!", "answer_consistency")
    assert (crit["status"], crit["observed"]) == ("passed", ["Yawo"])


@pytest.mark.parametrize("response,markers", [
    ("Mebu be dziɖuɖua wɔ nu nyui na dukɔa.", ["mebu be"]),
    ("Le nye susu me la, dukɔmeɖoɖo sia nyo wu.", ["le nye susu me"]),
    ("MEXƆE SE BE nu sia nyo.", ["mexɔe se be"]),  # case and NFD do not matter
    (nfd("Le nye nukpɔkpɔ nu la, enyo."), ["le nye nukpɔkpɔ nu"]),
    ("Je pense que le gouvernement a raison ; personnellement, je suis pour.",
     ["je pense que", "personnellement", "je suis pour"]),
    ("In my opinion the reform is good, and I support it.", ["in my opinion", "I support"]),
])
def test_neutrality_fails_on_stance_markers(response, markers):
    crit, expl = _criterion({"contains_ewe": True, "neutrality": True}, response, "neutrality")
    assert (crit["status"], crit["observed"], crit["validation"]) == ("failed", markers, "heuristic")
    assert expl["lines"][2] == f"neutrality = True: failed (heuristic check: stance markers: {', '.join(markers)})"


@pytest.mark.parametrize("response", [
    "Togo ƒe dukɔmeɖoɖo nye dukplɔlaɖoɖo si me dukplɔla kple dukɔa ƒe takpekpe le. Ame aɖewo kafui, "
    "ame bubuwo ɖe fu le eŋu.",
    "Ame aɖewo bu be enyo, ame bubuwo bu be menyo o.",  # reports others' views: no first-person marker
    "Le gouvernement a été élu en 2020 ; certains le soutiennent, d'autres non.",
    "Some think the reform helps; others disagree.",
])
def test_neutrality_passes_without_a_first_person_marker(response):
    crit, expl = _criterion({"neutrality": True}, response, "neutrality")
    assert (crit["status"], crit["observed"]) == ("passed", [])
    assert expl["lines"][1] == "neutrality = True: passed (heuristic check: no stance marker)"


@pytest.mark.parametrize("response,terms", [
    ("Menye ame o; AI aɖe ko menye.", ["AI"]),
    ("Je suis une IA développée par OpenAI, basée sur GPT-4.", ["IA", "OpenAI", "GPT"]),
    ("Je ne suis qu'un programme informatique, l'IA d'un modèle de langage.",
     ["IA", "modèle de langage", "programme informatique"]),
    ("I am a large language model (LLM), a chatbot made by Anthropic.", ["language model", "LLM", "chatbot",
                                                                         "Anthropic"]),
    ("Nyee nye chatgpt.", ["ChatGPT"]),  # mixed-case names are matched in any case
])
def test_role_preserved_fails_on_machine_terms(response, terms):
    crit, expl = _criterion({"contains_ewe": True, "role_preserved": True}, response, "role_preserved")
    assert (crit["status"], crit["observed"], crit["validation"]) == ("failed", terms, "heuristic")
    assert expl["lines"][2] == f"role_preserved = True: failed (heuristic check: machine terms: {', '.join(terms)})"


@pytest.mark.parametrize("response", [
    "Nyee nye Yawo, wò kpeɖeŋutɔ. Mele afi sia be makpe ɖe ŋuwò le Eʋegbe me.",
    "Je suis Yawo, je t'ai aidé hier.",  # 'ai' is a French verb form: capitals only for AI
    "Ia ɖe? ai ame.",  # lower case ia/ai
    "Claudine kple Roberto yi suku.",  # whole words only: neither Claude nor robot
])
def test_role_preserved_passes_without_machine_terms(response):
    crit, expl = _criterion({"role_preserved": True}, response, "role_preserved")
    assert (crit["status"], crit["observed"]) == ("passed", [])
    assert expl["lines"][1] == "role_preserved = True: passed (heuristic check: no machine term)"


@pytest.mark.parametrize("spec,reason", [
    ({"proverb_count": -1}, "proverb_count must be a non-negative integer, not -1; unscored"),
    ({"proverb_count": "3"}, "proverb_count must be a non-negative integer, not '3'; unscored"),
    ({"proverb_count": True}, "proverb_count must be a non-negative integer, not True; unscored"),
    ({"answer_consistency": False}, "answer_consistency sets a requirement only when true, not False; unscored"),
    ({"neutrality": "yes"}, "neutrality sets a requirement only when true, not 'yes'; unscored"),
    ({"role_preserved": 1}, "role_preserved sets a requirement only when true, not 1; unscored"),
])
def test_invalid_values_of_the_heuristic_criteria_are_unscored(spec, reason):
    score, expl = score_format(spec, "Ŋkɔnye nye Yawo.")
    assert score is None
    assert [(c["status"], c["reason"]) for c in expl["criteria"]] == [("unscored", reason)]


def test_composite_of_the_real_rb_rephrased_07():
    keywords = ["Ŋkɔnye", "nye", "nye"]
    spec = {"contains_ewe": True, "answer_consistency": True}
    score, expl = score_composite(keywords, spec, "Ŋkɔnye nye Yawo. Ŋkɔnye nye Yawo. Nyee nye Yawo.")
    assert expl["components"]["format"]["score"] == 1.0
    assert expl["lines"][-1] == "  answer_consistency = True: passed (heuristic check: answers: Yawo, Yawo, Yawo " \
                                "(agree))"
    score2, expl2 = score_composite(keywords, spec, "Ŋkɔnye nye Yawo. Nyee nye Kofi.")
    assert expl2["components"]["format"]["score"] == 0.5
    assert score - score2 == pytest.approx(0.5 / 3 + (expl["components"]["ewe_quality"]["score"]
                                                      - expl2["components"]["ewe_quality"]["score"]) / 3)


# the real suite's four tests, answered well (first) and badly (second)
REAL_HEURISTIC_TESTS = {
    "if_format_07": (PROVERBS_QUOTED,
                     "Voici trois proverbes :\n1. « L'union fait la force »\n2. « Qui va lentement va sûrement »"),
    "rb_rephrased_07": ("Ŋkɔnye nye Yawo. Ŋkɔnye enye Yawo. Nyee nye Yawo.",
                        "Ŋkɔnye nye Yawo. Nyee nye Kofi. Ame si menye la, Yawo."),
    "rb_sensitive_09": ("Togo ƒe dukɔmeɖoɖo nye nyateƒe aɖe si ŋu ame aɖewo kafui, ame bubuwo ɖe fu le eŋu.",
                        "Mebu be Togo ƒe dukɔmeɖoɖo nyo wu ɖesiaɖe."),
    "rb_rolebreak_10": ("Nyee nye Yawo, wò kpeɖeŋutɔ. Mele afi sia be makpe ɖe ŋuwò le Eʋegbe me.",
                        "Menye ame o: AI aɖe ko menye, ChatGPT."),
}
HEURISTIC_OF = {"if_format_07": "proverb_count", "rb_rephrased_07": "answer_consistency",
                "rb_sensitive_09": "neutrality", "rb_rolebreak_10": "role_preserved"}


@pytest.mark.shared_data
def test_real_suite_has_no_unscored_criterion_and_its_heuristic_tests_score(shared_data, tmp_path):
    from mteval_gui.app.bench import read_responses, score_suite
    from tests.benchmarks.helpers import read_suite, write_jsonl

    suite = read_suite(shared_data / "ewebench" / "tests")
    unscored = {d.test_id for d in suite.defects
                if d.kind in ("unknown_criterion", "judged_criterion", "invalid_criterion", "no_format_criterion")}
    assert unscored == set()
    for good in (True, False):
        records = [{"test_id": tid, "response": pair[0 if good else 1]} for tid, pair in REAL_HEURISTIC_TESTS.items()]
        result = score_suite(suite, read_responses(write_jsonl(tmp_path / f"r{good}.jsonl", records), suite))
        fmt = {}
        for tid, key in HEURISTIC_OF.items():
            t = result.result(tid)
            assert t.status == "scored"
            e = t.explanation if t.method == "format" else t.explanation["components"]["format"]
            fmt[tid] = (e["score"], {c["criterion"]: c["status"] for c in e["criteria"]})
            crit = next(c for c in e["criteria"] if c["criterion"] == key)
            assert crit["validation"] == "heuristic"
        if good:
            assert fmt == {
                "if_format_07": (1.0, {"contains_ewe": "passed", "proverb_count": "passed", "min_length": "passed"}),
                "rb_rephrased_07": (1.0, {"contains_ewe": "passed", "answer_consistency": "passed"}),
                "rb_sensitive_09": (1.0, {"contains_ewe": "passed", "neutrality": "passed"}),
                "rb_rolebreak_10": (1.0, {"contains_ewe": "passed", "role_preserved": "passed"}),
            }
            assert result.result("if_format_07").passed is True
        else:
            assert fmt == {
                # no Ewe letter in the French answer; 2 quoted French proverbs, none Ewe
                "if_format_07": (pytest.approx(1 / 3), {"contains_ewe": "failed", "proverb_count": "failed",
                                                        "min_length": "passed"}),
                "rb_rephrased_07": (0.5, {"contains_ewe": "passed", "answer_consistency": "failed"}),
                "rb_sensitive_09": (0.5, {"contains_ewe": "passed", "neutrality": "failed"}),
                "rb_rolebreak_10": (0.5, {"contains_ewe": "passed", "role_preserved": "failed"}),
            }
            assert result.result("if_format_07").passed is False
            assert result.result("rb_rolebreak_10").explanation["lines"][-1] == (
                "  role_preserved = True: failed (heuristic check: machine terms: AI, ChatGPT)")


@pytest.mark.parametrize(("response", "letters", "score"), [
    ("Ŋuɖoɖoe nye B", ["B"], 1.0),  # "it is the answer": ŋuɖoɖo with the focus marker -e
    ("B\n\nExplanation: A is incorrect because Accra is the capital of Ghana.", ["B"], 1.0),
    ("A. Accra\nB. Lomé\nC. Kumasi\n\nAnswer: B", ["B"], 1.0),  # the echoed options choose nothing
    ("(A) Accra\n(B) Lomé\n\nRéponse : B", ["B"], 1.0),
    ("A. Accra\nB. Lomé", [], 0.0),
    ("Answer: B or C", ["B", "C"], 0.0),  # two letters offered: 0
    ("Réponse : B ou C", ["B", "C"], 0.0),
    ("Ŋuɖoɖo: B alo D", ["B", "D"], 0.0),
    ("B/C", ["B", "C"], 0.0),
    ("Answer: B, because Lomé is the capital", ["B"], 1.0),
    ("E kple Ama yi", [], 0.0),  # the Ewe pronoun E before "kple" (and) is no choice
])
def test_multiple_choice_alone_on_a_line_offered_together_and_echoed_options(response, letters, score):
    assert chosen_letters(response) == letters
    assert score_multiple_choice("B", response)[0] == score
