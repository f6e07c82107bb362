"""Behavioural metrics with hand-computed expected values."""

from __future__ import annotations

import pytest

from mteval_gui.domain.card import LanguageCard
from mteval_gui.scoring.metrics.behavioural import (
    CodeSwitchingMetric,
    ConsistencyMetric,
    HallucinationMetric,
    TerminologyMetric,
    hallucination_components,
    hallucination_score,
    mid_sentence_capitalised,
    token_script,
)
from tests.scoring.metric_helpers import context, item, run_metric


def test_token_script():
    assert token_script("chat") == "Latn"
    assert token_script("Кошка") == "Cyrl"
    assert token_script("ᓀᐦᐃᔭᐍᐏᐣ") == "Cans"
    assert token_script("ɖevi") == "Latn"
    assert token_script("123") is None


def test_code_switching_same_script_lexical_signal():
    items = [item(0, "The cat sleeps on the sofa", "Le chat dort sur le canapé", "Le cat dort sur le sofa"),
             item(1, "The cat sleeps", "Le chat dort", ""),
             item(2, "Tom sleeps", "Tom dort", "Tom dort")]
    per, cs = run_metric(CodeSwitchingMetric(), items)
    assert per[0].value == pytest.approx(2 / 6)
    assert per[0].detail["switched"] == ["cat", "sofa"]
    assert per[1].value == 0.0  # empty output: nothing switched
    assert per[2].value == 0.0  # the reference carries the name over
    assert cs.values["code_switching_rate"] == pytest.approx(2 / 18)


def test_code_switching_loanwords_and_target_acceptor():
    it = [item(0, "The cat sleeps on the sofa", "Le chat dort sur le canapé", "Le cat dort sur le sofa")]
    card = LanguageCard(code="fra", name="French", allowed_loanwords=["Sofa"])
    per, _ = run_metric(CodeSwitchingMetric(), it, context(card=card))
    assert per[0].detail["switched"] == ["cat"]
    per, cs = run_metric(CodeSwitchingMetric(), it, context(shared={"target_accepts": lambda w: w == "cat"}))
    assert per[0].detail["switched"] == ["sofa"]
    assert cs.extra["target_lexicon_used"] is True


def test_code_switching_script_signal():
    src = LanguageCard(code="eng", name="English", scripts=["Latn"])
    tgt = LanguageCard(code="rus", name="Russian", scripts=["Cyrl"])
    per, _ = run_metric(CodeSwitchingMetric(), [item(0, "The cat sleeps", "Кошка спит", "Кошка sleeps")],
                        context(card=tgt, source_card=src))
    assert per[0].value == 0.5
    assert per[0].detail["script"] == 1 and per[0].detail["lexical"] == 0


def test_mid_sentence_capitalised():
    assert mid_sentence_capitalised("Il a vu Marie. Puis Paul est venu") == ["Marie", "Paul"]
    assert mid_sentence_capitalised("Il a vu Marie. Puis il part") == ["Marie"]
    assert mid_sentence_capitalised("Bonjour! Comment va Jean?") == ["Jean"]


@pytest.mark.parametrize("pred,src,ref,expected,score", [
    ("", "Hello there", "Bonjour", {"L": 1.0, "R": 0.0, "E": 0.0, "C": 0.0}, 0.4),
    ("Hello there friend", "Hello there friend", "Bonjour mon ami", {"L": 0.0, "R": 0.0, "E": 0.0, "C": 1.0}, 0.1),
    ("a b c a b c a b c", "src", "x y z w v u t s r", {"L": 0.0, "R": 4 / 7, "E": 0.0, "C": 0.0}, 0.3 * 4 / 7),
    ("Il a payé 30 dollars à Marie", "He paid 20 dollars", "Il a payé 20 dollars",
     {"L": 0.0, "R": 0.0, "E": 1.0, "C": 0.0}, 0.2),
    ("Il a payé 20 dollars à Marie", "He paid 20 dollars", "Il a payé 20 dollars",
     {"L": 0.0, "R": 0.0, "E": 0.5, "C": 0.0}, 0.1),
    ("x" * 40, "abcdefghij", None, {"L": 1.0, "R": 0.0, "E": 0.0, "C": 0.0}, 0.4),
    ("x" * 25, "abcdefghij", None, {"L": 0.0, "R": 0.0, "E": 0.0, "C": 0.0}, 0.0),
])
def test_hallucination_components(pred, src, ref, expected, score):
    c = hallucination_components(pred, src, ref)
    assert {k: c[k] for k in "LREC"} == pytest.approx(expected)
    assert hallucination_score(c) == pytest.approx(score)


def test_hallucination_caps_at_one_and_ignores_case_without_case():
    c = {"L": 1.0, "R": 1.0, "E": 1.0, "C": 1.0}
    assert hallucination_score(c) == 1.0
    c = hallucination_components("Il voit Marie", "He sees Mary", "Il voit Marie", has_case=False)
    assert c["E"] == 0.0


def test_hallucination_metric_corpus_mean():
    items = [item(0, "Hello there", "Bonjour", "Bonjour à tous mes chers amis"), item(1, "Hi", "Salut", "Salut")]
    per, cs = run_metric(HallucinationMetric(), items)
    assert [p.value for p in per] == [pytest.approx(0.4), 0.0]
    assert cs.values["hallucination_rate"] == pytest.approx(0.2)


def test_hallucination_is_the_share_over_entries_with_output():
    items = [item(0, "Hello there", "Bonjour", ""), item(1, "Hi", "Salut", "Salut"),
             item(2, "Good night", "Bonne nuit", "", error="HTTP 503"),
             item(3, "Hello there friend", "Bonjour mon ami", "Hello there friend")]
    per, cs = run_metric(HallucinationMetric(), items)
    assert [p.value for p in per] == [None, 0.0, None, pytest.approx(0.1)]
    assert [p.detail.get("verdict") for p in per] == ["NO_OUTPUT", None, "NO_OUTPUT", None]
    assert cs.values["hallucination_rate"] == pytest.approx(0.05)
    assert cs.extra["entries_with_output"] == 2 and cs.extra["no_output"] == 2
    per, cs = run_metric(HallucinationMetric(), [item(0, "Hi", "Salut", "", error="timeout")])
    assert cs.values["hallucination_rate"] is None and cs.availability == "not_applicable"


def _term_items():
    return [
        item(
            0, "The cat sleeps on the sofa", "x", "Le chat dort sur le canapé", terminology={"cat": ["chat", "matou"]}
        ),
        item(1, "The cat and the dog", "x", "Le matou et le loup", terminology={"cat": ["chat", "matou"]}),
        item(2, "A dog", "x", ""),
        item(3, "Nothing relevant", "x", "Rien"),
        item(4, "A category of cats", "x", "Une catégorie de chats"),
        item(5, "The cat", "x", "Le chat", terminology={"cat": ["chat", "matou"]}),
    ]


def test_terminology_adherence_micro():
    glossary = {"sofa": ["canapé"], "dog": ["chien"]}
    per, cs = run_metric(TerminologyMetric(), _term_items(), context(glossary=glossary))
    assert [p.value for p in per] == [1.0, 0.5, 0.0, None, None, 1.0]
    assert per[1].detail == {"hits": {"cat": "matou"}, "misses": ["dog"]}
    assert cs.values["terminology_adherence"] == pytest.approx(4 / 6)
    assert cs.extra == {"terms": 6, "hits": 4}


def test_terminology_without_terms_is_null():
    per, cs = run_metric(TerminologyMetric(), [item(0, "a", "b", "c")])
    assert cs.values["terminology_adherence"] is None
    assert cs.availability == "not_applicable"


def test_terminology_lemma_match():
    it = [item(0, "The cat", "x", "Les chats", terminology={"cat": ["chat"]})]
    per, _ = run_metric(
        TerminologyMetric(), it, context(shared={"lemmas_of": lambda w: {"chat"} if w == "chats" else set()})
    )
    assert per[0].value == 1.0


def test_consistency():
    glossary = {"sofa": ["canapé"], "dog": ["chien"]}
    per, cs = run_metric(ConsistencyMetric(), _term_items(), context(glossary=glossary))
    # cat: chat, matou, chat -> 2/3; dog: no accepted rendering twice; sofa: once
    assert cs.values["consistency_score"] == pytest.approx(2 / 3)
    assert cs.extra["terms"] == {"cat": pytest.approx(2 / 3)}
    _, none = run_metric(ConsistencyMetric(), [item(0, "a", "b", "c")])
    assert none.values["consistency_score"] is None and none.availability == "not_applicable"
