"""Stage 1 of a scoring job: resolve and prepare the metrics, score the entries in batches,
aggregate the corpus values.

- :func:`resolve_metrics` — open each metric of the request, here or in a process of its own
  (:mod:`~mteval_gui.scoring.isolation`: an installed plugin package's metric by default, every
  metric with ``isolation="all"``). A plugin that cannot be imported is ``failed``; a heavy
  metric not asked for is ``unavailable`` with the reason.
- :func:`prepare` — ``prepare(context)`` of each metric: :class:`MetricUnavailable` makes it
  ``unavailable`` / ``not_applicable`` with its reason; an exception, an exit or a time-out
  ``failed``.
- :func:`config_of` — the configuration, its hash and each metric's key, which identify
  reusable results: a stored per-entry result is reused only when everything it was computed
  from is unchanged (options, analyzer and gloss files by content, glossary, params, corpus,
  run; the metric's version and params, the parts of the language cards it reads, its data
  files).
- :func:`score_batches` — entries in batches of ``batch_size``, one sink commit per batch, the
  cancel token checked between batches; which batches, and when each is whole, is the
  bookkeeping of :class:`~mteval_gui.scoring.schedule.BatchSchedule`, the scoring and the
  helper are :class:`BatchRun`'s. Batches already committed for the same configuration
  are skipped (a rerun after a crash or a cancel resumes), except for the metrics whose results
  they lack: a metric that failed in an earlier attempt (a failed result is never stored) or
  whose key changed (the sink dropped its results) is scored again. With ``workers=2``,
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
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mteval_gui.domain.card import CardPart, LanguageCard, MetricRef, card_part
from mteval_gui.domain.placeholders import declared as declared_placeholders
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
    entry_ids,
    is_number,
    json_safe,
    portable,
)
from mteval_gui.scoring.plugins import (
    PARAM_FILE,
    EntryInput,
    EntryScore,
    MetricUnavailable,
    StoredScore,
    builtin_ids,
    metrics_for,
    module_folder,
)
from mteval_gui.scoring.progress import CancelToken, Progress, Throttle
from mteval_gui.scoring.schedule import BatchSchedule, batch_count, split_metrics
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


def _digest(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _file_sha256(path: Path) -> str | None:
    from mteval_gui.fst.analyzer import sha256_file

    try:
        return sha256_file(path) if path.is_file() else None
    except OSError:
        return None


def input_files(request: ScoringRequest) -> dict[str, str | None]:
    """sha256 of each file the job's options make the metrics read (the analyzers found, the gloss
    files), by ``"role:kind:path"``: the request's ``input_files`` when the caller hashed them (a
    workspace run: its configuration's files), else hashed here (memoised per path, size and time)."""
    if request.input_files is not None:
        return dict(request.input_files)
    from mteval_gui.fst.registry import DIR_OPTION, KINDS, OPTION_KEYS, AnalyzerNotFound, find_analyzer

    opts = request.options
    lang = request.corpus.language_pair.target
    base = Path(str(opts[DIR_OPTION])).expanduser() if opts.get(DIR_OPTION) else None
    out: dict[str, str | None] = {}
    for kind in KINDS:
        explicit = opts.get(OPTION_KEYS[kind])
        try:
            path = find_analyzer(request.target_card, kind, lang=lang, path=explicit, base=base)
        except AnalyzerNotFound:
            path = Path(str(explicit)) if explicit else None
        if path is not None:
            out[f"analyzer:{kind}:{path}"] = _file_sha256(path.expanduser())
    gloss = opts.get("gloss_files")
    for code, paths in (gloss.items() if isinstance(gloss, dict) else ()):
        for raw in paths or ():
            out[f"gloss:{code}:{raw}"] = _file_sha256(Path(str(raw)).expanduser())
    return out


def data_sha256(folder: str | None, data_files: Sequence[str], params: Mapping[str, Any]) -> str | None:
    """sha256 over the names and contents of a metric's ``data_files`` (relative to its module's
    ``folder``; ``"{name}"``: the path parameter ``name`` gives, if any; folders read recursively,
    ``__pycache__`` left out); None when it declares none."""
    if not data_files:
        return None
    h = hashlib.sha256()
    for rel in data_files:
        named = PARAM_FILE.fullmatch(rel)
        if named is not None:
            value = params.get(named.group(1))
            target = Path(str(value)).expanduser() if value else None
            if target is None:
                continue
            root = target.parent
        else:
            root = Path(folder) if folder else Path()
            target = root / rel if folder else None
        if target is None or not (target.is_file() or target.is_dir()):
            h.update(f"{rel}\0missing\n".encode())
            continue
        files = [target] if target.is_file() else sorted(
            f for f in target.rglob("*") if f.is_file() and "__pycache__" not in f.parts)
        h.update(f"{rel}\0{target}\n".encode() if named is not None else b"")
        for f in files:
            h.update(f"{f.relative_to(root).as_posix()}\0{_file_sha256(f)}\n".encode())
    return h.hexdigest()


def card_key(request: ScoringRequest, parts: Sequence[CardPart] | None) -> str:
    """sha256 of what a metric reads of the target and source cards: ``parts`` of them, or the
    whole cards (``None``)."""
    def of(card: LanguageCard | None) -> Any:
        if card is None:
            return None
        if parts is None:
            return card.model_dump(mode="json", by_alias=True)
        return {p: card_part(card, p) for p in parts}

    return _digest({"parts": None if parts is None else list(parts), "target": of(request.target_card),
                    "source": of(request.source_card)})


def _job_params(request: ScoringRequest, metric_id: str) -> dict[str, Any]:
    own = request.params.get(metric_id)
    return dict(own) if isinstance(own, Mapping) else {}


def _folder(st: MetricState) -> str | None:
    if isinstance(st.metric, ProcessMetric):
        return st.metric.folder
    return module_folder(st.metric) if st.metric is not None else None


def config_of(request: ScoringRequest, states: Sequence[MetricState]) -> tuple[dict[str, Any], str]:
    """The configuration of a job and its sha256, which identify reusable results.

    The hash covers what every metric reads — options, the files they name (analyzers, gloss
    files: by content), glossary, params, batch size, corpus, run and entries —: stored results
    under another hash are all dropped. ``config["metric_keys"]`` holds, for each metric that
    runs, the sha256 of what its results depend on beyond that: id, class, params, version,
    the parts of the language cards it reads (:attr:`MetricInfo.card_parts`, default the whole
    cards) and its data files (:attr:`MetricInfo.data_files`); a metric's stored results are
    reused only under the same key, so a changed card rescores the metrics that read it and
    only those. Everything is hashed once per job, nothing per entry.
    """
    active = [s for s in states if s.availability == "ok"]
    options = {k: v for k, v in request.options.items() if k not in ("fst_cache",) and not callable(v)}
    common: dict[str, Any] = json_safe({
        "params": request.params,
        "options": options,
        "files": input_files(request),
        "glossary": request.glossary,
        "batch_size": request.batch_size,
        "corpus_sha256": request.corpus_sha256,
        "run_sha256": request.run.content_sha256,
        "normalisation": NORMALISATION_POLICY,
    })
    placeholders = declared_placeholders(
        request.target_card.placeholders if request.target_card is not None else (), request.corpus.metadata)
    if placeholders:  # only when declared: the hashes of jobs without them stay as they were
        common["placeholders"] = list(placeholders)
    common["entries"] = entry_ids(request.corpus.entries)  # strings already: not walked by json_safe
    cards: dict[tuple[str, ...] | None, str] = {}
    metrics = []
    for s in active:
        parts = s.info.card_parts if s.info is not None else None
        if parts not in cards:
            cards[parts] = card_key(request, parts)
        metrics.append(json_safe({
            "id": s.ref.id, "python_name": s.ref.python_name, "params": s.ref.params,
            "version": s.info.version if s.info else None, "card": cards[parts],
            "data": data_sha256(_folder(s), s.info.data_files if s.info is not None else (),
                                {**s.ref.params, **_job_params(request, s.ref.id)})}))
    config = {**common, "metrics": metrics, "metric_keys": {m["id"]: _digest(m) for m in metrics}}
    return config, _digest(common)


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
    (they failed in an earlier attempt, or their key changed): they are scored again."""
    running = [st for st in job.states if st.running]
    if not done or not running:
        return {}
    # results are stored batch by batch: a metric with as many as the committed batches have
    # entries has them all, one with none lacks them all; only the others are looked at entry by entry
    expected = sum(len(job.items[b * bs:(b + 1) * bs]) for b in done)
    counts = sink.entry_counts(job.request.run_id, [st.ref.id for st in running])
    partial = [st.ref.id for st in running if counts.get(st.ref.id, 0) not in (0, expected)]
    stored = sink.stored_entry_ids(job.request.run_id, partial) if partial else {}
    out: dict[int, list[MetricState]] = {}
    for b in sorted(done):
        ids = [it.entry.id for it in job.items[b * bs:(b + 1) * bs]]
        missing = [st for st in running if counts.get(st.ref.id, 0) != expected and (
            st.ref.id not in stored or any(i not in stored[st.ref.id] for i in ids))]
        if missing:
            out[b] = missing
    return out


class BatchRun:
    """The processes and metrics side of :func:`score_batches`: scores the batches its
    :class:`~mteval_gui.scoring.schedule.BatchSchedule` gives, here and in a helper, and commits
    each to the sink once it is whole."""

    def __init__(self, job: ScoringJob, sink: ResultSink, cancel: CancelToken, report: Throttle,
                 schedule: BatchSchedule, retry: Mapping[int, list[MetricState]]) -> None:
        self.job, self.sink, self.cancel, self.report = job, sink, cancel, report
        self.schedule, self.retry = schedule, retry
        self.here, self.lone, self.shared = split_metrics(job.states)
        self.unsafe = [st.ref.id for st in self.lone if st.info is not None and not st.info.fork_safe]
        self.by_id = {st.ref.id: st for st in job.states}
        self.helper: parallel.Helper | None = None
        self.heard = time.monotonic()  # when the helper last sent a batch

    def rows(self, states: Sequence[MetricState], b: int) -> list[EntryRow]:
        return score_batch(states, self.job.items[self.schedule.bounds(b)], b)[0]

    def commit(self, b: int, rows: Sequence[EntryRow] | None) -> None:
        if rows is None:  # its other part is still to come
            return
        sched = self.schedule
        sched.commit(b)
        failed = {mid for mid, st in self.by_id.items() if st.availability != "ok"}
        self.sink.write_batch(self.job.request.run_id, b, self.job.config_hash,
                              [r for r in rows if r.metric_id not in failed])
        self.job.batches_scored += 1
        self.report(Progress(sched.entries_done, sched.n_entries, "scoring", f"batch {b + 1} of {sched.n_batches}"))

    def score_here(self, batches: Iterable[int], *, split: bool = False) -> None:
        """Score ``batches`` here: every metric, or (``split``) those the helper does not score alone."""
        for b in batches:
            self.cancel.raise_if_cancelled()
            if b in self.schedule.committed:
                continue
            if split:
                self.commit(b, self.schedule.mine(b, self.rows(self.shared + self.here, b)))
            else:
                parallel.ran_here(self.unsafe)
                self.commit(b, self.rows(self.retry.get(b, self.job.states), b))
            if self.helper is not None and not self.helper.finished:
                self.receive(wait=False)

    def start_helper(self, factory: parallel.HelperFactory, alongside: Callable[[], None] | None) -> None:
        """Score with a helper: the first batch here (it loads what the metrics scored by both
        processes load on first use: compiled kernels, word-list indexes, caches), then the
        helper starts (a forked one inherits it all) and both take batches."""
        claims = parallel.Claims(self.schedule.todo)
        split = bool(self.lone)
        first = claims.front()
        assert first is not None
        warm = self.rows(self.shared, first)
        self.helper = factory(claims, lambda b: score_batch(self.shared + self.lone,
                                                            self.job.items[self.schedule.bounds(b)], b),
                              lone=(lambda b: score_batch(self.lone, self.job.items[self.schedule.bounds(b)], b))
                              if split else None)
        rows = warm + self.rows(self.here, first)
        self.commit(first, self.schedule.mine(first, rows) if split else rows)
        if alongside is not None:
            alongside()
        self.score_here(iter(claims.front, None), split=split)

    def start_remote(self, factory: parallel.HelperFactory, alongside: Callable[[], None] | None) -> None:
        """Score on a cluster: every batch by the executor ``factory`` starts, from the job's
        portable description (every running metric, those in a process of their own too: the
        workers are processes of their own); this process commits each batch as it returns."""
        remote = [st for st in self.job.states if st.running]
        work = parallel.RemoteWork(self.job.request, [st.ref for st in remote],
                                   [st.ref.id for st in remote if st.info is not None and st.info.gpu],
                                   self.schedule.batch_size)
        self.here, self.lone, self.shared = [], [], remote
        claims = parallel.Claims(self.schedule.todo)
        self.helper = factory(claims, lambda b: score_batch(remote, self.job.items[self.schedule.bounds(b)], b),
                              work=work)
        where = getattr(self.helper, "description", None)
        if where:
            self.report(Progress(self.schedule.entries_done, self.schedule.n_entries, "scoring",
                                 f"scoring on {where}"), force=True)
        if alongside is not None:
            alongside()

    def receive(self, wait: bool) -> None:
        """Commit what the helper has sent; a lost helper's batches are left to this process."""
        helper, sched = self.helper, self.schedule
        assert helper is not None
        try:
            for b, rows, failures, whole in helper.outcomes(wait=wait):
                self.heard = time.monotonic()
                for mid, reason in failures:
                    st = self.by_id[mid]
                    if st.availability == "ok":
                        st.availability, st.reason = "failed", reason
                if whole:  # the helper took the batch too: its rows replace any part of it
                    if sched.whole(b):
                        self.commit(b, rows + self.rows(self.here, b))
                elif b not in sched.committed:  # both processes took the last batch: committed once
                    self.commit(b, sched.theirs(b, rows))
        except RuntimeError:
            sched.lose(helper.lost(sched.committed))
            helper.finished = True

    def wait_for_helper(self) -> None:
        """Receive the helper's batches until it has sent them all; one that sends nothing for
        the stall limit (``MTEVAL_HELPER_STALL_SECONDS``) is stopped and its batches scored here."""
        self.heard = time.monotonic()
        while self.helper is not None and not self.helper.finished:
            self.cancel.raise_if_cancelled()
            self.receive(wait=True)
            stalled = time.monotonic() - self.heard
            if not self.helper.finished and stalled > parallel.stall_limit():
                self.report(Progress(self.schedule.entries_done, self.schedule.n_entries, "scoring",
                                     f"the scoring helper sent nothing for {stalled:.0f} s: "
                                     "it was stopped and this process scores its batches"), force=True)
                self.helper.close()
                self.helper.finished = True
                self.schedule.lose(self.helper.lost(self.schedule.committed))

    def finish(self) -> None:
        """Score here what is left: the helper's part of batches it never sent, the batches of a
        lost helper, and the batches scored again for the metrics they lack."""
        waiting = self.schedule.waiting()
        if waiting:
            parallel.ran_here(self.unsafe)
        for b in waiting:
            self.cancel.raise_if_cancelled()
            self.commit(b, self.schedule.theirs(b, self.rows(self.lone, b)))
        self.score_here(self.schedule.lost)
        self.score_here(sorted(self.retry))

    def close(self) -> None:
        if self.helper is not None:
            self.helper.close()


def score_batches(job: ScoringJob, sink: ResultSink, cancel: CancelToken, report: Throttle, *,
                  alongside: Callable[[], None] | None = None,
                  helper: parallel.HelperFactory | None = None) -> None:
    """Score every batch not committed yet (see the module docstring); sets ``job.batches_scored``
    and ``job.batches_reused``. ``alongside``: work of the later stages that does not depend on
    the results (imports, checks to build), done by this process once a helper scores batches
    (the helper then takes more batches) and not at all without one. ``helper`` starts the
    helper (:class:`~mteval_gui.scoring.parallel.Helper`: a forked process by default; with the
    request's ``cluster``, the workers of that Ray cluster,
    :class:`~mteval_gui.scoring.cluster.RayHelper`, score every batch)."""
    request = job.request
    bs = max(1, int(request.batch_size))
    n_batches = batch_count(len(job.items), bs)
    stored = set(sink.begin_job(request.run_id, job.config, job.config_hash, bs, n_batches))
    retry = lacking(job, sink, {b for b in stored if b < n_batches}, bs)
    schedule = BatchSchedule(len(job.items), bs, stored, set(retry))
    job.batches_reused = len(schedule.stored)
    message = f"{len(schedule.stored)} of {n_batches} batches already stored"
    if retry:
        message += f"; {len(retry)} scored again for the metrics they lack"
    report(Progress(schedule.entries_done, len(job.items), "scoring", message), force=True)
    run = BatchRun(job, sink, cancel, report, schedule, retry)
    try:
        if request.cluster and schedule.todo and any(st.running for st in job.states):
            if helper is None:
                from mteval_gui.scoring.cluster import RayHelper

                helper = RayHelper
            run.start_remote(helper, alongside)
        elif parallel.use_helper(schedule.todo, request.workers, run.unsafe):
            run.start_helper(helper or parallel.BatchHelper, alongside)
        else:
            run.score_here(schedule.todo)
        run.wait_for_helper()
        run.finish()
    finally:
        run.close()


def aggregate(job: ScoringJob, sink: ResultSink) -> None:
    """Each running metric's corpus values from all its stored per-entry results (``job.per_entry``,
    ``job.corpus_scores``). A metric with entries missing, whose ``aggregate`` fails or gives a value
    that is not a finite number is ``failed``."""
    ids = job.entry_ids
    run_id = job.request.run_id

    texts = getattr(sink, "load_entry_texts", None)

    def load(mid: str) -> list[EntryScore | None]:
        if texts is not None:  # decoded when read (StoredScore): one metric's results of a large run are small
            stored = texts(run_id, mid)
            return [StoredScore(stored[i]) if i in stored else None for i in ids]
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
        job.corpus_scores[mid] = cs.read_extra()  # an older plugin may fill ``extra`` after making it
        st.availability, st.reason = cs.availability, cs.reason
