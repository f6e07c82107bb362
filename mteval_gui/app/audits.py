"""Audits of the metrics by speakers: Task B judges the language linter, Task C the analyzer.

- :func:`linter_audit_queue` / :func:`linter_audit` -> the entries the linter called EQUIVALENT
  (with the classes that fired) and its per-class precision from the Task B judgments;
- :func:`fst_audit_queue` / :func:`fst_audit` / :func:`allowlist_rows` -> the words the analyzer
  rejected, its false-rejection rate and the allowlist from the Task C judgments.

They judge the metrics, not the output: a sign-off does not count them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from pydantic import ValidationError

from mteval_gui.app.metrics import run_metrics
from mteval_gui.app.review import current_judgments, require_runs
from mteval_gui.domain.details import Verdict
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import entry_details, entry_scores_with_count, entry_scores_with_verdict
from mteval_gui.validation.audits import (
    ALL_CLASSES,
    UNCLASSIFIED,
    ClassPrecision,
    FstAudit,
    LinterAnswer,
    WordAnswer,
    linter_precision,
)
from mteval_gui.validation.audits import fst_audit as _fst_audit

__all__ = ["ALL_CLASSES", "UNCLASSIFIED", "allowlist_rows", "fst_audit", "fst_audit_queue", "linter_audit",
           "linter_audit_queue", "linter_detail", "linter_ids", "linter_misses", "rejected_words"]

# --------------------------------------------------------------------------- Task B


def linter_ids(ws: Workspace, run_id: str) -> list[str]:
    """The run's language linters: the metrics of role ``equivalence_verdict`` a language
    standard brings (the built-in fold rule is not a linter)."""
    return run_metrics(ws, run_id).by_role("equivalence_verdict", builtin=False)


def _as_verdict(detail: Any) -> Verdict | None:
    """A stored per-entry detail as a :class:`Verdict` (None without a verdict)."""
    if not isinstance(detail, dict) or detail.get("verdict") is None:
        return None
    try:
        return Verdict.model_validate(detail)
    except ValidationError:
        return None


def linter_detail(ws: Workspace, run_id: str, entry_id: str) -> Verdict | None:
    """The language linter's verdict for one entry (classes, explanation, pairs…), or None."""
    details = entry_details(ws, run_id, entry_id)
    for metric_id in linter_ids(ws, run_id):
        verdict = _as_verdict((details.get(metric_id) or {}).get("detail"))
        if verdict is not None:
            return verdict
    return None


def _lint_details(ws: Workspace, run_id: str, verdict: str | None = None) -> dict[str, Verdict]:
    """``{entry_id: linter verdict}`` from the run's language linter (:func:`linter_ids`).

    With ``verdict``, only entries with that verdict are read (filtered in SQL: on a large run
    most rows are never decoded).
    """
    out: dict[str, Verdict] = {}
    for metric_id in linter_ids(ws, run_id):
        for entry_id, data in entry_scores_with_verdict(ws, run_id, metric_id, verdict).items():
            v = _as_verdict(data.get("detail"))
            if v is not None:
                out.setdefault(entry_id, v)
    return out


def linter_misses(ws: Workspace, run_id: str) -> dict[str, Verdict]:
    """``{entry_id: verdict}`` of the entries the run's language linter called MISS (with the
    output and reference words it could not pair, where the linter says)."""
    return _lint_details(ws, run_id, "MISS")


def linter_audit_queue(ws: Workspace, run_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Entries the linter called EQUIVALENT, with the classes that fired (the Task B items)."""
    require_runs(ws, run_ids)
    queue = []
    for run_id in run_ids:
        for entry_id, v in sorted(_lint_details(ws, run_id, "EQUIVALENT").items()):
            if v.verdict == "EQUIVALENT":
                item: dict[str, Any] = {"run_id": run_id, "entry_id": entry_id, "classes": list(v.classes),
                                        "explanation": v.explanation}
                if v.explanation_msg is not None:  # the explanation as a translatable message
                    item["explanation_msg"] = v.explanation_msg.model_dump()
                queue.append(item)
    return queue


def linter_audit(ws: Workspace, run_ids: Sequence[str]) -> list[ClassPrecision]:
    """Per-class linter precision from the current Task B judgments.

    Classes come from the judgment (``payload.classes``, recorded when it was made) or else from
    the linter's stored result for the entry.
    """
    require_runs(ws, run_ids)
    answers = []
    for run_id in run_ids:
        details: dict[str, Verdict] | None = None
        for j in current_judgments(ws, run_id=run_id, task="B"):
            classes = j.payload.get("classes")
            if classes is None:
                if details is None:
                    details = _lint_details(ws, run_id)
                found = details.get(j.entry_id or "")
                classes = found.classes if found is not None else []
            answers.append(LinterAnswer((run_id, j.entry_id), j.reviewer_id, tuple(classes),
                                        j.payload.get("same_meaning"), j.payload.get("natural")))
    return linter_precision(answers)


# --------------------------------------------------------------------------- Task C


def rejected_words(ws: Workspace, run_id: str) -> list[tuple[str, str]]:
    """(entry_id, word) for every word the analyzer rejected in the run's outputs (corpus order).

    Only entries with a rejected word are decoded (``values.rejected`` filtered in SQL; results
    stored without that count are read as well).
    """
    out: list[tuple[str, str]] = []
    fst_metric = run_metrics(ws, run_id).first("fst_analysis")
    if fst_metric is None:
        return out
    # read as plain JSON, not as WordAnalysis models: 40-70k entries are decoded here (measured: the
    # models would add ~35 µs per 8-word entry, 2.5 s on 70k entries)
    for entry_id, data in entry_scores_with_count(ws, run_id, fst_metric, "rejected"):
        seen = set()
        for w in (data.get("detail") or {}).get("analyses") or []:
            token = w.get("token")
            if token and not w.get("accepted") and token not in seen:
                seen.add(token)
                out.append((entry_id, token))
    return out


def fst_audit_queue(ws: Workspace, run_ids: Sequence[str], *, limit: int | None = None,
                    seed: int = 0) -> list[tuple[str, str, str]]:
    """(run_id, entry_id, word) rejected-word occurrences to audit; a seeded random sample when ``limit`` is set."""
    require_runs(ws, run_ids)
    items = [(run_id, entry_id, word) for run_id in run_ids for entry_id, word in rejected_words(ws, run_id)]
    if limit is not None and limit < len(items):
        items = sorted(random.Random(seed).sample(items, limit), key=items.index)
    return items


def fst_audit(ws: Workspace, run_ids: Sequence[str]) -> FstAudit:
    """FST false-rejection rate and allowlist from the current Task C judgments."""
    require_runs(ws, run_ids)
    answers = [
        WordAnswer((j.run_id, j.entry_id, word), word, j.reviewer_id, j.payload.get("valid"), j.payload.get("kind"))
        for run_id in run_ids for j in current_judgments(ws, run_id=run_id, task="C")
        if isinstance(word := j.payload.get("word"), str)  # recorded task C judgments always name their word
    ]
    return _fst_audit(answers)


def allowlist_rows(audit: FstAudit) -> list[dict[str, Any]]:
    """The audit's allowlist in the shape of :func:`mteval_gui.io.judgments.write_allowlist`."""
    rows = []
    for row in audit.allowlist:
        run_id, entry_id, _ = cast("tuple[str, str | None, str]", row["example"])  # an occurrence of fst_audit
        rows.append({"word": row["word"], "kind": row["kind"], "occurrences": row["occurrences"],
                     "raters": row["raters"], "run_id": run_id, "entry_id": entry_id})
    return rows
