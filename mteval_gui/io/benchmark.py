"""Reading benchmark suites and model responses (SPEC §1.3, §10), whatever the suite.

Suite: a folder of ``<category>.json`` files, each a JSON list of tests. The category is the
file name; the suite plugin checks each test (``BenchmarkSuite.check_test`` of
:mod:`mteval_gui.benchmarks.suite`). :func:`read_suite` never fails on a defective test: every
problem becomes a :class:`~mteval_gui.domain.benchmark.SuiteDefect` (``file:line: test_id:
message``) and scoring goes on; only an unreadable folder (absent, no ``.json`` file) raises
``InputError``.

Responses (:func:`read_responses`), in any of these shapes:

- JSONL: one object per line, ``{"test_id": ..., "response": "..."}`` or
  ``{"test_id": ..., "error": "..."}`` (``id`` is accepted for ``test_id``; an optional
  ``tool_calls`` list counts as a function call). A first line ``{"run": {"model": ...}}`` or
  ``{"model": ...}`` without a test id holds metadata.
- JSON: a list of such objects; or ``{"model": ..., "responses": [...]}``; or an object mapping
  test ids to response strings; or a harness report grouping records by category
  (``categories.*.details[]`` with ``response`` or ``response_preview``, as the ÈwéBench
  reference harness writes; previews may be cut at 200 characters, which is reported).
- A folder: every ``*.json`` / ``*.jsonl`` file in it (e.g. one ``<category>.json`` per
  category), merged.

A response text starting with ``[ERROR]`` is a provider error (the reference harness writes
errors that way). Structural problems of a responses file (invalid JSON, a record without test
id or without response/error, a test id answered twice) raise ``InputError`` with every
defect; responses for test ids the suite does not have are kept as warnings and ignored.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any, Protocol

from mteval_gui.domain.benchmark import BenchTest, ResponseRecord, Responses, Suite, SuiteDefect
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.jsonparse import JSONProblem
from mteval_gui.io.jsonparse import loads as strict_loads
from mteval_gui.io.records import MAX_ID_LENGTH
from mteval_gui.io.textfile import LineIndex, nul_defects, read_bytes

ERROR_PREFIX = "[ERROR]"
_WS = " \t\n\r"
_DECODER = json.JSONDecoder()


def _nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _array_item_lines(text: str) -> list[int] | None:
    """Start lines of the items of a JSON document whose root is an array (it must be valid JSON)."""
    i = _skip(text, 0)
    if i >= len(text) or text[i] != "[":
        return None
    lines: list[int] = []
    i = _skip(text, i + 1)
    if i < len(text) and text[i] == "]":
        return lines
    last, line = 0, 1
    while i < len(text):
        line += text.count("\n", last, i)
        last = i
        lines.append(line)
        _, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
            continue
        break
    return lines


def _decode(path: Path, raw: bytes) -> tuple[str | None, Defect | None]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, Defect(str(path), line, f"invalid UTF-8 at byte {exc.start}")
    nul = nul_defects(text, str(path), limit=1)
    if nul:
        return None, nul[0]
    return text, None


def _loads(path: Path, text: str) -> tuple[Any, Defect | None]:
    """Strict JSON (no duplicate keys, NaN, huge numbers, deep nesting or lone surrogates)."""
    try:
        return strict_loads(text), None
    except json.JSONDecodeError as exc:
        return None, Defect(str(path), exc.lineno, f"invalid JSON: {exc.msg}", exc.colno)
    except JSONProblem as exc:
        line, col = LineIndex(text).position(exc.pos)
        return None, Defect(str(path), line, f"invalid JSON: {exc.message}", col)


# ---------------------------------------------------------------------------------------------
# suite


def suite_files(folder: str | Path) -> list[Path]:
    """The ``*.json`` entries of a suite folder (sub-folders left out; FIFOs and devices are kept, to be refused)."""
    return sorted(p for p in Path(folder).glob("*.json") if not p.is_dir())


class SuiteFormat(Protocol):
    """What reading a suite needs of its definition (a ``mteval_gui.benchmarks.suite.BenchmarkSuite``)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    def category(self, name: str) -> object | None: ...

    def category_order(self) -> list[str]: ...

    def check_test(self, raw: Any, *, category: str, file: str, line: int | None,
                   index: int) -> tuple[BenchTest | None, list[SuiteDefect]]: ...


def read_suite(folder: str | Path, definition: SuiteFormat) -> Suite:
    """Read a suite folder and check each test with the suite's ``definition`` (see module docstring)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(Defect(str(folder), None, "not a folder: a suite is a folder of <category>.json files"))
    files = suite_files(folder)
    if not files:
        raise InputError(Defect(str(folder), None, "no <category>.json file in this folder"))
    digest = hashlib.sha256()
    tests = []
    defects: list[SuiteDefect] = []
    names: dict[str, str] = {}
    seen: dict[str, tuple[str, int | None]] = {}
    for path in files:
        category = path.stem
        fname = path.name
        names[category] = fname
        try:
            raw = read_bytes(path)
        except InputError as exc:
            defects.append(SuiteDefect(file=fname, kind="unreadable", message=exc.defects[0].message))
            continue
        digest.update(fname.encode("utf-8") + b"\0" + hashlib.sha256(raw).digest())
        if definition.category(category) is None:
            defects.append(SuiteDefect(file=fname, kind="unknown_category", severity="warning",
                                       message=f"{category!r} is not a category of {definition.title}; its tests "
                                               "are scored with weight 0"))
        text, d = _decode(path, raw)
        if d is None:
            data, d = _loads(path, text or "")
        if d is not None:
            defects.append(SuiteDefect(file=fname, line=d.line, kind="invalid_json",
                                       message=d.message + (f" (column {d.column})" if d.column else "")
                                       + "; no test of this file is scored"))
            continue
        if not isinstance(data, list):
            defects.append(SuiteDefect(file=fname, line=1, kind="not_a_list",
                                       message="a category file must be a JSON list of tests"))
            continue
        lines: list[int] | list[None] = _array_item_lines(text or "") or [None] * len(data)
        for index, (item, line) in enumerate(zip(data, lines, strict=False)):
            if isinstance(item, dict) and isinstance(item.get("id"), str) and len(item["id"].strip()) > MAX_ID_LENGTH:
                defects.append(SuiteDefect(file=fname, line=line, kind="invalid_id",
                                           message=f"item {index}: id is {len(item['id'].strip())} characters long "
                                                   f"(at most {MAX_ID_LENGTH}); not scored"))
                continue
            test, found = definition.check_test(item, category=category, file=fname, line=line, index=index)
            defects.extend(found)
            if test is None:
                continue
            if test.id in seen:
                first_file, first_line = seen[test.id]
                where = first_file if first_line is None else f"{first_file}:{first_line}"
                defects.append(SuiteDefect(file=fname, line=line, test_id=test.id, kind="duplicate_id",
                                           message=f"id repeats the test at {where}; this later test is ignored"))
                continue
            seen[test.id] = (fname, line)
            tests.append(test)
    return Suite(suite=definition.name, path=str(folder), sha256=digest.hexdigest(), tests=tests, defects=defects,
                 files=names, category_order=definition.category_order())


# ---------------------------------------------------------------------------------------------
# responses


class _Collector:
    def __init__(self, suite: Suite | None):
        self.suite_ids = {t.id for t in suite.tests} if suite is not None else None
        self.records: dict[str, ResponseRecord] = {}
        self.defects: list[Defect] = []
        self.warnings: list[SuiteDefect] = []
        self.model: str | None = None

    def meta(self, obj: dict[str, Any]) -> None:
        found = obj.get("run")
        run: dict[str, Any] = found if isinstance(found, dict) else obj
        for key in ("model", "model_slug", "model_id", "model_name"):
            v = run.get(key)
            if isinstance(v, str) and v.strip() and self.model is None:
                self.model = _nfc(v.strip())

    def add(self, obj: Any, file: str, line: int | None, where: str) -> None:
        """Check one record; ``where`` names it when the file position alone does not (``item 3``)."""
        loc_line = line
        prefix = f"{where}: " if where else ""
        if not isinstance(obj, dict):
            self.defects.append(Defect(file, loc_line, f"{prefix}a response record must be a JSON object"))
            return
        tid = obj.get("test_id", obj.get("id"))
        if isinstance(tid, bool) or not isinstance(tid, (str, int)) or not str(tid).strip():
            self.defects.append(Defect(file, loc_line, f"{prefix}record has no test_id"))
            return
        tid = _nfc(str(tid).strip())
        if len(tid) > MAX_ID_LENGTH:
            self.defects.append(Defect(file, loc_line,
                                       f"{prefix}test_id is {len(tid)} characters long (at most {MAX_ID_LENGTH})"))
            return
        error = obj.get("error")
        response = obj.get("response")
        tool_calls = obj.get("tool_calls")
        if tool_calls is not None and not isinstance(tool_calls, list):
            tool_calls = [tool_calls]
        if error is not None and not isinstance(error, str):
            error = json.dumps(error, ensure_ascii=False)
        if error is not None and not error.strip():
            error = None
        if response is not None and not isinstance(response, str):
            self.defects.append(Defect(file, loc_line,
                                       f"{prefix}{tid}: response must be a string, not {type(response).__name__}"))
            return
        if error is None and response is None and not tool_calls:
            self.defects.append(Defect(file, loc_line, f"{prefix}{tid}: record has neither response nor error"))
            return
        if error is None and response is not None and response.lstrip().startswith(ERROR_PREFIX):
            error = response.strip()
            response = None
        if tid in self.records:
            first = self.records[tid]
            at = first.file if first.line is None else f"{first.file}:{first.line}"
            self.defects.append(Defect(file, loc_line, f"{prefix}{tid}: answered twice (first at {at})"))
            return
        rec = ResponseRecord(test_id=tid, response=_nfc(response) if response is not None else None,
                             error=_nfc(error) if error is not None else None,
                             tool_calls=tool_calls if tool_calls else None, file=file, line=loc_line)
        self.records[tid] = rec
        if self.suite_ids is not None and tid not in self.suite_ids:
            self.warnings.append(SuiteDefect(file=file, line=loc_line, test_id=tid, kind="unknown_test",
                                             severity="warning", message="the suite has no test with this id; ignored"))


def _read_jsonl(path: Path, text: str, col: _Collector) -> None:
    fname = str(path)
    first = True
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = strict_loads(line)
        except json.JSONDecodeError as exc:
            col.defects.append(Defect(fname, lineno, f"invalid JSON: {exc.msg}", exc.colno))
            first = False
            continue
        except JSONProblem as exc:
            col.defects.append(Defect(fname, lineno, f"invalid JSON: {exc.message}", exc.pos + 1))
            first = False
            continue
        if first and isinstance(obj, dict) and "test_id" not in obj and "id" not in obj and (
                "run" in obj or "model" in obj):
            col.meta(obj)
            first = False
            continue
        first = False
        col.add(obj, fname, lineno, "")


def _read_json(path: Path, text: str, col: _Collector) -> None:
    fname = str(path)
    data, d = _loads(path, text)
    if d is not None and d.message == "invalid JSON: Extra data" and text.lstrip().startswith("{"):
        _read_jsonl(path, text, col)  # JSON Lines in a .json file
        return
    if d is not None:
        col.defects.append(d)
        return
    if isinstance(data, list):
        lines: list[int] | list[None] = _array_item_lines(text) or [None] * len(data)
        for i, (obj, line) in enumerate(zip(data, lines, strict=False)):
            col.add(obj, fname, line, f"item {i}")
        return
    if not isinstance(data, dict):
        col.defects.append(Defect(fname, 1, "a responses file must be a JSON list or object"))
        return
    col.meta(data)
    if isinstance(data.get("responses"), list):
        for i, obj in enumerate(data["responses"]):
            col.add(obj, fname, None, f"responses[{i}]")
        return
    if isinstance(data.get("categories"), dict):
        previews = 0
        for cat, block in data["categories"].items():
            details = block.get("details") if isinstance(block, dict) else None
            if not isinstance(details, list):
                continue
            for i, det in enumerate(details):
                if isinstance(det, dict) and "response" not in det and "response_preview" in det:
                    det = dict(det, response=det.get("response_preview"))
                    previews += 1
                col.add(det, fname, None, f"categories.{cat}.details[{i}]")
        if previews:
            col.warnings.append(SuiteDefect(
                file=fname, kind="truncated_responses", severity="warning",
                message=f"{previews} responses are 'response_preview' texts, which the reference harness cuts at "
                        "200 characters"))
        return
    meta_keys = {"model", "model_slug", "model_id", "model_name", "run"}
    items = {k: v for k, v in data.items() if k not in meta_keys}
    if items and all(isinstance(v, str) or v is None for v in items.values()):
        for k, v in items.items():
            col.add({"test_id": k, "response": v} if v is not None else {"test_id": k}, fname, None, f"key {k!r}")
        return
    col.defects.append(Defect(fname, 1, "unrecognised responses JSON: expected a list of {test_id, response|error}, "
                                        "an object with 'responses', or a test_id -> response object"))


def read_responses(path: str | Path, suite: Suite | None = None) -> Responses:
    """Read responses (file or folder, see module docstring). Raises InputError on structural defects."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if not p.is_dir() and p.suffix.lower() in (".json", ".jsonl"))
        if not files:
            raise InputError(Defect(str(path), None, "no .json or .jsonl responses file in this folder"))
    elif path.exists():
        files = [path]  # read_bytes refuses what is not a regular file
    else:
        raise InputError(Defect(str(path), None, "no such file or folder"))
    col = _Collector(suite)
    digest = hashlib.sha256()
    for f in files:
        try:
            raw = read_bytes(f)
        except InputError as exc:
            col.defects.extend(exc.defects)
            continue
        digest.update(f.name.encode("utf-8") + b"\0" + hashlib.sha256(raw).digest())
        text, d = _decode(f, raw)
        if d is not None:
            col.defects.append(d)
            continue
        assert text is not None
        if not text.strip():
            continue  # an empty file holds no responses
        if f.suffix.lower() == ".jsonl" or (f.suffix.lower() != ".json" and not text.lstrip().startswith("[")):
            _read_jsonl(f, text, col)
        else:
            _read_json(f, text, col)
    if col.defects:
        raise InputError(col.defects)
    return Responses(path=str(path), sha256=digest.hexdigest(), model=col.model, records=col.records,
                     warnings=col.warnings)
