"""Sign-off: speakers confirm or reject a run's quality tier, and the ratings a confirmation needs.

A tier is a claim that speakers must back (LYSS §5): confirming any tier needs Task A ratings that
support it, by reviewers whose record lists the run's target language (speakers), as
:data:`~mteval_gui.domain.signoff.SIGNOFF_RULES` states per tier — enough entries rated by enough
speakers, median adequacy and fluency at or above the tier's levels, and Krippendorff's α (ordinal)
high enough on both scales (not computable: refused, the ratings cannot show agreement). Ratings by
reviewers who do not list the language do not count. The reviewer who confirms must be a speaker
who rated entries of the run. Linter and FST audits (tasks B and C) judge the metrics, not the
output, and do not count. A confirmation without that support is refused (:class:`SignoffRefused`,
saying what is missing or what the ratings say); one that lacks it afterwards (ratings undone, or a
sign-off imported from a file) does not confirm the tier — a deployable or fluent run stays
"pending speaker review". Rejecting needs no evidence.

Reviewers that quality control flags (failed attention checks, inconsistent repeats, no
agreement with the others: :mod:`mteval_gui.app.reviewer_qc`) are left out of the evidence as
well, and the evidence names them with the reason (``excluded``); a flagged reviewer cannot
confirm a tier.

The evidence and the status are computed from a run's current judgments as one list
(:func:`evidence_of`, :func:`status_of`): :func:`signoff_status` reads the judgment log once, and
so does the speaker-review status joined to a run card when it is read
(:mod:`mteval_gui.app.review_status`). Recording a decision changes the judgment log only.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.app.review import as_ratings, current_judgments, get_reviewer, list_reviewers, record_judgment
from mteval_gui.app.reviewer_qc import excluded_reviewers
from mteval_gui.domain.judgments import QUALITY_TIERS, SIGNOFF_DECISIONS, Judgment, Reviewer
from mteval_gui.domain.signoff import SIGNOFF_RULES, SignoffRule, level
from mteval_gui.errors import MtevalError, StoreError
from mteval_gui.io.langcodes import normalise_code
from mteval_gui.scoring.composite import REVIEW_GATED_TIERS
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import signoff_decisions
from mteval_gui.validation.agreement import krippendorff_alpha
from mteval_gui.validation.study import Rating, ratings_by_item

__all__ = ["SIGNOFF_MIN_ENTRIES", "SIGNOFF_MIN_REVIEWERS", "RunFacts", "SignoffCandidates", "SignoffEvidence",
           "SignoffRefused", "SignoffRule", "evidence_of", "run_facts", "signer_problem", "signoff",
           "signoff_candidates", "signoff_evidence", "signoff_rules", "signoff_status", "speaks", "status_of"]

SIGNOFF_MIN_ENTRIES = SIGNOFF_RULES["fluent"].min_entries  # entries a deployable or fluent tier needs rated
SIGNOFF_MIN_REVIEWERS = SIGNOFF_RULES["fluent"].min_speakers  # speakers per rated entry


class SignoffRefused(MtevalError):
    """A tier cannot be confirmed: the speaker ratings behind it are missing or do not support it,
    or the reviewer confirming it is not a speaker who rated the run."""

    def __init__(self, evidence: SignoffEvidence, problems: Sequence[str] | None = None) -> None:
        self.evidence = evidence
        self.problems = list(problems if problems is not None else evidence.missing)
        super().__init__(
            f"cannot confirm tier {evidence.tier} of {evidence.run_id}: {'; '.join(self.problems)}. "
            f"Confirming needs {evidence.rule_text()} (`mteval signoff --help` lists every tier); "
            "rejecting the tier stays possible")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _median(values: Sequence[int]) -> float | None:
    return float(statistics.median(values)) if values else None


def _shown(value: float | None) -> str:
    return "none" if value is None else f"{value:.1f}"


def speaks(reviewer: Reviewer, language: str | None) -> bool:
    """Whether the reviewer's record lists ``language`` (ISO 639-3; ``fr`` counts as ``fra``)."""
    wanted = normalise_code(language)
    return wanted is not None and any(normalise_code(x) == wanted for x in reviewer.languages)


@dataclass(frozen=True)
class SignoffEvidence:
    """The speaker ratings behind a run's tier claim, measured against the tier's
    :class:`~mteval_gui.domain.signoff.SignoffRule` (see the module docstrings)."""

    run_id: str
    tier: str | None
    entries: int  # entries of the run
    rated_entries: int  # entries rated (task A) by the rule's number of speakers or more
    reviewers: int  # speakers (reviewers listing the target language) with a current task A rating
    agreement: float | None  # Krippendorff's α (ordinal) of the speakers' adequacy ratings, 4 places
    language: str | None = None  # the run's target language
    judged_entries: int = 0  # entries with at least one speaker rating
    median_adequacy: float | None = None  # over every adequacy rating by a speaker
    median_fluency: float | None = None
    fluency_agreement: float | None = None  # α (ordinal) of the speakers' fluency ratings, 4 places
    speakers: tuple[str, ...] = ()  # ids of the speakers who rated (they may sign off)
    non_speakers: tuple[str, ...] = ()  # reviewers whose ratings do not count: their record lacks the language
    excluded: tuple[tuple[str, str], ...] = ()  # (reviewer, reason): rated the run, left out by quality control

    @property
    def rule(self) -> SignoffRule | None:
        return SIGNOFF_RULES.get(self.tier or "")

    @property
    def gated(self) -> bool:
        """Whether the tier carries the "pending speaker review" badge until confirmed (deployable, fluent)."""
        return self.tier in REVIEW_GATED_TIERS

    @property
    def required_entries(self) -> int:
        rule = self.rule or SIGNOFF_RULES["fluent"]
        return rule.required_entries(self.entries)

    @property
    def min_speakers(self) -> int:
        return (self.rule or SIGNOFF_RULES["fluent"]).min_speakers

    @property
    def sufficient(self) -> bool:
        """The speakers' ratings support the tier (every condition of its rule holds)."""
        return self.rule is not None and not self.missing

    @property
    def can_confirm(self) -> bool:
        return self.sufficient

    def rule_text(self) -> str:
        """The tier's rule in one phrase."""
        rule = self.rule
        if rule is None:
            return "a scored tier"
        return (f"median adequacy ≥ {level(rule.min_adequacy)} and fluency ≥ {level(rule.min_fluency)} from "
                f"speakers of {self.language or 'the target language'} on at least {self.required_entries} "
                f"{'entry' if self.required_entries == 1 else 'entries'} rated by {rule.min_speakers} or more "
                f"of them, with Krippendorff's α ≥ {rule.min_alpha} on both scales")

    @property
    def missing(self) -> list[str]:
        """What is missing, or what the ratings say against the tier (empty when it can be confirmed)."""
        if self.tier is None:
            return ["the run is not scored yet"]
        rule = self.rule
        if rule is None:
            return [f"a run of tier {self.tier} has no tier to confirm"]
        lang = self.language or "the target language"
        out: list[str] = []
        if self.rated_entries < self.required_entries:
            more = self.required_entries - self.rated_entries
            out.append(f"{_plural(more, 'more entry', 'more entries')} rated by at least {rule.min_speakers} "
                       f"speakers of {lang} ({self.rated_entries} of {self.required_entries} so far)")
        if self.reviewers < rule.min_speakers:
            more = rule.min_speakers - self.reviewers
            out.append(f"{_plural(more, 'more speaker', 'more speakers')} of {lang} "
                       f"({self.reviewers} of {rule.min_speakers} have rated entries of this run)")
        if self.excluded:
            out.append("; ".join(f"the ratings of {rid} do not count: quality control flags them ({why})"
                                 for rid, why in self.excluded))
        if out and self.non_speakers:
            whose = "their reviewer records do not" if len(self.non_speakers) > 1 else "the reviewer record does not"
            out.append(f"the ratings of {', '.join(self.non_speakers)} do not count: {whose} list {lang}")
        if self.reviewers and ((self.median_adequacy or 0) < rule.min_adequacy
                               or (self.median_fluency or 0) < rule.min_fluency):
            out.append(f"median adequacy {_shown(self.median_adequacy)} and fluency {_shown(self.median_fluency)} "
                       f"of {_plural(self.judged_entries, 'entry', 'entries')} rated by "
                       f"{_plural(self.reviewers, 'speaker', 'speakers')}: below '{self.tier}' "
                       f"(needs ≥ {level(rule.min_adequacy)} and ≥ {level(rule.min_fluency)})")
        if self.rated_entries >= self.required_entries and self.reviewers >= rule.min_speakers:
            alphas = {"adequacy": self.agreement, "fluency": self.fluency_agreement}
            uncomputable = [scale for scale, a in alphas.items() if a is None]
            if uncomputable:
                out.append(f"Krippendorff's α of {' and '.join(uncomputable)} is not computable (every rating is "
                           "the same value, or no entry has two ratings): the ratings cannot show that the "
                           "speakers agree")
            out += [f"Krippendorff's α of {scale} {a:.3f} is below {rule.min_alpha}"
                    for scale, a in alphas.items() if a is not None and a < rule.min_alpha]
        return out

    def summary(self) -> str:
        """One line: how many entries and speakers, what they rated and their agreement."""
        def alpha(a: float | None) -> str:
            return "not computable" if a is None else f"{a:.3f}"

        left_out = "".join(f"; left out: {rid} ({why})" for rid, why in self.excluded)
        return (f"{_plural(self.rated_entries, 'entry', 'entries')} rated by at least {self.min_speakers} "
                f"speakers of {self.language or 'the target language'} "
                f"({_plural(self.reviewers, 'speaker', 'speakers')} in all), median adequacy "
                f"{_shown(self.median_adequacy)} and fluency {_shown(self.median_fluency)}, Krippendorff's α "
                f"{alpha(self.agreement)} (adequacy) and {alpha(self.fluency_agreement)} (fluency){left_out}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "entries": self.entries, "rated_entries": self.rated_entries, "required_entries": self.required_entries,
            "reviewers": self.reviewers, "agreement": self.agreement, "language": self.language,
            "median_adequacy": self.median_adequacy, "median_fluency": self.median_fluency,
            "fluency_agreement": self.fluency_agreement}
        if self.excluded:
            out["excluded"] = dict(self.excluded)
        return out


@dataclass(frozen=True)
class RunFacts:
    """What the sign-off of a run depends on besides its judgments."""

    run_id: str
    tier: str | None  # the present (scored) tier
    entries: int
    language: str | None  # the target language


def run_facts(ws: Workspace, run_id: str) -> RunFacts:
    if not repo.run_exists(ws, run_id):
        raise StoreError(f"unknown run {run_id!r}")
    info = repo.get_run_info(ws, run_id)
    corpus = repo.get_corpus_info(ws, info["corpus_id"])
    return RunFacts(run_id, info.get("quality_tier"), int(corpus["entry_count"]), corpus.get("target_lang"))


def _alpha(rated: Sequence[Rating], aspect: str) -> float | None:
    alpha = krippendorff_alpha([list(v.values()) for v in ratings_by_item(rated, aspect).values()], "ordinal")
    return None if alpha is None else round(alpha, 4)


def evidence_of(run: RunFacts, judgments: Iterable[Judgment], reviewers: Mapping[str, Reviewer],
                tier: str | None = None, excluded: Mapping[str, str] | None = None) -> SignoffEvidence:
    """The evidence from the run's current judgments (the task A ratings among them count), measured
    against the rule of its tier (or of ``tier``); the ratings of the reviewers in ``excluded``
    (``{reviewer_id: reason}``, :func:`mteval_gui.app.reviewer_qc.excluded_reviewers`) do not count."""
    everyone = as_ratings(judgments)
    flagged = dict(excluded or {})
    speaker_ids = {rid for rid, r in reviewers.items() if speaks(r, run.language)}
    rated = [r for r in everyone if r.rater in speaker_ids and r.rater not in flagged]
    rule = SIGNOFF_RULES.get(tier or run.tier or "") or SIGNOFF_RULES["fluent"]
    raters_per_entry: dict[str, set[str]] = {}
    for r in rated:
        raters_per_entry.setdefault(r.entry_id, set()).add(r.rater)
    return SignoffEvidence(
        run_id=run.run_id, tier=tier if tier is not None else run.tier, entries=run.entries,
        rated_entries=sum(1 for who in raters_per_entry.values() if len(who) >= rule.min_speakers),
        reviewers=len({r.rater for r in rated}), agreement=_alpha(rated, "adequacy"), language=run.language,
        judged_entries=len(raters_per_entry),
        median_adequacy=_median([r.adequacy for r in rated if r.adequacy is not None]),
        median_fluency=_median([r.fluency for r in rated if r.fluency is not None]),
        fluency_agreement=_alpha(rated, "fluency"),
        speakers=tuple(sorted({r.rater for r in rated})),
        non_speakers=tuple(sorted({r.rater for r in everyone} - speaker_ids)),
        excluded=tuple((rid, flagged[rid]) for rid in sorted({r.rater for r in everyone} & set(flagged))))


def _reviewers(ws: Workspace) -> dict[str, Reviewer]:
    return {r.reviewer_id: r for r in list_reviewers(ws)}


def signoff_evidence(ws: Workspace, run_id: str, tier: str | None = None) -> SignoffEvidence:
    """The current task A ratings of a run by speakers of its target language, measured against
    the rule of its tier (or of ``tier``)."""
    return evidence_of(run_facts(ws, run_id), current_judgments(ws, run_id=run_id, task="A"), _reviewers(ws), tier,
                       excluded_reviewers(ws))


def signer_problem(evidence: SignoffEvidence, reviewer: Reviewer) -> str | None:
    """Why ``reviewer`` cannot confirm the run's tier (None if they can): a confirmation is a speaker's
    statement about output they rated."""
    lang = evidence.language or "the target language"
    why = dict(evidence.excluded).get(reviewer.reviewer_id)
    if why is not None:
        return (f"reviewer {reviewer.reviewer_id} cannot confirm a tier of {evidence.run_id}: quality control flags "
                f"them ({why})")
    if not speaks(reviewer, evidence.language):
        return (f"reviewer {reviewer.reviewer_id} cannot confirm a tier of {evidence.run_id}: their reviewer record "
                f"does not list its target language {lang}")
    if reviewer.reviewer_id not in evidence.speakers:
        return (f"reviewer {reviewer.reviewer_id} has not rated any entry of {evidence.run_id}: a tier is confirmed "
                "by a speaker who rated its output")
    return None


def signoff_status(ws: Workspace, run_id: str) -> dict[str, Any]:
    """The sign-off decisions of a run and whether they confirm its present tier.

    Keys: ``tier``, ``decisions`` and ``stale`` (decisions on another tier) as recorded;
    ``evidence`` (:class:`SignoffEvidence`); ``confirmed``: False if a reviewer rejects the
    present tier, True if a speaker who rated the run confirms it, none rejects it and the
    ratings support it (:data:`~mteval_gui.domain.signoff.SIGNOFF_RULES`), None otherwise;
    ``confirmed_by``: the confirming speakers when ``confirmed``; ``unsupported``: True when
    confirmations exist but the ratings do not support the tier or no confirmer may sign.
    """
    run = run_facts(ws, run_id)
    current = current_judgments(ws, run_id=run_id)
    return status_of(signoff_decisions(run.tier, current),
                     evidence_of(run, current, _reviewers(ws), excluded=excluded_reviewers(ws)))


def status_of(decisions: Mapping[str, Any], evidence: SignoffEvidence) -> dict[str, Any]:
    """:func:`signoff_status` from the recorded decisions (:func:`~mteval_gui.store.judgments.signoff_decisions`)
    and the evidence of the present tier."""
    confirmed: bool | None = decisions["confirmed"]
    confirmers = sorted({d["reviewer_id"] for d in decisions["decisions"] if d["decision"] == "confirm"})
    eligible = [rid for rid in confirmers if rid in evidence.speakers]
    unsupported = bool(confirmed) and (not evidence.sufficient or not eligible)
    if unsupported:
        confirmed = None
    return {**decisions, "confirmed": confirmed, "evidence": evidence, "unsupported": unsupported,
            "confirmed_by": eligible if confirmed else []}


def signoff(ws: Workspace, run_id: str, reviewer_id: str, decision: str, tier: str | None = None,
            note: str | None = None) -> Judgment:
    """Record a reviewer's decision on the run's tier (default: its present tier).

    Confirming a tier the speakers' ratings do not support, or by a reviewer who is not a speaker
    of the target language with ratings of the run, raises :class:`SignoffRefused` (nothing is
    recorded); the judgment of a confirmation carries the evidence in its payload
    (``payload["evidence"]``). Rejecting is always possible.
    """
    if decision not in SIGNOFF_DECISIONS:
        raise StoreError(f"sign-off decision {decision!r} is not one of {', '.join(SIGNOFF_DECISIONS)}")
    run_facts(ws, run_id)
    if tier is not None and tier not in QUALITY_TIERS:
        raise StoreError(f"tier {tier!r} is not one of {', '.join(QUALITY_TIERS)}")
    evidence = signoff_evidence(ws, run_id, tier)
    tier = evidence.tier
    payload: dict[str, Any] = {"decision": decision}
    if tier is not None:
        payload["tier"] = tier
    if decision == "confirm":
        reviewer = get_reviewer(ws, reviewer_id)
        if reviewer is None:
            raise StoreError(f"unknown reviewer {reviewer_id!r}")
        problems = evidence.missing
        who = signer_problem(evidence, reviewer) if evidence.rule is not None else None
        if who is not None or problems:
            raise SignoffRefused(evidence, ([who] if who else []) + problems)
        payload["evidence"] = evidence.to_json()
    return record_judgment(ws, Judgment(reviewer_id=reviewer_id, run_id=run_id, task="signoff",
                                        payload=payload, note=note))


def signoff_rules() -> list[SignoffRule]:
    """The sign-off rule of every tier (:data:`~mteval_gui.domain.signoff.SIGNOFF_RULES`), strictest first."""
    return list(SIGNOFF_RULES.values())


@dataclass(frozen=True)
class SignoffCandidates:
    """The scored runs with a tier: those whose tier can be confirmed now, and the others."""

    ready: list[SignoffEvidence] = field(default_factory=list)
    waiting: list[SignoffEvidence] = field(default_factory=list)  # ``missing`` says what each one lacks

    @property
    def ready_ids(self) -> list[str]:
        return [e.run_id for e in self.ready]


def signoff_candidates(ws: Workspace, corpus_id: str | None = None) -> SignoffCandidates:
    """Scored runs (of one corpus, or all) with a tier to confirm, split by whether the speakers'
    ratings support it now (the GUI's sign-off list shows ``ready``; ``waiting`` runs can still
    be rejected)."""
    ready: list[SignoffEvidence] = []
    waiting: list[SignoffEvidence] = []
    for row in repo.list_runs(ws, corpus_id):
        if row.get("quality_tier") not in SIGNOFF_RULES or not row.get("has_run_card"):
            continue
        ev = signoff_evidence(ws, row["run_id"])
        (ready if ev.can_confirm else waiting).append(ev)
    return SignoffCandidates(ready, waiting)
