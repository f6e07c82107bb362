"""Wrong-language outputs: whole-entry language identification in code-switching."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from mteval_gui.cards import try_load_card
from mteval_gui.domain.card import LanguageCard, LanguageIdProfile, OrthographyProfile
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.composite import wrong_language_caveat
from mteval_gui.scoring.metrics.behavioural import CodeSwitchingMetric
from mteval_gui.scoring.metrics.language_id import LanguageJudge, LanguageJudgement, target_only_letters
from mteval_gui.scoring.runner import ScoringRequest, score_run
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import context, item, run_metric

EWE, FRA = try_load_card("ewe"), try_load_card("fra")


def _ewe_items():
    return [
        item(0, "Le président est arrivé à Lomé hier soir.", "Dukplɔla la va ɖo Lomé etsɔ fiẽ.",
             "Le chef de l'État a atterri à Lomé dans la soirée d'hier."),
        item(1, "Le président est arrivé à Lomé hier soir.", "Dukplɔla la va ɖo Lomé etsɔ fiẽ.",
             "Dukplɔla la va ɖo Lomé etsɔ."),
        item(2, "Les élèves sont rentrés à la maison.", "Sukuviwo gbugbɔ yi aƒeme.",
             "The pupils went back home after school."),
        item(3, "Il pleut.", "Tsi le dzadzam.", "Tsi le dzadzam."),
        item(4, "Il pleut.", "Tsi le dzadzam.", ""),
        item(5, "Le Togo et le Ghana.", "Togo kple Ghana.", "Togo, Ghana."),
    ]


def test_an_output_wholly_in_another_language_counts_one():
    per, cs = run_metric(CodeSwitchingMetric(), _ewe_items(), context("fra", "ewe", card=EWE, source_card=FRA))
    assert [p.value for p in per] == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    assert [p.detail.get("wrong_language") for p in per] == [True, False, True, False, None, False]
    assert [p.detail.get("language") for p in per] == ["fra", None, "eng", None, None, None]
    assert per[0].detail["token_rate"] == pytest.approx(2 / 12)  # Le, à: what the token signal alone saw
    assert per[0].detail["target_evidence"] == pytest.approx(0.1)  # only "le", also an Ewe word
    assert per[5].detail["target_evidence"] is None  # names only: nothing to judge
    assert cs.values["code_switching_rate"] == pytest.approx(2 / 6)
    assert cs.extra["wrong_language_entries"] == 2
    assert cs.extra["wrong_language_by_language"] == {"fra": 1, "eng": 1}
    assert [c.code for c in cs.caveats] == ["wrong_language_output"]
    assert cs.caveats[0].detail["share"] == pytest.approx(2 / 6)
    assert cs.extra["language_id"]["candidates"] == ["eng", "fra"]
    assert cs.extra["language_id"]["target_known_to_detector"] is False


def test_detection_can_be_switched_off():
    per, cs = run_metric(CodeSwitchingMetric(detect_language=False), _ewe_items(),
                         context("fra", "ewe", card=EWE, source_card=FRA))
    assert per[0].value == pytest.approx(2 / 12) and "wrong_language" not in per[0].detail
    assert "caveats" not in cs.extra and cs.extra["language_id"] is None


def test_below_a_fifth_of_entries_there_is_no_caveat():
    assert wrong_language_caveat(1, 6, {"fra": 1}, "ewe") is None
    c = wrong_language_caveat(2, 10, {"fra": 2}, "ewe")
    assert c is not None and c.code == "wrong_language_output"
    assert c.message == ("2 of 10 outputs (20%) are wholly in another language than ewe: fra (2); "
                         "they count 1.0 in code_switching_rate")


def test_target_letters_are_the_target_alphabet_minus_the_source_alphabet():
    assert "".join(sorted(target_only_letters(EWE, FRA))) == "áãìíòóõúĩŋũƒɔɖɛɣʋẽ"
    assert target_only_letters(EWE, None) == frozenset()


def test_a_target_the_detector_knows_is_recognised_by_the_detector():
    # French target, English source: no card evidence, the detector decides
    judge = LanguageJudge("eng", "fra")
    assert judge.target_known
    got = judge.judge("Le chat dort sur le canapé du salon.")
    assert (got.wrong_language, got.language) == (False, "fra")
    got = judge.judge("The cat sleeps on the living-room sofa.")
    assert (got.wrong_language, got.language) == (True, "eng")


def test_unknown_target_without_evidence_trusts_only_the_source_language():
    bare = LanguageCard(code="xyz", name="Unknown")
    judge = LanguageJudge("eng", "xyz", target_card=bare)
    assert not judge.has_evidence
    assert judge.judge("The cat sleeps on the living-room sofa.").wrong_language is True
    assert judge.judge("Le chat dort sur le canapé du salon.").wrong_language is False  # French: may be xyz


def test_frequent_words_of_the_card_are_target_evidence():
    card = LanguageCard(code="xyz", name="Unknown", orthography=OrthographyProfile(),
                        language_id=LanguageIdProfile(frequent_words=["kple", "ɖe"]))
    judge = LanguageJudge("fra", "xyz", target_card=card)
    got = judge.judge("Togo kple Ghana sont voisins.", frozenset({"togo", "ghana"}))
    assert got.target_evidence == pytest.approx(1 / 3) and got.wrong_language is False


def test_an_unknown_target_written_without_its_diacritics_is_not_english_or_french():
    # Plains Cree words without circumflexes: no target letter, no analyzer; lingua does not know
    # Cree, and between English and French one of them always gets a relative confidence >= 0.5
    judge = LanguageJudge("eng", "crk", target_card=try_load_card("crk"))
    for word in ("takohtew", "nititwan", "pimohtewak", "e-itohteyan", "kisipwehtan", "e-wapamitan"):
        got = judge.judge(word)
        assert got.wrong_language is False, (word, got)
    assert judge.judge("they walk").wrong_language is True  # an English copy of the source still is
    assert judge.judge("as you all flee").wrong_language is True
    assert judge.describe()["all_languages_top"] == 3


def test_the_all_languages_check_only_applies_to_a_target_unknown_to_the_detector():
    judge = LanguageJudge("eng", "fra")
    assert judge.describe()["all_languages_top"] is None
    assert judge.judge("The cat sleeps on the living-room sofa.").wrong_language is True


def test_an_output_made_of_the_reference_words_is_never_wrong_language():
    # Northern Sámi: no card evidence, so the detector decides; the output is the reference itself
    judge = LanguageJudge("eng", "sme", target_card=try_load_card("sme"), source_card=try_load_card("eng"))
    assert not judge.has_evidence
    got = judge.judge("Mun lean Ricardo.", frozenset({"mun", "lean", "ricardo"}))
    assert got == LanguageJudgement(False, None, None, None)
    assert judge.judge("They found Tom.", frozenset({"tom"})).wrong_language is True


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = text[:-1] if text.endswith("\n") else text
    return [unicodedata.normalize("NFC", x) for x in text.split("\n")]


@pytest.mark.shared_data
def test_mafand_french_outputs_are_wrong_language_and_ewe_outputs_are_not():
    mafand = SHARED_DATA / "ewe" / "mafand-fr-ewe"
    fr, ewe = _lines(mafand / "test.fr"), _lines(mafand / "test.ewe")
    entries = [Entry(id=str(i), source=s, reference=r) for i, (s, r) in enumerate(zip(fr, ewe, strict=True))]
    corpus = Corpus(corpus_id="mafand", language_pair=LanguagePair(source="fra", target="ewe"), entries=entries)
    shares: dict[str, float] = {}
    for path in sorted((mafand / "predictions").glob("*.txt")):
        if path.stem not in ("mt5_ewe_fr_news", "transformer_ewe_fr_rel_news") and "_fr_ewe_" not in path.stem:
            continue
        run = Run(meta=RunMeta(run_id=path.stem), corpus_id="mafand",
                  outputs=[Output(id=str(i), predicted=h) for i, h in enumerate(_lines(path))])
        res = score_run(ScoringRequest(run_id=path.stem, corpus=corpus, run=run, target_card=EWE, source_card=FRA,
                                       include=["core.code_switching"], n_bootstrap=10))
        row = next(r for r in res.metric_rows if r.metric_id == "core.code_switching")
        shares[path.stem] = row.extra["wrong_language_share"]
        flagged = "wrong_language_output" in [c.code for c in res.run_card.score_caveats]
        assert flagged == ("_ewe_fr_" in path.stem), path.stem
        if path.stem == "mt5_ewe_fr_news":
            assert res.run_card.scores.code_switching_rate >= 0.8
            assert row.extra["wrong_language_entries"] == 1512
            assert row.extra["wrong_language_by_language"]["fra"] >= 1500
    assert len(shares) == 18
    ewe_outputs = {k: v for k, v in shares.items() if "_fr_ewe_" in k}
    assert len(ewe_outputs) == 16
    assert max(ewe_outputs.values()) == pytest.approx(141 / 1563)  # afribart copies French sources
    wrong_entries = {k: round(v * 1563) for k, v in ewe_outputs.items()}
    assert wrong_entries == {
        "afribart_fr_ewe_news": 141, "afribyt5_fr_ewe_news": 2, "afrit5_fr_ewe_news": 0, "byt5_fr_ewe_news": 2,
        "m2m100_fr_ewe_afro": 0, "m2m100_fr_ewe_news": 1, "m2m100_fr_ewe_rel": 9, "m2m100_fr_ewe_rel_news": 9,
        "m2m100_fr_ewe_rel_news_newsft": 4, "m2m100_fr_ewe_rel_newsft": 0, "mbart50_fr_ewe_news": 32,
        "mt5_fr_ewe_news": 6, "transformer_fr_ewe_rel": 14, "transformer_fr_ewe_rel_news": 15,
        "transformer_fr_ewe_rel_news_newsft": 16, "transformer_fr_ewe_rel_newsft": 9}
    assert shares["transformer_ewe_fr_rel_news"] == pytest.approx(1379 / 1563)
