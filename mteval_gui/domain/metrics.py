"""What a metric declares about itself, in the form interfaces and run cards read.

A metric plugin declares its *role* (what the interfaces use it for), a short English label
with optional translations it brings itself, a display format and a *validation level*.
The interfaces and the run-card assembly find metrics by role (and by the run card's
``score_sources``), never by id, so a new language's linter gets its verdict column, its
label and its place in the review pane without a change to the application.

Roles (:data:`METRIC_ROLES`):

- ``exact``, ``equivalence_verdict`` (per-entry verdict: the reference or an acceptable
  variant of it; a language's linter or the generic fold rule), ``chrf``, ``bleu``, ``ter``,
  ``length_ratio`` — surface;
- ``fst_analysis`` (per-entry word analyses), ``morphology``, ``orthography`` (per-entry
  violations) — structural;
- ``semantic_verdict`` (per-entry meaning verdict or similarity), ``comet`` — semantic;
- ``code_switching``, ``hallucination``, ``terminology``, ``consistency``, ``compliance`` —
  behavioural and compliance;
- ``other`` — anything else (a metric that does not declare a role gets the role of the
  first run-card key it produces, see :attr:`~mteval_gui.domain.score_keys.ScoreKey.role`,
  else ``other``).

Validation levels (:data:`VALIDATION_LEVELS`), from strongest to weakest:

- ``external`` — shown to agree with human judgments *for this language* (a published study
  or speaker data; a language card that raises a metric to this level names its evidence);
- ``proxy`` — validated against human judgments for other languages or tasks and used here
  as a stand-in (chrF++, BLEU, TER, COMET, exact match against a human reference);
- ``heuristic`` — rules written from linguistic knowledge, not yet measured against human
  judgments (linters, FST acceptance, code-switching, hallucination, compliance…);
- ``unvalidated`` — no evidence at all (the default of a metric that declares nothing).

A composite whose inputs are not all ``external`` for the language is an *engineering
estimate* (:class:`~mteval_gui.domain.runcard.CompositeValidation`).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import ConfigDict, Field

from mteval_gui.domain.base import DomainModel

MetricRole = Literal[
    "exact", "equivalence_verdict", "chrf", "bleu", "ter", "length_ratio",
    "fst_analysis", "morphology", "orthography",
    "semantic_verdict", "comet",
    "code_switching", "hallucination", "terminology", "consistency", "compliance",
    "other",
]
METRIC_ROLES: tuple[str, ...] = get_args(MetricRole)

ValidationLevel = Literal["external", "proxy", "heuristic", "unvalidated"]
VALIDATION_LEVELS: tuple[str, ...] = get_args(ValidationLevel)

EntryDisplay = Literal["number", "check"]

def role_for(produces: tuple[str, ...] | list[str]) -> MetricRole:
    """The role of a metric that declares none: that of the first key it produces, else ``other``."""
    from mteval_gui.domain.score_keys import score_key  # the declarations name this module's roles

    for key in produces:
        decl = score_key(key)
        if decl is not None and decl.role is not None:
            return decl.role
    return "other"


class MetricDescriptor(DomainModel):
    """A metric's declaration as recorded in a run card (``metric_info``) and read by the interfaces.

    ``validation`` is the level for the run's target language (the language card's override,
    else the metric's own declaration); ``validation_evidence`` names the study or speaker data
    of an override.
    """

    model_config = ConfigDict(extra="ignore")

    id: str
    role: MetricRole = "other"
    label: str = Field(description="Short English label (column header)")
    labels: dict[str, str] = Field(default_factory=dict,
                                   description="Translations of the label by interface language code ('fr')")
    scale: str = "0-1"
    decimals: int = Field(default=3, ge=0, le=6, description="Decimals of a per-entry value")
    display: EntryDisplay = Field(default="number", description="'check': a per-entry 0/1 value shown as ✓/✗")
    higher_is_better: bool = True
    produces: list[str] = Field(default_factory=list)
    heavy: bool = False
    builtin: bool = Field(default=True, description="False for a metric a language standard (plugin) brings")
    validation: ValidationLevel = "unvalidated"
    validation_evidence: str | None = None

    def label_for(self, lang: str | None) -> str:
        """The plugin's own translation of the label for interface language ``lang``, else English."""
        if lang:
            text = self.labels.get(lang) or self.labels.get(lang.split("_")[0])
            if text:
                return text
        return self.label

    def format_value(self, value: float | None) -> str:
        """A per-entry value as shown in tables ("" for none)."""
        if value is None or value != value:  # NaN
            return ""
        if self.display == "check":
            return "✓" if value >= 1 else "✗"
        return f"{value:.{self.decimals}f}"


def unknown_descriptor(metric_id: str) -> MetricDescriptor:
    """The descriptor of a metric whose declaration cannot be found (its plugin is not installed)."""
    return MetricDescriptor(id=metric_id, label=metric_id, builtin=False)
