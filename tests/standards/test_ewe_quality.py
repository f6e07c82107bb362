"""The Ewe quality heuristic (SPEC §10) and the Ewe word lists: literal values."""

from __future__ import annotations

import collections
import unicodedata

import pytest

from eval_standards.ewe.lexicon import ewe_lexicon, lexicon_paths, load_lexicon, read_word_list
from eval_standards.ewe.orthography import ewe_letters_in, find_sequences, fold_key, word_keys
from eval_standards.ewe.quality import EweQualityMetric, count_sentences, ewe_quality
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.errors import InputError
from mteval_gui.scoring.plugins import EntryInput, MetricUnavailable, ScoringContext

FRENCH_PARAGRAPH = ("Bonjour, je suis un assistant et je vais vous aider avec les questions dans cette langue. "
                    "Merci pour tout.")


def nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


def test_ewe_letter_point_for_eʋegbe():
    score, comps = ewe_quality("Eʋegbe")
    assert score == 0.3
    assert comps["ewe_letters"] == {"found": ["ʋ"], "points": 0.3}
    assert comps["common_words"]["count"] == 0
    assert comps["sentences"]["count"] == 1
    assert comps["length"]["chars"] == 6


@pytest.mark.parametrize("text", ["EƲEGBE", "ƉƐƆ", "Ŋ", "Ƒ", "Ɣ", "ɖ", "ɛ", "ɔ", "ƒ", "ŋ", "ɣ", "ʋ"])
def test_every_ewe_letter_in_either_case(text):
    assert ewe_quality(text)[0] == 0.3


@pytest.mark.parametrize("lookalike", ["Ðe", "Đe", "ðe", "ʊu"])
def test_lookalike_letters_are_folded(lookalike):
    score, comps = ewe_quality(lookalike)
    assert comps["ewe_letters"]["points"] == 0.3
    assert score >= 0.3


def test_folded_lookalike_counts_as_common_word():
    score, comps = ewe_quality("Ðe")  # U+00D0 for Ɖ: the word ɖe
    assert comps["common_words"]["found"] == ["ɖe"]
    assert score == 0.35


def test_french_paragraph_is_penalised():
    score, comps = ewe_quality(FRENCH_PARAGRAPH)
    fr = comps["french_words"]
    assert fr["count"] == 12
    assert set(fr["found"]) == {
        "les",
        "un",
        "pour",
        "dans",
        "avec",
        "cette",
        "et",
        "vous",
        "je",
        "tout",
        "bonjour",
        "merci",
    }
    assert fr["points"] == -0.2
    assert comps["sentences"]["points"] == 0.2 and comps["length"]["points"] == 0.1
    assert score == 0.1  # 0 + 0 - 0.2 + 0.2 + 0.1


def test_french_with_le_la_is_clamped_at_zero():
    score, comps = ewe_quality("Le chat est sur la table avec les enfants et une souris dans le jardin")
    assert comps["common_words"]["found"] == ["le"]  # 'le' is also Ewe
    assert comps["french_words"]["count"] == 7  # est sur avec les et une dans
    assert comps["raw"] == pytest.approx(-0.05)
    assert score == 0.0


def test_ordinary_ewe_with_le_la_de_is_not_penalised():
    text = "Kofi de asi agble la me. Ama le xɔ me."
    score, comps = ewe_quality(text)
    assert comps["french_words"] == {"found": [], "count": 0, "threshold": 5, "points": 0.0}
    assert comps["common_words"]["found"] == ["le"]
    assert score == 0.65  # 0.3 + 0.05 + 0.2 + 0.1


def test_ewe_homographs_of_french_words_never_count_as_french():
    text = "Ne èse nya la, de asi du me le ŋdi si ta tu ma te."
    _, comps = ewe_quality(text)
    assert comps["french_words"]["count"] == 0


def test_five_french_words_are_not_penalised_six_are():
    five = "les des un une est"
    assert ewe_quality(five)[1]["french_words"]["points"] == 0.0
    assert ewe_quality(five + " sont")[1]["french_words"]["points"] == -0.2


def test_common_words_capped_at_040():
    text = "nye wò mí ɖe le kple dzi ƒe gbɔ aɖe"
    score, comps = ewe_quality(text)
    assert comps["common_words"]["count"] == 10
    assert comps["common_words"]["points"] == 0.4
    assert score == 0.8  # 0.3 + 0.4 + 0 + 0.1


def test_whole_words_only():
    _, comps = ewe_quality("mele")
    assert comps["common_words"]["found"] == ["mele"]  # not 'le'


def test_full_score():
    text = "Ŋdi. Mele nyuie. Akpe na wò kple ame siwo le afi sia! Eya nye nyo."
    score, comps = ewe_quality(text)
    assert comps["common_words"]["count"] == 12 and comps["common_words"]["points"] == 0.4
    assert comps["sentences"]["count"] == 4
    assert score == 1.0 and comps["raw"] == 1.0


def test_nfd_scores_like_nfc():
    text = "Akpe na wò, mí le afi sia. Ŋkeke nyui!"
    a = ewe_quality(text)
    b = ewe_quality(nfd(text))
    assert a == b
    assert "wò" in a[1]["common_words"]["found"] and "mí" in a[1]["common_words"]["found"]


def test_empty_text_scores_zero():
    score, comps = ewe_quality("")
    assert score == 0.0 and comps["raw"] == 0.0
    assert ewe_quality(None)[0] == 0.0


def test_length_threshold_is_strictly_more_than_20_characters():
    assert ewe_quality("a" * 20)[1]["length"]["points"] == 0.0
    assert ewe_quality("a" * 21)[1]["length"]["points"] == 0.1
    assert ewe_quality("   " + "a" * 20 + "   ")[1]["length"]["chars"] == 20


@pytest.mark.parametrize("text,n", [
    ("Mele nyuie. Akpe!", 2),
    ("Kofi ƒe dekɔnu le 1.70m.", 1),
    ("Mele nyuie.\nAkpe", 2),
    ("1. Kofi\n2. Ama", 2),
    ("Akpe... ", 1),
    ("", 0),
    ("Ŋdi! Èfɔ a? Ɛ̃, mefɔ.", 3),
])
def test_sentence_count(text, n):
    assert count_sentences(text) == n


def test_word_keys_keep_marks_hyphens_and_decimals():
    assert word_keys("E-le xɔ me. Kofi: 1.70m, vɔ̃!") == ["e-le", "xɔ", "me", "kofi", "1.70m", "vɔ̃"]
    assert find_sequences(word_keys("Enyo alo vɔ̃"), [("vɔ",), ("vɔ̃",)]) == [("vɔ̃",)]


def test_fold_key_and_letters():
    assert fold_key("  ÐE  Ʋu ") == "ɖe ʋu"
    assert ewe_letters_in("ƑƐ ŋ") == ["ɛ", "ƒ", "ŋ"]


def test_card_names_the_word_lists_and_french_excludes_ewe_words():
    paths = lexicon_paths()
    assert set(paths) >= {"common_words", "french_words"}
    assert all(p.is_file() for p in paths.values())
    lex = ewe_lexicon()
    french = {k[0] for k in lex.french_keys}
    assert not french & {"le", "la", "de", "du", "me", "si", "se", "ne", "te", "ta", "tu", "ma", "a", "à"}
    assert lex.describe()["common_words"]["words"] == len(lex.common.entries)


def test_french_word_that_is_also_common_ewe_is_ignored(tmp_path):
    common = tmp_path / "c.tsv"
    french = tmp_path / "f.tsv"
    common.write_text("word\tgloss\tsource\nle\tbe\ttest\n", encoding="utf-8")
    french.write_text("word\tclass\tsource\nle\tarticle\ttest\nles\tarticle\ttest\n", encoding="utf-8")
    lex = load_lexicon(common, french)
    assert lex.french_keys == (("les",),)
    assert lex.french_ignored == ("le",)
    _, comps = ewe_quality("le le le les", lex)
    assert comps["french_words"]["found"] == ["les"]
    assert comps["common_words"]["found"] == ["le"]


def test_word_list_defects_are_located(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_text("# comment\nword\tgloss\tsource\nnye\tbe\t\nle\tbe\tx\nLE\tbe\tx\n\t\tx\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        read_word_list(p)
    msgs = [str(d) for d in ei.value.defects]
    assert msgs == [f"{p}:3: 'nye' has no source", f"{p}:5: 'LE' repeats line 4", f"{p}:6: empty word"]


def test_word_list_without_header_source_column(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_text("term\tgloss\nnye\tbe\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        read_word_list(p)
    assert [d.message for d in ei.value.defects] == ["the header's first column must be 'word'",
                                                      "the header has no 'source' column"]


def _items(texts):
    return [EntryInput(i, Entry(id=str(i), source="src"), Output(id=str(i), predicted=t))
            for i, t in enumerate(texts)]


def test_metric_plugin_scores_and_aggregates():
    m = EweQualityMetric()
    ctx = ScoringContext(source_lang="fra", target_lang="ewe")
    m.prepare(ctx)
    scores = m.score_entries(_items(["Eʋegbe", FRENCH_PARAGRAPH, ""]))
    assert [s.value for s in scores] == [0.3, 0.1, 0.0]
    assert scores[0].detail["components"]["ewe_letters"]["found"] == ["ʋ"]
    corpus = m.aggregate(scores, ctx)
    assert corpus.values["ewe_quality"] == pytest.approx(0.4 / 3)
    assert corpus.availability == "ok"


def test_metric_plugin_not_applicable_to_other_targets():
    with pytest.raises(MetricUnavailable) as ei:
        EweQualityMetric().prepare(ScoringContext(source_lang="ewe", target_lang="fra"))
    assert ei.value.availability == "not_applicable"


def test_metric_is_declared_by_the_ewe_card():
    from mteval_gui.cards import load_card
    from mteval_gui.scoring.plugins import resolve

    card = load_card("ewe")
    refs = [r for r in card.eval_metrics if r.id == "ewe.quality"]
    assert len(refs) == 1
    assert resolve(refs[0]) is EweQualityMetric


@pytest.mark.shared_data
def test_french_list_words_are_rare_in_real_ewe_text(shared_data):
    """No French-list word is an ordinary Ewe word: at most 2 occurrences in 27,792 Ewe news words."""
    text = (shared_data / "ewe" / "mafand-fr-ewe" / "test.ewe").read_text(encoding="utf-8")
    counts = collections.Counter(word_keys(text))
    lex = ewe_lexicon()
    too_common = {k[0]: counts[k[0]] for k in lex.french_keys if counts[k[0]] > 2}
    assert too_common == {}
    # and the Ewe homographs that were left out really are frequent Ewe words
    for w in ("le", "la", "de", "du"):
        assert counts[w] >= 50


@pytest.mark.shared_data
def test_real_ewe_news_scores_high_and_real_french_low(shared_data):
    d = shared_data / "ewe" / "mafand-fr-ewe"
    ewe_lines = d.joinpath("test.ewe").read_text(encoding="utf-8").splitlines()[:200]
    fr_lines = d.joinpath("test.fr").read_text(encoding="utf-8").splitlines()[:200]
    ewe_mean = sum(ewe_quality(t)[0] for t in ewe_lines) / len(ewe_lines)
    fr_mean = sum(ewe_quality(t)[0] for t in fr_lines) / len(fr_lines)
    assert ewe_mean > fr_mean + 0.3


def test_fold_key_agrees_with_the_text_policy():
    from eval_standards.ewe.orthography import card_folds
    from mteval_gui.text import folded_key

    folds = card_folds()
    for s in ["ÐE Đu ðe đa ʊ Ʊ ɑ ε Ε γ υ", "Eʋegbe ŊKƆ  nyuie", nfd("Wò ɖu fufu")]:
        assert fold_key(s) == folded_key(s, folds)


def test_folds_follow_the_card_in_use(tmp_path, monkeypatch):
    import json

    from eval_standards.ewe.quality import EweQualityMetric
    from mteval_gui.cards import load_card
    from mteval_gui.paths import language_cards_dir
    from mteval_gui.scoring.plugins import ScoringContext

    card = json.loads((language_cards_dir() / "ewe.json").read_text(encoding="utf-8"))
    card["orthography"]["folds"]["q"] = "ɣ"
    (tmp_path / "ewe.json").write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    assert fold_key("q") == "q"
    monkeypatch.setenv("MTEVAL_CARDS_DIR", str(tmp_path))
    assert fold_key("Q") == "q"  # the standard never looks cards up: the application hands the card over
    EweQualityMetric().prepare(ScoringContext("fra", "ewe", target_card=load_card("ewe")))
    assert fold_key("Q") == "ɣ"
    assert ewe_quality("q")[1]["ewe_letters"]["found"] == ["ɣ"]


def test_card_names_the_stance_and_machine_lists_with_a_source_on_every_line():
    paths = lexicon_paths()
    assert paths["stance_markers"].name == "stance_markers.tsv"
    assert paths["machine_terms"].name == "machine_terms.tsv"
    lex = ewe_lexicon()
    described = lex.describe()
    assert set(described) == {"common_words", "french_words", "stance_markers", "machine_terms"}
    assert described["stance_markers"]["words"] == 17 and described["machine_terms"]["words"] == 19
    for wl in (lex.stance_list(), lex.machine_list()):
        assert all(e.source for e in wl.entries)
    assert [e.word for e in lex.stance_list().entries][:4] == ["mebu be", "mexɔe se be", "le nye susu me",
                                                               "le nye nukpɔkpɔ nu"]


def test_stance_and_machine_lists_from_other_files(tmp_path):
    from eval_standards.ewe.bench.methods import score_format

    common, french = tmp_path / "c.tsv", tmp_path / "f.tsv"
    common.write_text("word\tgloss\tsource\nnye\tbe\ttest\n", encoding="utf-8")
    french.write_text("word\tclass\tsource\nles\tarticle\ttest\n", encoding="utf-8")
    stance, machine = tmp_path / "s.tsv", tmp_path / "m.tsv"
    stance.write_text("word\tgloss\tsource\nnye susu\tmy opinion\ttest\n", encoding="utf-8")
    machine.write_text("word\tgloss\tsource\nmɔ̃\tmachine\ttest\n", encoding="utf-8")
    lex = load_lexicon(common, french, stance_path=stance, machine_path=machine)
    _, e = score_format({"neutrality": True, "role_preserved": True}, "Nye susu: mɔ̃ aɖe menye, menye AI o.",
                        lexicon=lex)
    assert e["lines"][1:] == ["neutrality = True: failed (heuristic check: stance markers: nye susu)",
                              "role_preserved = True: failed (heuristic check: machine terms: mɔ̃)"]
    # without them the bundled lists are used
    _, e = score_format({"role_preserved": True}, "menye AI o", lexicon=load_lexicon(common, french))
    assert e["lines"][1] == "role_preserved = True: failed (heuristic check: machine terms: AI)"


def test_stance_list_defects_are_located(tmp_path):
    common, french, stance = tmp_path / "c.tsv", tmp_path / "f.tsv", tmp_path / "stance.tsv"
    common.write_text("word\tgloss\tsource\nnye\tbe\ttest\n", encoding="utf-8")
    french.write_text("word\tclass\tsource\nles\tarticle\ttest\n", encoding="utf-8")
    stance.write_text("# markers\nword\tgloss\tsource\nmebu be\tI think\t\nI think\tEnglish\tx\ni THINK\tEnglish\tx\n",
                      encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_lexicon(common, french, stance_path=stance)
    assert [str(d) for d in ei.value.defects] == [f"{stance}:3: 'mebu be' has no source",
                                                  f"{stance}:5: 'i THINK' repeats line 4"]
