"""Review pane: texts, character diff, verdicts, FST panel from stored analyses, reference words."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from mteval_gui.app.entry_review import FstWord, OutputView, ReferenceAnalyser, fst_words, load_review_data
from mteval_gui.domain.run import Output
from mteval_gui.qt.review_pane import ACCEPTED_BG, NON_STANDARD_BG, REJECTED_BG, ReviewPane


def test_fst_words_from_stored_detail():
    view = OutputView(
        "r",
        "r",
        Output(id="e1", predicted="nipaw atim"),
        {
            "core.fst": {
                "value": 0.5,
                "values": {"accepted": 1, "tokens": 2},
                "detail": {
                    "analyses": [
                        {"token": "nipaw", "form": "nipaw", "accepted": False, "analyses": []},
                        {
                            "token": "atim",
                            "form": "atim",
                            "accepted": True,
                            "analyses": ["atim+N+A+Sg", "atim+N+A+Obv"],
                        },
                    ]
                },
            },
            "core.ortho": {
                "value": 0.5,
                "detail": {
                    "flagged": [
                        {
                            "token": "nipaw",
                            "violations": [
                                {"code": "non_standard", "message": "non-standard spelling: accepted by desc"}
                            ],
                        }
                    ]
                },
            },
        },
    )
    words = fst_words(view)
    assert words == [FstWord("nipaw", False, (), "non-standard spelling: accepted by desc", ()),
                     FstWord("atim", True, ("atim+N+A+Sg", "atim+N+A+Obv"))]


def test_a_word_accepted_after_the_folds_is_marked(qtbot, scored_ws):
    view = OutputView("r", "r", Output(id="e1", predicted="nipāw"), {
        "core.fst": {"value": 1.0, "detail": {"analyses": [
            {"token": "nipāw", "form": "nipâw", "accepted": True, "analyses": ["nipâw+V+AI+Ind+3Sg"],
             "folded": "nipâw"}]}}})
    assert fst_words(view) == [FstWord("nipāw", True, ("nipâw+V+AI+Ind+3Sg",), None, (), "nipâw")]
    data = load_review_data(scored_ws, "mini", "e1", [("poor", "model-poor")])
    data.outputs[0].details["core.fst"] = view.details["core.fst"]
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(data)
    item = pane.fst.topLevelItem(0)
    assert (item.text(0), item.text(1)) == ("nipāw", "accepted after fold")
    assert item.background(0).color() == QColor(NON_STANDARD_BG)
    assert "accepted as nipâw after the orthographic folds" in item.toolTip(2)


def test_pane_shows_verdicts_and_colours(qtbot, scored_ws):
    data = load_review_data(scored_ws, "mini", "e1", [("poor", "model-poor")])
    data.outputs[0].details["core.fst"] = {"value": 0.5, "detail": {"analyses": [
        {"token": "wapamew", "accepted": False, "analyses": []},
        {"token": "atim", "accepted": True, "analyses": ["atim+N+A+Sg"]}]}}
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(data)
    html = pane.text.toHtml()
    text = pane.text.toPlainText()
    assert "Cree linter  MISS  — VOWEL_LENGTH" in text
    assert "vowel length is distinctive in SRO" in text
    assert "wâpamêw atim" in text  # the reference
    assert "#f8c8c8" in html and "#c8f0c8" in html  # the diff marks deletions and insertions
    items = [pane.fst.topLevelItem(i) for i in range(pane.fst.topLevelItemCount())]
    assert [i.text(0) for i in items] == ["wapamew", "atim"]
    assert items[0].background(0).color() == QColor(REJECTED_BG)
    assert items[1].background(0).color() == QColor(ACCEPTED_BG)
    assert items[1].childCount() == 1
    assert QColor(NON_STANDARD_BG).isValid()


def test_pane_without_fst_results(qtbot, scored_ws):
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(load_review_data(scored_ws, "mini", "e3", [("poor", "model-poor")]))
    assert "timeout" in pane.text.toPlainText()
    assert "No FST analyses" in pane.fst.topLevelItem(0).text(0)


@pytest.mark.shared_data
def test_reference_words_with_installed_analyzer(qtbot, shared_data, tmp_path, monkeypatch):
    from mteval_gui.cards import try_load_card
    from mteval_gui.fst.install import install_analyzer

    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "analyzers"))
    install_analyzer("crk", shared_data / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol",
                     card=try_load_card("crk"))
    words = ReferenceAnalyser().analyse("crk", "nipâw xyzzy")
    assert [w.token for w in words] == ["nipâw", "xyzzy"]
    assert words[0].accepted and any(a.startswith("nipâw+V+AI") for a in words[0].analyses)
    assert not words[1].accepted and words[1].analyses == ()
    assert ReferenceAnalyser().analyse("ewe", "ɖevi") is None


def test_pane_shows_the_linters_explanation_in_french(qtbot, scored_ws, french):
    data = load_review_data(scored_ws, "mini", "e1", [("poor", "model-poor")])
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(data)
    text = pane.text.toPlainText()
    assert ("explication : non acceptable : VOWEL_LENGTH : il manque à wapamew les marques de voyelles longues "
            "(wâpamêw) ; la longueur vocalique est distinctive dans l’orthographe romaine standard (SRO)") in text
    assert "comparé à : référence" in text  # a MISS matched nothing
    assert "Difficulté : 1" in text
    assert "vowel length is distinctive" not in text and "explanation" not in text


def test_a_non_standard_spelling_shows_the_descriptive_analysis(qtbot, scored_ws):
    """The FST row of a word only the descriptive analyzer accepts showed no analysis at all."""
    view = OutputView("r", "r", Output(id="e1", predicted="nipaw"), {
        "core.fst": {"value": 0.0, "detail": {"analyses": [
            {"token": "nipaw", "form": "nipaw", "accepted": False, "analyses": []}]}},
        "core.ortho": {"value": 0.0, "detail": {"flagged": [{"token": "nipaw", "violations": [
            {"code": "non_standard", "message": "non-standard spelling: rejected by strict, accepted by desc as "
                                                "nipâw+V+AI+Ind+3Sg+Err/Orth",
             "analyses": ["nipâw+V+AI+Ind+3Sg+Err/Orth", "nipâw+V+AI+Imp+2Sg+Err/Orth"]}]}]}}})
    [word] = fst_words(view)
    assert word.descriptive == ("nipâw+V+AI+Ind+3Sg+Err/Orth", "nipâw+V+AI+Imp+2Sg+Err/Orth")
    data = load_review_data(scored_ws, "mini", "e1", [("poor", "model-poor")])
    data.outputs[0].details.update(view.details)
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(data)
    item = pane.fst.topLevelItem(0)
    assert [item.text(i) for i in range(3)] == ["nipaw", "non-standard spelling", "nipâw+V+AI+Ind+3Sg+Err/Orth  (+1)"]
    assert [(item.child(i).text(1), item.child(i).text(2)) for i in range(item.childCount())] == [
        ("descriptive", "nipâw+V+AI+Ind+3Sg+Err/Orth"), ("descriptive", "nipâw+V+AI+Imp+2Sg+Err/Orth")]
