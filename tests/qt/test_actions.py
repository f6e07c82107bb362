"""The window's action table: the menus and the keyboard-shortcuts help come from it, so the help
lists exactly the keys the window binds (menus, the entries table, the ratings and the audits)."""

from __future__ import annotations

import html
import re

import pytest
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QMessageBox


def _native(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


def _shown_help(window, monkeypatch) -> str:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text, *a: shown.append(text))
    monkeypatch.setattr(QDialog, "exec", lambda dialog: shown.append(dialog.html))  # the help dialog's HTML
    for a in window.findChildren(QAction):
        if a.text().replace("&", "") == "Keyboard shortcuts":
            a.trigger()
    (text,) = shown
    return text


def test_the_shortcuts_help_lists_exactly_the_bound_keys(window, monkeypatch):
    bound = {_native(s) for a in window.findChildren(QAction) for s in a.shortcuts() if not s.isEmpty()}
    bound |= {_native(sc.key()) for sc in window.findChildren(QShortcut) if not sc.key().isEmpty()}
    listed = {html.unescape(k) for cell in re.findall(r"<td><b>(.*?)</b></td>", _shown_help(window, monkeypatch))
              for k in cell.split(", ")}
    assert listed == bound
    # the window's keys, the entries table's and the ratings' (from the key map shared with review packs)
    assert {"Ctrl+I", "Ctrl+Shift+I", "Ctrl+R", "Esc", "Ctrl+B", "F5", "Alt+Down", "Alt+Up", "Return", "Enter",
            "Shift+Return", "1", "5", "Tab", "Shift+Tab", "F", "Ctrl+Z", "Ctrl+Shift+Z", "S", "Shift+M", "Del",
            "Y", "U"} <= listed


def test_the_review_menu_moves_through_the_entries_with_the_table_keys(window, scored_ws, qtbot):
    from PySide6.QtCore import Qt

    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    next_entry = window.menu_actions["nextEntry"]
    assert next_entry.shortcut().toString() == "Alt+Down" and next_entry in page.table.actions()
    assert page.current_entry_id() == "e1"
    next_entry.trigger()  # from the menu
    assert page.current_entry_id() == "e2"
    page.table.setFocus()
    qtbot.keyClick(page.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # the same action, by its key
    assert page.current_entry_id() == "e3"
    page.search.setFocus()  # Return in the search field is the field's, not Next unreviewed
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert page.current_entry_id() == "e3"


def _mnemonic(text: str) -> str:
    i = text.replace("&&", "").find("&")
    return text.replace("&&", "")[i + 1].casefold() if i >= 0 else ""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_menu_mnemonics_are_unique_at_each_level(qapp, lang):
    """Alt+letter opens one menu: Review and View both took Alt+V."""
    from PySide6.QtCore import QCoreApplication, QTranslator

    from mteval_gui.qt.actions import MENUS, Act, Menu
    from mteval_gui.qt.i18n import qm_path

    translator = QTranslator()
    if lang == "fr":
        assert translator.load(str(qm_path("fr")))
        QCoreApplication.installTranslator(translator)
    try:
        def check(items) -> None:
            texts = [QCoreApplication.translate("MainWindow", i.title if isinstance(i, Menu) else i.text)
                     for i in items if isinstance(i, (Act, Menu))]
            letters = [_mnemonic(t) for t in texts if _mnemonic(t)]
            assert len(letters) == len(set(letters)), texts
            for i in items:
                if isinstance(i, Menu):
                    check(i.items)

        check(MENUS)
    finally:
        QCoreApplication.removeTranslator(translator)
