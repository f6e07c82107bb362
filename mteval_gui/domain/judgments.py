"""Reviewers and their judgments (SPEC §9)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

from pydantic import ConfigDict, Field

from mteval_gui.domain.base import DomainModel

ADEQUACY_LABELS = {1: "None", 2: "Little", 3: "Much", 4: "Most", 5: "All"}
FLUENCY_LABELS = {1: "Incomprehensible", 2: "Disfluent", 3: "Non-native", 4: "Good", 5: "Flawless"}

Task = Literal["A", "B", "C", "D", "signoff", "check"]
TASKS: tuple[str, ...] = ("A", "B", "C", "D", "signoff", "check")
# Quality-control items (task "check"): an attention check (a known-bad output) or a repeated item
CHECK_TYPES = ("attention", "repeat")
# what an answer to a check item does not keep: a check judgment carries no ESA score, spans or correction
CHECK_DROPPED_KEYS = ("spans", "correction", "esa_score")

# Task B (linter audit) answers
SAME_MEANING = ("Yes", "No", "Depends")
NATURAL = ("Yes", "A better", "B better", "Neither")
# Task C (FST audit) answers
WORD_VALID = ("Yes", "No", "Unsure")
WORD_KINDS = ("Established", "Loanword", "Name", "Dialectal", "Neologism", "Other")
# Review sign-off
SIGNOFF_DECISIONS = ("confirm", "reject")
# Error spans (ESA: Kocmi et al. 2024, "Error Span Annotation", WMT): severities, and the
# short MQM-style category list (MQM core typology) a language card may extend
SPAN_SEVERITIES = ("minor", "major", "critical")
# the annotator's direct segment score of the ESA protocol (payload ``esa_score``)
ESA_SCORE_RANGE = (0, 100)
ERROR_CATEGORIES = ("mistranslation", "omission", "addition", "untranslated", "grammar", "spelling",
                    "punctuation", "terminology", "style", "other")
CATEGORY_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
# tasks whose judgments are about the system output as a whole (spans and corrections apply)
OUTPUT_TASKS = ("A", "B")
QUALITY_TIERS = ("fluent", "deployable", "functional", "emerging", "baseline", "unscored")
# a corrected translation is one segment: longer than this it is not a correction of one output
MAX_CORRECTION_CHARS = 10_000


class Reviewer(DomainModel):
    model_config = ConfigDict(extra="forbid")

    reviewer_id: str
    name: str
    dialect: str | None = None
    languages: list[str] = Field(default_factory=list)
    consent_scope: str | None = None
    created_at: str | None = None


class Judgment(DomainModel):
    """One judgment by one reviewer on one entry of one run.

    Task A: ``adequacy``/``fluency`` 1-5, ``note``, ``flagged``.
    Task B (linter audit): ``payload = {"same_meaning": "Yes|No|Depends",
    "natural": "Yes|A better|B better|Neither", "classes": [...]}``.
    Task C (FST audit): ``payload = {"word": ..., "valid": "Yes|No|Unsure",
    "kind": "Established|Loanword|Name|Dialectal|Neologism|Other"}``.
    Task D (document rating): ``adequacy``/``fluency`` 1-5 and ``note`` of the translation of a whole
    document, ``payload = {"document": ...}`` (the document's id, :func:`mteval_gui.domain.corpus.document_of`);
    ``entry_id`` is the document's first entry in corpus order, so a reviewer has one document
    rating per run and document.
    signoff: ``payload = {"decision": "confirm|reject", "tier": ...}`` with ``entry_id`` None.
    check (reviewer quality control): the adequacy/fluency rating of a check item shown among
    the real ones, ``payload = {"check": "attention|repeat", "check_id": ..., "kind": ...}``;
    ``entry_id`` is the real entry the check was made from, and the rating never counts as a
    rating of that entry (:mod:`mteval_gui.validation.quality`).

    Tasks A and B may also carry, in the payload, the annotator's direct ESA segment score
    ``esa_score`` (a number from 0 to 100), ESA error spans ``spans = [{"start", "end",
    "severity": "minor|major|critical", "category"}]`` (character offsets into the NFC output,
    end exclusive; ``category`` one of :data:`ERROR_CATEGORIES`, those the language card adds,
    or None), spans that mark missing content ``{"missing": true, "severity", "category"}``
    (no offsets: what is missing has no place in the output) and a corrected translation
    ``correction``. A ``spans`` list that is present but empty means the reviewer looked for
    errors and found none.
    """

    model_config = ConfigDict(extra="forbid")

    judgment_id: int | None = None
    reviewer_id: str
    run_id: str
    entry_id: str | None = None
    task: Task = "A"
    adequacy: int | None = Field(default=None, ge=1, le=5)
    fluency: int | None = Field(default=None, ge=1, le=5)
    note: str | None = None
    flagged: bool = False
    payload: dict[str, Any] = Field(default_factory=dict)
    version: int = 1
    created_at: str | None = None
    superseded_by: int | None = None
    undone: bool = False


def judgment_item(j: Judgment) -> str:
    """What a judgment is about inside its entry: the word for Task C, "" otherwise.

    Together with reviewer, run, entry and task it identifies a judgment across its versions.
    """
    if j.task == "C":
        word = j.payload.get("word")
        return word if isinstance(word, str) else ""
    if j.task == "check":
        check_id = j.payload.get("check_id")
        return check_id if isinstance(check_id, str) else ""
    if j.task == "D":
        document = j.payload.get("document")
        return document if isinstance(document, str) else ""
    return ""


def _choice(payload: dict[str, Any], key: str, allowed: tuple[str, ...], *, required: bool) -> list[str]:
    value = payload.get(key)
    if value is None:
        return [f"task needs payload {key!r} (one of {', '.join(allowed)})"] if required else []
    if value not in allowed:
        return [f"{key} {value!r} is not one of {', '.join(allowed)}"]
    return []


def judgment_problems(j: Judgment) -> list[str]:
    """Everything wrong with a judgment's content (not its references), as user-facing messages."""
    problems: list[str] = []
    for name in ("adequacy", "fluency"):
        value = getattr(j, name)
        if value is not None and not 1 <= value <= 5:
            problems.append(f"{name} {value} is out of range 1-5")
    p = j.payload
    if j.task == "signoff":
        if j.entry_id is not None:
            problems.append("a sign-off concerns a whole run: entry_id must be empty")
        problems += _choice(p, "decision", SIGNOFF_DECISIONS, required=True)
        problems += _choice(p, "tier", QUALITY_TIERS, required=False)
        if "spans" in p or "correction" in p or "esa_score" in p:
            problems.append("a sign-off carries no ESA score, error spans or correction")
        return problems
    if not j.entry_id:
        problems.append(f"task {j.task} judgment needs an entry_id")
    if j.task == "check":
        problems += _choice(p, "check", CHECK_TYPES, required=True)
        check_id = p.get("check_id")
        if not isinstance(check_id, str) or not check_id.strip():
            problems.append("a check judgment needs payload 'check_id' (which check item it answers)")
    if j.task == "D":
        document = p.get("document")
        if not isinstance(document, str) or not document.strip():
            problems.append("a document rating needs payload 'document' (the document's id)")
        extra = sorted(set(p) - {"document"})
        if extra:
            problems.append(f"a document rating carries only payload 'document' (not {', '.join(extra)})")
    if j.task == "B":
        problems += _choice(p, "same_meaning", SAME_MEANING, required=False)
        problems += _choice(p, "natural", NATURAL, required=False)
        classes = p.get("classes")
        if classes is not None and not (isinstance(classes, list) and all(isinstance(c, str) for c in classes)):
            problems.append("classes must be a list of variant class names")
    if j.task in OUTPUT_TASKS:
        problems += esa_score_problems(p.get("esa_score"))
        problems += span_problems(p.get("spans"))
        correction = p.get("correction")
        if correction is not None and (not isinstance(correction, str) or not correction.strip()):
            problems.append("correction must be a non-empty text")
        elif isinstance(correction, str):
            problems += correction_problems(correction)
    elif "spans" in p or "correction" in p or "esa_score" in p:
        problems.append(f"task {j.task} judgments carry no ESA score, error spans or correction (tasks A and B do)")
    if j.task == "C":
        word = p.get("word")
        if not isinstance(word, str) or not word.strip():
            problems.append("task C judgment needs payload 'word' (the rejected word)")
        problems += _choice(p, "valid", WORD_VALID, required=False)
        problems += _choice(p, "kind", WORD_KINDS, required=False)
    return problems


def correction_problems(text: str, what: str = "correction") -> list[str]:
    """Why a corrected translation cannot become a candidate variant (empty when it can).

    Refused: more than :data:`MAX_CORRECTION_CHARS` characters; control characters (C0 and
    C1, ESC included; tab and newline are allowed); no visible character at all (only spaces,
    zero-width or other format characters). Zero-width joiners and bidi marks inside a text
    with letters stay: some scripts need them.
    """
    if len(text) > MAX_CORRECTION_CHARS:
        return [f"{what} is {len(text):,} characters long (at most {MAX_CORRECTION_CHARS:,})"]
    problems = []
    for i, ch in enumerate(text, 1):
        if unicodedata.category(ch) == "Cc" and ch not in "\t\n":
            problems.append(f"{what} holds the control character U+{ord(ch):04X} (character {i})")
            break
    if not any(unicodedata.category(ch)[0] not in "CZ" for ch in text):
        problems.append(f"{what} has no visible character (only spaces, zero-width or format characters)")
    return problems


def esa_score_problems(value: Any) -> list[str]:
    """What is wrong with a payload's ``esa_score`` (None = not given)."""
    if value is None:
        return []
    lo, hi = ESA_SCORE_RANGE
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return [f"esa_score {value!r} is not a number from {lo} to {hi}"]
    if not lo <= value <= hi:
        return [f"esa_score {value:g} is out of range {lo}-{hi}"]
    return []


def is_missing_span(span: Any) -> bool:
    """A span that marks missing content (``"missing": true``, no offsets)."""
    return isinstance(span, dict) and span.get("missing") is True


def span_problems(spans: Any, output_length: int | None = None, categories: tuple[str, ...] | None = None) -> list[str]:
    """What is wrong with a payload's ``spans`` (None = no spans recorded).

    ``output_length`` (characters of the NFC output) bounds the offsets when known;
    ``categories`` is the allowed list (default: the ids' form only).
    """
    if spans is None:
        return []
    if not isinstance(spans, list):
        return ["spans must be a list of error spans"]
    problems: list[str] = []
    seen: set[tuple[Any, ...]] = set()
    for i, span in enumerate(spans, 1):
        where = f"span {i}"
        if not isinstance(span, dict):
            problems.append(f"{where} must be an object with start, end, severity and category")
            continue
        missing = "missing" in span
        fields = {"missing", "severity", "category"} if missing else {"start", "end", "severity", "category"}
        unknown = sorted(set(span) - fields)
        if missing and span.get("missing") is not True:
            problems.append(f"{where}: missing must be true (a span that marks missing content)")
        elif missing and ({"start", "end"} & set(span)):
            problems.append(f"{where}: a span that marks missing content has no start or end")
            unknown = sorted(set(unknown) - {"start", "end"})
        if unknown:
            problems.append(f"{where}: unknown field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
        start, end = span.get("start"), span.get("end")
        if missing:
            pass  # what is missing has no place in the output: nothing to bound
        elif not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
            problems.append(f"{where}: start and end must be whole numbers (character offsets)")
        elif not 0 <= start < end:
            problems.append(f"{where}: start {start} and end {end} do not delimit a span (0 <= start < end)")
        elif output_length is not None and end > output_length:
            problems.append(f"{where}: end {end} is past the end of the output ({output_length} characters)")
        severity = span.get("severity")
        if severity not in SPAN_SEVERITIES:
            problems.append(f"{where}: severity {severity!r} is not one of {', '.join(SPAN_SEVERITIES)}")
        category = span.get("category")
        if category is not None:
            if not isinstance(category, str) or not CATEGORY_ID.match(category):
                problems.append(f"{where}: category {category!r} is not a category id")
            elif categories is not None and category not in categories:
                problems.append(f"{where}: category {category!r} is not one of {', '.join(categories)}")
        key = (start, end, severity, category)
        if not missing and key in seen:  # missing content may be marked more than once
            problems.append(f"{where} repeats an earlier span")
        seen.add(key)
    return problems


def judgment_spans(j: Judgment) -> list[dict[str, Any]] | None:
    """The judgment's error spans (None when the reviewer marked none, [] when they found no error)."""
    spans = j.payload.get("spans")
    return spans if isinstance(spans, list) else None


def judgment_correction(j: Judgment) -> str | None:
    value = j.payload.get("correction")
    return value if isinstance(value, str) and value.strip() else None


class BenchmarkJudgment(DomainModel):
    """A speaker's adequacy and fluency rating (1-5) of one response of a stored benchmark run.

    Kept apart from :class:`Judgment` (table ``benchmark_judgments``): ``bench_run_id`` names a
    stored benchmark run, ``test_id`` the test whose response is rated and ``suite`` the run's
    suite (e.g. ``ewebench``). Append-only like the judgment log: a new version supersedes
    the previous one (``superseded_by``).
    """

    model_config = ConfigDict(extra="forbid")

    judgment_id: int | None = None
    reviewer_id: str
    suite: str | None = None
    bench_run_id: str
    test_id: str
    adequacy: int | None = Field(default=None, ge=1, le=5)
    fluency: int | None = Field(default=None, ge=1, le=5)
    note: str | None = None
    version: int = 1
    created_at: str | None = None
    superseded_by: int | None = None
