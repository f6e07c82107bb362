"""The six ÈwéBench test methods (SPEC §10). Each returns ``(score, explanation)``.

Text handling (SPEC §2 plus the Ewe card):

- ``exact_match`` compares :func:`~mteval_gui.text.match_key` forms (NFC, trimmed, whitespace
  collapsed, casefolded) with trailing sentence punctuation (``. ! ? …``) ignored. Look-alike
  folds are not applied (exact match never folds); the explanation says when folding would
  have matched.
- ``keywords`` and the Ewe-letter and word checks compare Ewe fold keys (NFC, casefolded,
  look-alike letters folded) word by word: a keyword counts when its words occur as a
  contiguous whole-word sequence of the response.
- ``multiple_choice`` looks for the letter the response chooses: a leading letter (``B``,
  ``B)``, ``(B)``, ``B.``, ``**B**``) or a labelled answer anywhere (``Answer: B``, ``Réponse : B``,
  ``Ŋuɖoɖo: B``, ``Option B``, ``choice (B)``...). Several different letters chosen score 0.
- ``format`` scores each criterion the methodology defines and reports the others as
  unscored; the score is the mean over scored criteria (``markdown_elements`` counts as one
  criterion worth the share of requested elements found).
- ``ewe_quality`` is :func:`eval_standards.ewe.quality.ewe_quality`.
- ``composite`` is the mean of keywords, ewe_quality and format.

Every explanation is a JSON-serialisable dict with ``method``, ``score`` and ``lines`` (short
human-readable statements), plus the method's own details.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from eval_standards.ewe.bench.model import MARKDOWN_ELEMENTS, check_format_spec, multiple_choice_letter
from eval_standards.ewe.lexicon import EweLexicon
from eval_standards.ewe.orthography import ewe_letters_in, find_words, fold_key, word_keys
from eval_standards.ewe.quality import ewe_quality, explain_quality
from mteval_gui.text import match_key, nfc

Explained = tuple[float, dict[str, Any]]

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
    lines = [f"expected {expected!r}: {'match' if ok else 'no match'}"]
    expl: dict[str, Any] = {"method": "exact_match", "expected": expected, "expected_key": e, "response_key": r,
                            "match": ok}
    if not ok and e and fold_key(e) == fold_key(r):
        expl["folded_match"] = True
        lines.append("would match after look-alike letter folding (exact match does not fold)")
    score = 1.0 if ok else 0.0
    expl.update(score=score, lines=lines)
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
    lines = [f"keywords found {len(found)}/{len(kws)}: {', '.join(found) or 'none'}"]
    if missing:
        lines.append(f"missing: {', '.join(missing)}")
    repeats = len(keywords) - len(kws)
    if repeats:
        lines.append(f"{repeats} repeated keyword{'s' if repeats != 1 else ''} counted once")
    return score, {"method": "keywords", "score": score, "found": found, "missing": missing,
                   "distinct": len(kws), "lines": lines}


# ----------------------------------------------------------------------------- multiple choice

_LETTER = r"([A-Za-z])"
_LEADING = re.compile(r"^[\s>*_\"'«“‘`]*[(\[]?\s*" + r"([A-Z]|[a-z](?=\s*[)\]]))" + r"\s*[*_]*\s*(?:[)\].:]|\s[-–—]|$)")
_LABELLED = re.compile(
    r"(?:answer|réponse|reponse|ŋuɖoɖo|option|choice|choix|letter|lettre)\w*"
    r"\s*(?:is|est|nye|:|=|-|–)?\s*(?:is|est|nye|:)?\s*[*_\"'«“(\[]*\s*" + _LETTER + r"(?![^\W_])",
    re.IGNORECASE,
)


def chosen_letters(response: str) -> list[str]:
    """Distinct letters the response chooses (upper case, in order of appearance)."""
    text = nfc(response or "").strip()
    letters: list[str] = []
    m = _LEADING.match(text)
    if m:
        letters.append(m.group(1).upper())
    for m in _LABELLED.finditer(text):
        letter = m.group(1).upper()
        if letter not in letters:
            letters.append(letter)
    return letters


def score_multiple_choice(expected: str, response: str) -> Explained:
    want = multiple_choice_letter(expected) or ""
    letters = chosen_letters(response)
    if not letters:
        score, lines = 0.0, [f"no answer letter found (expected {want})"]
    elif len(letters) > 1:
        score, lines = 0.0, [f"several letters chosen ({', '.join(letters)}): 0 (expected {want})"]
    else:
        score = 1.0 if letters[0] == want else 0.0
        lines = [f"chose {letters[0]}, expected {want}: {'correct' if score else 'wrong'}"]
    return score, {"method": "multiple_choice", "score": score, "expected": want, "chosen": letters, "lines": lines}


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


def score_format(spec: dict[str, Any], response: str,
                 tool_calls: Sequence[Any] | None = None) -> tuple[float | None, dict[str, Any]]:
    """Mean over the criteria the methodology defines; None when none of them is present."""
    scorable, problems = check_format_spec(spec)
    criteria: list[dict[str, Any]] = []
    values: list[float] = []
    for key, want in scorable.items():
        entry: dict[str, Any] = {"criterion": key, "expected": want}
        if key == "contains_ewe":
            letters = ewe_letters_in(response)
            got = bool(letters)
            entry.update(observed=got, detail=f"Ewe letters: {' '.join(letters) or 'none'}")
            value = 1.0 if got == want else 0.0
        elif key == "min_length":
            n = response_length(response)
            entry.update(observed=n, detail=f"{n} characters")
            value = 1.0 if n >= want else 0.0
        elif key == "max_length":
            n = response_length(response)
            entry.update(observed=n, detail=f"{n} characters")
            value = 1.0 if n <= want else 0.0
        elif key == "contains_function_call":
            how = function_call_in(response, tool_calls)
            got = how is not None
            entry.update(observed=got, detail=how or "no function call")
            value = 1.0 if got == want else 0.0
        else:  # markdown_elements
            present = markdown_found(response)
            requested = [e for e in want if e in MARKDOWN_ELEMENTS]
            unknown = [e for e in want if e not in MARKDOWN_ELEMENTS]
            found = [e for e in requested if present[e]]
            entry.update(observed=found, missing=[e for e in requested if not present[e]], unscored=unknown,
                         detail=f"found {', '.join(found) or 'none'} of {', '.join(requested)}")
            if not requested:
                entry.update(status="unscored", reason="no known markdown element requested")
                criteria.append(entry)
                continue
            value = len(found) / len(requested)
        entry["value"] = value
        entry["status"] = "passed" if value == 1.0 else ("failed" if value == 0.0 else "partial")
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
            lines.append(f"{c['criterion']} = {c['expected']!r}: unscored ({c['reason']})")
        else:
            lines.append(f"{c['criterion']} = {c['expected']!r}: {c['status']} ({c['detail']})")
    scored = [c for c in criteria if c["status"] != "unscored"]
    passed = [c for c in scored if c["status"] == "passed"]
    summary = f"format criteria passed {len(passed)}/{len(scored)}"
    unscored = [c["criterion"] for c in criteria if c["status"] == "unscored"]
    if unscored:
        summary += f"; unscored: {', '.join(unscored)}"
    return score, {"method": "format", "score": score, "criteria": criteria, "lines": [summary] + lines}


# -------------------------------------------------------------------------------- ewe quality


def score_ewe_quality(response: str, lexicon: EweLexicon | None = None) -> Explained:
    score, comps = ewe_quality(response, lexicon)
    return score, {"method": "ewe_quality", "score": score, "components": comps,
                   "lines": [f"Ewe quality {score:.2f}"] + explain_quality(comps)}


# ---------------------------------------------------------------------------------- composite


def score_composite(keywords: Sequence[str], spec: dict[str, Any], response: str,
                    tool_calls: Sequence[Any] | None = None, lexicon: EweLexicon | None = None) -> Explained:
    k, ke = score_keywords(keywords, response)
    q, qe = score_ewe_quality(response, lexicon)
    f, fe = score_format(spec, response, tool_calls)
    fv = f if f is not None else 0.0
    score = (k + q + fv) / 3
    lines = [f"composite = mean(keywords {k:.2f}, ewe_quality {q:.2f}, format {fv:.2f}) = {score:.3f}"]
    for part in (ke, qe, fe):
        lines.extend("  " + line for line in part["lines"])
    return score, {"method": "composite", "score": score,
                   "components": {"keywords": ke, "ewe_quality": qe, "format": fe}, "lines": lines}
