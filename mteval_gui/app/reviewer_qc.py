"""Reviewer quality control over the workspace's judgments, and which reviewers it leaves out.

:func:`reviewer_quality` reads the current task A ratings and the answers to check items
(task ``check``: attention checks and repeated items, inserted into review packs by
:func:`mteval_gui.app.review_pack.export_review_pack`) and applies the rules of
:mod:`mteval_gui.validation.quality`. A reviewer's quality is a property of the reviewer:
it is measured over every run of the workspace, so a reviewer flagged on one study is left
out of every run's sign-off evidence (:mod:`mteval_gui.app.signoff`) and of calibration.

:func:`excluded_reviewers` is the one question the other modules ask: ``{reviewer_id: reason}``.
"""

from __future__ import annotations

from collections.abc import Sequence

from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import rating_rows, rating_signature
from mteval_gui.validation.quality import (
    MAX_FAILED_CHECKS,
    MAX_FAILED_SHARE,
    MAX_REPEAT_DIFFERENCE,
    MIN_AGREEMENT,
    MIN_REPEATS,
    MIN_SHARED_ITEMS,
    RULES,
    CheckAnswer,
    ReviewerQuality,
    flagged,
)
from mteval_gui.validation.quality import reviewer_quality as _reviewer_quality

__all__ = ["MAX_FAILED_CHECKS", "MAX_FAILED_SHARE", "MAX_REPEAT_DIFFERENCE", "MIN_AGREEMENT", "MIN_REPEATS",
           "MIN_SHARED_ITEMS", "RULES", "ReviewerQuality", "excluded_reviewers", "reviewer_quality"]


def reviewer_quality(ws: Workspace, run_ids: Sequence[str] | None = None) -> dict[str, ReviewerQuality]:
    """Each reviewer's attention checks, repeats and agreement with the others, flagged by
    :data:`~mteval_gui.validation.quality.RULES` (over every run, or over ``run_ids``)."""
    rows = rating_rows(ws, run_ids)
    real: dict[tuple[str, str, str], tuple[int | None, int | None]] = {}
    adequacy: dict[tuple[str, str], dict[str, float]] = {}
    for reviewer, run, entry, task, a, f, _ in rows:
        if task == "A":
            real[(reviewer, run, entry)] = (a, f)
            if a is not None:
                adequacy.setdefault((run, entry), {})[reviewer] = float(a)
    answers = []
    for reviewer, run, entry, task, a, f, payload in rows:
        if task != "check":
            continue
        ra, rf = real.get((reviewer, run, entry), (None, None))
        kind = payload.get("kind")
        answers.append(CheckAnswer(reviewer, str(payload.get("check")), kind if isinstance(kind, str) else None,
                                   (run, entry), a, f, ra, rf))
    return _reviewer_quality(answers, adequacy)


_EXCLUDED: dict[str, tuple[tuple[object, ...], dict[str, str]]] = {}  # workspace -> (signature, result)


def excluded_reviewers(ws: Workspace) -> dict[str, str]:
    """``{reviewer_id: reason}``: the reviewers quality control flags, whose ratings count neither as
    sign-off evidence nor for calibration.

    Every run card read asks (the runs table reads one per run): the answer is kept per workspace
    until its task A or check judgments change (:func:`~mteval_gui.store.judgments.rating_signature`)."""
    key, signature = str(ws.path), rating_signature(ws)
    kept = _EXCLUDED.get(key)
    if kept is not None and kept[0] == signature:
        return dict(kept[1])
    found = flagged(reviewer_quality(ws))
    _EXCLUDED[key] = (signature, found)
    return dict(found)
