"""Exports: run cards (one validated writer), per-entry results, entries tables, judgments, allowlists.

Every export the GUI offers is the same function ``mteval export …`` calls:

- :func:`export_run_card` writes the stored card with the speaker-review status of now
  (:func:`~mteval_gui.app.review_status.read_run_card`), checked whole against the shipped JSON
  Schema and the model; a card that does not conform is never written
  (:class:`~mteval_gui.scoring.runcard.RunCardInvalid`).
- :func:`export_results` writes the per-entry results of a run card as CSV.
- :func:`entry_rows` / :func:`export_entries` write a corpus's entries, or a run's entries
  with its outputs and every stored per-entry value.
- :func:`export_judgments` writes reviewers and the complete judgment log (lossless).

Every file is written by :mod:`mteval_gui.io.outputs` (atomically, and only to a regular file or a
new path: folders, special files and the workspace database are refused with ``PATH: refused: …``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mteval_gui.app.review_status import read_run_card
from mteval_gui.domain.run import RunMeta
from mteval_gui.domain.runcard import RunCard
from mteval_gui.errors import MtevalError
from mteval_gui.io.judgments import write_allowlist, write_judgments
from mteval_gui.io.outputs import write_output
from mteval_gui.io.writers import entry_record, output_record, write_table
from mteval_gui.scoring.runcard import (
    RESULT_CSV_COLUMNS,
    RunCardInvalid,
    ensure_valid,
    results_table,
    run_card_json,
    save_run_card,
)
from mteval_gui.store import repo
from mteval_gui.store.benchmarks import export_ratings
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import export_log
from mteval_gui.store.results import entry_details, entry_values_bulk

__all__ = ["current_run_card", "save_run_card", "export_run_card", "export_results", "entry_rows", "export_entries",
           "export_table", "export_judgments", "export_allowlist", "write_export_file", "entry_report",
           "RunCardInvalid"]


def current_run_card(ws: Workspace, run_id: str) -> RunCard:
    """The stored run card with the speaker-review status of now (the stored card is not changed);
    a card of an older version gets the harness fingerprint."""
    from mteval_gui.scoring.assembly import with_harness_fingerprint

    if not repo.run_exists(ws, run_id):
        raise MtevalError(f"no run {run_id!r} in the workspace {ws.path}")
    read = read_run_card(ws, run_id)
    if read is None:
        raise MtevalError(f"run {run_id!r} has not been scored yet: run `mteval score {run_id}` first")
    return with_harness_fingerprint(read.card, RunMeta.model_validate(repo.get_run_info(ws, run_id)["meta"]
                                                                      | {"run_id": run_id}))


def export_run_card(ws: Workspace, run_id: str, path: str | Path) -> Path:
    """Write the run card of ``run_id`` after checking it against the schema (never a card that fails)."""
    card = current_run_card(ws, run_id)
    return write_output(path, run_card_json(ensure_valid(card)))


def export_results(ws: Workspace, run_id: str, path: str | Path) -> int:
    """Per-entry results of a scored run as CSV; returns the number of rows."""
    rows = results_table(current_run_card(ws, run_id))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(RESULT_CSV_COLUMNS), lineterminator="\r\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in RESULT_CSV_COLUMNS})
    write_output(path, buf.getvalue())
    return len(rows)


def entry_rows(ws: Workspace, target: str) -> tuple[list[dict[str, Any]], str]:
    """Rows of a corpus's entries (kind ``corpus``), or of a run's entries with outputs and scores (``run``)."""
    if repo.corpus_exists(ws, target):
        return [entry_record(e) for e in repo.get_entries(ws, target)], "corpus"
    if not repo.run_exists(ws, target):
        raise MtevalError(f"no corpus or run {target!r} in the workspace")
    values = entry_values_bulk(ws, target)
    rows = []
    for e, o in repo.entry_outputs(ws, target):
        usage = o.usage
        row: dict[str, Any] = {
            "id": e.id, "source": e.source, "reference": e.reference, "predicted": o.predicted,
            "error": o.error, "missing": bool((o.model_extra or {}).get("missing")), "difficulty": e.difficulty,
            "raw_predicted": o.raw_predicted, "latency_s": o.latency_s, "cost_usd": o.cost_usd,
            "prompt_tokens": usage.prompt_tokens if usage else None,
            "completion_tokens": usage.completion_tokens if usage else None,
        }
        for mid in sorted(values):
            row[mid] = values[mid].get(e.id)
        rows.append(row)
    return rows, "run"


def export_entries(ws: Workspace, target: str, path: str | Path, fmt: str | None = None) -> tuple[int, str]:
    rows, kind = entry_rows(ws, target)
    return write_table(rows, path, fmt), kind


def export_table(rows: Sequence[dict[str, Any]], path: str | Path, *, columns: Sequence[str] | None = None,
                 fmt: str | None = None) -> int:
    """Write rows shown by a view (CSV, TSV or JSON lines by the file name)."""
    return write_table(list(rows), path, fmt, columns=list(columns) if columns is not None else None)


def export_judgments(ws: Workspace, path: str | Path, fmt: str | None = None,
                     run_ids: Sequence[str] | None = None) -> tuple[Path, int, int]:
    """Reviewers and the complete judgment log (lossless, re-importable) of ``run_ids`` (all when None).

    The whole workspace's export also holds every version of the speakers' ratings of benchmark
    responses (and the reviewers who made them). Returns (path written, judgment versions, reviewers)."""
    reviewers, judgments = export_log(ws, run_ids)
    ratings = export_ratings(ws) if run_ids is None else []
    out = write_judgments(path, reviewers, judgments, fmt=fmt,
                          scope="all" if run_ids is None else ",".join(run_ids), benchmark=ratings)
    return out, len(judgments), len(reviewers)


def write_export_file(path: str | Path, data: bytes | str) -> Path:
    """Write an export made elsewhere (a chart image) the way every export is written."""
    return write_output(path, data)


def export_allowlist(rows: Sequence[dict[str, Any]], path: str | Path, fmt: str | None = None) -> Path:
    """Words speakers accepted but the analyzer rejected (Task C), as a TSV allowlist or JSONL test cases."""
    return write_allowlist(path, rows, fmt=fmt)


def entry_report(ws: Workspace, corpus_id: str, entry_id: str, run_id: str | None = None) -> dict[str, Any]:
    """An entry (and one run's output and per-entry values for it) as plain data (``mteval show entry``)."""
    entry = repo.get_entry(ws, corpus_id, entry_id)
    data: dict[str, Any] = {"corpus": corpus_id, "entry": entry_record(entry)}
    if run_id:
        corpus_of_run = repo.get_run_info(ws, run_id)["corpus_id"]
        if corpus_of_run != corpus_id:
            raise MtevalError(f"run {run_id!r} belongs to corpus {corpus_of_run!r}, not {corpus_id!r}")
        out = repo.get_output(ws, run_id, entry_id)
        data["run"] = run_id
        data["output"] = output_record(out)
        data["output"]["missing"] = bool((out.model_extra or {}).get("missing"))
        data["scores"] = {mid: d.get("value") for mid, d in sorted(entry_details(ws, run_id, entry_id).items())}
    return data
