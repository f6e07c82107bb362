"""Speaker review: reviewers, judgments, sign-off, and the validation of the metrics.

:mod:`mteval_gui.validation` works on plain data and never touches the workspace; this module
is the bridge used by the CLI (``reviewers``, ``judgments``, ``validate``, ``signoff``) and the
GUI (ratings panel, audits, validation dashboard, run card ``human_review`` block, "pending
speaker review" badge). Recording, undoing and reading judgments are the store's own
functions (each judgment is committed the moment it is made), named here for the interfaces.

- :func:`run_review_status` -> the run card's ``human_review`` block.
- :func:`signoff_evidence` / :func:`signoff` / :func:`signoff_status` / :func:`signoff_candidates`
  -> the tier sign-off and the speaker ratings it needs (below).
- :func:`validation_study` -> agreement, metric-human correlations with CIs, progress.
- :func:`linter_audit` / :func:`fst_audit` -> Task B linter precision, Task C FST false rejections.
- :func:`linter_audit_queue` / :func:`fst_audit_queue` -> what to show reviewers for tasks B and C.

Sign-off evidence. A tier is a claim that speakers must back (LYSS §5): confirming any tier
needs Task A ratings that support it, by reviewers whose record lists the run's target language
(speakers), as :data:`~mteval_gui.domain.signoff.SIGNOFF_RULES` states per tier — enough entries
rated by enough speakers, median adequacy and fluency at or above the tier's levels, and
Krippendorff's α (ordinal) high enough on both scales (not computable: refused, the ratings cannot
show agreement). Ratings by reviewers who do not list the language do not count. The reviewer who
confirms must be a speaker who rated entries of the run. Linter and FST audits (tasks B and C)
judge the metrics, not the output, and do not count. A confirmation without that support is
refused (:class:`SignoffRefused`, saying what is missing or what the ratings say); one that lacks
it afterwards (ratings undone, or a sign-off imported from a file) does not confirm the tier — a
deployable or fluent run stays "pending speaker review". Rejecting needs no evidence.
"""

from __future__ import annotations

import random
import statistics
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError

from mteval_gui.app.metrics import run_metrics
from mteval_gui.cards import error_categories, try_load_card
from mteval_gui.domain.details import Verdict
from mteval_gui.domain.judgments import QUALITY_TIERS, SIGNOFF_DECISIONS, Judgment, Reviewer, judgment_spans
from mteval_gui.domain.signoff import SIGNOFF_RULES, SignoffRule, level
from mteval_gui.errors import Defect, MtevalError, StoreError
from mteval_gui.io.langcodes import normalise_code
from mteval_gui.scoring.composite import REVIEW_GATED_TIERS
from mteval_gui.store import consent, repo
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
from mteval_gui.store.judgments import signoff_status as decisions_status
from mteval_gui.store.results import (
    entry_details,
    entry_scores_with_count,
    entry_scores_with_verdict,
    entry_values_bulk,
    metric_ids_with_values,
)
from mteval_gui.validation.agreement import krippendorff_alpha
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
from mteval_gui.validation.esa import EsaRun, SpanJudgment, esa_by_run, esa_score
from mteval_gui.validation.study import Item, Rating, StudyResult, ratings_by_item, run_study

__all__ = [
    "add_reviewer", "current_judgments", "export_log", "get_reviewer", "import_log", "judgment_history",
    "list_reviewers", "record_judgment", "redo_last", "review_progress", "review_queue", "signoff",
    "signoff_status", "undo_last", "update_reviewer", "ratings", "metric_values", "available_metrics",
    "validation_study", "run_review_status", "linter_audit_queue", "linter_audit", "rejected_words",
    "fst_audit_queue", "fst_audit", "allowlist_rows", "latest_current", "undo_task", "judgment_counts",
    "import_judgments_file", "ALL_CLASSES", "UNCLASSIFIED", "SIGNOFF_MIN_ENTRIES", "SIGNOFF_MIN_REVIEWERS",
    "SignoffEvidence", "SignoffRefused", "SignoffCandidates", "signoff_evidence", "signoff_candidates", "linter_ids",
    "SignoffRule", "signoff_rules", "signer_problem", "speaks",
    "linter_detail", "categories_for_run", "categories_for_language", "esa_scores", "EsaRun",
    "SpanTarget", "span_target", "entry_esa", "judgment_esa", "spans_esa",
]


def _require_runs(ws: Workspace, run_ids: Sequence[str]) -> None:
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


def esa_scores(ws: Workspace, run_ids: Sequence[str]) -> dict[str, EsaRun]:
    """ESA per run from the current judgments that carry error spans (:mod:`mteval_gui.validation.esa`);
    a run without such judgments has ``score`` None."""
    _require_runs(ws, run_ids)
    span_judgments = [
        SpanJudgment((j.run_id, j.entry_id), j.reviewer_id, tuple(spans))
        for run_id in run_ids for j in current_judgments(ws, run_id=run_id)
        if j.entry_id is not None and (spans := judgment_spans(j)) is not None
    ]
    found = esa_by_run(span_judgments)
    return {run_id: found.get(run_id, EsaRun(run_id)) for run_id in run_ids}


def ratings(ws: Workspace, run_ids: Sequence[str]) -> list[Rating]:
    """Current Task A ratings of the runs as plain :class:`Rating` records."""
    out: list[Rating] = []
    for run_id in run_ids:
        for j in current_judgments(ws, run_id=run_id, task="A"):
            if j.entry_id is not None and (j.adequacy is not None or j.fluency is not None):
                out.append(Rating(j.run_id, j.entry_id, j.reviewer_id, j.adequacy, j.fluency))
    return out


def metric_values(ws: Workspace, run_ids: Sequence[str],
                  metric_ids: Sequence[str] | None = None) -> dict[str, dict[Item, float | None]]:
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
    short_bleu: bool = False,
) -> StudyResult:
    """The metric-vs-human study over the runs' current Task A ratings.

    BLEU is left out (listed in ``excluded`` with the reason) when one of the runs has the
    caveat ``short_segments``, unless ``short_bleu`` is true."""
    _require_runs(ws, run_ids)
    if metric_ids is not None:
        known = set(available_metrics(ws, run_ids))
        missing = [m for m in metric_ids if m not in known]
        if missing:
            raise StoreError(
                f"no per-entry values for metric{'s' if len(missing) > 1 else ''} {', '.join(missing)} in "
                f"{', '.join(run_ids)} (available: {', '.join(sorted(known)) or 'none; score the runs first'})"
            )
    rated = ratings(ws, run_ids)
    # only rated items take part: read the values of the runs that have ratings, and list every
    # metric of the runs all the same (without rated items its correlations are undefined)
    rated_runs = sorted({r.run_id for r in rated})
    values = metric_values(ws, rated_runs, metric_ids) if rated_runs else {}
    for mid in (metric_ids if metric_ids is not None else available_metrics(ws, run_ids)):
        values.setdefault(mid, {})
    excluded: dict[str, str] = {}
    if not short_bleu:
        from mteval_gui.app.compare import short_segments_reason
        from mteval_gui.store.results import load_run_card_summary

        # caveats and score sources only: the per-entry results of 16 large runs took 0.7 s to decode
        cards = {r: c for r in run_ids if (c := load_run_card_summary(ws, r)) is not None}
        why = short_segments_reason(cards)
        if why is not None:
            for card in cards.values():
                bleu_id = (card.get("score_sources") or {}).get("bleu")
                if bleu_id:
                    excluded[str(bleu_id)] = why
    return run_study(rated, values, aspect=aspect, n_bootstrap=n_bootstrap, seed=seed, excluded=excluded)


def run_review_status(ws: Workspace, run_id: str) -> dict[str, Any]:
    """The run card's ``human_review`` block (the fields of :class:`~mteval_gui.domain.runcard.HumanReview`).

    ``reviewers``/``judgments`` count current judgments of tasks A-C; ``agreement`` is
    Krippendorff's α (ordinal) of the adequacy ratings (None until computable); ``rated_entries``,
    ``raters`` and ``required_entries`` are the sign-off evidence (:func:`signoff_evidence`);
    ``confirmed`` and ``confirmed_by`` come from :func:`signoff_status` (None without a decision on
    the present tier, or when the confirmation lacks its evidence).
    """
    _require_runs(ws, [run_id])
    current = [j for j in current_judgments(ws, run_id=run_id) if j.task != "signoff"]
    status = signoff_status(ws, run_id)
    esa = esa_scores(ws, [run_id])[run_id]
    evidence: SignoffEvidence = status["evidence"]
    return {
        "reviewers": len({j.reviewer_id for j in current}),
        "judgments": len(current),
        "agreement": evidence.agreement,
        "confirmed": status["confirmed"],
        "rated_entries": evidence.rated_entries,
        "raters": evidence.reviewers,
        "required_entries": evidence.required_entries,
        "confirmed_by": status["confirmed_by"],
        "esa_score": esa.score,
        "esa_entries": len(esa.entries),
    }


# --------------------------------------------------------------------------- sign-off

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

        return (f"{_plural(self.rated_entries, 'entry', 'entries')} rated by at least {self.min_speakers} "
                f"speakers of {self.language or 'the target language'} "
                f"({_plural(self.reviewers, 'speaker', 'speakers')} in all), median adequacy "
                f"{_shown(self.median_adequacy)} and fluency {_shown(self.median_fluency)}, Krippendorff's α "
                f"{alpha(self.agreement)} (adequacy) and {alpha(self.fluency_agreement)} (fluency)")

    def to_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "rated_entries": self.rated_entries, "required_entries": self.required_entries,
                "reviewers": self.reviewers, "agreement": self.agreement, "language": self.language,
                "median_adequacy": self.median_adequacy, "median_fluency": self.median_fluency,
                "fluency_agreement": self.fluency_agreement}


def _run_tier_size_language(ws: Workspace, run_id: str) -> tuple[str | None, int, str | None]:
    _require_runs(ws, [run_id])
    info = repo.get_run_info(ws, run_id)
    corpus = repo.get_corpus_info(ws, info["corpus_id"])
    return info.get("quality_tier"), int(corpus["entry_count"]), corpus.get("target_lang")


def _alpha(rated: Sequence[Rating], aspect: str) -> float | None:
    alpha = krippendorff_alpha([list(v.values()) for v in ratings_by_item(rated, aspect).values()], "ordinal")
    return None if alpha is None else round(alpha, 4)


def signoff_evidence(ws: Workspace, run_id: str, tier: str | None = None) -> SignoffEvidence:
    """The current task A ratings of a run by speakers of its target language, measured against
    the rule of its tier (or of ``tier``)."""
    present, entries, language = _run_tier_size_language(ws, run_id)
    everyone = ratings(ws, [run_id])
    reviewers = {r.reviewer_id: r for r in list_reviewers(ws)}
    speaker_ids = {rid for rid, r in reviewers.items() if speaks(r, language)}
    rated = [r for r in everyone if r.rater in speaker_ids]
    rule = SIGNOFF_RULES.get(tier or present or "") or SIGNOFF_RULES["fluent"]
    raters_per_entry: dict[str, set[str]] = {}
    for r in rated:
        raters_per_entry.setdefault(r.entry_id, set()).add(r.rater)
    return SignoffEvidence(
        run_id=run_id, tier=tier if tier is not None else present, entries=entries,
        rated_entries=sum(1 for who in raters_per_entry.values() if len(who) >= rule.min_speakers),
        reviewers=len({r.rater for r in rated}), agreement=_alpha(rated, "adequacy"), language=language,
        judged_entries=len(raters_per_entry),
        median_adequacy=_median([r.adequacy for r in rated if r.adequacy is not None]),
        median_fluency=_median([r.fluency for r in rated if r.fluency is not None]),
        fluency_agreement=_alpha(rated, "fluency"),
        speakers=tuple(sorted({r.rater for r in rated})),
        non_speakers=tuple(sorted({r.rater for r in everyone} - speaker_ids)))


def signer_problem(evidence: SignoffEvidence, reviewer: Reviewer) -> str | None:
    """Why ``reviewer`` cannot confirm the run's tier (None if they can): a confirmation is a speaker's
    statement about output they rated."""
    lang = evidence.language or "the target language"
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
    st = decisions_status(ws, run_id)
    evidence = signoff_evidence(ws, run_id)
    confirmed: bool | None = st["confirmed"]
    confirmers = sorted({d["reviewer_id"] for d in st["decisions"] if d["decision"] == "confirm"})
    eligible = [rid for rid in confirmers if rid in evidence.speakers]
    unsupported = bool(confirmed) and (not evidence.sufficient or not eligible)
    if unsupported:
        confirmed = None
    return {**st, "confirmed": confirmed, "evidence": evidence, "unsupported": unsupported,
            "confirmed_by": eligible if confirmed else []}


def signoff(ws: Workspace, run_id: str, reviewer_id: str, decision: str, tier: str | None = None,
            note: str | None = None) -> Judgment:
    """Record a reviewer's decision on the run's tier (default: its present tier) and update its run card.

    Confirming a tier the speakers' ratings do not support, or by a reviewer who is not a speaker
    of the target language with ratings of the run, raises :class:`SignoffRefused` (nothing is
    recorded); the judgment of a confirmation carries the evidence in its payload
    (``payload["evidence"]``). Rejecting is always possible.
    """
    if decision not in SIGNOFF_DECISIONS:
        raise StoreError(f"sign-off decision {decision!r} is not one of {', '.join(SIGNOFF_DECISIONS)}")
    _require_runs(ws, [run_id])
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
    judgment = record_judgment(ws, Judgment(reviewer_id=reviewer_id, run_id=run_id, task="signoff",
                                            payload=payload, note=note))
    from mteval_gui.app.scoring import refresh_review_status

    refresh_review_status(ws, run_id)
    return judgment


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


def linter_audit_queue(ws: Workspace, run_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Entries the linter called EQUIVALENT, with the classes that fired (the Task B items)."""
    _require_runs(ws, run_ids)
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
    _require_runs(ws, run_ids)
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
    _require_runs(ws, run_ids)
    items = [(run_id, entry_id, word) for run_id in run_ids for entry_id, word in rejected_words(ws, run_id)]
    if limit is not None and limit < len(items):
        items = sorted(random.Random(seed).sample(items, limit), key=items.index)
    return items


def fst_audit(ws: Workspace, run_ids: Sequence[str]) -> FstAudit:
    """FST false-rejection rate and allowlist from the current Task C judgments."""
    _require_runs(ws, run_ids)
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
    return import_log(ws, read.reviewers, read.judgments, file=read.name, defects=defects)
