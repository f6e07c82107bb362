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
  :func:`response_rating` reads the one in force, :func:`response_rating_means` the mean per run;
  :func:`export_ratings` gives every version for a judgment file and :func:`merge_ratings`
  merges a file's ratings inside the judgment import's transaction.

The suite's name, title and score name are kept in the run's ``meta``; runs stored before
suites were plugins carry only the title (``benchmark``), which the caller maps to a suite
(``suites``: title -> (name, score name)).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.benchmark import (
    BenchmarkResult,
    BenchTestResult,
    CategoryResult,
    SuiteDefect,
)
from mteval_gui.domain.judgments import BenchmarkJudgment
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


# ----- judgment files: every version, out and in ---------------------------------------------

def _suites(c: Any) -> dict[str, str | None]:
    """bench_run_id -> the run's suite name (None: stored before suites were named)."""
    out: dict[str, str | None] = {}
    for row in c.execute("SELECT bench_run_id, json_extract(meta, '$.suite') AS suite FROM benchmark_runs"):
        out[row["bench_run_id"]] = row["suite"] if isinstance(row["suite"], str) else None
    return out


def _version(row: Any, suite: str | None) -> BenchmarkJudgment:
    return BenchmarkJudgment(
        judgment_id=row["judgment_id"], reviewer_id=row["reviewer_id"], suite=suite, bench_run_id=row["bench_run_id"],
        test_id=row["test_id"], adequacy=row["adequacy"], fluency=row["fluency"], note=row["note"],
        version=row["version"], created_at=row["created_at"], superseded_by=row["superseded_by"],
    )


def export_ratings(ws: Workspace, *, reviewer_id: str | None = None) -> list[BenchmarkJudgment]:
    """Every version of every rating of benchmark responses (of one reviewer when given), oldest first."""
    suites = _suites(ws.conn)
    where, params = ("WHERE reviewer_id = ?", (reviewer_id,)) if reviewer_id is not None else ("", ())
    return [_version(r, suites.get(r["bench_run_id"]))
            for r in ws.conn.execute(f"SELECT * FROM benchmark_judgments {where} ORDER BY judgment_id", params)]


def _content(b: BenchmarkJudgment) -> tuple[Any, ...]:
    return (b.adequacy, b.fluency, (b.note or "").strip() or None, b.created_at)


def merge_ratings(
    c: Any,
    ratings: Sequence[tuple[int | None, BenchmarkJudgment]],
    *,
    reviewers: set[str],
    withdrawn: Callable[[BenchmarkJudgment], bool],
    defect: Callable[[int | None, str], None],
    now: str,
) -> tuple[int, int, dict[str, int]]:
    """Merge a judgment file's ratings of benchmark responses inside the import's transaction ``c``.

    The rules of the judgment log: ratings with a ``judgment_id`` are log rows (versions present
    on both sides must be identical; new versions are appended when the workspace has no version
    the file lacks); ratings without one are new versions recorded in file order. ``reviewers``:
    the ids the file adds; ``withdrawn``: whether a rating falls under a withdrawal (skipped).
    Problems go to ``defect``; returns (added, unchanged, skipped per reviewer).
    """
    suites = _suites(c)
    skipped: dict[str, int] = {}
    log_rows: list[tuple[int | None, BenchmarkJudgment]] = []
    new_rows: list[tuple[int | None, BenchmarkJudgment]] = []
    for line, b in ratings:
        if withdrawn(b):
            skipped[b.reviewer_id] = skipped.get(b.reviewer_id, 0) + 1
            continue
        problems = []
        if b.reviewer_id not in reviewers and c.execute(
                "SELECT 1 FROM reviewers WHERE reviewer_id = ?", (b.reviewer_id,)).fetchone() is None:
            problems.append(f"unknown reviewer {b.reviewer_id!r}")
        if b.bench_run_id not in suites:
            problems.append(f"no stored benchmark run {b.bench_run_id!r}")
        elif c.execute("SELECT 1 FROM benchmark_results WHERE bench_run_id = ? AND test_id = ?",
                       (b.bench_run_id, b.test_id)).fetchone() is None:
            problems.append(f"no response to test {b.test_id!r} in stored benchmark run {b.bench_run_id!r}")
        elif b.suite is not None and suites[b.bench_run_id] is not None and b.suite != suites[b.bench_run_id]:
            problems.append(f"benchmark run {b.bench_run_id!r} is of suite {suites[b.bench_run_id]!r}, "
                            f"not {b.suite!r}")
        for p in problems:
            defect(line, p)
        if not problems:
            (log_rows if b.judgment_id is not None else new_rows).append((line, b))

    added = unchanged = 0
    by_id: dict[int, tuple[int | None, BenchmarkJudgment]] = {}
    groups: dict[tuple[str, str, str], list[tuple[int | None, BenchmarkJudgment]]] = defaultdict(list)
    for line, b in log_rows:
        assert b.judgment_id is not None
        if b.judgment_id in by_id:
            defect(line, f"benchmark rating judgment_id {b.judgment_id} appears twice in the file "
                         f"(first on line {by_id[b.judgment_id][0]})")
            continue
        by_id[b.judgment_id] = (line, b)
        groups[(b.reviewer_id, b.bench_run_id, b.test_id)].append((line, b))
    for key, items in groups.items():
        ok = True
        versions: dict[int, int | None] = {}
        for line, b in items:
            if b.version in versions:
                defect(line, f"version {b.version} of this benchmark rating appears twice (also line "
                             f"{versions[b.version]})")
                ok = False
            versions[b.version] = line
            if b.superseded_by is not None:
                target = by_id.get(b.superseded_by)
                if target is None or (target[1].reviewer_id, target[1].bench_run_id, target[1].test_id) != key \
                        or target[1].version <= b.version:
                    defect(line, f"superseded_by {b.superseded_by} is not a later version of the same benchmark "
                                 "rating in the file")
                    ok = False
        current = [line for line, b in items if b.superseded_by is None]
        if len(current) > 1:
            defect(current[1], f"more than one current version of the same benchmark rating "
                               f"(lines {current[0]} and {current[1]})")
            ok = False
        if not ok:
            continue
        reviewer, run, test = key
        stored = {r["version"]: r for r in c.execute(
            "SELECT * FROM benchmark_judgments WHERE reviewer_id = ? AND bench_run_id = ? AND test_id = ?",
            (reviewer, run, test))}
        diverged = False
        for line, b in items:
            have = stored.get(b.version)
            if have is not None and _content(b) != _content(_version(have, None)):
                defect(line, f"version {b.version} of this benchmark rating differs from the one in the workspace "
                             f"(reviewer {reviewer}, benchmark run {run}, test {test})")
                diverged = True
        fresh = sorted(((line, b) for line, b in items if b.version not in stored), key=lambda it: it[1].version)
        missing = sorted(set(stored) - {b.version for _, b in items})
        if fresh and missing:
            defect(fresh[0][0], f"the workspace has version {missing[0]} of this benchmark rating (reviewer "
                                f"{reviewer}, benchmark run {run}, test {test}) that the file lacks, and the file "
                                f"has version {fresh[0][1].version} that the workspace lacks: the logs have diverged")
            diverged = True
        if diverged:
            continue
        unchanged += len(items) - len(fresh)
        if not fresh:
            continue
        id_map = {b.judgment_id: stored[b.version]["judgment_id"] for _, b in items if b.version in stored}
        for _, b in fresh:
            cur = c.execute(
                "INSERT INTO benchmark_judgments (reviewer_id, bench_run_id, test_id, adequacy, fluency, note, "
                "version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (reviewer, run, test, b.adequacy, b.fluency, (b.note or "").strip() or None, b.version,
                 b.created_at or now))
            id_map[b.judgment_id] = cur.lastrowid
            added += 1
        for _, b in items:
            c.execute("UPDATE benchmark_judgments SET superseded_by = ? WHERE judgment_id = ?",
                      (id_map.get(b.superseded_by) if b.superseded_by is not None else None, id_map[b.judgment_id]))
    for _, b in new_rows:
        previous = c.execute(f"SELECT judgment_id, version FROM benchmark_judgments WHERE bench_run_id = ? AND "
                             f"test_id = ? AND reviewer_id = ? AND {_CURRENT_RATING}",
                             (b.bench_run_id, b.test_id, b.reviewer_id)).fetchone()
        cur = c.execute("INSERT INTO benchmark_judgments (reviewer_id, bench_run_id, test_id, adequacy, fluency, note, "
                        "version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (b.reviewer_id, b.bench_run_id, b.test_id, b.adequacy, b.fluency,
                         (b.note or "").strip() or None, previous["version"] + 1 if previous else 1,
                         b.created_at or now))
        if previous is not None:
            c.execute("UPDATE benchmark_judgments SET superseded_by = ? WHERE judgment_id = ?",
                      (cur.lastrowid, previous["judgment_id"]))
        added += 1
    return added, unchanged, skipped
