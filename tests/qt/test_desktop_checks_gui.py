"""Attention checks and repeated items among the entries a reviewer rates on the desktop in blind mode: rows
like any other, rated with the same keys, answered as check judgments; the same queue after a restart."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mteval_gui.app import signoff
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.reviewer_qc import excluded_reviewers
from mteval_gui.app.settings import set_setting
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.main import build_window
from mteval_gui.store import judgments as jstore
from tests.qt.conftest import focused_keys

# the rows of amy's queue of run "good" with 2 attention checks and 1 repeat: (entry, output shown, check)
ROWS = [("e1", "wâpamêw atim", None), ("e2", "pimohtêw", None), ("e3", "mîcisoyâhk", None),
        ("e1", "nikamowak", "attention"), ("e1", "wâpamêw atim", "repeat"),
        ("e4", "pimipahtâw atim", None), ("e5", "nikamowak", None), ("e2", "pimipahtâw atim", "attention")]
STYLE_ROLES = (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole,
               Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.DecorationRole)
WHY = ("inattentive: rated the known-bad item at least as high as the real one in 2 of 2 attention checks "
       "(flagged above 1 failed and above 20% of them)")


def _window(qtbot, path, blind=True):
    w = build_window(AppSettings())
    qtbot.addWidget(w)
    w.resize(1400, 860)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    assert w.open_workspace(path)
    w.open_entries(["good"])
    if blind:  # Review > Blind mode, as a reviewer rating turns it on
        w.menu_actions["blindMode"].trigger()
        assert w.menu_actions["blindMode"].isChecked() and w.entries_page.model.blind
    return w


@pytest.fixture
def checked_ws(scored_ws):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    set_setting(scored_ws, "attention_checks", 2)
    set_setting(scored_ws, "repeated_items", 1)
    return scored_ws


def _rows(page):
    model = page.model
    col = next(i for i, c in enumerate(model.visible_columns()) if c.field == "predicted")
    checks = {k: s.check for k, s in enumerate(page.check_queue.slots)} if page.check_queue else {}
    return [(model.entry_id(r), model.data(model.index(r, col)), checks.get(model.check_of(r)))
            for r in range(model.rowCount())]


def _quality_rows(qtbot, ws):
    """The Validation tab's reviewer quality control table."""
    from mteval_gui.app.reviewer_qc import reviewer_quality
    from mteval_gui.app.sampling import width_projections
    from mteval_gui.app.study import validation_study
    from mteval_gui.qt.validation_view import ValidationView

    v = ValidationView()
    qtbot.addWidget(v)
    v.set_workspace(ws)
    study = validation_study(ws, ["good"], n_bootstrap=20)
    v._computed((study, reviewer_quality(ws), width_projections(study)))
    t = v.quality_table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]




def test_checks_are_rows_like_any_other_rated_with_the_keys_and_flag_a_careless_reviewer(qtbot, checked_ws):
    w = _window(qtbot, checked_ws.path)
    page = w.entries_page
    assert page.ratings.reviewer_id == "amy"
    assert _rows(page) == ROWS
    assert page.count_label.text() == "8 of 8 entries"
    model = page.model
    # a check row looks like a real row: the same styling in every column, the same review status
    for check_row, real_row in ((3, 6), (4, 0), (7, 5)):
        for c in range(model.columnCount()):
            for role in STYLE_ROLES:
                assert model.data(model.index(check_row, c), role) == model.data(model.index(real_row, c), role)
    review_col = next(i for i, c in enumerate(model.visible_columns()) if c.field == "review")
    assert len({model.data(model.index(r, review_col)) for r in range(8)}) == 1  # nothing rated yet
    page.select_view_row(3)  # the known-bad output of e1 where a system's output stands
    shown = page.review.text.toPlainText()
    assert "I see the dog" in shown and "nikamowak" in shown and "wâpamêw atim" not in shown
    assert page.ratings.span_editor.text.toPlainText() == "nikamowak"
    page.select_view_row(0)
    w.activateWindow()
    page.table.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is page.table)
    # the reviewer rates every row in turn: the real entries 3 3, the two known-bad outputs 4 4, the repeat 3 3
    for _, _, check in ROWS:
        value = Qt.Key.Key_4 if check == "attention" else Qt.Key.Key_3
        focused_keys(value, value, Qt.Key.Key_Return)
    real = jstore.current_judgments(checked_ws, run_id="good", reviewer_id="amy", task="A")
    assert sorted((j.entry_id, j.adequacy, j.fluency) for j in real) == [
        ("e1", 3, 3), ("e2", 3, 3), ("e3", 3, 3), ("e4", 3, 3), ("e5", 3, 3)]
    qid = page.check_queue.queue_id
    checks = jstore.current_judgments(checked_ws, run_id="good", reviewer_id="amy", task="check")
    assert [(j.entry_id, j.adequacy, j.fluency, j.payload) for j in checks] == [
        ("e1", 4, 4, {"check": "attention", "check_id": f"{qid}/3", "kind": "wrong_sentence"}),
        ("e1", 3, 3, {"check": "repeat", "check_id": f"{qid}/4"}),
        ("e2", 4, 4, {"check": "attention", "check_id": f"{qid}/7", "kind": "wrong_sentence"})]
    assert excluded_reviewers(checked_ws) == {"amy": WHY}
    # the Validation tab: two failed attention checks, one repeat rated the same, amy flagged and left out
    assert _quality_rows(qtbot, checked_ws) == [[
        "amy", "2 of 2 (2 answered)", "1 (0.00)", "—",
        "flagged, left out: inattentive: rated the known-bad item at least as high as the real one in 2 of 2 "
        "attention checks"]]
    ev = signoff.signoff_evidence(checked_ws, "good")
    assert ev.excluded == (("amy", WHY),)
    assert model.headerData(review_col, Qt.Orientation.Horizontal).endswith("(8 of 8 rated)")
    # a check's answer is saved the moment it is made: on the last row (the known-bad output of e2, fluency
    # highlighted), a 2 is there at once as its third version
    assert (page.current_view_row(), page.ratings.active) == (7, "fluency")
    focused_keys(Qt.Key.Key_2)
    (j,) = [j for j in jstore.current_judgments(checked_ws, run_id="good", task="check")
            if j.payload["check_id"] == f"{qid}/7"]
    assert (j.adequacy, j.fluency, j.version) == (4, 2, 3)
    w.close()

    # the application restarts: the same checks after the same entries, with their answers
    w2 = _window(qtbot, checked_ws.path)
    page2 = w2.entries_page
    assert _rows(page2) == ROWS and page2.check_queue.queue_id == qid
    page2.select_view_row(3)
    assert (page2.ratings.values, page2.ratings.check[1].number) == ({"adequacy": 4, "fluency": 4}, 3)
    assert page2.model.data(page2.model.index(3, review_col)) == page2.model.data(page2.model.index(0, review_col))
    page2.select_view_row(0)
    assert page2.ratings.check is None and page2.ratings.values == {"adequacy": 3, "fluency": 3}
    w2.close()


REAL = [("e1", "wâpamêw atim", None), ("e2", "pimohtêw", None), ("e3", "mîcisoyâhk", None),
        ("e4", "pimipahtâw atim", None), ("e5", "nikamowak", None)]


def test_no_checks_by_default_nor_outside_blind_mode_and_none_in_the_export(qtbot, scored_ws):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    w = _window(qtbot, scored_ws.path)
    assert _rows(w.entries_page) == REAL  # blind, but no checks asked
    w.close()
    set_setting(scored_ws, "attention_checks", 2)
    set_setting(scored_ws, "repeated_items", 1)
    w = _window(qtbot, scored_ws.path, blind=False)
    page = w.entries_page
    assert _rows(page) == REAL and page.count_label.text() == "5 of 5 entries"
    assert page.select_entry("e3")
    w.menu_actions["blindMode"].trigger()  # the checks come in; the entry being read stays
    assert _rows(page) == ROWS and page.current_entry_id() == "e3" and page.ratings.check is None
    assert [r["id"] for r in page.model.export_rows()[1]] == ["e1", "e2", "e3", "e4", "e5"]
    w.menu_actions["blindMode"].trigger()
    assert _rows(page) == REAL and page.current_entry_id() == "e3"
    w.close()


BOB = [("e1", "wâpamêw atim", None), ("e2", "pimohtêw", None), ("e3", "mîcisoyâhk", None),
       ("e4", "pimipahtâw atim", None), ("e1", "mîcisoyâhk", "attention"), ("e2", "wâpamêw atim", "attention"),
       ("e5", "nikamowak", None), ("e1", "wâpamêw atim", "repeat")]


def test_each_reviewer_meets_their_own_checks_after_the_same_entries_in_any_order(qtbot, checked_ws):
    jstore.add_reviewer(checked_ws, Reviewer(reviewer_id="bob", name="Bob", languages=["crk"]))
    w = _window(qtbot, checked_ws.path)
    page = w.entries_page
    assert page.ratings.reviewer_id == "amy" and _rows(page) == ROWS
    page.ratings.set_reviewer("bob")
    assert _rows(page) == BOB
    page.select_view_row(5)
    assert (page.ratings.check[0].reviewer_id, page.ratings.check[1].number) == ("bob", 5)
    assert page.ratings.span_editor.text.toPlainText() == "wâpamêw atim"
    w.menu_actions["randomOrder"].trigger()  # shuffled entries: each check still follows its entry
    model, slots = page.model, page.check_queue.slots
    assert sorted(_rows(page), key=str) == sorted(BOB, key=str) and _rows(page) != BOB
    for r in range(model.rowCount()):
        k = model.check_of(r)
        if k is not None:
            before = [model.entry_id(p) for p in range(r) if model.check_of(p) is None]
            assert before[-1] == slots[k].after
    # a campaign's share without e1: the checks made from e1 are not asked
    page.set_scope(["e2", "e3", "e4", "e5"], "share")
    assert [row for row in _rows(page) if row[2]] == [("e2", "wâpamêw atim", "attention")]
    w.close()


def test_the_settings_dialog_asks_for_checks_and_repeats(qtbot, small_ws):
    from mteval_gui.app.settings import load_settings
    from mteval_gui.qt.settings_dialog import SettingsDialog

    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    assert (dlg.checks_spin.value(), dlg.repeats_spin.value(), dlg.checks_spin.text()) == (0, 0, "none")
    dlg.checks_spin.setValue(4)
    dlg.repeats_spin.setValue(3)
    dlg.save()
    assert (load_settings(small_ws).attention_checks, load_settings(small_ws).repeated_items) == (4, 3)
    again = SettingsDialog(small_ws)
    qtbot.addWidget(again)
    assert (again.checks_spin.value(), again.repeats_spin.value()) == (4, 3)


def test_a_large_table_shows_the_checks_once_its_values_are_read(qtbot, checked_ws, monkeypatch):
    import threading

    from mteval_gui.app import desktop_checks
    from mteval_gui.qt import entries_page

    monkeypatch.setattr(entries_page, "BACKGROUND_ROWS", 2)  # the first rows at once, the values read after
    made_on: list[bool] = []
    real = desktop_checks.insert_checks

    def spy(*args, **kw):  # making a schedule (reading one recorded is not)
        made_on.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kw)

    monkeypatch.setattr(desktop_checks, "insert_checks", spy)
    w = _window(qtbot, checked_ws.path)
    page = w.entries_page
    qtbot.waitUntil(lambda: page.model.frame is not None and page.model.frame.complete, timeout=20_000)
    qtbot.waitUntil(lambda: page.check_queue is not None, timeout=5_000)
    assert _rows(page) == ROWS and page.count_label.text() == "8 of 8 entries"
    assert made_on == [False]  # a large run's schedule is made once, in a worker thread: the window runs on
    page.select_view_row(4)  # the repeat of e1
    page.table.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is page.table)
    focused_keys(Qt.Key.Key_2, Qt.Key.Key_5)
    (j,) = jstore.current_judgments(checked_ws, run_id="good", reviewer_id="amy", task="check")
    assert (j.entry_id, j.adequacy, j.fluency, j.payload["check"]) == ("e1", 2, 5, "repeat")
    assert jstore.current_judgments(checked_ws, run_id="good", reviewer_id="amy", task="A") == []
    w.close()
