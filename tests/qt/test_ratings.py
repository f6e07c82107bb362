"""Ratings panel: keystrokes are saved at once, edits version, Ctrl+Z undoes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTableView, QVBoxLayout, QWidget

from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.ratings import RatingsPanel
from mteval_gui.store import judgments as jstore


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
    panel.set_workspace(small_ws)
    panel.set_item("good", "e2")
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    table.setFocus()
    return w, panel, table


def _current(ws, entry="e2"):
    return [j for j in jstore.current_judgments(ws, run_id="good", reviewer_id="amy", task="A") if j.entry_id == entry]


def test_keys_rate_adequacy_then_fluency(host, small_ws):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_4)
    (j,) = _current(small_ws)
    assert (j.adequacy, j.fluency, j.version) == (4, None, 1)
    assert panel.active == "fluency"
    QTest.keyClick(table, Qt.Key.Key_2)
    (j,) = _current(small_ws)
    assert (j.adequacy, j.fluency, j.version) == (4, 2, 2)
    assert panel.active == "fluency"  # the last aspect: the highlight stays
    QTest.keyClick(table, Qt.Key.Key_Tab)
    assert panel.active == "fluency"
    QTest.keyClick(table, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)  # what Shift+Tab sends
    assert panel.active == "adequacy"
    QTest.keyClick(table, Qt.Key.Key_5)
    (j,) = _current(small_ws)
    assert (j.adequacy, j.fluency, j.version) == (5, 2, 3)
    assert panel.groups["adequacy"].button(5).isChecked()
    assert len(jstore.judgment_history(small_ws, "amy", "good", "e2", "A")) == 3


def test_tab_skips_an_aspect_without_rating_it(host, small_ws):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_Tab)
    assert panel.active == "fluency" and _current(small_ws) == []
    QTest.keyClick(table, Qt.Key.Key_3)
    (j,) = _current(small_ws)
    assert (j.adequacy, j.fluency) == (None, 3)


def test_a_half_rated_entry_reopens_on_its_unrated_aspect(host, small_ws):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_Tab)
    QTest.keyClick(table, Qt.Key.Key_4)  # fluency only
    panel.set_item("good", "e3")
    assert panel.active == "adequacy"
    panel.set_item("good", "e2")
    assert panel.active == "adequacy" and panel.values == {"adequacy": None, "fluency": 4}
    QTest.keyClick(table, Qt.Key.Key_2)
    panel.set_item("good", "e3")
    QTest.keyClick(table, Qt.Key.Key_1)  # adequacy only
    panel.set_item("good", "e2")
    assert panel.active == "adequacy"  # fully rated: the first aspect
    panel.set_item("good", "e3")
    assert panel.active == "fluency"


def test_rating_buttons_fit_their_bold_label(host):
    from PySide6.QtGui import QFont, QFontMetrics

    w, panel, table = host
    for group in panel.groups.values():
        for b in group.buttons():
            bold = QFont(b.font())
            bold.setBold(True)
            assert b.minimumWidth() > QFontMetrics(bold).horizontalAdvance(b.text())


def test_flag_and_note(host, small_ws, qtbot):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_F)
    (j,) = _current(small_ws)
    assert j.flagged and j.adequacy is None
    panel.note_edit.setFocus()
    QTest.keyClicks(panel.note_edit, "3 is wrong")  # digits typed in the note are text, not ratings
    QTest.keyClick(panel.note_edit, Qt.Key.Key_Return)
    (j,) = _current(small_ws)
    assert j.note == "3 is wrong" and j.adequacy is None and j.flagged


def test_ctrl_z_undoes_and_ctrl_shift_z_redoes(host, small_ws):
    w, panel, table = host
    QTest.keyClick(table, Qt.Key.Key_3)
    QTest.keyClick(table, Qt.Key.Key_1)
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    (j,) = _current(small_ws)
    assert (j.adequacy, j.fluency) == (3, None)
    assert panel.values == {"adequacy": 3, "fluency": None}
    assert not panel.groups["fluency"].button(1).isChecked()
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _current(small_ws) == []
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    (j,) = _current(small_ws)
    assert j.adequacy == 3


def test_changed_signal_and_item_switch(host, small_ws, qtbot):
    w, panel, table = host
    with qtbot.waitSignal(panel.judgment_changed) as blocker:
        QTest.keyClick(table, Qt.Key.Key_2)
    assert blocker.args == ["good", "e2"]
    panel.set_item("good", "e3")
    assert panel.values == {"adequacy": None, "fluency": None} and panel.active == "adequacy"
    panel.set_item("good", "e2")
    assert panel.values["adequacy"] == 2


def test_no_reviewer_means_no_judgment(qtbot, small_ws):
    panel = RatingsPanel(small_ws)
    qtbot.addWidget(panel)
    panel.set_workspace(small_ws)
    panel.set_item("good", "e1")
    panel.rate("adequacy", 4)
    assert jstore.current_judgments(small_ws) == []
    assert "reviewer" in panel.status.text().lower()


def test_adding_a_reviewer_keeps_the_one_rating(host, small_ws):
    _, panel, _ = host
    assert panel.reviewer_id == "amy"
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="bo", name="Bo"))
    panel.reload_reviewers("bo")  # what the window does after the reviewers dialog added Bo
    assert panel.reviewer_id == "amy" and panel.reviewer_combo.currentData() == "amy"


def test_the_first_reviewer_added_is_chosen(qtbot, small_ws):
    panel = RatingsPanel(small_ws)
    qtbot.addWidget(panel)
    panel.set_workspace(small_ws)
    assert panel.reviewer_id is None
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="bo", name="Bo"))
    panel.reload_reviewers("bo")
    assert panel.reviewer_id == "bo"
