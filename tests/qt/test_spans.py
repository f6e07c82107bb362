"""Error spans (ESA) and corrections in the desktop review pane, driven by the keyboard."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTableView, QVBoxLayout, QWidget

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.qt.ratings import RatingsPanel
from mteval_gui.qt.spans import index_to_qt, qt_to_index, trimmed
from mteval_gui.store import judgments as jstore

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def host(qtbot, small_ws):
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="amy", name="Amy"))
    w = QWidget()
    lay = QVBoxLayout(w)
    table = QTableView()  # stands for the entries table that has the focus while rating
    lay.addWidget(table)
    panel = RatingsPanel(small_ws)
    lay.addWidget(panel)
    panel.install_shortcuts(w)
    panel.spans_left.connect(table.setFocus)
    panel.set_workspace(small_ws)
    panel.set_item("poor", "e1")  # output "wapamew atim" (reference "wâpamêw atim")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    table.setFocus()
    return w, panel, table


def _stored(ws, run="poor", entry="e1") -> Judgment:
    (j,) = [j for j in jstore.current_judgments(ws, run_id=run, reviewer_id="amy", task="A") if j.entry_id == entry]
    return j


def _type(widget, text: str) -> None:
    """Type ``text`` key by key (QTest.keyClicks knows only ASCII)."""
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))


def _keys(widget, *keys, modifier=Qt.KeyboardModifier.NoModifier):
    for key in keys:
        QTest.keyClick(widget, key, modifier)


def test_select_with_shift_arrows_and_mark_minor_then_major(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    assert ed.text.toPlainText() == "wapamew atim"
    assert ed.esa_label.text() == "ESA: not scored · spans not marked"
    QTest.keyClick(table, Qt.Key.Key_S)  # the cursor goes into the output
    assert ed.text.hasFocus()
    _keys(ed.text, *[Qt.Key.Key_Right] * 7, modifier=SHIFT)
    QTest.keyClick(ed.text, Qt.Key.Key_M)
    j = _stored(small_ws)
    assert j.payload == {"spans": [{"start": 0, "end": 7, "severity": "minor", "category": None}]}
    assert j.version == 1 and (j.adequacy, j.fluency) == (None, None)
    assert ed.esa_label.text() == "ESA: not scored · MQM penalty 1: 1 minor, 0 major, 0 critical, 0 missing"

    QTest.keyClick(ed.text, Qt.Key.Key_End)
    QTest.keyClick(ed.text, Qt.Key.Key_Left, CTRL_SHIFT)  # selects the word "atim"
    QTest.keyClick(ed.text, Qt.Key.Key_M, SHIFT)
    j = _stored(small_ws)
    assert j.payload["spans"] == [{"start": 0, "end": 7, "severity": "minor", "category": None},
                                  {"start": 8, "end": 12, "severity": "major", "category": None}]
    assert j.version == 2
    assert ed.esa_label.text() == "ESA: not scored · MQM penalty 6: 1 minor, 1 major, 0 critical, 0 missing"
    assert [ed.span_list.item(i).text() for i in range(ed.span_list.count())] == \
        ["«wapamew»  minor", "«atim»  major"]
    # both spans are highlighted in the output, each with its severity's colour
    colours = [(s.cursor.selectionStart(), s.cursor.selectionEnd(), s.format.background().color().name())
               for s in ed.text.extraSelections()]
    assert colours == [(0, 7, "#fff1a8"), (8, 12, "#f6b8b8")]


def test_the_word_under_the_cursor_category_and_severity_change(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    assert [ed.category_combo.itemData(i) for i in range(ed.category_combo.count())] == [
        None, "mistranslation", "omission", "addition", "untranslated", "grammar", "spelling", "punctuation",
        "terminology", "style", "other", "morphology"]  # the Plains Cree card adds morphology
    QTest.keyClick(table, Qt.Key.Key_S)
    _keys(ed.text, Qt.Key.Key_Right, Qt.Key.Key_Right)  # inside "wapamew", nothing selected
    QTest.keyClick(ed.text, Qt.Key.Key_M)
    assert _stored(small_ws).payload["spans"] == [{"start": 0, "end": 7, "severity": "minor", "category": None}]
    QTest.keyClick(ed.text, Qt.Key.Key_C)  # the category list opens on the span in hand
    popup = ed.category_combo.view()
    assert popup.isVisible()
    _keys(popup, *[Qt.Key.Key_Down] * 6)  # (no category) -> ... -> spelling
    QTest.keyClick(popup, Qt.Key.Key_Return)
    assert _stored(small_ws).payload["spans"] == [{"start": 0, "end": 7, "severity": "minor", "category": "spelling"}]
    QTest.keyClick(ed.text, Qt.Key.Key_Left)  # still inside the span: Shift+M makes it major
    QTest.keyClick(ed.text, Qt.Key.Key_M, SHIFT)
    j = _stored(small_ws)
    assert j.payload["spans"] == [{"start": 0, "end": 7, "severity": "major", "category": "spelling"}]
    assert j.version == 3
    # the next span marked takes the category chosen last
    QTest.keyClick(ed.text, Qt.Key.Key_End)
    QTest.keyClick(ed.text, Qt.Key.Key_Left, CTRL_SHIFT)
    QTest.keyClick(ed.text, Qt.Key.Key_M)
    assert _stored(small_ws).payload["spans"][1] == {"start": 8, "end": 12, "severity": "minor",
                                                     "category": "spelling"}


def test_delete_removes_the_span_in_hand_and_ctrl_z_undoes(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    QTest.keyClick(table, Qt.Key.Key_S)
    QTest.keyClick(ed.text, Qt.Key.Key_M)  # the word at the start: "wapamew"
    QTest.keyClick(ed.text, Qt.Key.Key_End)
    QTest.keyClick(ed.text, Qt.Key.Key_M, SHIFT)  # the word before the cursor at the end: "atim"
    assert [(s["start"], s["end"]) for s in _stored(small_ws).payload["spans"]] == [(0, 7), (8, 12)]
    QTest.keyClick(ed.text, Qt.Key.Key_Delete)  # the span in hand is the last marked
    j = _stored(small_ws)
    assert j.payload == {"spans": [{"start": 0, "end": 7, "severity": "minor", "category": None}]}
    assert j.version == 3
    QTest.keyClick(ed.text, Qt.Key.Key_Home)  # the cursor in "wapamew" takes it in hand
    QTest.keyClick(ed.text, Qt.Key.Key_Delete)
    assert _stored(small_ws).payload == {}  # the last span gone: the output is no longer marked
    assert ed.esa_label.text() == "ESA: not scored · spans not marked"
    QTest.keyClick(ed.text, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _stored(small_ws).payload == {"spans": [{"start": 0, "end": 7, "severity": "minor", "category": None}]}
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in ed.text.extraSelections()] == [(0, 7)]


def test_no_errors_records_an_empty_span_list(host, small_ws):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_0)
    assert _stored(small_ws).payload == {"spans": []}
    assert panel.span_editor.esa_label.text() == "ESA: not scored · no errors found"


def test_critical_missing_content_and_the_esa_score_by_keyboard(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    QTest.keyClick(table, Qt.Key.Key_S)
    QTest.keyClick(ed.text, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)  # "wapamew" critical
    assert _stored(small_ws).payload == {"spans": [{"start": 0, "end": 7, "severity": "critical", "category": None}]}
    QTest.keyClick(ed.text, Qt.Key.Key_O)  # missing content: no place in the output, category omission
    assert _stored(small_ws).payload["spans"][1] == {"missing": True, "severity": "minor", "category": "omission"}
    QTest.keyClick(ed.text, Qt.Key.Key_M, SHIFT)  # the missing span is in hand: it becomes major
    assert _stored(small_ws).payload["spans"][1] == {"missing": True, "severity": "major", "category": "omission"}
    assert [ed.span_list.item(i).text() for i in range(ed.span_list.count())] == \
        ["«wapamew»  critical", "«[missing content]»  major · omission"]
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in ed.text.extraSelections()] == [(0, 7)]
    QTest.keyClick(ed.text, Qt.Key.Key_E)  # the cursor goes into the ESA score
    assert ed.esa_spin.hasFocus()
    _type(ed.esa_spin.lineEdit(), "68")
    QTest.keyClick(ed.esa_spin, Qt.Key.Key_Return)
    j = _stored(small_ws)
    assert j.payload == {"esa_score": 68, "spans": [{"start": 0, "end": 7, "severity": "critical", "category": None},
                                                    {"missing": True, "severity": "major", "category": "omission"}]}
    assert ed.esa_label.text() == "ESA 68 · MQM penalty 15: 0 minor, 1 major, 1 critical, 1 missing"
    panel.set_item("poor", "e1")  # shown again as stored
    assert ed.esa_spin.value() == 68 and len(ed.spans or []) == 2


def test_a_correction_is_typed_and_saved_with_the_ratings_and_spans(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    QTest.keyClick(table, Qt.Key.Key_S)
    _keys(ed.text, *[Qt.Key.Key_Right] * 7, modifier=SHIFT)
    QTest.keyClick(ed.text, Qt.Key.Key_M)
    QTest.keyClick(ed.text, Qt.Key.Key_Escape)  # back to the entries
    assert table.hasFocus()
    _keys(table, Qt.Key.Key_3, Qt.Key.Key_Tab, Qt.Key.Key_4)
    ed.correction_edit.setFocus()
    _type(ed.correction_edit, "wâpamêw atim")
    QTest.keyClick(ed.correction_edit, Qt.Key.Key_Return)
    j = _stored(small_ws)
    assert (j.adequacy, j.fluency, j.version) == (3, 4, 4)
    assert j.payload == {"spans": [{"start": 0, "end": 7, "severity": "minor", "category": None}],
                         "correction": "wâpamêw atim"}
    # the entry reopens with what was stored
    panel.set_item("poor", "e2")
    assert ed.text.toPlainText() == "she walks" and ed.correction_edit.text() == "" and ed.spans is None
    panel.set_item("poor", "e1")
    assert ed.correction_edit.text() == "wâpamêw atim" and ed.span_list.count() == 1


def test_a_correction_still_being_typed_is_saved_when_the_entry_changes(host, small_ws):
    w, panel, table = host
    ed = panel.span_editor
    ed.correction_edit.setFocus()
    _type(ed.correction_edit, "wâpamêw atim")
    panel.set_item("poor", "e2")
    assert _stored(small_ws).payload == {"correction": "wâpamêw atim"}


def test_rating_keeps_the_spans_and_correction_a_pack_brought(host, small_ws):
    w, panel, table = host
    spans = [{"start": 4, "end": 9, "severity": "major", "category": "untranslated"}]  # "walks"
    jstore.record_judgment(small_ws, Judgment(reviewer_id="amy", run_id="poor", entry_id="e2", task="A",
                                              payload={"spans": spans, "correction": "pimohtêw"}))
    panel.set_item("poor", "e2")
    QTest.keyClick(table, Qt.Key.Key_2)
    j = _stored(small_ws, entry="e2")
    assert (j.adequacy, j.version) == (2, 2)
    assert j.payload == {"spans": spans, "correction": "pimohtêw"}


def test_a_span_selected_with_the_mouse(host, small_ws, qtbot):
    w, panel, table = host
    ed = panel.span_editor
    cur = QTextCursor(ed.text.document())
    cur.setPosition(10)  # inside "atim"
    at = ed.text.cursorRect(cur).center()
    QTest.mouseDClick(ed.text.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    assert ed.text.textCursor().selectedText() == "atim"
    QTest.mouseClick(ed.major_button, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(4, 4))
    assert _stored(small_ws).payload == {"spans": [{"start": 8, "end": 12, "severity": "major", "category": None}]}
    QTest.mouseClick(ed.remove_button, Qt.MouseButton.LeftButton)
    assert _stored(small_ws).payload == {}


def test_a_system_error_has_nothing_to_mark(host, small_ws):
    w, panel, table = host
    panel.set_item("poor", "e3")  # error "timeout"
    ed = panel.span_editor
    assert ed.text.toPlainText() == "" and not ed.minor_button.isEnabled()
    QTest.keyClick(table, Qt.Key.Key_M)
    QTest.keyClick(table, Qt.Key.Key_0)
    assert jstore.current_judgments(small_ws, run_id="poor", reviewer_id="amy") == []


def test_offsets_count_characters_not_utf16_units():
    text = "a\U0001f600b ᐊᐧᐸ"  # an astral character counts 2 in Qt, 1 in Python
    assert index_to_qt(text, 2) == 3 and qt_to_index(text, 3) == 2
    assert qt_to_index(text, index_to_qt(text, 4)) == 4
    assert trimmed(" ab  ", 0, 5) == (1, 3)


def test_the_span_editor_in_french(qtbot, small_ws):
    from PySide6.QtCore import QCoreApplication, QTranslator

    from mteval_gui.qt.i18n import qm_path
    from mteval_gui.qt.spans import SpanEditor

    t = QTranslator()
    assert t.load(str(qm_path("fr")))
    QCoreApplication.installTranslator(t)
    try:
        ed = SpanEditor()
        qtbot.addWidget(ed)
        ed.set_content("wapamew atim", ("spelling", "morphology"), [
            {"start": 0, "end": 7, "severity": "minor", "category": "spelling"},
            {"start": 8, "end": 12, "severity": "major", "category": None}], "", enabled=True)
        assert (ed.minor_button.text(), ed.major_button.text(), ed.remove_button.text()) == \
            ("Mineure (M)", "Majeure (Maj+M)", "Retirer (Suppr)")
        assert [ed.category_combo.itemText(i) for i in range(3)] == ["(sans catégorie)", "orthographe", "morphologie"]
        assert [ed.span_list.item(i).text() for i in range(2)] == ["«wapamew»  mineure · orthographe",
                                                                  "«atim»  majeure"]
        assert (ed.critical_button.text(), ed.missing_button.text()) == ("Critique (Ctrl+M)", "Contenu manquant (O)")
        assert ed.esa_label.text() == ("ESA\u202f: non noté · pénalité MQM 6\u202f: 1 mineure(s), 1 majeure(s), "
                                       "0 critique(s), 0 manquant(s)")
    finally:
        QCoreApplication.removeTranslator(t)


def test_the_entry_esa_averages_the_reviewers(host, small_ws):
    w, panel, table = host
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="bob", name="Bob"))
    jstore.record_judgment(small_ws, Judgment(reviewer_id="bob", run_id="poor", entry_id="e1", task="A",
                                              payload={"spans": [], "esa_score": 80}))
    QTest.keyClick(table, Qt.Key.Key_E)
    _type(panel.span_editor.esa_spin.lineEdit(), "60")
    QTest.keyClick(panel.span_editor.esa_spin, Qt.Key.Key_Return)
    assert panel.span_editor.esa_label.text() == "ESA 60 · spans not marked · entry ESA 70 over 2 reviewers"


def test_the_review_pane_highlights_the_spans_marked_in_the_entries_page(qtbot, scored_ws):
    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.qt.main import build_window

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window = build_window(AppSettings())
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    qtbot.waitExposed(window)
    try:
        window.open_workspace(scored_ws.path)
        window.open_entries(["poor"])
        page = window.entries_page
        assert page.select_entry("e4")  # output "atim", reference "pimipahtâw atim"
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        page.table.setFocus()
        QTest.keyClick(page.table, Qt.Key.Key_S)
        ed = page.ratings.span_editor
        assert ed.text.hasFocus() and ed.text.toPlainText() == "atim"
        QTest.keyClick(ed.text, Qt.Key.Key_M, SHIFT)
        QTest.keyClick(ed.text, Qt.Key.Key_Escape)
        assert page.table.hasFocus()
        QTest.keyClick(page.table, Qt.Key.Key_2)
        (j,) = jstore.current_judgments(scored_ws, run_id="poor", reviewer_id="amy", task="A")
        assert (j.entry_id, j.adequacy, j.payload) == (
            "e4", 2, {"spans": [{"start": 0, "end": 4, "severity": "major", "category": None}]})
        html = page.review.text.toHtml()
        assert "Error spans (amy)" in html and "background-color:#f6b8b8" in html
    finally:
        window.close()
