"""English content words for the semantic overlap (source sentences and dictionary glosses).

A text is lower-cased (NFC), ``/`` splits alternatives (``he/she``), words are runs of
letters (with an inner apostrophe), possessive ``'s`` is dropped, stopwords
(``english_stopwords.tsv``) and one-letter words (the ``s``/``o``/``t`` of ``s/he``, ``s.o.``,
``s.t.``) are removed, irregular forms are mapped to their base (``english_irregular.tsv``)
and the rest is stemmed by :func:`stem`, a small suffix stripper (a reduced Porter step 1):
``arrives``/``arrived``/``arriving`` → ``arriv``, ``cries``/``cried`` → ``cry``,
``sleeps``/``sleeping`` → ``sleep``. The same function runs on sources and glosses, so both
sides meet on the same stems; it is deliberately conservative (no derivational suffixes).
"""

from __future__ import annotations

import re

from eval_standards.crk.wordlists import WordLists
from mteval_gui.text import nfc

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_VOWEL = re.compile(r"[aeiouy]")
_DOUBLE = re.compile(r"([bcdfgkmnprtv])\1$")


def _undouble(w: str) -> str:
    return w[:-1] if _DOUBLE.search(w) else w


def stem(w: str) -> str:
    """Stem of one lower-case English word (see the module docstring)."""
    if len(w) <= 2:
        return w
    if w.endswith("ies") and len(w) > 4 or w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ing") and _VOWEL.search(w[:-3]) and len(w) > 4:
        w = _undouble(w[:-3])
    elif w.endswith("ed") and not w.endswith("eed") and _VOWEL.search(w[:-2]) and len(w) > 3:
        w = _undouble(w[:-2])
    elif w.endswith("es") and w[:-2].endswith(("s", "x", "z", "ch", "sh")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("e") and len(w) > 2:
        w = w[:-1]
    return w


def content_words(text: str | None, lists: WordLists) -> dict[str, str]:
    """Content stems of a text, in order, each mapped to the first word it came from."""
    out: dict[str, str] = {}
    if not text:
        return out
    t = nfc(text).casefold().replace("’", "'").replace("/", " ")
    for m in _WORD.finditer(t):
        w = m.group(0)
        if w.endswith("'s"):
            w = w[:-2]
        if len(w) < 2 or w in lists.stopwords:
            continue
        base = lists.irregular.get(w, w)
        if base in lists.stopwords:
            continue
        out.setdefault(stem(base), m.group(0))
    return out
