"""Benchmark results in the workspace (tables ``benchmark_runs`` and ``benchmark_results``), any suite.

- :func:`save_benchmark_run` writes one scored model (one transaction). The id is
  ``<prefix>-<hash>`` (the prefix is the suite's, e.g. ``ewb``), the hash derived from the model
  name, the suite and the responses checksums, so saving the same scoring again replaces the
  earlier copy instead of duplicating it.
- :func:`list_benchmark_runs` gives one summary per stored run (newest first).
- :func:`get_benchmark_run` rebuilds the full :class:`~mteval_gui.domain.benchmark.BenchmarkResult`.
- :func:`delete_benchmark_run` removes a run, its test results and speakers' ratings of its responses.
- :func:`rate_response` records a speaker's adequacy and fluency rating (1-5) of one response
  (table ``benchmark_judgments``, append-only: a new version supersedes the previous one);
  :func:`response_rating` reads the one in force, :func:`response_rating_means` the mean per run.

The suite's name, title and score name are kept in the run's ``meta``; runs stored before
suites were plugins carry only the title (``benchmark``), which the caller maps to a suite
(``suites``: title -> (name, score name)).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.benchmark import (
    BenchmarkResult,
    BenchTestResult,
    CategoryResult,
    SuiteDefect,
)
from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace, utcnow


class BenchmarkRunNotFound(StoreError):
    """No stored benchmark run has this id."""


@dataclass(frozen=True)
class BenchmarkRunSummary:
    bench_run_id: str
    model: str
    suite: str
    suite_sha256: str | None
    responses_path: str | None
    score: float | None
    categories: dict[str, float | None]  # category -> score (None = inactive)
    created_at: str
    suite_name: str | None = None  # None: stored before suites were plugins and of no installed suite
    benchmark: str | None = None  # the suite's title


def benchmark_run_id(result: BenchmarkResult, prefix: str = "bench") -> str:
    h = hashlib.sha256()
    for part in (result.model, result.suite_sha256, result.responses_sha256 or result.responses_path or ""):
        h.update(part.encode("utf-8") + b"\0")
    return f"{prefix}-" + h.hexdigest()[:16]


def _dumps(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False)


def save_benchmark_run(ws: Workspace, result: BenchmarkResult, *, prefix: str = "bench") -> str:
    """Store ``result`` (replacing a stored copy of the same scoring); returns its id."""
    run_id = benchmark_run_id(result, prefix)
    categories = {c.category: c.model_dump(mode="json") for c in result.categories}
    defects = [dict(d.model_dump(mode="json"), source="suite") for d in result.suite_defects]
    defects += [dict(d.model_dump(mode="json"), source="responses") for d in result.response_warnings]
    meta = {
        "benchmark": result.benchmark,
        "suite": result.suite,
        "score_name": result.score_name,
        "format_version": result.format_version,
        "responses_sha256": result.responses_sha256,
        "pass_threshold": result.pass_threshold,
        "active_weight": result.active_weight,
        "normalisation": result.normalisation,
        "resources": result.resources,
    }
    rows = []
    for pos, t in enumerate(result.tests):
        payload = {"position": pos, "status": t.status, "prompt": t.prompt, "explanation": t.explanation}
        rows.append((run_id, t.test_id, t.category, t.method, t.score,
                     None if t.passed is None else int(t.passed), t.response, t.error, _dumps(payload)))
    with ws.transaction() as c:
        c.execute("DELETE FROM benchmark_runs WHERE bench_run_id = ?", (run_id,))
        c.execute(
            "INSERT INTO benchmark_runs (bench_run_id, suite, suite_sha256, model, responses_path, score, categories, "
            "defects, created_at, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, result.suite_path, result.suite_sha256, result.model, result.responses_path, result.score,
             _dumps(categories), _dumps(defects), result.created_at, _dumps(meta)),
        )
        c.executemany(
            "INSERT INTO benchmark_results (bench_run_id, test_id, category, method, score, passed, response, error, "
            "explanation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
    return run_id


def _suite_of(meta: dict[str, Any], suites: Mapping[str, tuple[str, str]] | None) -> tuple[str | None, str | None]:
    """(suite name, score name) of a stored run's ``meta``."""
    if isinstance(meta.get("suite"), str):
        return meta["suite"], meta.get("score_name")
    known = (suites or {}).get(str(meta.get("benchmark")))
    return (known[0], known[1]) if known else (None, None)


def list_benchmark_runs(ws: Workspace, *, suite: str | None = None,
                        suites: Mapping[str, tuple[str, str]] | None = None) -> list[BenchmarkRunSummary]:
    """Stored runs (of one ``suite`` when given), newest first; ``suites`` as in the module docstring."""
    out = []
    for row in ws.conn.execute(
        "SELECT bench_run_id, model, suite, suite_sha256, responses_path, score, categories, created_at, meta "
        "FROM benchmark_runs ORDER BY created_at DESC, model"
    ):
        meta = json.loads(row["meta"] or "{}")
        name, _ = _suite_of(meta, suites)
        if suite is not None and name != suite:
            continue
        cats = json.loads(row["categories"] or "{}")
        out.append(BenchmarkRunSummary(
            bench_run_id=row["bench_run_id"], model=row["model"], suite=row["suite"], suite_sha256=row["suite_sha256"],
            responses_path=row["responses_path"], score=row["score"],
            categories={k: (v.get("score") if v.get("active") else None) for k, v in cats.items()},
            created_at=row["created_at"], suite_name=name, benchmark=meta.get("benchmark"),
        ))
    return out


def get_benchmark_run(ws: Workspace, bench_run_id: str,
                      suites: Mapping[str, tuple[str, str]] | None = None) -> BenchmarkResult:
    row = ws.conn.execute("SELECT * FROM benchmark_runs WHERE bench_run_id = ?", (bench_run_id,)).fetchone()
    if row is None:
        raise BenchmarkRunNotFound(f"no stored benchmark run {bench_run_id!r}")
    meta = json.loads(row["meta"] or "{}")
    name, score_name = _suite_of(meta, suites)
    cats = [CategoryResult.model_validate(v) for v in json.loads(row["categories"] or "{}").values()]
    suite_defects: list[SuiteDefect] = []
    warnings: list[SuiteDefect] = []
    for d in json.loads(row["defects"] or "[]"):
        source = d.pop("source", "suite")
        (warnings if source == "responses" else suite_defects).append(SuiteDefect.model_validate(d))
    tests = []
    for r in ws.conn.execute("SELECT * FROM benchmark_results WHERE bench_run_id = ?", (bench_run_id,)):
        payload = json.loads(r["explanation"] or "{}")
        tests.append((payload.get("position", 0), BenchTestResult(
            test_id=r["test_id"], category=r["category"], method=r["method"],
            status=payload.get("status", "scored"), score=r["score"],
            passed=None if r["passed"] is None else bool(r["passed"]), prompt=payload.get("prompt", ""),
            response=r["response"], error=r["error"], explanation=payload.get("explanation", {}),
        )))
    tests.sort(key=lambda p: p[0])
    extra = {k: meta[k] for k in ("pass_threshold",) if k in meta}
    return BenchmarkResult(
        benchmark=str(meta.get("benchmark") or name or "benchmark"), suite=name or "", score_name=score_name or "score",
        model=row["model"], suite_path=row["suite"], suite_sha256=row["suite_sha256"] or "",
        responses_path=row["responses_path"], responses_sha256=meta.get("responses_sha256"),
        created_at=row["created_at"], score=row["score"], active_weight=meta.get("active_weight", 0.0),
        categories=cats, tests=[t for _, t in tests], suite_defects=suite_defects, response_warnings=warnings,
        normalisation=meta.get("normalisation", {}), resources=meta.get("resources", meta.get("lexicon", {})), **extra,
    )


def delete_benchmark_run(ws: Workspace, bench_run_id: str) -> None:
    with ws.transaction() as c:
        cur = c.execute("DELETE FROM benchmark_runs WHERE bench_run_id = ?", (bench_run_id,))
        if cur.rowcount == 0:
            raise BenchmarkRunNotFound(f"no stored benchmark run {bench_run_id!r}")
        c.execute("UPDATE benchmark_judgments SET superseded_by = NULL WHERE bench_run_id = ?", (bench_run_id,))
        c.execute("DELETE FROM benchmark_judgments WHERE bench_run_id = ?", (bench_run_id,))


# ----- speakers' ratings of responses ----------------------------------------------------------

@dataclass(frozen=True)
class ResponseRating:
    """A speaker's rating of one benchmark response (one version)."""

    judgment_id: int
    reviewer_id: str
    bench_run_id: str
    test_id: str
    adequacy: int | None
    fluency: int | None
    note: str | None
    version: int
    created_at: str


@dataclass(frozen=True)
class RatingMeans:
    """The speakers' ratings of one run's responses: the mean over responses of each response's mean rating."""

    adequacy: float | None
    fluency: float | None
    responses: int  # responses rated
    ratings: int  # ratings in force (one per reviewer and response)


_CURRENT_RATING = "superseded_by IS NULL"


def _rating(row: Any) -> ResponseRating:
    return ResponseRating(row["judgment_id"], row["reviewer_id"], row["bench_run_id"], row["test_id"],
                          row["adequacy"], row["fluency"], row["note"], row["version"], row["created_at"])


def response_rating(ws: Workspace, bench_run_id: str, test_id: str, reviewer_id: str) -> ResponseRating | None:
    """The reviewer's rating in force of one response (None: not rated)."""
    row = ws.conn.execute(f"SELECT * FROM benchmark_judgments WHERE bench_run_id = ? AND test_id = ? AND "
                          f"reviewer_id = ? AND {_CURRENT_RATING} ORDER BY judgment_id DESC LIMIT 1",
                          (bench_run_id, test_id, reviewer_id)).fetchone()
    return _rating(row) if row is not None else None


def rate_response(ws: Workspace, bench_run_id: str, test_id: str, reviewer_id: str, adequacy: int | None,
                  fluency: int | None, note: str | None = None) -> ResponseRating:
    """Record a new version of the reviewer's rating of one response of a stored run."""
    problems = [f"{name} {v} is out of range 1-5" for name, v in (("adequacy", adequacy), ("fluency", fluency))
                if v is not None and not (isinstance(v, int) and 1 <= v <= 5)]
    if adequacy is None and fluency is None:
        problems.append("a rating needs adequacy or fluency (1-5)")
    with ws.transaction() as c:
        if c.execute("SELECT 1 FROM reviewers WHERE reviewer_id = ?", (reviewer_id,)).fetchone() is None:
            problems.append(f"unknown reviewer {reviewer_id!r}")
        if c.execute("SELECT 1 FROM benchmark_results WHERE bench_run_id = ? AND test_id = ?",
                     (bench_run_id, test_id)).fetchone() is None:
            problems.append(f"no response to test {test_id!r} in stored benchmark run {bench_run_id!r}")
        if problems:
            raise StoreError("rating not saved: " + "; ".join(problems))
        previous = c.execute(f"SELECT judgment_id, version FROM benchmark_judgments WHERE bench_run_id = ? AND "
                             f"test_id = ? AND reviewer_id = ? AND {_CURRENT_RATING}",
                             (bench_run_id, test_id, reviewer_id)).fetchone()
        cur = c.execute("INSERT INTO benchmark_judgments (reviewer_id, bench_run_id, test_id, adequacy, fluency, note, "
                        "version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (reviewer_id, bench_run_id, test_id, adequacy, fluency, (note or "").strip() or None,
                         previous["version"] + 1 if previous else 1, utcnow()))
        new_id = cur.lastrowid
        if previous is not None:
            c.execute("UPDATE benchmark_judgments SET superseded_by = ? WHERE judgment_id = ?",
                      (new_id, previous["judgment_id"]))
        row = c.execute("SELECT * FROM benchmark_judgments WHERE judgment_id = ?", (new_id,)).fetchone()
    return _rating(row)


def response_ratings(ws: Workspace, bench_run_id: str) -> list[ResponseRating]:
    """Every rating in force of one run's responses, oldest first."""
    return [_rating(r) for r in ws.conn.execute(
        f"SELECT * FROM benchmark_judgments WHERE bench_run_id = ? AND {_CURRENT_RATING} ORDER BY judgment_id",
        (bench_run_id,))]


def response_rating_means(ws: Workspace, bench_run_id: str) -> RatingMeans:
    """The mean over rated responses of each response's mean adequacy and fluency (over its reviewers)."""
    by_test: dict[str, list[ResponseRating]] = {}
    for r in response_ratings(ws, bench_run_id):
        by_test.setdefault(r.test_id, []).append(r)
    means: dict[str, list[float]] = {"adequacy": [], "fluency": []}
    for ratings in by_test.values():
        for aspect, found in means.items():
            values = [v for r in ratings if (v := getattr(r, aspect)) is not None]
            if values:
                found.append(sum(values) / len(values))
    adequacy, fluency = (sum(v) / len(v) if v else None for v in (means["adequacy"], means["fluency"]))
    return RatingMeans(adequacy, fluency, responses=len(by_test), ratings=sum(len(v) for v in by_test.values()))
