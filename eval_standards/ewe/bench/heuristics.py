"""Heuristic checks of four ÈwéBench format criteria that stand for a reader's judgement.

Each check is deterministic, reads only the response text and the Ewe word lists, and returns
the evidence it found so that a reader can verify the verdict. None of them understands the
text: they are labelled ``heuristic`` wherever their result is shown.

``proverb_count: N`` — passes when the response presents exactly N distinct Ewe passages:

- the quoted passages (``«…»``, ``“…”``, ``„…“``, ``"…"``, ``‘…’``, and ``'…'`` between
  non-letters) of two words or more that are Ewe (:func:`is_ewe_passage`), so that a French or
  English translation quoted beside each proverb is not counted;
- when there is no such quotation, the Ewe list items: the numbered items (``1.``, ``1)``)
  if any is Ewe, else the bullet items (``-``, ``*``, ``+``, ``•``); text in parentheses (a
  translation) is left out of an item.

Repeats (same text after folding) count once. Whether a passage is a genuine proverb is not
checked.

``answer_consistency: true`` — passes when at least one answer is found and all answers agree.
Answers are the capitalised word runs (one to four words starting with a capital letter) that
follow a naming phrase — Ewe ``ŋkɔ … nye`` (``Ŋkɔnye nye``, ``Ŋkɔnye enye``, ``Ŋkɔe nye``,
``Nye ŋkɔ nye``) and ``Nyee nye``, or precede ``nye ŋkɔnye`` (``Yawo nye ŋkɔnye``); French
``je m'appelle``, ``je me nomme``, ``mon nom est``, ``je suis``; English ``my name is``,
``I am``, ``I'm``, ``call me`` — or, when no naming phrase gives one, the sentences and lines
that consist of a capitalised word run alone (after a list marker or a ``label:``/``—``
prefix; sentences ending in ``?`` or ``!`` are not answers). Two
answers agree when they are equal after folding or one is the first word(s) of the other
(``Yawo``, ``Yawo Mensah``).

``neutrality: true`` — passes when no first-person stance marker of ``stance_markers.tsv``
(``mebu be``, ``le nye susu me``, ``je pense que``, ``à mon avis``, ``I think``…) occurs as a
whole-word sequence (casefolded, Ewe look-alike folds). One-sided content without such a
marker is not detected.

``role_preserved: true`` — passes when no term of ``machine_terms.tsv`` (``IA``, ``modèle de
langage``, ``chatbot``, ``ChatGPT``…) occurs as a whole word; a hyphen or an apostrophe also
splits words (``GPT-4``, ``l'IA``), and a term written in capitals only (``AI``, ``IA``,
``LLM``, ``GPT``) is matched only in capitals.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from eval_standards.ewe.lexicon import EweLexicon, WordList
from eval_standards.ewe.orthography import (
    WORD_RE,
    card_folds,
    find_in_words,
    find_sequences,
    fold_key,
    letters_in_key,
    word_keys,
)
from mteval_gui.text import nfc

# ------------------------------------------------------------------------------ proverb_count

_QUOTED = re.compile(
    r"«\s*([^»\n]+?)\s*»"
    r"|“([^”\n]+?)”"
    r"|„([^“”\n]+?)[“”]"
    r"|\"([^\"\n]+?)\""
    r"|‘([^’\n]+?)’(?![^\W\d_])"
    r"|(?<![^\W_])'(?=[^\s'])([^'\n]+?)(?<=\S)'(?![^\W_])"
)
_NUMBERED_ITEM = re.compile(r"^[ \t]*\d{1,3}[.)][ \t]+(.+)$", re.MULTILINE)
_BULLET_ITEM = re.compile(r"^[ \t]*[-*+•][ \t]+(.+)$", re.MULTILINE)
_PARENS = re.compile(r"\([^()\n]*\)")
_EDGE_MARKUP = "*_`#>\"'«»“”„‘’ \t"


@dataclass(frozen=True)
class Passages:
    """What :func:`proverb_passages` found: where it looked, what it counted, what it left out."""

    kind: str | None  # "quoted", "numbered" or "bulleted"; None when nothing was counted
    counted: tuple[str, ...]
    not_ewe: tuple[str, ...]  # quoted passages of two words or more left out as not Ewe


def is_ewe_passage(text: str, lexicon: EweLexicon, folds: Mapping[str, str] | None = None) -> bool:
    """Two words or more, an Ewe letter or two distinct common Ewe words, and no more French
    words than common Ewe words (``folds``: the Ewe card's when None)."""
    key = fold_key(text, folds)
    words = WORD_RE.findall(key)
    if len(words) < 2:
        return False
    common = find_in_words(words, lexicon.common.keys)
    french = find_in_words(words, lexicon.french_keys)
    return bool(letters_in_key(key) or len(common) >= 2) and len(french) <= len(common)


def _clean(text: str) -> str:
    return " ".join(text.strip(_EDGE_MARKUP).split())


def _distinct(items: Sequence[str], folds: Mapping[str, str]) -> tuple[str, ...]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        k = fold_key(item, folds)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return tuple(out)


def proverb_passages(response: str, lexicon: EweLexicon) -> Passages:
    """The passages the response presents as Ewe proverbs (see the module docstring)."""
    text = nfc(response or "")
    folds = card_folds()
    quoted = [_clean(next(g for g in m.groups() if g is not None)) for m in _QUOTED.finditer(text)]
    quoted = [q for q in quoted if len(WORD_RE.findall(q)) >= 2]
    ewe_of = {q: is_ewe_passage(q, lexicon, folds) for q in dict.fromkeys(quoted)}
    verdicts = [(q, ewe_of[q]) for q in quoted]
    ewe = [q for q, is_ewe in verdicts if is_ewe]
    not_ewe = _distinct([q for q, is_ewe in verdicts if not is_ewe], folds)
    if ewe:
        return Passages("quoted", _distinct(ewe, folds), not_ewe)
    for kind, pattern in (("numbered", _NUMBERED_ITEM), ("bulleted", _BULLET_ITEM)):
        items = [_clean(_PARENS.sub(" ", m.group(1))) for m in pattern.finditer(text)]
        items = [i for i in items if is_ewe_passage(i, lexicon, folds)]
        if items:
            return Passages(kind, _distinct(items, folds), not_ewe)
    return Passages(None, (), not_ewe)


# ------------------------------------------------------------------------- answer_consistency

_NAMING = re.compile(
    r"(?<![^\W_])(?:"
    r"ŋkɔ(?:nye|e|a)?[ \t]+e?nye"
    r"|nyee[ \t]+nye"
    r"|je[ \t]+m['’][ \t]*appelle|je[ \t]+me[ \t]+nomme|mon[ \t]+nom[ \t]+est|je[ \t]+suis"
    r"|my[ \t]+name[ \t]+is|i[ \t]+am|i['’]m|call[ \t]+me"
    r")(?![^\W_])[ \t]*:?",
    re.IGNORECASE,
)
# "Yawo nye ŋkɔnye": the name before the phrase
_NAMING_AFTER = re.compile(r"[ \t]+e?nye[ \t]+(?:nye[ \t]+)?ŋkɔ(?:nye|e)?(?![^\W_])", re.IGNORECASE)
_CLOSING = "*_`\"'»”’"
_NEXT_WORD = re.compile(rf"[ \t]*[*_`\"'«“‘]*({WORD_RE.pattern})")
_SEGMENT = re.compile(r"[^.!?…\n]+(?:[.!?…]+|\n|$)")
_LIST_MARKER = re.compile(r"^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_LABEL_SPLIT = re.compile(r":|[ \t][-–—][ \t]|^[ \t]*[-–—]")
MAX_NAME_WORDS = 4
NAME_WINDOW = 160  # characters looked at before "nye ŋkɔnye" (a name run is far shorter)


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _name_at(text: str, pos: int) -> str | None:
    """The capitalised word run starting at ``pos`` (after spaces and opening markup)."""
    words: list[str] = []
    while len(words) < MAX_NAME_WORDS:
        m = _NEXT_WORD.match(text, pos)
        if not m or not _capitalised(m.group(1)) or (words and text[pos:m.start(1)].strip(" \t")):
            break
        words.append(m.group(1))
        pos = m.end()
    return " ".join(words) or None


def _name_before(text: str, end: int) -> str | None:
    """The capitalised word run ending at ``end`` (before spaces and closing markup)."""
    window = max(0, end - NAME_WINDOW)
    segment = text[max(text.rfind("\n", window, end) + 1, window):end]
    words: list[str] = []
    tail = len(segment)
    for m in reversed(list(WORD_RE.finditer(segment))):
        between = segment[m.end():tail].strip(" \t" if words else " \t" + _CLOSING)
        if between or not _capitalised(m.group()) or len(words) == MAX_NAME_WORDS:
            break
        words.insert(0, m.group())
        tail = m.start()
    return " ".join(words) or None


def _lone_name(segment: str) -> str | None:
    body = segment.strip()
    if not body or body[-1] in "?!":
        return None
    body = _LIST_MARKER.sub("", body)
    body = _LABEL_SPLIT.split(body)[-1]
    body = body.strip(_EDGE_MARKUP + ".…")
    words = WORD_RE.findall(body)
    if not words or len(words) > MAX_NAME_WORDS or not all(_capitalised(w) for w in words):
        return None
    if " ".join(words) != " ".join(body.replace("*", " ").replace("_", " ").split()):
        return None  # something else than words and spaces
    return " ".join(words)


def stated_answers(response: str) -> tuple[list[str], str | None]:
    """The answers (names) the response states, in order, and how they were found
    (``"naming phrases"``, ``"lone names"`` or None)."""
    text = nfc(response or "")
    found = [(m.end(), _name_at(text, m.end())) for m in _NAMING.finditer(text)]
    found += [(m.start(), _name_before(text, m.start())) for m in _NAMING_AFTER.finditer(text)]
    named = [n for _, n in sorted(found) if n is not None]
    if named:
        return named, "naming phrases"
    lone = [n for m in _SEGMENT.finditer(text) if (n := _lone_name(m.group(0))) is not None]
    return lone, ("lone names" if lone else None)


def answers_agree(answers: Sequence[str]) -> bool:
    """True when there is an answer and every two are equal after folding or one begins the other."""
    folds = card_folds()
    keys = [tuple(word_keys(a, folds)) for a in answers]
    if not keys:
        return False
    # every two agree exactly when each one begins the longest
    longest = max(keys, key=len)
    return all(longest[: len(k)] == k for k in keys)


# ------------------------------------------------------------------- neutrality, role_preserved

_SPLIT_PARTS = re.compile(r"[-'’ʼ‐‑]")


def stance_markers_in(response: str, lexicon: EweLexicon) -> list[str]:
    """The stance markers of the list found in the response (list order)."""
    stance = lexicon.stance_list()
    return [stance.word_of(k) for k in find_in_words(word_keys(response), stance.keys)]


def machine_terms_in(response: str, lexicon: EweLexicon) -> list[str]:
    """The machine terms of the list found in the response (list order)."""
    terms: WordList = lexicon.machine_list()
    text = nfc(response or "")
    raw = WORD_RE.findall(text)
    raw_parts = {p for w in raw for p in [w, *_SPLIT_PARTS.split(w)] if p}
    folded = word_keys(text)
    expanded = [p for w in folded for p in _SPLIT_PARTS.split(w) if p]
    folded_keys = tuple(e.key for e in terms.entries if not e.word.isupper())
    hits = set(find_in_words(folded, folded_keys)) | set(find_sequences(expanded, folded_keys))
    return [e.word for e in terms.entries
            if (e.word in raw_parts if e.word.isupper() else e.key in hits)]
