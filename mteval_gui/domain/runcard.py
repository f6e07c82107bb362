"""The run card (SPEC §8, LYSS §9). Every LYSS §9 key is present; unavailable ones are null."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, Field, create_model

from mteval_gui.domain.base import DomainModel
from mteval_gui.domain.details import Verdict, WordAnalysis
from mteval_gui.domain.metrics import MetricDescriptor, ValidationLevel
from mteval_gui.domain.score_keys import BY_NAME, SCORE_KEYS, ScoreKey, ranked
from mteval_gui.domain.settings import ScoringOptions

CARD_FORMAT = "mteval-runcard/1"

# The condition of a run whose file names none (plain text, JSONL without ``condition``): the
# leaderboard of the reference harness refuses a card without one.
DEFAULT_CONDITION = "unspecified"


class CI(DomainModel):
    ci_lower: float | None = None
    ci_upper: float | None = None
    score: float | None = None
    n_bootstrap: int | None = None
    confidence_level: float | None = None
    n_entries: int | None = None
    seed: int | None = None
    unreliable: bool | None = None


# The seed's (LYSS §8.1, §9.1) and the reference harness's names for corpus values and intervals,
# carried as aliases beside this tool's keys so the harness's readers can use the cards (declared
# with each key: mteval_gui.domain.score_keys):
# scores key alias -> the key whose value it repeats
SEED_SCORE_ALIASES: dict[str, str] = {k.seed_alias: k.name for k in SCORE_KEYS if k.seed_alias}
# flat interval aliases (``<prefix>_ci_lower`` / ``<prefix>_ci_upper``) -> confidence_intervals key
SEED_CI_PREFIXES: dict[str, str] = {p: n for n in ranked("interval") if (p := BY_NAME[n].ci_prefix)}
# confidence_intervals (and confidence_intervals_by_tier) key aliases -> this tool's key
SEED_INTERVAL_ALIASES: dict[str, str] = {a: n for n in ranked("interval") if (a := BY_NAME[n].seed_alias)}


def _alias(of: str) -> Any:
    return Field(default=None, description=f"alias of {of} (the seed's and the reference harness's name)")


_VALUE_TYPES: dict[str, Any] = {"float": float, "int": int, "text": str}


def _declared_field(key: ScoreKey) -> tuple[Any, Any]:
    """The pydantic field of a declared key: the value or null (a text key with a default: that text)."""
    kind = _VALUE_TYPES[key.type]
    if key.text_default is not None:
        return kind, key.text_default
    default = None if key.description is None else Field(default=None, description=key.description)
    return kind | None, default


def _scores_fields() -> dict[str, Any]:
    """The fields of :class:`Scores`, in the card's order (see :mod:`mteval_gui.domain.score_keys`)."""
    fields: dict[str, Any] = {k.name: _declared_field(k) for k in SCORE_KEYS if k.section != "extension"}
    fields.update({
        # §8 confidence
        "confidence_intervals": (dict[str, CI], Field(default_factory=dict)),
        "confidence_intervals_by_tier": (dict[str, dict[str, CI]], Field(default_factory=dict)),
        # breakdowns
        "by_difficulty": (dict[str, dict[str, Any]], Field(default_factory=dict)),
        "by_provenance": (dict[str, dict[str, Any]], Field(default_factory=dict)),
        # counts
        "total": (int, 0),
        "evaluated": (int, 0),
        "errors": (int, 0),
    })
    # seed / reference-harness names (same values as the keys they name)
    fields.update({alias: (float | None, _alias(key)) for alias, key in SEED_SCORE_ALIASES.items()})
    for prefix, key in SEED_CI_PREFIXES.items():
        for end in ("ci_lower", "ci_upper"):
            fields[f"{prefix}_{end}"] = (float | None, _alias(f"confidence_intervals.{key}.{end}"))
    fields.update({k.name: _declared_field(k) for k in SCORE_KEYS if k.section == "extension"})
    return fields


class _ScoresBase(DomainModel):
    model_config = ConfigDict(extra="allow")


if TYPE_CHECKING:
    class Scores(_ScoresBase):
        """The card's ``scores``: a field per declared key (typed by its declaration), the intervals,
        breakdowns and counts, the seed's aliases; a metric's own keys as extra keys."""

        confidence_intervals: dict[str, CI]
        confidence_intervals_by_tier: dict[str, dict[str, CI]]
        by_difficulty: dict[str, dict[str, Any]]
        by_provenance: dict[str, dict[str, Any]]
        total: int
        evaluated: int
        errors: int

        def __getattr__(self, name: str) -> Any: ...
else:
    Scores = create_model("Scores", __base__=_ScoresBase, __module__=__name__, **_scores_fields())


class Totals(DomainModel):
    model_config = ConfigDict(extra="allow")

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    total_tokens: int | None = None
    tokens_per_entry: float | None = None
    total_cost_usd: float | None = None
    cost_per_entry_usd: float | None = None
    cost_per_1k_tokens: float | None = None
    cost_per_source_char: float | None = None


class DatasetInfo(DomainModel):
    id: str
    version: str | None = None
    language_pair: str
    sha256: str | None = None
    entry_count: int
    speaker_variants: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Accepted variants of this corpus version that came from speakers (entry_id, variant, basis, "
                    "reviewer_id, run_id, judgment_id, version)")


class Fingerprint(DomainModel):
    """The experiment's identity. ``fingerprint`` follows the reference harness's recipe (sha256 of the
    default-separator JSON of ``components``, sorted keys), so that a harness card and a card of this
    tool of the same experiment share it; ``score_fingerprint`` is this tool's digest of what
    determines the numbers (corpus and run content, scoring configuration, versions)."""

    hash: str
    components: dict[str, Any] = Field(default_factory=dict)


class FstInfo(DomainModel):
    file: str | None = None
    sha256: str | None = None
    descriptive_file: str | None = None
    descriptive_sha256: str | None = None
    backend: str | None = Field(default=None, description="library that answered the lookups: hfst or pyhfst")
    backend_version: str | None = Field(default=None, description="version of that library")


class CompositeItem(DomainModel):
    metric: str
    value: float
    normalised: float
    weight: float
    weight_share: float
    contribution: float


class CompositeValidation(DomainModel):
    """How far the composite's inputs are validated for the run's language.

    The composite is an *engineering estimate* unless every metric it counts is validated
    ``external`` for the language (see :mod:`mteval_gui.domain.metrics`).
    """

    engineering_estimate: bool
    inputs: dict[str, ValidationLevel] = Field(default_factory=dict, description="composite input key -> level")
    message: str = ""


class CompositeCalibration(DomainModel):
    """The calibrated composite profile of the target language's card a run was scored with."""

    name: str
    base: str = Field(description="the seed profile whose inputs it weighs (A or B)")
    weights: dict[str, float] = Field(description="composite input key -> weight used")
    tiers: dict[str, float] = Field(description="tier -> lowest composite, used for quality_tier")
    fitted: str | None = Field(default=None, description="when the profile was fitted (its evidence's date)")


class Caveat(DomainModel):
    code: str
    message: str
    detail: dict[str, Any] = Field(default_factory=dict)


class HumanReview(DomainModel):
    """Speaker review of a run (SPEC §9): judgments, agreement and the sign-off of its tier."""

    reviewers: int = Field(default=0, description="reviewers with a current judgment (tasks A-C) on the run")
    judgments: int = Field(default=0, description="current judgments (tasks A-C) on the run")
    agreement: float | None = Field(
        default=None,
        description="Krippendorff's alpha (ordinal) of the adequacy ratings by speakers of the target language "
                    "(None until computable)")
    confirmed: bool | None = Field(
        default=None,
        description="True: the present tier is confirmed by a speaker who rated the run, with ratings that "
                    "support it (the sign-off rule of the tier); False: rejected; None: no decision yet (or a "
                    "confirmation the ratings do not support)")
    rated_entries: int = Field(
        default=0, description="entries rated (task A) by at least two speakers of the target language")
    raters: int = Field(
        default=0, description="speakers of the target language with a current task A rating on the run")
    required_entries: int | None = Field(
        default=None,
        description="entries that must be rated by two or more speakers before the present tier can be "
                    "confirmed: min(30, entries) for deployable and fluent, min(20, entries) below")
    confirmed_by: list[str] = Field(default_factory=list,
                                    description="reviewers whose confirmation of the present tier is in force")
    esa_score: float | None = Field(
        default=None, description="ESA 0-100: the mean over entries of the speakers' direct segment scores")
    esa_entries: int = Field(default=0, description="entries with at least one direct ESA score")
    mqm_penalty: float | None = Field(
        default=None, description="MQM-style penalty of the speakers' error spans (severity weights of the "
                                  "language card, default minor 1, major 5, critical 10), mean over entries")


class ScoringFile(DomainModel):
    """A file a scoring job read (an analyzer or a gloss dictionary), with its content hash."""

    role: str = Field(description="analyzer or gloss")
    kind: str | None = Field(default=None, description="analyzer kind: strict, descriptive or generator")
    language: str
    path: str = Field(description="absolute path when scored")
    sha256: str | None = Field(default=None, description="sha256 of the content (a folder: of its files); "
                                                           "null: the file did not exist")


class ScoringConfiguration(DomainModel):
    """How a run was scored: what to score it again with, and the inputs that make it stale when they change."""

    metrics: list[str] | None = Field(default=None,
                                      description="metric ids asked for (null: every metric that applies)")
    exclude: list[str] = Field(default_factory=list, description="metric ids left out")
    options: ScoringOptions = Field(default_factory=ScoringOptions,
                                    description="analyzer files, gloss files (of the run's target language), "
                                                "COMET model, multi-reference and heavy-metric switches")
    glossary: str | None = Field(default=None, description="workspace glossary id used for terminology")
    glossary_sha256: str | None = None
    params: dict[str, Any] = Field(default_factory=dict, description="metric parameters")
    seed: int | None = None
    n_bootstrap: int | None = None
    batch_size: int | None = None
    composite_profile: str | None = Field(
        default=None, exclude_if=lambda v: v is None,
        description="the language card's calibrated composite profile asked for by name (absent: the card's "
                    "default one, if it names one, else the seed weights)")
    files: list[ScoringFile] = Field(default_factory=list, description="analyzer and gloss files read")
    comet_model: str | None = Field(default=None, description="the COMET model the job used, if COMET ran")
    metric_versions: dict[str, str | None] = Field(default_factory=dict,
                                                   description="metric id -> version, every metric of the job")
    corpus_sha256: str | None = None
    run_sha256: str | None = None
    language_card_sha256: str | None = None
    recorded: bool = Field(default=True, description="false: reconstructed from a scoring job of an older "
                                                     "version that did not record its configuration")


class EmbeddingPair(DomainModel):
    """What recomputes ``embedding_similarity`` from ``results[]``: (Σ cosine − Σ shuffled_cosine) /
    Σ (1 − shuffled_cosine) over the entries that have both."""

    cosine: float | None = Field(default=None, description="the output's cosine with its reference, clipped to 0-1")
    shuffled_cosine: float | None = Field(
        default=None, description="the output's cosine with another entry's reference (the shuffled baseline)")
    shuffled_with: str | None = Field(
        default=None, description="the entry whose source and reference it was paired with")


class EntryResult(DomainModel):
    """One entry of a run card's ``results``. Every field the runner writes is declared here."""

    model_config = ConfigDict(extra="allow")

    entry_id: str
    source: str
    reference: str | None = None
    predicted: str = ""
    exact_match: bool | None = None
    entry_chrf: float | None = None
    entry_bleu: float | None = Field(default=None, description="sentence BLEU (effective order), 0-100")
    entry_ter: float | None = Field(default=None, description="sentence TER, 0-100+")
    fst_accepted: float | None = Field(default=None, description="share of output words the analyzer accepts")
    fst_analysis: list[WordAnalysis] | None = Field(
        default=None, description="every output word with its analyses (the fst_analysis metric)")
    lint_verdict: Verdict | None = Field(
        default=None, description="verdict of the language's own metric of role equivalence_verdict (its linter)")
    equivalence_verdict: str | None = Field(
        default=None, description="verdict of the built-in equivalence rule (EXACT, EQUIVALENT, MISS, NO_OUTPUT)")
    semantic_verdict: Verdict | None = Field(
        default=None, description="verdict of the metric that supplied semantic_score")
    difficulty: int | None = None
    provenance: str | None = None
    latency_seconds: float | None = None
    usage: dict[str, Any] | None = None
    error: str | None = None
    metrics: dict[str, float | None] = Field(
        default_factory=dict, description="metric id -> the metric's per-entry headline value")
    embedding: EmbeddingPair | None = Field(
        default=None, description="the embedding metric's cosines of this entry (recompute embedding_similarity)")


class RunCard(DomainModel):
    format: str = CARD_FORMAT
    run_id: str
    harness_version: str
    timestamp: str
    elapsed_seconds: float | None = None
    model_slug: str | None = None
    model_id: str | None = None
    condition: str | None = Field(default=None, description=f"the run's condition ({DEFAULT_CONDITION!r} when "
                                                              "its file names none)")
    temperature: float | None = None
    system_prompt_sha256: str | None = None
    batch_size: int | None = Field(default=None, description="entries per request when the run was made")
    tools_enabled: bool | None = None
    dataset: DatasetInfo
    scores: Scores
    totals: Totals
    corpus_bleu: float | None = Field(default=None, description="alias of scores.bleu (the reference harness reads "
                                                                 "it at the top level)")
    fingerprint: Fingerprint = Field(description="the reference harness's experiment fingerprint")
    score_fingerprint: Fingerprint | None = Field(
        default=None, description="this tool's digest of the inputs of the numbers (null: a card of an older version, "
                                  "whose fingerprint is that digest)")
    sacrebleu_signatures: dict[str, str] = Field(default_factory=dict)
    normalisation: dict[str, str] = Field(default_factory=dict)
    metric_availability: dict[str, str] = Field(default_factory=dict)
    metric_reasons: dict[str, str] = Field(default_factory=dict)
    score_sources: dict[str, str] = Field(default_factory=dict, description="scores key -> metric id that supplied it")
    metric_info: dict[str, MetricDescriptor] = Field(
        default_factory=dict, description="metric id -> its declaration: role, label, display format, validation level")
    metric_validation: dict[str, ValidationLevel] = Field(
        default_factory=dict,
        description="validation level for the run's target language, by metric id and by scores key "
                    "(a key has the level of the metric that supplied it)")
    composite_validation: CompositeValidation | None = Field(
        default=None,
        description="whether the composite is an engineering estimate for this language (null: no composite)")
    composite_profile: str | None = None
    # a card scored with the seed weights has no such key: its text is that of the cards made before
    composite_calibration: CompositeCalibration | None = Field(
        default=None, exclude_if=lambda v: v is None,
        description="the language card's calibrated weights and tier thresholds the composite and tier "
                    "were computed with (absent: the seed profile's weights and tiers)")
    composite_breakdown: list[CompositeItem] = Field(default_factory=list)
    score_caveats: list[Caveat] = Field(default_factory=list)
    fst: FstInfo = Field(default_factory=FstInfo)
    language_card_sha256: str | None = None
    human_review: HumanReview = Field(default_factory=HumanReview)
    bootstrap_seed: int | None = None
    scoring: ScoringConfiguration | None = Field(
        default=None, description="the scoring configuration: metric set, options, files read (sha256), "
                                  "metric versions and input hashes; a rescore reuses it")
    results: list[EntryResult] = Field(default_factory=list)
