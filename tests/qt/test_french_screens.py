"""Walking the window in French shows no English string: every text a widget shows (buttons,
labels, tabs, menus, table headers, combo boxes) is checked against the English source strings
whose French translation differs, so a string shown untranslated is caught wherever it is."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QMenu,
    QTabWidget,
    QWidget,
)

from mteval_gui.qt.i18n import translations_dir


def _english_only() -> set[str]:
    """Source strings every translation of which differs from the source (menu ampersands removed)."""
    same: set[str] = set()
    differ: set[str] = set()
    root = ET.parse(translations_dir() / "mteval_gui_fr.ts").getroot()
    for message in root.iter("message"):
        source = (message.findtext("source") or "").replace("&", "").strip()
        translation = (message.findtext("translation") or "").replace("&", "").strip()
        if not translation or "{" in source or "%" in source or len(source) < 4:
            continue
        (same if translation == source else differ).add(source)
    return differ - same


def _shown_texts(root: QWidget) -> list[str]:
    texts: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible() and not isinstance(w, QMenu):
            continue
        if isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QLabel):
            texts.append(html.unescape(re.sub(r"<[^>]+>", "\n", w.text())))
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QTabWidget):
            texts.extend(w.tabText(i) for i in range(w.count()))
        elif isinstance(w, QComboBox):
            texts.extend(w.itemText(i) for i in range(w.count()))
        elif isinstance(w, QMenu):
            texts.extend(a.text() for a in w.actions())
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            texts.extend(str(m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) or "")
                         for c in range(m.columnCount()))
    return [t.replace("&", "").strip() for t in texts if t]


def test_no_english_string_in_the_french_window(french, window, scored_ws, qtbot):
    english = _english_only()
    window.open_workspace(scored_ws.path)
    found: dict[str, set[str]] = {}
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(300)
        for text in _shown_texts(window):
            for line in text.split("\n"):
                if line.strip() in english:
                    found.setdefault(window.tabs.tabText(i), set()).add(line.strip())
    assert found == {}
    # the walk sees what the window shows (a French tab and header), and would see an English string
    shown = {line for text in _shown_texts(window) for line in text.split("\n")}
    assert {"Comparer", "Exécution"} <= shown
    probe = QLabel("Compare", window.statusBar())
    probe.show()
    assert "Compare" in english and "Compare" in _shown_texts(window)


def test_the_metric_range_writes_a_decimal_point_in_french(french, qtbot):
    from mteval_gui.qt.entries_page import EntriesPage

    page = EntriesPage()
    qtbot.addWidget(page)
    assert (page.metric_min.text(), page.metric_max.text()) == ("0.000", "100.000")
