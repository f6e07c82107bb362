"""Surface metrics: literal verdicts and parity with sacrebleu called directly."""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER

from mteval_gui.domain.card import LanguageCard, OrthographyProfile
from mteval_gui.scoring.metrics.surface import (
    BleuMetric,
    ChrfMetric,
    EquivalentMatchMetric,
    ExactMatchMetric,
    LengthRatioMetric,
    TerMetric,
)
from tests.scoring.metric_helpers import context, item, run_metric

HYPS = ["Le chat est sur le tapis.", "un chien aboie", "", "Bonjour le monde", "tout autre chose ici", "le chat"]
REFS = [
    "Le chat est sur le tapis.",
    "Le chien aboie fort.",
    "Rien.",
    "Bonjour tout le monde",
    "une référence",
    "le chat noir",
]


def _items():
    return [item(i, f"source {i}", r, h) for i, (h, r) in enumerate(zip(HYPS, REFS, strict=True))]


def test_exact_match_uses_match_key():
    items = [item(0, "s", "Le Chat  noir.", " le chat noir. "), item(1, "s", "Le chat", "Le chat."),
             item(2, "s", None, "x"), item(3, "s", "x", "")]
    per, cs = run_metric(ExactMatchMetric(), items)
    assert [p.value for p in per] == [1.0, 0.0, None, 0.0]
    assert cs.values == {"exact_match_rate": pytest.approx(1 / 3), "exact_matches": 1}


def test_exact_match_without_references_is_not_applicable():
    per, cs = run_metric(ExactMatchMetric(), [item(0, "s", None, "x")])
    assert cs.availability == "not_applicable" and cs.values["exact_match_rate"] is None


def test_equivalent_verdicts_with_variants_and_folds():
    card = LanguageCard(code="crk", name="Plains Cree", orthography=OrthographyProfile(folds={"ā": "â", "ē": "ê"}))
    items = [
        item(0, "I say so", "nititwân", "nititwân"),
        item(1, "I say so", "nititwân", "nititwān"),  # macron folded
        item(2, "as I am", "ê-ayâyân", "ê ayâyân", variants=["ê ayâyân"]),
        item(3, "you leave", "kisipwêhtân", "kisipwehtan"),
        item(4, "x", "nipâw", ""),
        item(5, "x", "nipâw", "", error="HTTP 503"),
        item(6, "x", None, "y"),
    ]
    per, cs = run_metric(EquivalentMatchMetric(), items, context(tgt="crk", card=card))
    assert [p.detail.get("verdict") for p in per] == ["EXACT", "EQUIVALENT", "EQUIVALENT", "MISS", "NO_OUTPUT",
                                                      "NO_OUTPUT", None]
    assert per[2].detail["matched"] == "variant 1"
    assert cs.values == {"equivalent_match_rate": pytest.approx(3 / 6), "equivalent_matches": 3}
    assert cs.extra["verdicts"] == {"EXACT": 1, "EQUIVALENT": 2, "MISS": 1, "NO_OUTPUT": 2}


def test_chrf_parity_with_sacrebleu():
    per, cs = run_metric(ChrfMetric(), _items())
    chrf = CHRF(word_order=2)
    assert cs.values["chrf_plus_plus"] == pytest.approx(chrf.corpus_score(HYPS, [REFS]).score, abs=1e-9)
    for p, h, r in zip(per, HYPS, REFS, strict=True):
        assert p.value == pytest.approx(CHRF(word_order=2).sentence_score(h, [r]).score, abs=1e-9)
        assert len(p.detail["stats"]) == 24
    assert cs.signature == "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:" + sacrebleu.__version__


def test_bleu_parity_with_sacrebleu():
    per, cs = run_metric(BleuMetric(), _items())
    assert cs.values["bleu"] == pytest.approx(BLEU().corpus_score(HYPS, [REFS]).score, abs=1e-9)
    for p, h, r in zip(per, HYPS, REFS, strict=True):
        assert p.value == pytest.approx(BLEU(effective_order=True).sentence_score(h, [r]).score, abs=1e-9)
    assert "tok:13a" in cs.signature and "nrefs:1" in cs.signature


def test_ter_parity_with_sacrebleu():
    per, cs = run_metric(TerMetric(), _items())
    assert cs.values["ter"] == pytest.approx(TER().corpus_score(HYPS, [REFS]).score, abs=1e-9)
    for p, h, r in zip(per, HYPS, REFS, strict=True):
        assert p.value == pytest.approx(TER().sentence_score(h, [r]).score, abs=1e-9)


def test_texts_are_compared_in_nfc():
    nfd = "e\u0301te\u0301"  # été in NFD
    per, cs = run_metric(ChrfMetric(), [item(0, "s", "été", nfd)])
    assert per[0].value == pytest.approx(100.0)


def test_multi_reference_uses_variants_and_records_it():
    items = [item(0, "s", "the cat sat", "a cat sat", variants=["a cat sat"]),
             item(1, "s", "the dog", "the dog")]
    per, cs = run_metric(ChrfMetric(multi_ref=True), items)
    assert per[0].value == pytest.approx(100.0)
    streams = [["the cat sat", "the dog"], ["a cat sat", None]]
    assert cs.values["chrf_plus_plus"] == pytest.approx(
        CHRF(word_order=2).corpus_score(["a cat sat", "the dog"], streams).score, abs=1e-9)
    assert cs.signature.startswith("nrefs:var|")
    per1, cs1 = run_metric(BleuMetric(), items, context(options={"multi_ref": True}))
    assert cs1.values["bleu"] == pytest.approx(BLEU().corpus_score(["a cat sat", "the dog"], streams).score, abs=1e-9)


def test_entries_without_reference_do_not_take_part():
    items = _items() + [item(9, "s", None, "anything")]
    per, cs = run_metric(ChrfMetric(), items)
    assert per[-1].value is None
    assert cs.values["chrf_plus_plus"] == pytest.approx(CHRF(word_order=2).corpus_score(HYPS, [REFS]).score, abs=1e-9)


def test_unknown_sacrebleu_parameter_is_rejected():
    with pytest.raises(ValueError):
        ChrfMetric(char_ordr=4)


def test_length_ratio():
    items = [item(0, "s", "abcd", "ab"), item(1, "s", "abcd", "abcdefgh"), item(2, "s", None, "x"),
             item(3, "s", "abcd", "", error="boom")]
    per, cs = run_metric(LengthRatioMetric(), items)
    assert [p.value for p in per] == [0.5, 2.0, None, 0.0]
    assert cs.values["length_ratio"] == pytest.approx(2.5 / 3)
    assert cs.extra["total_ratio"] == pytest.approx(10 / 12)


def test_an_empty_string_reference_is_scored_as_sacrebleu_scores_it():
    hyps, refs = ["a b", "c d e"], ["", "c d e"]
    items = [item(i, f"s{i}", r, h) for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]
    per, cs = run_metric(TerMetric(), items)
    assert cs.values["ter"] == pytest.approx(TER().corpus_score(hyps, [refs]).score, abs=1e-9)
    assert cs.values["ter"] == pytest.approx(200 / 3)
    assert per[0].detail["stats"] == [2, 0]
    per, cs = run_metric(ChrfMetric(), items)
    assert cs.values["chrf_plus_plus"] == pytest.approx(CHRF(word_order=2).corpus_score(hyps, [refs]).score, abs=1e-9)
    per, cs = run_metric(BleuMetric(), items)
    assert cs.values["bleu"] == pytest.approx(BLEU().corpus_score(hyps, [refs]).score, abs=1e-9)
    per, cs = run_metric(ExactMatchMetric(), items)
    assert [p.value for p in per] == [0.0, 1.0] and cs.values["exact_match_rate"] == 0.5
    per, cs = run_metric(EquivalentMatchMetric(), items)
    assert [p.detail["verdict"] for p in per] == ["MISS", "EXACT"]
    per, cs = run_metric(LengthRatioMetric(), items)
    assert [p.value for p in per] == [None, 1.0] and cs.values["length_ratio"] == 1.0


def test_only_a_null_reference_makes_an_entry_reference_free():
    items = [item(0, "s", None, "a b"), item(1, "s", "c d e", "c d e")]
    per, cs = run_metric(TerMetric(), items)
    assert per[0].value is None and cs.values["ter"] == 0.0 and cs.extra["entries"] == 1


def test_bleu_on_short_references_gets_the_short_segments_caveat():
    items = [item(0, "he sleeps", "nipâw", "nipâw"), item(1, "I see him", "niwâpamâw", "niwâpamâw"),
             item(2, "you eat", "kimîcison", "kimîcisonâwâw"), item(3, "s", None, "x")]
    per, cs = run_metric(BleuMetric(), items)
    assert cs.extra["median_reference_tokens"] == 1.0
    assert [c.model_dump() for c in cs.caveats] == [{
        "code": "short_segments",
        "message": "the median reference has 1 token (< 4): BLEU's 4-grams hardly exist in such segments, so BLEU "
                   "says little; it is left out of comparisons and of validation correlations unless asked for",
        "detail": {"median_reference_tokens": 1.0, "threshold": 4, "metric": "bleu"}}]
    long = [item(i, "s", "le chat noir dort ici", "le chat noir dort") for i in range(3)]
    _, cs = run_metric(BleuMetric(), long)
    assert cs.extra["median_reference_tokens"] == 5.0 and cs.caveats == []


@pytest.mark.parametrize(("hyps", "expected"), [
    (["a"], {"chrf_plus_plus": 0.0, "bleu": 0.0, "ter": 100.0}),
    ([""], {"chrf_plus_plus": 0.0, "bleu": 0.0, "ter": 0.0}),
    (["", "a b"], {"chrf_plus_plus": 0.0, "bleu": 0.0, "ter": 100.0}),
])
def test_a_corpus_whose_every_reference_is_empty_is_scored_as_sacrebleu_scores_it(hyps, expected):
    refs = [""] * len(hyps)
    items = [item(i, f"s{i}", r, h) for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]
    direct = {"chrf_plus_plus": CHRF(word_order=2).corpus_score(hyps, [refs]).score,
              "bleu": BLEU().corpus_score(hyps, [refs]).score, "ter": TER().corpus_score(hyps, [refs]).score}
    assert direct == expected
    for metric, key in ((ChrfMetric(), "chrf_plus_plus"), (BleuMetric(), "bleu"), (TerMetric(), "ter")):
        _per, cs = run_metric(metric, items)
        assert cs.availability == "ok" and cs.values[key] == expected[key], key
        assert cs.extra["entries"] == len(hyps)


def test_multi_reference_ter_uses_each_distinct_reference_once():
    """A variant repeated (or equal to the reference) is not a second stream: sacrebleu, given it
    twice, divides the edits by another average reference length (README, deviations)."""
    hyp, ref, variant = "a b c d e f", "a b x d e f g", "a b x d"
    _per, cs = run_metric(TerMetric(multi_ref=True), [item(0, "s", ref, hyp, variants=[variant, variant, ref])])
    assert cs.values["ter"] == pytest.approx(400 / 11)  # 36.36: sacrebleu with the two distinct streams
    assert cs.values["ter"] == pytest.approx(TER().corpus_score([hyp], [[ref], [variant]]).score)
    assert TER().corpus_score([hyp], [[ref], [variant], [variant]]).score == pytest.approx(40.0)
