"""The one text-normalisation policy (SPEC §2), recorded in every run card.

- ``nfc``: Unicode NFC; applied on import and before every comparison.
- ``match_key``: nfc, strip, collapse whitespace, casefold. Exact match compares these.
- ``word_tokens``: whitespace split, edge punctuation/symbols/quotes stripped (word-internal
  hyphens and apostrophes kept), empty and purely numeric tokens dropped.
- ``fst_form``: a token made safe for an HFST analyzer (NFC, hyphen look-alikes to ``-``).
- ``apply_folds``: a language card's orthographic folds (never used by exact match).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

NORMALISATION_POLICY = {
    "unicode": "NFC",
    "match_key": "nfc+strip+collapse_whitespace+casefold",
    "tokens": "whitespace split; strip edge P*/S* (keep internal hyphen/apostrophe); drop empty and numeric",
    "fst": "NFC; U+2010-U+2013,U+2212 -> '-'; case fallback: as written, first lowered, all lowered",
}

_WS = re.compile(r"\s+")
HYPHEN_LOOKALIKES = "\u2010\u2011\u2012\u2013\u2212"
_HYPHEN_TABLE = str.maketrans(dict.fromkeys(HYPHEN_LOOKALIKES, "-"))
_NUMERIC = re.compile(r"^[\d.,:/%+\-]+$")


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def collapse_ws(s: str) -> str:
    return _WS.sub(" ", s).strip()


def match_key(s: str | None) -> str:
    if not s:
        return ""
    return _match_key(s)


def match_keys(tokens: Iterable[str]) -> list[str]:
    """``match_key`` of each of ``tokens`` (one call for a text's words)."""
    key = _match_key
    return [key(t) if t else "" for t in tokens]


# Memo sizes: texts are met again within a batch (by every metric) and, for a corpus of a
# thousand entries or so (its sources, references and one run's outputs), across the runs scored
# in one process (a larger corpus's reference-side statistics are kept by entry instead,
# mteval_gui.scoring.corpus_side); the caches stay far smaller
# than a large corpus, whose texts would otherwise all be kept (hundreds of MB at 200,000
# entries). The sentence memos keep 4,096 texts each: at 16,384 (and 10,000 entries in each
# reference-side table, mteval_gui.scoring.corpus_side) a scoring process held ≈ 150 MB more
# (measured at 50,000 entries, in the command and again in its forked helper).
TEXT_MEMO = 1 << 12  # sentence-level memos (keys, tokens)
WORD_MEMO = 1 << 15  # memos whose keys are mostly words


@lru_cache(maxsize=WORD_MEMO)
def _match_key(s: str) -> str:
    # memoised: references, sources and output words are keyed again by every metric and run
    return collapse_ws(nfc(s)).casefold()


_EDGE: dict[str, bool] = {}  # character -> whether it is punctuation or a symbol (memo)


def _is_edge_char(ch: str) -> bool:
    edge = _EDGE.get(ch)
    if edge is None:
        edge = _EDGE[ch] = unicodedata.category(ch)[0] in ("P", "S")
    return edge


def strip_edges(tok: str) -> str:
    """Strip leading and trailing punctuation, symbols and quotes from one token."""
    start, end = 0, len(tok)
    while start < end and _is_edge_char(tok[start]):
        start += 1
    while end > start and _is_edge_char(tok[end - 1]):
        end -= 1
    return tok[start:end]


def word_tokens(s: str | None) -> list[str]:
    """Word tokens of SPEC §2 (NFC applied first)."""
    if not s:
        return []
    return list(_word_tokens(s))


@lru_cache(maxsize=TEXT_MEMO)
def _word_tokens(s: str) -> tuple[str, ...]:
    # memoised (as a tuple; callers get a fresh list): texts are tokenised by several metrics
    out = []
    for raw in nfc(s).split():
        if raw.isalpha():  # letters only: nothing to strip, not a number
            out.append(raw)
            continue
        tok = strip_edges(raw) if _is_edge_char(raw[0]) or _is_edge_char(raw[-1]) else raw
        if not tok or _NUMERIC.match(tok):
            continue
        out.append(tok)
    return tuple(out)


def fst_form(token: str) -> str:
    """A token as an analyzer accepts it: NFC and ASCII hyphens."""
    return nfc(token).translate(_HYPHEN_TABLE)


def case_variants(token: str) -> list[str]:
    """Lookup order: as written, first letter lowered, all lowered (distinct, in order)."""
    out = [token]
    if token:
        first = token[0].lower() + token[1:]
        if first not in out:
            out.append(first)
        low = token.lower()
        if low not in out:
            out.append(low)
    return out


def apply_folds(s: str, folds: Mapping[str, str] | None) -> str:
    """Apply a card's orthographic folds (longest source sequence first)."""
    if not s or not folds:
        return s
    s = nfc(s)
    for src in sorted(folds, key=len, reverse=True):
        s = s.replace(nfc(src), nfc(folds[src]))
    return s


def folded_key(s: str | None, folds: Mapping[str, str] | None) -> str:
    """``match_key`` after orthographic folds (applied in both cases)."""
    if not s:
        return ""
    k = match_key(s)
    if not folds:
        return k
    return _apply_ordered(k, _key_folds(tuple(folds.items())))


@lru_cache(maxsize=64)
def _key_folds(items: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The folds ``folded_key`` applies to a match key, longest source first (as ``apply_folds``):
    the casefolded look-alikes, then the original ones (a card's folds are fixed for a job)."""
    merged = {match_key(a): match_key(b) for a, b in items if a}
    for a, b in items:
        merged.setdefault(nfc(a), nfc(b))
    return tuple((nfc(a), nfc(merged[a])) for a in sorted(merged, key=len, reverse=True))


@lru_cache(maxsize=TEXT_MEMO)
def _apply_ordered(s: str, folds: tuple[tuple[str, str], ...]) -> str:
    s = nfc(s)
    for src, dst in folds:
        s = s.replace(src, dst)
    return s
