"""Orthography checks of single words against a language card's orthography profile.

Checks, in this order, one violation per distinct offending character:

- ``forbidden``: a character the profile forbids (with the card's reason);
- ``lookalike``: a look-alike character (``Ð`` for ``Ɖ``, ``ā`` for ``â``);
- ``fold``: a character the card folds to another spelling for equivalence (a non-standard
  spelling of that letter);
- ``alphabet``: a character outside the allowed alphabet (both cases) and the extra allowed
  word-internal characters;

then per word:

- ``digit``: a digit inside a word (``digits_in_words_forbidden``; pure numbers are not words);
- ``rule``: a regular-expression rule of the profile matched (its message is shown);
- ``non_standard``: (FST languages) the strict analyzer rejects the word but the descriptive
  analyzer accepts it, i.e. a recognisable but non-standard spelling. Added by the metric.

Words listed in the card's ``allowed_loanwords`` are never flagged. A word written in another
script of the language (a card ``transliterations`` table: Cree syllabics) is checked in that
script by the metric: its letters must be spellings of the table (``alphabet``), letters of the
first script inside it are ``mixed_script``; the analyzer checks read its transliteration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.domain.card import LanguageCard, OrthographyProfile
from mteval_gui.linear_regex import compile_rule
from mteval_gui.text import nfc


@dataclass(frozen=True)
class Violation:
    code: str
    message: str
    char: str | None = None
    analyses: tuple[str, ...] = ()  # non_standard: what the descriptive analyzer read the word as

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.char is not None:
            d["char"] = self.char
        if self.analyses:
            d["analyses"] = list(self.analyses)
        return d


def _cp(ch: str) -> str:
    return f"U+{ord(ch):04X}"


@dataclass
class OrthographyChecker:
    """Compiled orthography profile of one language."""

    profile: OrthographyProfile
    loanwords: frozenset[str] = frozenset()
    _allowed: frozenset[str] | None = field(default=None, init=False)
    _rules: list[tuple[Callable[[str], bool], str]] = field(default_factory=list, init=False)
    _char_folds: dict[str, str] = field(default_factory=dict, init=False)
    _multi_folds: dict[str, str] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        p = self.profile
        if p.alphabet:
            letters = {c for c in nfc(p.alphabet) if not c.isspace()}
            letters |= {c.upper() for c in letters if len(c.upper()) == 1}
            letters |= {c.lower() for c in letters if len(c.lower()) == 1}
            self._allowed = frozenset(letters | set(p.extra_allowed))
        self._rules = [(compile_rule(r.pattern), r.message) for r in p.rules]  # linear-time matching
        for src, dst in p.folds.items():
            s, d = nfc(src), nfc(dst)
            if not s or s == d:
                continue
            (self._char_folds if len(s) == 1 else self._multi_folds)[s] = d
        self.loanwords = frozenset(w.casefold() for w in self.loanwords)

    @classmethod
    def for_card(cls, card: LanguageCard) -> OrthographyChecker:
        return cls(card.orthography, frozenset(card.allowed_loanwords))

    @property
    def has_checks(self) -> bool:
        p = self.profile
        return bool(self._allowed or p.forbidden or p.lookalikes or self._char_folds or self._multi_folds
                    or self._rules or p.digits_in_words_forbidden)

    def in_alphabet(self, ch: str) -> bool:
        """Whether ``ch`` is a letter of the profile's alphabet (False without an alphabet)."""
        return self._allowed is not None and ch in self._allowed and ch.isalpha()

    def check(self, word: str) -> list[Violation]:
        """Violations of one word token (NFC)."""
        w = nfc(word)
        if w.casefold() in self.loanwords:
            return []
        p = self.profile
        out: list[Violation] = []
        seen: set[str] = set()
        for ch in w:
            if ch in seen:
                continue
            seen.add(ch)
            if ch in p.forbidden:
                out.append(Violation("forbidden", f"forbidden character {ch!r} ({_cp(ch)}): {p.forbidden[ch]}", ch))
            elif ch in p.lookalikes:
                out.append(
                    Violation("lookalike", f"look-alike {ch!r} ({_cp(ch)}) written for {p.lookalikes[ch]!r}", ch)
                )
            elif ch in self._char_folds:
                out.append(
                    Violation(
                        "fold", f"non-standard {ch!r} ({_cp(ch)}); standard spelling uses {self._char_folds[ch]!r}", ch
                    )
                )
            elif self._allowed is not None and ch not in self._allowed and not ch.isdigit():
                out.append(Violation("alphabet", f"{ch!r} ({_cp(ch)}) is not in the alphabet", ch))
        for src, dst in self._multi_folds.items():
            if src in w:
                out.append(Violation("fold", f"non-standard {src!r}; standard spelling uses {dst!r}", src))
        if p.digits_in_words_forbidden and any(c.isdigit() for c in w) and any(c.isalpha() for c in w):
            out.append(Violation("digit", "digit inside a word (a letter written as a digit?)"))
        for found, message in self._rules:
            if found(w):
                out.append(Violation("rule", message))
        return out
