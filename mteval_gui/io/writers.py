"""Writers: tables of entries/outputs (CSV, TSV, JSONL) and corpora/runs in importable form.

Everything written here can be read back by the readers of this package: a corpus written
with :func:`write_corpus` and a run written with :func:`write_run` re-import to the same
content. In CSV/TSV, list and object cells are written as JSON (the readers accept that).
Every file is written by :func:`mteval_gui.io.outputs.open_output` (atomic, regular files only).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mteval_gui.domain.corpus import Corpus, Entry
from mteval_gui.domain.run import Output, Run
from mteval_gui.io.outputs import open_output

TABLE_FORMATS = ("csv", "tsv", "jsonl")


def table_format(path: str | Path, fmt: str | None = None) -> str:
    """The table format for ``path``: explicit, else from the extension (default csv)."""
    if fmt:
        if fmt not in TABLE_FORMATS:
            raise ValueError(f"unknown table format {fmt!r} (one of {', '.join(TABLE_FORMATS)})")
        return fmt
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in TABLE_FORMATS else "csv"


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False) if v else ""
    return str(v)


def write_table(rows: Iterable[dict[str, Any]], path: str | Path, fmt: str | None = None,
                columns: Sequence[str] | None = None, *, inputs: Iterable[str | Path | None] = ()) -> int:
    """Write dict rows; returns the number of rows. Columns default to the union of keys."""
    rows = list(rows)
    fmt = table_format(path, fmt)
    if columns is None:
        cols: list[str] = []
        for r in rows:
            for k in r:
                if k not in cols:
                    cols.append(k)
        columns = cols
    if fmt == "jsonl":
        with open_output(path, inputs=inputs, newline="\n") as fh:
            for r in rows:
                fh.write(json.dumps({c: r[c] for c in columns if c in r}, ensure_ascii=False) + "\n")
        return len(rows)
    with open_output(path, inputs=inputs, newline="") as fh:
        if fmt == "tsv":
            fh.write("\t".join(columns) + "\n")
            for r in rows:
                cells = [_cell(r.get(c)).replace("\t", " ").replace("\r\n", " ").replace("\n", " ") for c in columns]
                fh.write("\t".join(cells) + "\n")
        else:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(columns)
            for r in rows:
                w.writerow([_cell(r.get(c)) for c in columns])
    return len(rows)


def entry_record(e: Entry) -> dict[str, Any]:
    """An entry as a flat record (only fields that carry information)."""
    d = e.model_dump(exclude_defaults=True)
    d.setdefault("reference", e.reference)
    return {"id": e.id, "source": e.source, **{k: v for k, v in d.items() if k not in ("id", "source")}}


def output_record(o: Output) -> dict[str, Any]:
    d: dict[str, Any] = {"id": o.id, "predicted": o.predicted}
    for k in ("raw_predicted", "latency_s", "cost_usd", "cached", "error"):
        v = getattr(o, k)
        if v is not None:
            d[k] = v
    if o.usage is not None:
        d["usage"] = o.usage.model_dump(exclude_none=True)
    extra = {k: v for k, v in (o.model_extra or {}).items() if k != "missing"}
    d.update(extra)
    return d


def write_corpus(corpus: Corpus, path: str | Path) -> None:
    """A corpus as JSONL (first line ``{"corpus": {...}}``) or JSON (by extension)."""
    path = Path(path)
    meta = corpus.model_dump(exclude={"entries"}, exclude_none=True)
    meta["language_pair"] = corpus.language_pair.model_dump()
    if path.suffix.lower() == ".json":
        doc = {**meta, "entries": [entry_record(e) for e in corpus.entries]}
        with open_output(path) as fh:
            fh.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        return
    with open_output(path, newline="\n") as fh:
        fh.write(json.dumps({"corpus": meta}, ensure_ascii=False) + "\n")
        for e in corpus.entries:
            fh.write(json.dumps(entry_record(e), ensure_ascii=False) + "\n")


def write_run(run: Run, path: str | Path, *, include_missing: bool = False) -> None:
    """A run as JSONL with a ``{"run": {...}}`` first line (missing outputs left out by default)."""
    meta = run.meta.model_dump(mode="json", exclude_none=True)
    with open_output(path, newline="\n") as fh:
        fh.write(json.dumps({"run": meta}, ensure_ascii=False) + "\n")
        for o in run.outputs:
            if not include_missing and (o.model_extra or {}).get("missing"):
                continue
            fh.write(json.dumps(output_record(o), ensure_ascii=False) + "\n")
