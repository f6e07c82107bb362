"""Human evaluation in Appraise and Pearmut: runs out as campaigns, annotations back as judgments.

- :func:`export_appraise` writes ``manifest.json`` and ``batches.json`` of an Appraise ESA/MQM
  campaign (:mod:`mteval_gui.io.appraise`); :func:`export_pearmut` a Pearmut campaign file
  (:mod:`mteval_gui.io.pearmut`). Documents come from the entries' ``metadata.document`` (else
  their segment, else their id). With ``prefill`` the annotator starts from error spans the
  workspace already has (ESA-AI): each word the analyzer rejected (minor, spelling) and, where
  the language's linter called the output a MISS, its output words without counterpart
  (major, mistranslation) and its reference words without counterpart (major, missing content).
- :func:`import_appraise` and :func:`import_pearmut` read their annotations back as task A
  judgments (direct ESA score, spans of every severity, missing-content spans) and merge them all
  or nothing, like a judgment file (:func:`mteval_gui.store.judgments.import_log`). Annotators
  the workspace does not know are added as reviewers under their user name.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.app.audits import linter_misses, rejected_words
from mteval_gui.app.documents import DOC_KEYS as DOCUMENT_KEYS
from mteval_gui.app.documents import document_of
from mteval_gui.app.review import category_problems, require_runs
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import Defect, MtevalError
from mteval_gui.io import appraise, pearmut
from mteval_gui.io.exchange import ExchangeItem, word_spans
from mteval_gui.io.outputs import write_output
from mteval_gui.io.textfile import read_text
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import import_log, list_reviewers

__all__ = ["exchange_items", "export_appraise", "export_pearmut", "import_appraise", "import_pearmut",
           "ExchangeExport", "DOCUMENT_KEYS"]

def _document_of(entry: Any) -> str:
    return document_of(entry) or entry.id


def _prefill(ws: Workspace, run_id: str, outputs: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    spans: dict[str, list[dict[str, Any]]] = {}
    rejected: dict[str, list[str]] = {}
    for entry_id, word in rejected_words(ws, run_id):
        rejected.setdefault(entry_id, []).append(word)
    for entry_id, words in rejected.items():
        text = outputs.get(entry_id, "")
        spans.setdefault(entry_id, []).extend(
            {"start": s, "end": e, "severity": "minor", "category": "spelling"} for s, e in word_spans(text, words))
    for entry_id, verdict in linter_misses(ws, run_id).items():
        text = outputs.get(entry_id, "")
        extra = verdict.get("unpaired_output") or []
        missing = verdict.get("unpaired_reference") or []
        have = {(s["start"], s["end"]) for s in spans.get(entry_id, [])}
        for s, e in word_spans(text, [w for w in extra if isinstance(w, str)]):
            if (s, e) not in have:
                spans.setdefault(entry_id, []).append(
                    {"start": s, "end": e, "severity": "major", "category": "mistranslation"})
        spans.setdefault(entry_id, []).extend(
            {"missing": True, "severity": "major", "category": "omission"} for w in missing if isinstance(w, str))
    for entry_id in spans:
        spans[entry_id].sort(key=lambda s: (1, 0, 0) if s.get("missing") else (0, s["start"], s["end"]))
    return spans


def exchange_items(ws: Workspace, run_ids: Sequence[str], *, prefill: bool = False
                   ) -> tuple[list[ExchangeItem], str, str]:
    """The outputs of ``run_ids`` to send out (runs in the order given, entries in corpus order),
    with the runs' source and target language (every run must share them)."""
    if not run_ids:
        raise MtevalError("name at least one run")
    require_runs(ws, run_ids)
    items: list[ExchangeItem] = []
    pairs: set[tuple[str, str]] = set()
    for run_id in run_ids:
        info = repo.get_run_info(ws, run_id)
        corpus = repo.get_corpus_info(ws, info["corpus_id"])
        pairs.add((corpus.get("source_lang") or "und", corpus.get("target_lang") or "und"))
        rows = repo.entry_outputs(ws, run_id)
        outputs = {e.id: unicodedata.normalize("NFC", o.predicted or "") for e, o in rows}
        spans = _prefill(ws, run_id, outputs) if prefill else {}
        for position, (entry, output) in enumerate(rows, 1):
            if output.error or not outputs[entry.id].strip():
                continue  # nothing to evaluate: a system error or an empty output
            items.append(ExchangeItem(run_id, entry.id, position, _document_of(entry), entry.source,
                                      outputs[entry.id], tuple(spans.get(entry.id, ()))))
    if len(pairs) > 1:
        raise MtevalError("the runs are of different language pairs ("
                          + ", ".join(f"{s}-{t}" for s, t in sorted(pairs)) + "): export one pair at a time")
    if not items:
        raise MtevalError("the runs have no output to evaluate")
    src, tgt = next(iter(pairs))
    return items, src, tgt


@dataclass
class ExchangeExport:
    paths: list[Path]
    items: int
    batches: int
    prefilled: int
    warnings: list[str] = field(default_factory=list)


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def export_appraise(ws: Workspace, run_ids: Sequence[str], out_dir: str | Path, *, task: str = "esa",
                    name: str | None = None, number: int = 1, redundancy: int = 1, annotators: int = 1,
                    prefill: bool = False, language_map: Mapping[str, str] | None = None,
                    url: str = "http://127.0.0.1:8000/dashboard/sso/") -> ExchangeExport:
    """Write ``manifest.json`` and ``batches.json`` of an Appraise campaign into ``out_dir``."""
    items, src, tgt = exchange_items(ws, run_ids, prefill=prefill)
    campaign_name = name or f"mteval{task}{number}"
    try:
        campaign = appraise.build_campaign(items, task=task, source_lang=src, target_lang=tgt, name=campaign_name,
                                           number=number, redundancy=redundancy, annotators=annotators,
                                           prefill=prefill, language_map=language_map, url=url)
    except ValueError as exc:
        raise MtevalError(str(exc)) from exc
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise MtevalError(f"{folder}: not a folder (appraise writes manifest.json and batches.json into one)")
    folder.mkdir(parents=True, exist_ok=True)
    paths = [write_output(folder / "manifest.json", _dump(campaign.manifest)),
             write_output(folder / "batches.json", _dump(campaign.batches))]
    return ExchangeExport(paths, len(items), len(campaign.batches), sum(1 for it in items if it.prefill),
                          campaign.warnings)


def export_pearmut(ws: Workspace, run_ids: Sequence[str], path: str | Path, *, protocol: str = "esa",
                   campaign_id: str | None = None, users: int = 1, prefill: bool = False) -> ExchangeExport:
    """Write a Pearmut campaign file (task-based; one task per annotator)."""
    items, src, tgt = exchange_items(ws, run_ids, prefill=prefill)
    try:
        campaign = pearmut.build_campaign(items, protocol=protocol, campaign_id=campaign_id or f"mteval_{src}-{tgt}",
                                          users=users, prefill=prefill,
                                          instructions=f"Evaluate translation from {src} to {tgt}.")
    except ValueError as exc:
        raise MtevalError(str(exc)) from exc
    written = write_output(path, _dump(campaign.campaign))
    return ExchangeExport([written], len(items), len(campaign.campaign["data"]),
                          sum(1 for it in items if it.prefill), campaign.warnings)


# --------------------------------------------------------------------------- import


def _merge(ws: Workspace, name: str, found: list[tuple[int | None, Judgment]], defects: list[Defect],
           summary_extra: dict[str, Any]) -> dict[str, Any]:
    cache: dict[str, tuple[str, ...]] = {}
    for line, j in found:
        defects += [Defect(name, line, p) for p in category_problems(ws, j, cache)]
    known = {r.reviewer_id for r in list_reviewers(ws)}
    new = sorted({j.reviewer_id for _, j in found} - known)
    reviewers: list[tuple[int | None, Reviewer]] = [(None, Reviewer(reviewer_id=r, name=r)) for r in new]
    summary = import_log(ws, reviewers, found, file=name, defects=defects)
    return {**summary, **summary_extra}


class _Outputs:
    """The workspace's runs as the imports need them: an entry by place or id, its NFC output."""

    def __init__(self, ws: Workspace):
        self.ws = ws
        self._runs: dict[str, list[tuple[str, str]] | None] = {}

    def rows(self, run_id: str) -> list[tuple[str, str]] | None:
        if run_id not in self._runs:
            self._runs[run_id] = ([(e.id, unicodedata.normalize("NFC", "" if o.error else (o.predicted or "")))
                                   for e, o in repo.entry_outputs(self.ws, run_id)]
                                  if repo.run_exists(self.ws, run_id) else None)
        return self._runs[run_id]

    def at(self, run_id: str, position: int) -> tuple[str, str] | str:
        rows = self.rows(run_id)
        if rows is None:
            return f"system {run_id!r} is not a run of the workspace"
        if not 1 <= position <= len(rows):
            return f"itemID {position} is not an entry of run {run_id!r} ({len(rows)} entries)"
        return rows[position - 1]

    def of(self, run_id: str, entry_id: str) -> tuple[str, str] | str:
        rows = self.rows(run_id)
        if rows is None:
            return f"model {run_id!r} is not a run of the workspace"
        text = dict(rows).get(entry_id)
        return (entry_id, text) if text is not None else f"entry {entry_id!r} is not in run {run_id!r}"


def import_appraise(ws: Workspace, path: str | Path) -> dict[str, Any]:
    """Merge Appraise's score export (``ExportSystemScoresToCSV``) as judgments, all or nothing."""
    tf = read_text(path, name=str(path))
    name = str(path)
    scores = appraise.read_scores_csv(tf.text, name)
    defects = list(tf.defects) + scores.defects
    outputs = _Outputs(ws)
    found: list[tuple[int | None, Judgment]] = []
    skipped_spans = 0
    for row in scores.rows:
        at = outputs.at(row.system, row.item_id)
        if isinstance(at, str):
            defects.append(Defect(name, row.line, at))
            continue
        entry_id, text = at
        converted = appraise.judgment_payload(row, text)
        skipped_spans += converted.skipped_spans
        if converted.problems:
            defects += [Defect(name, row.line, p) for p in converted.problems]
            continue
        found.append((row.line, Judgment(reviewer_id=row.user, run_id=row.system, entry_id=entry_id, task="A",
                                         payload=converted.payload, created_at=appraise.iso_time(row.end_time))))
    return _merge(ws, name, found, defects, {"checks_skipped": scores.skipped_checks,
                                            "spans_skipped": skipped_spans})


def import_pearmut(ws: Workspace, path: str | Path) -> dict[str, Any]:
    """Merge a Pearmut annotation log (JSONL, or the dashboard's JSON download) as judgments, all or nothing."""
    tf = read_text(path, name=str(path))
    name = str(path)
    log = pearmut.read_log(tf.text, name)
    defects = list(tf.defects) + log.defects
    outputs = _Outputs(ws)
    found: list[tuple[int | None, Judgment]] = []
    skipped_spans = 0
    for sub in log.submissions:
        line = sub.line or None
        for k, (answers, item) in enumerate(zip(sub.annotation, sub.item, strict=True), 1):
            entry_id = (item.get("mteval") or {}).get("entry_id") if isinstance(item, dict) else None
            if not isinstance(entry_id, str) or not isinstance(answers, dict):
                defects.append(Defect(name, line, f"item {k} has no mteval.entry_id (not a campaign mteval "
                                                  "exported) or no answers"))
                continue
            for run_id, answer in answers.items():
                at = outputs.of(run_id, entry_id)
                if isinstance(at, str):
                    defects.append(Defect(name, line, f"item {k}: {at}"))
                    continue
                payload, problems, skipped = pearmut.answer_payload(answer, at[1])
                skipped_spans += skipped
                if problems:
                    defects += [Defect(name, line, f"item {k}, {run_id}: {p}") for p in problems]
                    continue
                if payload:
                    found.append((line, Judgment(reviewer_id=sub.user, run_id=run_id, entry_id=entry_id, task="A",
                                                 payload=payload)))
    if not found and not defects:
        defects.append(Defect(name, None, "no annotation in the file"))
    return _merge(ws, name, found, defects, {"submissions_superseded": log.superseded,
                                            "spans_skipped": skipped_spans})
