"""Format detection and cheap previews of input files (the GUI import dialog uses both).

``detect_format(path)`` decides from the extension, then from the first bytes:
``json``, ``jsonl``, ``tsv``, ``csv``, ``text`` or ``harness-report``.
``preview(path, n)`` returns the first records without validating them, plus what kind of
file it looks like (corpus, run, report, glossary, text) and any defect met on the way.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from mteval_gui.errors import Defect
from mteval_gui.io.corpus import is_harness_report
from mteval_gui.io.jsonparse import JSONProblem, loads, parse_document
from mteval_gui.io.textfile import decode, read_bytes, read_text

CORPUS_FORMATS = ("json", "jsonl", "tsv", "csv", "text", "harness-report")
RUN_FORMATS = ("json", "jsonl", "text", "harness-report")
FORMATS = CORPUS_FORMATS
_SNIFF_BYTES = 65536


def _head(path: Path) -> str:
    data = read_bytes(path, limit=_SNIFF_BYTES)
    text, _, _ = decode(data, str(path))
    return text


def _looks_like_report(head: str) -> bool:
    return head.lstrip().startswith("{") and ('"overall"' in head or '"config"' in head) and (
        '"predicted"' in head or '"expected"' in head)


def detect_format(path: str | Path) -> str:
    """The format of ``path``: json, jsonl, tsv, csv, text or harness-report."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix in (".tsv", ".tab"):
        return "tsv"
    if suffix == ".csv":
        return "csv"
    head = _head(path)
    stripped = head.lstrip()
    if suffix == ".json":
        return "harness-report" if _looks_like_report(head) else "json"
    if stripped.startswith("["):
        return "json"
    if stripped.startswith("{"):
        lines = [ln for ln in stripped.split("\n") if ln.strip()]
        if len(lines) >= 2 and lines[1].lstrip().startswith("{"):
            try:
                json.loads(lines[0])
                return "jsonl"
            except (ValueError, RecursionError):  # the reader reports what is wrong
                pass
        return "harness-report" if _looks_like_report(head) else "json"
    first = stripped.split("\n", 1)[0].lower()
    if "\t" in first and ("source" in first or "id" in first.split("\t") or "term" in first):
        return "tsv"
    if "," in first and "source" in first.split(",") or first.startswith("id,"):
        return "csv"
    return "text"


@dataclass
class Preview:
    """The first records of a file, as plain dicts, for display before importing."""

    path: Path
    format: str
    kind: str  # corpus | run | report | glossary | text
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    total: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    defects: list[Defect] = field(default_factory=list)


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    return cols


def _kind_of(rows: list[dict[str, Any]]) -> str:
    keys = set().union(*(r.keys() for r in rows)) if rows else set()
    if "predicted" in keys and "source" not in keys:
        return "run"
    if "source" in keys:
        return "corpus"
    if "predicted" in keys:
        return "run"
    return "text"


def preview(path: str | Path, n: int = 10, fmt: str | None = None) -> Preview:
    """First ``n`` records of ``path``. Never raises for bad content (defects are listed)."""
    path = Path(path)
    fmt = fmt or detect_format(path)
    p = Preview(path, fmt, "text")
    if fmt == "jsonl":
        count = 0
        for i, raw in enumerate(read_bytes(path).splitlines(keepends=True), 1):
            text, defects, _ = decode(raw, str(path))
            p.defects.extend(Defect(d.file, i, d.message, d.column) for d in defects)
            if not text.strip():
                continue
            count += 1
            if len(p.rows) >= n:
                continue
            try:
                rec = loads(text)
            except json.JSONDecodeError as exc:
                p.defects.append(Defect(str(path), i, f"invalid JSON: {exc.msg}", exc.colno))
                continue
            except JSONProblem as exc:
                p.defects.append(Defect(str(path), i, f"invalid JSON: {exc.message}", exc.pos + 1))
                continue
            if count == 1 and isinstance(rec, dict) and ("run" in rec or "corpus" in rec) and "id" not in rec:
                p.meta = rec.get("run") or rec.get("corpus") or {}
                count -= 1
                continue
            p.rows.append(rec if isinstance(rec, dict) else {"value": rec})
        p.total = count
        p.kind = _kind_of(p.rows)
    elif fmt in ("json", "harness-report"):
        tf = read_text(path)
        parsed = parse_document(tf)
        p.defects.extend(tf.defects)
        if parsed is not None:
            data = parsed.data
            if is_harness_report(data):
                p.format, p.kind = "harness-report", "report"
                p.meta = dict(data.get("config") or {})
                p.meta["run_id"] = data.get("run_id")
                keep = ("id", "source", "expected", "predicted", "error")
                p.rows = [{k: e.get(k) for k in keep if k in e} for e in data["entries"][:n] if isinstance(e, dict)]
                p.total = len(data["entries"])
            else:
                records = None
                if isinstance(data, list):
                    records = data
                elif isinstance(data, dict):
                    for key in ("entries", "outputs"):
                        if isinstance(data.get(key), list):
                            records = data[key]
                            p.meta = {k: v for k, v in data.items() if k != key}
                            break
                if records is not None:
                    p.rows = [r if isinstance(r, dict) else {"value": r} for r in records[:n]]
                    p.total = len(records)
                    p.kind = _kind_of(p.rows)
                elif isinstance(data, dict) and data and all(isinstance(v, (list, str)) for v in data.values()):
                    p.kind = "glossary"
                    p.rows = [
                        {"term": k, "targets": v if isinstance(v, list) else [v]} for k, v in islice(data.items(), n)
                    ]
                    p.total = len(data)
    elif fmt in ("tsv", "csv"):
        tf = read_text(path)
        p.defects.extend(tf.defects)
        if fmt == "tsv":
            table = [line.split("\t") for line in tf.lines() if line.strip()]
        else:
            try:
                table = [
                    r for r in csv.reader(io.StringIO(tf.text, newline=""), strict=True) if any(c.strip() for c in r)
                ]
            except csv.Error as exc:
                p.defects.append(Defect(str(path), None, f"malformed CSV: {exc}"))
                table = []
        if table:
            header = [h.strip().lstrip("\ufeff") for h in table[0]]
            p.columns = header
            # a preview shows ragged rows as they are
            p.rows = [dict(zip(header, r, strict=False)) for r in table[1:n + 1]]
            p.total = len(table) - 1
            low = {h.lower() for h in header}
            p.kind = (
                "corpus"
                if "source" in low
                else ("run" if "predicted" in low else "glossary" if len(header) == 2 else "text")
            )
    else:
        tf = read_text(path)
        p.defects.extend(tf.defects)
        lines = tf.lines()
        p.rows = [{"line": i, "text": t} for i, t in enumerate(lines[:n], 1)]
        p.total = len(lines)
    if not p.columns:
        p.columns = _columns(p.rows)
    return p
