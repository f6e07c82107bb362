"""A suite's reference-harness results file, both ways (ÈwéBench: the files EweBench writes).

A suite whose own harness writes results (``BenchmarkSuite.reference_score_key``, e.g.
``ewe_score``) can be compared with and exported to that harness:

- Reading (:func:`read_reference_report`): ``{benchmark, version, run_id, model, endpoint,
  timestamp, <score key>, categories: {name: {score, total, passed, skipped, details[]}},
  summary}`` where each detail is ``{test_id, score, response_preview}``. The harness writes
  the whole response in ``response_preview`` when run verbose and the first 200 characters
  otherwise; both read the same way (responses of exactly 200 characters are reported as
  probably cut). The numbers are kept as the harness computed them — its suite score, category
  scores and pass counts, every test's score; its scorer is not this application's (SPEC §12),
  which the result says (``normalisation.scored_by``) and a comparison flags. Methods,
  explanations, provider errors (the harness scores them as text), the suite file's checksum
  and the category weights are not in the file (weights come from the suite declaration).
- Writing (:func:`reference_report`): a result in that shape, which the harness's
  ``--compare`` and ``--leaderboard`` read (``model``, ``<score key>`` rounded to 0.1,
  ``summary.total_tests`` / ``total_passed``, ``timestamp``, per-category ``score``); the whole
  response goes in ``response_preview`` (the verbose shape). Tests that cannot be scored are
  left out of ``details``, ``total`` and ``passed`` and listed under ``unscorable``; a
  category without any response is ``skipped`` (as the harness marks a category without
  tests), so the harness's suite score equals this application's to the rounding.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.domain.benchmark import (
    PASS_THRESHOLD,
    BenchmarkResult,
    BenchTestResult,
    CategoryResult,
    SuiteDefect,
)
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.records import MAX_ID_LENGTH

PREVIEW_CHARS = 200  # the harness cuts response_preview there unless run verbose


@dataclass(frozen=True)
class ReferenceFormat:
    """What reading and writing a suite's reference results needs of its declaration."""

    suite: str  # "ewebench"
    title: str  # "ÈwéBench"
    score_name: str  # "ÈwéScore"
    score_key: str  # "ewe_score"
    version: str = ""  # the harness version written into exports
    categories: Mapping[str, tuple[str, float]] = field(default_factory=dict)  # name -> (title, weight)
    pass_threshold: float = PASS_THRESHOLD

    @property
    def scored_by(self) -> str:
        return f"{self.title} reference harness"


def looks_like_reference(data: Any, fmt: ReferenceFormat) -> bool:
    """The document is a results file of ``fmt``'s harness (its score key, categories as an object)."""
    return (isinstance(data, dict) and fmt.score_key in data and isinstance(data.get("categories"), dict)
            and "format_version" not in data)


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def read_reference_report(data: dict[str, Any], name: str, raw: bytes, fmt: ReferenceFormat) -> BenchmarkResult:
    """A :class:`BenchmarkResult` holding the harness's own numbers (see the module docstring)."""
    defects: list[Defect] = []

    def bad(where: str, what: str) -> None:
        defects.append(Defect(name, None, f"{where}: {what}"))

    model = data.get("model")
    if not isinstance(model, str) or not model.strip():
        bad("model", "must be a non-empty string")
        model = ""
    score = _float(data.get(fmt.score_key))
    if data.get(fmt.score_key) is not None and score is None:
        bad(fmt.score_key, "must be a number")
    categories: list[CategoryResult] = []
    tests: list[BenchTestResult] = []
    previews = 0
    seen: dict[str, str] = {}
    for cat, block in data["categories"].items():
        where = f"categories.{cat}"
        if not isinstance(block, dict):
            bad(where, "must be an object")
            continue
        skipped = block.get("skipped", False)
        details = block.get("details", [])
        if not isinstance(skipped, bool):
            bad(f"{where}.skipped", "must be true or false")
        if not isinstance(details, list):
            bad(f"{where}.details", "must be a list")
            details = []
        for key in ("score", "total", "passed"):
            if key in block and not _num(block[key]):
                bad(f"{where}.{key}", "must be a number")
        title, weight = fmt.categories.get(cat, (cat.replace("_", " ").capitalize(), 0.0))
        active = skipped is False and bool(details)
        for i, det in enumerate(details):
            dw = f"{where}.details[{i}]"
            if not isinstance(det, dict):
                bad(dw, "must be an object")
                continue
            tid, tscore = det.get("test_id"), _float(det.get("score"))
            text = det.get("response", det.get("response_preview"))
            if not isinstance(tid, str) or not tid.strip():
                bad(f"{dw}.test_id", "must be a non-empty string")
                continue
            tid = tid.strip()
            if len(tid) > MAX_ID_LENGTH:
                bad(f"{dw}.test_id", f"is {len(tid)} characters long (at most {MAX_ID_LENGTH})")
                continue
            if tid in seen:
                bad(f"{dw}.test_id", f"{tid!r} repeats {seen[tid]}")
                continue
            seen[tid] = dw
            if tscore is None or not 0.0 <= tscore <= 1.0:
                bad(f"{dw}.score", "must be a number from 0 to 1")
                continue
            if text is not None and not isinstance(text, str):
                bad(f"{dw}.response_preview", "must be a string")
                continue
            if isinstance(text, str) and len(text) == PREVIEW_CHARS:
                previews += 1
            tests.append(BenchTestResult(
                test_id=tid, category=cat, status="scored", score=tscore,
                passed=tscore >= fmt.pass_threshold, response=text,
                explanation={"lines": [f"scored by the {fmt.scored_by}"]}))
        total = block.get("total", len(details))
        passed = block.get("passed", sum(1 for d in details if isinstance(d, dict) and _num(d.get("score"))
                                         and d["score"] >= fmt.pass_threshold))
        cscore = _float(block.get("score"))
        categories.append(CategoryResult(
            category=cat, title=title, weight=weight, active=active,
            score=cscore if active else None,
            passed=int(passed) if _num(passed) else 0, total=int(total) if _num(total) else 0,
            answered=len(details) if active else 0))
    if defects:
        raise InputError(defects)
    warnings = []
    if previews:
        warnings.append(SuiteDefect(
            file=name, kind="truncated_responses", severity="warning",
            message=f"{previews} responses are {PREVIEW_CHARS} characters long: the {fmt.scored_by} cuts "
                    f"'response_preview' there unless run verbose"))
    active_weight = sum(c.weight for c in categories if c.active and c.score is not None)
    stamp = data.get("timestamp")
    return BenchmarkResult(
        benchmark=fmt.title, suite=fmt.suite, score_name=fmt.score_name, model=model.strip(),
        suite_path="", suite_sha256="",  # the harness's file names no suite folder nor checksum
        responses_path=name, responses_sha256=hashlib.sha256(raw).hexdigest(),
        created_at=stamp if isinstance(stamp, str) else "",
        pass_threshold=fmt.pass_threshold,
        score=score if active_weight > 0 else None,
        active_weight=active_weight, categories=categories, tests=tests, response_warnings=warnings,
        normalisation={"scored_by": fmt.scored_by,
                       **({"harness_version": data["version"]} if isinstance(data.get("version"), str) else {}),
                       **({"run_id": data["run_id"]} if isinstance(data.get("run_id"), str) else {})},
    )


def _r(x: float) -> float:
    return round(x, 1)


def reference_report(result: BenchmarkResult, fmt: ReferenceFormat) -> dict[str, Any]:
    """``result`` in the harness's results shape (see the module docstring)."""
    cats: dict[str, Any] = {}
    for c in result.categories:
        rows = [t for t in result.tests if t.category == c.category]
        counted = [t for t in rows if t.status not in ("unscorable", "not_run")]
        unscorable = [t.test_id for t in rows if t.status == "unscorable"]
        skipped = not c.active or c.score is None
        block: dict[str, Any] = {
            "score": 0.0 if skipped else _r(c.score or 0.0),
            "total": 0 if skipped else len(counted),
            "passed": 0 if skipped else sum(1 for t in counted if t.passed),
            "details": [] if skipped else [
                {"test_id": t.test_id, "score": round(t.score or 0.0, 3),
                 "response_preview": t.response if t.response is not None else (
                     f"[ERROR] {t.error}" if t.error is not None else "")}
                for t in counted],
            "skipped": skipped,
        }
        if unscorable:
            block["unscorable"] = unscorable
        cats[c.category] = block
    run_id = hashlib.sha256(f"{result.model}\0{result.created_at}\0{result.responses_sha256}".encode()).hexdigest()
    return {
        "benchmark": fmt.title,
        "version": fmt.version,
        "run_id": run_id[:16],
        "model": result.model,
        "endpoint": None,
        "timestamp": result.created_at,
        fmt.score_key: _r(result.score) if result.score is not None else 0.0,
        "categories": cats,
        "summary": {
            "total_tests": sum(b["total"] for b in cats.values()),
            "total_passed": sum(b["passed"] for b in cats.values()),
            "categories_evaluated": sum(1 for b in cats.values() if not b["skipped"]),
            "categories_skipped": sum(1 for b in cats.values() if b["skipped"]),
        },
    }


def reference_file_name(suite: str, model: str) -> str:
    """The name the harness gives its own files (its leaderboard lists ``<suite>_*.json`` files)."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._") else "-" for ch in model) or "model"
    return f"{suite}_{safe}.json"


__all__ = ["PREVIEW_CHARS", "ReferenceFormat", "looks_like_reference", "read_reference_report",
           "reference_file_name", "reference_report"]
