"""The runs table, assembled from the workspace (shared by the GUI's Runs tab and ``mteval list runs``).

A :class:`RunRow` combines the ``runs`` row (denormalised LYSS §9.1 columns, output counts),
the run card as read with its speaker-review status (:func:`~mteval_gui.app.review_status.read_run_card`;
confidence intervals, caveats, metric availability, composite profile
and breakdown, cost and speed, the scoring configuration), whether the results are current
(:attr:`RunRow.status_display`: "stale" when an input changed since, "stale (settings)" when the
workspace settings now differ from the stored configuration; :mod:`mteval_gui.app.scoring_config`)
and the speaker sign-off state that decides whether a deployable or fluent tier is shown as
confirmed or "pending speaker review" (:attr:`RunRow.tier_display`, the one place that decides it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mteval_gui.app.metrics import run_metrics
from mteval_gui.app.review_status import ReviewedCard, read_run_card
from mteval_gui.app.scoring_config import scoring_state
from mteval_gui.app.signoff import SignoffEvidence
from mteval_gui.domain.metrics import MetricRole
from mteval_gui.domain.runcard import CompositeCalibration, CompositeValidation, RunCard, ScoringConfiguration
from mteval_gui.domain.score_keys import keys_where
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring.composite import REVIEW_GATED_TIERS
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

KEY_METRICS = keys_where("key_metric")  # the scores keys each row lists (mteval_gui.domain.score_keys)


@dataclass
class RunRow:
    run_id: str
    corpus_id: str
    model: str
    condition: str | None
    language_pair: str | None
    status: str
    entries: int
    errors: int
    empty: int
    missing: int = 0
    model_slug: str | None = None
    scored_at: str | None = None
    composite: float | None = None
    tier: str | None = None
    confirmed: bool | None = None  # speaker sign-off of the present tier (with its evidence)
    review_evidence: SignoffEvidence | None = None  # deployable/fluent: the ratings a sign-off needs
    chrf: float | None = None
    chrf_ci: tuple[float | None, float | None] | None = None
    composite_ci: tuple[float | None, float | None] | None = None
    metrics: dict[str, float | None] = field(default_factory=dict)
    availability: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    caveats: list[tuple[str, str]] = field(default_factory=list)  # (code, message)
    profile: str | None = None
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    total_cost: float | None = None
    cost_per_entry: float | None = None
    entries_per_minute: float | None = None
    avg_latency: float | None = None
    validation: dict[str, str] = field(default_factory=dict)  # scores key / metric id -> validation level
    composite_validation: CompositeValidation | None = None
    calibration: CompositeCalibration | None = None  # the card's calibrated profile the composite used
    card: RunCard | None = None
    # how the run was scored: the run card's ``scoring`` block, else the configuration of a job in
    # progress or interrupted (None: never scored, or scored before configurations were stored)
    scoring: ScoringConfiguration | None = None
    # where the scored results stand (app.scoring_config): "current", "stale" or "incomplete"
    # (None: never scored); what made them stale; where the workspace settings now differ
    freshness: str | None = None
    stale_reasons: list[str] = field(default_factory=list)
    settings_changes: list[str] = field(default_factory=list)

    @property
    def scored(self) -> bool:
        return self.card is not None

    @property
    def stale(self) -> bool:
        """The results no longer match their inputs, or the workspace settings now differ from the
        configuration they were scored with."""
        return bool(self.stale_reasons or self.settings_changes)

    @property
    def status_display(self) -> str:
        """The status as shown in the runs tables: "stale" when an input changed, "stale (settings)"
        when only the workspace settings differ from the stored configuration."""
        if self.scored and self.stale_reasons:
            return "stale"
        if self.scored and self.settings_changes:
            return "stale (settings)"
        return self.status

    @property
    def freshness_lines(self) -> list[str]:
        """Why the run is stale, one line each (empty: it is not)."""
        out = [f"input changed: {r}" for r in self.stale_reasons]
        if self.settings_changes:
            out.append("the workspace settings differ from its stored configuration (stored → settings): "
                       + "; ".join(self.settings_changes))
        return out

    @property
    def pending_review(self) -> bool:
        """A deployable/fluent tier that no speaker has confirmed yet."""
        return self.tier in REVIEW_GATED_TIERS and self.confirmed is not True

    @property
    def tier_display(self) -> str | None:
        """The tier as shown to users ("deployable (pending speaker review)"); None when unscored."""
        return comp.tier_display(self.tier, self.confirmed) if self.tier else None

    @property
    def score_availability(self) -> dict[str, str]:
        """Availability per run-card score key (the card also lists metric ids, which contain a dot)."""
        return {k: v for k, v in self.availability.items() if "." not in k}

    @property
    def coverage(self) -> tuple[int, int]:
        """(score keys with a value, score keys attempted)."""
        values = list(self.score_availability.values())
        return sum(1 for v in values if v == "ok"), len(values)


def _ci(card: RunCard, *keys: str) -> tuple[float | None, float | None] | None:
    for k in keys:
        ci = card.scores.confidence_intervals.get(k)
        if ci is not None and (ci.ci_lower is not None or ci.ci_upper is not None):
            return ci.ci_lower, ci.ci_upper
    return None


def run_row(ws: Workspace, row: dict[str, Any], read: ReviewedCard | None) -> RunRow:
    card = read.card if read is not None else None
    r = RunRow(
        run_id=row["run_id"], corpus_id=row["corpus_id"],
        model=row.get("model_slug") or row.get("model_id") or row["run_id"],
        condition=row.get("condition"), language_pair=row.get("language_pair"),
        status=row.get("status") or "imported", entries=int(row.get("n_outputs") or 0),
        errors=int(row.get("n_errors") or 0), empty=int(row.get("n_empty") or 0),
        missing=int(row.get("n_missing") or 0), model_slug=row.get("model_slug"), scored_at=row.get("scored_at"),
        composite=row.get("composite_score"), tier=row.get("quality_tier"), chrf=row.get("chrf_plus_plus"),
        total_cost=row.get("total_cost_usd"), cost_per_entry=row.get("cost_per_entry_usd"),
        entries_per_minute=row.get("entries_per_minute"), avg_latency=row.get("avg_latency_seconds"), card=card,
    )
    if card is not None:
        s = card.scores
        r.composite, r.tier, r.chrf = s.composite, s.quality_tier, s.chrf_plus_plus
        r.chrf_ci = _ci(card, "chrf_plus_plus", "chrf")
        r.composite_ci = _ci(card, "composite")
        scores = s.model_dump()
        r.metrics = {k: scores.get(k) for k in KEY_METRICS}
        r.availability = dict(card.metric_availability)
        r.reasons = dict(card.metric_reasons)
        r.caveats = [(c.code, c.message) for c in card.score_caveats]
        r.profile = card.composite_profile
        r.breakdown = [b.model_dump() for b in card.composite_breakdown]
        r.total_cost, r.cost_per_entry = card.totals.total_cost_usd, card.totals.cost_per_entry_usd
        r.entries_per_minute, r.avg_latency = s.entries_per_minute, s.avg_latency_seconds
        r.validation = dict(card.metric_validation)
        r.composite_validation = card.composite_validation
        r.calibration = card.composite_calibration
        r.scoring = card.scoring
    if r.scoring is None and row.get("scoring_config"):
        r.scoring = ScoringConfiguration.model_validate(row["scoring_config"])
    if card is not None or row.get("scoring_config"):
        state = scoring_state(ws, r.run_id)
        r.freshness = None if state.state == "unscored" else state.state
        r.stale_reasons, r.settings_changes = list(state.stale), list(state.settings)
        if r.status == "scoring" and state.state == "incomplete":
            from mteval_gui.store.locks import run_lock_holder

            if run_lock_holder(ws, r.run_id) is None:
                r.status = "interrupted"  # its job died: scoring it again resumes
    if read is not None and r.tier in REVIEW_GATED_TIERS:
        r.confirmed, r.review_evidence = read.review.confirmed, read.review.evidence
    return r


def entry_values(ws: Workspace, run_id: str, metric_id: str) -> dict[str, float | None]:
    """``{entry_id: headline value}`` of one metric for a run (charts)."""
    from mteval_gui.store.results import entry_values as stored

    return stored(ws, run_id, metric_id)


def role_values(ws: Workspace, run_id: str, role: MetricRole) -> dict[str, float | None]:
    """``{entry_id: headline value}`` of the run's metric of ``role`` ({} when it has none)."""
    metric_id = run_metrics(ws, run_id).first(role)
    return entry_values(ws, run_id, metric_id) if metric_id is not None else {}


def summary_card(ws: Workspace, run_id: str) -> ReviewedCard | None:
    """The run card without its per-entry ``results`` (the runs table needs only the summary), with
    its speaker-review status of now."""
    return read_run_card(ws, run_id, results=False)


def load_run_rows(ws: Workspace, corpus_id: str | None = None) -> list[RunRow]:
    """Every run of the workspace (or of one corpus) as table rows, in import order (the plugins are
    discovered again first when the installed set changed: a run's metrics may have arrived since)."""
    from mteval_gui.app.standards import rediscover_if_changed

    rediscover_if_changed()
    return [run_row(ws, row, summary_card(ws, row["run_id"]) if row.get("has_run_card") else None)
            for row in repo.list_runs(ws, corpus_id)]


def load_run_row(ws: Workspace, run_id: str) -> RunRow | None:
    for row in repo.list_runs(ws):
        if row["run_id"] == run_id:
            return run_row(ws, row, summary_card(ws, run_id) if row.get("has_run_card") else None)
    return None
