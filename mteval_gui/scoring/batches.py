"""Stage 1 of a scoring job: resolve and prepare the metrics, score the entries in batches,
aggregate the corpus values.

- :func:`resolve_metrics` — open each metric of the request, here or in a process of its own
  (:mod:`~mteval_gui.scoring.isolation`: an installed plugin package's metric by default, every
  metric with ``isolation="all"``). A plugin that cannot be imported is ``failed``; a heavy
  metric not asked for is ``unavailable`` with the reason.
- :func:`prepare` — ``prepare(context)`` of each metric: :class:`MetricUnavailable` makes it
  ``unavailable`` / ``not_applicable`` with its reason; an exception, an exit or a time-out
  ``failed``.
- :func:`config_of` — the configuration and its hash, which identify reusable batches.
- :func:`score_batches` — entries in batches of ``batch_size``, one sink commit per batch, the
  cancel token checked between batches. Batches already committed for the same configuration
  are skipped (a rerun after a crash or a cancel resumes), except for the metrics whose results
  they lack (a metric that failed in an earlier attempt is scored again). With ``workers=2``,
  after a first batch that loads what the metrics load on first use, a forked helper
  (:class:`~mteval_gui.scoring.parallel.BatchHelper`) scores part of the batches with the
  metrics that live in this process; a metric in a process of its own is always scored here,
  and one declared ``single_process`` (it loads large data on first use: language models) by
  the helper only, for every batch, so that its data loads once and while this process
  scores the other metrics.
  A metric that raises, exits, times out or gives a value that is not a finite number is
  ``failed`` with its reason; the others go on.
- :func:`aggregate` — each metric's corpus values from every stored per-entry result (read
  one metric at a time; a large run's are read again when a later stage asks for them:
  :class:`~mteval_gui.scoring.job.PerEntry`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mteval_gui.domain.card import MetricRef
from mteval_gui.errors import Cancelled, MtevalError, PluginError
from mteval_gui.scoring import parallel
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
from mteval_gui.scoring.job import (
    MetricState,
    PerEntry,
    ScoringJob,
    ScoringRequest,
    bad_number,
    is_number,
    json_safe,
    portable,
)
from mteval_gui.scoring.plugins import EntryInput, EntryScore, MetricUnavailable, builtin_ids, metrics_for
from mteval_gui.scoring.progress import CancelToken, Progress, Throttle
from mteval_gui.scoring.sink import EntryRow, ResultSink
from mteval_gui.text import NORMALISATION_POLICY


def isolated(request: ScoringRequest, ref: MetricRef) -> bool:
    """Whether the metric runs in a process of its own (the request's ``isolation``)."""
    return request.isolation == "all" or (request.isolation == "plugins" and isolated_by_default(ref))


def fail(st: MetricState, reason: str) -> None:
    """Mark a metric ``failed`` with ``reason``; its process, if it has one, is ended."""
    st.availability, st.reason = "failed", reason
    close_all([st.metric])


def resolve_metrics(request: ScoringRequest, cancelled: Callable[[], bool] | None = None) -> list[MetricState]:
    """The job's metrics in order (built-ins, then the card's); unknown ``include`` ids raise.
    The caller closes them (:func:`~mteval_gui.scoring.isolation.close_all`)."""
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
        st = MetricState(ref=ref, from_card=ref.id in card_ids, language=ref.id in card_ids or ref.id not in builtins)
        try:
            st.metric = open_metric(ref, isolated=isolated(request, ref), cancelled=cancelled,
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


def prepare(job: ScoringJob, report: Throttle) -> None:
    """``prepare(context)`` of every metric that can run (see the module docstring)."""
    total = len(job.states)
    for i, st in enumerate(job.states):
        report(Progress(i, total, "preparing", st.ref.id))
        if st.metric is None or st.availability != "ok":
            continue
        try:
            st.metric.prepare(job.context)
        except MetricUnavailable as exc:
            st.availability, st.reason = exc.availability, exc.reason
            close_all([st.metric])
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            fail(st, f"prepare: {failure_reason(exc)}")
    report(Progress(total, total, "preparing", "metrics ready"), force=True)


def config_of(request: ScoringRequest, states: Sequence[MetricState]) -> tuple[dict[str, Any], str]:
    """The configuration of a job (metrics that run, their versions and params, options, corpus
    and run) and its sha256: results stored under the same hash are reused."""
    active = [s for s in states if s.availability == "ok"]
    options = {k: v for k, v in request.options.items() if k not in ("fst_cache",) and not callable(v)}
    config: dict[str, Any] = json_safe({
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
    })
    blob = json.dumps(config, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return config, hashlib.sha256(blob.encode("utf-8")).hexdigest()


def non_finite(score: EntryScore) -> str | None:
    """What of a per-entry result is a number but not a finite one (None when all are finite)."""
    if bad_number(score.value):
        return f"value {score.value}"
    return next((f"values[{k!r}] {v}" for k, v in score.values.items() if bad_number(v)), None)


def score_batch(states: Sequence[MetricState], batch: Sequence[EntryInput],
                b: int) -> tuple[list[EntryRow], list[tuple[str, str]]]:
    """Rows of one batch from every metric still ok, and the (metric id, reason) of those that
    failed on it (marked failed here; their rows of this batch are dropped)."""
    rows: list[EntryRow] = []
    failures: list[tuple[str, str]] = []
    for st in states:
        if not st.running or st.metric is None:
            continue
        try:
            results = st.metric.score_entries(batch)
            if len(results) != len(batch):
                raise PluginError(st.ref.id, f"returned {len(results)} results for {len(batch)} entries")
            for it, r in zip(batch, results, strict=True):
                bad = non_finite(r)
                if bad is not None:
                    raise MetricFailed(f"entry {it.entry.id}: {bad} is not a finite number")
                data, text = portable(r.to_json())
                value = r.value if r.value is None or is_number(r.value) else None
                rows.append(EntryRow(it.entry.id, st.ref.id, None if value is None else float(value), data, text))
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            reason = f"score_entries (batch {b}): {failure_reason(exc)}"
            fail(st, reason)
            failures.append((st.ref.id, reason))
            rows = [r for r in rows if r.metric_id != st.ref.id]
    return rows, failures


def lacking(job: ScoringJob, sink: ResultSink, done: set[int], bs: int) -> dict[int, list[MetricState]]:
    """For each committed batch, the running metrics without a result for one of its entries
    (they failed in an earlier attempt): they are scored again."""
    running = [st for st in job.states if st.running]
    if not done or not running:
        return {}
    stored = sink.load_entry_scores(job.request.run_id, [st.ref.id for st in running])
    out: dict[int, list[MetricState]] = {}
    for b in sorted(done):
        ids = [it.entry.id for it in job.items[b * bs:(b + 1) * bs]]
        missing = [st for st in running if any(i not in stored.get(st.ref.id, {}) for i in ids)]
        if missing:
            out[b] = missing
    return out


def score_batches(job: ScoringJob, sink: ResultSink, cancel: CancelToken, report: Throttle, *,
                  alongside: Callable[[], None] | None = None) -> None:
    """Score every batch not committed yet (see the module docstring); sets ``job.batches_scored``
    and ``job.batches_reused``. ``alongside``: work of the later stages that does not depend on
    the results (imports, checks to build), done by this process once a helper scores batches
    (the helper then takes more batches) and not at all without one."""
    request, items, states = job.request, job.items, job.states
    n = len(items)
    bs = max(1, int(request.batch_size))
    n_batches = max(1, math.ceil(n / bs)) if n else 0
    done = {b for b in sink.begin_job(request.run_id, job.config, job.config_hash, bs, n_batches) if b < n_batches}
    retry = lacking(job, sink, done, bs)
    done -= set(retry)
    job.batches_reused = len(done)
    done_entries = sum(len(items[b * bs:(b + 1) * bs]) for b in done)
    message = f"{len(done)} of {n_batches} batches already stored"
    if retry:
        message += f"; {len(retry)} scored again for the metrics they lack"
    report(Progress(done_entries, n, "scoring", message), force=True)
    todo = [b for b in range(n_batches) if b not in done and b not in retry]
    # a metric in a process of its own is scored here only (a forked helper must not use its
    # pipe); with a helper, one declared single_process is scored by the helper only, for every
    # batch (its data loads once, there, while this process scores the other metrics)
    here: list[MetricState] = []
    lone: list[MetricState] = []
    shared: list[MetricState] = []
    for st in states:
        if isinstance(st.metric, ProcessMetric):
            here.append(st)
        elif st.info is not None and st.info.single_process:
            lone.append(st)
        else:
            shared.append(st)
    helper: parallel.BatchHelper | None = None
    by_id = {st.ref.id: st for st in states}

    def batch(b: int) -> list[EntryInput]:
        return items[b * bs:(b + 1) * bs]

    committed: set[int] = set()
    mine: dict[int, list[EntryRow]] = {}  # batches scored here, waiting for the helper's single_process rows
    theirs: dict[int, list[EntryRow]] = {}  # the helper's single_process rows of batches scored here

    def commit(b: int, rows: Sequence[EntryRow]) -> None:
        nonlocal done_entries
        committed.add(b)
        failed = {mid for mid, st in by_id.items() if st.availability != "ok"}
        sink.write_batch(request.run_id, b, job.config_hash, [r for r in rows if r.metric_id not in failed])
        job.batches_scored += 1
        done_entries += len(batch(b))
        report(Progress(done_entries, n, "scoring", f"batch {b + 1} of {n_batches}"))

    def join(b: int) -> None:
        if b in mine and b in theirs:
            commit(b, mine.pop(b) + theirs.pop(b))

    lost: list[int] = []  # batches of a helper that died (killed, out of memory): scored here

    def from_helper(wait: bool) -> None:
        assert helper is not None
        try:
            for b, rows, failures, whole in helper.outcomes(wait=wait):
                for mid, reason in failures:
                    st = by_id[mid]
                    if st.availability == "ok":
                        st.availability, st.reason = "failed", reason
                if b in committed:  # both processes took the last batch: it is committed once
                    continue
                if whole:  # the helper took the batch too: its rows replace any part of it
                    mine.pop(b, None)
                    theirs.pop(b, None)
                    commit(b, rows + score_batch(here, batch(b), b)[0])
                else:
                    theirs[b] = rows
                    join(b)
        except RuntimeError:
            lost.extend(sorted(helper.lost(committed)))
            helper.finished = True

    def score_here(batches: Iterable[int], *, split: bool = False) -> None:
        for b in batches:
            cancel.raise_if_cancelled()
            if b in committed:
                continue
            if split:
                mine[b] = score_batch(shared + here, batch(b), b)[0]
                join(b)
            else:
                commit(b, score_batch(retry.get(b, states), batch(b), b)[0])
            if helper is not None and not helper.finished:
                from_helper(wait=False)

    try:
        if parallel.use_helper(todo, request.workers):
            claims = parallel.Claims(todo)
            split = bool(lone)
            # the first batch loads what the metrics scored by both processes load on first use
            # (compiled kernels, word-list indexes, caches), then the helper is forked and
            # inherits it all
            first = claims.front()
            assert first is not None
            warm = score_batch(shared, batch(first), first)[0]
            helper = parallel.BatchHelper(claims, lambda b: score_batch(shared + lone, batch(b), b),
                                          lone=(lambda b: score_batch(lone, batch(b), b)) if split else None)
            mine[first] = warm + score_batch(here, batch(first), first)[0]
            if not split:
                commit(first, mine.pop(first))
            if alongside is not None:
                alongside()
            score_here(iter(claims.front, None), split=split)
        else:
            score_here(todo)
        while helper is not None and not helper.finished:
            cancel.raise_if_cancelled()
            from_helper(wait=True)
        for b in sorted(mine):  # the helper died before it sent their single_process rows
            cancel.raise_if_cancelled()
            theirs[b] = score_batch(lone, batch(b), b)[0]
            join(b)
        score_here(lost)
        score_here(sorted(retry))
    finally:
        if helper is not None:
            helper.close()


def aggregate(job: ScoringJob, sink: ResultSink) -> None:
    """Each running metric's corpus values from all its stored per-entry results (``job.per_entry``,
    ``job.corpus_scores``). A metric with entries missing, whose ``aggregate`` fails or gives a value
    that is not a finite number is ``failed``."""
    ids = job.entry_ids
    run_id = job.request.run_id

    def load(mid: str) -> list[EntryScore | None]:
        rows = sink.load_entry_scores(run_id, [mid]).get(mid, {})
        return [EntryScore.from_json(rows[i]) if i in rows else None for i in ids]

    per_entry = job.per_entry = PerEntry(len(ids), load)
    for st in job.states:
        mid = st.ref.id
        if not st.running or st.metric is None:
            continue
        # one metric's stored results at a time: their decoded form is ten times their text
        lst = load(mid)
        per_entry[mid] = lst
        complete = [x for x in lst if x is not None]
        if len(complete) < len(lst):
            st.availability = "failed"
            st.reason = (f"results for {len(lst) - len(complete)} entries are missing "
                         f"(the metric failed in an earlier attempt); rescore the run")
            continue
        try:
            cs = st.metric.aggregate(complete, job.context)
        except Cancelled:
            raise
        except CONTAINED as exc:  # a failing metric never sinks the run; its reason is kept
            fail(st, f"aggregate: {failure_reason(exc)}")
            continue
        bad = next((k for k, v in cs.values.items() if bad_number(v)), None)
        if bad is not None:
            fail(st, f"aggregate: {bad} is {cs.values[bad]}, not a finite number")
            continue
        job.corpus_scores[mid] = cs
        st.availability, st.reason = cs.availability, cs.reason
