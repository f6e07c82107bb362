"""Character-level difference between a system output and a reference, as coloured HTML.

Uses :class:`difflib.SequenceMatcher` on NFC text (no junk heuristic, so short words and
diacritics are compared character by character). Insertions in the output are green,
deletions (reference characters the output lacks) red and struck through, substitutions
show both. Text is HTML-escaped; whitespace runs are kept visible.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass

from mteval_gui.text import nfc

INSERT_STYLE = "background-color:#c8f0c8;color:#0b4d0b;"
DELETE_STYLE = "background-color:#f8c8c8;color:#7a0b0b;text-decoration:line-through;"


@dataclass(frozen=True)
class DiffOp:
    """One piece of the alignment: ``kind`` is ``equal``, ``insert``, ``delete`` or ``replace``."""

    kind: str
    reference: str
    output: str


def char_diff(reference: str, output: str) -> list[DiffOp]:
    """Alignment of ``output`` against ``reference``, character by character."""
    ref, out = nfc(reference or ""), nfc(output or "")
    matcher = difflib.SequenceMatcher(None, ref, out, autojunk=False)
    return [DiffOp(tag, ref[i1:i2], out[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]


def similarity(reference: str, output: str) -> float:
    """difflib's ratio (2·matches / total length), 1.0 for two empty strings."""
    return difflib.SequenceMatcher(None, nfc(reference or ""), nfc(output or ""), autojunk=False).ratio()


def _esc(s: str) -> str:
    return html.escape(s).replace("  ", "&nbsp; ").replace("\n", "<br/>")


def diff_html(reference: str, output: str) -> str:
    """HTML of ``output`` with its differences from ``reference`` marked."""
    parts: list[str] = []
    for op in char_diff(reference, output):
        if op.kind == "equal":
            parts.append(_esc(op.output))
            continue
        if op.reference:
            parts.append(f'<span style="{DELETE_STYLE}">{_esc(op.reference)}</span>')
        if op.output:
            parts.append(f'<span style="{INSERT_STYLE}">{_esc(op.output)}</span>')
    return "".join(parts)
