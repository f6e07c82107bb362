"""The six ÈwéBench test methods (SPEC §10). Each returns ``(score, explanation)``.

Text handling (SPEC §2 plus the Ewe card):

- ``exact_match`` compares :func:`~mteval_gui.text.match_key` forms (NFC, trimmed, whitespace
  collapsed, casefolded) with trailing sentence punctuation (``. ! ? …``) ignored. Look-alike
  folds are not applied (exact match never folds); the explanation says when folding would
  have matched.
- ``keywords`` and the Ewe-letter and word checks compare Ewe fold keys (NFC, casefolded,
  look-alike letters folded) word by word: a keyword counts when its words occur as a
  contiguous whole-word sequence of the response.
- ``multiple_choice`` reads the response as tokens and looks for the letter it chooses: a
  leading letter (``B``, ``B)``, ``(B)``, ``B.``, ``**B**``, ``B (…)``, ``B — …``), a letter after an
  answer word (``Answer: B``, ``La bonne réponse est B``, ``Ŋuɖoɖo la nye B``, ``Option B``) or
  before one (``B est la bonne réponse``). Letters inside words never count ("answers are" is
  not a choice of S). A leading letter may stand alone on its line (``B`` then an explanation
  below). Letters offered together (``Answer: B or C``, ``B/C``, ``B, C``) are all chosen, and
  several different letters chosen score 0. An echoed option list (two or more lines such as
  ``A. Accra`` / ``B. Lomé``) chooses nothing.
- ``format`` scores each criterion that can be checked from the text — the methodology's five
  and those the real suite adds (``max_sentences``, ``max_word_count``, ``list_item_count``,
  ``numbered_list_items``, ``starts_with``, ``no_french``, ``has_pro_con``,
  ``must_ask_clarification``, and the heuristic checks ``proverb_count``,
  ``answer_consistency``, ``neutrality``, ``role_preserved`` of
  :mod:`eval_standards.ewe.bench.heuristics`, whose entries carry ``"validation": "heuristic"``)
  — and reports the others (unknown criteria, invalid values) as unscored; the score is the
  mean over scored criteria (``markdown_elements`` counts as one criterion worth the share of
  requested elements found), None when none is scored.
- ``ewe_quality`` is :func:`eval_standards.ewe.quality.ewe_quality`.
- ``composite`` is the mean of keywords, ewe_quality and format.

Every explanation is a JSON-serialisable dict with ``method``, ``score`` and ``lines`` (short
human-readable statements), plus the method's own details.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from eval_standards.ewe.bench.heuristics import (
    answers_agree,
    machine_terms_in,
    proverb_passages,
    stance_markers_in,
    stated_answers,
)
from eval_standards.ewe.bench.model import (
    HEURISTIC_CRITERIA,
    MARKDOWN_ELEMENTS,
    check_format_spec,
    multiple_choice_letter,
)
from eval_standards.ewe.lexicon import EweLexicon, ewe_lexicon
from eval_standards.ewe.orthography import ewe_letters_in, find_in_words, find_words, fold_key, word_keys
from eval_standards.ewe.quality import count_sentences, ewe_quality, quality_messages
from mteval_gui.domain.messages import Message, msg
from mteval_gui.text import match_key, nfc

Explained = tuple[float, dict[str, Any]]


def _lines(messages: Sequence[Message]) -> dict[str, Any]:
    """``lines`` (English) and ``lines_msg`` (the same lines as translatable messages)."""
    return {"lines": [m.text() for m in messages], "lines_msg": [m.to_json() for m in messages]}


def _list(words: Sequence[str], sep: str = ", ") -> str | Message:
    return sep.join(words) or msg("none")

# --------------------------------------------------------------------------------- exact match

SENTENCE_END = ".!?…。！？"


def exact_key(text: str | None) -> str:
    """``match_key`` with trailing sentence punctuation (and the spaces around it) removed."""
    k = match_key(text)
    while k and (k[-1] in SENTENCE_END or k[-1].isspace()):
        k = k[:-1]
    return k


def score_exact_match(expected: str, response: str) -> Explained:
    e, r = exact_key(expected), exact_key(response)
    ok = e == r
    lines = [msg("expected {expected}: match" if ok else "expected {expected}: no match", expected=repr(expected))]
    expl: dict[str, Any] = {"method": "exact_match", "expected": expected, "expected_key": e, "response_key": r,
                            "match": ok}
    if not ok and e and fold_key(e) == fold_key(r):
        expl["folded_match"] = True
        lines.append(msg("would match after look-alike letter folding (exact match does not fold)"))
    score = 1.0 if ok else 0.0
    expl.update(score=score, **_lines(lines))
    return score, expl


# ------------------------------------------------------------------------------------ keywords


def distinct_keywords(keywords: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Keywords with their word keys, repeats (same fold key) removed, first spelling kept."""
    out: list[tuple[str, tuple[str, ...]]] = []
    seen: set[tuple[str, ...] | str] = set()
    for kw in keywords:
        key = tuple(word_keys(kw))
        ident: tuple[str, ...] | str = key if key else fold_key(kw)
        if ident in seen:
            continue
        seen.add(ident)
        out.append((kw, key))
    return out


def score_keywords(keywords: Sequence[str], response: str) -> Explained:
    kws = distinct_keywords(keywords)
    hits = set(find_words(response, [k for _, k in kws if k]))
    found = [kw for kw, k in kws if k and k in hits]
    missing = [kw for kw, k in kws if not (k and k in hits)]
    score = len(found) / len(kws) if kws else 0.0
    lines = [msg("keywords found {found}/{total}: {words}", found=len(found), total=len(kws), words=_list(found))]
    if missing:
        lines.append(msg("missing: {words}", words=", ".join(missing)))
    repeats = len(keywords) - len(kws)
    if repeats:
        lines.append(msg("{n} repeated keyword counted once" if repeats == 1 else "{n} repeated keywords counted once",
                         n=repeats))
    return score, {"method": "keywords", "score": score, "found": found, "missing": missing,
                   "distinct": len(kws), **_lines(lines)}


# ----------------------------------------------------------------------------- multiple choice

# The response is read as tokens (words, and every other non-space character on its own); a
# choice is a token that is one ASCII letter, in one of three positions:
# - leading: the first token (after quotes, brackets and emphasis marks), followed by the end,
#   a closing bracket, "." ":" "," ";", an opening bracket, or a dash after a space
#   ("B", "B)", "(B)", "**B**", "B. Lomé", "B (the others are wrong)", "B — les autres…");
#   a lower-case letter only with a bracket ("b)", "(b)") or alone;
# - after an answer word: "answer", "réponse", "ŋuɖoɖo", "option", "choice"... followed by up
#   to four linking tokens ("is", "est", "nye", "la", "the", ":", "=", "-"...) then the letter
#   ("Answer: B", "La bonne réponse est B", "Ŋuɖoɖo la nye B", "Option (B)"); an upper-case
#   letter, or any letter followed by the end or punctuation ("answer: b"), but not "I" before
#   a word ("Answer: I think…");
# - before an answer phrase: the letter, "is"/"est"/"nye", up to three of "the", "la",
#   "correct", "bonne"... and an answer word ("B est la bonne réponse", "B nye ŋuɖoɖo").
# Words are compared casefolded, NFC, with the card's look-alike folds; a word that only
# starts like an answer word is not one ("answers are"); "ŋuɖoɖoe" ("it is the answer", the
# focus marker -e) is one ("Ŋuɖoɖoe nye B").
# A letter chosen in one of these positions brings the letters offered with it: "or", "ou",
# "alo", "and", "et", "kple", "/" or "," followed by a letter ("Answer: B or C" chooses B and C).
# Lines of an echoed option list ("A. Accra", "B) Lomé": two or more lines that start with
# a letter and "." ")" or ":" followed by text, with different letters) choose nothing.
_TOKEN = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f])+|\d+|\S")
_OPEN = "([{"
_CLOSE = ")]}"
_MARKUP = set("*_`\"'«»“”‘’„>~")
_ANSWER_WORDS = ("answer", "answers", "réponse", "reponse", "réponses", "ŋuɖoɖo", "ŋuɖoɖoa", "ŋuɖoɖowo", "ŋuɖoɖoe",
                 "option", "choice", "choix", "letter", "lettre", "solution")
_LINKS = ("is", "est", "nye", "la", "le", "the", "my", "ma", "final", "finale", "correct", "correcte", "right",
          "bonne", "juste", "vrai", "vraie", "nyuitɔ", ":", "=", "-", "–", "—", "→", "=>", ">")
_VERBS = ("is", "est", "nye")
_BEFORE_ANSWER = ("the", "la", "le", "a", "une", "correct", "correcte", "right", "bonne", "juste", "vraie", "good")
_LEAD_FOLLOW = set(_CLOSE + _OPEN + ".:,;")
_DASHES = set("-–—")
_ALTERNATIVES = ("or", "ou", "alo", "and", "et", "kple", "/", ",", "&")
_OPTION_LINE = re.compile(r"^[ \t>*_`\-]*[(\[]?[*_`]*([A-Za-z])[*_`]*\s*[.):\]][ \t]+\S.*$", re.MULTILINE)


def _echoed_option_spans(text: str) -> list[tuple[int, int]]:
    """The character spans of an echoed option list's lines (none unless two different letters)."""
    lines = list(_OPTION_LINE.finditer(text))
    if len({m.group(1).upper() for m in lines}) < 2:
        return []
    return [(m.start(), m.end()) for m in lines]


def _answer_token_keys() -> tuple[set[str], set[str], set[str], set[str]]:
    return ({fold_key(w) for w in _ANSWER_WORDS}, {fold_key(w) for w in _LINKS}, {fold_key(w) for w in _VERBS},
            {fold_key(w) for w in _BEFORE_ANSWER})


def _is_letter(tok: str) -> bool:
    return len(tok) == 1 and "A" <= tok.upper() <= "Z" and tok.isalpha()


def chosen_letters(response: str) -> list[str]:
    """Distinct letters the response chooses (upper case, in order of appearance); see above."""
    text = nfc(response or "").strip()
    spans = _echoed_option_spans(text)
    toks = [(m.group(0), m.start()) for m in _TOKEN.finditer(text)
            if not any(a <= m.start() < b for a, b in spans)]
    keys = [fold_key(t) for t, _ in toks]
    answers, links, verbs, before = _answer_token_keys()
    alternatives = {fold_key(w) for w in _ALTERNATIVES}
    found: list[tuple[int, str]] = []

    def nxt(i: int) -> int:
        """Index of the first token after ``i`` that is not an emphasis or quote mark."""
        j = i + 1
        while j < len(toks) and toks[j][0] in _MARKUP:
            j += 1
        return j

    def spaced(j: int) -> bool:
        return j > 0 and toks[j][1] > toks[j - 1][1] + len(toks[j - 1][0])

    def bracketed(i: int) -> bool:
        j = i - 1
        while j >= 0 and toks[j][0] in _MARKUP:
            j -= 1
        k = nxt(i)
        return j >= 0 and toks[j][0] in _OPEN and k < len(toks) and toks[k][0] in _CLOSE

    def new_line_before(j: int) -> bool:
        return j > 0 and "\n" in text[toks[j - 1][1] + len(toks[j - 1][0]):toks[j][1]]

    def offered(j: int) -> bool:
        """Whether the letter token ``j`` stands as a choice (bracketed, at the end, before punctuation
        or upper case other than the pronoun I)."""
        letter = toks[j][0]
        k = nxt(j)
        follow = toks[k][0] if k < len(toks) else None
        at_end = follow is None or not (follow[0].isalnum())
        return bracketed(j) or at_end or (letter.isupper() and letter != "I")

    def with_alternatives(j: int) -> None:
        """Record the letter at ``j`` and the letters offered with it ("B or C", "B/C", "B, C")."""
        found.append((j, toks[j][0].upper()))
        while True:
            k = nxt(j)
            while k < len(toks) and toks[k][0] in _CLOSE:
                k += 1
            if k >= len(toks) or keys[k] not in alternatives:
                return
            m = nxt(k)
            while m < len(toks) and toks[m][0] in _OPEN:
                m += 1
            if m >= len(toks) or not _is_letter(toks[m][0]) or not offered(m):
                return
            found.append((m, toks[m][0].upper()))
            j = m

    # leading letter
    i = 0
    while i < len(toks) and (toks[i][0] in _MARKUP or toks[i][0] in _OPEN):
        i += 1
    if i < len(toks) and _is_letter(toks[i][0]):
        letter = toks[i][0]
        j = nxt(i)
        follow = toks[j][0] if j < len(toks) else None
        if follow is None:
            ok = True
        elif letter.isupper():
            ok = (follow in _LEAD_FOLLOW or (follow in _DASHES and spaced(j)) or new_line_before(j)
                  or (keys[j] in alternatives and nxt(j) < len(toks) and _is_letter(toks[nxt(j)][0])
                      and offered(nxt(j))))
        else:
            ok = follow in _CLOSE
        if ok:
            with_alternatives(i)
    # after an answer word
    for a, key in enumerate(keys):
        if key not in answers:
            continue
        j, steps = a + 1, 0
        while j < len(toks) and steps < 6 and (keys[j] in links or toks[j][0] in _MARKUP or toks[j][0] in _OPEN):
            j += 1
            steps += 1
        if j >= len(toks) or not _is_letter(toks[j][0]):
            continue
        if offered(j):
            with_alternatives(j)
    # before an answer phrase
    for i, (tok, _) in enumerate(toks):
        if not (_is_letter(tok) and (tok.isupper() or bracketed(i))):
            continue
        j = nxt(i)
        while j < len(toks) and toks[j][0] in _CLOSE:
            j += 1
        if j >= len(toks) or keys[j] not in verbs:
            continue
        j += 1
        steps = 0
        while j < len(toks) and steps < 3 and keys[j] in before:
            j += 1
            steps += 1
        if j < len(toks) and keys[j] in answers:
            found.append((i, tok.upper()))
    letters: list[str] = []
    for _, letter in sorted(found):
        if letter not in letters:
            letters.append(letter)
    return letters


def score_multiple_choice(expected: str, response: str) -> Explained:
    want = multiple_choice_letter(expected) or ""
    letters = chosen_letters(response)
    if not letters:
        score, lines = 0.0, [msg("no answer letter found (expected {expected})", expected=want)]
    elif len(letters) > 1:
        score, lines = 0.0, [msg("several letters chosen ({letters}): 0 (expected {expected})",
                                 letters=", ".join(letters), expected=want)]
    else:
        score = 1.0 if letters[0] == want else 0.0
        lines = [msg("chose {chosen}, expected {expected}: correct" if score else
                     "chose {chosen}, expected {expected}: wrong", chosen=letters[0], expected=want)]
    return score, {"method": "multiple_choice", "score": score, "expected": want, "chosen": letters,
                   **_lines(lines)}


# -------------------------------------------------------------------------------------- format

_FC_TAG = re.compile(r"<\s*/?\s*(?:function_call|tool_call|functioncall|tool_use)\b", re.IGNORECASE)
_FC_KEY = re.compile(r"[\"'](?:function_call|tool_calls|tool_call)[\"']\s*:", re.IGNORECASE)
_FC_NAME = re.compile(r"[\"']name[\"']\s*:\s*[\"']")
_FC_ARGS = re.compile(r"[\"'](?:arguments|parameters|args)[\"']\s*:")

_MD_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$", re.MULTILINE)
_MD_TABLE_ROW = re.compile(r"^\s*\|?[^|\n]*\|[^|\n]*", re.MULTILINE)
_MD_HEADER = re.compile(r"^ {0,3}#{1,6}\s+\S|^[^\n]*\S[^\n]*\n {0,3}=+\s*$", re.MULTILINE)
_MD_LIST = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S", re.MULTILINE)
_MD_BOLD = re.compile(r"\*\*(?=\S)[^\n]*?\S\*\*|__(?=\S)[^\n]*?\S__")


def function_call_in(response: str, tool_calls: Sequence[Any] | None = None) -> str | None:
    """How the response makes a function call (None if it makes none)."""
    if tool_calls:
        return "tool_calls field of the response record"
    text = response or ""
    if _FC_TAG.search(text):
        return "function-call tag"
    if _FC_KEY.search(text):
        return "function_call / tool_calls JSON key"
    if _FC_NAME.search(text) and _FC_ARGS.search(text):
        return "JSON object with name and arguments"
    return None


def markdown_found(response: str) -> dict[str, bool]:
    text = response or ""
    return {
        "table": bool(_MD_TABLE_SEP.search(text) and len(_MD_TABLE_ROW.findall(text)) >= 2),
        "header": bool(_MD_HEADER.search(text)),
        "list": bool(_MD_LIST.search(text)),
        "bold": bool(_MD_BOLD.search(text)),
    }


def response_length(response: str) -> int:
    """Characters (code points, NFC) after stripping surrounding white space."""
    return len(nfc(response or "").strip())


_NUMBERED = re.compile(r"^\s*(\d{1,3})[.)]\s+\S", re.MULTILINE)
_QUESTION = re.compile(r"[?？¿]")
# words that head the two sides of a for-and-against answer (whole words, folded)
PRO_WORDS = ("nyo", "nyui", "nyuiwo", "pour", "avantage", "avantages", "pro", "pros", "for", "advantage",
             "advantages")
CON_WORDS = ("vɔ̃", "vɔ̃wo", "contre", "inconvénient", "inconvénients", "con", "cons", "against", "disadvantage",
             "disadvantages")


_COUNTS = ("min_length", "max_length", "max_sentences", "max_word_count", "list_item_count", "numbered_list_items")


def list_items(response: str) -> int:
    """Lines that are list items (``-``, ``*``, ``+``, ``•`` or ``1.``/``1)`` then text)."""
    return len(_MD_LIST.findall(response or ""))


def numbered_items(response: str) -> list[int]:
    """The numbers of the numbered list lines, in order."""
    return [int(m.group(1)) for m in _NUMBERED.finditer(response or "")]


def _count(n: int, one: str, many: str) -> Message:
    return msg(one if n == 1 else many, n=n)


def _count_check(key: str, want: int, response: str) -> tuple[float, Any, Message]:
    """(value, observed, detail) of a counting criterion."""
    if key in ("min_length", "max_length"):
        n = response_length(response)
        return (1.0 if (n >= want if key == "min_length" else n <= want) else 0.0), n, msg("{n} characters", n=n)
    if key == "max_sentences":
        n = count_sentences(response)
        return (1.0 if n <= want else 0.0), n, _count(n, "{n} sentence", "{n} sentences")
    if key == "max_word_count":
        n = len(word_keys(response))
        return (1.0 if n <= want else 0.0), n, _count(n, "{n} word", "{n} words")
    if key == "list_item_count":
        n = list_items(response)
        return (1.0 if n == want else 0.0), n, _count(n, "{n} list item", "{n} list items")
    nums = numbered_items(response)  # numbered_list_items
    detail = _count(len(nums), "{n} numbered item", "{n} numbered items")
    if nums:
        detail = msg("{count} ({numbers})", count=detail, numbers=", ".join(map(str, nums)))
    return (1.0 if len(nums) == want else 0.0), len(nums), detail


_PASSAGE_KINDS = {
    "quoted": ("{n} Ewe quoted passage: {passages}", "{n} Ewe quoted passages: {passages}"),
    "numbered": ("{n} Ewe numbered item: {passages}", "{n} Ewe numbered items: {passages}"),
    "bulleted": ("{n} Ewe list item: {passages}", "{n} Ewe list items: {passages}"),
}


def _quoted(passages: Sequence[str]) -> str:
    return ", ".join(f"«{p}»" for p in passages)


def _heuristic_check(key: str, want: Any, response: str, lexicon: EweLexicon) -> tuple[float, dict[str, Any],
                                                                                       Message]:
    """(value, entry fields, detail) of a heuristic criterion (see :mod:`.heuristics`)."""
    if key == "proverb_count":
        found = proverb_passages(response, lexicon)
        n = len(found.counted)
        if found.kind is None:
            detail = msg("no Ewe quoted passage or list item")
        else:
            one, many = _PASSAGE_KINDS[found.kind]
            detail = msg(one if n == 1 else many, n=n, passages=_quoted(found.counted))
        if found.not_ewe:
            detail = msg("{detail}; quoted but not Ewe, not counted: {passages}", detail=detail,
                         passages=_quoted(found.not_ewe))
        return (1.0 if n == want else 0.0), {"observed": n, "passages": list(found.counted), "found_in": found.kind,
                                             "not_counted": list(found.not_ewe)}, detail
    if key == "answer_consistency":
        answers, how = stated_answers(response)
        agree = answers_agree(answers)
        if not answers:
            detail = msg("no answer found")
        else:
            detail = msg("answers: {answers} (agree)" if agree else "answers: {answers} (differ)",
                         answers=", ".join(answers))
        return (1.0 if agree else 0.0), {"observed": answers, "found_in": how}, detail
    if key == "neutrality":
        markers = stance_markers_in(response, lexicon)
        detail = msg("stance markers: {markers}", markers=", ".join(markers)) if markers else msg("no stance marker")
        return (0.0 if markers else 1.0), {"observed": markers}, detail
    terms = machine_terms_in(response, lexicon)  # role_preserved
    detail = msg("machine terms: {terms}", terms=", ".join(terms)) if terms else msg("no machine term")
    return (0.0 if terms else 1.0), {"observed": terms}, detail


def _marker_words(response: str, words: Sequence[str]) -> list[str]:
    keys = set(word_keys(response))
    return [w for w in words if fold_key(w) in keys]


def score_format(spec: dict[str, Any], response: str, tool_calls: Sequence[Any] | None = None,
                 lexicon: EweLexicon | None = None) -> tuple[float | None, dict[str, Any]]:
    """Mean over the criteria that can be checked; None when none of them is present."""
    scorable, problems = check_format_spec(spec)
    criteria: list[dict[str, Any]] = []
    details: dict[str, Message] = {}
    values: list[float] = []
    for key, want in scorable.items():
        entry: dict[str, Any] = {"criterion": key, "expected": want}
        if key in HEURISTIC_CRITERIA:
            value, fields, detail = _heuristic_check(key, want, response,
                                                     lexicon if lexicon is not None else ewe_lexicon())
            entry.update(fields, detail=detail, validation="heuristic")
        elif key in _COUNTS:
            value, observed, detail = _count_check(key, want, response)
            entry.update(observed=observed, detail=detail)
        elif key == "starts_with":
            expected_words = word_keys(want)
            first = word_keys(response)[: len(expected_words)]
            got = first == expected_words
            entry.update(observed=" ".join(first), detail=msg(
                "first word: {words} (compared folded)" if len(first) == 1 else
                "first words: {words} (compared folded)", words=_list(first, " ")))
            value = 1.0 if got else 0.0
        elif key == "no_french":
            lex = lexicon if lexicon is not None else ewe_lexicon()
            french = [lex.french.word_of(k) for k in find_in_words(word_keys(response), lex.french_keys)]
            entry.update(observed=french, detail=msg("French words: {words}", words=_list(french)))
            value = 0.0 if french else 1.0
        elif key == "has_pro_con":
            pro, con = _marker_words(response, PRO_WORDS), _marker_words(response, CON_WORDS)
            entry.update(observed={"for": pro, "against": con},
                         detail=msg("for: {pro}; against: {con}", pro=_list(pro), con=_list(con)))
            value = 1.0 if pro and con else 0.0
        elif key == "must_ask_clarification":
            asks = bool(_QUESTION.search(response or ""))
            entry.update(observed=asks, detail=msg("asks a question") if asks else msg("no question mark"))
            value = 1.0 if asks else 0.0
        elif key == "contains_ewe":
            letters = ewe_letters_in(response)
            got = bool(letters)
            entry.update(observed=got, detail=msg("Ewe letters: {letters}", letters=_list(letters, " ")))
            value = 1.0 if got == want else 0.0
        elif key == "contains_function_call":
            how = function_call_in(response, tool_calls)
            got = how is not None
            entry.update(observed=got, detail=msg(how) if how else msg("no function call"))
            value = 1.0 if got == want else 0.0
        else:  # markdown_elements
            present = markdown_found(response)
            requested = [e for e in want if e in MARKDOWN_ELEMENTS]
            unknown = [e for e in want if e not in MARKDOWN_ELEMENTS]
            found = [e for e in requested if present[e]]
            entry.update(observed=found, missing=[e for e in requested if not present[e]], unscored=unknown,
                         detail=msg("found {found} of {requested}", found=_list(found),
                                    requested=", ".join(requested)))
            value = len(found) / len(requested)
        entry["value"] = value
        entry["status"] = "passed" if value == 1.0 else ("failed" if value == 0.0 else "partial")
        details[key] = entry["detail"]
        entry["detail"] = entry["detail"].text()
        values.append(value)
        criteria.append(entry)
    for key, value in spec.items():
        if key not in scorable:
            reason = next((m for k, _, m, _ in problems if k == key), "not defined by the methodology")
            criteria.append({"criterion": key, "expected": value, "status": "unscored", "reason": reason})
    score = sum(values) / len(values) if values else None
    lines = []
    for c in criteria:
        if c["status"] == "unscored":
            lines.append(msg("{criterion} = {expected}: unscored ({reason})", criterion=c["criterion"],
                             expected=repr(c["expected"]), reason=c["reason"]))
        else:
            template = ("{criterion} = {expected}: {status} (heuristic check: {detail})"
                        if c.get("validation") == "heuristic" else "{criterion} = {expected}: {status} ({detail})")
            lines.append(msg(template, criterion=c["criterion"],
                             expected=repr(c["expected"]), status=msg(c["status"]), detail=details[c["criterion"]]))
    scored = [c for c in criteria if c["status"] != "unscored"]
    passed = [c for c in scored if c["status"] == "passed"]
    summary = msg("format criteria passed {passed}/{scored}", passed=len(passed), scored=len(scored))
    unscored = [c["criterion"] for c in criteria if c["status"] == "unscored"]
    if unscored:
        summary = msg("{summary}; unscored: {criteria}", summary=summary, criteria=", ".join(unscored))
    return score, {"method": "format", "score": score, "criteria": criteria, **_lines([summary] + lines)}


# -------------------------------------------------------------------------------- ewe quality


def score_ewe_quality(response: str, lexicon: EweLexicon | None = None) -> Explained:
    score, comps = ewe_quality(response, lexicon)
    return score, {"method": "ewe_quality", "score": score, "components": comps,
                   **_lines([msg("Ewe quality {score:.2f}", score=score)] + quality_messages(comps))}


# ---------------------------------------------------------------------------------- composite


def score_composite(keywords: Sequence[str], spec: dict[str, Any], response: str,
                    tool_calls: Sequence[Any] | None = None, lexicon: EweLexicon | None = None) -> Explained:
    k, ke = score_keywords(keywords, response)
    q, qe = score_ewe_quality(response, lexicon)
    f, fe = score_format(spec, response, tool_calls, lexicon)
    fv = f if f is not None else 0.0
    score = (k + q + fv) / 3
    lines = [msg("composite = mean(keywords {keywords:.2f}, ewe_quality {quality:.2f}, format {format:.2f}) = "
                 "{score:.3f}", keywords=k, quality=q, format=fv, score=score)]
    for part in (ke, qe, fe):
        lines.extend(msg("  {line}", line=Message.from_json(m)) for m in part["lines_msg"])
    return score, {"method": "composite", "score": score,
                   "components": {"keywords": ke, "ewe_quality": qe, "format": fe}, **_lines(lines)}
