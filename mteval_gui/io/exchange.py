"""What the human-evaluation exchange formats (Appraise, Pearmut) share: the items sent out and
the offset arithmetic of browser-side annotation tools.

Both tools mark characters in the browser, where a string is a sequence of UTF-16 code units,
and both give a span's ``end_i`` as the index of its last character (inclusive). Judgments here
index the NFC output by Python characters (code points) with an exclusive end. The functions
below convert between the two; a character outside the Basic Multilingual Plane counts two
units on the browser side and one here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ExchangeItem:
    """One output sent out for human evaluation.

    ``position`` is the 1-based place of the entry in its run (corpus order); ``target`` the NFC
    output that spans index; ``prefill`` error spans in the judgment form (exclusive ``end``,
    ``{"missing": true, ...}`` for missing content) offered to the annotator (ESA-AI).
    """

    run_id: str
    entry_id: str
    position: int
    document: str
    source: str
    target: str
    prefill: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)


def utf16_length(text: str) -> int:
    """The number of UTF-16 code units of ``text``."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def unit_to_index(text: str, unit: int) -> int | None:
    """The character (code point) index of ``text`` that holds UTF-16 unit ``unit`` (None: past the end)."""
    units = 0
    for i, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if unit < units:
            return i
    return None


def to_inclusive_units(text: str, start: int, end: int, lead: int = 0) -> tuple[int, int]:
    """A span ``[start, end)`` of ``text`` (characters) as ``(start_i, end_i)``: UTF-16 units, end inclusive,
    counted from character ``lead`` (the leading characters a tool drops)."""
    return utf16_length(text[lead:start]), utf16_length(text[lead:end]) - 1


def from_inclusive_units(text: str, start_i: int, end_i: int, lead: int = 0) -> tuple[int, int] | None:
    """The inverse of :func:`to_inclusive_units` (None when the units are not inside the text)."""
    shown = text[lead:]
    if start_i < 0 or end_i < start_i:
        return None
    first, last = unit_to_index(shown, start_i), unit_to_index(shown, end_i)
    if first is None or last is None:
        return None
    return first + lead, last + 1 + lead


def word_spans(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Where each of ``words`` occurs in ``text`` as a whole token (bounded by non-letters), in order."""
    out: list[tuple[int, int]] = []
    for word in dict.fromkeys(w for w in words if w):
        at = text.find(word)
        while at >= 0:
            end = at + len(word)
            before = text[at - 1] if at > 0 else " "
            after = text[end] if end < len(text) else " "
            if not (before.isalnum() or after.isalnum()):
                out.append((at, end))
            at = text.find(word, end)
    return sorted(set(out))
