"""Ewe orthography helpers shared by the Ewe quality heuristic and ÈwéBench.

- :data:`EWE_LETTERS`: the seven letters that mark written Ewe, ɖ ɛ ɔ ƒ ŋ ɣ ʋ, in both cases.
- :func:`fold_key`: the comparison form of a text: NFC, whitespace collapsed, casefolded, then
  the Ewe card's look-alike folds (Ð/Đ → Ɖ, ʊ → ʋ, ɑ → a, Greek ε/γ/υ → ɛ/ɣ/ʋ ...). Folds come from
  the card (``orthography.folds``), so a linguist edits them there. The card in use is the one
  the application hands over (:func:`use_card`: the metric's ``ScoringContext.target_card``, a
  suite's ``prepare(card)``); the standard never looks cards up itself.
- :func:`word_keys`: the words of a text in :func:`fold_key` form. A word is a run of letters,
  combining marks and digits; a hyphen or apostrophe between two such runs stays inside the
  word (``e-le``, ``d'ivoire``), as does a decimal point or comma between digits (``1.70``).
  Combining marks belong to the word, so ``vɔ`` is not found inside ``vɔ̃``.
- :func:`find_sequences`: which word sequences (keywords, list entries) occur as whole words.
- :func:`find_words`: the same over a text, where a word with an internal apostrophe also
  counts as its parts, so French elisions (``l'effort``, ``qu'il``) expose the word after
  the apostrophe while ``d'ivoire`` still matches as one word.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import CardError
from mteval_gui.text import folded_key, match_key, nfc

EWE_LETTERS_LOWER = "ɖɛɔƒŋɣʋ"
EWE_LETTERS = EWE_LETTERS_LOWER + EWE_LETTERS_LOWER.upper()

_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_UNIT = rf"(?:[^\W_]|[{_MARKS}])"
_APOSTROPHES = "'’ʼ"
_JOIN = rf"(?:[-{_APOSTROPHES}‐‑]|(?<=\d)[.,](?=\d))"
_APOS_SPLIT = re.compile(f"[{_APOSTROPHES}]")
WORD_RE = re.compile(rf"{_UNIT}+(?:{_JOIN}{_UNIT}+)*")


_in_use: LanguageCard | None = None  # the Ewe card the application handed over (see use_card)
_in_use_folds: tuple[tuple[str, str], ...] | None = None


def use_card(card: LanguageCard | None) -> None:
    """Use ``card`` as the Ewe card: the one the application looked up for ``ewe`` (a user card
    replaces the bundled one), handed over when a scoring job or a suite prepares. ``None`` (or a
    card of another language) goes back to the bundled card. The standard never looks cards up itself."""
    global _in_use, _in_use_folds
    _in_use = card if card is not None and card.code == "ewe" else None
    _in_use_folds = tuple(sorted(_in_use.orthography.folds.items())) if _in_use is not None else None


def ewe_card() -> LanguageCard:
    """The Ewe card in use: the one handed to :func:`use_card`, else the bundled ``language_cards/ewe.json``."""
    return _in_use if _in_use is not None else _bundled_card()


def _bundled_card() -> LanguageCard:
    return _read_card(*_bundled_stamp())


def _bundled_stamp() -> tuple[str, int]:
    """(path of the bundled Ewe card, its modification time): a cache key that changes on edit."""
    from mteval_gui.paths import language_cards_dir

    path = str(language_cards_dir() / "ewe.json")
    try:
        return path, os.stat(path).st_mtime_ns
    except OSError:
        return path, -1


@lru_cache(maxsize=4)
def _read_card(path: str, mtime: int) -> LanguageCard:
    try:
        return LanguageCard.model_validate_json(Path(path).read_bytes())
    except (OSError, ValueError) as exc:
        raise CardError(f"the bundled Ewe card cannot be read: {exc}", card=path) from None


def card_folds(card: LanguageCard | None = None) -> dict[str, str]:
    """The orthographic folds of ``card`` (default: the Ewe card in use)."""
    return dict((card or ewe_card()).orthography.folds)


def _folds_in_use() -> tuple[tuple[str, str], ...]:
    folds = _in_use_folds
    return folds if folds is not None else _bundled_folds()


def _bundled_folds() -> tuple[tuple[str, str], ...]:
    return _sorted_folds(*_bundled_stamp())


@lru_cache(maxsize=4)
def _sorted_folds(path: str, mtime: int) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(_read_card(path, mtime).orthography.folds.items()))


@lru_cache(maxsize=16)
def _fold_table(items: tuple[tuple[str, str], ...]) -> dict[int, str] | None:
    """A ``str.translate`` table doing what :func:`mteval_gui.text.folded_key` does with these
    folds, or None when a fold is not one character to one (then ``folded_key`` is used)."""
    table: dict[int, str] = {}
    for a, b in items:
        for src, dst in ((match_key(a), match_key(b)), (nfc(a), nfc(b))):
            if len(src) != 1:
                return None
            table.setdefault(ord(src), dst)
    return table


def fold_key(text: str | None, folds: Mapping[str, str] | None = None) -> str:
    """NFC, collapsed whitespace, casefolded, look-alike letters folded (card folds by default)."""
    items = tuple(sorted(folds.items())) if folds is not None else _folds_in_use()
    table = _fold_table(items)
    if table is None:
        return folded_key(text or "", dict(items))
    return match_key(text).translate(table)


def letters_in_key(key: str) -> list[str]:
    """Distinct Ewe letters of a :func:`fold_key` string, in alphabet order."""
    return [ch for ch in EWE_LETTERS_LOWER if ch in key]


def word_keys(text: str | None, folds: Mapping[str, str] | None = None) -> list[str]:
    """The words of ``text`` in :func:`fold_key` form, in order."""
    return WORD_RE.findall(fold_key(text, folds))


def ewe_letters_in(text: str | None, folds: Mapping[str, str] | None = None) -> list[str]:
    """Distinct Ewe letters in ``text`` (either case, after folds), lower case, in alphabet order."""
    return letters_in_key(fold_key(text, folds))


def find_sequences(words: Sequence[str], sequences: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The given word sequences that occur contiguously in ``words`` (order of ``sequences`` kept)."""
    seqs = sequences if isinstance(sequences, tuple) else tuple(sequences)
    singles, firsts = _sequence_index(seqs)
    hits: list[int] = []
    n = len(words)
    for w in set(words):
        hits.extend(singles.get(w, ()))
        for i in firsts.get(w, ()):
            seq = seqs[i]
            k = len(seq)
            if any(words[j] == w and tuple(words[j:j + k]) == seq for j in range(n - k + 1)):
                hits.append(i)
    hits.sort()
    return [seqs[i] for i in hits]


@lru_cache(maxsize=32)
def _sequence_index(seqs: tuple[tuple[str, ...], ...]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Positions in ``seqs`` of the one-word sequences by their word, and of the longer ones by
    their first word (word lists are fixed for a job: built once per list)."""
    singles: dict[str, list[int]] = {}
    firsts: dict[str, list[int]] = {}
    for i, seq in enumerate(seqs):
        if seq:
            (singles if len(seq) == 1 else firsts).setdefault(seq[0], []).append(i)
    return singles, firsts


def find_words(text: str | None, sequences: Iterable[tuple[str, ...]],
               folds: Mapping[str, str] | None = None) -> list[tuple[str, ...]]:
    """Word sequences found in ``text`` as whole words (apostrophe parts also count, see above)."""
    return find_in_words(word_keys(text, folds), sequences)


def find_in_words(words: Sequence[str], sequences: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """:func:`find_words` on words already split by :func:`word_keys`."""
    seqs = sequences if isinstance(sequences, tuple) else tuple(sequences)
    found = set(find_sequences(words, seqs))
    if _APOS_SPLIT.search("\n".join(words)):  # a word with an apostrophe
        parts = [p for w in words for p in _APOS_SPLIT.split(w) if p]
        found |= set(find_sequences(parts, seqs))
    return [s for s in seqs if s in found]
