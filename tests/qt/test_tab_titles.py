"""A tab title with an accented capital (ÈwéBench) is drawn whole: the accent is not cut off."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QTabWidget, QWidget

from mteval_gui.qt.tab_style import keep_titles_whole


def _top_ink_row(widget: QTabWidget, index: int) -> int:
    """The first pixel row of tab ``index`` (below its frame) with dark text on it."""
    image = widget.tabBar().grab().toImage()
    rect = widget.tabBar().tabRect(index)
    for y in range(rect.top() + 3, rect.bottom()):
        for x in range(rect.left() + 4, rect.right() - 4):
            if QColor(image.pixel(x, y)).lightness() < 200:
                return y
    raise AssertionError("no text drawn")


def _tabs(qtbot, whole: bool) -> QTabWidget:
    tabs = QTabWidget()
    tabs.setFont(QFont("DejaVu Sans", 9))
    if whole:
        keep_titles_whole(tabs.tabBar())
    tabs.addTab(QWidget(), "EweBench")
    tabs.addTab(QWidget(), "ÈwéBench")
    qtbot.addWidget(tabs)
    tabs.resize(320, 80)
    tabs.show()
    qtbot.waitExposed(tabs)
    return tabs


def test_the_accent_of_a_capital_is_drawn(qtbot):
    clipped, whole = _tabs(qtbot, whole=False), _tabs(qtbot, whole=True)
    # the same title: drawn whole, its grave accent reaches at least two pixel rows higher
    # than where the style's own text rectangle cuts it
    assert _top_ink_row(whole, 1) <= _top_ink_row(clipped, 1) - 2
    # a title without an accent is drawn where it was
    assert _top_ink_row(whole, 0) == _top_ink_row(clipped, 0)


def test_the_main_window_keeps_its_tab_titles_whole(window):
    from mteval_gui.qt.tab_style import WholeTitleTabStyle

    style = window.tabs.tabBar().style()
    assert isinstance(style, WholeTitleTabStyle) or isinstance(getattr(style, "baseStyle", lambda: None)(),
                                                                  WholeTitleTabStyle)
