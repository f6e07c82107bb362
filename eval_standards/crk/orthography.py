"""Canonical spelling of Plains Cree text for comparison (linter and semantic validator).

A text becomes a list of :class:`Word` objects. Each word keeps how it was written and gets
a canonical form in which spelling conventions no longer differ:

1. tokens as the application's text policy defines them (``mteval_gui.text.word_tokens``:
   NFC, edge punctuation and quotes stripped, numbers dropped), lower-cased;
2. hyphen look-alikes become ``-`` (``fst_form``) and the character folds of
   ``spelling_folds.tsv`` apply (ý → y, typographic apostrophes) — change ``char``;
3. macron long vowels become circumflex ones (``long_vowels.tsv``) — change ``long_vowel``;
4. fused preverb chains are expanded (``kikahati`` → ``kika-ati``) — change ``fused``;
5. a preverb written as a separate word is joined to what follows with a hyphen, chains
   included (``ê kî wâpamât`` → ``ê-kî-wâpamât``) — change ``spacing``.

``plain`` is the canonical form without step 3, so the linter can tell a macron/circumflex
difference (LONG_VOWEL_MACRON) from other spelling differences (ORTHOGRAPHIC).
The canonical form is what the analyzer is asked about: it accepts circumflex SRO with
hyphenated preverbs, not macrons or spaced preverbs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eval_standards.crk.wordlists import WordLists
from mteval_gui.text import fst_form, nfc, word_tokens

CIRCUMFLEX_VOWELS = {"â": "a", "ê": "e", "î": "i", "ô": "o"}


@dataclass(frozen=True)
class Word:
    """One word of a text (a preverb chain joined to its verb counts as one word)."""

    form: str  # canonical form
    plain: str  # canonical form keeping macrons as written
    written: str  # lower-cased tokens as written, joined by spaces
    start: int  # index of the first token in the text
    tokens: tuple[str, ...]  # the tokens as written (original case)
    changes: frozenset[str] = frozenset()  # char, long_vowel, fused, spacing

    def to_json(self) -> dict[str, Any]:
        return {"form": self.form, "written": " ".join(self.tokens)}


def unmark_length(s: str) -> str:
    """A form with long-vowel marks removed (â → a ...), for diagnosing missing length marks."""
    return "".join(CIRCUMFLEX_VOWELS.get(c, c) for c in s)


def length_marks(s: str) -> int:
    return sum(1 for c in s if c in CIRCUMFLEX_VOWELS)


def _lower(tok: str) -> str:
    return nfc(tok.casefold())


class Orthography:
    """Turns texts into canonical :class:`Word` lists with one set of word lists."""

    def __init__(self, lists: WordLists):
        self.lists = lists

    def _fold(self, s: str, table: dict[str, str]) -> str:
        for a, b in table.items():
            s = s.replace(a, b)
        return nfc(s)

    def is_preverb_chain(self, form: str) -> bool:
        segs = form.split("-")
        return bool(segs) and all(seg in self.lists.preverbs for seg in segs)

    def _token(self, tok: str) -> tuple[str, str, set[str]]:
        changes: set[str] = set()
        low = _lower(tok)
        x = fst_form(low)
        y = self._fold(x, self.lists.spelling_folds)
        if y != low:
            changes.add("char")
        plain = y
        form = self._fold(y, self.lists.long_vowels)
        if form != plain:
            changes.add("long_vowel")
        f_segs, p_segs = form.split("-"), plain.split("-")
        if len(f_segs) == len(p_segs):
            nf, np_ = [], []
            for sf, sp in zip(f_segs, p_segs, strict=True):
                exp = self.lists.fused_preverbs.get(sf)
                if exp is not None:
                    nf.append(exp)
                    np_.append(exp)
                    changes.add("fused")
                else:
                    nf.append(sf)
                    np_.append(sp)
            form, plain = "-".join(nf), "-".join(np_)
        return form, plain, changes

    def words(self, text: str | None) -> list[Word]:
        toks = word_tokens(text)
        items = [(t, *self._token(t)) for t in toks]
        out: list[Word] = []
        i = 0
        while i < len(items):
            j = i
            # a preverb (chain) written apart joins the following word(s)
            while j + 1 < len(items) and self.is_preverb_chain(items[j][1]):
                j += 1
            group = items[i:j + 1]
            changes: set[str] = set()
            for g in group:
                changes |= g[3]
            if j > i:
                changes.add("spacing")
            out.append(Word(
                form="-".join(g[1] for g in group),
                plain="-".join(g[2] for g in group),
                written=" ".join(_lower(g[0]) for g in group),
                start=i,
                tokens=tuple(g[0] for g in group),
                changes=frozenset(changes),
            ))
            i = j + 1
        return out

    def written_tokens(self, text: str | None) -> list[str]:
        """Tokens as written, lower-cased (what EXACT compares)."""
        return [_lower(t) for t in word_tokens(text)]

