"""ÈwéBench tests: the record format of a category file and its checks (SPEC §1.3, §10).

A test has ``id``, ``prompt`` or ``messages``, ``eval_method`` and, depending on the method,
``expected`` (exact_match, multiple_choice), ``expected_keywords`` (keywords, composite) and
``expected_format`` (format, composite). :func:`check_test` turns one raw test into an
:class:`EweTest` and its defects (see :mod:`mteval_gui.domain.benchmark` for severities):

- ``error`` (the test scores 0): no ``id``, unknown or missing ``eval_method``, missing or
  empty ``expected``/``expected_keywords``, no format criterion the methodology defines;
- ``warning``: a format criterion nobody defines, an invalid criterion value, a repeated keyword;
- ``info``: a field the test's method does not use (e.g. ``expected_keywords`` on a
  ``format`` test).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from mteval_gui.domain.benchmark import BenchTest, Severity, SuiteDefect

METHODS = ("exact_match", "keywords", "multiple_choice", "format", "ewe_quality", "composite")
FORMAT_CRITERIA = ("contains_ewe", "min_length", "max_length", "contains_function_call", "markdown_elements",
                   "max_sentences", "max_word_count", "list_item_count", "numbered_list_items", "starts_with",
                   "no_french", "has_pro_con", "must_ask_clarification", "proverb_count", "answer_consistency",
                   "neutrality", "role_preserved")
# criteria checked by a documented heuristic (they stand for a reader's judgement): their
# explanation entries carry ``"validation": "heuristic"``
HEURISTIC_CRITERIA = ("proverb_count", "answer_consistency", "neutrality", "role_preserved")
_BOOL_CRITERIA = ("contains_ewe", "contains_function_call")
# only true sets a requirement
_TRUE_CRITERIA = ("no_french", "has_pro_con", "must_ask_clarification", "answer_consistency", "neutrality",
                  "role_preserved")
_COUNT_CRITERIA = ("min_length", "max_length", "max_sentences", "max_word_count", "list_item_count",
                   "numbered_list_items", "proverb_count")
MARKDOWN_ELEMENTS = ("table", "header", "list", "bold")
# fields each method reads
METHOD_FIELDS: dict[str, tuple[str, ...]] = {
    "exact_match": ("expected",),
    "multiple_choice": ("expected",),
    "keywords": ("expected_keywords",),
    "format": ("expected_format",),
    "ewe_quality": (),
    "composite": ("expected_keywords", "expected_format"),
}
EXPECTATION_FIELDS = ("expected", "expected_keywords", "expected_format")

_MC_EXPECTED = re.compile(r"^\s*[(\[]?\s*([A-Za-z])\s*[)\].:]?\s*$")


class EweTest(BenchTest):
    """One ÈwéBench test with the expectations its method reads."""

    expected: str | None = None
    expected_keywords: list[str] | None = None
    expected_format: dict[str, Any] | None = None


def multiple_choice_letter(expected: Any) -> str | None:
    """The letter of a multiple-choice ``expected`` value ("B", "b", "B)", "(B)"), upper case."""
    if not isinstance(expected, str):
        return None
    m = _MC_EXPECTED.match(expected)
    return m.group(1).upper() if m else None


def _s(x: Any) -> str | None:
    return unicodedata.normalize("NFC", x) if isinstance(x, str) else None


def check_format_spec(spec: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str, str, Severity]]]:
    """Split a format spec into the criteria that can be scored and problems.

    Problems are ``(criterion, kind, message, severity)``; a criterion with a problem of kind
    ``unknown_criterion`` or ``invalid_criterion`` is not in the scorable
    dict (an unknown markdown element only drops that element, unless every element is unknown).
    """
    scorable: dict[str, Any] = {}
    problems: list[tuple[str, str, str, Severity]] = []
    for key, value in spec.items():
        if key not in FORMAT_CRITERIA:
            problems.append((key, "unknown_criterion",
                             f"format criterion {key!r} is not defined by the methodology; listed as unscored",
                             "warning"))
            continue
        if key in _BOOL_CRITERIA:
            if not isinstance(value, bool):
                problems.append((key, "invalid_criterion", f"{key} must be true or false, not {value!r}; unscored",
                                 "warning"))
                continue
        elif key in _TRUE_CRITERIA:
            if value is not True:
                problems.append((key, "invalid_criterion",
                                 f"{key} sets a requirement only when true, not {value!r}; unscored", "warning"))
                continue
        elif key in _COUNT_CRITERIA:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append((key, "invalid_criterion",
                                 f"{key} must be a non-negative integer, not {value!r}; unscored", "warning"))
                continue
        elif key == "starts_with":
            if not isinstance(value, str) or not any(ch.isalnum() for ch in value):
                problems.append((key, "invalid_criterion",
                                 f"starts_with must be a word or words, not {value!r}; unscored", "warning"))
                continue
            value = _s(value)
        elif key == "markdown_elements":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not items or not all(isinstance(v, str) for v in items):
                problems.append((key, "invalid_criterion",
                                 f"markdown_elements must be a non-empty list of element names, not {value!r}; "
                                 "unscored", "warning"))
                continue
            unknown = [v for v in items if v.strip().lower() not in MARKDOWN_ELEMENTS]
            for v in unknown:
                problems.append((key, "unknown_criterion",
                                 f"markdown element {v!r} is not one of {', '.join(MARKDOWN_ELEMENTS)}; "
                                 "listed as unscored", "warning"))
            value = [v.strip().lower() for v in items]
            if len(unknown) == len(items):
                continue
        scorable[key] = value
    return scorable, problems


def check_test(raw: Any, *, category: str, file: str, line: int | None,
               index: int) -> tuple[EweTest | None, list[SuiteDefect]]:
    """Check one raw test. Returns the test (None if it is not even an object) and its defects."""
    defects: list[SuiteDefect] = []

    def add(kind: str, message: str, severity: Severity = "error", test_id: str | None = None) -> None:
        defects.append(SuiteDefect(file=file, line=line, test_id=test_id, kind=kind, message=message,
                                   severity=severity))

    if not isinstance(raw, dict):
        add("not_an_object", f"item {index} is not a JSON object")
        return None, defects
    rid = raw.get("id")
    if isinstance(rid, (int, str)) and not isinstance(rid, bool) and str(rid).strip():
        test_id = _s(str(rid).strip()) or ""
    else:
        test_id = f"{category}[{index}]"
        add("missing_id", f"item {index} has no id; shown as {test_id!r}; unscorable", test_id=test_id)

    def dd(kind: str, message: str, severity: Severity = "error") -> None:
        add(kind, message, severity, test_id)

    method = raw.get("eval_method")
    if method is None:
        dd("missing_method", "no eval_method; unscorable")
        method = None
    elif not isinstance(method, str) or method not in METHODS:
        dd("unknown_method", f"unknown eval_method {method!r} (known: {', '.join(METHODS)}); unscorable")
        method = str(method)

    prompt = _s(raw.get("prompt"))
    messages = raw.get("messages")
    if messages is not None and not (isinstance(messages, list) and all(isinstance(m, dict) for m in messages)):
        dd("invalid_messages", "messages must be a list of {role, content} objects", "warning")
        messages = None
    if messages is not None:
        messages = [{k: (_s(v) if isinstance(v, str) else v) for k, v in m.items()} for m in messages]
    if prompt is None and not messages:
        dd("missing_prompt", "neither prompt nor messages", "warning")

    expected_raw = raw.get("expected")
    expected = _s(expected_raw) if expected_raw is not None else None
    if expected_raw is not None and expected is None:
        expected = _s(str(expected_raw))

    keywords: list[str] | None = None
    kw_raw = raw.get("expected_keywords")
    if kw_raw is not None:
        if not isinstance(kw_raw, list):
            dd("invalid_keywords", f"expected_keywords must be a list, not {type(kw_raw).__name__}")
            kw_raw = []
        keywords = []
        for k in kw_raw:
            if not isinstance(k, str) or not k.strip():
                dd("invalid_keyword", f"keyword {k!r} is not a non-empty string; ignored", "warning")
                continue
            if not any(ch.isalnum() for ch in k):
                dd("invalid_keyword", f"keyword {k!r} has no letter or digit and can never be found", "warning")
            keywords.append(_s(k.strip()) or "")

    fmt_raw = raw.get("expected_format")
    fmt: dict[str, Any] | None = None
    if fmt_raw is not None:
        if isinstance(fmt_raw, dict):
            fmt = dict(fmt_raw)
        else:
            dd("invalid_format", f"expected_format must be an object, not {type(fmt_raw).__name__}")

    unscorable: list[str] = []
    if method in METHODS:
        if method == "exact_match" and not (expected and expected.strip()):
            extra = " (it has expected_keywords, which exact_match does not use)" if keywords else ""
            msg = f"exact_match test has no 'expected'{extra}; unscorable"
            dd("missing_expected", msg)
            unscorable.append(msg)
        if method == "multiple_choice" and multiple_choice_letter(expected_raw) is None:
            msg = ("multiple_choice test has no 'expected' letter; unscorable" if expected_raw is None
                   else f"multiple_choice 'expected' {expected_raw!r} is not a single letter; unscorable")
            dd("missing_expected", msg)
            unscorable.append(msg)
        if method in ("keywords", "composite"):
            if keywords is None:
                msg = f"{method} test has no expected_keywords; unscorable"
                dd("missing_keywords", msg)
                unscorable.append(msg)
            elif not keywords:
                msg = f"{method} test has an empty expected_keywords list; unscorable"
                dd("empty_keywords", msg)
                unscorable.append(msg)
        if method in ("format", "composite"):
            if fmt is None:
                msg = f"{method} test has no expected_format; unscorable"
                dd("missing_format", msg)
                unscorable.append(msg)
            else:
                scorable, problems = check_format_spec(fmt)
                for _key, kind, message, sev in problems:
                    dd(kind, message, sev)
                if not scorable:
                    msg = f"{method} test has no format criterion that can be checked; unscorable"
                    dd("no_format_criterion", msg)
                    unscorable.append(msg)
        used = METHOD_FIELDS[method]
        for f in EXPECTATION_FIELDS:
            if f in raw and f not in used:
                dd("ignored_field", f"{f} is not used by eval_method {method}", "info")
    if keywords:
        seen: set[str] = set()
        for k in keywords:
            key = k.casefold()
            if key in seen:
                dd("duplicate_keyword", f"keyword {k!r} repeats; counted once", "warning")
            seen.add(key)
    if any(d.kind in ("missing_id", "missing_method", "unknown_method") for d in defects):
        unscorable.extend(d.message for d in defects if d.kind in ("missing_id", "missing_method", "unknown_method"))

    known = {"id", "prompt", "messages", "eval_method", "expected", "expected_keywords", "expected_format",
             "description"}
    test = EweTest(
        id=test_id,
        category=category,
        method=method,
        prompt=prompt,
        messages=messages,
        expected=expected,
        expected_keywords=keywords,
        expected_format=fmt,
        description=_s(raw.get("description")),
        file=file,
        line=line,
        index=index,
        unscorable="; ".join(unscorable) if unscorable else None,
        extra={k: v for k, v in raw.items() if k not in known},
    )
    return test, defects
