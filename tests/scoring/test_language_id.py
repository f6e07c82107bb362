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
from mteval_gui.scoring.metrics.behavioural import CodeSwitchingMetric, token_script
from mteval_gui.scoring.metrics.language_id import (
    LanguageJudge,
    LanguageJudgement,
    source_words,
    target_only_letters,
)
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
    assert per[0].detail["target_evidence"] == 0.0  # "le" is an Ewe word and a French article: it tells neither
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
    # Northern Sámi; the output is the reference itself
    judge = LanguageJudge("eng", "sme", target_card=try_load_card("sme"), source_card=try_load_card("eng"))
    assert "".join(sorted(judge.letters)) == "áčđŋšŧž"  # Sámi letters neither English nor French has
    got = judge.judge("Mun lean Ricardo.", frozenset({"mun", "lean", "ricardo"}))
    assert got == LanguageJudgement(False, None, None, 1.0)  # Ricardo: a name; mun, lean: the reference's words
    assert judge.judge("Ricardo.", frozenset({"ricardo"})) == LanguageJudgement(False, None, None, None)
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
            assert row.extra["wrong_language_entries"] == 1539
            assert row.extra["wrong_language_by_language"]["fra"] >= 1500
    assert len(shares) == 18
    ewe_outputs = {k: v for k, v in shares.items() if "_fr_ewe_" in k}
    assert len(ewe_outputs) == 16
    assert max(ewe_outputs.values()) == pytest.approx(138 / 1563)  # afribart copies French sources (135 before
    # outputs copied from their source were judged: "sort.", "tirs.", "Législatives le Ethiopie.")
    wrong_entries = {k: round(v * 1563) for k, v in ewe_outputs.items()}
    assert wrong_entries == {
        "afribart_fr_ewe_news": 138, "afribyt5_fr_ewe_news": 10, "afrit5_fr_ewe_news": 0, "byt5_fr_ewe_news": 10,
        "m2m100_fr_ewe_afro": 1, "m2m100_fr_ewe_news": 0, "m2m100_fr_ewe_rel": 7, "m2m100_fr_ewe_rel_news": 8,
        "m2m100_fr_ewe_rel_news_newsft": 2, "m2m100_fr_ewe_rel_newsft": 0, "mbart50_fr_ewe_news": 35,
        "mt5_fr_ewe_news": 2, "transformer_fr_ewe_rel": 10, "transformer_fr_ewe_rel_news": 4,
        "transformer_fr_ewe_rel_news_newsft": 7, "transformer_fr_ewe_rel_newsft": 5}
    assert shares["transformer_ewe_fr_rel_news"] == pytest.approx(1489 / 1563)


CRK, ENG = try_load_card("crk"), try_load_card("eng")
# Plains Cree verb forms (source, reference, another valid form): their circumflex vowels are French letters too
CREE = [("I say so", "nititwân", "itwêwak"), ("as I am", "ê-ayâyân", "ê-ayât"),
        ("you leave", "kisipwêhtân", "sipwêhtêwak"),
        ("as you go", "ê-itohtêyan", "ê-itohtêyahk"), ("he/she arrives", "takohtêw", "takohtêwak"),
        ("as he/she enters", "ê-pîhtokêt", "ê-pîhtokêyâhk"), ("we go home", "nikîwânân", "nikîwân"),
        ("as we sleep", "ê-nipâyâhk", "ê-nipâyân"), ("we and you live", "kipimâtisinaw", "kipimâtisin"),
        ("as we and you are at home", "ê-apiyahk", "ê-apiyêk"), ("you all eat", "kimîcisonâwâw", "mîcisowak")]
CREE_REFERENCES = [ref for _, ref, _ in CREE]


def test_valid_cree_without_an_analyzer_is_not_french():
    # no analyzer, no Cree letter that French lacks: the detector takes these words for French,
    # and it takes the corpus's own Cree references for French too, so its "French" says nothing
    rows = [*CREE, ("we go home", "nikîwânân", "we go home"), ("I say so", "nititwân", "I say so"),
            ("you leave", "kisipwêhtân", "Le président est arrivé à Lomé hier soir.")]
    items = [item(i, src, ref, out) for i, (src, ref, out) in enumerate(rows)]
    per, cs = run_metric(CodeSwitchingMetric(), items, context("eng", "crk", card=CRK, source_card=ENG))
    assert [p.detail["wrong_language"] for p in per] == [False] * 11 + [True] * 3
    assert [p.detail["language"] for p in per[11:]] == ["eng", "eng", "fra"]
    assert [p.value for p in per] == [0.0] * 11 + [1.0] * 3
    assert cs.extra["wrong_language_by_language"] == {"eng": 2, "fra": 1}


def test_the_detector_is_checked_on_the_targets_own_texts():
    judge = LanguageJudge("eng", "crk", target_card=CRK, source_card=ENG, target_texts=CREE_REFERENCES)
    assert judge.uninformative("fra") is True  # Cree words are "French" to the detector
    assert judge.uninformative("eng") is False  # their circumflexes tell them from English
    got = judge.judge("kipimâtisin")
    assert (got.wrong_language, got.language) == (False, "fra")
    assert judge.judge("I say so").wrong_language is True
    # without the corpus's texts the entry's reference is the check
    alone = LanguageJudge("eng", "crk", target_card=CRK, source_card=ENG)
    assert alone.uninformative("fra", "ê-ayâyân") is True
    assert alone.uninformative("fra", "they walk") is False
    assert alone.judge("ê-ayât", reference="ê-ayâyân").wrong_language is False
    assert alone.judge("I say so", reference="nititwân").wrong_language is True


def test_the_target_analyzer_is_loaded_for_code_switching_without_the_fst_metric(tmp_path):
    from tests.fst._support import build_tiny_hfstol

    path = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    items = [item(0, "he/she sleeps", "nipâw", "atim nipâw"), item(1, "a dog", "atim", "atim")]
    ctx = context("eng", "xyz", card=LanguageCard(code="xyz", name="Unknown"), source_card=ENG,
                  options={"analyzer_path": str(path)})
    per, cs = run_metric(CodeSwitchingMetric(), items, ctx)
    assert callable(ctx.shared["target_accepts"]) and ctx.shared["target_accepts"]("atim") is True
    assert cs.extra["language_id"]["target_analyzer"] is True
    assert per[0].detail["target_evidence"] == pytest.approx(1.0)
    without = run_metric(CodeSwitchingMetric(), items, context("eng", "xyz", card=LanguageCard(code="xyz", name="U"),
                                                                source_card=ENG))[1]
    assert without.extra["language_id"]["target_analyzer"] is False


def _ewe_judge(**kw):
    return LanguageJudge("fra", "ewe", target_card=EWE, source_card=FRA, loanwords=EWE.allowed_loanwords, **kw)


def test_plain_english_and_short_french_are_wrong_language_for_ewe():
    judge = _ewe_judge()
    got = {text: judge.judge(text) for text in ("I drink water.", "Le président", "Selon", "Tom is vile.",
                                                 "Dans la capitale", "Un examen")}
    assert {t: (g.wrong_language, g.language) for t, g in got.items()} == {
        "I drink water.": (True, "eng"), "Le président": (True, "fra"), "Selon": (True, "fra"),
        "Tom is vile.": (True, "eng"), "Dans la capitale": (True, "fra"), "Un examen": (True, "fra")}
    assert got["Tom is vile."].confidence is None  # the detector said French; "is" is English


def test_short_ewe_is_not_french_or_english():
    ewe_texts = ["Le Togo la, dukplɔla la va ɖo Lomé.", "Ame siwo le afi sia la me nye nye xɔlɔ̃wo o.",
                 "Dzidzɔ le nye dzi me be mieva.", "Nya si wogblɔ la to nyuie.", "Ame si ƒe to me ɖe."]
    judge = _ewe_judge(target_texts=ewe_texts)
    assert {"la", "me", "si", "to"} <= judge.ambiguous  # function words of French or English that Ewe uses
    assert "le" in judge.ambiguous  # a frequent word of the Ewe card and a French article
    for text in ("Le", "La", "Si", "To", "Côte d'Ivoire", "Sénégal: Tsi", "Burkina Faso"):
        got = judge.judge(text)
        assert got.wrong_language is False, (text, got)


def test_the_sources_names_are_capitalised_inside_a_sentence_in_runs_or_as_a_headlines_topic():
    keys, names = source_words("Lutte antiterroriste: le Maroc et la Côte d'Ivoire. Nigéria: «Deux morts» - "
                               "Burkina Faso: Attaque à Lomé")
    assert sorted(names) == ["burkina", "côte", "d'ivoire", "faso", "lomé", "maroc", "nigéria"]
    assert {"lutte", "deux", "attaque", "antiterroriste"} <= keys and not {"lutte", "deux", "attaque"} & names
    assert source_words("Mali €“ Tentative d'assassinat")[1] == frozenset({"mali"})
    assert source_words("Jeudi 22 Juillet, la Haute Cour")[1] == frozenset({"juillet", "haute", "cour"})


def test_an_output_copied_from_its_source_is_wrong_language():
    judge = _ewe_judge()
    source = "Lutte antiterroriste: l'Allemagne prête main forte à l'armée du Niger."
    cases = {  # output: (with the source, without it)
        "Lutte": ((True, "fra"), (False, None)),  # a capitalised word of the source, not known as a name
        "Lutte antiterroriste": ((True, "fra"), (False, "fra")),
        "forte": ((True, "fra"), (False, "fra")),  # no French function word: the detector alone is not enough
        "Niger": ((False, None), (False, None)),  # a name of the source (capitalised inside a sentence)
        "ONU": ((False, None), (False, None)),  # an acronym is carried over as it is
        "Lutte antiterroriste Dzamani yi": ((False, "fra"), (False, "fra")),  # as many words of its own
    }
    got = {text: (judge.judge(text, source=source), judge.judge(text)) for text in cases}
    assert {t: tuple((g.wrong_language, g.language) for g in pair) for t, pair in got.items()} == cases
    assert got["Lutte"][0].target_evidence == 0.0
    # the reference's words and the target's own words are no copies
    assert judge.judge("Lutte", frozenset({"lutte"}), source=source).wrong_language is False
    assert judge.judge("Lutte ɖe ŋɔdi ŋu", source=source).wrong_language is False
    # a headline's topic is a name: an Ewe output that carries it over is not a copy
    headline = "Nigéria: le président Muhammadu Buhari a reporté son check-up médical à Londres."
    assert judge.judge("Nigéria:", source=headline).wrong_language is False
    assert judge.judge("Reporté", source=headline).wrong_language is True


def test_code_switching_reads_the_entrys_source_for_copies():
    items = [item(0, "Jeudi 22 juillet, la Haute Cour a tranché.",
                  "Le Yawoɖa, Juillet 22 lia, ʋɔnudrɔ̃ƒe gã la drɔ̃ ʋɔnu.", "Jeudi"),
             item(1, "Deux morts à Lomé.", "Ame eve ku le Lomé.", "Deux"),
             item(2, "Deux morts à Lomé.", "Ame eve ku le Lomé.", "Jeudi")]
    per, cs = run_metric(CodeSwitchingMetric(), items, context("fra", "ewe", card=EWE, source_card=FRA))
    assert [(p.detail["wrong_language"], p.detail["language"]) for p in per] == [
        (True, "fra"), (True, "fra"), (False, None)]  # a word of another entry's source is a name, as before
    assert [p.value for p in per] == [1.0, 1.0, 0.0]


def test_a_target_without_card_keeps_the_script_of_its_references():
    items = [item(0, "Hello world and goodbye", "Привет мир и до свидания", "Привет world и goodbye"),
             item(1, "Good morning", "Доброе утро", "Good morning")]
    per, cs = run_metric(CodeSwitchingMetric(), items, context("eng", "rus"))
    assert per[0].value == pytest.approx(0.5)  # world, goodbye: Latin words for a Cyrillic target
    assert per[0].detail["wrong_language"] is False and per[0].detail["target_evidence"] == pytest.approx(0.5)
    assert per[1].value == 1.0 and per[1].detail["language"] == "eng"
    judge = LanguageJudge("eng", "rus", script_of=token_script)
    assert judge.judge("Привет world и goodbye", target_scripts={"Cyrl"}).wrong_language is False
    assert judge.judge("Привет world и goodbye").wrong_language is True  # without the references' script


@pytest.mark.shared_data
def test_cree_verb_form_runs_without_an_analyzer(tmp_path):
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run

    folder = SHARED_DATA / "crk" / "verbforms"
    corpus = read_corpus(folder / "corpus.jsonl", source_lang="eng", target_lang="crk").value
    ids = [e.id for e in corpus.entries]
    wrong = {}
    for name in ("wrong-person", "macron", "no-circumflex", "oracle", "mixed"):
        run = read_run(folder / "runs" / f"{name}.jsonl", entry_ids=ids).value
        res = score_run(ScoringRequest(run_id=name, corpus=corpus, run=run, target_card=CRK, source_card=ENG,
                                       include=["core.code_switching"], n_bootstrap=10,
                                       options={"analyzers_dir": str(tmp_path)}))
        row = next(r for r in res.metric_rows if r.metric_id == "core.code_switching")
        wrong[name] = row.extra["wrong_language_by_language"]
        assert "wrong_language_output" not in [c.code for c in res.run_card.score_caveats]
        if name == "wrong-person":
            assert res.run_card.scores.code_switching_rate == 0.0
            assert row.extra["language_id"]["target_analyzer"] is False
    # the mixed run's 55 English copies of the source are still wrong-language, nothing else is
    assert wrong == {"wrong-person": {}, "macron": {}, "no-circumflex": {}, "oracle": {}, "mixed": {"eng": 55}}
    # with the strict analyzer, code-switching alone loads it (core.fst does not run)
    run = read_run(folder / "runs" / "wrong-person.jsonl", entry_ids=ids).value
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    res = score_run(ScoringRequest(run_id="wp", corpus=corpus, run=run, target_card=CRK, source_card=ENG,
                                   include=["core.code_switching"], n_bootstrap=10,
                                   options={"analyzer_path": str(analyzer)}))
    row = next(r for r in res.metric_rows if r.metric_id == "core.code_switching")
    assert row.extra["language_id"]["target_analyzer"] is True and row.extra["target_lexicon_used"] is True
    assert row.extra["wrong_language_entries"] == 0 and res.run_card.scores.code_switching_rate == 0.0


def _mafand_corpus() -> tuple[Corpus, list[str], list[str]]:
    mafand = SHARED_DATA / "ewe" / "mafand-fr-ewe"
    fr, ewe = _lines(mafand / "test.fr"), _lines(mafand / "test.ewe")
    entries = [Entry(id=str(i), source=s, reference=r) for i, (s, r) in enumerate(zip(fr, ewe, strict=True))]
    return Corpus(corpus_id="mafand", language_pair=LanguagePair(source="fra", target="ewe"), entries=entries), fr, ewe


def _wrong(corpus: Corpus, outputs: list[str]) -> list[bool]:
    run = Run(meta=RunMeta(run_id="x"), corpus_id=corpus.corpus_id,
              outputs=[Output(id=e.id, predicted=o) for e, o in zip(corpus.entries, outputs, strict=True)])
    res = score_run(ScoringRequest(run_id="x", corpus=corpus, run=run, target_card=EWE, source_card=FRA,
                                   include=["core.code_switching"], n_bootstrap=10))
    return [bool(e is not None and e.detail.get("wrong_language")) for e in res.per_entry["core.code_switching"]]


@pytest.mark.shared_data
def test_english_sentences_and_short_french_segments_for_ewe():
    import json

    corpus, fr, ewe = _mafand_corpus()
    english = [unicodedata.normalize("NFC", e["source"])
               for p in sorted((SHARED_DATA / "tatoeba" / "corpora").glob("*.json"))
               for e in json.loads(p.read_text(encoding="utf-8"))["entries"]]
    part = corpus.model_copy(update={"entries": corpus.entries[:len(english)]})
    assert (sum(_wrong(part, english)), len(english)) == (194, 200)  # 82 % before
    n = len(ewe)
    french = ewe_fp = 0
    for k in (1, 2, 3):
        french += sum(_wrong(corpus, [" ".join(line.split()[:k]) for line in fr]))
        ewe_fp += sum(_wrong(corpus, [" ".join(ewe[(i + n - 1) % n].split()[:k]) for i in range(n)]))
    # of 3,624 and 3,660 segments with a word to judge (2,697 and 18 before the source was read, 2,154 and 281
    # before the target's evidence)
    assert (french, ewe_fp) == (3102, 19)
