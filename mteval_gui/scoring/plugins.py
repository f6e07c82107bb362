"""Metric plugin protocol, lazy registry and discovery from language cards (DESIGN §4).

Built-in metrics and language-specific ones (``eval_standards.<lang>``) are declared the
same way: a :class:`~mteval_gui.domain.card.MetricRef` naming ``"module:Class"``. Discovery
validates references without importing anything; :func:`resolve` imports on first use and
raises :class:`PluginError` naming the metric. A metric that fails never sinks a run: the
runner records ``metric_availability[metric] = "failed"`` with the reason.

A metric's life in one scoring job (in the scoring thread; a metric of an installed plugin
package in a process of its own, with a time limit per call: :mod:`mteval_gui.scoring.isolation`):

1. ``prepare(context)`` once: load analyzers/models; raise :class:`MetricUnavailable` when
   a resource is missing (the metric becomes ``unavailable`` with that reason).
2. ``score_entries(items)`` per batch: one :class:`EntryScore` per item, JSON-serialisable,
   holding every sufficient statistic ``aggregate`` needs (results are stored per batch
   and a resumed job aggregates stored results without rescoring).
3. ``aggregate(per_entry, context)`` once: corpus values (:class:`CorpusScore`).

Optional, for confidence intervals, paired tests and breakdowns by difficulty: the
:class:`EntryStatistics` protocol, ``entry_statistics(per_entry) -> {scores_key: EntryStats}``
(:class:`mteval_gui.scoring.stats.EntryStats`: a mean, a ratio of sums…). Statistics are used
only when they reproduce the corpus value. A metric without it gets, for compatibility with
older plugins, statistics by convention: ``"<key>.num"`` / ``"<key>.den"`` in
``EntryScore.values`` make a ratio of sums; the first ``produces`` key is the mean of the
non-null ``EntryScore.value``.

What the run card takes from a corpus result besides its values are typed fields of
:class:`CorpusScore`: ``signature`` (the sacrebleu signature of a key declared with one),
``analyzer`` (the analyzer files, :class:`~mteval_gui.domain.runcard.FstInfo`), ``caveats``
(:class:`~mteval_gui.domain.runcard.Caveat`), ``reasons`` (``{scores_key: why it is null}``)
and ``covered`` (False: the metric's model does not cover the target language). ``extra``
holds anything else worth storing with the result (counts, files, breakdowns); it is kept in
the workspace, never read by the run card. An older plugin that puts ``signature``, ``fst``,
``caveats``, ``covered`` or ``reasons`` in ``extra`` is still understood: those keys fill the
typed fields that are left empty (:meth:`CorpusScore.read_extra`).

When a language card's metric and a built-in produce the same ``scores`` key, the card's
metric supplies the value while its availability is ``ok`` (e.g. a language's linter for
``equivalent_match_rate``). Nothing is found by id: the run card and the interfaces find a
metric by its :attr:`MetricInfo.role` and by the run card's ``score_sources``. The per-entry
``detail["verdict"]`` of the language's metric of role ``equivalence_verdict`` becomes the
run card's ``lint_verdict``, that of the built-in one its ``equivalence_verdict``, that of
the metric supplying ``semantic_score`` its ``semantic_verdict``; the word analyses of the
``fst_analysis`` metric its ``fst_analysis``.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, cast, runtime_checkable

from pydantic import ValidationError

from mteval_gui.domain.card import CARD_PARTS, CardPart, LanguageCard, MetricRef
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.metrics import (
    METRIC_ROLES,
    VALIDATION_LEVELS,
    EntryDisplay,
    MetricDescriptor,
    MetricRole,
    ValidationLevel,
    role_for,
)
from mteval_gui.domain.placeholders import mask as mask_placeholders
from mteval_gui.domain.run import Output
from mteval_gui.domain.runcard import Caveat, FstInfo
from mteval_gui.errors import MtevalError, PluginError
from mteval_gui.scoring.corpus_side import CorpusSide

if TYPE_CHECKING:
    from mteval_gui.scoring.stats import EntryStats

PARAM_FILE = re.compile(r"\{([A-Za-z_]\w*)\}")  # a data_files entry naming a parameter: "{wordlists_dir}"
Availability = Literal["ok", "not_applicable", "unavailable", "failed", "below_coverage"]
AVAILABILITY_VALUES: tuple[str, ...] = ("ok", "not_applicable", "unavailable", "failed", "below_coverage")


class MetricUnavailable(MtevalError):
    """Raised by ``prepare`` when the metric cannot run here (missing analyzer, model, glosses...).

    ``availability`` is ``unavailable`` (resource missing) or ``not_applicable`` (the metric
    does not apply to this corpus, e.g. no references or no terms).
    """

    def __init__(self, reason: str, availability: Availability = "unavailable"):
        self.reason = reason
        self.availability = availability
        super().__init__(reason)


@dataclass(frozen=True)
class MetricInfo:
    """A metric's declaration (see :mod:`mteval_gui.domain.metrics` for roles and validation levels).

    ``role`` says what the interfaces and the run card use the metric for; left at ``other``
    it is inferred from the first key of ``produces``. ``label`` is the short English label
    (default: ``display_name``); ``labels`` the plugin's own translations by interface
    language code (``{"fr": "…"}``), used when the application's translation has none.
    ``decimals`` and ``display`` say how a per-entry value is shown. ``validation`` is how far
    the metric has been validated in general; a language card may override it per language.
    ``single_process``: with two workers the metric is scored by the forked helper only, for
    every batch (for a metric that loads large data on first use: it loads once, and while it
    loads the main process scores the other metrics).
    ``fork_safe=False``: the metric's library keeps threads that a fork breaks (an OpenMP
    engine: a forked process hangs in its first parallel region once the parent has run one).
    Such a metric is scored like a ``single_process`` one, and once this process has scored it
    itself no helper is forked for a job that includes it.
    ``gpu``: the metric runs a neural model that a GPU speeds up (COMET, embeddings); scored on
    a cluster, it goes to workers holding a GPU when the cluster has some
    (:mod:`mteval_gui.scoring.cluster`).

    What a stored per-entry result depends on (it is reused only while all of it is unchanged,
    see :func:`mteval_gui.scoring.batches.config_of`): besides the id, version and params, the
    job's options, files and glossary, ``card_parts`` — the parts of the target and source
    language cards the metric reads (:data:`~mteval_gui.domain.card.CardPart`; ``None``, the
    default: the whole cards; ``()``: none) — and ``data_files`` — files or folders (read
    recursively) the metric reads, relative to the folder of the module that defines it (e.g.
    ``("data",)`` for word lists in a ``data/`` folder beside it), or ``"{param}"``: the file or
    folder a parameter of the metric names, when it is given.
    """

    id: str  # "namespace.name", e.g. "core.chrf"
    version: str
    display_name: str
    scale: str  # "0-1", "0-100", "0-inf", "count"
    higher_is_better: bool = True
    needs_reference: bool = False
    needs_fst: bool = False
    heavy: bool = False  # loads a model; run in the worker only, may be opt-in
    # loads large data on first use (language models): with two workers the forked helper scores
    # it for every batch, so the data loads once, while the main process scores the other metrics
    single_process: bool = False
    # its library's threads do not survive a fork (see the docstring)
    fork_safe: bool = True
    # it runs a neural model that a GPU speeds up: on a cluster it is scored by GPU workers when there are
    gpu: bool = False
    produces: tuple[str, ...] = ()  # run-card ``scores`` keys this metric fills
    description: str = ""
    role: MetricRole = "other"
    label: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    decimals: int = 3
    display: EntryDisplay = "number"
    validation: ValidationLevel = "unvalidated"
    card_parts: tuple[CardPart, ...] | None = None  # the card parts it reads; None: the whole cards
    data_files: tuple[str, ...] = ()  # files/folders it reads, relative to its module's folder

    def __post_init__(self) -> None:
        if self.card_parts is not None:
            object.__setattr__(self, "card_parts", tuple(self.card_parts))
            unknown = [p for p in self.card_parts if p not in CARD_PARTS]
            if unknown:
                raise ValueError(f"metric {self.id}: card_parts {', '.join(map(repr, unknown))} not among "
                                 f"{', '.join(CARD_PARTS)}")
        object.__setattr__(self, "data_files", tuple(self.data_files))
        for rel in self.data_files:
            if PARAM_FILE.fullmatch(rel):
                continue
            parts = PurePosixPath(rel).parts
            if not rel or PurePosixPath(rel).is_absolute() or ".." in parts or "\\" in rel:
                raise ValueError(f"metric {self.id}: data_files entry {rel!r} must be a relative path inside the "
                                 "folder of the metric's module, or a parameter name in braces")
        if self.role not in METRIC_ROLES:
            raise ValueError(f"metric {self.id}: role {self.role!r} is not one of {', '.join(METRIC_ROLES)}")
        if self.validation not in VALIDATION_LEVELS:
            raise ValueError(f"metric {self.id}: validation {self.validation!r} is not one of "
                             f"{', '.join(VALIDATION_LEVELS)}")
        if self.role == "other":
            object.__setattr__(self, "role", role_for(self.produces))
        if not self.label:
            object.__setattr__(self, "label", self.display_name)

    def __hash__(self) -> int:
        return hash((self.id, self.version))

    def validation_for(self, card: LanguageCard | None) -> tuple[ValidationLevel, str | None]:
        """(level, evidence) for the language of ``card``: the card's override, else the declaration."""
        decl = card.validation_of(self.id) if card is not None else None
        if decl is not None:
            return decl.level, decl.evidence
        return self.validation, None

    def descriptor(self, *, card: LanguageCard | None = None, builtin: bool = True) -> MetricDescriptor:
        """The declaration as recorded in the run card and read by the interfaces."""
        level, evidence = self.validation_for(card)
        return MetricDescriptor(
            id=self.id, role=self.role, label=self.label, labels=dict(self.labels), scale=self.scale,
            decimals=self.decimals, display=self.display, higher_is_better=self.higher_is_better,
            produces=list(self.produces), heavy=self.heavy, builtin=builtin, validation=level,
            validation_evidence=evidence)


@dataclass(frozen=True)
class EntryInput:
    """What a metric sees of one entry: the corpus entry and the system output."""

    index: int  # position in the corpus
    entry: Entry
    output: Output

    @property
    def predicted(self) -> str:
        return "" if self.output.error else (self.output.predicted or "")

    @property
    def raw_predicted(self) -> str:
        raw = self.output.raw_predicted
        return self.predicted if raw is None else ("" if self.output.error else raw)


@dataclass
class EntryScore:
    """Per-entry result of one metric.

    ``value`` is the metric's headline per-entry number (shown in the entries table and used
    by filters), ``values`` further named numbers, ``detail`` anything JSON-serialisable the
    reviewer or ``aggregate`` needs (sufficient statistics, analyses, verdict classes).
    """

    value: float | None
    values: dict[str, Any] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "values": self.values, "detail": self.detail}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EntryScore:
        return cls(value=d.get("value"), values=d.get("values") or {}, detail=d.get("detail") or {})


class StoredScore(EntryScore):
    """A per-entry result read back from its stored JSON text (``{"value", "values", "detail"}``,
    :meth:`EntryScore.to_json`): ``value`` is decoded once, ``values`` and ``detail`` each time
    they are read and not kept. A metric's results for every entry of a large run are read
    together (``aggregate``, per-entry statistics); decoded, they would take 1–4 kB an entry,
    their text a tenth of that. A value set (``score.detail = {...}``) is kept as set."""

    def __init__(self, text: str) -> None:  # noqa: D107 - the dataclass fields are properties here
        data = json.loads(text)
        self.__dict__["_text"] = text
        self.__dict__["value"] = data.get("value")

    def _part(self, name: str) -> dict[str, Any]:
        kept = self.__dict__.get("_" + name)
        if kept is not None:
            return kept  # type: ignore[no-any-return]
        part: dict[str, Any] = json.loads(self.__dict__["_text"]).get(name) or {}
        return part

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EntryScore):
            return NotImplemented
        return (self.value, self.values, self.detail) == (other.value, other.values, other.detail)

    __hash__ = None  # type: ignore[assignment]

    @property
    def values(self) -> dict[str, Any]:
        return self._part("values")

    @values.setter
    def values(self, v: dict[str, Any]) -> None:
        self.__dict__["_values"] = v

    @property
    def detail(self) -> dict[str, Any]:
        return self._part("detail")

    @detail.setter
    def detail(self, v: dict[str, Any]) -> None:
        self.__dict__["_detail"] = v


# ``extra`` keys of older plugins that fill a typed field of CorpusScore
LEGACY_EXTRA_KEYS: tuple[str, ...] = ("signature", "fst", "caveats", "covered", "reasons")


@dataclass
class CorpusScore:
    """Corpus result of one metric: run-card ``scores`` keys -> values, plus availability and
    the typed details the run card reads (see the module docstring).

    ``signature``: how the value was computed, recorded in ``sacrebleu_signatures`` for a key
    declared with a signature; ``analyzer``: the analyzer files the metric read (the card's
    ``fst`` block); ``caveats``: shown with the scores (one without a code gets the metric's
    id); ``reasons``: why a key it produces is null; ``covered``: False when the metric's model
    does not cover the target language (a caveat follows), None when unknown; ``extra``:
    anything else to store with the result.
    """

    values: dict[str, Any] = field(default_factory=dict)
    availability: Availability = "ok"
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # stored with the result, not read by the run card
    signature: str | None = None
    analyzer: FstInfo | None = None
    caveats: list[Caveat] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    covered: bool | None = None

    def __post_init__(self) -> None:
        self.read_extra()

    def read_extra(self) -> CorpusScore:
        """Fill the typed fields left empty from the ``extra`` keys an older plugin uses
        (:data:`LEGACY_EXTRA_KEYS`; ``extra`` is kept as it is). Idempotent; returns itself."""
        extra = self.extra
        sig = extra.get("signature")
        if self.signature is None and sig:
            self.signature = str(sig)
        fst = extra.get("fst")
        if self.analyzer is None and isinstance(fst, Mapping):
            self.analyzer = FstInfo(**{k: v for k, v in fst.items() if k in FstInfo.model_fields})
        caveats = extra.get("caveats")
        if not self.caveats and isinstance(caveats, list):
            self.caveats = [_caveat(c) for c in caveats]
        covered = extra.get("covered")
        if self.covered is None and isinstance(covered, bool):
            self.covered = covered
        reasons = extra.get("reasons")
        if not self.reasons and isinstance(reasons, Mapping):
            self.reasons = {str(k): str(v) for k, v in reasons.items() if v is not None}
        return self

    def stored_extra(self) -> dict[str, Any]:
        """``extra`` with the typed details under their ``extra`` names (as stored with the result)."""
        out = dict(self.extra)
        typed: dict[str, Any] = {
            "signature": self.signature, "fst": self.analyzer.model_dump() if self.analyzer else None,
            "caveats": [c.model_dump() for c in self.caveats] or None, "covered": self.covered,
            "reasons": self.reasons or None}
        for key, value in typed.items():
            if value is not None and key not in out:
                out[key] = value
        return out


def _caveat(c: Any) -> Caveat:
    """A caveat of an older plugin's ``extra``: run-card shaped, else its text (without a code)."""
    if isinstance(c, Caveat):
        return c
    try:
        return Caveat.model_validate(c)
    except ValidationError:  # a malformed caveat is shown as text
        return Caveat(code="", message=str(c))


@dataclass
class ScoringContext:
    """Everything a metric may need beyond the entries themselves. Built by the runner."""

    source_lang: str
    target_lang: str
    target_card: LanguageCard | None = None
    source_card: LanguageCard | None = None
    glossary: dict[str, list[str]] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)  # metric-id -> params, plus global options
    options: dict[str, Any] = field(default_factory=dict)  # comet_model, analyzer paths, gloss files, multi_ref...
    shared: dict[str, Any] = field(default_factory=dict)  # per-job cache shared between metrics (e.g. analyzers)
    # reference-side statistics of this corpus version, shared by every run scored on it
    corpus_side: CorpusSide | None = None
    # the corpus's entries in order (``EntryInput.index`` is a position here), for metrics that
    # relate an entry to others whatever the batches (the embedding baseline's derangement)
    entries: Sequence[Entry] = ()
    # placeholders the target card and the corpus declare (see :mod:`mteval_gui.domain.placeholders`)
    placeholders: tuple[str, ...] = ()

    def without_placeholders(self, text: str | None) -> str:
        """``text`` with the declared placeholders blanked out (word checks ignore them)."""
        return mask_placeholders(text, self.placeholders) if self.placeholders else (text or "")

    def metric_params(self, metric_id: str) -> dict[str, Any]:
        return dict(self.params.get(metric_id, {}))


@runtime_checkable
class EntryStatistics(Protocol):
    """A metric that gives its per-entry statistics (confidence intervals, paired tests,
    breakdowns): ``{scores_key: EntryStats}`` from its per-entry results in corpus order.

    The runner calls it when every entry has a result; the statistics of a key are used only
    when they reproduce the key's corpus value.
    """

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> Mapping[str, EntryStats]: ...


def statistics_of(metric: object) -> Callable[[Sequence[EntryScore]], Mapping[str, EntryStats]] | None:
    """The metric's :class:`EntryStatistics` method, or None when it has none (a metric run in a
    process of its own has the attribute set to None when its class has none)."""
    if isinstance(metric, EntryStatistics) and callable(metric.entry_statistics):
        return metric.entry_statistics
    return None


@runtime_checkable
class Metric(Protocol):
    info: ClassVar[MetricInfo]

    def prepare(self, context: ScoringContext) -> None: ...

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]: ...

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore: ...


class BaseMetric:
    """Convenience base: stores the context and params; subclasses override what they need."""

    info: ClassVar[MetricInfo]

    def __init__(self, **params: Any) -> None:
        self.params = params
        self.context: ScoringContext | None = None

    def prepare(self, context: ScoringContext) -> None:
        self.context = context

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:  # pragma: no cover - abstract
        raise PluginError(self.info.id, "score_entries is not implemented")

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        vals = [e.value for e in per_entry if e.value is not None]
        key = self.info.produces[0] if self.info.produces else self.info.id
        if not vals:
            return CorpusScore({key: None}, availability="not_applicable", reason="no entry produced a value")
        return CorpusScore({key: float(sum(vals) / len(vals))})


_PYTHON_NAME = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def check_ref(ref: MetricRef) -> list[str]:
    """Problems with a metric reference, found without importing anything."""
    problems = []
    if not ref.id or "." not in ref.id:
        problems.append(f"metric id {ref.id!r} must look like 'namespace.name'")
    if not _PYTHON_NAME.match(ref.python_name):
        problems.append(f"metric {ref.id}: python_name {ref.python_name!r} must look like 'package.module:ClassName'")
    return problems


def resolve(ref: MetricRef) -> type[Metric]:
    """Import the class a reference names. Raises PluginError naming the metric."""
    problems = check_ref(ref)
    if problems:
        raise PluginError(ref.id, "; ".join(problems))
    module_name, _, cls_name = ref.python_name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import-time failure of a plugin is reported, never raised raw
        raise PluginError(ref.id, f"cannot import {module_name}: {type(exc).__name__}: {exc}") from exc
    except KeyboardInterrupt:
        raise  # the user's Ctrl-C
    except BaseException as exc:  # noqa: BLE001 - SystemExit from a metric module's import ends only the metric
        raise PluginError(ref.id, f"cannot import {module_name}: raised {exc!r}") from exc
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise PluginError(ref.id, f"{module_name} has no attribute {cls_name}")
    info = getattr(cls, "info", None)
    if not isinstance(info, MetricInfo):
        raise PluginError(ref.id, f"{ref.python_name} has no MetricInfo 'info'")
    for method in ("prepare", "score_entries", "aggregate"):
        if not callable(getattr(cls, method, None)):
            raise PluginError(ref.id, f"{ref.python_name} lacks {method}()")
    return cast("type[Metric]", cls)


def module_folder(metric: object) -> str | None:
    """The folder of the module that defines ``metric``'s class, or the class ``metric`` (where its
    ``data_files`` are)."""
    module = sys.modules.get((metric if isinstance(metric, type) else type(metric)).__module__)
    file = getattr(module, "__file__", None)
    return str(Path(file).resolve().parent) if file else None


def instantiate(ref: MetricRef) -> Metric:
    cls = resolve(ref)
    try:
        return cls(**ref.params)
    except Exception as exc:
        raise PluginError(ref.id, f"cannot construct {ref.python_name} with {ref.params}: {exc}") from exc


# Built-in metrics, declared exactly like language plugins. Filled by the scoring modules.
BUILTIN_METRICS: list[MetricRef] = []


def builtin(id: str, python_name: str, **params: Any) -> MetricRef:
    ref = MetricRef(id=id, python_name=python_name, params=params)
    BUILTIN_METRICS.append(ref)
    return ref


def builtin_ids() -> frozenset[str]:
    """Ids of the built-in metrics (nothing is imported but the list of references)."""
    from mteval_gui.scoring import builtins as _  # noqa: F401  (registers BUILTIN_METRICS)

    return frozenset(r.id for r in BUILTIN_METRICS)


def metrics_for(card: LanguageCard | None, *, include: Iterable[str] | None = None,
                exclude: Iterable[str] = ()) -> list[MetricRef]:
    """Built-ins plus the card's ``evalMetrics``, filtered by id (order kept, no duplicates)."""
    from mteval_gui.scoring import builtins as _  # noqa: F401  (registers BUILTIN_METRICS)

    refs: list[MetricRef] = list(BUILTIN_METRICS)
    if card is not None:
        refs.extend(card.eval_metrics)
    wanted = set(include) if include is not None else None
    skip = set(exclude)
    seen: set[str] = set()
    out = []
    for r in refs:
        if r.id in seen or r.id in skip or (wanted is not None and r.id not in wanted):
            continue
        seen.add(r.id)
        out.append(r)
    return out


ProgressCallback = Callable[[Any], None]
