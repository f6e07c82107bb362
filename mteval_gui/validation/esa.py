"""ESA scores from speakers' direct segment scores, and an MQM-style penalty from their error spans.

Error Span Annotation (ESA; Kocmi, Zouhar et al. 2024, "Error Span Annotation: A Balanced
Approach for Human Evaluation of Machine Translation", WMT 2024, arXiv:2406.11580) has a
speaker mark the erroneous spans of an output as minor or major (here also critical) and then
rate the output on a 0-100 scale. The two are kept apart:

- **ESA score**: the annotator's own 0-100 rating of the segment (payload ``esa_score``). An
  entry's ESA is the mean over its reviewers' current judgments that carry one; a run's ESA is
  the mean over its scored entries (each entry weighs the same however many reviewers it has).
  Nothing is derived from spans: a judgment without a direct score gives no ESA score.
- **MQM-style penalty**: the sum of the spans' severity weights, with the weights of MQM as
  used at WMT (Freitag et al. 2021, "Experts, Errors, and Context", TACL: a minor error costs
  1, a major error 5) and 10 for a critical error (the MQM scoring model's critical weight);
  a language card may set its own weights (``errorSeverityWeights``). Spans that mark missing
  content count like any other span of their severity. An entry's penalty is the mean over its
  reviewers' judgments that carry a ``spans`` list (an empty list = no error = 0); a run's the
  mean over those entries.

Categories are counted per severity for the breakdown.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SEVERITIES = ("minor", "major", "critical")
SEVERITY_WEIGHTS: Mapping[str, float] = {"minor": 1.0, "major": 5.0, "critical": 10.0}
MAX_SCORE = 100.0
UNCATEGORISED = "(none)"
MISSING = "(missing)"


def severity_of(span: Mapping[str, Any]) -> str:
    """The span's severity (an unknown one counts as major)."""
    s = span.get("severity")
    return s if isinstance(s, str) and s in SEVERITIES else "major"


def span_penalty(spans: Iterable[Mapping[str, Any]], weights: Mapping[str, float] | None = None) -> float:
    """The sum of the spans' severity weights (default :data:`SEVERITY_WEIGHTS`)."""
    w = {**SEVERITY_WEIGHTS, **(weights or {})}
    return float(sum(w[severity_of(s)] for s in spans))


@dataclass(frozen=True)
class SpanJudgment:
    """One reviewer's judgment on one output: ``item`` is (run_id, entry_id); ``spans`` None when
    the reviewer marked none, ``score`` the direct ESA score (None when not given)."""

    item: tuple[str, str]
    reviewer_id: str
    spans: tuple[Mapping[str, Any], ...] | None
    score: float | None = None


@dataclass
class EsaRun:
    """ESA over one run: the direct-score mean and, apart, the MQM-style penalty and span counts."""

    run_id: str
    score: float | None = None
    entries: dict[str, float] = field(default_factory=dict)
    judgments: int = 0
    scored_judgments: int = 0
    penalty: float | None = None
    penalty_entries: dict[str, float] = field(default_factory=dict)
    span_judgments: int = 0
    minor: int = 0
    major: int = 0
    critical: int = 0
    missing: int = 0
    weights: dict[str, float] = field(default_factory=lambda: dict(SEVERITY_WEIGHTS))
    by_category: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "score": self.score, "entries_scored": len(self.entries),
                "judgments": self.judgments, "scored_judgments": self.scored_judgments,
                "mqm_penalty": self.penalty, "penalty_entries": len(self.penalty_entries),
                "span_judgments": self.span_judgments, "severity_weights": self.weights,
                "minor": self.minor, "major": self.major, "critical": self.critical, "missing": self.missing,
                "by_category": self.by_category, "entries": self.entries}


def _mean(values: Iterable[float]) -> float | None:
    v = list(values)
    return round(sum(v) / len(v), 4) if v else None


def esa_by_run(judgments: Iterable[SpanJudgment],
               weights: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, EsaRun]:
    """ESA per run (in first-seen order) from judgments that carry a direct score or spans.

    ``weights`` gives a run's severity weights by run id (a run not named: :data:`SEVERITY_WEIGHTS`)."""
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    penalties: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    runs: dict[str, EsaRun] = {}
    cats: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for j in judgments:
        if j.score is None and j.spans is None:
            continue
        run_id, entry_id = j.item
        run = runs.get(run_id)
        if run is None:
            run = runs[run_id] = EsaRun(run_id, weights={**SEVERITY_WEIGHTS, **((weights or {}).get(run_id) or {})})
        run.judgments += 1
        if j.score is not None:
            run.scored_judgments += 1
            scores[run_id][entry_id].append(float(j.score))
        if j.spans is None:
            continue
        run.span_judgments += 1
        penalties[run_id][entry_id].append(span_penalty(j.spans, run.weights))
        for s in j.spans:
            severity = severity_of(s)
            setattr(run, severity, getattr(run, severity) + 1)
            if s.get("missing") is True:
                run.missing += 1
            cats[run_id][(str(s.get("category") or UNCATEGORISED), severity)] += 1
    for run_id, run in runs.items():
        run.entries = {e: sum(v) / len(v) for e, v in scores[run_id].items()}
        run.score = _mean(run.entries.values())
        run.penalty_entries = {e: sum(v) / len(v) for e, v in penalties[run_id].items()}
        run.penalty = _mean(run.penalty_entries.values())
        by_cat: dict[str, dict[str, int]] = {}
        for (cat, severity), n in sorted(cats[run_id].items()):
            by_cat.setdefault(cat, dict.fromkeys(SEVERITIES, 0))[severity] = n
        run.by_category = by_cat
    return runs
