"""ESA scores from speakers' error spans.

Error Span Annotation (ESA; Kocmi, Zouhar et al. 2024, "Error Span Annotation: A Balanced
Approach for Human Evaluation of Machine Translation", WMT 2024, arXiv:2406.11580) has a
speaker mark the erroneous spans of an output as minor or major and rate the output on a
0-100 scale. Here the 0-100 score is derived from the spans with the severity weights of
MQM as used at WMT (Freitag et al. 2021, "Experts, Errors, and Context", TACL: a minor error
costs 1 point, a major error 5):

    ESA(judgment) = max(0, 100 - 1 * minor - 5 * major)

A judgment counts only when it carries a ``spans`` list (an empty list = "no error found" =
100); ratings made without looking for spans give no ESA score. An entry's score is the
mean over its reviewers' current judgments; a run's score is the mean over its scored
entries (each entry weighs the same however many reviewers it has). Categories are counted
per severity for the breakdown.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SEVERITY_WEIGHTS: Mapping[str, float] = {"minor": 1.0, "major": 5.0}
MAX_SCORE = 100.0
UNCATEGORISED = "(none)"


def span_penalty(spans: Iterable[Mapping[str, Any]]) -> float:
    """The sum of the spans' severity weights (unknown severities count as major)."""
    return sum(SEVERITY_WEIGHTS.get(str(s.get("severity")), SEVERITY_WEIGHTS["major"]) for s in spans)


def esa_score(spans: Sequence[Mapping[str, Any]]) -> float:
    """ESA score of one judgment's spans: ``max(0, 100 - minor - 5 * major)``."""
    return max(0.0, MAX_SCORE - span_penalty(spans))


@dataclass(frozen=True)
class SpanJudgment:
    """One reviewer's spans on one output: ``item`` is (run_id, entry_id)."""

    item: tuple[str, str]
    reviewer_id: str
    spans: tuple[Mapping[str, Any], ...]


@dataclass
class EsaRun:
    """ESA over one run: per-entry means, the run mean, span counts."""

    run_id: str
    score: float | None = None
    entries: dict[str, float] = field(default_factory=dict)
    judgments: int = 0
    minor: int = 0
    major: int = 0
    by_category: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "score": self.score, "entries_scored": len(self.entries),
                "judgments": self.judgments, "minor": self.minor, "major": self.major,
                "by_category": self.by_category, "entries": self.entries}


def esa_by_run(judgments: Iterable[SpanJudgment]) -> dict[str, EsaRun]:
    """ESA per run (in first-seen order) from the judgments that carry spans."""
    per_entry: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    runs: dict[str, EsaRun] = {}
    cats: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    for j in judgments:
        run_id, entry_id = j.item
        run = runs.setdefault(run_id, EsaRun(run_id))
        run.judgments += 1
        per_entry[run_id][entry_id].append(esa_score(j.spans))
        for s in j.spans:
            severity = "minor" if s.get("severity") == "minor" else "major"
            if severity == "minor":
                run.minor += 1
            else:
                run.major += 1
            cats[run_id][(str(s.get("category") or UNCATEGORISED), severity)] += 1
    for run_id, run in runs.items():
        run.entries = {e: sum(v) / len(v) for e, v in per_entry[run_id].items()}
        run.score = round(sum(run.entries.values()) / len(run.entries), 4) if run.entries else None
        by_cat: dict[str, dict[str, int]] = {}
        for (cat, severity), n in sorted(cats[run_id].items()):
            by_cat.setdefault(cat, {"minor": 0, "major": 0})[severity] = n
        run.by_category = by_cat
    return runs
