"""Review pane: the collapsible "Same document" section and the document rating control."""

from __future__ import annotations

from mteval_gui.app.entry_review import load_review_data
from mteval_gui.qt.review_pane import ReviewPane
from tests.app.pack_helpers import make_workspace


def test_same_document_section_collapses_and_hides_references_when_blind(qtbot, tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    toggle = pane.document_toggle
    assert toggle.isVisible() and toggle.isEnabled() and not pane.document_text.isVisible()
    assert toggle.text() == "Same document: doc1 (2 neighbouring segment(s))"
    toggle.click()
    assert pane.document_text.isVisible()
    assert pane.document_text.toPlainText() == ("-1 I say so\nReference: nititwân\nOutput: nititwân\n"
                                                "This segment you leave\n"
                                                "+1 as I am\nReference: ê-ayâyân\nOutput: ê-ayâyan")
    pane.set_blind(True)
    assert "Reference" not in pane.document_text.toPlainText()
    pane.set_blind(False)
    # the section stays open from entry to entry; an entry alone in its document has nothing to show
    pane.show_data(load_review_data(ws, "c", "d2-1", [("sys1", "system-one")]))
    assert toggle.isVisible() and not toggle.isEnabled() and not pane.document_text.isVisible()
    pane.show_data(load_review_data(ws, "c", "x-1", [("sys1", "system-one")]))
    assert not toggle.isVisible() and not pane.document_text.isVisible()
    # two runs compared: the neighbours' outputs are the first run's, named
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one"), ("sys1", "again")]))
    assert "Output — system-one: nititwân" in pane.document_text.toPlainText()
    ws.close()


def test_same_document_section_in_french(qtbot, tmp_path, french):
    ws = make_workspace(tmp_path / "ws.sqlite")
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    assert pane.document_toggle.text() == "Même document\u202f: doc1 (2 segments voisins)"
    assert pane.document_text.toPlainText().startswith(
        "-1 I say so\nRéférence : nititwân\nSortie : nititwân\nCe segment you leave")  # plain text: spaces
    assert pane.document_rate_button.text() == "Noter le document…"
    ws.close()


def test_document_rating_dialog_takes_digits_for_adequacy_then_fluency(qtbot):
    from PySide6.QtCore import Qt

    from mteval_gui.qt.document_rating import DocumentRatingDialog

    dialog = DocumentRatingDialog("doc1", "system-one")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.save_button.isEnabled()
    qtbot.keyClick(dialog.adequacy, Qt.Key.Key_4)
    assert dialog.values() == (4, None, None) and dialog.focusWidget() is dialog.fluency
    qtbot.keyClick(dialog.fluency, Qt.Key.Key_2)
    dialog.note.setFocus()
    qtbot.keyClicks(dialog.note, "5 ok")  # digits in the note are text
    assert dialog.values() == (4, 2, "5 ok") and dialog.save_button.isEnabled()
    again = DocumentRatingDialog("doc1", "system-one", 3, 5, "fine")
    qtbot.addWidget(again)
    assert again.values() == (3, 5, "fine")
    assert again.adequacy.currentText() == "3 – Much" and again.fluency.currentText() == "5 – Flawless"


def test_rate_the_document_from_the_entries_page(qtbot, tmp_path, monkeypatch):
    from mteval_gui.app.documents import document_rating
    from mteval_gui.qt.document_rating import DocumentRatingDialog
    from mteval_gui.qt.entries_page import EntriesPage

    ws = make_workspace(tmp_path / "ws.sqlite")
    page = EntriesPage()
    qtbot.addWidget(page)
    page.set_workspace(ws)
    page.ratings.reviewer_combo.setCurrentIndex(page.ratings.reviewer_combo.findData("ana"))
    page.review.show_data(load_review_data(ws, "c", "x-1", [("sys1", "system-one")]))
    assert page.review.document_rate_button.isHidden()
    assert page.rate_document() is False and page.ratings.status.text() == "This entry belongs to no document"

    shown = []

    def answer(self):
        shown.append(self.values())
        self.type_digit(2)
        self.type_digit(4)
        self.note.setText("the last sentence drops the subject")
        return DocumentRatingDialog.DialogCode.Accepted

    monkeypatch.setattr(DocumentRatingDialog, "exec", answer)
    page.review.show_data(load_review_data(ws, "c", "d1-3", [("sys1", "system-one")]))
    assert not page.review.document_rate_button.isHidden()
    page.review.document_rate_button.click()
    j = document_rating(ws, "sys1", "ana", "doc1")
    assert (j.entry_id, j.adequacy, j.fluency, j.note) == ("d1-1", 2, 4, "the last sentence drops the subject")
    assert page.ratings.status.text() == "Document doc1 rated"
    assert page.rate_document() is True  # the dialog opens with the rating in force
    assert shown == [(None, None, None), (2, 4, "the last sentence drops the subject")]
    ws.close()
