"""Strict JSON parsing that remembers where things are.

Every JSON text the readers see goes through this module. It accepts RFC 8259 JSON and
nothing looser, and reports every refusal with its line and column:

- duplicate keys in an object (the standard library keeps the last value silently);
- ``NaN``, ``Infinity`` and numbers that overflow to infinity (``1e999``);
- integers longer than 4,300 digits (Python's own limit, which would otherwise raise deep
  inside the decoder); fields stored as integers check the signed 64-bit range themselves;
- nesting deeper than :data:`MAX_DEPTH` levels (the decoder of the standard library
  recurses and would raise ``RecursionError`` at a depth that depends on the caller);
- escapes of lone UTF-16 surrogates (``"\\ud800"``: not a character, cannot be stored as
  UTF-8) and of NUL (``"\\u0000"``).

``parse_document`` decodes a document and, for the one array that holds the records (the
root array, or the array under a given key of the root object), returns the line on which
each item starts, so that a duplicate id or an empty source can be reported as
``file:line``. The walker decodes each item with the C scanner of the standard library, so
locating costs no second pass over the text; the slower checks run only on text that
could need them (a pre-scan of the whole text with one regular expression) and a
problem's exact position is searched for only once a problem is known to exist.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

from mteval_gui.errors import Defect
from mteval_gui.io.textfile import LineIndex, TextFile

MAX_DEPTH = 100
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_WS = " \t\n\r"


class JSONProblem(ValueError):
    """A JSON text that is syntactically valid but not accepted; ``pos`` is a character offset."""

    def __init__(self, message: str, pos: int):
        super().__init__(message)
        self.message = message
        self.pos = pos


# ----------------------------------------------------------------------------- strict decoding


class _Duplicate(Exception):
    def __init__(self, key: str):
        self.key = key


class _Refused(Exception):
    """A literal the strict decoder refuses (NaN, Infinity, a number out of range)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _Duplicate(k)
            seen.add(k)
    return d


def _constant(name: str) -> Any:
    raise _Refused(name)


def _float(s: str) -> float:
    f = float(s)
    if math.isinf(f):
        raise _Refused(s)
    return f


# Integers keep the standard (C) conversion: Python's own 4,300-digit limit is reported with
# its position, and fields stored as integers check the 64-bit range themselves.
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
# escapes of surrogates and of NUL (the backslashes before them are counted: an even run is no escape)
_SUSPECT_ESCAPE = re.compile(r"\\u(?:[dD][89a-fA-F][0-9a-fA-F]{2}|0000)")
_LOW_ESCAPE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
MAX_INT_DIGITS = 4300


def decoder_for(text: str) -> json.JSONDecoder:
    """The strict decoder (one for every text)."""
    return _DECODER


def escape_problems(text: str, limit: int = 20) -> list[tuple[int, str]]:
    """(offset, message) of every lone surrogate escape and NUL escape in a JSON text."""
    out: list[tuple[int, str]] = []
    if "\\u" not in text:
        return out
    skip = -1
    for m in _SUSPECT_ESCAPE.finditer(text):
        start = m.start()
        if start < skip:
            continue
        run = 0
        while start - run - 1 >= 0 and text[start - run - 1] == "\\":
            run += 1
        if run % 2 == 1:
            continue  # the backslash is itself escaped: a literal "\\u..." text
        code = m.group(0)[2:].lower()
        if code == "0000":
            out.append((start, "NUL character (\\u0000) in a string"))
        elif code < "dc00":  # a high surrogate must be followed by a low one
            if _LOW_ESCAPE.match(text, m.end()):
                skip = m.end() + 6
                continue
            out.append((start, f"lone surrogate \\u{code} (not a Unicode character)"))
        else:
            out.append((start, f"lone surrogate \\u{code} (not a Unicode character)"))
        if len(out) >= limit:
            break
    return out


def _deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if ``value`` nests more than ``limit`` containers (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if type(v) is dict:
            children: Any = v.values()
        elif type(v) is list:
            children = v
        else:
            continue
        if d > limit:
            return True
        stack.extend((c, d + 1) for c in children if type(c) is dict or type(c) is list)
    return False


def too_deep(text: str, value: Any, start: int = 0, end: int | None = None) -> bool:
    """True if ``value`` (decoded from ``text[start:end]``) nests more than MAX_DEPTH levels.

    Counting brackets is a C-speed bound: only a value with more than MAX_DEPTH of them is walked.
    """
    end = len(text) if end is None else end
    return (text.count("[", start, end) + text.count("{", start, end)) > MAX_DEPTH and _deep(value)


def raw_decode(text: str, i: int = 0, decoder: json.JSONDecoder | None = None, *,
               check_depth: bool = True) -> tuple[Any, int]:
    """Decode one JSON value starting at ``text[i]``: (value, end offset).

    Raises ``json.JSONDecodeError`` for a syntax error and :class:`JSONProblem` for a value
    this module refuses (see the module docstring). ``check_depth=False`` leaves the depth
    limit to the caller (who checks smaller pieces).
    """
    dec = decoder or decoder_for(text)
    try:
        value, end = dec.raw_decode(text, i)
    except json.JSONDecodeError:
        raise
    except (_Duplicate, _Refused, ValueError, RecursionError) as exc:
        found = first_problem(text, i)
        if found is None:  # the scanner disagrees with the decoder: report where the value starts
            found = (i, _generic(exc))
        raise JSONProblem(found[1], found[0]) from None
    if check_depth and too_deep(text, value, i, end):
        found = first_problem(text, i) or (i, f"nested deeper than {MAX_DEPTH} levels")
        raise JSONProblem(found[1], found[0])
    return value, end


def _generic(exc: BaseException) -> str:
    if isinstance(exc, _Duplicate):
        return f"duplicate key {exc.key!r}"
    if isinstance(exc, RecursionError):
        return f"nested deeper than {MAX_DEPTH} levels"
    if isinstance(exc, _Refused):
        return f"{_short(str(exc))} is not an accepted JSON number"
    return "a number is out of range"


def loads(text: str) -> Any:
    """Decode a whole JSON text strictly (escape checks included). Raises like :func:`raw_decode`."""
    problems = escape_problems(text, limit=1)
    if problems:
        raise JSONProblem(problems[0][1], problems[0][0])
    value, end = raw_decode(text, _skip(text, 0))
    if _skip(text, end) != len(text):
        raise json.JSONDecodeError("Extra data", text, _skip(text, end))
    return value


def loads_cell(text: str) -> Any:
    """Decode a JSON cell of a table; raises ``ValueError`` with a readable message (column in the cell)."""
    try:
        return loads(text)
    except JSONProblem as exc:
        raise ValueError(f"{exc.message} at character {exc.pos + 1}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at character {exc.pos + 1}") from None


def dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` that refuses NaN and infinities (what it writes, :func:`loads` reads)."""
    return json.dumps(value, allow_nan=False, **kwargs)


# ----------------------------------------------------------------------------- locating a problem

_TOKEN = re.compile(
    r"""[ \t\n\r]*(?:
        ("(?:[^"\\]|\\.)*")                          # 1 string
      | ([\[\]{}:,])                                 # 2 punctuation
      | (-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)  # 3 number (4 fraction, 5 exponent)
      | (NaN|-?Infinity|true|false|null)             # 6 literal
    )""",
    re.VERBOSE | re.DOTALL,
)


def _short(s: str, n: int = 24) -> str:
    return s if len(s) <= n else f"{s[:n]}... ({len(s)} characters)"


def _tokens(text: str, i: int) -> Iterator[re.Match[str]]:
    n = len(text)
    while i < n:
        m = _TOKEN.match(text, i)
        if m is None or m.end() == i:
            return
        yield m
        i = m.end()


def first_problem(text: str, start: int = 0) -> tuple[int, str] | None:
    """The first refused construct of the JSON value starting at ``start``: (offset, message).

    A plain tokenizer with a stack of open containers: slow, so it runs only once a problem
    is known to exist (or for a value too deep for the C decoder).
    """
    stack: list[set[str] | None] = []  # a set of keys for an object, None for an array
    expect_key = False
    for m in _tokens(text, start):
        s, p, num, lit = m.group(1), m.group(2), m.group(3), m.group(6)
        pos = m.start(1) if s else m.start(2) if p else m.start(3) if num else m.start(6)
        if p in ("[", "{"):
            stack.append(set() if p == "{" else None)
            if len(stack) > MAX_DEPTH:
                return pos, f"nested deeper than {MAX_DEPTH} levels"
            expect_key = p == "{"
            continue
        if p in ("]", "}"):
            if not stack:
                return None
            stack.pop()
            if not stack:
                return None
            expect_key = False
            continue
        if p == ",":
            expect_key = bool(stack) and stack[-1] is not None
            continue
        if p == ":":
            expect_key = False
            continue
        if s is not None:
            if expect_key and stack and stack[-1] is not None:
                try:
                    key = json.loads(s)
                except (json.JSONDecodeError, ValueError):
                    return None
                if key in stack[-1]:
                    return pos, f"duplicate key {_short(key)!r} (a key may appear once in an object)"
                stack[-1].add(key)
                expect_key = False
            elif not stack:
                return None
            continue
        if num is not None:
            if m.group(4) is None and m.group(5) is None:
                if len(num.lstrip("-")) > MAX_INT_DIGITS:
                    return pos, f"integer {_short(num)} is too long (at most {MAX_INT_DIGITS} digits)"
            elif math.isinf(float(num)):
                return pos, f"number {_short(num)} is out of range"
            if not stack:
                return None
            continue
        if lit is not None:
            if lit in ("NaN", "Infinity", "-Infinity"):
                return pos, f"{lit} is not JSON (use a number or null)"
            if not stack:
                return None
    return None


# ----------------------------------------------------------------------------- documents


class _Malformed(Exception):
    pass


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


class _Walker:
    def __init__(self, text: str):
        self.text = text
        self.decoder = decoder_for(text)

    def value(self, i: int) -> tuple[Any, int]:
        try:
            return raw_decode(self.text, i, self.decoder)
        except json.JSONDecodeError as exc:
            raise _Malformed() from exc

    def array(self, i: int) -> tuple[list[Any], list[int], int]:
        """Parse the array starting at ``text[i] == '['``; returns items, their offsets, end."""
        text = self.text
        items: list[Any] = []
        offsets: list[int] = []
        i = _skip(text, i + 1)
        if i < len(text) and text[i] == "]":
            return items, offsets, i + 1
        while True:
            offsets.append(i)
            item, i = self.value(i)
            items.append(item)
            i, done = _after_member(text, i, "]")
            if done:
                return items, offsets, i

    def object(self, i: int, key: str) -> tuple[dict[str, Any], list[int] | None, int]:
        """Parse the root object; the array under ``key`` is walked item by item."""
        text = self.text
        out: dict[str, Any] = {}
        offsets: list[int] | None = None
        i = _skip(text, i + 1)
        if i < len(text) and text[i] == "}":
            return out, offsets, i + 1
        while True:
            if i >= len(text) or text[i] != '"':
                raise _Malformed()
            key_pos = i
            k, i = self.value(i)
            i = _skip(text, i)
            if i >= len(text) or text[i] != ":":
                raise _Malformed()
            i = _skip(text, i + 1)
            if k == key and i < len(text) and text[i] == "[":
                v, offs, i = self.array(i)
                offsets = offs
            else:
                v, i = self.value(i)
                if k == key:
                    offsets = None
            if k in out:
                raise JSONProblem(f"duplicate key {_short(k)!r} (a key may appear once in an object)", key_pos)
            out[k] = v
            i, done = _after_member(text, i, "}")
            if done:
                return out, offsets, i


def _after_member(text: str, i: int, close: str) -> tuple[int, bool]:
    """After an array item or object member: where the next one starts (False), or the
    position past the ``close`` bracket (True); anything else is malformed."""
    i = _skip(text, i)
    if i >= len(text):
        raise _Malformed()
    if text[i] == ",":
        return _skip(text, i + 1), False
    if text[i] == close:
        return i + 1, True
    raise _Malformed()


class ParsedJSON:
    """A decoded document plus the start line of each record of its record array."""

    def __init__(self, data: Any, item_lines: list[int] | None):
        self.data = data
        self.item_lines = item_lines


def _problem_defect(tf: TextFile, exc: JSONProblem, index: LineIndex | None = None) -> Defect:
    line, col = (index or LineIndex(tf.text)).position(exc.pos)
    return Defect(tf.name, line, f"invalid JSON: {exc.message}", col)


def _escape_defects(tf: TextFile) -> list[Defect]:
    found = escape_problems(tf.text)
    if not found:
        return []
    index = LineIndex(tf.text)
    out = []
    for pos, msg in found:
        line, col = index.position(pos)
        out.append(Defect(tf.name, line, f"invalid JSON: {msg}", col))
    return out


def parse_document(tf: TextFile, key: str = "entries") -> ParsedJSON | None:
    """Decode ``tf`` as one JSON document. On a defect, add it to ``tf.defects`` and return None.

    ``item_lines`` are the lines of the items of the root array, or of the array under
    ``key`` when the root is an object (None if there is no such array).
    """
    text = tf.text
    escapes = _escape_defects(tf)
    if escapes:
        for d in escapes:
            tf.defects.append(Defect(d.file, d.line, d.message, d.column))
        return None
    walker = _Walker(text)
    start = _skip(text, 0)
    data: Any
    offsets: list[int] | None
    try:
        if start < len(text) and text[start] == "[":
            data, offsets, end = walker.array(start)
        elif start < len(text) and text[start] == "{":
            data, offsets, end = walker.object(start, key)
        else:
            data, end = walker.value(start)
            offsets = None
        if _skip(text, end) != len(text):
            raise _Malformed()
    except _Malformed:
        _add_syntax_defect(tf)
        return None
    except JSONProblem as exc:
        tf.defects.append(_problem_defect(tf, exc))
        return None
    if offsets is None:
        return ParsedJSON(data, None)
    index = LineIndex(text)
    return ParsedJSON(data, [index.line_of(o) for o in offsets])


def _add_syntax_defect(tf: TextFile) -> None:
    try:
        json.loads(tf.text, object_pairs_hook=_pairs, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        msg = exc.msg
        if exc.pos >= len(tf.text.rstrip()) and msg.startswith("Expecting"):
            msg += " (the file ends too early: truncated?)"
        tf.defects.append(Defect(tf.name, exc.lineno, f"invalid JSON: {msg}", exc.colno))
        return
    except (_Duplicate, _Refused, ValueError, RecursionError):
        pass
    tf.defects.append(Defect(tf.name, None, "invalid JSON"))


BAD = object()  # marks a JSONL line that could not be decoded (its defect is already recorded)


def _may_be_deep(joined: str, values: list[Any]) -> bool:
    """False when no line of ``joined`` (the lines of a JSONL file as one array) can hold a value
    nested deeper than MAX_DEPTH, counted at C speed: such a line holds more than MAX_DEPTH opening
    brackets and every other line decoded as an object or array at least one, so the whole text
    would hold at least MAX_DEPTH more than the number of those lines (plus the array's own)."""
    containers = sum(1 for v in values if type(v) is dict or type(v) is list)
    return joined.count("[") + joined.count("{") - 1 >= containers + MAX_DEPTH


def parse_jsonl(tf: TextFile, defects: list[Defect]) -> list[tuple[int, Any]]:
    """Decode every non-blank line of a JSONL file: ``[(line number, value or BAD)]``.

    The whole file is first decoded in one call (as one array); only if that fails are lines
    decoded one by one to locate each defect.
    """
    lines = tf.lines()
    texts = [line for line in lines if line.strip()]
    if not texts:
        return []
    if not escape_problems(tf.text, limit=1):
        count = len(texts)
        # the line number of each value; no blank line: the positions
        numbers: Any = range(1, count + 1) if count == len(lines) else \
            [i for i, line in enumerate(lines, 1) if line.strip()]
        joined = "[" + ",".join(texts) + "]"
        del lines, texts  # decoded with the text held twice, not three times (hundreds of MB for a big file)
        try:
            values, end = raw_decode(joined, 0, check_depth=False)
        except (json.JSONDecodeError, JSONProblem):
            values = None
        if values is not None and end == len(joined) and len(values) == count:
            deep = _may_be_deep(joined, values)
            del joined
            if deep:  # a value nested deeper than MAX_DEPTH takes more than MAX_DEPTH brackets: only long lines
                deep = any(len(line) > MAX_DEPTH and too_deep(line, v)
                           for line, v in zip((t for t in tf.lines() if t.strip()), values, strict=True))
            if not deep:
                return list(zip(numbers, values, strict=True))
        lines = tf.lines()
    numbered = [(i, line) for i, line in enumerate(lines, 1) if line.strip()]
    out: list[tuple[int, Any]] = []
    for i, line in numbered:
        try:
            out.append((i, loads(line)))
        except json.JSONDecodeError as exc:
            defects.append(Defect(tf.name, i, f"invalid JSON: {exc.msg}", exc.colno))
            out.append((i, BAD))
        except JSONProblem as exc:
            defects.append(Defect(tf.name, i, f"invalid JSON: {exc.message}", exc.pos + 1))
            out.append((i, BAD))
    return out
