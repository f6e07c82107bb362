"""Card rule patterns matched in linear time.

The orthography rules of a language card are regular expressions written by card authors and
matched against every word of every output. Python's ``re`` backtracks: ``^(a|aa)+$`` on one
50-letter word runs for minutes. Rules are therefore run by RE2 (the ``google-re2`` package),
whose matching time grows linearly with the word whatever the pattern.

**Same meaning as before.** A rule is still written in Python's syntax and means what it meant
with ``re``: the pattern is parsed by Python's own parser and written out again in RE2's syntax,
so flags, escapes and ``(?x)`` comments are read exactly as ``re`` reads them. Where the two
engines differ, the Python meaning is spelled out: ``\\w`` is a Unicode letter, number or ``_``
(RE2's ``\\w`` is ASCII), ``\\d`` a Unicode decimal digit, ``\\s`` Python's Unicode white space,
``$`` also matches before a final newline, ``\\Z`` is the end of the text. Under ``(?a)`` the
ASCII classes are kept.

**What is refused.** Constructs that need backtracking have no linear-time equivalent and are
refused when a card is added or validated, with what the pattern uses: backreferences
(``\\1``, ``(?P=name)``), lookahead and lookbehind, conditional groups, possessive quantifiers
and atomic groups, and ``\\b``/``\\B`` (RE2 has only an ASCII word boundary; a rule is matched
against one word, so ``^`` and ``$`` say the same thing).

**Without RE2** (a platform with no ``google-re2`` wheel) rules run with ``re`` and the patterns
that can backtrack catastrophically — a repetition containing another repetition or an
alternation — are refused as well.
"""

from __future__ import annotations

import array
import re
import sys
from collections.abc import Callable
from functools import lru_cache
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

try:
    import re2
except ImportError:  # pragma: no cover - platforms without a google-re2 wheel
    re2 = None

HAVE_RE2 = re2 is not None
SUFFIX = "which is not supported (linear-time matching)"

# Python's \s for str: str.isspace() characters
_PY_SPACE = r"\t\n\x{b}\f\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"
_UNICODE_CATEGORIES = {
    C.CATEGORY_WORD: (False, r"\pL\pN_"),
    C.CATEGORY_NOT_WORD: (True, r"\pL\pN_"),
    C.CATEGORY_DIGIT: (False, r"\p{Nd}"),
    C.CATEGORY_NOT_DIGIT: (True, r"\p{Nd}"),
    C.CATEGORY_SPACE: (False, _PY_SPACE),
    C.CATEGORY_NOT_SPACE: (True, _PY_SPACE),
}
_ASCII_CATEGORIES = {
    C.CATEGORY_WORD: (False, r"0-9A-Za-z_"),
    C.CATEGORY_NOT_WORD: (True, r"0-9A-Za-z_"),
    C.CATEGORY_DIGIT: (False, r"0-9"),
    C.CATEGORY_NOT_DIGIT: (True, r"0-9"),
    C.CATEGORY_SPACE: (False, r"\t\n\x{b}\f\r "),
    C.CATEGORY_NOT_SPACE: (True, r"\t\n\x{b}\f\r "),
}
_SCOPED = ((C.SRE_FLAG_IGNORECASE, "i"), (C.SRE_FLAG_DOTALL, "s"))


class UnsupportedPattern(ValueError):
    """A pattern that cannot be matched in linear time; ``str()`` says what it uses."""

    def __init__(self, what: str):
        super().__init__(f"pattern uses {what} {SUFFIX}")
        self.what = what


def _char(code: int) -> str:
    ch = chr(code)
    return ch if ch.isascii() and ch.isalnum() else f"\\x{{{code:x}}}"


class _Writer:
    """Writes a pattern parsed by Python's parser in RE2's syntax, Python's meaning kept."""

    def __init__(self, flags: int):
        self.ignorecase = bool(flags & C.SRE_FLAG_IGNORECASE)
        self.ascii = bool(flags & C.SRE_FLAG_ASCII)
        self.multiline = bool(flags & C.SRE_FLAG_MULTILINE)

    def seq(self, items: Any) -> str:
        return "".join(self.item(op, av) for op, av in items)

    def item(self, op: Any, av: Any) -> str:
        if op is C.LITERAL:
            return _char(av)
        if op is C.NOT_LITERAL:
            return f"[^{_char(av)}]"
        if op is C.ANY:
            return "."
        if op is C.IN:
            return self.charset(av)
        if op is C.BRANCH:
            return "(?:" + "|".join(self.seq(alt) for alt in av[1]) + ")"
        if op is C.SUBPATTERN:
            group, add, remove, body = av
            saved = (self.ascii, self.multiline, self.ignorecase)
            self.ignorecase = bool(add & C.SRE_FLAG_IGNORECASE) or (self.ignorecase
                                                                   and not remove & C.SRE_FLAG_IGNORECASE)
            if add & C.SRE_FLAG_ASCII:
                self.ascii = True
            if remove & C.SRE_FLAG_ASCII or add & C.SRE_FLAG_UNICODE:
                self.ascii = False
            if add & C.SRE_FLAG_MULTILINE:
                self.multiline = True
            if remove & C.SRE_FLAG_MULTILINE:
                self.multiline = False
            inner = self.seq(body)
            self.ascii, self.multiline, self.ignorecase = saved
            on = "".join(f for bit, f in _SCOPED if add & bit)
            off = "".join(f for bit, f in _SCOPED if remove & bit)
            if on or off:
                inner = f"(?{on}{'-' + off if off else ''}:{inner})"
            return f"({inner})" if group is not None else f"(?:{inner})"
        if op in (C.MAX_REPEAT, C.MIN_REPEAT):
            low, high, body = av
            bound = f"{{{low},}}" if high == C.MAXREPEAT else f"{{{low},{high}}}" if low != high else f"{{{low}}}"
            return f"(?:{self.seq(body)}){bound}{'?' if op is C.MIN_REPEAT else ''}"
        if op is C.AT:
            return self.at(av)
        raise UnsupportedPattern(_unsupported_name(op, av))

    def at(self, av: Any) -> str:
        if av is C.AT_BEGINNING:
            return "(?m:^)" if self.multiline else r"\A"
        if av is C.AT_BEGINNING_STRING:
            return r"\A"
        if av is C.AT_END:
            return "(?m:$)" if self.multiline else r"(?:\n?\z)"
        if av is C.AT_END_STRING:
            return r"\z"
        if self.ascii and av in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            return r"\b" if av is C.AT_BOUNDARY else r"\B"
        raise UnsupportedPattern(r"a word boundary (\b or \B)")

    def charset(self, items: Any) -> str:
        negate = False
        positive: list[str] = []
        negated: list[str] = []
        categories = _ASCII_CATEGORIES if self.ascii else _UNICODE_CATEGORIES
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                positive.append(_char(av))
            elif op is C.RANGE:
                positive.append(f"{_char(av[0])}-{_char(av[1])}")
            elif op is C.CATEGORY:
                is_negated, body = categories[av]
                (negated if is_negated else positive).append(body)
            else:  # pragma: no cover - the parser puts nothing else in a set
                raise UnsupportedPattern(f"a character set item {op}")
        if not negated:
            return f"[{'^' if negate else ''}{''.join(positive)}]"
        if negate:  # [^\W...]: an intersection, which RE2's sets cannot write: the characters are listed
            return _listed_set(items, self.ascii, self.ignorecase)
        parts = ([f"[{''.join(positive)}]"] if positive else []) + [f"[^{body}]" for body in negated]
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


_PY_CATEGORY = {C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W", C.CATEGORY_DIGIT: r"\d",
                C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s", C.CATEGORY_NOT_SPACE: r"\S"}


def _every_character() -> str:
    """Every code point once, in order (surrogates included), as one string (0.1 s; 4 MB, not kept)."""
    codes = array.array("I", range(0x110000))
    if sys.byteorder != "little":  # pragma: no cover
        codes.byteswap()
    return codes.tobytes().decode("utf-32-le", "surrogatepass")


def _listed_set(items: Any, ascii_only: bool, ignorecase: bool) -> str:
    """A negated set with ``\\W``, ``\\D`` or ``\\S`` in it (``[^\\W\\d_]``: the letters) as the explicit
    ranges of the characters Python's ``re`` matches with it (every character is tried: ≈ 0.25 s once,
    then the compiled rule is cached)."""
    parts = []
    for op, av in items:
        if op is C.LITERAL:
            parts.append(f"\\U{av:08x}")
        elif op is C.RANGE:
            parts.append(f"\\U{av[0]:08x}-\\U{av[1]:08x}")
        elif op is C.CATEGORY:
            parts.append(_PY_CATEGORY[av])
    flags = (re.ASCII if ascii_only else 0) | (re.IGNORECASE if ignorecase else 0)
    rx = re.compile("[^" + "".join(parts) + "]", flags)
    codes = [ord(ch) for ch in rx.findall(_every_character())]
    ranges: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        ranges.append(_char(codes[i]) if i == j else f"{_char(codes[i])}-{_char(codes[j])}")
        i = j + 1
    return f"(?-i:[{''.join(ranges)}])" if ranges else r"[^\x{0}-\x{10ffff}]"


def _unsupported_name(op: Any, av: Any) -> str:
    if op is C.GROUPREF:
        return f"a backreference (\\{av})"
    if op is C.GROUPREF_EXISTS:
        return "a conditional group ((?(1)...))"
    if op in (C.ASSERT, C.ASSERT_NOT):
        direction = "lookbehind" if av[0] < 0 else "lookahead"
        return f"a {'negative ' if op is C.ASSERT_NOT else ''}{direction}"
    if op is C.POSSESSIVE_REPEAT:
        return "a possessive quantifier (*+, ++, ?+)"
    if op is C.ATOMIC_GROUP:
        return "an atomic group ((?>...))"
    return f"{str(op).lower()}"


def to_re2(pattern: str) -> str:
    """``pattern`` (Python syntax) written in RE2's syntax with the same meaning.

    Raises ``re.error`` for a pattern Python cannot parse and :class:`UnsupportedPattern` for one
    without a linear-time equivalent."""
    parsed = _parser.parse(pattern)
    flags = parsed.state.flags
    writer = _Writer(flags)
    body = writer.seq(parsed.data)
    on = "".join(f for bit, f in _SCOPED if flags & bit)
    return f"(?{on}){body}" if on else body


def _backtracking_shape(items: Any, inside_repeat: bool = False) -> str | None:
    """Without RE2: what makes ``items`` risk catastrophic backtracking (None: nothing found)."""
    for op, av in items:
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            repeats = av[1] == C.MAXREPEAT or av[1] > 1
            if inside_repeat and repeats:
                return "a repetition inside a repetition"
            found = _backtracking_shape(av[2], inside_repeat or repeats)
            if found:
                return found
        elif op is C.BRANCH:
            if inside_repeat:
                return "an alternation inside a repetition"
            for alt in av[1]:
                found = _backtracking_shape(alt, inside_repeat)
                if found:
                    return found
        elif op in (C.SUBPATTERN, C.ATOMIC_GROUP, C.ASSERT, C.ASSERT_NOT):
            found = _backtracking_shape(av[-1], inside_repeat)
            if found:
                return found
    return None


@lru_cache(maxsize=256)
def compile_rule(pattern: str) -> Callable[[str], bool]:
    """A function telling whether ``pattern`` is found in a text, matching in linear time.

    Raises ``re.error`` for an invalid pattern and :class:`UnsupportedPattern` for one that cannot
    be matched in linear time."""
    if re2 is None:  # platforms without a google-re2 wheel
        compiled = re.compile(pattern)
        shape = _backtracking_shape(_parser.parse(pattern).data)
        if shape:
            raise UnsupportedPattern(shape)
        return lambda text: compiled.search(text) is not None
    translated = to_re2(pattern)
    options = re2.Options()
    options.log_errors = False
    options.never_capture = True  # only whether it is found matters
    try:
        rx = re2.compile(translated, options)
    except re2.error as exc:
        raise UnsupportedPattern(f"something RE2 cannot compile ({_decode(exc)})") from exc
    return lambda text: rx.search(text) is not None


@lru_cache(maxsize=256)
def compile_masker(pattern: str) -> Callable[[str], str]:
    """A function writing every non-overlapping match of ``pattern`` in a text as spaces (the
    text keeps its length), matching in linear time. Raises as :func:`compile_rule` does."""
    def blank(m: Any) -> str:
        return " " * len(m.group(0))

    if re2 is None:  # platforms without a google-re2 wheel
        compiled = re.compile(pattern)
        shape = _backtracking_shape(_parser.parse(pattern).data)
        if shape:
            raise UnsupportedPattern(shape)
        return lambda text: compiled.sub(blank, text)
    translated = to_re2(pattern)
    options = re2.Options()
    options.log_errors = False
    try:
        rx = re2.compile(translated, options)
    except re2.error as exc:
        raise UnsupportedPattern(f"something RE2 cannot compile ({_decode(exc)})") from exc
    return lambda text: rx.sub(blank, text)


def _decode(exc: BaseException) -> str:
    arg = exc.args[0] if exc.args else exc
    return arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)


def rule_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be a card rule (None when it can)."""
    try:
        compile_rule(pattern)
    except re.error as exc:
        return f"invalid regular expression {pattern!r}: {exc}"
    except UnsupportedPattern as exc:
        return str(exc)
    return None
