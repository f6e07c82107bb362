"""Deterministic transliteration between two scripts of one language, from a table in its card.

A language card may declare ``transliterations``: tables from its first script (the one its
analyzers read, e.g. Plains Cree Standard Roman Orthography) to another (Cree syllabics). The
engine here knows no language; the tables are data:

- *forward* (first script -> other): each word is read left to right and the longest table key
  that matches at the current position is written as its value (``pwâ`` before ``p``); keys of
  ``word_final`` match only when nothing but non-letters follows them. A character no key
  covers is kept as written (punctuation, digits, hyphens).
- *backward* (other -> first script): the same over the inverted table (values -> keys; the
  values are unique, which the card check enforces).

:func:`word_script` tells which side of a table a word is written in, from the characters the
table's values use: a word with any of them counts as written in the second script.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from mteval_gui.domain.card import LanguageCard, TransliterationDecl
from mteval_gui.text import nfc


def _convert(text: str, table: Mapping[str, str], final: Mapping[str, str], longest: int, lower: bool) -> str:
    s = nfc(text)
    if lower:
        s = s.lower()
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        for k in range(min(longest, n - i), 0, -1):
            key = s[i:i + k]
            end = i + k
            at_end = end == n or not s[end].isalpha()
            if at_end and key in final:
                out.append(final[key])
                break
            if key in table:
                out.append(table[key])
                break
        else:
            k = 1
            out.append(s[i])
        i += k
    return "".join(out)


@dataclass(frozen=True)
class Transliterator:
    """One table of a card, compiled (both directions)."""

    decl: TransliterationDecl
    _forward: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _backward: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _final: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    _target_chars: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)
    _longest: tuple[int, int] = field(default=(1, 1), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fwd = {nfc(k): nfc(v) for k, v in self.decl.table.items() if k}
        fin = {nfc(k): nfc(v) for k, v in self.decl.word_final.items() if k}
        back = {v: k for k, v in fwd.items() if v}
        back.update({v: k for k, v in fin.items() if v})
        object.__setattr__(self, "_forward", fwd)
        object.__setattr__(self, "_final", fin)
        object.__setattr__(self, "_backward", back)
        chars = {c for v in back for c in v if c.isalpha()}
        object.__setattr__(self, "_target_chars", frozenset(chars))
        object.__setattr__(self, "_longest", (max((len(k) for k in (*fwd, *fin)), default=1),
                                              max((len(k) for k in back), default=1)))

    @property
    def from_script(self) -> str:
        return self.decl.from_script

    @property
    def to_script(self) -> str:
        return self.decl.to_script

    @property
    def target_chars(self) -> frozenset[str]:
        """The letters the second script's spellings use."""
        return self._target_chars

    def forward(self, text: str) -> str:
        """``text`` (first script) written in the second script."""
        return _convert(text, self._forward, self._final, self._longest[0], self.decl.ignore_case)

    def backward(self, text: str) -> str:
        """``text`` (second script) written in the first script."""
        return _convert(text, self._backward, {}, self._longest[1], False)

    def in_target_script(self, word: str) -> bool:
        """Whether ``word`` uses letters of the second script."""
        return any(c in self._target_chars for c in word)


def problems(decl: TransliterationDecl, where: str) -> list[str]:
    """What is wrong with a declared table (empty when nothing)."""
    out: list[str] = []
    seen: dict[str, str] = {}
    for part, mapping in (("table", decl.table), ("word_final", decl.word_final)):
        for k, v in mapping.items():
            if not k:
                out.append(f"{where}.{part}: empty key")
            elif not v:
                out.append(f"{where}.{part}.{k}: empty value (the table must be readable backwards)")
            elif v in seen:
                out.append(f"{where}.{part}.{k}: {v!r} is also the value of {seen[v]!r} (the table must be "
                           "readable backwards)")
            else:
                seen[v] = k
    if not decl.table:
        out.append(f"{where}.table: empty")
    if decl.from_script == decl.to_script:
        out.append(f"{where}: 'from' and 'to' are the same script {decl.from_script!r}")
    return out


@dataclass(frozen=True)
class Scripts:
    """The transliterations of one card: which script a word is in, and the word in another script."""

    primary: str
    tables: tuple[Transliterator, ...] = ()

    @classmethod
    def of(cls, card: LanguageCard | None) -> Scripts:
        if card is None:
            return cls("Latn")
        primary = card.scripts[0] if card.scripts else "Latn"
        return cls(primary, tuple(Transliterator(d) for d in card.transliterations if d.from_script == primary))

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(t.to_script for t in self.tables)

    def __bool__(self) -> bool:
        return bool(self.tables)

    def table_of(self, word: str) -> Transliterator | None:
        """The table whose second script ``word`` is written in (None: the first script)."""
        for t in self.tables:
            if t.in_target_script(word):
                return t
        return None

    def script_of(self, word: str) -> str:
        t = self.table_of(word)
        return t.to_script if t is not None else self.primary

    def to_primary(self, text: str) -> str:
        """Every word of ``text`` written in the first script (words already in it are unchanged)."""
        if not self.tables:
            return text
        return " ".join(self._word_to_primary(w) for w in nfc(text).split(" "))

    def _word_to_primary(self, word: str) -> str:
        t = self.table_of(word)
        return t.backward(word) if t is not None else word

    def to_script(self, text: str, script: str) -> str | None:
        """``text`` written in ``script`` (None when no table leads there)."""
        if script == self.primary:
            return self.to_primary(text)
        for t in self.tables:
            if t.to_script == script:
                return " ".join(t.forward(w) if not t.in_target_script(w) else w
                                for w in self.to_primary(text).split(" "))
        return None

    def written_in_other(self, text: str | None) -> bool:
        """Whether any word of ``text`` is written in a second script."""
        return bool(text) and any(self.table_of(w) is not None for w in (text or "").split())
