"""Run readers (SPEC §1.2): JSONL, JSON, hypothesis text files and harness reports.

- JSONL: one output per line (``id``, ``predicted``, optional ``raw_predicted``,
  ``latency_s``, ``cost_usd``, ``cached``, ``usage``, ``error``); an optional first line
  ``{"run": {...metadata}}``.
- JSON: a list of outputs, or an object with ``outputs`` (or ``entries``) and the metadata
  under ``run`` / ``meta`` or at the top level.
- Metadata without ``elapsed_seconds`` but with ``started_at`` and ``ended_at`` (ISO 8601)
  get ``elapsed_seconds`` = their difference (the speed metrics need it); a given
  ``elapsed_seconds`` is never replaced.
- Text: one hypothesis per line, aligned with the corpus order (needs the corpus' ids).
- Harness TestReport: ``entries[].predicted``; the report's configuration becomes the run
  metadata and its ``overall`` block is kept for reference.

Checking ids against the corpus (unknown ids are errors, missing ids become empty
outputs) is done by the workspace when the run is added, with the lines found here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.packed import Packed, packed_or_list
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import Defect, InputError
from mteval_gui.io import formats
from mteval_gui.io.common import Loaded, default_name
from mteval_gui.io.corpus import is_harness_report
from mteval_gui.io.formats import Parsed, Source
from mteval_gui.io.jsonparse import BAD, parse_document, parse_jsonl
from mteval_gui.io.records import (
    id_problem,
    make_output,
    nfc,
    nfc_deep,
    output_from_record,
    plain_outputs,
    record_id,
)
from mteval_gui.io.textfile import DefectList, TextFile, read_text

_CORPUS_HINT_KEYS = ("corpus_id", "dataset_id", "corpus")


def _meta(raw: Any, dl: DefectList, line: int | None, hints: dict[str, Any]) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        dl.add(line, "run metadata must be an object")
        return {}
    raw = nfc_deep(dict(raw))
    for k in _CORPUS_HINT_KEYS:
        v = raw.get(k)
        if isinstance(v, str) and v:
            hints.setdefault("corpus_id", v)
    try:
        probe = RunMeta.model_validate({"run_id": "x", **{k: v for k, v in raw.items() if k != "run_id"}})
    except ValidationError as exc:
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()))
            dl.add(line, f"run metadata {loc}: {err.get('msg', 'invalid')}")
        return {}
    rid = raw.get("run_id")
    if rid is not None and not isinstance(rid, (str, int)):
        dl.add(line, "run metadata run_id must be a string")
        rid = None
    elif rid is not None and record_id(rid) is None:
        dl.add(line, f"run metadata {id_problem(rid, 'run_id')}")
        rid = None
    out = probe.model_dump(exclude_unset=True)
    out.pop("run_id", None)
    if rid is not None:
        out["run_id"] = str(rid)
    if out.get("elapsed_seconds") is None:
        elapsed = _elapsed(out.get("started_at"), out.get("ended_at"), dl, line)
        if elapsed is not None:
            out["elapsed_seconds"] = elapsed
    return out


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def _elapsed(started: Any, ended: Any, dl: DefectList, line: int | None) -> float | None:
    """``elapsed_seconds`` from ``started_at`` and ``ended_at`` (ISO 8601) when the metadata give both.

    Either missing: None (nothing to derive). Given but not ISO 8601 times, one with a time zone
    and the other without, or an end before the start: a defect naming the fields.
    """
    if started is None or ended is None:
        return None
    start, end = _time(started), _time(ended)
    for name, raw, parsed in (("started_at", started, start), ("ended_at", ended, end)):
        if parsed is None:
            dl.add(line, f"run metadata {name} must be an ISO 8601 time (2026-12-02T09:15:00Z), got {raw!r}")
    if start is None or end is None:
        return None
    if (start.tzinfo is None) != (end.tzinfo is None):
        dl.add(line, "run metadata started_at and ended_at must both give a time zone or both not")
        return None
    seconds = (end - start).total_seconds()
    if seconds < 0:
        dl.add(line, f"run metadata ended_at ({ended}) is before started_at ({started})")
        return None
    return seconds


def _collect_outputs(records: Sequence[tuple[int | None, Any]], dl: DefectList, plain_checked: bool = False
                     ) -> tuple[list[Output], dict[str, int]]:
    plain = None if plain_checked else plain_outputs(list(records))
    if plain is not None:  # the whole file checked a column at a time
        return plain
    outputs: list[Output] = []
    lines: dict[str, int] = {}
    for line, rec in records:
        o = output_from_record(rec, dl, line)
        if o is None:
            continue
        if o.id in lines:
            dl.add(line, f"duplicate id {o.id!r} (first at line {lines[o.id]})")
            continue
        lines[o.id] = line or 0
        outputs.append(o)
    return outputs, lines


def _read_jsonl(
    tf: TextFile, dl: DefectList, hints: dict[str, Any], columns: bool = False
) -> tuple[dict[str, Any], list[Output] | PlainColumns[Output], dict[str, int]]:
    meta: dict[str, Any] = {}
    parsed = parse_jsonl(tf, dl)
    first: Any = parsed[0][1] if parsed else BAD
    head = isinstance(first, dict) and "run" in first and "id" not in first
    if head:
        meta = _meta(first["run"], dl, parsed[0][0], hints)
    records = [p for p in islice(parsed, 1 if head else 0, None) if p[1] is not BAD]
    if columns:
        plain = plain_outputs(records, columns=True)
        if plain is not None:
            return meta, plain[0], plain[1]
    outputs, lines = _collect_outputs(records, dl, plain_checked=columns)
    return meta, outputs, lines


def _report_meta(data: dict[str, Any], hints: dict[str, Any]) -> dict[str, Any]:
    found = data.get("config")
    config: dict[str, Any] = found if isinstance(found, dict) else {}
    meta: dict[str, Any] = {}
    if data.get("run_id"):
        meta["run_id"] = str(data["run_id"])
    model = config.get("_model_id") or config.get("model")
    if config.get("model"):
        meta["model_slug"] = str(config["model"])
    if model:
        meta["model_id"] = str(model)
    if config.get("prompt_version"):
        meta["condition"] = str(config["prompt_version"])
    temp = config.get("_effective_temperature", config.get("temperature"))
    if isinstance(temp, (int, float)) and not isinstance(temp, bool):
        meta["temperature"] = float(temp)
    # a run log's timing and prompt hash, written beside the report by ``mteval export harness-report``
    elapsed = data.get("elapsed_s")
    if isinstance(elapsed, (int, float)) and not isinstance(elapsed, bool):
        meta["elapsed_seconds"] = float(elapsed)
    if isinstance(data.get("timestamp_start"), str):
        meta["started_at"] = data["timestamp_start"]
    if isinstance(data.get("system_prompt_sha256"), str):
        meta["system_prompt_sha256"] = data["system_prompt_sha256"]
    meta["harness_config"] = nfc_deep(config)
    if isinstance(data.get("overall"), dict):
        meta["harness_overall"] = nfc_deep(data["overall"])
    if config.get("corpus_path"):
        hints["corpus_path"] = str(config["corpus_path"])
    return meta


def _report_outputs(
    data: dict[str, Any], item_lines: list[int] | None, dl: DefectList
) -> tuple[list[Output], dict[str, int], dict[str, str]]:
    keep = ("id", "predicted", "raw_predicted", "latency_s", "cost_usd", "cached", "usage", "error", "tool_call_count")
    records = []
    sources: dict[str, str] = {}
    for rec in data["entries"]:
        if isinstance(rec, dict):
            if isinstance(rec.get("source"), str) and rec.get("id") is not None:
                sources[str(rec["id"])] = nfc(rec["source"])
            rec = {k: rec[k] for k in keep if k in rec and rec[k] is not None}
        records.append(rec)
    lines_of: Sequence[int | None] = item_lines or [None] * len(records)
    outputs, lines = _collect_outputs(list(zip(lines_of, records, strict=True)), dl)
    return outputs, lines, sources


def _read_json(
    tf: TextFile, dl: DefectList, hints: dict[str, Any]
) -> tuple[dict[str, Any], list[Output], dict[str, int], str]:
    parsed = parse_document(tf, key="outputs")
    if parsed is not None and isinstance(parsed.data, dict) and "outputs" not in parsed.data:
        parsed = parse_document(tf, key="entries")
    dl.extend_defects(tf.defects)
    if parsed is None:
        dl.raise_if_any()
        raise AssertionError("unreachable")
    data = parsed.data
    meta: dict[str, Any]
    if is_harness_report(data):
        if "outputs" in data:  # the item lines found are those of 'outputs'; a report's records are its 'entries'
            parsed = parse_document(tf, key="entries")
            if parsed is None:
                raise AssertionError("unreachable: the same text was decoded above")
        meta = _report_meta(data, hints)
        outputs, lines, sources = _report_outputs(data, parsed.item_lines, dl)
        hints["sources"] = sources
        return meta, outputs, lines, "harness-report"
    records: list[Any]
    if isinstance(data, list):
        meta = {}
        records = data
    elif isinstance(data, dict) and isinstance(data.get("outputs", data.get("entries")), list):
        records = data["outputs"] if "outputs" in data else data["entries"]
        head = data.get("run", data.get("meta"))
        if head is None:
            head = {k: v for k, v in data.items() if k not in ("outputs", "entries")}
        meta = _meta(head, dl, 1, hints)
    else:
        dl.add(1, "expected a list of outputs or an object with an 'outputs' list")
        dl.raise_if_any()
        raise AssertionError("unreachable")
    item_lines: Sequence[int | None] = parsed.item_lines or [None] * len(records)
    outputs, lines = _collect_outputs(list(zip(item_lines, records, strict=True)), dl)
    return meta, outputs, lines, "json"


def _read_text(tf: TextFile, dl: DefectList, entry_ids: Sequence[str] | None,
               packed: bool = False) -> tuple[list[Output] | Packed[Output], dict[str, int]]:
    if entry_ids is None:
        raise InputError(
            Defect(tf.name, None, "a hypothesis text file is aligned with a corpus: choose the corpus it belongs to")
        )
    hyps = tf.lines()
    if len(hyps) != len(entry_ids):
        first_unpaired = min(len(hyps), len(entry_ids)) + 1
        dl.add(
            first_unpaired,
            f"line-count mismatch: the file has {len(hyps)} lines but the corpus has {len(entry_ids)} entries",
        )
        return [], {}
    outputs: list[Output] | Packed[Output] = packed_or_list(packed)
    for eid, h in zip(entry_ids, hyps, strict=True):
        outputs.append(make_output(eid, nfc(h)))
    return outputs, {eid: i for i, eid in enumerate(entry_ids, 1)}


def read_run(
    path: str | Path,
    fmt: str | None = None,
    *,
    entry_ids: Sequence[str] | None = None,
    run_id: str | None = None,
    corpus_id: str | None = None,
    model_slug: str | None = None,
    packed: bool = False,
    columns: bool = False,
) -> Loaded[Run]:
    """Read a run file. ``entry_ids`` (corpus order) is needed for hypothesis text files.

    ``packed``: the outputs are a :class:`~mteval_gui.domain.packed.Packed` sequence, packed as
    they are read by the readers that can (a hypothesis text file), after reading by the others.
    ``columns``: a JSON Lines file of plain outputs gives them as
    :class:`~mteval_gui.domain.columns.PlainColumns` (for the workspace's importer); other files
    give a list.

    ``hints`` of the result may hold ``corpus_id`` (named by the file), ``declared_run_id``
    (the run id written in the file), and for harness reports ``corpus_path`` and ``sources``
    (entry id -> source text).
    """
    return _read_run(path, fmt, entry_ids=entry_ids, run_id=run_id, corpus_id=corpus_id, model_slug=model_slug,
                     packed=packed, columns=columns)


def _read_run(path: str | Path, fmt: str | None, *, entry_ids: Sequence[str] | None, run_id: str | None,
              corpus_id: str | None, model_slug: str | None, packed: bool = False,
              columns: bool = False) -> Loaded[Run]:
    path = Path(path)
    fmt = fmt or formats.detect_format(path)
    spec = formats.get(fmt)
    if spec is None or spec.run is None:
        choices = ", ".join(formats.names("run"))
        raise InputError(Defect(str(path), None, f"cannot read a run from format {fmt!r} (one of: {choices})"))
    tf = read_text(path)
    dl = DefectList(tf.name)
    dl.extend_defects(tf.defects)
    for option, raw in (("--run-id", run_id), ("--corpus", corpus_id), ("--model-slug", model_slug)):
        if raw is not None and record_id(raw) is None:
            dl.add(None, f"{option}: {id_problem(raw, 'the ' + option.lstrip('-'))}")
    src = Source(path, tf, dl, entry_ids=entry_ids, packed=packed, columns=columns and not packed)
    parsed = spec.run(src)
    if packed and not isinstance(parsed.records, Packed):
        parsed.records = Packed.pack(parsed.records)
    meta, outputs, lines, hints = parsed.meta, parsed.records, parsed.lines, src.hints
    fmt = parsed.format or fmt
    declared = meta.get("run_id")
    if declared is not None and record_id(declared) is None:
        dl.add(1, f"run metadata {id_problem(declared, 'run_id')}")
        meta.pop("run_id")
    if not outputs and not dl:
        dl.add(None, "no outputs found")
    dl.raise_if_any()
    if meta.get("run_id"):
        hints["declared_run_id"] = meta["run_id"]
    if run_id:
        meta["run_id"] = run_id
    meta.setdefault("run_id", default_name(path))
    if model_slug:
        meta["model_slug"] = model_slug
    run = Run(meta=RunMeta.model_validate(meta), corpus_id=corpus_id or hints.get("corpus_id") or "", outputs=[])
    if isinstance(outputs, (Packed, PlainColumns)):  # held in place of the list (not validated again)
        run = run.model_copy(update={"outputs": outputs})
    else:
        run.outputs = outputs
    return Loaded(run, fmt, src.warnings, lines, hints)


# ----- the run readers of the built-in formats (registered in io.builtin_formats) --------------
def jsonl_run(src: Source) -> Parsed[Output]:
    return Parsed(*_read_jsonl(src.text, src.defects, src.hints, src.columns))


def json_run(src: Source) -> Parsed[Output]:
    """JSON outputs, or the outputs of a harness report (``format`` tells which)."""
    meta, outputs, lines, fmt = _read_json(src.text, src.defects, src.hints)
    return Parsed(meta, outputs, lines, fmt)


def text_run(src: Source) -> Parsed[Output]:
    """One hypothesis per line in corpus order; the system is named after the file by default."""
    outputs, lines = _read_text(src.text, src.defects, src.entry_ids, src.packed)
    return Parsed({"model_slug": default_name(src.path)}, outputs, lines)
