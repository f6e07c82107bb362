"""Scoring one run: ``score_run(request, *, on_progress, cancel, sink) -> RunResult`` (DESIGN §4).

Plain Python, no Qt, no store: the GUI adapts it to signals, the CLI passes a text
progress bar, a worker process can call it as it is (every argument pickles).

The job:

1. *prepare* — resolve and instantiate each metric, call ``prepare(context)``. A
   :class:`MetricUnavailable` makes the metric ``unavailable``/``not_applicable`` with its
   reason; any other exception makes it ``failed``. Heavy metrics (COMET, embeddings) run
   only when asked for (``include``/``metrics``, or ``options["heavy"] = True``).
2. *score* — entries in batches of ``batch_size``; every batch is one commit through the
   sink (:class:`ResultSink`). Between batches the cancel token is checked
   (:class:`~mteval_gui.errors.Cancelled`). The configuration hash (metrics, versions, params, options,
   batch size, corpus and run) identifies reusable batches: a rerun after a crash or a
   cancel skips the batches already committed, except for the metrics whose results they
   lack (a metric that failed in an earlier attempt is scored again). A metric that raises,
   exits, times out or gives a value that is not a finite number (NaN, inf) is ``failed`` with
   its reason; the others go on. A metric of an installed plugin package runs in a process of
   its own (:mod:`~mteval_gui.scoring.isolation`), always scored by this process (a forked
   helper scores only the metrics that live here).
3. *aggregate* — each metric's corpus values from all stored per-entry results.
   When several metrics produce the same ``scores`` key, a metric declared by the language
   card (``evalMetrics``, e.g. a language's linter for ``equivalent_match_rate``) wins over a
   built-in as long as its availability is ``ok``; otherwise the first built-in that has a
   value. The other producers' values stay in the metric rows.
4. *statistics* — composite and tier, cost and speed, caveats, bootstrap intervals
   (chrF++, BLEU, exact match, FST acceptance, COMET, composite; per difficulty tier) and
   breakdowns by difficulty and provenance, all from per-entry sufficient statistics.
5. *run card* — assembled, validated and handed to ``sink.write_run``. Per-entry columns
   (verdicts, word analyses, chrF++…) are taken from the metric of the right *role*
   (:attr:`MetricInfo.role`), preferring the one that supplied the key (``score_sources``);
   the card records each metric's declaration (``metric_info``), its validation level for
   the language (``metric_validation``) and whether the composite is an engineering
   estimate (``composite_validation``).

Progress is a :class:`Progress` (done, total, stage, message), throttled to a few updates
per second (stage changes and the last update always pass).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from mteval_gui import __version__
from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Corpus, Entry
from mteval_gui.domain.details import Verdict, WordAnalysis
from mteval_gui.domain.run import Output, Run
from mteval_gui.domain.runcard import (
    CI,
    Caveat,
    CompositeValidation,
    DatasetInfo,
    EntryResult,
    Fingerprint,
    FstInfo,
    HumanReview,
    RunCard,
    Scores,
    Totals,
)
from mteval_gui.errors import Cancelled, MtevalError, PluginError
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring import costspeed, parallel
from mteval_gui.scoring.corpus_side import content_key, corpus_side
from mteval_gui.scoring.isolation import (
    CONTAINED,
    DEFAULT_TIME_LIMIT_S,
    MetricFailed,
    ProcessMetric,
    close_all,
    failure_reason,
    isolated_by_default,
    open_metric,
)
from mteval_gui.scoring.plugins import (
    CorpusScore,
    EntryInput,
    EntryScore,
    Metric,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
    builtin_ids,
    metrics_for,
)
from mteval_gui.scoring.runcard import AVAILABILITY_KEYS, LYSS_SCORE_KEYS, add_seed_aliases, ensure_valid, fingerprint
from mteval_gui.scoring.stats import (
    DEFAULT_ALPHA,
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    EntryStats,
    Quantity,
    bootstrap_ci,
    by_group_ci,
)
from mteval_gui.text import NORMALISATION_POLICY

DEFAULT_BATCH_SIZE = 50
PROGRESS_INTERVAL = 0.1  # seconds between two forwarded progress updates of the same stage
CI_KEYS: tuple[str, ...] = ("chrf_plus_plus", "bleu", "exact_match_rate", "fst_acceptance_rate", "comet_score")
TIER_CI_KEYS: tuple[str, ...] = ("chrf_plus_plus", "exact_match_rate")
RESULTS_SCHEMA_SAMPLE = 50  # results[] items checked against the JSON Schema when a card is built (all by pydantic)
BREAKDOWN_KEYS: tuple[str, ...] = ("exact_match_rate", "equivalent_match_rate", "chrf_plus_plus", "bleu",
                                   "fst_acceptance_rate", "semantic_score", "comet_score", "code_switching_rate",
                                   "hallucination_rate")


# --------------------------------------------------------------------------- progress and cancel


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    stage: str
    message: str = ""

    @property
    def fraction(self) -> float:
        return (self.done / self.total) if self.total else 0.0


class CancelToken:
    """Cooperative cancellation: wraps a ``threading.Event`` (or a ``multiprocessing`` Event)."""

    def __init__(self, event: Any | None = None) -> None:
        self._event = event if event is not None else threading.Event()

    @property
    def event(self) -> Any:
        return self._event

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return bool(self._event.is_set())

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled("scoring cancelled; committed batches are kept and a rerun resumes")


class _Throttle:
    def __init__(self, callback: Callable[[Progress], None] | None, interval: float = PROGRESS_INTERVAL) -> None:
        self.callback = callback
        self.interval = interval
        self._last_time = 0.0
        self._last_stage: str | None = None

    def __call__(self, p: Progress, *, force: bool = False) -> None:
        if self.callback is None:
            return
        now = time.monotonic()
        if force or p.stage != self._last_stage or p.done >= p.total or now - self._last_time >= self.interval:
            self._last_time = now
            self._last_stage = p.stage
            self.callback(p)


# --------------------------------------------------------------------------- sink


@dataclass(frozen=True)
class EntryRow:
    """One stored per-entry result (``entry_metrics`` row)."""

    entry_id: str
    metric_id: str
    value: float | None
    data: dict[str, Any]
    text: str | None = None  # ``data`` as compact JSON, when the runner has encoded it already


@dataclass
class MetricRow:
    """One stored corpus result (``run_metrics`` row)."""

    metric_id: str
    availability: str
    reason: str | None
    values: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class ResultSink(Protocol):
    """Where a job's results go. The store implements it (``mteval_gui.store.results``)."""

    def begin_job(self, run_id: str, config: dict[str, Any], config_hash: str, batch_size: int,
                  n_batches: int) -> set[int]:
        """Register the job; drop results of another configuration; return committed batch indexes."""
        ...

    def done_batches(self, run_id: str, config_hash: str) -> set[int]: ...

    def write_batch(self, run_id: str, batch_index: int, config_hash: str, rows: Sequence[EntryRow]) -> None:
        """Store one batch's rows and mark the batch done, atomically."""
        ...

    def load_entry_scores(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        """``{metric_id: {entry_id: EntryScore JSON}}`` of everything stored for the run."""
        ...

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[MetricRow]) -> None: ...

    def mark_job(self, run_id: str, state: str) -> None: ...


class MemorySink:
    """A sink that keeps everything in memory (one-shot ``mteval evaluate``, tests)."""

    def __init__(self) -> None:
        self.jobs: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[int, str]] = {}
        self.rows: dict[str, dict[tuple[str, str], EntryRow]] = {}
        self.cards: dict[str, dict[str, Any]] = {}
        self.metric_rows: dict[str, list[MetricRow]] = {}
        self.states: dict[str, str] = {}

    def begin_job(self, run_id: str, config: dict[str, Any], config_hash: str, batch_size: int,
                  n_batches: int) -> set[int]:
        old = self.jobs.get(run_id)
        if old is None or old["config_hash"] != config_hash:
            self.batches[run_id] = {}
            self.rows[run_id] = {}
        self.jobs[run_id] = {"config": config, "config_hash": config_hash, "batch_size": batch_size,
                             "n_batches": n_batches}
        self.states[run_id] = "running"
        return self.done_batches(run_id, config_hash)

    def done_batches(self, run_id: str, config_hash: str) -> set[int]:
        return {b for b, h in self.batches.get(run_id, {}).items() if h == config_hash}

    def write_batch(self, run_id: str, batch_index: int, config_hash: str, rows: Sequence[EntryRow]) -> None:
        store = self.rows.setdefault(run_id, {})
        for r in rows:
            store[(r.metric_id, r.entry_id)] = r
        self.batches.setdefault(run_id, {})[batch_index] = config_hash

    def load_entry_scores(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        wanted = set(metric_ids)
        out: dict[str, dict[str, dict[str, Any]]] = {m: {} for m in wanted}
        for (mid, eid), r in self.rows.get(run_id, {}).items():
            if mid in wanted:
                out[mid][eid] = r.data
        return out

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[MetricRow]) -> None:
        self.cards[run_id] = run_card
        self.metric_rows[run_id] = list(metric_rows)

    def mark_job(self, run_id: str, state: str) -> None:
        self.states[run_id] = state


# --------------------------------------------------------------------------- request and result


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
    human_review: HumanReview | None = None
    speaker_variants: list[dict[str, Any]] = field(default_factory=list)  # variants that came from speakers
    workers: int = 1  # processes scoring the batches (2: a forked helper takes half; results are the same)
    # where metrics run (mteval_gui.scoring.isolation): "plugins" — installed plugin packages' metrics in a
    # process of their own, the rest here; "all" — every metric in its own process; "none" — all here
    isolation: Literal["plugins", "all", "none"] = "plugins"


@dataclass
class RunResult:
    run_card: RunCard
    metric_rows: list[MetricRow]
    per_entry: dict[str, list[EntryScore | None]]  # metric id -> per entry (corpus order)
    entry_stats: dict[str, EntryStats]  # scores key -> per-entry statistics (bootstrap / paired tests)
    producers: dict[str, str]  # scores key -> metric id that supplied it
    availability: dict[str, str]
    seconds: float = 0.0
    batches_scored: int = 0
    batches_reused: int = 0
    unknown_ids: list[str] = field(default_factory=list)  # output ids absent from the corpus (ignored)


@dataclass
class _MetricState:
    ref: MetricRef
    metric: Metric | None = None
    info: MetricInfo | None = None
    availability: str = "ok"
    reason: str | None = None
    from_card: bool = False
    language: bool = False  # a language standard's metric (declared by the card, or not a built-in)


# --------------------------------------------------------------------------- helpers


def align_outputs(corpus: Corpus, run: Run) -> tuple[list[Output], list[str], list[str]]:
    """Outputs in corpus order; missing ids become empty outputs. Returns (outputs, missing, unknown)."""
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


def _json_safe(value: Any) -> Any:
    """JSON-compatible copy; NaN/inf become None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (np.floating,)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    if hasattr(value, "model_dump"):
        return _json_safe(value.model_dump(mode="json"))
    return str(value)


def _portable(data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``data`` when it is already strict JSON (the usual case, checked in C), else a safe copy,
    with its compact JSON text (what a sink stores: it need not encode the row again)."""
    try:
        return data, json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        safe = _json_safe(data)
        return safe, json.dumps(safe, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def config_of(request: ScoringRequest, states: Sequence[_MetricState]) -> tuple[dict[str, Any], str]:
    active = [s for s in states if s.availability == "ok"]
    options = {k: v for k, v in request.options.items() if k not in ("fst_cache",) and not callable(v)}
    config = {
        "metrics": [{"id": s.ref.id, "python_name": s.ref.python_name, "params": s.ref.params,
                     "version": s.info.version if s.info else None} for s in active],
        "params": request.params,
        "options": options,
        "glossary": request.glossary,
        "batch_size": request.batch_size,
        "entries": [e.id for e in request.corpus.entries],
        "corpus_sha256": request.corpus_sha256,
        "run_sha256": request.run.content_sha256,
        "normalisation": NORMALISATION_POLICY,
    }
    config = _json_safe(config)
    blob = json.dumps(config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return config, hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(float(v))


def default_entry_statistics(info: MetricInfo, per_entry: Sequence[EntryScore | None]) -> dict[str, EntryStats]:
    """Statistics by convention: ``"<key>.num"/"<key>.den"`` in ``values`` → ratio of sums;
    the metric's first ``produces`` key → mean of non-null ``value``."""
    out: dict[str, EntryStats] = {}
    entries = [e if e is not None else EntryScore(None) for e in per_entry]
    for key in info.produces:
        if any(f"{key}.num" in e.values for e in entries):
            out[key] = EntryStats.ratio([float(e.values.get(f"{key}.num", 0) or 0) for e in entries],
                                        [float(e.values.get(f"{key}.den", 0) or 0) for e in entries])
    if info.produces and info.produces[0] not in out:
        out[info.produces[0]] = EntryStats.mean([e.value for e in entries])
    return out


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# --------------------------------------------------------------------------- the job


def _isolated(request: ScoringRequest, ref: MetricRef) -> bool:
    return request.isolation == "all" or (request.isolation == "plugins" and isolated_by_default(ref))


def _fail(st: _MetricState, reason: str) -> None:
    """Mark a metric ``failed`` with ``reason``; its process, if it has one, is ended."""
    st.availability, st.reason = "failed", reason
    close_all([st.metric])


def _resolve_metrics(request: ScoringRequest, cancelled: Callable[[], bool] | None = None) -> list[_MetricState]:
    """The job's metrics (the caller closes them: :func:`~mteval_gui.scoring.isolation.close_all`)."""
    card = request.target_card
    card_ids = {r.id for r in card.eval_metrics} if card is not None else set()
    if request.metrics is not None:
        refs = list(request.metrics)
        if request.include is not None:
            wanted = set(request.include)
            refs = [r for r in refs if r.id in wanted]
        refs = [r for r in refs if r.id not in set(request.exclude)]
    else:
        refs = metrics_for(card, include=request.include, exclude=request.exclude)
    if request.include is not None:
        known = {r.id for r in (request.metrics if request.metrics is not None else metrics_for(card))}
        unknown = [m for m in request.include if m not in known]
        if unknown:
            raise MtevalError(f"unknown metric id(s) {', '.join(unknown)}; available here: {', '.join(sorted(known))}")
    explicit = set(request.include or ())
    builtins = builtin_ids()
    states = []
    for ref in refs:
        st = _MetricState(ref=ref, from_card=ref.id in card_ids,
                          language=ref.id in card_ids or ref.id not in builtins)
        try:
            st.metric = open_metric(ref, isolated=_isolated(request, ref), cancelled=cancelled,
                                    time_limit=ref.time_limit_s or DEFAULT_TIME_LIMIT_S)
            st.info = st.metric.info
        except PluginError as exc:
            st.availability, st.reason = "failed", str(exc)
        if st.info is not None and st.info.heavy and ref.id not in explicit and not request.options.get("heavy"):
            st.availability = "unavailable"
            st.reason = f"{ref.id} loads a model and runs only when asked for (--heavy, or --metrics {ref.id})"
            close_all([st.metric])
            st.metric = None
        states.append(st)
    return states


def _prepare(states: Sequence[_MetricState], context: ScoringContext, report: _Throttle) -> None:
    total = len(states)
    for i, st in enumerate(states):
        report(Progress(i, total, "preparing", st.ref.id))
        if st.metric is None or st.availability != "ok":
            continue
        try:
            st.metric.prepare(context)
        except MetricUnavailable as exc:
            st.availability, st.reason = exc.availability, exc.reason
            close_all([st.metric])
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            _fail(st, f"prepare: {failure_reason(exc)}")
    report(Progress(total, total, "preparing", "metrics ready"), force=True)


def _score_batch(states: Sequence[_MetricState], batch: Sequence[EntryInput],
                 b: int) -> tuple[list[EntryRow], list[tuple[str, str]]]:
    """Rows of one batch from every metric still ok, and the (metric id, reason) of those that
    failed on it (marked failed here; their rows of this batch are dropped)."""
    rows: list[EntryRow] = []
    failures: list[tuple[str, str]] = []
    for st in states:
        if st.availability != "ok" or st.metric is None:
            continue
        try:
            results = st.metric.score_entries(batch)
            if len(results) != len(batch):
                raise PluginError(st.ref.id, f"returned {len(results)} results for {len(batch)} entries")
            for it, r in zip(batch, results, strict=True):
                bad = _non_finite(r)
                if bad is not None:
                    raise MetricFailed(f"entry {it.entry.id}: {bad} is not a finite number")
                data, text = _portable(r.to_json())
                value = r.value if r.value is None or _is_number(r.value) else None
                rows.append(EntryRow(it.entry.id, st.ref.id, None if value is None else float(value), data, text))
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            reason = f"score_entries (batch {b}): {failure_reason(exc)}"
            _fail(st, reason)
            failures.append((st.ref.id, reason))
            rows = [r for r in rows if r.metric_id != st.ref.id]
    return rows, failures


def _non_finite(score: EntryScore) -> str | None:
    """What of a per-entry result is a number but not a finite one (None when all are finite)."""
    if _bad_number(score.value):
        return f"value {score.value}"
    return next((f"values[{k!r}] {v}" for k, v in score.values.items() if _bad_number(v)), None)


def _bad_number(v: Any) -> bool:
    return isinstance(v, (float, np.floating)) and not math.isfinite(float(v))


def _lacking(request: ScoringRequest, states: Sequence[_MetricState], items: Sequence[EntryInput], sink: ResultSink,
             done: set[int], bs: int) -> dict[int, list[_MetricState]]:
    """For each committed batch, the running metrics without a result for one of its entries
    (they failed in an earlier attempt): they are scored again."""
    running = [st for st in states if st.availability == "ok" and st.metric is not None]
    if not done or not running:
        return {}
    stored = sink.load_entry_scores(request.run_id, [st.ref.id for st in running])
    out: dict[int, list[_MetricState]] = {}
    for b in sorted(done):
        ids = [it.entry.id for it in items[b * bs:(b + 1) * bs]]
        lacking = [st for st in running if any(i not in stored.get(st.ref.id, {}) for i in ids)]
        if lacking:
            out[b] = lacking
    return out


def _score_batches(request: ScoringRequest, states: Sequence[_MetricState], items: Sequence[EntryInput],
                   sink: ResultSink, config: dict[str, Any], config_hash: str, cancel: CancelToken,
                   report: _Throttle) -> tuple[int, int]:
    n = len(items)
    bs = max(1, int(request.batch_size))
    n_batches = max(1, math.ceil(n / bs)) if n else 0
    done = {b for b in sink.begin_job(request.run_id, config, config_hash, bs, n_batches) if b < n_batches}
    retry = _lacking(request, states, items, sink, done, bs)
    done -= set(retry)
    done_entries = sum(len(items[b * bs:(b + 1) * bs]) for b in done)
    message = f"{len(done)} of {n_batches} batches already stored"
    if retry:
        message += f"; {len(retry)} scored again for the metrics they lack"
    report(Progress(done_entries, n, "scoring", message), force=True)
    todo = [b for b in range(n_batches) if b not in done and b not in retry]
    mine, theirs = parallel.split(todo, request.workers)
    # a metric in a process of its own is scored here only: a forked helper must not use its pipe
    here = [st for st in states if isinstance(st.metric, ProcessMetric)]
    forkable = [st for st in states if not isinstance(st.metric, ProcessMetric)]
    helper: parallel.BatchHelper | None = None
    by_id = {st.ref.id: st for st in states}
    scored = 0

    def commit(b: int, rows: Sequence[EntryRow]) -> None:
        nonlocal scored, done_entries
        sink.write_batch(request.run_id, b, config_hash, rows)
        scored += 1
        done_entries += len(items[b * bs:(b + 1) * bs])
        report(Progress(done_entries, n, "scoring", f"batch {b + 1} of {n_batches}"))

    lost: list[int] = []  # batches of a helper that died (killed, out of memory): scored here

    def from_helper(wait: bool) -> None:
        assert helper is not None
        try:
            for b, rows, failures in helper.outcomes(wait=wait):
                for mid, reason in failures:
                    st = by_id[mid]
                    if st.availability == "ok":
                        st.availability, st.reason = "failed", reason
                rows.extend(_score_batch(here, items[b * bs:(b + 1) * bs], b)[0])
                failed = {mid for mid, st in by_id.items() if st.availability != "ok"}
                commit(b, [r for r in rows if r.metric_id not in failed])
        except RuntimeError:
            lost.extend(sorted(helper.pending))
            helper.finished = True

    def score_here(batches: Sequence[int]) -> None:
        for b in batches:
            cancel.raise_if_cancelled()
            rows, _failures = _score_batch(retry.get(b, states), items[b * bs:(b + 1) * bs], b)
            commit(b, rows)
            if helper is not None and not helper.finished:
                from_helper(wait=False)

    try:
        if theirs:
            # the first batch loads what metrics load on first use (compiled kernels, sacrebleu
            # internals, caches), then the helper is forked and inherits it
            score_here(mine[:1])
            helper = parallel.BatchHelper(theirs, lambda b: _score_batch(forkable, items[b * bs:(b + 1) * bs], b))
            score_here(mine[1:])
        else:
            score_here(mine)
        while helper is not None and not helper.finished:
            cancel.raise_if_cancelled()
            from_helper(wait=True)
        score_here(lost)
        score_here(sorted(retry))
    finally:
        if helper is not None:
            helper.close()
    return scored, len(done)


def score_run(request: ScoringRequest, *, on_progress: Callable[[Progress], None] | None = None,
              cancel: CancelToken | None = None, sink: ResultSink | None = None) -> RunResult:
    """Score one run; see the module docstring. Raises :class:`~mteval_gui.errors.Cancelled` when cancelled."""
    t0 = time.perf_counter()
    cancel = cancel or CancelToken()
    sink = sink if sink is not None else MemorySink()
    report = _Throttle(on_progress)
    corpus, run = request.corpus, request.run
    outputs, missing, unknown = align_outputs(corpus, run)
    items = [EntryInput(i, e, o) for i, (e, o) in enumerate(zip(corpus.entries, outputs, strict=True))]
    context = ScoringContext(
        source_lang=corpus.language_pair.source, target_lang=corpus.language_pair.target,
        target_card=request.target_card, source_card=request.source_card, glossary=dict(request.glossary),
        params=dict(request.params), options=dict(request.options), shared={},
        corpus_side=corpus_side(corpus.corpus_id, request.corpus_sha256 or content_key(corpus.entries)),
    )
    cancel.raise_if_cancelled()
    states = _resolve_metrics(request, cancelled=lambda: cancel.cancelled)
    try:
        _prepare(states, context, report)
        cancel.raise_if_cancelled()
        config, config_hash = config_of(request, states)
        try:
            scored, reused = _score_batches(request, states, items, sink, config, config_hash, cancel, report)
        except Cancelled:
            sink.mark_job(request.run_id, "cancelled")
            raise
        report(Progress(0, 1, "aggregating", "corpus values"), force=True)
        result = _finish(request, states, items, outputs, missing, unknown, context, sink, config_hash, report)
    finally:
        close_all(st.metric for st in states)
    result.seconds = time.perf_counter() - t0
    result.batches_scored, result.batches_reused = scored, reused
    sink.write_run(request.run_id, result.run_card.model_dump(mode="json"), result.metric_rows)
    sink.mark_job(request.run_id, "done")
    report(Progress(1, 1, "done", "run card written"), force=True)
    return result


def _finish(request: ScoringRequest, states: Sequence[_MetricState], items: Sequence[EntryInput],
            outputs: Sequence[Output], missing: Sequence[str], unknown: Sequence[str], context: ScoringContext,
            sink: ResultSink, config_hash: str, report: _Throttle) -> RunResult:
    ids = [it.entry.id for it in items]
    n = len(ids)
    active_ids = [s.ref.id for s in states if s.availability == "ok"]
    stored = sink.load_entry_scores(request.run_id, active_ids) if active_ids else {}
    per_entry: dict[str, list[EntryScore | None]] = {}
    corpus_scores: dict[str, CorpusScore] = {}
    for st in states:
        mid = st.ref.id
        if st.availability != "ok" or st.metric is None:
            continue
        rows = stored.get(mid, {})
        lst = [EntryScore.from_json(rows[i]) if i in rows else None for i in ids]
        per_entry[mid] = lst
        if any(x is None for x in lst):
            st.availability = "failed"
            st.reason = (f"results for {sum(x is None for x in lst)} entries are missing "
                         f"(the metric failed in an earlier attempt); rescore the run")
            continue
        try:
            cs = st.metric.aggregate(lst, context)  # type: ignore[arg-type]
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            _fail(st, f"aggregate: {failure_reason(exc)}")
            continue
        bad = next((k for k, v in cs.values.items() if _bad_number(v)), None)
        if bad is not None:
            _fail(st, f"aggregate: {bad} is {cs.values[bad]}, not a finite number")
            continue
        corpus_scores[mid] = cs
        st.availability, st.reason = cs.availability, cs.reason

    # ---- merge scores with precedence (card metrics first when ok, then built-ins in order)
    order = sorted(states, key=lambda s: (0 if s.from_card else 1))
    scores: dict[str, Any] = {}
    producers: dict[str, str] = {}
    for st in order:
        found = corpus_scores.get(st.ref.id)
        if found is None or st.availability not in ("ok", "below_coverage"):
            continue
        for key, v in found.values.items():
            if key in producers:
                continue
            if v is None:
                continue
            scores[key] = _json_safe(v)
            producers[key] = st.ref.id

    # ---- per-entry statistics of produced keys (checked against the corpus value)
    entry_stats: dict[str, EntryStats] = {}
    for key, mid in producers.items():
        st = next(s for s in states if s.ref.id == mid)
        scored = per_entry.get(mid)
        if scored is None or st.metric is None or not _is_number(scores.get(key)):
            continue
        try:
            fn = getattr(st.metric, "entry_statistics", None)
            cands = fn(scored) if callable(fn) else default_entry_statistics(st.metric.info, scored)
        except Exception:  # noqa: BLE001 - statistics are optional: no CI for this key
            continue
        s = cands.get(key)
        if s is not None and s.n == n and _close(s.point(), float(scores[key])):
            entry_stats[key] = s

    # ---- availability by metric id and by scores key
    availability: dict[str, str] = {}
    reasons: dict[str, str] = {}
    for st in states:
        availability[st.ref.id] = st.availability
        if st.reason:
            reasons[st.ref.id] = st.reason
    for key in AVAILABILITY_KEYS:
        if key in producers:
            mid = producers[key]
            availability[key] = availability[mid]
            if mid in reasons:
                reasons[key] = reasons[mid]
            continue
        makers = sorted((s for s in states if s.info is not None and key in s.info.produces),
                        key=lambda s: (0 if s.from_card else 1))  # the language's own metric explains best
        if makers:
            first = makers[0]
            availability[key] = first.availability if first.availability != "ok" else "not_applicable"
            first_cs = corpus_scores.get(first.ref.id)
            own = (first_cs.extra.get("reasons") or {}).get(key) if first_cs is not None else None
            reasons[key] = own or first.reason or f"{first.ref.id} produced no value"
        else:
            availability[key] = "unavailable"
            reasons[key] = ("no metric of this scoring job produces it"
                            + (f" (excluded: {', '.join(sorted(request.exclude))})" if request.exclude else ""))
    # morphological accuracy below coverage: reported, not counted
    if scores.get("morphological_accuracy") is not None:
        cov = scores.get("morph_coverage")
        if cov is None or float(cov) < comp.MORPH_MIN_COVERAGE:
            availability["morphological_accuracy"] = "below_coverage"
            reasons.setdefault("morphological_accuracy",
                               f"morph_coverage {cov} < {comp.MORPH_MIN_COVERAGE}: reported, not in the composite")

    report(Progress(0, 1, "statistics", "composite and intervals"), force=True)
    return _build(request, states, items, outputs, missing, unknown, per_entry, corpus_scores, scores,
                  producers, entry_stats, availability, reasons, config_hash)


def _composite_quantity(profile: str, used: Mapping[str, float], entry_stats: Mapping[str, EntryStats],
                        n: int) -> Quantity | None:
    if not used or n == 0:
        return None
    components: dict[str, EntryStats] = {}
    for key, value in used.items():
        s = entry_stats.get(key)
        components[key] = s if s is not None else EntryStats.mean([value] * n)

    def combine(vals: dict[str, NDArray[Any]]) -> NDArray[Any]:
        return comp.composite_vectorised(vals, profile)

    return Quantity(components, combine)


def _groups_breakdown(labels: Sequence[str | int | None], entry_stats: Mapping[str, EntryStats],
                      composite_q: Quantity | None) -> dict[str, dict[str, Any]]:
    arr = np.array(["" if g is None else str(g) for g in labels], dtype=object)
    out: dict[str, dict[str, Any]] = {}
    for label in sorted({str(g) for g in labels if g is not None}, key=lambda s: (not s.isdigit(), s.zfill(8))):
        mask = arr == label
        row: dict[str, Any] = {"entries": int(mask.sum())}
        for key in BREAKDOWN_KEYS:
            s = entry_stats.get(key)
            if s is not None:
                sub = s.subset(mask)
                row[key] = sub.point() if sub.entries_scored() else None
        if composite_q is not None:
            v = composite_q.subset(mask).point()
            row["composite"] = None if v is None else round(v, comp.ROUND_PLACES)
        out[label] = row
    return out


def _composite_validation(used: Mapping[str, float], levels: Mapping[str, str],
                          language: str) -> CompositeValidation | None:
    """Whether the composite is an engineering estimate: unless every input it counts is
    validated ``external`` for the language, it is."""
    if not used:
        return None
    inputs: dict[str, Any] = {key: levels.get(key, "unvalidated") for key in used}
    weak = {k: v for k, v in inputs.items() if v != "external"}
    if not weak:
        return CompositeValidation(engineering_estimate=False, inputs=inputs,
                                   message=f"every input is validated against human judgments for {language}")
    listed = ", ".join(f"{k} ({v})" for k, v in weak.items())
    return CompositeValidation(
        engineering_estimate=True, inputs=inputs,
        message=f"engineering estimate: not validated against human judgments for {language}: {listed}")


def _ci_model(interval: Any) -> CI:
    return CI(**interval.as_dict())


def _build(request: ScoringRequest, states: Sequence[_MetricState], items: Sequence[EntryInput],
           outputs: Sequence[Output], missing: Sequence[str], unknown: Sequence[str],
           per_entry: dict[str, list[EntryScore | None]], corpus_scores: dict[str, CorpusScore],
           scores: dict[str, Any], producers: dict[str, str], entry_stats: dict[str, EntryStats],
           availability: dict[str, str], reasons: dict[str, str], config_hash: str) -> RunResult:
    corpus, run = request.corpus, request.run
    entries: list[Entry] = [it.entry for it in items]
    n = len(entries)
    errors = sum(1 for o in outputs if o.error) + len(missing)
    empty = sum(1 for it in items if not it.predicted.strip())

    # ---- composite and tier
    profile = comp.choose_profile(scores)
    cres = comp.compute_composite(scores, profile)
    review = request.human_review or HumanReview()
    tier = comp.quality_tier(cres.value)

    # ---- cost and speed
    tokens = costspeed.token_totals(outputs, n)
    source_chars = sum(len(e.source) for e in entries)
    costs = costspeed.cost_totals(outputs, pricing=run.meta.pricing, n_entries=n, source_chars=source_chars,
                                  total_tokens=tokens["total_tokens"])
    speed = costspeed.speed_scores(outputs, elapsed_seconds=run.meta.elapsed_seconds, n_entries=n,
                                   total_tokens=tokens["total_tokens"])

    # ---- intervals
    cis: dict[str, CI] = {}
    seed, B, alpha = request.seed, request.n_bootstrap, request.alpha
    for key in CI_KEYS:
        s = entry_stats.get(key)
        if s is not None and s.entries_scored() > 0:
            cis[key] = _ci_model(bootstrap_ci(s, n_bootstrap=B, alpha=alpha, seed=seed, n_entries=s.entries_scored()))
    used, _excluded = comp.composite_inputs(scores, profile)
    composite_q = _composite_quantity(profile, used, entry_stats, n)
    if composite_q is not None and cres.value is not None:
        iv = bootstrap_ci(composite_q, n_bootstrap=B, alpha=alpha, seed=seed)
        iv.score = cres.value
        cis["composite"] = _ci_model(iv)
    difficulties = [e.difficulty for e in entries]
    by_tier: dict[str, dict[str, CI]] = {}
    for key in TIER_CI_KEYS:
        s = entry_stats.get(key)
        if s is None:
            continue
        for label, iv in by_group_ci(s, difficulties, n_bootstrap=B, alpha=alpha, seed=seed).items():
            by_tier.setdefault(label, {})[key] = _ci_model(iv)
    by_difficulty = _groups_breakdown(difficulties, entry_stats, composite_q)
    by_provenance = _groups_breakdown([e.provenance_label for e in entries], entry_stats, composite_q)

    # ---- caveats
    caveats: list[Caveat] = comp.compute_caveats(
        [e.source for e in entries], [it.predicted for it in items], [e.reference for e in entries],
        length_ratio=scores.get("length_ratio"))
    ec = comp.errors_caveat(errors, n)
    if ec is not None:
        caveats.append(ec)
    for st in states:
        cs = corpus_scores.get(st.ref.id)
        for c in (cs.extra.get("caveats", []) if cs is not None else []):
            try:
                caveats.append(Caveat.model_validate(c))
            except ValidationError:  # a malformed plugin caveat is shown as text
                caveats.append(Caveat(code=f"{st.ref.id}", message=str(c)))
    comet_cs = corpus_scores.get(producers.get("comet_score", ""))
    if comet_cs is not None and comet_cs.extra.get("covered") is False and not any(
            c.code.startswith("comet") for c in caveats):
        caveats.append(Caveat(code="comet_language_not_covered",
                              message="COMET's encoder does not cover the target language; its score is not reliable",
                              detail={"model": scores.get("comet_model")}))

    # ---- scores block
    score_values: dict[str, Any] = dict.fromkeys(LYSS_SCORE_KEYS)
    score_values.update(scores)
    score_values.update({
        "composite": cres.value, "quality_tier": tier,
        "cost_adjusted": costspeed.cost_adjusted(cres.value, costs["cost_per_entry_usd"]),
        **speed,
        "confidence_intervals": cis, "confidence_intervals_by_tier": by_tier,
        "by_difficulty": by_difficulty, "by_provenance": by_provenance,
        "total": n, "evaluated": n - errors, "errors": errors,
        "empty_outputs": empty, "missing_outputs": len(missing),
        "quality_tier_display": comp.tier_display(tier, review.confirmed),
    })
    if score_values.get("comet_model") is None:
        score_values["comet_model"] = ""
    for ik in ("exact_matches", "equivalent_matches", "fst_accepted"):
        if score_values.get(ik) is not None:
            score_values[ik] = int(score_values[ik])
    add_seed_aliases(score_values)
    scores_model = Scores(**score_values)
    totals = Totals(**tokens, **costs)

    # ---- signatures, fst, results
    signatures: dict[str, str] = {}
    for key in ("chrf_plus_plus", "bleu", "ter"):
        cs = corpus_scores.get(producers.get(key, ""))
        if cs is not None and cs.extra.get("signature"):
            signatures[key] = str(cs.extra["signature"])
    fst_info = FstInfo()
    fst_candidates = [producers.get("fst_acceptance_rate")] + [s.ref.id for s in states if s.info is not None
                                                               and s.info.role == "fst_analysis"]
    for mid in fst_candidates:
        cs = corpus_scores.get(mid or "")
        if cs is not None and isinstance(cs.extra.get("fst"), Mapping):
            fst_info = FstInfo(**{k: v for k, v in cs.extra["fst"].items() if k in FstInfo.model_fields})
            break

    results = _entry_results(items, per_entry, producers, states)
    metric_info = {st.ref.id: st.info.descriptor(card=request.target_card, builtin=not st.language)
                   for st in states if st.info is not None}
    metric_validation: dict[str, Any] = {mid: d.validation for mid, d in metric_info.items()}
    metric_validation.update({key: metric_info[mid].validation for key, mid in producers.items() if mid in metric_info})
    composite_validation = _composite_validation(used, metric_validation, corpus.language_pair.target)

    fp_components = {
        "corpus_sha256": request.corpus_sha256, "run_sha256": run.content_sha256, "config_hash": config_hash,
        "language_card_sha256": request.card_sha256, "analyzer_sha256": fst_info.sha256,
        "app_version": __version__, "sacrebleu_signatures": signatures, "seed": seed, "n_bootstrap": B,
    }
    lp = f"{corpus.language_pair.source}-{corpus.language_pair.target}"
    card = RunCard(
        run_id=request.run_id, harness_version=__version__,
        timestamp=datetime.now(UTC).isoformat(timespec="seconds"),
        elapsed_seconds=run.meta.elapsed_seconds, model_slug=run.meta.model_slug, model_id=run.meta.model_id,
        condition=run.meta.condition,
        dataset=DatasetInfo(id=corpus.corpus_id, version=corpus.version, language_pair=lp,
                            sha256=request.corpus_sha256, entry_count=n,
                            speaker_variants=list(request.speaker_variants)),
        scores=scores_model, totals=totals, corpus_bleu=scores_model.bleu,
        fingerprint=Fingerprint(hash=fingerprint(fp_components), components=_json_safe(fp_components)),
        sacrebleu_signatures=signatures, normalisation=dict(NORMALISATION_POLICY),
        metric_availability=availability, metric_reasons=reasons, score_sources=dict(producers),
        metric_info=metric_info, metric_validation=metric_validation, composite_validation=composite_validation,
        composite_profile=profile, composite_breakdown=cres.breakdown, score_caveats=caveats,
        fst=fst_info, language_card_sha256=request.card_sha256, human_review=review,
        bootstrap_seed=seed, results=results,
    )
    ensure_valid(card, results_sample=RESULTS_SCHEMA_SAMPLE)
    metric_rows = []
    for st in states:
        cs = corpus_scores.get(st.ref.id)
        desc = metric_info.get(st.ref.id)
        metric_rows.append(MetricRow(
            metric_id=st.ref.id, availability=st.availability, reason=st.reason,
            values=_json_safe(cs.values) if cs is not None else {},
            extra=_json_safe({**(cs.extra if cs is not None else {}),
                              "version": st.info.version if st.info else None,
                              "display_name": st.info.display_name if st.info else st.ref.id,
                              "descriptor": desc.model_dump(mode="json") if desc is not None else None,
                              "supplies": sorted(k for k, m in producers.items() if m == st.ref.id)}),
        ))
    return RunResult(card, metric_rows, per_entry, entry_stats, producers, availability, unknown_ids=list(unknown))


_BULKY_DETAIL = frozenset({"analyses", "words", "stats", "tokens"})


def _verdict(e: EntryScore | None) -> Verdict | None:
    """A verdict metric's per-entry detail for the run card (verdict, classes, explanation,
    pairing…), without bulky per-word data (kept in the workspace's entry results). A detail
    that does not fit :class:`Verdict` keeps its verdict name only."""
    if e is None:
        return None
    v = e.detail.get("verdict")
    if v is None:
        return None
    if isinstance(v, Mapping):
        out: dict[str, Any] = dict(v)
    else:
        out = {"verdict": v}
        out.update({k: x for k, x in e.detail.items() if k != "verdict" and k not in _BULKY_DETAIL})
        if e.value is not None:
            out["score"] = e.value
    try:
        return Verdict.model_validate(_json_safe(out))
    except ValidationError:
        name = out.get("verdict", out.get("label", out.get("name")))
        return None if name is None else Verdict(verdict=str(name))


def _word_analyses(words: Any) -> list[WordAnalysis] | None:
    """The ``fst_analysis`` metric's words for the run card (None when they are not word analyses)."""
    if not isinstance(words, list):
        return None
    try:
        return [WordAnalysis.model_validate(_json_safe(w)) for w in words]
    except ValidationError:
        return None


def _pick(states: Sequence[_MetricState], per_entry: Mapping[str, list[EntryScore | None]],
          producers: Mapping[str, str], role: str, key: str | None = None, *,
          language: bool | None = None) -> str | None:
    """The metric of ``role`` whose per-entry results a run-card column shows: the one that
    supplied ``key`` when it has that role, else the first of that role (``language``: only a
    language standard's metric, or only a built-in; such a metric must have run to the end)."""
    by_id = {s.ref.id: s for s in states}

    def fits(st: _MetricState | None) -> bool:
        if st is None or st.info is None or st.info.role != role or st.ref.id not in per_entry:
            return False
        if language is None:
            return True
        return st.language == language and st.availability in ("ok", "below_coverage")

    if key is not None and fits(by_id.get(producers.get(key, ""))):
        return producers[key]
    return next((s.ref.id for s in states if fits(s)), None)


def _entry_results(items: Sequence[EntryInput], per_entry: Mapping[str, list[EntryScore | None]],
                   producers: Mapping[str, str], states: Sequence[_MetricState]) -> list[EntryResult]:
    def col(mid: str | None) -> list[EntryScore | None]:
        if mid is None:
            return [None] * len(items)
        return per_entry.get(mid) or [None] * len(items)

    def pick(role: str, key: str | None = None, language: bool | None = None) -> list[EntryScore | None]:
        return col(_pick(states, per_entry, producers, role, key, language=language))

    exact = pick("exact", "exact_match_rate")
    chrf = pick("chrf", "chrf_plus_plus")
    fst = pick("fst_analysis", "fst_acceptance_rate")
    lint = pick("equivalence_verdict", "equivalent_match_rate", language=True)
    generic = pick("equivalence_verdict", "equivalent_match_rate", language=False)
    semantic = col(producers.get("semantic_score"))
    bleu, ter = pick("bleu", "bleu"), pick("ter", "ter")
    out = []

    def value(s: EntryScore | None) -> Any:
        return None if s is None else s.value

    for i, it in enumerate(items):
        e, o = it.entry, it.output
        fst_i, generic_i, exact_i = fst[i], generic[i], exact[i]
        fa = fst_i.detail.get("analyses") if fst_i is not None else None
        metrics: dict[str, Any] = {mid: value(lst[i]) for mid, lst in per_entry.items()}
        gv = generic_i.detail.get("verdict") if generic_i is not None else None
        out.append(EntryResult(
            entry_id=e.id, source=e.source, reference=e.reference, predicted=it.predicted,
            exact_match=(None if exact_i is None or exact_i.value is None else bool(exact_i.value)),
            entry_chrf=value(chrf[i]),
            fst_accepted=value(fst_i),
            fst_analysis=_word_analyses(fa),
            lint_verdict=_verdict(lint[i]), semantic_verdict=_verdict(semantic[i]),
            difficulty=e.difficulty, provenance=e.provenance_label, latency_seconds=o.latency_s,
            usage=o.usage.model_dump(exclude_none=True) if o.usage is not None else None,
            error=o.error,
            equivalence_verdict=None if gv is None else str(gv),
            entry_bleu=value(bleu[i]),
            entry_ter=value(ter[i]),
            metrics=_json_safe(metrics),
        ))
    return out
