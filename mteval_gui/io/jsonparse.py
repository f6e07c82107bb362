"""JSON parsing that remembers where things are.

``parse_document`` decodes a JSON document and, for the one array that holds the records
(the root array, or the array under a given key of the root object), returns the line on
which each item starts, so that a duplicate id or an empty source can be reported as
``file:line``. Syntax errors become a defect with line and column.

The walker decodes each item with the C scanner of the standard library, so locating costs
no second pass over the text.
"""

from __future__ import annotations

import json
from typing import Any

from mteval_gui.errors import Defect
from mteval_gui.io.textfile import LineIndex, TextFile

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


class _Malformed(Exception):
    pass


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _value(text: str, i: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, i)
    except json.JSONDecodeError as exc:
        raise _Malformed() from exc


def _array(text: str, i: int) -> tuple[list[Any], list[int], int]:
    """Parse the array starting at ``text[i] == '['``; returns items, their offsets, end."""
    items: list[Any] = []
    offsets: list[int] = []
    i = _skip(text, i + 1)
    if i < len(text) and text[i] == "]":
        return items, offsets, i + 1
    while True:
        offsets.append(i)
        item, i = _value(text, i)
        items.append(item)
        i = _skip(text, i)
        if i >= len(text):
            raise _Malformed()
        if text[i] == ",":
            i = _skip(text, i + 1)
            continue
        if text[i] == "]":
            return items, offsets, i + 1
        raise _Malformed()


def _object(text: str, i: int, key: str) -> tuple[dict[str, Any], list[int] | None, int]:
    """Parse the root object; the array under ``key`` is walked item by item."""
    out: dict[str, Any] = {}
    offsets: list[int] | None = None
    i = _skip(text, i + 1)
    if i < len(text) and text[i] == "}":
        return out, offsets, i + 1
    while True:
        if i >= len(text) or text[i] != '"':
            raise _Malformed()
        k, i = _value(text, i)
        i = _skip(text, i)
        if i >= len(text) or text[i] != ":":
            raise _Malformed()
        i = _skip(text, i + 1)
        if k == key and i < len(text) and text[i] == "[":
            v, offs, i = _array(text, i)
            offsets = offs
        else:
            v, i = _value(text, i)
            if k == key:
                offsets = None
        out[k] = v
        i = _skip(text, i)
        if i >= len(text):
            raise _Malformed()
        if text[i] == ",":
            i = _skip(text, i + 1)
            continue
        if text[i] == "}":
            return out, offsets, i + 1
        raise _Malformed()


class ParsedJSON:
    """A decoded document plus the start line of each record of its record array."""

    def __init__(self, data: Any, item_lines: list[int] | None):
        self.data = data
        self.item_lines = item_lines


def parse_document(tf: TextFile, key: str = "entries") -> ParsedJSON | None:
    """Decode ``tf`` as one JSON document. On a syntax error, add a defect and return None.

    ``item_lines`` are the lines of the items of the root array, or of the array under
    ``key`` when the root is an object (None if there is no such array).
    """
    text = tf.text
    start = _skip(text, 0)
    try:
        if start < len(text) and text[start] == "[":
            data, offsets, end = _array(text, start)
        elif start < len(text) and text[start] == "{":
            data, offsets, end = _object(text, start, key)
        else:
            data, end = _value(text, start)
            offsets = None
        if _skip(text, end) != len(text):
            raise _Malformed()
    except _Malformed:
        _add_syntax_defect(tf)
        return None
    if offsets is None:
        return ParsedJSON(data, None)
    index = LineIndex(text)
    return ParsedJSON(data, [index.line_of(o) for o in offsets])


def _add_syntax_defect(tf: TextFile) -> None:
    try:
        json.loads(tf.text)
    except json.JSONDecodeError as exc:
        msg = exc.msg
        if exc.pos >= len(tf.text.rstrip()) and msg.startswith("Expecting"):
            msg += " (the file ends too early: truncated?)"
        tf.defects.append(_defect(tf.name, exc.lineno, f"invalid JSON: {msg}", exc.colno))
        return
    tf.defects.append(_defect(tf.name, None, "invalid JSON"))


def _defect(name: str, line: int | None, msg: str, col: int | None = None) -> Defect:
    return Defect(name, line, msg, col)


BAD = object()  # marks a JSONL line that could not be decoded (its defect is already recorded)


def parse_jsonl(tf: TextFile, defects: list[Defect]) -> list[tuple[int, Any]]:
    """Decode every non-blank line of a JSONL file: ``[(line number, value or BAD)]``.

    The whole file is first decoded in one call (as one array); only if that fails are lines
    decoded one by one to locate each defect.
    """
    numbered = [(i, line) for i, line in enumerate(tf.lines(), 1) if line.strip()]
    if not numbered:
        return []
    try:
        values = json.loads("[" + ",".join(line for _, line in numbered) + "]")
    except json.JSONDecodeError:
        values = None
    if values is not None and len(values) == len(numbered):
        return [(i, v) for (i, _), v in zip(numbered, values)]
    out: list[tuple[int, Any]] = []
    for i, line in numbered:
        try:
            out.append((i, json.loads(line)))
        except json.JSONDecodeError as exc:
            defects.append(_defect(tf.name, i, f"invalid JSON: {exc.msg}", exc.colno))
            out.append((i, BAD))
    return out
