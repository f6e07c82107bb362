"""Writing and reading benchmark results (JSON and CSV), whatever the suite.

- JSON (:func:`write_result_json` / :func:`read_result_json`): the whole
  :class:`~mteval_gui.domain.benchmark.BenchmarkResult` — suite score, categories, every test
  with its response and explanation, suite defects, provider errors, normalisation and the
  checksums of the suite's data files. Reading it back gives an equal result (used by
  ``mteval bench SUITE compare``). A suite's reference-harness results file (ÈwéBench's own)
  is read and written too (:func:`write_reference_json`). Files of format version 1 (written before suites were
  plugins: ``ewe_score`` and ``lexicon``, no ``suite``) are read too; their suite is named by
  the caller from their ``benchmark`` title.
- CSV (:func:`write_results_csv`): one row per test; (:func:`write_categories_csv`): one row
  per category; (:func:`write_ranking_csv`): one row per model.

Files are written atomically (temporary file, then rename). UTF-8; CSV with a header row.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mteval_gui.domain.benchmark import RESULT_FORMAT_VERSION, BenchmarkResult, BenchTestResult
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.benchmark_reference import (
    ReferenceFormat,
    looks_like_reference,
    read_reference_report,
    reference_report,
)
from mteval_gui.io.jsonparse import JSONProblem
from mteval_gui.io.jsonparse import loads as strict_loads
from mteval_gui.io.outputs import write_output
from mteval_gui.io.textfile import LineIndex, read_bytes

TEST_COLUMNS = ["model", "category", "test_id", "method", "status", "score", "passed", "response", "error",
                "explanation"]
CATEGORY_COLUMNS = ["model", "category", "weight", "active", "score", "passed", "total", "answered", "missing",
                    "errors", "unscorable"]


def _atomic_write(path: str | Path, text: str, inputs: Iterable[str | Path] = ()) -> None:
    write_output(path, text, inputs=inputs)  # atomic; folders, special files and workspace databases are refused


def result_to_json(result: BenchmarkResult) -> dict[str, Any]:
    return result.model_dump(mode="json")


def write_result_json(result: BenchmarkResult, path: str | Path, *, inputs: Iterable[str | Path] = ()) -> None:
    _atomic_write(path, json.dumps(result_to_json(result), ensure_ascii=False, indent=2) + "\n", inputs)


def _upgrade(data: dict[str, Any], suites: Mapping[str, tuple[str, str]]) -> dict[str, Any]:
    """A version-1 document in the current shape: its ``<x>_score`` is ``score``, ``lexicon`` is ``resources``."""
    if "suite" in data:
        return data
    name, score_name = suites[data["benchmark"]]
    out = {k: v for k, v in data.items() if not (k.endswith("_score") and k != "score")}
    olds = [k for k in data if k.endswith("_score") and k != "score"]
    if "score" not in out and len(olds) == 1:
        out["score"] = data[olds[0]]
    if "lexicon" in out:
        out["resources"] = out.pop("lexicon")
    out.update(suite=name, score_name=score_name, format_version=RESULT_FORMAT_VERSION)
    return out


def read_result_json(path: str | Path, suites: Mapping[str, tuple[str, str]] | None = None, *,
                     references: Sequence[ReferenceFormat] = ()) -> BenchmarkResult:
    """Read a results file written by :func:`write_result_json`, or by a suite's reference
    harness (``references``, :mod:`mteval_gui.io.benchmark_reference`); InputError if it is neither.

    ``suites`` maps the titles of the installed suites to (name, score name), to read files
    of format version 1, which name only their suite's title.
    """
    path = Path(path)
    name = str(path)
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(Defect(name, None, f"invalid UTF-8 at byte {exc.start}")) from exc
    try:
        data = strict_loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(Defect(name, exc.lineno, f"invalid JSON: {exc.msg}", exc.colno)) from exc
    except JSONProblem as exc:
        line, col = LineIndex(text).position(exc.pos)
        raise InputError(Defect(name, line, f"invalid JSON: {exc.message}", col)) from exc
    for fmt in references:
        if looks_like_reference(data, fmt):
            return read_reference_report(data, name, raw, fmt)
    titles = dict(suites or {})
    if not isinstance(data, dict) or not isinstance(data.get("benchmark"), str) or (
            "suite" not in data and data.get("benchmark") not in titles):
        raise InputError(Defect(name, None, "not a benchmark results file (written by 'mteval bench SUITE score -o')"))
    try:
        return BenchmarkResult.model_validate(_upgrade(data, titles))
    except ValidationError as exc:
        defects = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
            defects.append(Defect(name, None, f"{loc}: {err.get('msg', 'invalid')}"))
        raise InputError(defects) from exc


def write_reference_json(result: BenchmarkResult, fmt: ReferenceFormat, path: str | Path, *,
                         inputs: Iterable[str | Path] = ()) -> None:
    """``result`` in its suite's reference-harness shape (what that harness's leaderboard reads)."""
    _atomic_write(path, json.dumps(reference_report(result, fmt), ensure_ascii=False, indent=2) + "\n", inputs)


def explanation_text(result: BenchTestResult) -> str:
    return " | ".join(line.strip() for line in result.explanation.get("lines", []))


def _fmt(x: float | None, digits: int = 4) -> str:
    return "" if x is None else f"{x:.{digits}f}"


def _csv(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def results_csv(result: BenchmarkResult) -> str:
    rows = []
    for t in result.tests:
        rows.append([result.model, t.category, t.test_id, t.method or "", t.status, _fmt(t.score),
                     "" if t.passed is None else int(t.passed), t.response or "", t.error or "", explanation_text(t)])
    return _csv(rows, TEST_COLUMNS)


def write_results_csv(result: BenchmarkResult, path: str | Path, *, inputs: Iterable[str | Path] = ()) -> None:
    _atomic_write(path, results_csv(result), inputs)


def categories_csv(results: Sequence[BenchmarkResult]) -> str:
    rows = []
    for r in results:
        for c in r.categories:
            rows.append([r.model, c.category, f"{c.weight:g}", int(c.active), _fmt(c.score, 2), c.passed, c.total,
                         c.answered, c.missing, c.errors, c.unscorable])
    return _csv(rows, CATEGORY_COLUMNS)


def write_categories_csv(results: Sequence[BenchmarkResult], path: str | Path) -> None:
    _atomic_write(path, categories_csv(results))


def ranking_csv(rows: Sequence[dict[str, Any]], categories: Sequence[str]) -> str:
    header = ["rank", "model", "score", "passed", "total", *categories]
    out = []
    for r in rows:
        out.append([r["rank"], r["model"], _fmt(r["score"], 2), r["passed"], r["total"],
                    *(_fmt(r["categories"].get(c), 2) for c in categories)])
    return _csv(out, header)


def write_ranking_csv(rows: Sequence[dict[str, Any]], categories: Sequence[str], path: str | Path, *,
                      inputs: Iterable[str | Path] = ()) -> None:
    _atomic_write(path, ranking_csv(rows, categories), inputs)
