"""Appraise (AppraiseDev/Appraise) ESA and MQM campaigns: batches and manifest out, scores CSV in.

**Out** (``mteval export appraise``): a ``Document`` campaign with ``TASK_OPTIONS`` ``ESA`` or
``MQM``, as Appraise's ``StartNewCampaign MANIFEST --batches-json BATCHES`` reads it:

- the manifest holds ``CAMPAIGN_URL``, ``CAMPAIGN_NAME``, ``CAMPAIGN_KEY`` (text),
  ``CAMPAIGN_NO``, ``REDUNDANCY`` (whole numbers), ``TASKS_TO_ANNOTATORS`` (one
  ``[source, target, "uniform", annotators, tasks]`` per language pair; tasks × redundancy must
  divide among the annotators), ``TASK_TYPE`` ``"Document"`` and ``TASK_OPTIONS``;
- the batches file is a list of tasks ``{"items": [...], "task": {"batchNo", "randomSeed",
  "requiredAnnotations", "sourceLanguage", "targetLanguage"}}``. Appraise keeps a task only when
  it has exactly 100 items that are not whole-document items, so the last task is filled up with
  repeats of earlier items marked ``CHK`` (its redundant-check item type).
- each item: ``sourceID``, ``sourceText``, ``targetID`` (the run id: Appraise's system),
  ``targetText`` (the NFC output), ``itemID`` (1-based place of the entry in its run; a repeat
  adds :data:`CHECK_ITEM_BASE`), ``itemType`` (``TGT``, ``CHK``), ``documentID`` (the entry's
  ``metadata.document``, else its segment, else its id; repeats get ``#check``),
  ``isCompleteDocument`` false, ``_item`` and ``mqm``: the error spans shown pre-filled (ESA-AI:
  ``{"start_i", "end_i", "severity"}``, UTF-16 units of the trimmed target, end inclusive;
  ``"missing"`` for both offsets marks missing content, as Appraise's ``[MISSING]`` token does).

**In** (``mteval judgments import --from appraise``): the CSV of ``ExportSystemScoresToCSV``
(no header): user, system (``targetID``), ``itemID``, ``itemType``, source and target language,
score, ``documentID``, ``isCompleteDocument``, the ``mqm`` JSON of the spans, then optionally
start and end time and batch number and item key. Each ``TGT`` row becomes a task A judgment of
the user on the run's entry at ``itemID``: ``payload.esa_score`` the score and ``payload.spans``
the spans with exclusive character offsets; severities minor, major and critical are kept,
``neutral`` and ``undecided`` spans are left out (counted); an MQM ``error_type`` path becomes
the nearest category. ``CHK``, ``BAD`` and ``REF`` rows (checks) are counted, not imported.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mteval_gui.errors import Defect
from mteval_gui.io.common import csv_rows
from mteval_gui.io.exchange import ExchangeItem, from_inclusive_units, to_inclusive_units

ITEMS_PER_BATCH = 100
CHECK_ITEM_BASE = 10_000_000
TASK_OPTIONS = {"esa": "ESA", "mqm": "MQM"}
SEVERITIES = ("minor", "major", "critical")
SKIPPED_SEVERITIES = ("neutral", "undecided")
# Appraise's Dashboard.models.LANGUAGE_CODES_AND_NAMES (the codes a campaign may use)
APPRAISE_LANGUAGES = frozenset([
    "ace", "acm", "acu", "aeb", "afb", "afr", "agr", "amh", "amu", "apc", "ara", "arg", "ary", "arz", "asm", "ast",
    "axk", "ayl", "ayn", "aze", "bak", "bbg", "bel", "bem", "ben", "bew", "bho", "bis", "ble", "bod", "bos", "bre",
    "brx", "bul", "cat", "ceb", "ces", "chr", "chv", "ckb", "cos", "crs", "cym", "dan", "deu", "dgo", "div", "dsb",
    "dzo", "ell", "eng", "epo", "est", "eus", "ewe", "fao", "fas", "fij", "fil", "fin", "fra", "fry", "fuc", "gan",
    "gla", "gle", "glg", "guj", "hak", "hat", "hau", "haw", "heb", "hin", "hne", "hrv", "hsb", "hsn", "hun", "hye",
    "ibo", "ikt", "iku", "ind", "isl", "ita", "jav", "jiv", "jpn", "kan", "kas", "kat", "kaz", "khm", "kin", "kir",
    "kmr", "kok", "kor", "lao", "lat", "lav", "lin", "lit", "liv", "lkt", "ltz", "lug", "luo", "lzh", "mai", "mal",
    "mar", "mey", "mhr", "mkd", "mlg", "mlt", "mni", "mon", "mri", "mrj", "mww", "mya", "nde", "nep", "nld", "nob",
    "nso", "nya", "oci", "ogb", "oji", "ori", "orm", "oss", "otq", "pan", "pap", "pcm", "plk", "por", "ppk", "prs",
    "pus", "quc", "qwe", "ron", "run", "rus", "sag", "sah", "san", "sat", "sgg", "shi", "sin", "slk", "slv", "sme",
    "smo", "sna", "snd", "som", "soq", "sot", "spa", "sqi", "srd", "srp", "srp-Cyrl", "srp-Latn", "ssw", "sun",
    "swa", "swe", "tah", "tam", "tat", "tel", "tgk", "tha", "tir", "tlh", "ton", "tpi", "trk", "tsn", "tuk", "udm",
    "uig", "ukr", "urd", "usp", "uzb", "ven", "vie", "wol", "wuu", "xho", "yid", "yor", "yua", "yue", "zho",
    "zho-Hans", "zho-Hant", "zsm", "zul",
])
_KNOWN = {c.lower() for c in APPRAISE_LANGUAGES}
# MQM error types of Appraise's interface (top level / detail) <-> the built-in categories
CATEGORY_TO_ERROR_TYPE: dict[str, list[str]] = {
    "mistranslation": ["Accuracy", "Mistranslation"], "omission": ["Accuracy", "Omission"],
    "addition": ["Accuracy", "Addition"], "untranslated": ["Accuracy", "Untranslated"],
    "grammar": ["Linguistic conventions", "Grammar"], "spelling": ["Linguistic conventions", "Spelling"],
    "punctuation": ["Linguistic conventions", "Punctuation"],
    "terminology": ["Terminology", "Wrong term"], "style": ["Style", "Awkward style"], "other": ["Other"],
}
CSV_COLUMNS = ("user", "system", "itemID", "itemType", "sourceLanguage", "targetLanguage", "score",
               "documentID", "isCompleteDocument", "mqm", "start_time", "end_time", "batchNo", "item")


def is_appraise_language(code: str) -> bool:
    return code.lower() in _KNOWN


def language_for_appraise(code: str, mapping: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The code to write for ``code`` (after ``mapping``) and a warning when Appraise does not know it."""
    mapped = (mapping or {}).get(code, code)
    if is_appraise_language(mapped):
        return mapped, None
    how = (f"{code!r} (mapped to {mapped!r})" if mapped != code else repr(code))
    return mapped, (f"language {how} is not in Appraise's language table (Dashboard/models.py "
                    f"LANGUAGE_CODES_AND_NAMES): its StartNewCampaign refuses the manifest; add the code to that "
                    f"table or map it to one it knows with --language-map {code}=CODE")


def _trim_lead(text: str) -> int:
    """Characters Appraise's interface drops before the first one it shows (it trims the target)."""
    return len(text) - len(text.lstrip())


def span_to_appraise(span: Mapping[str, Any], text: str, *, with_type: bool) -> dict[str, Any] | None:
    """A judgment span as an Appraise ``mqm`` span (None when it has no place in the shown text)."""
    severity = span.get("severity")
    out: dict[str, Any]
    if span.get("missing") is True:
        out = {"start_i": "missing", "end_i": "missing", "severity": severity}
    else:
        lead = _trim_lead(text)
        start, end = int(span["start"]), int(span["end"])
        shown_end = len(text.rstrip())
        start, end = max(start, lead), min(end, shown_end)
        if start >= end:
            return None
        s, e = to_inclusive_units(text, start, end, lead)
        out = {"start_i": s, "end_i": e, "severity": severity}
    if with_type:
        category = span.get("category")
        out["error_type"] = CATEGORY_TO_ERROR_TYPE.get(category or "", ["Other"]) if category else None
    return out


def category_of(error_type: Any, missing: bool) -> str | None:
    """The category for an Appraise ``error_type`` path (``["Accuracy", "Omission"]``); missing content
    without one is an omission."""
    if isinstance(error_type, list) and error_type and all(isinstance(x, str) for x in error_type):
        for cat, path in CATEGORY_TO_ERROR_TYPE.items():
            if [x.lower() for x in error_type[:len(path)]] == [x.lower() for x in path]:
                return cat
        top = error_type[0].lower()
        if top == "accuracy":
            return "mistranslation"
        if top == "linguistic conventions":
            return "grammar"
        if top in ("terminology", "style"):
            return top
        return "other"
    if isinstance(error_type, str) and error_type.strip():
        return category_of([x.strip() for x in error_type.split("/")], missing)
    return "omission" if missing else None


@dataclass
class Campaign:
    manifest: dict[str, Any]
    batches: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)


def appraise_item(item: ExchangeItem, *, item_id: int, item_type: str, document: str, with_type: bool,
                  prefill: bool) -> dict[str, Any]:
    spans = [s for s in (span_to_appraise(p, item.target, with_type=with_type) for p in item.prefill) if s] \
        if prefill else []
    return {"mqm": spans, "documentID": document, "sourceID": item.entry_id, "targetID": item.run_id,
            "itemType": item_type, "sourceText": item.source, "targetText": item.target, "itemID": item_id,
            "_item": "", "isCompleteDocument": False}


def build_campaign(items: Sequence[ExchangeItem], *, task: str, source_lang: str, target_lang: str,
                   name: str, number: int = 1, redundancy: int = 1, annotators: int = 1,
                   required_annotations: int = 1, url: str = "http://127.0.0.1:8000/dashboard/sso/",
                   prefill: bool = False, seed: int = 0,
                   language_map: Mapping[str, str] | None = None) -> Campaign:
    """The manifest and batches of an Appraise ``Document`` campaign for ``items`` (in their order)."""
    if task not in TASK_OPTIONS:
        raise ValueError(f"task {task!r} is not one of {', '.join(TASK_OPTIONS)}")
    warnings: list[str] = []
    src, w1 = language_for_appraise(source_lang, language_map)
    tgt, w2 = language_for_appraise(target_lang, language_map)
    warnings += [w for w in (w1, w2) if w]
    with_type = task == "mqm"
    rows = [appraise_item(it, item_id=it.position, item_type="TGT", document=it.document, with_type=with_type,
                          prefill=prefill) for it in items]
    batches: list[dict[str, Any]] = []
    for no, start in enumerate(range(0, len(rows), ITEMS_PER_BATCH), 1):
        chunk = rows[start:start + ITEMS_PER_BATCH]
        repeat = 0
        while len(chunk) < ITEMS_PER_BATCH:  # Appraise skips a task of fewer than 100 items
            base = rows[repeat % len(rows)]
            repeat += 1
            chunk.append({**base, "itemType": "CHK", "itemID": CHECK_ITEM_BASE * (1 + (repeat - 1) // len(rows))
                          + base["itemID"], "documentID": f"{base['documentID']}#check", "mqm": []})
        batches.append({"items": chunk, "task": {"batchNo": no, "randomSeed": seed, "requiredAnnotations":
                                                 required_annotations, "sourceLanguage": src,
                                                 "targetLanguage": tgt}})
    tasks = len(batches)
    if annotators < 1 or (tasks * redundancy) % annotators:
        raise ValueError(f"{tasks} task(s) x redundancy {redundancy} do not divide among {annotators} annotators "
                         "(Appraise's uniform task map needs tasks x redundancy to be a multiple of annotators)")
    manifest = {"CAMPAIGN_URL": url, "CAMPAIGN_NAME": name, "CAMPAIGN_KEY": name, "CAMPAIGN_NO": number,
                "REDUNDANCY": redundancy, "TASKS_TO_ANNOTATORS": [[src, tgt, "uniform", annotators, tasks]],
                "TASK_TYPE": "Document", "TASK_OPTIONS": TASK_OPTIONS[task]}
    if any("+" in it.run_id for it in items):
        warnings.append("a run id contains '+', which Appraise's score export splits into several systems")
    return Campaign(manifest, batches, warnings)


def shuffled(items: Sequence[ExchangeItem], seed: int) -> list[ExchangeItem]:
    """Documents in a seeded random order, each document's items kept together in corpus order."""
    docs: dict[tuple[str, str], list[ExchangeItem]] = {}
    for it in items:
        docs.setdefault((it.run_id, it.document), []).append(it)
    keys = list(docs)
    random.Random(seed).shuffle(keys)
    return [it for k in keys for it in docs[k]]


# --------------------------------------------------------------------------- scores CSV


@dataclass
class AppraiseRow:
    """One result row of Appraise's score export, read."""

    line: int
    user: str
    system: str
    item_id: int
    item_type: str
    score: float | None
    spans: list[dict[str, Any]] | None  # Appraise spans (raw)
    end_time: float | None


@dataclass
class AppraiseScores:
    rows: list[AppraiseRow] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)
    skipped_checks: int = 0


def read_scores_csv(text: str, name: str) -> AppraiseScores:
    """The rows of an ``ExportSystemScoresToCSV`` file (see the module docstring)."""
    out = AppraiseScores()
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    for line, cells in csv_rows(reader, name, out.defects):
        if len(cells) not in (10, 12, 14):
            out.defects.append(Defect(name, line, f"{len(cells)} cells: Appraise's score export has 10, 12 or 14 "
                                                  "(user, system, itemID, itemType, languages, score, documentID, "
                                                  "isCompleteDocument, mqm[, start and end time[, batch]])"))
            continue
        user, system, item_id, item_type, _src, _tgt, score, _doc, _complete, mqm = cells[:10]
        if item_type not in ("TGT", "CHK", "BAD", "REF"):
            out.defects.append(Defect(name, line, f"itemType {item_type!r} is not TGT, CHK, BAD or REF"))
            continue
        if item_type != "TGT":
            out.skipped_checks += 1
            continue
        problems: list[str] = []
        if not user.strip():
            problems.append("no user")
        try:
            iid = int(item_id)
        except ValueError:
            problems.append(f"itemID {item_id!r} is not a whole number")
            iid = 0
        value: float | None = None
        if score.strip() and score.strip() not in ("None", "-1"):
            try:
                value = float(score)
            except ValueError:
                problems.append(f"score {score!r} is not a number")
            else:
                if not 0 <= value <= 100:
                    problems.append(f"score {score} is out of range 0-100")
        spans: list[dict[str, Any]] | None = None
        raw = mqm.strip()
        if raw and raw != "None":
            try:
                parsed = json.loads(raw)
                if isinstance(parsed, str):  # stored as a JSON string of JSON
                    parsed = json.loads(parsed)
            except ValueError as exc:
                problems.append(f"mqm is not valid JSON: {exc}")
                parsed = None
            if isinstance(parsed, dict):  # a tutorial item: {"tutorial": ..., "payload": [...]}
                parsed = parsed.get("payload")
            if parsed is not None and not (isinstance(parsed, list) and all(isinstance(s, dict) for s in parsed)):
                problems.append("mqm must be a list of error spans")
            elif parsed is not None:
                spans = parsed
        end_time: float | None = None
        if len(cells) >= 12 and cells[11].strip():
            try:
                end_time = float(cells[11])
            except ValueError:
                problems.append(f"end time {cells[11]!r} is not a number")
        for p in problems:
            out.defects.append(Defect(name, line, p))
        if not problems:
            out.rows.append(AppraiseRow(line, user.strip(), system, iid, item_type, value, spans, end_time))
    return out


@dataclass
class Converted:
    payload: dict[str, Any]
    problems: list[str]
    skipped_spans: int = 0


def judgment_payload(row: AppraiseRow, text: str) -> Converted:
    """The judgment payload of one row on the output ``text`` (NFC): direct score and spans."""
    payload: dict[str, Any] = {}
    problems: list[str] = []
    skipped = 0
    if row.score is not None:
        payload["esa_score"] = int(row.score) if float(row.score).is_integer() else row.score
    if row.spans is not None:
        lead = _trim_lead(text)
        spans: list[dict[str, Any]] = []
        for i, s in enumerate(row.spans, 1):
            severity = s.get("severity")
            if severity in SKIPPED_SEVERITIES:
                skipped += 1
                continue
            if severity not in SEVERITIES:
                problems.append(f"span {i}: severity {severity!r} is not one of {', '.join(SEVERITIES)}")
                continue
            missing = s.get("start_i") == "missing" or s.get("end_i") == "missing"
            category = category_of(s.get("error_type"), missing)
            if missing:
                spans.append({"missing": True, "severity": severity, "category": category})
                continue
            si, ei = s.get("start_i"), s.get("end_i")
            if not (isinstance(si, int) and isinstance(ei, int)) or isinstance(si, bool) or isinstance(ei, bool):
                problems.append(f"span {i}: start_i and end_i must be whole numbers or 'missing'")
                continue
            at = from_inclusive_units(text, si, ei, lead)
            if at is None:
                problems.append(f"span {i}: start_i {si} and end_i {ei} are not inside the output")
                continue
            spans.append({"start": at[0], "end": at[1], "severity": severity, "category": category})
        payload["spans"] = spans
    return Converted(payload, problems, skipped)


def iso_time(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")

