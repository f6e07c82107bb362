"""Review campaigns (:mod:`mteval_gui.domain.campaign`): made from runs, reviewers, an overlap and
a selection rule; each reviewer's queue, on the desktop or in a review pack; progress.

Entries are chosen when the campaign is made and kept with it: ``first`` takes the first N in
corpus order, ``random`` N drawn with the seed (kept in corpus order), ``stratified`` and
``informative`` the first N of the review packs' orders of the same names
(:func:`mteval_gui.app.sampling.entry_order`: by system, difficulty and FST verdict in turn; where
the runs are furthest apart or FST verdicts are new first). An item counts as done
when the reviewer's current task-A judgment of it has both an adequacy and a fluency rating;
an entry reaches the overlap when ``k`` reviewers have done all of its items (one per run).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from mteval_gui.app.review_pack import PackExport, export_review_pack
from mteval_gui.app.sampling import entry_order
from mteval_gui.domain.campaign import Campaign
from mteval_gui.errors import MtevalError
from mteval_gui.store import campaigns as cstore
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.validation.sampling import SELECT_MODES

SELECTIONS = SELECT_MODES  # first, random, stratified, informative


@dataclass
class ReviewerProgress:
    reviewer_id: str
    assigned: int  # items (entry × run)
    done: int

    @property
    def complete(self) -> bool:
        return self.done >= self.assigned


@dataclass
class CampaignStatus:
    campaign: Campaign
    reviewers: list[ReviewerProgress] = field(default_factory=list)
    entries_at_overlap: int = 0  # entries every item of which k reviewers have done

    @property
    def entries(self) -> int:
        return len(self.campaign.entry_ids)

    @property
    def complete(self) -> bool:
        return self.entries_at_overlap == self.entries


def _select(ws: Workspace, run_ids: Sequence[str], entry_ids: list[str], n: int | None, rule: str,
            seed: int) -> list[str]:
    if rule in ("stratified", "informative"):  # the review packs' selection, entry by entry
        return entry_order(ws, run_ids, rule, seed)[:n]
    if n is None or n >= len(entry_ids):
        return list(entry_ids)
    if rule == "first":
        return entry_ids[:n]
    chosen = set(random.Random(f"campaign\x1f{seed}").sample(range(len(entry_ids)), n))
    return [e for i, e in enumerate(entry_ids) if i in chosen]


def create_campaign(ws: Workspace, campaign_id: str, run_ids: Sequence[str], reviewers: Sequence[str], *,
                    overlap: int = 2, entries: int | None = None, select: str = "first", seed: int = 0,
                    created_by: str | None = None) -> Campaign:
    """Plan a campaign and store it; refused (nothing stored) with the reason when it cannot be."""
    if select not in SELECTIONS:
        raise MtevalError(f"selection {select!r} is not one of {', '.join(SELECTIONS)}")
    if entries is not None and entries < 1:
        raise MtevalError("--entries must be at least 1")
    corpora = set()
    for run_id in run_ids:
        if not repo.run_exists(ws, run_id):
            raise MtevalError(f"unknown run {run_id!r}")
        corpora.add(repo.get_run_info(ws, run_id)["corpus_id"])
    if len(corpora) > 1:
        raise MtevalError("a campaign rates outputs of one corpus: these runs belong to " + ", ".join(sorted(corpora)))
    for reviewer_id in reviewers:
        if jstore.get_reviewer(ws, reviewer_id) is None:
            raise MtevalError(f"unknown reviewer {reviewer_id!r} (add one with `mteval reviewers add`)")
    chosen = _select(ws, run_ids, repo.entry_ids(ws, corpora.pop()), entries, select, seed) if corpora else []
    try:
        campaign = Campaign(campaign_id=campaign_id, run_ids=list(run_ids), entry_ids=chosen,
                            reviewers=list(reviewers), overlap=overlap, select=select, seed=seed,
                            created_at=jstore.now_iso(), created_by=created_by)
    except ValidationError as exc:
        raise MtevalError("campaign refused: " + "; ".join(
            f"{'.'.join(str(x) for x in e['loc']) or 'campaign'}: {e['msg'].removeprefix('Value error, ')}"
            for e in exc.errors())) from None
    cstore.add_campaign(ws, campaign)
    return campaign


def _done_items(ws: Workspace, campaign: Campaign) -> dict[str, set[tuple[str, str]]]:
    """Per reviewer, the campaign's (run, entry) items rated on both aspects."""
    wanted = set(campaign.entry_ids)
    done: dict[str, set[tuple[str, str]]] = {r: set() for r in campaign.reviewers}
    for run_id in campaign.run_ids:
        for j in jstore.current_judgments(ws, run_id=run_id, task="A"):
            if j.reviewer_id in done and j.entry_id in wanted and j.adequacy is not None and j.fluency is not None:
                done[j.reviewer_id].add((run_id, j.entry_id))
    return done


def campaign_status(ws: Workspace, campaign_id: str) -> CampaignStatus:
    campaign = cstore.get_campaign(ws, campaign_id)
    done = _done_items(ws, campaign)
    status = CampaignStatus(campaign)
    for reviewer_id in campaign.reviewers:
        queue = campaign.queue(reviewer_id)
        status.reviewers.append(ReviewerProgress(reviewer_id, len(queue), sum(1 for it in queue
                                                                             if it in done[reviewer_id])))
    for entry_id in campaign.entry_ids:
        items = [(r, entry_id) for r in campaign.run_ids]
        raters = sum(1 for reviewer_id in campaign.reviewers if all(it in done[reviewer_id] for it in items))
        status.entries_at_overlap += raters >= campaign.overlap
    return status


def _reviewers_campaign(ws: Workspace, campaign_id: str, reviewer_id: str) -> Campaign:
    campaign = cstore.get_campaign(ws, campaign_id)
    if reviewer_id not in campaign.reviewers:
        raise MtevalError(f"{reviewer_id!r} is not a reviewer of campaign {campaign_id!r} "
                          f"(its reviewers: {', '.join(campaign.reviewers)})")
    return campaign


def campaign_queue(ws: Workspace, campaign_id: str, reviewer_id: str) -> list[tuple[str, str]]:
    return _reviewers_campaign(ws, campaign_id, reviewer_id).queue(reviewer_id)


def export_campaign_pack(ws: Workspace, campaign_id: str, reviewer_id: str, output: str | Path, *,
                         blind: bool = False, ui_lang: str | None = None) -> PackExport:
    """The review pack of one reviewer's share of the campaign (task A)."""
    campaign = _reviewers_campaign(ws, campaign_id, reviewer_id)
    return export_review_pack(ws, campaign.run_ids, reviewer_id, output, blind=blind, ui_lang=ui_lang,
                              share=campaign.queue(reviewer_id), campaign=campaign_id)


def get_campaign(ws: Workspace, campaign_id: str) -> Campaign:
    return cstore.get_campaign(ws, campaign_id)


def list_campaigns(ws: Workspace) -> list[Campaign]:
    return cstore.list_campaigns(ws)


def delete_campaign(ws: Workspace, campaign_id: str) -> None:
    cstore.delete_campaign(ws, campaign_id)
