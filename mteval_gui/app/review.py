"""Speaker review: reviewers, judgments, sign-off, and the validation of the metrics.

:mod:`mteval_gui.validation` works on plain data and never touches the workspace; this module
is the bridge used by the CLI (``reviewers``, ``judgments``, ``validate``, ``signoff``) and the
GUI (ratings panel, audits, validation dashboard, run card ``human_review`` block, "pending
speaker review" badge). Recording, undoing and reading judgments are the store's own
functions (each judgment is committed the moment it is made), named here for the interfaces.

- :func:`run_review_status` -> ``{reviewers, judgments, agreement, confirmed}`` for a run card.
- :func:`validation_study` -> agreement, metric-human correlations with CIs, progress.
- :func:`linter_audit` / :func:`fst_audit` -> Task B linter precision, Task C FST false rejections.
- :func:`linter_audit_queue` / :func:`fst_audit_queue` -> what to show reviewers for tasks B and C.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mteval_gui.domain.judgments import Judgment
from mteval_gui.errors import StoreError
from mteval_gui.store import judgments as store
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import (
    add_reviewer, current_judgments, export_log, get_reviewer, import_log, judgment_history, list_reviewers,
    record_judgment, redo_last, review_progress, review_queue, signoff, signoff_status, undo_last, update_reviewer,
)
from mteval_gui.store.results import (
    entry_scores_with_count, entry_scores_with_verdict, entry_values_bulk, metric_ids_with_values,
)
from mteval_gui.validation.agreement import krippendorff_alpha
from mteval_gui.validation.audits import (
    ALL_CLASSES, UNCLASSIFIED, ClassPrecision, FstAudit, LinterAnswer, WordAnswer, linter_precision,
)
from mteval_gui.validation.audits import fst_audit as _fst_audit
from mteval_gui.validation.study import Item, Rating, StudyResult, ratings_by_item, run_study

__all__ = [
    "add_reviewer", "current_judgments", "export_log", "get_reviewer", "import_log", "judgment_history",
    "list_reviewers", "record_judgment", "redo_last", "review_progress", "review_queue", "signoff",
    "signoff_status", "undo_last", "update_reviewer", "ratings", "metric_values", "available_metrics",
    "validation_study", "run_review_status", "linter_audit_queue", "linter_audit", "rejected_words",
    "fst_audit_queue", "fst_audit", "allowlist_rows", "latest_current", "undo_task", "judgment_counts",
    "import_judgments_file", "ALL_CLASSES", "UNCLASSIFIED",
]

LINT_SUFFIX = ".lint"
FST_METRIC = "core.fst"


def _require_runs(ws: Workspace, run_ids: Sequence[str]) -> None:
    for run_id in run_ids:
        if not repo.run_exists(ws, run_id):
            raise StoreError(f"unknown run {run_id!r}")


def ratings(ws: Workspace, run_ids: Sequence[str]) -> list[Rating]:
    """Current Task A ratings of the runs as plain :class:`Rating` records."""
    out: list[Rating] = []
    for run_id in run_ids:
        for j in current_judgments(ws, run_id=run_id, task="A"):
            if j.entry_id is not None and (j.adequacy is not None or j.fluency is not None):
                out.append(Rating(j.run_id, j.entry_id, j.reviewer_id, j.adequacy, j.fluency))
    return out


def metric_values(ws: Workspace, run_ids: Sequence[str], metric_ids: Sequence[str] | None = None) -> dict[str, dict[Item, float | None]]:
    """``{metric_id: {(run_id, entry_id): value}}`` from the stored per-entry results."""
    out: dict[str, dict[Item, float | None]] = {}
    for run_id in run_ids:
        for metric_id, values in entry_values_bulk(ws, run_id, metric_ids).items():
            bucket = out.setdefault(metric_id, {})
            for entry_id, value in values.items():
                bucket[(run_id, entry_id)] = value
    return out


def available_metrics(ws: Workspace, run_ids: Sequence[str]) -> list[str]:
    """Metric ids with per-entry values in any of the runs."""
    return metric_ids_with_values(ws, run_ids)


def validation_study(
    ws: Workspace,
    run_ids: Sequence[str],
    metric_ids: Sequence[str] | None = None,
    *,
    aspect: str = "adequacy",
    n_bootstrap: int = 1000,
    seed: int = 12345,
) -> StudyResult:
    """The metric-vs-human study over the runs' current Task A ratings."""
    _require_runs(ws, run_ids)
    if metric_ids is not None:
        known = set(available_metrics(ws, run_ids))
        missing = [m for m in metric_ids if m not in known]
        if missing:
            raise StoreError(
                f"no per-entry values for metric{'s' if len(missing) > 1 else ''} {', '.join(missing)} in "
                f"{', '.join(run_ids)} (available: {', '.join(sorted(known)) or 'none; score the runs first'})"
            )
    values = metric_values(ws, run_ids, metric_ids)
    return run_study(ratings(ws, run_ids), values, aspect=aspect, n_bootstrap=n_bootstrap, seed=seed)


def run_review_status(ws: Workspace, run_id: str) -> dict[str, Any]:
    """The run card's ``human_review`` block: reviewers, judgments, agreement, confirmed.

    ``reviewers``/``judgments`` count current judgments of tasks A-C; ``agreement`` is
    Krippendorff's α (ordinal) of the adequacy ratings (None until computable); ``confirmed``
    comes from the sign-offs on the run's present tier (None without one).
    """
    _require_runs(ws, [run_id])
    current = [j for j in current_judgments(ws, run_id=run_id) if j.task != "signoff"]
    per_item = ratings_by_item(ratings(ws, [run_id]), "adequacy")
    alpha = krippendorff_alpha([list(v.values()) for v in per_item.values()], "ordinal")
    return {
        "reviewers": len({j.reviewer_id for j in current}),
        "judgments": len(current),
        "agreement": None if alpha is None else round(alpha, 4),
        "confirmed": signoff_status(ws, run_id)["confirmed"],
    }


# --------------------------------------------------------------------------- Task B


def _lint_details(ws: Workspace, run_id: str, verdict: str | None = None) -> dict[str, dict[str, Any]]:
    """``{entry_id: linter detail}`` from the run's language linter (a metric id ending in .lint).

    With ``verdict``, only entries with that verdict are read (filtered in SQL: on a large run
    most rows are never decoded).
    """
    out: dict[str, dict[str, Any]] = {}
    for metric_id in metric_ids_with_values(ws, [run_id], like=f"%{LINT_SUFFIX}"):
        for entry_id, data in entry_scores_with_verdict(ws, run_id, metric_id, verdict).items():
            detail = data.get("detail") or {}
            if isinstance(detail, dict):
                out.setdefault(entry_id, detail)
    return out


def linter_audit_queue(ws: Workspace, run_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Entries the linter called EQUIVALENT, with the classes that fired (the Task B items)."""
    _require_runs(ws, run_ids)
    queue = []
    for run_id in run_ids:
        for entry_id, detail in sorted(_lint_details(ws, run_id, "EQUIVALENT").items()):
            if detail.get("verdict") == "EQUIVALENT":
                queue.append({"run_id": run_id, "entry_id": entry_id, "classes": list(detail.get("classes") or []),
                              "explanation": detail.get("explanation")})
    return queue


def linter_audit(ws: Workspace, run_ids: Sequence[str]) -> list[ClassPrecision]:
    """Per-class linter precision from the current Task B judgments.

    Classes come from the judgment (``payload.classes``, recorded when it was made) or else from
    the linter's stored result for the entry.
    """
    _require_runs(ws, run_ids)
    answers = []
    for run_id in run_ids:
        details: dict[str, dict[str, Any]] | None = None
        for j in current_judgments(ws, run_id=run_id, task="B"):
            classes = j.payload.get("classes")
            if classes is None:
                if details is None:
                    details = _lint_details(ws, run_id)
                classes = (details.get(j.entry_id or "") or {}).get("classes") or []
            answers.append(LinterAnswer((run_id, j.entry_id), j.reviewer_id, tuple(classes),
                                        j.payload.get("same_meaning"), j.payload.get("natural")))
    return linter_precision(answers)


# --------------------------------------------------------------------------- Task C


def rejected_words(ws: Workspace, run_id: str) -> list[tuple[str, str]]:
    """(entry_id, word) for every word the analyzer rejected in the run's outputs (corpus order).

    Only entries with a rejected word are decoded (``values.rejected`` filtered in SQL; results
    stored without that count are read as well).
    """
    out = []
    for entry_id, data in entry_scores_with_count(ws, run_id, FST_METRIC, "rejected"):
        seen = set()
        for w in (data.get("detail") or {}).get("analyses") or []:
            token = w.get("token")
            if token and not w.get("accepted") and token not in seen:
                seen.add(token)
                out.append((entry_id, token))
    return out


def fst_audit_queue(ws: Workspace, run_ids: Sequence[str], *, limit: int | None = None, seed: int = 0) -> list[tuple[str, str, str]]:
    """(run_id, entry_id, word) rejected-word occurrences to audit; a seeded random sample when ``limit`` is set."""
    _require_runs(ws, run_ids)
    items = [(run_id, entry_id, word) for run_id in run_ids for entry_id, word in rejected_words(ws, run_id)]
    if limit is not None and limit < len(items):
        items = sorted(random.Random(seed).sample(items, limit), key=items.index)
    return items


def fst_audit(ws: Workspace, run_ids: Sequence[str]) -> FstAudit:
    """FST false-rejection rate and allowlist from the current Task C judgments."""
    _require_runs(ws, run_ids)
    answers = [
        WordAnswer((j.run_id, j.entry_id, j.payload.get("word")), j.payload.get("word"), j.reviewer_id,
                   j.payload.get("valid"), j.payload.get("kind"))
        for run_id in run_ids for j in current_judgments(ws, run_id=run_id, task="C")
    ]
    return _fst_audit(answers)


def allowlist_rows(audit: FstAudit) -> list[dict[str, Any]]:
    """The audit's allowlist in the shape of :func:`mteval_gui.io.judgments.write_allowlist`."""
    rows = []
    for row in audit.allowlist:
        run_id, entry_id, _ = row["example"]  # type: ignore[misc]
        rows.append({"word": row["word"], "kind": row["kind"], "occurrences": row["occurrences"],
                     "raters": row["raters"], "run_id": run_id, "entry_id": entry_id})
    return rows



# --------------------------------------------------------------------------- audits: undo across runs


def latest_current(ws: Workspace, reviewer_id: str, run_ids: Sequence[str]) -> Judgment | None:
    """The reviewer's newest judgment in force over ``run_ids`` (any task), or None."""
    newest: Judgment | None = None
    for run_id in run_ids:
        current = current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id)
        if current and (newest is None or (current[-1].judgment_id or 0) > (newest.judgment_id or 0)):
            newest = current[-1]
    return newest


def undo_task(ws: Workspace, reviewer_id: str, run_ids: Sequence[str], task: str) -> tuple[str, Judgment | None]:
    """Undo the reviewer's newest judgment over ``run_ids`` if it belongs to ``task``.

    Returns ``("undone", judgment)``, ``("other", newest)`` when the newest judgment is of
    another task (left alone: it is undone where it was made), or ``("none", None)``.
    """
    newest = latest_current(ws, reviewer_id, run_ids)
    if newest is None:
        return "none", None
    if newest.task != task:
        return "other", newest
    return "undone", undo_last(ws, reviewer_id, newest.run_id)


# --------------------------------------------------------------------------- reviewers and files


def judgment_counts(ws: Workspace) -> dict[str, int]:
    """Current judgments per reviewer id."""
    counts: dict[str, int] = {}
    for j in current_judgments(ws):
        counts[j.reviewer_id] = counts.get(j.reviewer_id, 0) + 1
    return counts


def import_judgments_file(ws: Workspace, path: str | Path, *, fmt: str | None = None) -> dict[str, Any]:
    """Merge a judgment file into the workspace, all or nothing (lossless rules of :func:`import_log`)."""
    from mteval_gui.io.judgments import read_judgments

    read = read_judgments(path, fmt=fmt)
    return import_log(ws, read.reviewers, read.judgments, file=read.name, defects=read.defects)
