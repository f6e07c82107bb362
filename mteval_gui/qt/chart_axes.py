"""Chart axes that read well: round ticks, titles, and category labels shown whole.

- :func:`nice_ticks` picks an axis range and tick step from 1, 2, 2.5 and 5 times a power of ten,
  at most ``max_intervals`` intervals, covering the data: a composite (0–1) gets
  0, 0.25, 0.5, 0.75, 1 and a percentage (0–100) 0, 25, 50, 75, 100, never 0.0/0.3/0.5/0.8/1.0
  or −5/22.5/50/77.5/105; :func:`tick_decimals` gives the decimals its labels need.
- :func:`wrap_label` breaks a category label (a system's name) into lines of at most ``width``
  characters, after ``_``, ``-``, ``.``, ``/`` or a space where it can and inside a word only when
  it must, so that no label is elided ("m2m100_fr_ewe_rel_news_n…"); the lines are joined with
  ``<br>`` (QtCharts draws axis labels as rich text, so the rest is escaped).
- :func:`apply_value_axis` and :func:`set_categories` put them on QtCharts axes, with truncation off.

Numbers on axes use a decimal point in every interface language, as the tables and the exported
files do.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from PySide6.QtCharts import QBarCategoryAxis, QValueAxis

STEP_MANTISSAS = (1.0, 2.0, 2.5, 5.0)
BREAK_AFTER = "_-./ "


def nice_ticks(lo: float, hi: float, max_intervals: int = 4) -> tuple[float, float, float]:
    """(start, end, step): the smallest round step from :data:`STEP_MANTISSAS` × 10^k whose ticks
    cover ``[lo, hi]`` in at most ``max_intervals`` intervals, start and end on ticks."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"axis range {lo}..{hi} is not finite")
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        half = abs(lo) / 2 or 0.5
        lo, hi = lo - half, hi + half
    exp = math.floor(math.log10((hi - lo) / max(1, max_intervals)))
    for k in range(exp - 1, exp + 3):
        for m in STEP_MANTISSAS:
            step = m * 10.0 ** k
            start = math.floor(lo / step + 1e-9) * step
            end = math.ceil(hi / step - 1e-9) * step
            if round((end - start) / step) <= max_intervals:
                return _clean(start), _clean(end), _clean(step)
    raise AssertionError("unreachable: 10^(exp+2) always covers the range in one interval")


def _clean(v: float) -> float:
    """``v`` without the binary noise of multiplying a step (0.30000000000000004 -> 0.3)."""
    return float(f"{v:.10g}") + 0.0  # + 0.0: no negative zero


def tick_decimals(step: float) -> int:
    """The decimals a tick label needs to show every multiple of ``step`` exactly (0.25 -> 2, 25 -> 0)."""
    for d in range(0, 10):
        if abs(round(step, d) - step) < 1e-9 * max(1.0, abs(step)):
            return d
    return 10


def wrap_label(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` characters (at least 1), preferring breaks after
    :data:`BREAK_AFTER` characters (a point before a digit is part of a number); every character is
    kept, in order."""
    width = max(1, width)
    lines: list[str] = []
    rest = text
    while len(rest) > width:
        cut = max((i + 1 for i, ch in enumerate(rest[:width]) if ch in BREAK_AFTER
                   and not (ch == "." and rest[i + 1:i + 2].isdigit())), default=0)  # never inside 0.466
        if cut == 0:
            cut = width  # no break point: inside the word
        lines.append(rest[:cut])
        rest = rest[cut:]
    if rest or not lines:
        lines.append(rest)
    return lines


def label_markup(text: str, width: int) -> str:
    """The rich-text label of a category: the wrapped lines, escaped, joined with ``<br>``."""
    return "<br>".join(html.escape(line, quote=False) for line in wrap_label(text, width))


def apply_value_axis(axis: QValueAxis, lo: float, hi: float, title: str, max_intervals: int = 4) -> tuple[float, ...]:
    """Give ``axis`` round ticks covering ``[lo, hi]`` and a title; returns the tick values."""
    start, end, step = nice_ticks(lo, hi, max_intervals)
    axis.setRange(start, end)
    axis.setTickType(QValueAxis.TickType.TicksDynamic)
    axis.setTickAnchor(start)
    axis.setTickInterval(step)
    axis.setLabelFormat(f"%.{tick_decimals(step)}f")
    axis.setTitleText(title)
    n = round((end - start) / step)
    return tuple(_clean(start + i * step) for i in range(n + 1))


def set_categories(axis: QBarCategoryAxis, names: Sequence[str], width: int) -> list[str]:
    """Show ``names`` on ``axis`` whole: wrapped to ``width`` characters, never truncated; returns the labels."""
    labels = [label_markup(n, width) for n in names]
    # two systems with the same name would be one category: keep them apart with invisible spaces
    seen: dict[str, int] = {}
    for i, lab in enumerate(labels):
        seen[lab] = seen.get(lab, 0) + 1
        if seen[lab] > 1:
            labels[i] = lab + "\u200b" * (seen[lab] - 1)
    axis.setTruncateLabels(False)
    axis.clear()
    axis.append(labels)
    return labels
