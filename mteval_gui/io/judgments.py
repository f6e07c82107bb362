"""Judgment files (SPEC §1.3, §9): export and import of reviewers and the judgment log, CSV and JSON.

An export holds every reviewer and every version of every judgment (undone ones included)
with its ``judgment_id``, ``version``, ``superseded_by`` and ``undone`` state, so importing it
into another workspace rebuilds the same log: the round trip is lossless.

**JSON** (``.json``)::

    {"format": "mteval-judgments/1", "exported_at": "...",
     "reviewers": [{"reviewer_id", "name", "dialect", "languages", "consent_scope", "created_at"}, ...],
     "judgments": [{"judgment_id", "reviewer_id", "run_id", "entry_id", "task", "adequacy", "fluency",
                    "note", "flagged", "payload", "version", "created_at", "superseded_by", "undone"}, ...]}

A bare JSON list is read as a list of judgments.

**CSV** (``.csv``, UTF-8, header row): one row per reviewer (``record`` = ``reviewer``) and per
judgment (``record`` = ``judgment``, the default when the column is absent) with the columns
of :data:`CSV_COLUMNS`; ``languages`` is a JSON list (``|``-separated is accepted) and
``payload`` a JSON object. For sheets filled in by hand, the payload fields ``word``,
``valid``, ``kind``, ``same_meaning``, ``natural``, ``classes`` (``|``-separated), ``decision``,
``tier``, ``correction`` and ``esa_score`` (the annotator's direct 0-100 ESA score) may also be
given as columns. Error spans (``payload.spans``, a list of
``{"start", "end", "severity", "category"}``) and corrections travel in the payload like every
other answer, so they are versioned and round-trip with the rest.

**Benchmark ratings.** A speaker's rating of one response of a stored benchmark run (e.g. an
ÈwéBench test) is a record of its own kind: in JSON an item of ``judgments`` with
``"kind": "benchmark"`` and the fields ``judgment_id, reviewer_id, suite, bench_run_id, test_id,
adequacy, fluency, note, version, created_at, superseded_by``; in CSV a row with ``record`` =
``benchmark`` and the columns ``suite``, ``bench_run_id`` and ``test_id`` (written only when the
file holds benchmark ratings).

Rows without ``judgment_id`` are new judgments (recorded in file order on import). Reading
checks types and ranges; the workspace checks references (unknown reviewer, run or entry)
and answers. Every problem is reported as ``file:line: message``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from mteval_gui.domain.judgments import TASKS, BenchmarkJudgment, Judgment, Reviewer, Task
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.common import csv_message, csv_rows
from mteval_gui.io.jsonparse import INT64_MAX, loads_cell, parse_document
from mteval_gui.io.langcodes import language_code
from mteval_gui.io.outputs import write_output
from mteval_gui.io.records import MAX_ID_LENGTH
from mteval_gui.io.textfile import TextFile, read_text

FORMAT = "mteval-judgments/1"
REVIEWER_FIELDS = ("reviewer_id", "name", "dialect", "languages", "consent_scope", "created_at")
JUDGMENT_FIELDS = (
    "judgment_id", "reviewer_id", "run_id", "entry_id", "task", "adequacy", "fluency", "note", "flagged",
    "payload", "version", "created_at", "superseded_by", "undone",
)
CSV_COLUMNS = (
    "record", "reviewer_id", "name", "dialect", "languages", "consent_scope", "judgment_id", "run_id", "entry_id",
    "task", "adequacy", "fluency", "note", "flagged", "payload", "version", "created_at", "superseded_by", "undone",
)
BENCHMARK_FIELDS = (
    "judgment_id", "reviewer_id", "suite", "bench_run_id", "test_id", "adequacy", "fluency", "note", "version",
    "created_at", "superseded_by",
)
BENCHMARK_KIND = "benchmark"
# CSV columns of benchmark ratings only (added after CSV_COLUMNS when a file holds some)
BENCHMARK_COLUMNS = ("suite", "bench_run_id", "test_id")
PAYLOAD_COLUMNS = ("word", "valid", "kind", "same_meaning", "natural", "classes", "decision", "tier", "correction",
                   "esa_score")
_TOP_KEYS = {"format", "exported_at", "scope", "reviewers", "judgments"}


@dataclass
class JudgmentFile:
    """What was read from a judgment file: items with their line numbers, and the defects found."""

    name: str
    reviewers: list[tuple[int | None, Reviewer]] = field(default_factory=list)
    judgments: list[tuple[int | None, Judgment]] = field(default_factory=list)
    benchmark: list[tuple[int | None, BenchmarkJudgment]] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)


def file_format(path: str | Path, fmt: str | None = None) -> str:
    fmt = fmt.lower() if fmt else Path(path).suffix.lower().lstrip(".")
    if fmt not in ("csv", "json"):
        raise InputError(Defect(str(path), None, "unknown judgment file format: use .csv or .json (or --format)"))
    return fmt


# --------------------------------------------------------------------------- writing


def _atomic_write(path: Path, text: str) -> None:
    write_output(path, text)  # atomic; folders, special files and workspace databases are refused


def reviewer_json(r: Reviewer) -> dict[str, Any]:
    return {k: getattr(r, k) for k in REVIEWER_FIELDS}


def judgment_json(j: Judgment) -> dict[str, Any]:
    return {k: getattr(j, k) for k in JUDGMENT_FIELDS}


def benchmark_json(b: BenchmarkJudgment) -> dict[str, Any]:
    return {"kind": BENCHMARK_KIND, **{k: getattr(b, k) for k in BENCHMARK_FIELDS}}


def dumps_json(reviewers: Sequence[Reviewer], judgments: Sequence[Judgment], scope: str | None = None,
               benchmark: Sequence[BenchmarkJudgment] = ()) -> str:
    """The JSON export: one reviewer or judgment per line, UTF-8 text (not escaped)."""
    def array(items: list[dict[str, Any]]) -> str:
        if not items:
            return "[]"
        return "[\n" + ",\n".join("    " + json.dumps(x, ensure_ascii=False, sort_keys=False, allow_nan=False)
                                   for x in items) + "\n  ]"

    head = {"format": FORMAT, "exported_at": datetime.now(UTC).isoformat(timespec="seconds")}
    if scope is not None:
        head["scope"] = scope
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    lines.append(f'  "reviewers": {array([reviewer_json(r) for r in reviewers])},')
    items = [judgment_json(j) for j in judgments] + [benchmark_json(b) for b in benchmark]
    lines.append(f'  "judgments": {array(items)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    return str(value)


def dumps_csv(reviewers: Sequence[Reviewer], judgments: Sequence[Judgment],
              benchmark: Sequence[BenchmarkJudgment] = ()) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    columns = CSV_COLUMNS + (BENCHMARK_COLUMNS if benchmark else ())
    w.writerow(columns)
    for r in reviewers:
        row = {"record": "reviewer", **reviewer_json(r)}
        w.writerow([_cell(row.get(c)) for c in columns])
    for j in judgments:
        row = {"record": "judgment", **judgment_json(j)}
        w.writerow([_cell(row.get(c)) for c in columns])
    for b in benchmark:
        row = {**{k: getattr(b, k) for k in BENCHMARK_FIELDS}, "record": BENCHMARK_KIND}
        w.writerow([_cell(row.get(c)) for c in columns])
    return buf.getvalue()


def write_judgments(
    path: str | Path, reviewers: Sequence[Reviewer], judgments: Sequence[Judgment], *,
    fmt: str | None = None, scope: str | None = None, benchmark: Sequence[BenchmarkJudgment] = (),
) -> Path:
    """Write an export (format from ``fmt`` or the file suffix), atomically; ``benchmark``: speakers'
    ratings of benchmark responses."""
    p = Path(path)
    kind = file_format(p, fmt)
    text = (dumps_csv(reviewers, judgments, benchmark) if kind == "csv"
            else dumps_json(reviewers, judgments, scope, benchmark))
    _atomic_write(p, text)
    return p


ALLOWLIST_COLUMNS = ("word", "kind", "occurrences", "raters", "run_id", "entry_id")


def write_allowlist(path: str | Path, rows: Iterable[dict[str, Any]], *, fmt: str | None = None) -> Path:
    """Words speakers accepted but the analyzer rejected.

    ``.tsv``: an allowlist with the columns of :data:`ALLOWLIST_COLUMNS`. ``.jsonl``: test cases
    for the analyzer, one ``{"word", "expect": "accept", "kind", "run_id", "entry_id", ...}`` per line.
    """
    p = Path(path)
    kind = (fmt or p.suffix.lstrip(".")).lower()
    rows = list(rows)
    if kind == "tsv":
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow(ALLOWLIST_COLUMNS)
        for r in rows:
            w.writerow([_cell(r.get(c)) for c in ALLOWLIST_COLUMNS])
        text = buf.getvalue()
    elif kind == "jsonl":
        text = "".join(
            json.dumps(
                {"word": r["word"], "expect": "accept", **{k: r.get(k) for k in ALLOWLIST_COLUMNS[1:]}},
                ensure_ascii=False,
            )
            + "\n"
            for r in rows
        )
    else:
        raise InputError(Defect(str(p), None, "unknown allowlist format: use .tsv or .jsonl"))
    _atomic_write(p, text)
    return p


# --------------------------------------------------------------------------- reading


class _Row:
    """Typed field extraction for one record, collecting defects."""

    def __init__(self, name: str, line: int | None, defects: list[Defect]):
        self.name, self.line, self.defects = name, line, defects
        self.ok = True

    def bad(self, message: str) -> None:
        self.defects.append(Defect(self.name, self.line, message))
        self.ok = False

    def text(self, data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
        v = data.get(key)
        is_id = key in ("entry_id", "run_id", "reviewer_id")
        if isinstance(v, int) and not isinstance(v, bool) and is_id:
            v = str(v)
        if v is None or (isinstance(v, str) and v == "" and required):
            if required:
                self.bad(f"missing {key}")
            return None
        if not isinstance(v, str):
            self.bad(f"{key} must be text, not {type(v).__name__}")
            return None
        if is_id and len(v.strip()) > MAX_ID_LENGTH:
            self.bad(f"{key} is {len(v.strip())} characters long (at most {MAX_ID_LENGTH})")
            return None
        return v

    def integer(self, data: dict[str, Any], key: str, lo: int | None = None, hi: int | None = None) -> int | None:
        v = data.get(key)
        if v is None:
            return None
        if isinstance(v, str):
            s = v.strip()
            if len(s) > 20 and s.lstrip("+-").isdigit():
                self.bad(f"{key} is a {len(s.lstrip('+-'))}-digit number (at most 64 bits)")
                return None
            try:
                v = int(s)
            except ValueError:
                self.bad(f"{key} {s[:40]!r} is not a whole number")
                return None
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            else:
                self.bad(f"{key} {v!r} is not a whole number")
                return None
        if v > INT64_MAX or v < -INT64_MAX - 1:
            self.bad(f"{key} {v} is out of range (at most 64 bits)")
            return None
        if lo is not None and hi is not None and not lo <= v <= hi:
            self.bad(f"{key} {v} is out of range {lo}-{hi}")
            return None
        if lo is not None and hi is None and v < lo:
            self.bad(f"{key} {v} must be at least {lo}")
            return None
        return v

    def boolean(self, data: dict[str, Any], key: str) -> bool:
        v = data.get(key)
        if v is None:
            return False
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and v in (0, 1):
            return bool(v)
        if isinstance(v, str) and v.strip().lower() in ("0", "1", "true", "false", "yes", "no", ""):
            return v.strip().lower() in ("1", "true", "yes")
        self.bad(f"{key} {v!r} is not a yes/no value (use 1 or 0)")
        return False

    def mapping(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        v = data.get(key)
        if v is None:
            return {}
        if isinstance(v, str):
            try:
                v = loads_cell(v)
            except ValueError as exc:
                self.bad(f"{key} is not valid JSON: {exc}")
                return {}
        if not isinstance(v, dict):
            self.bad(f"{key} must be a JSON object")
            return {}
        return v

    def string_list(self, data: dict[str, Any], key: str) -> list[str]:
        v = data.get(key)
        if v is None:
            return []
        if isinstance(v, str):
            s = v.strip()
            if s.startswith("["):
                try:
                    v = loads_cell(s)
                except ValueError as exc:
                    self.bad(f"{key} is not a valid JSON list: {exc}")
                    return []
            else:
                return [x.strip() for x in s.split("|") if x.strip()]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.bad(f"{key} must be a list of text values")
            return []
        return list(v)


def _reviewer(data: dict[str, Any], row: _Row) -> Reviewer | None:
    unknown = sorted(set(data) - set(REVIEWER_FIELDS))
    if unknown:
        row.bad(f"unknown reviewer field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    rid = row.text(data, "reviewer_id", required=True)
    name = row.text(data, "name", required=True)
    dialect = row.text(data, "dialect")
    scope = row.text(data, "consent_scope")
    created = row.text(data, "created_at")
    languages: list[str] = []
    for code in row.string_list(data, "languages"):
        checked, problem = language_code(code)
        if checked is None:
            row.bad(f"languages: {problem}")
        else:
            languages.append(checked)
    if not row.ok or rid is None or name is None:
        return None
    return Reviewer(reviewer_id=rid, name=name, dialect=dialect or None, languages=languages,
                    consent_scope=scope or None, created_at=created or None)


def _rating_fields(data: dict[str, Any], row: _Row) -> dict[str, Any]:
    """The fields a judgment and a benchmark rating share: id, ratings, note, time, successor."""
    return {
        "judgment_id": row.integer(data, "judgment_id", 1),
        "adequacy": row.integer(data, "adequacy", 1, 5),
        "fluency": row.integer(data, "fluency", 1, 5),
        "note": row.text(data, "note"),
        "created_at": row.text(data, "created_at") or None,
        "superseded_by": row.integer(data, "superseded_by", 1),
    }


def _judgment(data: dict[str, Any], row: _Row) -> Judgment | None:
    unknown = sorted(set(data) - set(JUDGMENT_FIELDS))
    if unknown:
        row.bad(f"unknown judgment field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    task = data.get("task")
    task = "A" if task in (None, "") else task
    if task not in TASKS:
        row.bad(f"task {task!r} is not one of {', '.join(TASKS)}")
    rid = row.text(data, "reviewer_id", required=True)
    run = row.text(data, "run_id", required=True)
    entry = row.text(data, "entry_id")
    fields: dict[str, Any] = {**_rating_fields(data, row), "flagged": row.boolean(data, "flagged"),
                              "payload": row.mapping(data, "payload"), "undone": row.boolean(data, "undone")}
    version = row.integer(data, "version", 1)
    if not row.ok or rid is None or run is None:
        return None
    return Judgment(
        reviewer_id=rid, run_id=run, entry_id=entry or None, task=cast(Task, task), version=version or 1, **fields
    )


def _benchmark(data: dict[str, Any], row: _Row) -> BenchmarkJudgment | None:
    unknown = sorted(set(data) - set(BENCHMARK_FIELDS) - {"kind", "record"})
    if unknown:
        row.bad(f"unknown benchmark rating field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    rid = row.text(data, "reviewer_id", required=True)
    bench_run = row.text(data, "bench_run_id", required=True)
    test = row.text(data, "test_id", required=True)
    suite = row.text(data, "suite")
    fields = _rating_fields(data, row)
    version = row.integer(data, "version", 1)
    if row.ok and fields["adequacy"] is None and fields["fluency"] is None:
        row.bad("a benchmark rating needs adequacy or fluency (1-5)")
    if not row.ok or rid is None or bench_run is None or test is None:
        return None
    return BenchmarkJudgment(reviewer_id=rid, bench_run_id=bench_run, test_id=test, suite=suite or None,
                             version=version or 1, **fields)


def _read_json(text_name: str, tf: TextFile, out: JudgmentFile) -> None:
    doc = parse_document(tf, key="judgments")
    if doc is None:
        return
    data = doc.data
    jlines: Sequence[int | None]
    rlines: Sequence[int | None]
    if isinstance(data, list):
        jlines = doc.item_lines or [None] * len(data)
        reviewers: list[Any] = []
        rlines = []
    elif isinstance(data, dict):
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            out.defects.append(
                Defect(text_name, 1, f"unknown top-level key{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
            )
        fmt = data.get("format")
        if fmt is not None and fmt != FORMAT:
            out.defects.append(Defect(text_name, 1, f"format {fmt!r} is not {FORMAT!r}"))
        judgments = data.get("judgments", [])
        reviewers = data.get("reviewers", [])
        if not isinstance(judgments, list) or not isinstance(reviewers, list):
            out.defects.append(Defect(text_name, 1, '"reviewers" and "judgments" must be lists'))
            return
        jlines = doc.item_lines or [None] * len(judgments)
        rdoc = parse_document(tf, key="reviewers")
        rlines = (rdoc.item_lines if rdoc and rdoc.item_lines else None) or [None] * len(reviewers)
        data = judgments
    else:
        out.defects.append(
            Defect(text_name, 1, "a judgment file is a JSON object with reviewers and judgments, or a list")
        )
        return
    for line, item in zip(rlines, reviewers, strict=True):
        row = _Row(text_name, line, out.defects)
        if not isinstance(item, dict):
            row.bad("a reviewer must be a JSON object")
            continue
        r = _reviewer(item, row)
        if r is not None:
            out.reviewers.append((line, r))
    for line, item in zip(jlines, data, strict=True):
        row = _Row(text_name, line, out.defects)
        if not isinstance(item, dict):
            row.bad("a judgment must be a JSON object")
            continue
        kind = item.get("kind", "judgment")
        if kind == BENCHMARK_KIND:
            b = _benchmark(item, row)
            if b is not None:
                out.benchmark.append((line, b))
            continue
        if kind != "judgment":
            row.bad(f"kind {kind!r} is not 'judgment' or 'benchmark'")
            continue
        item = {k: v for k, v in item.items() if k != "kind"}
        j = _judgment(item, row)
        if j is not None:
            out.judgments.append((line, j))


def _read_csv(text_name: str, text: str, out: JudgmentFile) -> None:
    # strict: an unclosed quote is an error (the lenient reader swallows every later row)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        out.defects.append(Defect(text_name, 1, "empty file: expected a header row"))
        return
    except csv.Error as exc:
        out.defects.append(Defect(text_name, 1, f"malformed CSV: {csv_message(exc)}"))
        return
    header = [h.strip() for h in header]
    known = set(CSV_COLUMNS) | set(PAYLOAD_COLUMNS) | set(BENCHMARK_COLUMNS)
    unknown = [h for h in header if h not in known]
    if unknown:
        out.defects.append(
            Defect(text_name, 1, f"unknown column{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
        )
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        out.defects.append(Defect(text_name, 1, f"duplicate column{'s' if len(dupes) > 1 else ''}: {', '.join(dupes)}"))
    for needed in ("reviewer_id",):
        if needed not in header:
            out.defects.append(Defect(text_name, 1, f"missing column {needed}"))
    if unknown or dupes or "reviewer_id" not in header:
        return
    for line, cells in csv_rows(reader, text_name, out.defects):
        if len(cells) != len(header):
            out.defects.append(Defect(text_name, line, f"{len(cells)} cells, the header has {len(header)}"))
            continue
        raw = {h: (c if c != "" else None) for h, c in zip(header, cells, strict=True)}
        record = (raw.pop("record", None) or "judgment").strip().lower()
        row = _Row(text_name, line, out.defects)
        data: dict[str, Any]
        if record == "reviewer":
            data = {k: v for k, v in raw.items() if k in REVIEWER_FIELDS}
            extra = sorted(k for k, v in raw.items() if k not in REVIEWER_FIELDS and v is not None)
            if extra:
                row.bad(f"a reviewer row has judgment cells filled in: {', '.join(extra)}")
                continue
            r = _reviewer(data, row)
            if r is not None:
                out.reviewers.append((line, r))
        elif record == BENCHMARK_KIND:
            data = {k: v for k, v in raw.items() if k in BENCHMARK_FIELDS}
            extra = sorted(k for k, v in raw.items() if k not in BENCHMARK_FIELDS and v is not None)
            if extra:
                row.bad(f"a benchmark row has cells of other records filled in: {', '.join(extra)}")
                continue
            b = _benchmark(data, row)
            if b is not None:
                out.benchmark.append((line, b))
        elif record == "judgment":
            data = {k: v for k, v in raw.items() if k in JUDGMENT_FIELDS}
            extra = sorted(
                k for k, v in raw.items()
                if k in ("name", "dialect", "languages", "consent_scope", *BENCHMARK_COLUMNS) and v is not None
            )
            if extra:
                row.bad(f"a judgment row has reviewer cells filled in: {', '.join(extra)}")
                continue
            payload = row.mapping(data, "payload")
            for key in PAYLOAD_COLUMNS:
                value = raw.get(key)
                if value is None:
                    continue
                parsed: Any = [x.strip() for x in value.split("|") if x.strip()] if key == "classes" else value
                if key == "esa_score":
                    parsed = _number(value)
                if key in payload and payload[key] != parsed:
                    row.bad(f"column {key} ({value!r}) disagrees with payload ({payload[key]!r})")
                payload[key] = parsed
            data["payload"] = payload
            j = _judgment(data, row) if row.ok else None
            if j is not None:
                out.judgments.append((line, j))
        else:
            row.bad(f"record {record!r} is not 'reviewer', 'judgment' or 'benchmark'")


def _number(text: str) -> Any:
    """A number typed in a cell (a whole number stays whole); other text is kept for the checks to name."""
    try:
        value = float(text.strip())
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def read_judgments(path: str | Path, *, fmt: str | None = None, name: str | None = None) -> JudgmentFile:
    """Read a judgment file. Defects are collected in the result, not raised (the import adds its own)."""
    display = name or str(path)
    kind = file_format(path, fmt)
    tf = read_text(path, name=display)
    out = JudgmentFile(display, defects=tf.defects)
    if kind == "json":
        _read_json(display, tf, out)
    else:
        _read_csv(display, tf.text, out)
    return out
