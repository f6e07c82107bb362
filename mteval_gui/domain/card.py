"""Language cards: what the application knows about one language (one JSON file each)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import ConfigDict, Field

from mteval_gui.domain.base import DomainModel
from mteval_gui.domain.metrics import ValidationLevel


class _CardModel(DomainModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class OrthographyRule(_CardModel):
    pattern: str = Field(description="Python regular expression matched against each word, in linear time (RE2): "
                                     "no backreferences, lookaround, conditional or atomic groups, possessive "
                                     "quantifiers or \\b")
    message: str


class OrthographyProfile(_CardModel):
    alphabet: str | None = Field(
        default=None, description="Every letter allowed in a word (both cases); None = no check"
    )
    extra_allowed: str = Field(default="-'’", description="Non-letter characters allowed inside words")
    forbidden: dict[str, str] = Field(default_factory=dict, description="Forbidden character -> reason")
    lookalikes: dict[str, str] = Field(default_factory=dict, description="Look-alike character -> the letter meant")
    folds: dict[str, str] = Field(
        default_factory=dict, description="Orthographic folds for equivalence (never exact match)"
    )
    rules: list[OrthographyRule] = Field(default_factory=list)
    digits_in_words_forbidden: bool = False


class AnalyzerDecl(_CardModel):
    strict: str | None = Field(default=None, description="File name of the normative analyzer (.hfstol)")
    descriptive: str | None = Field(
        default=None, description="File name of an analyzer that also accepts non-standard spellings"
    )
    generator: str | None = Field(
        default=None, description="File name of the generator (analysis -> forms, .hfstol): the forms a speaker "
                                  "may pick to correct a word; installed, pinned (sha256) and loaded like the "
                                  "analyzers")
    paradigm_features: list[list[str]] = Field(
        default_factory=list,
        description="Sets of tags that take each other's place in a paradigm (person and number of the actor, "
                    "of the goal, order...): the nearest cells of a gold analysis change one tag for another "
                    "of its set")
    source_url: str | None = Field(
        default=None, description="Where 'Install analyzer' downloads from (only when the user asks)"
    )
    source_format: str = Field(default="hfstol", description="hfstol | deb")
    sha256: dict[str, str] = Field(default_factory=dict, description="file name -> expected sha256")
    license: str | None = None


class TransliterationDecl(_CardModel):
    """A deterministic transliteration between two scripts of the language (a table of strings)."""

    from_script: str = Field(alias="from", description="ISO 15924 code of the script of the table's keys: the "
                                                       "card's first script, the one its analyzers read")
    to_script: str = Field(alias="to", description="ISO 15924 code of the script of the table's values")
    name: str | None = Field(default=None, description="Name shown to reviewers, e.g. 'SRO ↔ syllabics'")
    table: dict[str, str] = Field(description="Spelling in the first script -> spelling in the second; the "
                                              "longest key that matches is used, so 'pwâ' wins over 'p'. "
                                              "The values must differ from each other: the table read "
                                              "backwards converts the other way")
    word_final: dict[str, str] = Field(default_factory=dict,
                                       description="Keys used only at the end of a word (Cree 'hk' -> 'ᕽ')")
    ignore_case: bool = Field(default=True, description="Lower-case a word before converting it (for a "
                                                        "second script without case)")
    source: str | None = Field(default=None, description="Where the table comes from")


class MetricRef(_CardModel):
    id: str
    python_name: str = Field(description="'package.module:ClassName'")
    params: dict[str, Any] = Field(default_factory=dict)
    time_limit_s: float | None = Field(
        default=None, gt=0,
        description="Seconds one call of the metric may take (prepare, one batch of entries, aggregate) when it runs "
                    "in a process of its own, as the metrics of installed plugin packages do; past it the metric is "
                    "failed ('timed out after N s') and scoring goes on with the others. Default 300")


class MetricValidationDecl(_CardModel):
    level: ValidationLevel
    evidence: str | None = Field(default=None, description="The study or speaker data the level rests on")


class ModelSupport(_CardModel):
    model: str
    covered: bool = True
    note: str | None = None


class ErrorCategory(_CardModel):
    id: str = Field(description="Category id, lower case (letters, digits, '-', '_'), e.g. 'morphology'")
    label: str | None = Field(default=None, description="Name shown to reviewers (default: the id)")
    description: str | None = None


class LanguageIdProfile(_CardModel):
    """What tells a text in this language apart when a language-identification model does not know it."""

    frequent_words: list[str] = Field(
        default_factory=list,
        description="Very frequent words of the language (function words), matched as whole words, "
                    "case-insensitively: evidence that an output is written in this language")
    source: str | None = Field(default=None, description="Where the words come from")


class CompositeProfileDecl(_CardModel):
    """A composite profile calibrated to this language's speakers (``mteval calibrate --write-card``)."""

    base: Literal["A", "B"] = Field(description="the seed profile whose inputs were weighed (A: with an analyzer)")
    weights: dict[str, float] = Field(description="composite input key -> weight (non-negative, summing to 1)")
    weights_ci: dict[str, list[float]] = Field(default_factory=dict, description="key -> [low, high] 95 % interval")
    tiers: dict[str, float] = Field(
        default_factory=dict, description="tier -> lowest composite (fluent, deployable, functional, emerging)")
    evidence: dict[str, Any] = Field(
        default_factory=dict, description="ratings, raters, α, date, corpus versions the profile was fitted on")


class LanguageCard(_CardModel):
    code: str = Field(description="ISO 639-3 code")
    name: str
    names: dict[str, str] = Field(default_factory=dict, description="Name of the language in other languages (by code)")
    scripts: list[str] = Field(default_factory=lambda: ["Latn"], description="ISO 15924 script codes")
    orthography: OrthographyProfile = Field(default_factory=OrthographyProfile)
    quotes: list[str] = Field(default_factory=lambda: ['"', "“", "”"])
    has_case: bool = Field(default=True, alias="hasCase")
    allowed_loanwords: list[str] = Field(default_factory=list)
    metric_model_support: dict[str, ModelSupport] = Field(default_factory=dict, alias="metricModelSupport")
    eval_metrics: list[MetricRef] = Field(default_factory=list, alias="evalMetrics")
    metric_validation: dict[str, ValidationLevel | MetricValidationDecl] = Field(
        default_factory=dict,
        description="How far each metric is validated for this language, by metric id (a level, or "
                    "{level, evidence}); overrides the metric's own declaration. 'external' needs evidence.")
    analyzers: AnalyzerDecl | None = None
    transliterations: list[TransliterationDecl] = Field(
        default_factory=list,
        description="Deterministic transliterations from the first script to another one: outputs written in "
                    "either script are analysed, checked and compared through them")
    placeholders: list[str] = Field(
        default_factory=list,
        description="Placeholders the checks of words ignore (leakage, code-switching, orthography): preset "
                    "names 'braces' ({name}, {{name}}, {0}), 'printf' (%s, %d, %(name)s), 'dollar' ($1), "
                    "'tags' (<x>, </x>, <x/>), or regular expressions (linear-time, as orthography rules)")
    lexicon_files: dict[str, str] = Field(
        default_factory=dict, description="Named word lists, paths relative to eval_standards/<code>/data"
    )
    error_categories: list[ErrorCategory] = Field(
        default_factory=list, alias="errorCategories",
        description="Error-span categories added to the built-in MQM-style list for this language",
    )
    error_severity_weights: dict[Literal["minor", "major", "critical"], Annotated[float, Field(ge=0)]] = Field(
        default_factory=dict, alias="errorSeverityWeights",
        description="Weights of error-span severities in the MQM-style penalty (default minor 1, major 5, "
                    "critical 10); the ESA score itself is the annotators' direct 0-100 rating")


    language_id: LanguageIdProfile | None = Field(
        default=None, description="Evidence used to recognise outputs in this language (wrong-language detection)")
    notes: str | None = None
    composite_profiles: dict[str, CompositeProfileDecl] = Field(
        default_factory=dict, description="Composite profiles calibrated to this language's speakers, by name")
    default_composite_profile: str | None = Field(
        default=None, description="The calibrated profile scoring uses when none is named (null: the seed weights)")

    def validation_of(self, metric_id: str) -> MetricValidationDecl | None:
        """This card's validation level for a metric (None when the card says nothing about it)."""
        v = self.metric_validation.get(metric_id)
        if v is None:
            return None
        return v if isinstance(v, MetricValidationDecl) else MetricValidationDecl(level=v)


# --------------------------------------------------------------------------- card parts

CardPart = Literal[
    "code", "name", "names", "scripts",
    "orthography", "alphabet", "extra_allowed", "forbidden", "lookalikes", "folds", "rules",
    "digits_in_words_forbidden",
    "quotes", "has_case", "loanwords", "model_support", "eval_metrics", "metric_validation", "analyzers",
    "lexicon_files", "error_categories", "error_severity_weights", "language_id", "notes", "composite_profiles",
    "default_composite_profile", "transliterations", "placeholders",
]
"""A part of a language card a metric may declare it reads (``MetricInfo.card_parts``): a stored
per-entry result of the metric is reused only while these parts of the target and source cards
are unchanged. ``orthography`` is the whole orthography profile; ``alphabet``, ``extra_allowed``,
``forbidden``, ``lookalikes``, ``folds``, ``rules`` and ``digits_in_words_forbidden`` its fields;
``loanwords`` is ``allowed_loanwords``, ``model_support`` ``metricModelSupport``,
``eval_metrics`` ``evalMetrics`` (with their params), ``has_case`` ``hasCase``; the others are
the card fields of the same name."""
CARD_PARTS: tuple[str, ...] = get_args(CardPart)

# part -> path of the card field (attribute names)
_PART_PATHS: dict[str, tuple[str, ...]] = {
    **{p: ("orthography", p) for p in ("alphabet", "extra_allowed", "forbidden", "lookalikes", "folds", "rules",
                                      "digits_in_words_forbidden")},
    "loanwords": ("allowed_loanwords",), "model_support": ("metric_model_support",),
}


def card_part(card: LanguageCard, part: CardPart) -> Any:
    """The JSON value of one part of ``card`` (see :data:`CardPart`)."""
    if part not in CARD_PARTS:
        raise ValueError(f"{part!r} is not a card part (one of {', '.join(CARD_PARTS)})")
    value: Any = card
    for attr in _PART_PATHS.get(part, (part,)):
        value = getattr(value, attr)
    if isinstance(value, list):
        return [v.model_dump(mode="json", by_alias=True) if isinstance(v, _CardModel) else v for v in value]
    if isinstance(value, dict):
        return {k: v.model_dump(mode="json", by_alias=True) if isinstance(v, _CardModel) else v
                for k, v in value.items()}
    return value.model_dump(mode="json", by_alias=True) if isinstance(value, _CardModel) else value
