"""A run card as it is read: the stored scoring result joined with the speaker-review status of now.

The run card stored with a run is the scoring result only: scoring reads no judgment, and
judgments, sign-offs and withdrawals change the judgment log, never the stored card. The card's
``human_review`` block and the displayed tier (``scores.quality_tier_display``: "pending speaker
review" until a supported confirmation) are joined when a card is read, by :func:`read_run_card`,
which the exports, the runs table (CLI ``list runs`` and the GUI) and every other reader of a
scored card call. A read-only workspace is read the same way: nothing is written.

:func:`review_status` reads the run's current judgments once; that one list feeds the counts,
the sign-off evidence and Krippendorff's α (:func:`~mteval_gui.app.signoff.evidence_of`), the
decisions (:func:`~mteval_gui.app.signoff.status_of`) and the ESA score
(:func:`~mteval_gui.app.review.esa_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mteval_gui.app.review import current_judgments, esa_of, list_reviewers, weights_for_run
from mteval_gui.app.reviewer_qc import excluded_reviewers
from mteval_gui.app.signoff import SignoffEvidence, evidence_of, run_facts, status_of
from mteval_gui.domain.runcard import HumanReview, RunCard
from mteval_gui.scoring.composite import tier_display
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import signoff_decisions
from mteval_gui.store.results import load_run_card_dict, load_run_card_summary
from mteval_gui.validation.esa import EsaRun

__all__ = ["ReviewStatus", "ReviewedCard", "review_status", "read_run_card", "with_review"]


@dataclass(frozen=True)
class ReviewStatus:
    """The speaker review of a run now: counts of tasks A-C, the sign-off of its present tier, ESA."""

    run_id: str
    reviewers: int  # reviewers with a current judgment of tasks A-C
    judgments: int  # current judgments of tasks A-C
    signoff: dict[str, Any]  # :func:`~mteval_gui.app.signoff.signoff_status`
    esa: EsaRun

    @property
    def evidence(self) -> SignoffEvidence:
        return self.signoff["evidence"]

    @property
    def confirmed(self) -> bool | None:
        return self.signoff["confirmed"]

    def human_review(self) -> HumanReview:
        """The run card's ``human_review`` block."""
        ev = self.evidence
        return HumanReview(
            reviewers=self.reviewers, judgments=self.judgments, agreement=ev.agreement, confirmed=self.confirmed,
            rated_entries=ev.rated_entries, raters=ev.reviewers, required_entries=ev.required_entries,
            confirmed_by=self.signoff["confirmed_by"], esa_score=self.esa.score, esa_entries=len(self.esa.entries),
            mqm_penalty=self.esa.penalty)


def review_status(ws: Workspace, run_id: str) -> ReviewStatus:
    """The run's speaker review from one read of its current judgments (an unknown run: ``StoreError``)."""
    run = run_facts(ws, run_id)
    current = current_judgments(ws, run_id=run_id)
    judged = [j for j in current if j.task not in ("signoff", "check")]
    evidence = evidence_of(run, current, {r.reviewer_id: r for r in list_reviewers(ws)},
                           excluded=excluded_reviewers(ws))
    return ReviewStatus(run_id, len({j.reviewer_id for j in judged}), len(judged),
                        status_of(signoff_decisions(run.tier, current), evidence),
                        esa_of(current, {run_id: weights_for_run(ws, run_id)}).get(run_id, EsaRun(run_id)))


def with_review(card: dict[str, Any], review: ReviewStatus) -> dict[str, Any]:
    """The card (a stored card's JSON, changed in place) with the review's ``human_review`` block and
    displayed tier."""
    card["human_review"] = review.human_review().model_dump(mode="json")
    scores = card.setdefault("scores", {})
    scores["quality_tier_display"] = tier_display(scores.get("quality_tier"), review.confirmed)
    return card


@dataclass(frozen=True)
class ReviewedCard:
    """A scored run's card with its review status joined, and that status."""

    card: RunCard
    review: ReviewStatus

    @property
    def tier_display(self) -> str:
        """The tier as the card shows it (``scores.quality_tier_display``: "fluent (pending speaker review)")."""
        return tier_display(self.card.scores.quality_tier, self.review.confirmed)


def read_run_card(ws: Workspace, run_id: str, *, results: bool = True) -> ReviewedCard | None:
    """The run card of a scored run with its speaker-review status of now (None: never scored; an
    unknown run: ``StoreError``). ``results=False``: without the per-entry ``results`` (the runs table
    needs the summary; the results of a large run are megabytes)."""
    stored = load_run_card_dict(ws, run_id) if results else load_run_card_summary(ws, run_id)
    if stored is None:
        run_facts(ws, run_id)  # an unknown run is an error, an unscored one has no card
        return None
    review = review_status(ws, run_id)
    return ReviewedCard(RunCard.model_validate(with_review(stored, review)), review)
