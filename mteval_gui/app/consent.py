"""Consent (OCAP: ownership, control, access, possession): a reviewer's judgments are theirs.

- :func:`export_reviewer_judgments`: every version of every judgment of one reviewer, with
  their reviewer record, as a judgment file (CSV or JSON, re-importable like any export);
- :func:`withdraw_reviewer`: delete them (see :mod:`mteval_gui.store.consent`), leaving an audit
  record of when and by whom, not of what;
- :func:`review_after_withdrawal`: the run cards of the runs they had judged, read without them
  (:func:`~mteval_gui.app.review_status.read_run_card`: the stored cards are not rewritten).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mteval_gui.app.review_status import ReviewedCard, read_run_card
from mteval_gui.errors import StoreError
from mteval_gui.io.judgments import write_judgments
from mteval_gui.store import consent
from mteval_gui.store import judgments as jstore
from mteval_gui.store.benchmarks import export_ratings
from mteval_gui.store.db import Workspace

consent_log = consent.consent_log
judged_runs = consent.judged_runs
__all__ = ["allows_sharing", "export_reviewer_judgments", "withdraw_reviewer", "consent_log", "judged_runs",
           "review_after_withdrawal"]


def export_reviewer_judgments(ws: Workspace, reviewer_id: str, path: str | Path,
                              fmt: str | None = None) -> tuple[Path, int]:
    """Write the reviewer's own judgment log (every version, ratings of benchmark responses too) and
    reviewer record to ``path``; returns the path and the number of judgment versions written."""
    reviewer = jstore.get_reviewer(ws, reviewer_id)
    if reviewer is None:
        raise StoreError(f"unknown reviewer {reviewer_id!r}")
    _, log = jstore.export_log(ws)
    own = [j for j in log if j.reviewer_id == reviewer_id]
    ratings = export_ratings(ws, reviewer_id=reviewer_id)
    return (write_judgments(path, [reviewer], own, fmt=fmt, scope=f"reviewer {reviewer_id}", benchmark=ratings),
            len(own) + len(ratings))


def withdraw_reviewer(ws: Workspace, reviewer_id: str, done_by: str) -> dict[str, Any]:
    """Delete the reviewer's judgments, packs and details; returns the audit record.

    The run cards of the runs they judged are read without them from then on (their
    speaker-review status is joined when a card is read: :mod:`mteval_gui.app.review_status`).
    """
    return consent.withdraw_reviewer(ws, reviewer_id, done_by)


def review_after_withdrawal(ws: Workspace, run_ids: list[str]) -> list[ReviewedCard]:
    """The scored runs among ``run_ids`` (e.g. :func:`judged_runs` before a withdrawal) with their
    speaker-review status of now, as their cards are read (without per-entry results)."""
    return [read for run_id in run_ids if (read := read_run_card(ws, run_id, results=False)) is not None]


_SHARE_WORDS = frozenset({"share", "shared", "sharing", "partage", "partager", "partagé", "partagée", "partagés"})
_NEGATIONS = frozenset({"no", "not", "never", "don't", "dont", "do-not", "without", "ne", "pas", "jamais", "sans",
                        "non"})


def allows_sharing(consent_scope: str | None) -> bool:
    """Whether a reviewer's consent scope allows sharing their answers beyond the workspace
    (e.g. with an analyzer's maintainers): it names sharing (``share``, ``sharing``, ``shared``,
    French ``partage``/``partager``) and holds no negation (``no``, ``not``, ``never``, ``without``,
    ``ne``, ``pas``, ``sans``…). ``research`` alone does not; ``research, share`` does."""
    words = set(re.findall(r"[\w'’-]+", (consent_scope or "").casefold().replace("’", "'")))
    return bool(words & _SHARE_WORDS) and not words & _NEGATIONS
