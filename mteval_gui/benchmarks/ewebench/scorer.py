"""Scoring a suite against one model's responses: tests, categories, ÈwéScore (SPEC §10).

Definitions (also shown to users):

- A test is *answered* when the responses hold a record for its id (a response or a provider
  error). A category is **active** when at least one of its tests is answered; otherwise it
  is **inactive** (a partial run): its tests are ``not_run``, it has no score and it leaves
  the ÈwéScore.
- In an active category every test counts: ``scored`` tests by their method, provider
  ``error``s 0 (never scored as text), ``missing`` responses 0, ``unscorable`` tests (suite
  defects of severity error, e.g. an exact_match test without ``expected``) 0.
- A test is passed when its score is ≥ 0.7. Category score = mean test score × 100.
- ÈwéScore = Σ category score × weight / Σ weights of active categories (None when no
  category is active). Categories outside the ten of the methodology have weight 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from eval_standards.ewe.lexicon import EweLexicon, ewe_lexicon
from eval_standards.ewe.orthography import card_folds
from mteval_gui.benchmarks.ewebench.methods import (
    score_composite,
    score_ewe_quality,
    score_exact_match,
    score_format,
    score_keywords,
    score_multiple_choice,
)
from mteval_gui.domain.ewebench import (
    CATEGORY_TITLES,
    CATEGORY_WEIGHTS,
    PASS_THRESHOLD,
    BenchmarkResult,
    BenchTest,
    BenchTestResult,
    CategoryResult,
    ResponseRecord,
    Responses,
    Suite,
)
from mteval_gui.text import NORMALISATION_POLICY

EWEBENCH_NORMALISATION = {
    **NORMALISATION_POLICY,
    "ewebench_exact_match": "match_key; trailing . ! ? … ignored; no look-alike folds",
    "ewebench_words": "NFC + casefold + Ewe card look-alike folds; whole words (letters, marks, digits; "
                      "internal hyphen/apostrophe kept)",
    "ewebench_length": "characters (code points, NFC) after stripping surrounding white space",
}


def score_test(test: BenchTest, record: ResponseRecord | None, *, category_active: bool = True,
               lexicon: EweLexicon | None = None) -> BenchTestResult:
    """Score one test against its response record (None = no response)."""
    base = {"test_id": test.id, "category": test.category, "method": test.method, "prompt": test.display_prompt}
    if not category_active:
        return BenchTestResult(**base, status="not_run", score=None, passed=None,
                               explanation={"lines": ["category not run (no response for any of its tests)"]})
    if record is None:
        return BenchTestResult(**base, status="missing", score=0.0, passed=False,
                               explanation={"lines": ["no response for this test: scored 0"]})
    if record.error is not None:
        return BenchTestResult(**base, status="error", score=0.0, passed=False, error=record.error,
                               response=record.response,
                               explanation={"lines": [f"provider error: {record.error}", "scored 0 (not scored as text)"]})
    response = record.response or ""
    if test.unscorable:
        return BenchTestResult(**base, status="unscorable", score=0.0, passed=False, response=response,
                               explanation={"lines": [f"suite defect: {test.unscorable}"], "defect": test.unscorable})
    method = test.method
    if method == "exact_match":
        score, expl = score_exact_match(test.expected or "", response)
    elif method == "multiple_choice":
        score, expl = score_multiple_choice(test.expected or "", response)
    elif method == "keywords":
        score, expl = score_keywords(test.expected_keywords or [], response)
    elif method == "format":
        fscore, expl = score_format(test.expected_format or {}, response, record.tool_calls)
        score = fscore if fscore is not None else 0.0
    elif method == "ewe_quality":
        score, expl = score_ewe_quality(response, lexicon)
    else:  # composite (check_test guarantees a known method here)
        score, expl = score_composite(test.expected_keywords or [], test.expected_format or {}, response,
                                      record.tool_calls, lexicon)
    if record.tool_calls:
        expl["tool_calls"] = record.tool_calls
    elif not response.strip():
        # An empty answer earns nothing, not even for criteria it meets by saying nothing
        # ("contains_function_call": false, "max_length"); the criteria are still explained.
        score = 0.0
        expl["empty_response"] = True
        lines = expl.get("lines")
        expl["lines"] = ["empty response: scored 0"] + (list(lines) if isinstance(lines, list) else [])
    return BenchTestResult(**base, status="scored", score=score, passed=score >= PASS_THRESHOLD,
                           response=response, explanation=expl)


def ewe_score(categories: Sequence[CategoryResult]) -> tuple[float | None, float]:
    """(ÈwéScore, Σ active weights). None when no weighted category is active."""
    active = [c for c in categories if c.active and c.score is not None and c.weight > 0]
    total_w = sum(c.weight for c in active)
    if total_w <= 0:
        return None, 0.0
    return sum(c.score * c.weight for c in active) / total_w, total_w  # type: ignore[operator]


def summarise_category(category: str, results: Sequence[BenchTestResult], weight: float, active: bool) -> CategoryResult:
    total = len(results)
    answered = sum(1 for r in results if r.status not in ("missing", "not_run"))
    cr = CategoryResult(
        category=category,
        title=CATEGORY_TITLES.get(category, category.replace("_", " ").capitalize()),
        weight=weight,
        active=active,
        total=total,
        answered=answered if active else 0,
        missing=sum(1 for r in results if r.status == "missing"),
        errors=sum(1 for r in results if r.status == "error"),
        unscorable=sum(1 for r in results if r.status == "unscorable"),
    )
    if active and total:
        cr.score = sum(r.score or 0.0 for r in results) / total * 100
        cr.passed = sum(1 for r in results if r.passed)
    return cr


def score_suite(suite: Suite, responses: Responses, *, model: str | None = None,
                weights: Mapping[str, float] | None = None, lexicon: EweLexicon | None = None,
                created_at: str | None = None) -> BenchmarkResult:
    """Score every test of ``suite`` against ``responses`` (see module docstring)."""
    weights = dict(CATEGORY_WEIGHTS if weights is None else weights)
    lex = lexicon if lexicon is not None else ewe_lexicon()
    records = responses.records
    active_cats = {t.category for t in suite.tests if t.id in records}
    results = [score_test(t, records.get(t.id), category_active=t.category in active_cats, lexicon=lex)
               for t in suite.tests]
    categories = []
    for cat in suite.categories:
        cat_results = [r for r in results if r.category == cat]
        categories.append(summarise_category(cat, cat_results, float(weights.get(cat, 0.0)), cat in active_cats))
    score, active_w = ewe_score(categories)
    name = model or responses.model or (Path(responses.path).stem if responses.path else "model")
    return BenchmarkResult(
        model=name,
        suite_path=suite.path,
        suite_sha256=suite.sha256,
        responses_path=responses.path,
        responses_sha256=responses.sha256,
        created_at=created_at or datetime.now(timezone.utc).isoformat(timespec="seconds"),
        ewe_score=score,
        active_weight=active_w,
        categories=categories,
        tests=results,
        suite_defects=list(suite.defects),
        response_warnings=list(responses.warnings),
        normalisation={**EWEBENCH_NORMALISATION, "folds": card_folds()},
        lexicon=lex.describe(),
    )


# ------------------------------------------------------------------------------------ ranking


@dataclass
class Ranking:
    """Several models side by side, best ÈwéScore first (models without a score last)."""

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
                "ewe_score": r.ewe_score,
                "passed": r.passed,
                "total": r.total,
                "categories": {c: (cats[c].score if c in cats and cats[c].active else None) for c in self.categories},
                "created_at": r.created_at,
            })
        return out


def rank_results(results: Sequence[BenchmarkResult]) -> Ranking:
    """Order results by ÈwéScore and list caveats that make a comparison unfair."""
    ordered = sorted(results, key=lambda r: (r.ewe_score is None, -(r.ewe_score or 0.0), r.model))
    cats: list[str] = [c for c in CATEGORY_WEIGHTS if any(r.category(c) for r in results)]
    for r in results:
        for c in r.categories:
            if c.category not in cats:
                cats.append(c.category)
    caveats = []
    suites = {r.suite_sha256 for r in results}
    if len(suites) > 1:
        caveats.append("suite_differs: the results were scored on different suite files")
    active_sets = {tuple(sorted(c.category for c in r.categories if c.active)) for r in results}
    if len(active_sets) > 1:
        caveats.append("coverage_differs: the models were run on different categories (partial runs); "
                       "ÈwéScores are weighted over different categories")
    lexica = {str(sorted((k, v.get("sha256")) for k, v in r.lexicon.items())) for r in results if r.lexicon}
    if len(lexica) > 1:
        caveats.append("word_lists_differ: the Ewe word lists changed between these results")
    for r in results:
        if r.ewe_score is None:
            caveats.append(f"{r.model}: no category was run")
    return Ranking(list(ordered), cats, caveats)
