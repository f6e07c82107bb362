"""Content tests and cheap previews of the built-in input formats (the GUI import dialog shows them).

``detect_format(path)`` asks the format registry (:mod:`mteval_gui.io.formats`), which tries the
suffix, then the ``looks_like_*`` tests below on the first bytes.
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
from mteval_gui.io import formats
from mteval_gui.io.corpus import is_harness_report
from mteval_gui.io.jsonparse import JSONProblem, loads, parse_document
from mteval_gui.io.textfile import decode, read_bytes, read_text


def looks_like_report(head: str) -> bool:
    """A harness TestReport: a JSON object with ``overall``/``config`` and ``predicted``/``expected``."""
    return head.lstrip().startswith("{") and ('"overall"' in head or '"config"' in head) and (
        '"predicted"' in head or '"expected"' in head)


def looks_like_json(head: str) -> bool:
    return head.lstrip().startswith(("[", "{"))


def looks_like_jsonl(head: str) -> bool:
    """Two lines that start as objects, the first a complete JSON value."""
    stripped = head.lstrip()
    if not stripped.startswith("{"):
        return False
    lines = [ln for ln in stripped.split("\n") if ln.strip()]
    if len(lines) < 2 or not lines[1].lstrip().startswith("{"):
        return False
    try:
        json.loads(lines[0])
    except (ValueError, RecursionError):  # the reader reports what is wrong
        return False
    return True


def _first_line(head: str) -> str:
    return head.lstrip().split("\n", 1)[0].lower()


def looks_like_tsv(head: str) -> bool:
    first = _first_line(head)
    return "\t" in first and ("source" in first or "id" in first.split("\t") or "term" in first)


def looks_like_csv(head: str) -> bool:
    first = _first_line(head)
    return "," in first and "source" in first.split(",") or first.startswith("id,")


def detect_format(path: str | Path) -> str:
    """The format of ``path`` among the registered input formats."""
    return formats.detect_format(path)


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
    """First ``n`` records of ``path``. Never raises for bad content (defects are listed).

    A format without a preview of its own is shown as lines of text under its name.
    """
    path = Path(path)
    fmt = fmt or detect_format(path)
    spec = formats.get(fmt)
    if spec is not None and spec.preview is not None:
        p = spec.preview(path, n)
    else:
        p = text_preview(path, n)
        p.format = fmt
    if not p.columns:
        p.columns = _columns(p.rows)
    return p


# ----- the previews of the built-in formats (registered in io.builtin_formats) -----------------
def jsonl_preview(path: Path, n: int) -> Preview:
    p = Preview(path, "jsonl", "text")
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
    return p


def json_preview(path: Path, n: int) -> Preview:
    """A JSON document: a list or ``entries``/``outputs`` of records, a glossary, or a harness report."""
    p = Preview(path, "json", "text")
    tf = read_text(path)
    parsed = parse_document(tf)
    p.defects.extend(tf.defects)
    if parsed is None:
        return p
    data = parsed.data
    if is_harness_report(data):
        p.format, p.kind = "harness-report", "report"
        p.meta = dict(data.get("config") or {})
        p.meta["run_id"] = data.get("run_id")
        keep = ("id", "source", "expected", "predicted", "error")
        p.rows = [{k: e.get(k) for k in keep if k in e} for e in data["entries"][:n] if isinstance(e, dict)]
        p.total = len(data["entries"])
        return p
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
        p.rows = [{"term": k, "targets": v if isinstance(v, list) else [v]} for k, v in islice(data.items(), n)]
        p.total = len(data)
    return p


def tsv_preview(path: Path, n: int) -> Preview:
    tf = read_text(path)
    return _table_preview(Preview(path, "tsv", "text", defects=list(tf.defects)),
                          [line.split("\t") for line in tf.lines() if line.strip()], n)


def csv_preview(path: Path, n: int) -> Preview:
    tf = read_text(path)
    p = Preview(path, "csv", "text", defects=list(tf.defects))
    try:
        table = [r for r in csv.reader(io.StringIO(tf.text, newline=""), strict=True) if any(c.strip() for c in r)]
    except csv.Error as exc:
        p.defects.append(Defect(str(path), None, f"malformed CSV: {exc}"))
        table = []
    return _table_preview(p, table, n)


def _table_preview(p: Preview, table: list[list[str]], n: int) -> Preview:
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
    return p


def text_preview(path: Path, n: int) -> Preview:
    tf = read_text(path)
    lines = tf.lines()
    return Preview(path, "text", "text", rows=[{"line": i, "text": t} for i, t in enumerate(lines[:n], 1)],
                   total=len(lines), defects=list(tf.defects))
