"""Review pane: speakers' error spans and corrections shown; the promote action makes them variants."""

from __future__ import annotations

from mteval_gui.app import review
from mteval_gui.app.entry_review import load_review_data
from mteval_gui.domain.judgments import Judgment
from mteval_gui.qt.entries_page import EntriesPage
from mteval_gui.qt.review_pane import ReviewPane
from mteval_gui.store import repo
from tests.app.pack_helpers import make_workspace


def test_spans_corrections_and_the_promote_action(qtbot, tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="d1-2", adequacy=2, payload={
        "spans": [{"start": 0, "end": 2, "severity": "major", "category": "morphology"}],
        "correction": "kisipwêhtân"}))
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    text, html = pane.text.toPlainText(), pane.text.toHtml()
    assert "Error spans (ana): nisipwêhtânân [major morphology]" in text
    assert "Correction (ana): kisipwêhtân" in text
    assert "#f6b8b8" in html  # the major span is marked
    assert not pane.promote_button.isHidden()
    # the correction equals the reference: nothing new
    pane.set_blind(True)
    assert pane.promote_button.isHidden() and "Correction" not in pane.text.toPlainText()
    pane.set_blind(False)
    pane.show_data(load_review_data(ws, "c", "d1-1", [("sys1", "system-one")]))
    assert pane.promote_button.isHidden()

    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="d1-3", adequacy=3,
                                        payload={"correction": "ê-ayâyâhk"}))
    page = EntriesPage()
    qtbot.addWidget(page)
    page.ratings.set_workspace(ws)
    asked = []
    page.review.promote_requested.connect(lambda r, e: asked.append((r, e)))
    page.review.show_data(load_review_data(ws, "c", "d1-3", [("sys1", "system-one")]))
    page.review.promote_button.click()
    assert asked == [("sys1", "d1-3")]
    assert repo.get_entry(ws, "c", "d1-3").variants == ["ê-ayâyâhk"]
    assert repo.get_corpus_info(ws, "c")["version"] == "1+s1"
    assert page.ratings.status.text() == "Added 1 variant(s) (c 1 -> 1+s1); rescore the runs to use them"
    ws.close()


def test_the_span_summary_is_in_the_interface_language(qtbot, tmp_path):
    from PySide6.QtCore import QCoreApplication, QTranslator

    from mteval_gui.qt.i18n import qm_path

    ws = make_workspace(tmp_path / "ws.sqlite")
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="d1-2", adequacy=2, payload={
        "spans": [{"start": 0, "end": 2, "severity": "major", "category": "untranslated"},
                  {"start": 3, "end": 5, "severity": "minor", "category": "spelling"}]}))
    translator = QTranslator()
    assert translator.load(str(qm_path("fr")))
    QCoreApplication.installTranslator(translator)
    try:
        pane = ReviewPane()
        qtbot.addWidget(pane)
        pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
        # severities and categories in French
        assert "[majeure non traduit, mineure orthographe]" in pane.text.toPlainText()
    finally:
        QCoreApplication.removeTranslator(translator)
