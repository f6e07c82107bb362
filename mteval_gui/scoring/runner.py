"""Scoring one run: ``score_run(request, *, on_progress, cancel, sink) -> RunResult`` (DESIGN §4).

Plain Python, no Qt, no store: the GUI adapts it to signals, the CLI passes a text
progress bar, a worker process can call it as it is (every argument pickles).

This module only runs the stages in order. They pass one intermediate, the
:class:`~mteval_gui.scoring.job.ScoringJob` (made from the :class:`ScoringRequest`: outputs
aligned with the corpus, the metrics' context), and each lives in a module of its own:

1. *prepare* (:mod:`~mteval_gui.scoring.batches`) — resolve each metric and open it, here or,
   for a metric of an installed plugin package, in a process of its own
   (:mod:`~mteval_gui.scoring.isolation`, the request's ``isolation``); call
   ``prepare(context)``. A :class:`~mteval_gui.scoring.plugins.MetricUnavailable` makes the
   metric ``unavailable``/``not_applicable`` with its reason; any other exception, an exit or a
   time-out makes it ``failed``. Heavy metrics (COMET, embeddings) run only when asked for
   (``include``/``metrics``, or ``options["heavy"] = True``).
2. *score* (:mod:`~mteval_gui.scoring.batches`) — entries in batches of ``batch_size``; every
   batch is one commit through the sink (:class:`~mteval_gui.scoring.sink.ResultSink`). Between
   batches the cancel token is checked (:class:`~mteval_gui.errors.Cancelled`). The
   configuration hash (metrics, versions, params, options, batch size, corpus and run)
   identifies reusable batches: a rerun after a crash or a cancel skips the batches already
   committed, except for the metrics whose results they lack (a metric that failed in an
   earlier attempt is scored again). With ``workers=2`` a forked helper scores half of the
   batches (:mod:`~mteval_gui.scoring.parallel`; the results are the same); a metric in a process
   of its own is always scored by this process. A metric that raises, exits, times out or gives
   a value that is not a finite number (NaN, inf) is ``failed`` with its reason; the others go
   on. Then each metric's corpus values are aggregated from all stored per-entry results.
3. *merge* (:mod:`~mteval_gui.scoring.merge`) — when several metrics produce the same
   ``scores`` key, a metric declared by the language card (``evalMetrics``, e.g. a language's
   linter for ``equivalent_match_rate``) wins over a built-in as long as its availability is
   ``ok``; otherwise the first built-in that has a value. The other producers' values stay in
   the metric rows. Per-entry sufficient statistics (checked against the corpus values) and
   availability by metric id and by key come with it.
4. *assembly* (:mod:`~mteval_gui.scoring.assembly`) — composite and tier, cost and speed,
   caveats, bootstrap intervals (chrF++, BLEU, exact match, FST acceptance, COMET, composite;
   per difficulty tier) and breakdowns by difficulty and provenance, the run card (validated)
   and the metric rows. Per-entry columns (verdicts, word analyses, chrF++…) are taken from the
   metric of the right *role* (:attr:`~mteval_gui.scoring.plugins.MetricInfo.role`), preferring
   the one that supplied the key (``score_sources``); the card records each metric's
   declaration (``metric_info``), its validation level for the language
   (``metric_validation``) and whether the composite is an engineering estimate
   (``composite_validation``).

The run card is handed to ``sink.write_run``. Progress (:mod:`~mteval_gui.scoring.progress`)
is a :class:`Progress` (done, total, stage, message), throttled to a few updates per second
(stage changes and the last update always pass).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from mteval_gui.errors import Cancelled
from mteval_gui.scoring import assembly, batches, merge
from mteval_gui.scoring.assembly import RESULTS_SCHEMA_SAMPLE
from mteval_gui.scoring.isolation import close_all
from mteval_gui.scoring.job import (
    DEFAULT_BATCH_SIZE,
    MetricState,
    RunResult,
    ScoringJob,
    ScoringRequest,
    align_outputs,
)
from mteval_gui.scoring.merge import default_entry_statistics
from mteval_gui.scoring.progress import PROGRESS_INTERVAL, CancelToken, Progress, Throttle
from mteval_gui.scoring.runcard import prepare_checks
from mteval_gui.scoring.sink import EntryRow, MemorySink, MetricRow, ResultSink
from mteval_gui.scoring.stats import draw_weights

__all__ = [
    "DEFAULT_BATCH_SIZE", "PROGRESS_INTERVAL", "RESULTS_SCHEMA_SAMPLE", "CancelToken", "EntryRow", "MemorySink",
    "MetricRow", "MetricState", "Progress", "ResultSink", "RunResult", "ScoringJob", "ScoringRequest",
    "align_outputs", "default_entry_statistics", "score_run",
]


def _ahead(job: ScoringJob) -> None:
    """Work of the later stages that needs no result: the run card's checks and models, and the
    resamples of the intervals over all entries."""
    prepare_checks()
    if job.request.n_bootstrap > 0 and job.n > 0:
        draw_weights("bootstrap", job.request.seed, job.request.n_bootstrap, job.n)


def score_run(request: ScoringRequest, *, on_progress: Callable[[Progress], None] | None = None,
              cancel: CancelToken | None = None, sink: ResultSink | None = None) -> RunResult:
    """Score one run; see the module docstring. Raises :class:`~mteval_gui.errors.Cancelled` when cancelled."""
    t0 = time.perf_counter()
    cancel = cancel or CancelToken()
    sink = sink if sink is not None else MemorySink()
    report = Throttle(on_progress)
    job = ScoringJob.start(request)
    cancel.raise_if_cancelled()
    job.states = batches.resolve_metrics(request, cancelled=lambda: cancel.cancelled)
    try:
        batches.prepare(job, report)
        cancel.raise_if_cancelled()
        job.config, job.config_hash = batches.config_of(request, job.states)
        try:
            batches.score_batches(job, sink, cancel, report, alongside=lambda: _ahead(job))
        except Cancelled:
            sink.mark_job(request.run_id, "cancelled")
            raise
        report(Progress(0, 1, "aggregating", "corpus values"), force=True)
        batches.aggregate(job, sink)
        merge.merge(job)  # per-entry statistics may ask an isolated metric: before its process ends
        report(Progress(0, 1, "statistics", "composite and intervals"), force=True)
        result = assembly.assemble(job)
    finally:
        close_all(st.metric for st in job.states)
    result.seconds = time.perf_counter() - t0
    result.batches_scored, result.batches_reused = job.batches_scored, job.batches_reused
    card_json = result.card_json if result.card_json is not None else result.run_card.model_dump(mode="json")
    sink.write_run(request.run_id, card_json, result.metric_rows)
    sink.mark_job(request.run_id, "done")
    report(Progress(1, 1, "done", "run card written"), force=True)
    return result
