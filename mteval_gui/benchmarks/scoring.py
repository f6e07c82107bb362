"""Scoring a suite against one model's responses: tests, categories, suite score, ranking.

The same for every suite (SPEC §10 for ÈwéBench; also shown to users):

- A test is *answered* when the responses hold a record for its id (a response or a provider
  error). A category is **active** when at least one of its tests is answered; otherwise it
  is **inactive** (a partial run): its tests are ``not_run``, it has no score and it leaves
  the suite score.
- In an active category every test counts but the unscorable: ``scored`` tests by the suite's
  method, provider ``error``s 0 (never scored as text), ``missing`` responses 0.
  ``unscorable`` tests (suite defects of severity error: no expectation, no criterion that can
  be checked) have no score, are listed and are left out of the category's mean — whether
  they were answered, not answered or met a provider error (one rule, SPEC §13: the same
  responses give the same suite score whichever unscorable tests were sent). An empty
  response (no text, no function call) scores 0 whatever its method: nothing is earned by
  saying nothing.
- A test is passed when its score is ≥ the suite's pass threshold (0.7). Category score =
  mean score × 100 of its tests that can be scored (None when none can).
- Suite score = Σ category score × weight / Σ weights of active categories (None when no
  weighted category is active). Categories the suite does not declare have weight 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mteval_gui.benchmarks.suite import BenchmarkSuite
from mteval_gui.domain.benchmark import (
    BenchmarkResult,
    BenchTest,
    BenchTestResult,
    CategoryResult,
    ResponseRecord,
    Responses,
    Suite,
)
from mteval_gui.domain.messages import Message, msg


def _lines(*messages: Message) -> dict[str, Any]:
    """An explanation's ``lines`` (English) with their messages (``lines_msg``, translatable:
    the application's own catalog, ``resources/messages``)."""
    return {"lines": [m.text() for m in messages], "lines_msg": [m.to_json() for m in messages]}


def score_test(definition: BenchmarkSuite, test: BenchTest, record: ResponseRecord | None, *,
               category_active: bool = True, resources: Any = None) -> BenchTestResult:
    """Score one test against its response record (None = no response)."""
    base: dict[str, Any] = {"test_id": test.id, "category": test.category, "method": test.method,
                            "prompt": test.display_prompt}
    if not category_active:
        return BenchTestResult(**base, status="not_run", score=None, passed=None,
                               explanation=_lines(msg("category not run (no response for any of its tests)")))
    if test.unscorable:
        # One rule whatever the record: answered, missing or a provider error, a test that
        # cannot be scored stays out of the category's mean (SPEC §13).
        return BenchTestResult(**base, status="unscorable", score=None, passed=None,
                               response=(record.response or "") if record is not None else None,
                               error=record.error if record is not None else None,
                               explanation={**_lines(msg("suite defect: {defect}", defect=test.unscorable),
                                                     msg("not scored; left out of the category's mean")),
                                            "defect": test.unscorable})
    if record is None:
        return BenchTestResult(**base, status="missing", score=0.0, passed=False,
                               explanation=_lines(msg("no response for this test: scored 0")))
    if record.error is not None:
        return BenchTestResult(**base, status="error", score=0.0, passed=False, error=record.error,
                               response=record.response,
                               explanation=_lines(msg("provider error: {error}", error=record.error),
                                                  msg("scored 0 (not scored as text)")))
    response = record.response or ""
    score, expl = definition.score_test(test, response, record.tool_calls, resources)
    if record.tool_calls:
        expl["tool_calls"] = record.tool_calls
    elif not response.strip():
        # An empty answer earns nothing, not even for criteria it meets by saying nothing
        # ("contains_function_call": false, "max_length"); the criteria are still explained.
        score = 0.0
        expl["empty_response"] = True
        said = expl.get("lines")
        expl["lines"] = ["empty response: scored 0"] + (list(said) if isinstance(said, list) else [])
        if isinstance(expl.get("lines_msg"), list):  # the lines' messages stay beside them, one a line
            expl["lines_msg"] = [msg("empty response: scored 0").to_json(), *expl["lines_msg"]]
    return BenchTestResult(**base, status="scored", score=score, passed=score >= definition.pass_threshold,
                           response=response, explanation=expl)


def weighted_score(categories: Sequence[CategoryResult]) -> tuple[float | None, float]:
    """(suite score, Σ active weights). None when no weighted category is active."""
    active = [c for c in categories if c.active and c.score is not None and c.weight > 0]
    total_w = sum(c.weight for c in active)
    if total_w <= 0:
        return None, 0.0
    return sum((c.score or 0.0) * c.weight for c in active) / total_w, total_w


def summarise_category(category: str, title: str, results: Sequence[BenchTestResult], weight: float,
                       active: bool) -> CategoryResult:
    total = len(results)
    # an unscorable test is answered when it has a record (a response or a provider error)
    answered = sum(1 for r in results if r.status in ("scored", "error")
                   or (r.status == "unscorable" and (r.response is not None or r.error is not None)))
    cr = CategoryResult(
        category=category,
        title=title,
        weight=weight,
        active=active,
        total=total,
        answered=answered if active else 0,
        missing=sum(1 for r in results if r.status == "missing"),
        errors=sum(1 for r in results if r.status == "error"),
        unscorable=sum(1 for r in results if r.status == "unscorable"),
    )
    if active and total:
        counted = [r for r in results if r.status != "unscorable"]
        cr.score = sum(r.score or 0.0 for r in counted) / len(counted) * 100 if counted else None
        cr.passed = sum(1 for r in results if r.passed)
    return cr


def score_suite(definition: BenchmarkSuite, suite: Suite, responses: Responses, *, model: str | None = None,
                weights: Mapping[str, float] | None = None, resources: Any = None,
                created_at: str | None = None) -> BenchmarkResult:
    """Score every test of ``suite`` against ``responses`` (see the module docstring)."""
    weights = dict(definition.weights() if weights is None else weights)
    res = resources if resources is not None else definition.prepare()
    records = responses.records
    active_cats = {t.category for t in suite.tests if t.id in records}
    results = [score_test(definition, t, records.get(t.id), category_active=t.category in active_cats, resources=res)
               for t in suite.tests]
    categories = []
    for cat in suite.categories:
        cat_results = [r for r in results if r.category == cat]
        categories.append(summarise_category(cat, definition.category_title(cat), cat_results,
                                             float(weights.get(cat, 0.0)), cat in active_cats))
    score, active_w = weighted_score(categories)
    name = model or responses.model or (Path(responses.path).stem if responses.path else "model")
    return BenchmarkResult(
        benchmark=definition.title,
        suite=definition.name,
        score_name=definition.score_name,
        model=name,
        suite_path=suite.path,
        suite_sha256=suite.sha256,
        responses_path=responses.path,
        responses_sha256=responses.sha256,
        created_at=created_at or datetime.now(UTC).isoformat(timespec="seconds"),
        pass_threshold=definition.pass_threshold,
        score=score,
        active_weight=active_w,
        categories=categories,
        tests=results,
        suite_defects=list(suite.defects),
        response_warnings=list(responses.warnings),
        normalisation=definition.normalisation(res),
        resources=definition.describe_resources(res),
    )


# ------------------------------------------------------------------------------------ ranking


@dataclass
class Ranking:
    """Several models side by side, best suite score first (models without a score last)."""

    results: list[BenchmarkResult]
    categories: list[str]
    caveats: list[str] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for rank, r in enumerate(self.results, start=1):
            cats = {c.category: c for c in r.categories}
            out.append({
                "rank": rank,
                "model": r.model,
                "score": r.score,
                "passed": r.passed,
                "total": r.total,
                "categories": {c: (cats[c].score if c in cats and cats[c].active else None) for c in self.categories},
                "created_at": r.created_at,
            })
        return out


def rank_results(results: Sequence[BenchmarkResult], definition: BenchmarkSuite | None = None) -> Ranking:
    """Order results by suite score and list caveats that make a comparison unfair."""
    ordered = sorted(results, key=lambda r: (r.score is None, -(r.score or 0.0), r.model))
    order = definition.category_order() if definition is not None else []
    cats: list[str] = [c for c in order if any(r.category(c) for r in results)]
    for r in results:
        for c in r.categories:
            if c.category not in cats:
                cats.append(c.category)
    caveats = []
    if len({r.suite for r in results}) > 1:
        caveats.append("suite_differs: the results come from different benchmark suites")
    elif len({r.suite_sha256 for r in results}) > 1:
        caveats.append("suite_differs: the results were scored on different suite files")
    active_sets = {tuple(sorted(c.category for c in r.categories if c.active)) for r in results}
    if len(active_sets) > 1:
        caveats.append(f"coverage_differs: the models were run on different categories (partial runs); "
                       f"{_score_names(results)} are weighted over different categories")
    described = {str(sorted((k, v.get("sha256") if isinstance(v, dict) else v) for k, v in r.resources.items()))
                 for r in results if r.resources}
    if len(described) > 1:
        caveats.append("word_lists_differ: the suite's word lists or data files changed between these results")
    scorers = {str(r.normalisation.get("scored_by", "mteval")) for r in results}
    if len(scorers) > 1:
        caveats.append("scorer_differs: some results were scored by another program (" + ", ".join(sorted(
            f"{r.model}: {r.normalisation['scored_by']}" for r in results if "scored_by" in r.normalisation))
            + "), whose methods differ")
    for r in results:
        if r.score is None:
            caveats.append(f"{r.model}: no category was run")
    return Ranking(list(ordered), cats, caveats)


def _score_names(results: Sequence[BenchmarkResult]) -> str:
    names = sorted({r.score_name for r in results})
    return ", ".join(f"{n}s" for n in names) if names else "scores"
