"""Importing a judgment file: a judgment log (CSV or JSON, lossless) or a review pack's answers.

Both are merged all or nothing (a log's ratings of benchmark responses in the same transaction);
judgments of a withdrawn reviewer, and their ratings of benchmark responses, are skipped with a message
(:mod:`mteval_gui.store.consent`), and error-span categories must be those of the run
(:func:`~mteval_gui.app.review.category_problems`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mteval_gui.app.review import category_problems
from mteval_gui.domain.judgments import Judgment
from mteval_gui.errors import Defect
from mteval_gui.store import consent
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import import_log

__all__ = ["import_judgments_file"]


def import_judgments_file(ws: Workspace, path: str | Path, *, fmt: str | None = None) -> dict[str, Any]:
    """Merge a judgment file into the workspace, all or nothing (lossless rules of :func:`import_log`).

    A review pack's answers file (:mod:`mteval_gui.app.review_pack`) is recognised and checked
    against the pack it came from."""
    from mteval_gui.io.judgments import read_judgments
    from mteval_gui.io.review_pack import is_answers_file

    if is_answers_file(path):
        from mteval_gui.app.review_pack import import_pack_answers

        return import_pack_answers(ws, path)

    read = read_judgments(path, fmt=fmt)
    cache: dict[str, tuple[str, ...]] = {}
    gone = consent.withdrawals(ws.conn)

    def withdrawn(j: Judgment) -> bool:  # skipped by import_log: its categories do not matter
        w = gone.get(j.reviewer_id)
        return w is not None and w.covers(j.created_at, j.judgment_id, new=j.judgment_id is None)

    defects = list(read.defects) + [Defect(read.name, line, p) for line, j in read.judgments if not withdrawn(j)
                                    for p in category_problems(ws, j, cache)]
    return import_log(ws, read.reviewers, read.judgments, file=read.name, defects=defects, benchmark=read.benchmark)
