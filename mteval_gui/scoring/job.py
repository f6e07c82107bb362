"""What a scoring job is given (:class:`ScoringRequest`), what it returns (:class:`RunResult`),
and the one intermediate its stages fill in turn (:class:`ScoringJob`).

The stages (:mod:`~mteval_gui.scoring.batches`, :mod:`~mteval_gui.scoring.merge`,
:mod:`~mteval_gui.scoring.assembly`) each take the job and fill their part of it:

1. *batches* — ``states`` (each metric resolved, opened here or in a process of its own, and
   prepared), ``config`` / ``config_hash``, the batches scored and reused, then ``per_entry`` and
   ``corpus_scores`` (aggregated from every stored per-entry result);
2. *merge* — ``scores`` and ``producers`` (precedence of the metrics that produce a key),
   ``entry_stats`` (per-entry statistics checked against the corpus values), ``availability``
   and ``reasons`` by metric id and by key;
3. *assembly* — the :class:`RunResult` (run card and metric rows).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np

from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Corpus, Entry
from mteval_gui.domain.packed import PACK_CHUNK as PACK_CHUNK  # noqa: F401 - re-exported
from mteval_gui.domain.packed import Packed
from mteval_gui.domain.placeholders import declared as declared_placeholders
from mteval_gui.domain.run import Output, Run
from mteval_gui.domain.runcard import RunCard
from mteval_gui.runtime import release_free_memory
from mteval_gui.scoring.corpus_side import content_key, corpus_side
from mteval_gui.scoring.plugins import CorpusScore, EntryInput, EntryScore, Metric, MetricInfo, ScoringContext
from mteval_gui.scoring.sink import MetricRow
from mteval_gui.scoring.stats import DEFAULT_ALPHA, DEFAULT_BOOTSTRAP, DEFAULT_SEED, EntryStats

DEFAULT_BATCH_SIZE = 50
KEEP_DECODED_ENTRIES = 5_000  # runs up to this size keep their decoded per-entry results (PerEntry)
class Items(Sequence["EntryInput"]):
    """The job's :class:`EntryInput` s over packed entries and outputs (see :class:`Packed`),
    made when read: a slice is one batch's."""

    def __init__(self, entries: Sequence[Entry], outputs: Sequence[Output]) -> None:
        self.entries, self.outputs = entries, outputs

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, i: int) -> EntryInput: ...

    @overload
    def __getitem__(self, i: slice) -> list[EntryInput]: ...

    def __getitem__(self, i: int | slice) -> EntryInput | list[EntryInput]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            return [EntryInput(k, e, o) for k, e, o in zip(range(start, stop), self.entries[start:stop],
                                                           self.outputs[start:stop], strict=True)]
        n = len(self)
        k = i + n if i < 0 else i
        if not 0 <= k < n:
            raise IndexError(i)
        return EntryInput(k, self.entries[k], self.outputs[k])

    def __iter__(self) -> Iterator[EntryInput]:
        return (EntryInput(k, e, o) for k, (e, o) in enumerate(zip(self.entries, self.outputs, strict=True)))


def entry_ids(entries: Sequence[Entry] | Sequence[Output]) -> list[str]:
    """The ids of ``entries`` or outputs (kept decoded by a :class:`Packed` sequence)."""
    return list(entries.ids) if isinstance(entries, Packed) else [e.id for e in entries]


def packed_corpus(corpus: Corpus) -> Corpus:
    """``corpus`` with its entries packed (:class:`Packed`; the same corpus when they are)."""
    if isinstance(corpus.entries, Packed):
        return corpus
    return corpus.model_copy(update={"entries": Packed.pack(corpus.entries)})


def packed_run(run: Run) -> Run:
    """``run`` with its outputs packed (:class:`Packed`; the same run when they are)."""
    if isinstance(run.outputs, Packed):
        return run
    return run.model_copy(update={"outputs": Packed.pack(run.outputs)})


@dataclass
class ScoringRequest:
    """Everything needed to score one run. All fields pickle (for a worker process)."""

    run_id: str
    corpus: Corpus
    run: Run
    target_card: LanguageCard | None = None
    source_card: LanguageCard | None = None
    glossary: dict[str, list[str]] = field(default_factory=dict)
    metrics: list[MetricRef] | None = None
    include: list[str] | None = None
    exclude: Sequence[str] = ()
    params: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    batch_size: int = DEFAULT_BATCH_SIZE
    seed: int = DEFAULT_SEED
    n_bootstrap: int = DEFAULT_BOOTSTRAP
    alpha: float = DEFAULT_ALPHA
    card_sha256: str | None = None
    corpus_sha256: str | None = None
    # sha256 of the files the options make metrics read (analyzers found, gloss files) by "role:kind:path",
    # when the caller has hashed them (a workspace run); None: hashed by the job (batches.input_files)
    input_files: dict[str, str | None] | None = None
    speaker_variants: list[dict[str, Any]] = field(default_factory=list)  # variants that came from speakers
    # the target card's calibrated composite profile to use (None: the card's default one, if it names one,
    # else the seed weights and tiers)
    composite_profile: str | None = None
    workers: int = 1  # processes scoring the batches (2: a forked helper takes half; results are the same)
    # a Ray cluster scoring the batches ("local": one started on this machine; else its address); this
    # process still writes every batch (mteval_gui.scoring.cluster). Not part of the configuration.
    cluster: str | None = None
    cluster_workers: int | None = None  # CPU workers on the cluster (None: one per CPU it has)
    # False: ``results[]`` only in the card's JSON form (``RunResult.card_json``), each item's model dropped
    # once dumped (``RunResult.run_card`` has no results): a card written to a file or a workspace
    result_models: bool = True
    # where metrics run (mteval_gui.scoring.isolation): "plugins" — installed plugin packages' metrics in a
    # process of their own, the rest here; "all" — every metric in its own process; "none" — all here
    isolation: Literal["plugins", "all", "none"] = "plugins"


@dataclass
class RunResult:
    run_card: RunCard
    metric_rows: list[MetricRow]
    per_entry: Mapping[str, list[EntryScore | None]]  # metric id -> per entry (corpus order; PerEntry)
    entry_stats: dict[str, EntryStats]  # scores key -> per-entry statistics (bootstrap / paired tests)
    producers: dict[str, str]  # scores key -> metric id that supplied it
    availability: dict[str, str]
    seconds: float = 0.0
    batches_scored: int = 0
    batches_reused: int = 0
    unknown_ids: list[str] = field(default_factory=list)  # output ids absent from the corpus (ignored)
    card_json: dict[str, Any] | None = None  # the card's JSON form as checked when it was built


@dataclass
class MetricState:
    """One metric of the job: its reference, instance, declaration and where it stands."""

    ref: MetricRef
    metric: Metric | None = None
    info: MetricInfo | None = None
    availability: str = "ok"
    reason: str | None = None
    from_card: bool = False
    language: bool = False  # a language standard's metric (declared by the card, or not a built-in)

    @property
    def id(self) -> str:
        return self.ref.id

    @property
    def running(self) -> bool:
        """It is still scored (``ok`` and open)."""
        return self.availability == "ok" and self.metric is not None

    @property
    def usable(self) -> bool:
        """Its results count (``ok``, or reported below coverage)."""
        return self.availability in ("ok", "below_coverage")


def align_outputs(corpus: Corpus, run: Run) -> tuple[Sequence[Output], list[str], list[str]]:
    """Outputs in corpus order; missing ids become empty outputs. Returns (outputs, missing, unknown).

    Packed outputs already in the order of packed entries (a workspace run) are returned as they are."""
    entries, given = corpus.entries, run.outputs
    if isinstance(entries, Packed) and isinstance(given, Packed) and entries.ids == given.ids:
        return given, [o.id for o in given if (o.model_extra or {}).get("missing")], []
    by_id = {o.id: o for o in run.outputs}
    outputs, missing = [], []
    for e in corpus.entries:
        o = by_id.get(e.id)
        if o is None or (o.model_extra or {}).get("missing"):
            missing.append(e.id)
            o = o if o is not None else Output(id=e.id, predicted="", error=None)
        outputs.append(o)
    known = {e.id for e in corpus.entries}
    unknown = [o.id for o in run.outputs if o.id not in known]
    return outputs, missing, unknown


class PerEntry(Mapping[str, list[EntryScore | None]]):
    """Each metric's per-entry results in corpus order, by metric id (``job.per_entry``).

    A run of up to :data:`KEEP_DECODED_ENTRIES` entries keeps the lists it is given. A larger
    one keeps only their metric ids and reads a metric's results again from the sink
    (``load(metric_id)``) each time its list is asked for, without keeping it: the decoded
    results of every metric and entry take ≈ 15 kB per entry (3 GB at 200,000 entries), while
    the stages need one metric's at a time."""

    def __init__(self, n: int, load: Callable[[str], list[EntryScore | None]] | None = None) -> None:
        self._load = load
        self._keep = load is None or n <= KEEP_DECODED_ENTRIES
        self._ids: dict[str, None] = {}
        self._kept: dict[str, list[EntryScore | None]] = {}

    @property
    def kept(self) -> bool:
        """Whether the lists are kept in memory (else read from the sink when asked for)."""
        return self._keep

    def __setitem__(self, metric_id: str, results: list[EntryScore | None]) -> None:
        self._ids[metric_id] = None
        if self._keep:
            self._kept[metric_id] = results

    def __getitem__(self, metric_id: str) -> list[EntryScore | None]:
        if metric_id not in self._ids:
            raise KeyError(metric_id)
        if self._keep or self._load is None:
            return self._kept[metric_id]
        # the list read before was dropped by its reader: its pages go back to the system before this one is
        # read (freed but kept by the C library, they would add up to a few metrics' lists over the stages)
        release_free_memory()
        return self._load(metric_id)

    def __contains__(self, metric_id: object) -> bool:  # without reading the metric's results
        return metric_id in self._ids

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._ids))

    def __len__(self) -> int:
        return len(self._ids)


@dataclass
class ScoringJob:
    """The intermediate the stages pass on (see the module docstring)."""

    request: ScoringRequest
    items: Sequence[EntryInput]
    outputs: Sequence[Output]
    missing: list[str]
    unknown: list[str]
    context: ScoringContext
    # batches
    states: list[MetricState] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    config_hash: str = ""
    batches_scored: int = 0
    batches_reused: int = 0
    per_entry: Mapping[str, list[EntryScore | None]] = field(default_factory=dict)
    corpus_scores: dict[str, CorpusScore] = field(default_factory=dict)
    # merge
    scores: dict[str, Any] = field(default_factory=dict)
    producers: dict[str, str] = field(default_factory=dict)
    entry_stats: dict[str, EntryStats] = field(default_factory=dict)
    availability: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls, request: ScoringRequest) -> ScoringJob:
        """The job of a request: outputs aligned with the corpus, the context metrics read (with the
        reference-side statistics of this corpus version, shared by the runs scored on it)."""
        corpus = request.corpus
        outputs, missing, unknown = align_outputs(corpus, request.run)
        items: Sequence[EntryInput]
        if isinstance(corpus.entries, Packed):  # made batch by batch when read
            items = Items(corpus.entries, outputs if isinstance(outputs, Packed) else Packed.pack(outputs))
        else:
            items = [EntryInput(i, e, o) for i, (e, o) in enumerate(zip(corpus.entries, outputs, strict=True))]
        context = ScoringContext(
            source_lang=corpus.language_pair.source, target_lang=corpus.language_pair.target,
            target_card=request.target_card, source_card=request.source_card, glossary=dict(request.glossary),
            params=dict(request.params), options=dict(request.options), shared={},
            corpus_side=corpus_side(corpus.corpus_id, request.corpus_sha256 or content_key(corpus.entries)),
            entries=corpus.entries,
            placeholders=declared_placeholders(
                request.target_card.placeholders if request.target_card is not None else (), corpus.metadata),
        )
        return cls(request, items, outputs, missing, unknown, context)

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def entry_ids(self) -> list[str]:
        if isinstance(self.items, Items):
            return entry_ids(self.items.entries)
        return [it.entry.id for it in self.items]

    def state(self, metric_id: str) -> MetricState | None:
        return next((s for s in self.states if s.ref.id == metric_id), None)


# --------------------------------------------------------------------------- JSON and numbers


def json_safe(value: Any) -> Any:
    """JSON-compatible copy; NaN/inf become None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (np.floating,)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if hasattr(value, "model_dump"):
        return json_safe(value.model_dump(mode="json"))
    return str(value)


def portable(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``data`` when it is already strict JSON (the usual case, checked in C), else a safe copy,
    with its compact JSON text (what a sink stores: it need not encode the row again)."""
    try:
        return data, json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        safe: dict[str, Any] = json_safe(data)
        return safe, json.dumps(safe, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def is_number(v: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v))


def bad_number(v: Any) -> bool:
    """A float that is NaN or infinite."""
    return isinstance(v, (float, np.floating)) and not math.isfinite(float(v))
