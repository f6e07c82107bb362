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
    ws.close()


def test_same_document_section_in_french(qtbot, tmp_path, french):
    ws = make_workspace(tmp_path / "ws.sqlite")
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    assert pane.document_toggle.text() == "Même document\u00a0: doc1 (2\u00a0segments voisins)"
    assert pane.document_text.toPlainText().startswith("-1 I say so\nRéférence\u00a0: nititwân\nSortie\u00a0: nititwân\n"
                                                        "Ce segment you leave")
    ws.close()
