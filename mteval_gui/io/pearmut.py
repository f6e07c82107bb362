"""Pearmut (zouharvi/pearmut) ESA and MQM campaigns: campaign JSON out, annotation log (JSONL) in.

**Out** (``mteval export pearmut``): a ``task-based`` campaign as ``pearmut add FILE`` reads it:
``{"campaign_id", "info": {"assignment": "task-based", "protocol": "ESA"|"MQM", "shuffle"},
"data": [task, ...]}``; a task (one annotator's link) is a list of documents, a document a list of
items ``{"src", "tgt": {RUN: output, ...}, "error_spans": {RUN: [...]}, "doc_id", "mteval":
{"entry_id", "position"}}``. The runs compared are the item's models (Pearmut shows them side by
side and shuffles their order unless ``shuffle`` is false, which is set when the documents do not
all have the same runs). ``error_spans`` (ESA-AI pre-fill) holds ``{"start_i", "end_i",
"severity", "category"}`` in UTF-16 units of the output, end inclusive; the index just past the
output is Pearmut's ``[missing]`` token. Documents are dealt to the tasks in turn.

**In** (``mteval judgments import --from pearmut``): the campaign's output log
(``data/outputs/CAMPAIGN.jsonl``: one submission a line, ``{"user_id", "item_i", "annotation":
[{RUN: {"score", "error_spans"}}, ...], "item": [...]}``), or the dashboard's annotations download
(``{CAMPAIGN: [submission, ...]}``). A reset marker (``"annotation": "__RESET__"``) drops the
earlier submissions of its user (every user when null) for that item; of what is left, the last
submission per user and item counts. Each model's answer on each item becomes a task A judgment
of the user on the run's entry (``item[i].mteval.entry_id``): ``payload.esa_score`` the score,
``payload.spans`` the spans (exclusive character offsets; the ``[missing]`` index: a span marking
missing content; severity null: left out and counted; an MQM category ``Accuracy/Omission``: the
nearest built-in category).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.errors import Defect
from mteval_gui.io.appraise import category_of
from mteval_gui.io.exchange import ExchangeItem, from_inclusive_units, to_inclusive_units, utf16_length

PROTOCOLS = {"esa": "ESA", "mqm": "MQM"}
RESET_MARKER = "__RESET__"
SEVERITIES = ("minor", "major", "critical")
# the built-in categories as Pearmut's MQM "Top/Detail" strings
CATEGORY_TO_MQM = {
    "mistranslation": "Accuracy/Mistranslation", "omission": "Accuracy/Omission", "addition": "Accuracy/Addition",
    "untranslated": "Accuracy/Untranslated", "grammar": "Linguistic conventions/Grammar",
    "spelling": "Linguistic conventions/Spelling", "punctuation": "Linguistic conventions/Punctuation",
    "terminology": "Terminology/Wrong term", "style": "Style/Awkward style", "other": "Other/Other",
}


def span_to_pearmut(span: dict[str, Any], text: str, *, mqm: bool) -> dict[str, Any]:
    missing_i = utf16_length(text)
    if span.get("missing") is True:
        s, e = missing_i, missing_i
    else:
        s, e = to_inclusive_units(text, int(span["start"]), int(span["end"]))
    category = span.get("category")
    return {"start_i": s, "end_i": e, "severity": span.get("severity"),
            "category": (CATEGORY_TO_MQM.get(category or "", "Other/Other") if category else None) if mqm else None}


@dataclass
class PearmutCampaign:
    campaign: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


def build_campaign(items: Sequence[ExchangeItem], *, protocol: str, campaign_id: str, users: int = 1,
                   prefill: bool = False, instructions: str | None = None) -> PearmutCampaign:
    """The campaign for ``items`` (several runs of one entry become one item with several models)."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol {protocol!r} is not one of {', '.join(PROTOCOLS)}")
    bad = sorted({it.run_id for it in items if it.run_id.isdigit()})
    if bad:
        raise ValueError(f"run id {bad[0]!r} is only digits, which Pearmut refuses as a model name")
    if users < 1:
        raise ValueError("a campaign needs at least one annotator (--users)")
    mqm = protocol == "mqm"
    docs: dict[str, dict[str, dict[str, Any]]] = {}  # document -> entry -> item
    for it in items:
        doc = docs.setdefault(it.document, {})
        item = doc.get(it.entry_id)
        if item is None:
            item = doc[it.entry_id] = {"doc_id": it.document, "src": it.source, "tgt": {},
                                       "mteval": {"entry_id": it.entry_id, "position": it.position}}
        item["tgt"][it.run_id] = it.target
        if prefill and it.prefill:
            item.setdefault("error_spans", {})[it.run_id] = [span_to_pearmut(dict(p), it.target, mqm=mqm)
                                                            for p in it.prefill]
    documents = [list(d.values()) for d in docs.values()]
    if instructions:
        for d in documents:
            d[0]["instructions"] = instructions
    same_models = all(set(i["tgt"]) == set(d[0]["tgt"]) for d in documents for i in d)
    tasks: list[list[list[dict[str, Any]]]] = [[] for _ in range(users)]
    for n, d in enumerate(documents):
        tasks[n % users].append(d)
    warnings = [] if all(tasks) else [f"{sum(1 for t in tasks if not t)} of {users} annotators get no document"]
    info: dict[str, Any] = {"assignment": "task-based", "protocol": PROTOCOLS[protocol], "shuffle": same_models}
    return PearmutCampaign({"campaign_id": campaign_id, "info": info, "data": tasks}, warnings)


# --------------------------------------------------------------------------- annotation log


@dataclass
class Submission:
    line: int
    user: str
    item_i: int
    annotation: list[Any]
    item: list[Any]


@dataclass
class PearmutLog:
    submissions: list[Submission] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)
    superseded: int = 0


def _lines(text: str, name: str, defects: list[Defect]) -> list[tuple[int, Any]]:
    stripped = text.lstrip()
    if stripped.startswith("{") and "\n" in stripped.strip():
        try:  # the dashboard's download: {campaign: [submission, ...]}
            whole = json.loads(text)
        except ValueError:
            whole = None
        if isinstance(whole, dict) and whole and all(isinstance(v, list) for v in whole.values()):
            return [(0, x) for v in whole.values() for x in v]
    out: list[tuple[int, Any]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            out.append((n, json.loads(raw)))
        except ValueError as exc:
            defects.append(Defect(name, n, f"not valid JSON: {exc}"))
    return out


def read_log(text: str, name: str) -> PearmutLog:
    """The submissions in force in a Pearmut output log (see the module docstring)."""
    out = PearmutLog()
    kept: dict[tuple[str, int], Submission] = {}
    for n, rec in _lines(text, name, out.defects):
        line = n or None
        if not isinstance(rec, dict):
            out.defects.append(Defect(name, line, "a submission must be a JSON object"))
            continue
        user, item_i, annotation = rec.get("user_id"), rec.get("item_i"), rec.get("annotation")
        if not isinstance(item_i, int) or isinstance(item_i, bool):
            out.defects.append(Defect(name, line, f"item_i {item_i!r} is not a whole number"))
            continue
        if annotation == RESET_MARKER:
            for key in [k for k in kept if k[1] == item_i and (user is None or k[0] == user)]:
                del kept[key]
                out.superseded += 1
            continue
        if not isinstance(user, str) or not user.strip():
            out.defects.append(Defect(name, line, "user_id must be a non-empty text"))
            continue
        item = rec.get("item")
        if not isinstance(annotation, list) or not isinstance(item, list) or len(annotation) != len(item):
            out.defects.append(Defect(name, line, "annotation and item must be lists of the same length "
                                                  "(one answer per item of the document)"))
            continue
        if (user, item_i) in kept:
            out.superseded += 1
        kept[(user, item_i)] = Submission(n, user, item_i, annotation, item)
    out.submissions = sorted(kept.values(), key=lambda s: s.line)
    return out


@dataclass
class Answer:
    run_id: str
    entry_id: str
    payload: dict[str, Any]
    problems: list[str]
    skipped_spans: int = 0


def answer_payload(answer: Any, text: str) -> tuple[dict[str, Any], list[str], int]:
    """One model's answer ``{"score", "error_spans"}`` on the output ``text`` as a judgment payload."""
    payload: dict[str, Any] = {}
    problems: list[str] = []
    skipped = 0
    if not isinstance(answer, dict):
        return payload, ["an answer must be an object with score and error_spans"], 0
    score = answer.get("score")
    if score is not None:
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 100:
            problems.append(f"score {score!r} is not a number from 0 to 100")
        else:
            payload["esa_score"] = int(score) if float(score).is_integer() else float(score)
    spans = answer.get("error_spans")
    if spans is not None:
        if not isinstance(spans, list):
            return payload, problems + ["error_spans must be a list"], 0
        missing_i = utf16_length(text)
        out: list[dict[str, Any]] = []
        for i, s in enumerate(spans, 1):
            if not isinstance(s, dict):
                problems.append(f"span {i} must be an object")
                continue
            severity = s.get("severity")
            if severity is None or severity == "neutral":
                skipped += 1
                continue
            if severity not in SEVERITIES:
                problems.append(f"span {i}: severity {severity!r} is not one of {', '.join(SEVERITIES)}")
                continue
            si, ei = s.get("start_i"), s.get("end_i")
            if not (isinstance(si, int) and isinstance(ei, int)) or isinstance(si, bool) or isinstance(ei, bool):
                problems.append(f"span {i}: start_i and end_i must be whole numbers")
                continue
            missing = si == missing_i and ei == missing_i
            category = category_of(s.get("category"), missing)
            if missing:
                out.append({"missing": True, "severity": severity, "category": category})
                continue
            at = from_inclusive_units(text, si, ei)
            if at is None:
                problems.append(f"span {i}: start_i {si} and end_i {ei} are not inside the output")
                continue
            out.append({"start": at[0], "end": at[1], "severity": severity, "category": category})
        payload["spans"] = out
    return payload, problems, skipped
