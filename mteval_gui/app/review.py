"""Speaker review: reviewers and the judgment log, for the CLI and the GUI.

Recording, undoing and reading judgments are the store's own functions (each judgment is
committed the moment it is made), named here for the interfaces; this module adds what the
application checks and derives from the log:

- :func:`record_judgment` -> error-span categories must be the run's (built-in or its language card's);
- :func:`ratings` / :func:`as_ratings` -> the Task A ratings as plain records (sign-off, validation study);
- :func:`span_target`, :func:`entry_esa`, :func:`esa_scores` -> error spans and their ESA scores;
- :func:`undo_task` -> undo across the runs of an audit; :func:`judgment_counts` -> judgments per reviewer.

The rest of speaker review lives by concern, each module reading the log through this one:
:mod:`~mteval_gui.app.signoff` (the tier sign-off and the ratings it needs),
:mod:`~mteval_gui.app.review_status` (the status joined to a run card when it is read),
:mod:`~mteval_gui.app.audits` (tasks B and C), :mod:`~mteval_gui.app.study` (the validation
study); judgment files are imported by :func:`mteval_gui.app.judgment_files.import_judgments_file`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.cards import error_categories, try_load_card
from mteval_gui.domain.judgments import Judgment, judgment_spans
from mteval_gui.errors import StoreError
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import (
    add_reviewer,
    current_judgments,
    export_log,
    get_reviewer,
    import_log,
    judgment_history,
    list_reviewers,
    redo_last,
    review_progress,
    review_queue,
    undo_last,
    update_reviewer,
)
from mteval_gui.store.judgments import record_judgment as _record_judgment
from mteval_gui.validation.esa import EsaRun, SpanJudgment, esa_by_run, esa_score
from mteval_gui.validation.study import Rating

__all__ = [
    "add_reviewer", "current_judgments", "export_log", "get_reviewer", "import_log", "judgment_history",
    "list_reviewers", "record_judgment", "redo_last", "review_progress", "review_queue", "undo_last",
    "update_reviewer", "ratings", "as_ratings", "reviewer_dialects", "latest_current", "undo_task", "judgment_counts",
    "categories_for_run", "categories_for_language", "category_problems", "require_runs", "esa_scores", "esa_of",
    "EsaRun", "SpanTarget", "span_target", "entry_esa", "judgment_esa", "spans_esa",
]


def require_runs(ws: Workspace, run_ids: Sequence[str]) -> None:
    for run_id in run_ids:
        if not repo.run_exists(ws, run_id):
            raise StoreError(f"unknown run {run_id!r}")


def categories_for_language(language: str | None) -> tuple[str, ...]:
    """Error-span categories for a target language: the built-in MQM-style list and the card's own."""
    return error_categories(try_load_card(language))


def categories_for_run(ws: Workspace, run_id: str) -> tuple[str, ...]:
    """Error-span categories allowed on the run's outputs (from its target language's card)."""
    info = repo.get_run_info(ws, run_id)
    corpus = repo.get_corpus_info(ws, info["corpus_id"])
    return categories_for_language(corpus.get("target_lang"))


def category_problems(ws: Workspace, j: Judgment, cache: dict[str, tuple[str, ...]]) -> list[str]:
    spans = judgment_spans(j)
    used = {c for s in spans or () if isinstance(s, dict) and isinstance(c := s.get("category"), str)}
    if not used or not repo.run_exists(ws, j.run_id):
        return []
    if j.run_id not in cache:
        cache[j.run_id] = categories_for_run(ws, j.run_id)
    allowed = cache[j.run_id]
    return [f"error-span category {c!r} is not one of {', '.join(allowed)}" for c in sorted(used - set(allowed))]


def record_judgment(ws: Workspace, judgment: Judgment) -> Judgment:
    """Save a judgment now (see :func:`mteval_gui.store.judgments.record_judgment`); error-span
    categories must be the built-in ones or those of the run's language card."""
    problems = category_problems(ws, judgment, {})
    if problems:
        raise StoreError("judgment not saved: " + "; ".join(problems))
    return _record_judgment(ws, judgment)


@dataclass(frozen=True)
class SpanTarget:
    """What a reviewer marks error spans on: one output's NFC text and the run's categories."""

    run_id: str
    entry_id: str
    text: str  # the NFC output ("" for a system error or an empty output: nothing to mark)
    categories: tuple[str, ...]


def span_target(ws: Workspace, run_id: str, entry_id: str) -> SpanTarget:
    """The output error spans are marked on (span offsets index this text) and the allowed categories."""
    output = repo.get_output(ws, run_id, entry_id)
    text = "" if output.error else unicodedata.normalize("NFC", output.predicted or "")
    return SpanTarget(run_id, entry_id, text if text.strip() else "", categories_for_run(ws, run_id))


def spans_esa(spans: Sequence[dict[str, Any]]) -> float:
    """ESA score of one reviewer's spans on one output (:func:`mteval_gui.validation.esa.esa_score`)."""
    return esa_score(spans)


def judgment_esa(j: Judgment | None) -> float | None:
    """ESA score of one judgment (None when it carries no ``spans`` list: the reviewer did not mark)."""
    spans = judgment_spans(j) if j is not None else None
    return None if spans is None else esa_score(spans)


def entry_esa(ws: Workspace, run_id: str, entry_id: str) -> tuple[float | None, int]:
    """ESA of one output: the mean over its reviewers' current judgments with spans, and how many there are."""
    scores = [s for j in current_judgments(ws, run_id=run_id, entry_id=entry_id) if (s := judgment_esa(j)) is not None]
    return (sum(scores) / len(scores) if scores else None), len(scores)


def esa_of(judgments: Iterable[Judgment]) -> dict[str, EsaRun]:
    """ESA per run from judgments (those that carry error spans count; :mod:`mteval_gui.validation.esa`)."""
    return esa_by_run([SpanJudgment((j.run_id, j.entry_id), j.reviewer_id, tuple(spans)) for j in judgments
                       if j.entry_id is not None and (spans := judgment_spans(j)) is not None])


def esa_scores(ws: Workspace, run_ids: Sequence[str]) -> dict[str, EsaRun]:
    """ESA per run from the current judgments that carry error spans (:mod:`mteval_gui.validation.esa`);
    a run without such judgments has ``score`` None."""
    require_runs(ws, run_ids)
    found = esa_of(j for run_id in run_ids for j in current_judgments(ws, run_id=run_id))
    return {run_id: found.get(run_id, EsaRun(run_id)) for run_id in run_ids}


def as_ratings(judgments: Iterable[Judgment], dialects: Mapping[str, str | None] | None = None) -> list[Rating]:
    """The Task A ratings among judgments as plain :class:`Rating` records (``dialects``: reviewer -> dialect)."""
    d = dialects or {}
    return [Rating(j.run_id, j.entry_id, j.reviewer_id, j.adequacy, j.fluency, d.get(j.reviewer_id))
            for j in judgments
            if j.task == "A" and j.entry_id is not None and (j.adequacy is not None or j.fluency is not None)]


def reviewer_dialects(ws: Workspace) -> dict[str, str | None]:
    """Each reviewer's dialect, from their reviewer record."""
    return {r.reviewer_id: r.dialect for r in list_reviewers(ws)}


def ratings(ws: Workspace, run_ids: Sequence[str]) -> list[Rating]:
    """Current Task A ratings of the runs as plain :class:`Rating` records, with each rater's dialect."""
    dialects = reviewer_dialects(ws)
    return [r for run_id in run_ids for r in as_ratings(current_judgments(ws, run_id=run_id, task="A"), dialects)]


# --------------------------------------------------------------------------- undo across runs (audits)


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


def judgment_counts(ws: Workspace) -> dict[str, int]:
    """Current judgments per reviewer id."""
    counts: dict[str, int] = {}
    for j in current_judgments(ws):
        counts[j.reviewer_id] = counts.get(j.reviewer_id, 0) + 1
    return counts
