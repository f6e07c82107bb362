"""One declaration per run-card ``scores`` key: everything the application knows about a key.

Each :class:`ScoreKey` says what a key is (its type, section, role, scale, direction, English
label) and where it goes (always present in the card per LYSS §9, availability reported,
confidence interval, breakdowns by difficulty and provenance, headline comparison, the seed's
alias names, a column of the workspace's ``runs`` table, a column of the GUI's runs table or of
the per-entry results table). Every list of keys the application uses is derived from
:data:`SCORE_KEYS`:

==============================================  ============================================
derived                                         from
==============================================  ============================================
``runcard.Scores`` (fields, order, types)       the declarations, in order (see below)
``scoring.runcard.LYSS_SCORE_KEYS``             ``lyss`` (+ the card's structural blocks)
``scoring.runcard.AVAILABILITY_KEYS``           ``availability``
``scoring.runcard._VALUE_COLUMNS``              ``entry_column``
``scoring.assembly.CI_KEYS`` / ``TIER_CI_KEYS`` ``interval`` / ``tier_interval``
``scoring.assembly.BREAKDOWN_KEYS``             ``breakdown``
``scoring.assembly`` sacrebleu signatures       ``signature``
``scoring.composite.INVERTED`` / ``SCALED_100``  ``higher_is_better`` / ``scale``
``domain.metrics.ROLE_OF_SCORE_KEY``            ``role``
``domain.runcard.SEED_*`` aliases               ``seed_alias`` / ``ci_prefix``
``store.schema.RUN_CARD_COLUMNS``               ``runs_column`` (the column needs a migration)
``app.runs.KEY_METRICS``                        ``key_metric``
``app.compare.COMPARE_KEYS``                    ``compare``
the GUI's score labels, runs-table columns,     ``label``, ``table``, ``higher_is_better``,
compare formats and directions                  ``scale``
==============================================  ============================================

The composite's weights (SPEC §5) are the table :data:`PROFILES` below: a key with a weight
is a composite input.

Order: the card's ``scores`` object lists the keys in declaration order, then its structural
blocks (intervals, breakdowns, counts), then the seed's alias names, then the keys of section
``extension`` (added after the format was fixed). Orders that differ from declaration order
(the seed's order of intervals, the order of the headline comparison) are declared as ranks.

Adding a built-in metric with a new key, e.g. ``omission_rate``: the metric's module (its
``MetricInfo.produces`` names the key, its ``aggregate`` fills it), its line in
``scoring/builtins.py``, and one ``ScoreKey("omission_rate", "behavioural", "Omission",
role=…, higher_is_better=False, availability=True, …)`` here (a weight in :data:`PROFILES` if
it counts in the composite; a new label needs its French translation). A ``runs_column`` also
needs a migration adding the column in ``store/schema.py``. The schema file is regenerated
(``python -m mteval_gui.schemas``); ``tests/domain/test_score_keys.py`` checks the rest.

A metric's *own* keys (a language plugin's ``letter_share``) need no declaration: they are kept
in the card as extra ``scores`` keys. Declaring a key here gives it a typed field in the card's
schema, a label and the places above.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from mteval_gui.domain.metrics import MetricRole

Section = Literal["surface", "structural", "semantic", "behavioural", "compliance", "composite", "speed",
                  "extension"]
Scale = Literal["0-1", "0-100", "0-inf", "count", "text"]
ValueType = Literal["float", "int", "text"]


@dataclass(frozen=True)
class TableColumn:
    """A column of the GUI's runs table: its key (saved layouts name it), short English title
    (translated in the context ``RunsModel``) and whether the value is shown as a percentage."""

    key: str
    title: str
    percent: bool = False


@dataclass(frozen=True)
class ScoreKey:
    """The declaration of one run-card ``scores`` key (see the module docstring for what reads each field)."""

    name: str
    section: Section
    label: str | None = None  # short English label (translated in the context ``labels``); None: not shown
    type: ValueType = "float"
    text_default: str | None = None  # a text key's value when it has none ("" rather than null)
    description: str | None = None  # the field's description in the JSON Schema
    role: MetricRole | None = None  # the role of a metric that produces it first and declares none
    scale: Scale = "0-1"
    higher_is_better: bool = True
    lyss: bool = False  # a LYSS §9 key: always present in a card (null when unavailable)
    availability: bool = False  # its availability is always reported in ``metric_availability``
    interval: int | None = None  # rank among the card's bootstrap intervals (the seed's order); None: none
    tier_interval: bool = False  # also an interval per difficulty tier
    breakdown: bool = False  # shown in ``by_difficulty`` and ``by_provenance``
    signature: bool = False  # its metric's signature goes into ``sacrebleu_signatures``
    seed_alias: str | None = None  # the seed's and the reference harness's name of the value
    ci_prefix: str | None = None  # the seed's flat interval names ``<prefix>_ci_lower`` / ``_ci_upper``
    runs_column: str | None = None  # column of the workspace's ``runs`` table (added by a migration)
    key_metric: bool = False  # listed in each row of the runs table (GUI and ``mteval list runs``)
    compare: int | None = None  # rank among the metrics compared by default; None: compared on request
    table: TableColumn | None = None  # column of the GUI's runs table
    entry_column: bool = False  # a per-entry column (named after the role) of the results table


SCORE_KEYS: tuple[ScoreKey, ...] = (
    # LYSS §2.1 surface
    ScoreKey("exact_match_rate", "surface", "Exact match", role="exact", lyss=True, availability=True, interval=3,
             tier_interval=True, breakdown=True, ci_prefix="exact_match", runs_column="exact_match_rate",
             key_metric=True, compare=4, table=TableColumn("exact", "Exact", percent=True)),
    ScoreKey("exact_matches", "surface", type="int", scale="count", lyss=True),
    ScoreKey("equivalent_match_rate", "surface", "Equivalent match", role="equivalence_verdict", lyss=True,
             availability=True, breakdown=True, runs_column="equivalent_match_rate", key_metric=True, compare=5,
             table=TableColumn("equivalent", "Equiv.", percent=True)),
    ScoreKey("equivalent_matches", "surface", type="int", scale="count", lyss=True),
    ScoreKey("chrf_plus_plus", "surface", "chrF++", role="chrf", scale="0-100", lyss=True, availability=True,
             interval=1, tier_interval=True, breakdown=True, signature=True, seed_alias="corpus_chrf",
             ci_prefix="chrf", runs_column="chrf_plus_plus", compare=1),
    ScoreKey("bleu", "surface", "BLEU", role="bleu", scale="0-100", lyss=True, availability=True, interval=2,
             breakdown=True, signature=True, seed_alias="corpus_bleu", ci_prefix="bleu", runs_column="corpus_bleu",
             compare=2),
    ScoreKey("ter", "surface", "TER", role="ter", scale="0-100", higher_is_better=False, lyss=True,
             availability=True, signature=True, seed_alias="corpus_ter", runs_column="ter", compare=3),
    ScoreKey("length_ratio", "surface", "Length ratio", role="length_ratio", scale="0-inf", lyss=True,
             availability=True, runs_column="length_ratio", entry_column=True),
    # §2.2 structural
    ScoreKey("fst_acceptance_rate", "structural", "FST acceptance", role="fst_analysis", lyss=True,
             availability=True, interval=4, breakdown=True, ci_prefix="fst", runs_column="fst_acceptance_rate",
             key_metric=True, compare=6, table=TableColumn("fst", "FST", percent=True)),
    ScoreKey("fst_acceptance_rate_micro", "structural"),
    ScoreKey("fst_accepted", "structural", type="int", scale="count", lyss=True),
    ScoreKey("morphological_accuracy", "structural", "Morphological accuracy", role="morphology", lyss=True,
             availability=True),
    ScoreKey("morph_coverage", "structural"),
    ScoreKey("orthographic_accuracy", "structural", "Orthographic accuracy", role="orthography", lyss=True,
             availability=True),
    # §2.3 semantic
    ScoreKey("semantic_score", "semantic", "Semantic score", role="semantic_verdict", lyss=True, availability=True,
             breakdown=True, runs_column="semantic_score", key_metric=True, compare=7,
             table=TableColumn("semantic", "Semantic")),
    ScoreKey("semantic_coverage", "semantic"),
    ScoreKey("comet_score", "semantic", "COMET", role="comet", lyss=True, availability=True, interval=5,
             breakdown=True, seed_alias="corpus_comet", ci_prefix="comet", runs_column="comet_score",
             key_metric=True, compare=8, table=TableColumn("comet", "COMET"), entry_column=True),
    ScoreKey("comet_model", "semantic", type="text", text_default="", scale="text", lyss=True),
    # §2.4 behavioural
    ScoreKey("code_switching_rate", "behavioural", "Code-switching", role="code_switching", higher_is_better=False,
             lyss=True, availability=True, breakdown=True, runs_column="code_switching_rate", key_metric=True,
             table=TableColumn("code_switching", "Code-sw.", percent=True), entry_column=True),
    ScoreKey("hallucination_rate", "behavioural", "Hallucination", role="hallucination", higher_is_better=False,
             lyss=True, availability=True, breakdown=True, runs_column="hallucination_rate", key_metric=True,
             table=TableColumn("hallucination", "Halluc.", percent=True), entry_column=True),
    ScoreKey("terminology_adherence", "behavioural", "Terminology", role="terminology", lyss=True,
             availability=True, runs_column="terminology_adherence", key_metric=True, entry_column=True),
    ScoreKey("consistency_score", "behavioural", "Consistency", role="consistency", lyss=True, availability=True),
    # §2.5 compliance
    ScoreKey("compliance_index", "compliance", "Compliance", role="compliance", availability=True,
             entry_column=True),
    ScoreKey("compliance_index_raw", "compliance"),
    ScoreKey("repair_effectiveness", "compliance", availability=True),
    # §4 composite
    ScoreKey("composite", "composite", "Composite", lyss=True, interval=6, seed_alias="composite_score",
             ci_prefix="composite", runs_column="composite_score", compare=9),
    ScoreKey("quality_tier", "composite", "Tier", type="text", scale="text", lyss=True, runs_column="quality_tier"),
    ScoreKey("cost_adjusted", "composite", "Cost-adjusted", scale="0-inf", lyss=True, key_metric=True,
             table=TableColumn("cost_adjusted", "Cost-adj.")),
    # §7 speed
    ScoreKey("tokens_per_second", "speed", scale="0-inf", lyss=True, runs_column="tokens_per_second"),
    ScoreKey("entries_per_minute", "speed", scale="0-inf", lyss=True, runs_column="entries_per_minute"),
    ScoreKey("avg_latency_seconds", "speed", scale="0-inf", higher_is_better=False, lyss=True,
             runs_column="avg_latency_seconds"),
    ScoreKey("median_latency_seconds", "speed", scale="0-inf", higher_is_better=False, lyss=True),
    ScoreKey("p95_latency_seconds", "speed", scale="0-inf", higher_is_better=False, lyss=True),
    # the calibrated embedding fallback (see core.embedding_semantic)
    ScoreKey("embedding_similarity", "extension",
             description="embedding similarity rescaled so that shuffled outputs score 0 and identical 1"),
    ScoreKey("embedding_similarity_raw", "extension", description="mean raw cosine similarity"),
    ScoreKey("embedding_shuffled_baseline", "extension",
             description="mean cosine of each output against another entry (the 0 of the rescaled value)"),
)

# The composite's weights (SPEC §5), by profile, in the order of the card's composite breakdown.
# Profile A applies when an analyzer ran, else profile B; the weights of a profile sum to 1.
PROFILES: dict[str, dict[str, float]] = {
    "A": {
        "fst_acceptance_rate": 0.25,
        "morphological_accuracy": 0.15,
        "chrf_plus_plus": 0.15,
        "semantic_score": 0.15,
        "equivalent_match_rate": 0.10,
        "code_switching_rate": 0.05,
        "terminology_adherence": 0.05,
        "hallucination_rate": 0.05,
        "exact_match_rate": 0.05,
    },
    "B": {
        "semantic_score": 0.25,
        "chrf_plus_plus": 0.25,
        "equivalent_match_rate": 0.15,
        "exact_match_rate": 0.10,
        "code_switching_rate": 0.10,
        "terminology_adherence": 0.05,
        "hallucination_rate": 0.05,
        "orthographic_accuracy": 0.05,
    },
}

BY_NAME: Mapping[str, ScoreKey] = {k.name: k for k in SCORE_KEYS}


def score_key(name: str) -> ScoreKey | None:
    """The declaration of a ``scores`` key (None for a key no declaration names, e.g. a plugin's own)."""
    return BY_NAME.get(name)


def keys_where(flag: str) -> tuple[str, ...]:
    """The keys whose declaration sets ``flag`` (a field of :class:`ScoreKey`), in declaration order."""
    return tuple(k.name for k in SCORE_KEYS if getattr(k, flag))


def ranked(flag: str) -> tuple[str, ...]:
    """The keys with a rank ``flag`` (``interval``, ``compare``), in the order of their ranks."""
    keyed = [(rank, k.name) for k in SCORE_KEYS if (rank := getattr(k, flag)) is not None]
    return tuple(name for _, name in sorted(keyed))


def lower_is_better() -> frozenset[str]:
    """The keys for which a lower value is better."""
    return frozenset(k.name for k in SCORE_KEYS if not k.higher_is_better)


def keys_where_scale(scale: Scale) -> tuple[str, ...]:
    """The keys on ``scale``, in declaration order."""
    return tuple(k.name for k in SCORE_KEYS if k.scale == scale)


# the role of a metric that declares none, from the first run-card ``scores`` key it produces
ROLE_OF_SCORE_KEY: Mapping[str, MetricRole] = {k.name: k.role for k in SCORE_KEYS if k.role is not None}
