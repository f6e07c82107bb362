"""Tab titles drawn whole: a capital with an accent above it (the È of ÈwéBench) rises above
the font's ascent, and the platform styles clip a tab's text to a rectangle one line high, so
the accent was cut off. :class:`WholeTitleTabStyle` gives the text rectangle the room the
title's own glyphs take, centred where the style put it."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOption, QStyleOptionTab, QTabBar, QWidget


class WholeTitleTabStyle(QProxyStyle):
    def subElementRect(self, element: QStyle.SubElement, option: QStyleOption,  # noqa: N802 (Qt's name)
                       widget: QWidget | None = None) -> QRect:
        rect = super().subElementRect(element, option, widget)  # type: ignore[arg-type]  # None is allowed
        if element == QStyle.SubElement.SE_TabBarTabText and isinstance(option, QStyleOptionTab) and option.text:
            metrics = option.fontMetrics
            glyphs = metrics.tightBoundingRect(option.text)
            # the line is centred in ``rect`` and its glyphs sit on its baseline: whatever of them
            # lies outside ``rect`` (a line taller than the rectangle, an accent above the ascent)
            # is given room on both sides, so the line stays where the style centred it
            baseline = rect.top() + (rect.height() - metrics.height()) // 2 + metrics.ascent()
            extra = max(0, rect.top() - (baseline + glyphs.top()) + 1,
                        (baseline + glyphs.bottom()) - rect.bottom() + 1)
            rect = rect.adjusted(0, -extra, 0, extra)
        return rect


def keep_titles_whole(bar: QTabBar) -> None:
    """Draw ``bar``'s tab titles unclipped (the style is owned by the bar)."""
    style = WholeTitleTabStyle()
    style.setParent(bar)
    bar.setStyle(style)
