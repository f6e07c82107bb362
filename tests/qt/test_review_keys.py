"""Rating with the keyboard on the real entries page: the key map shared with review packs, and
the note field giving the keyboard back after Enter and Esc."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from mteval_gui.app.preferences import AppSettings
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.main import build_window
from mteval_gui.store import judgments as jstore
from tests.qt.conftest import focused_keys


@pytest.fixture
def page(qtbot, scored_ws):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    w = build_window(AppSettings())
    qtbot.addWidget(w)
    w.resize(1400, 860)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    assert w.open_workspace(scored_ws.path)
    w.open_entries(["poor"])
    page = w.entries_page
    assert page.select_entry("e1") and page.ratings.reviewer_id == "amy"
    page.table.setFocus()
    yield page
    w.close()




def _current(ws, entry_id):
    (j,) = jstore.current_judgments(ws, run_id="poor", entry_id=entry_id, reviewer_id="amy", task="A")
    return j


def test_enter_and_esc_in_the_note_give_the_keyboard_back_to_the_ratings(page, scored_ws):
    note = page.ratings.note_edit
    note.setFocus()
    QTest.keyClicks(note, "odd word")
    focused_keys(Qt.Key.Key_Return)  # saves the note and leaves the field
    assert QApplication.focusWidget() is page.table
    focused_keys(Qt.Key.Key_1, Qt.Key.Key_1, Qt.Key.Key_Return)  # rates e1 and goes to the next unrated entry
    first = _current(scored_ws, "e1")
    assert (first.adequacy, first.fluency, first.note, first.version) == (1, 1, "odd word", 3)
    assert page.current_entry_id() == "e2" and note.text() == ""
    # "3 Tab 4": adequacy 3, fluency 4 (Tab moves on to fluency and stays there)
    focused_keys(Qt.Key.Key_3, Qt.Key.Key_Tab, Qt.Key.Key_4)
    second = _current(scored_ws, "e2")
    assert (second.adequacy, second.fluency) == (3, 4)
    note.setFocus()
    QTest.keyClicks(note, "fine")
    focused_keys(Qt.Key.Key_Escape)  # keeps the text and leaves the field
    assert QApplication.focusWidget() is page.table
    focused_keys(Qt.Key.Key_Return, Qt.Key.Key_5, Qt.Key.Key_2)
    second = _current(scored_ws, "e2")
    assert (second.adequacy, second.fluency, second.note, second.version) == (3, 4, "fine", 3)
    third = _current(scored_ws, "e3")
    assert (third.entry_id, third.adequacy, third.fluency, third.note) == ("e3", 5, 2, None)
    # nothing of the keys after Enter and Esc reached a note
    notes = [j.note for j in jstore.export_log(scored_ws)[1] if j.note]
    assert set(notes) == {"odd word", "fine"}


def test_enter_in_the_correction_gives_the_keyboard_back(page, scored_ws):
    corr = page.ratings.span_editor.correction_edit
    corr.setFocus()
    QTest.keyClicks(corr, "wapamew")
    focused_keys(Qt.Key.Key_Return)
    assert QApplication.focusWidget() is page.table
    focused_keys(Qt.Key.Key_2, Qt.Key.Key_3)
    j = _current(scored_ws, "e1")
    assert (j.adequacy, j.fluency, j.payload.get("correction")) == (2, 3, "wapamew")
