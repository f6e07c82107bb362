"""Scoring workspace runs: requests, jobs, and the one background runner (CLI and GUI alike).

This module joins the store and the pure scoring core:

- :func:`build_request` loads the corpus, the run, the language cards and the glossary from
  the workspace for a :class:`~mteval_gui.domain.runcard.ScoringConfiguration`
  (by default the workspace settings — :func:`mteval_gui.app.settings.scoring_options_for` —
  with the caller's overrides on top), so the CLI and the GUI score a workspace the same way.
- :func:`score_workspace_run` calls :func:`mteval_gui.scoring.runner.score_run` with the
  workspace sink (:class:`mteval_gui.store.results.ResultsStore`): results are committed per
  batch and a rerun resumes; the configuration is stored with the run and in its run card
  (``scoring``). Which runs a request scores, and with which configuration (stored ones are
  reused, stale ones rescored, current ones left alone), is decided by
  :func:`mteval_gui.app.scoring_config.plan_scoring`.
- :func:`score_runs` scores several runs one after the other; it is the target of the one
  background runner, :class:`mteval_gui.app.tasks.ProcessJob` (``SCORE_RUNS_TARGET``), used
  by ``mteval score --process`` and by the GUI: a long sacrebleu or HFST call holding the
  interpreter lock in the child cannot stall the caller.

The stored run card is the scoring result only: scoring reads no judgment; the speaker-review
status is joined when a card is read (:mod:`mteval_gui.app.review_status`).

The run glossary is the argument ``glossary`` (a workspace glossary id); without it the
corpus's glossary from the settings (``glossaries``), if any.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mteval_gui import runtime
from mteval_gui.app.requests import make_request
from mteval_gui.app.scoring_config import ScoringOverrides, job_kwargs, plan_scoring, resolve_configuration
from mteval_gui.domain.packed import Packed
from mteval_gui.domain.runcard import RunCard, ScoringConfiguration
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import Cancelled, MtevalError
from mteval_gui.scoring.runner import (
    DEFAULT_BATCH_SIZE,
    CancelToken,
    Progress,
    RunResult,
    ScoringRequest,
    score_run,
)
from mteval_gui.scoring.stats import DEFAULT_BOOTSTRAP, DEFAULT_SEED
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import ResultsStore, load_run_card, load_run_card_summary

SCORE_RUNS_TARGET = "mteval_gui.app.scoring:score_runs"
__all__ = ["CancelToken", "Progress", "RunResult", "SCORE_RUNS_TARGET", "RunProgress", "make_request",
           "score_runs_in_process",
           "build_request", "require_cluster", "score_workspace_run", "score_in_process", "score_runs",
           "ScoringOverrides", "plan_scoring", "resolve_configuration", "RunOutcome", "score_workspace_runs"]
SCORING_STAGE = "scoring"


def _glossary_terms(ws: Workspace, glossary_id: str | None) -> dict[str, list[str]]:
    if not glossary_id:
        return {}
    return {str(k): list(v) for k, v in repo.get_glossary(ws, glossary_id)["terms"].items()}


def _configuration(ws: Workspace, run_id: str, configuration: ScoringConfiguration | None, *,
                   metrics: Sequence[str] | None, exclude: Sequence[str], batch_size: int, seed: int,
                   n_bootstrap: int, options: ScoringOptions | None, params: Mapping[str, Any] | None,
                   glossary: str | None) -> ScoringConfiguration:
    if configuration is not None:
        return configuration
    overrides = ScoringOverrides(tuple(metrics) if metrics else None, tuple(exclude), options, glossary, seed,
                                 n_bootstrap, batch_size, dict(params) if params else None)
    return resolve_configuration(ws, run_id, None, overrides)


def require_cluster(address: str | None) -> None:
    """Nothing when ``address`` is None, or Ray is installed and the head at ``address`` answers;
    else :class:`~mteval_gui.scoring.cluster.ClusterUnavailable` saying why (the command that
    installs Ray, the address that does not answer)."""
    if address:
        from mteval_gui.scoring.cluster import check

        check(address)


def build_request(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                  exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                  n_bootstrap: int = DEFAULT_BOOTSTRAP, options: ScoringOptions | None = None,
                  params: Mapping[str, Any] | None = None, glossary: str | None = None,
                  configuration: ScoringConfiguration | None = None) -> ScoringRequest:
    """The :class:`ScoringRequest` of a workspace run (nothing is scored yet).

    With ``configuration`` the other arguments are ignored; without it the configuration is the
    workspace settings with these arguments on top (``options``: the fields the caller set win).
    """
    config = _configuration(ws, run_id, configuration, metrics=metrics, exclude=exclude, batch_size=batch_size,
                            seed=seed, n_bootstrap=n_bootstrap, options=options, params=params, glossary=glossary)
    # entries and outputs packed as they are read (a large run's decoded models would take 2.5 kB
    # an entry, in this process and again in a helper forked from it): the job decodes a batch at a time
    run = repo.get_run(ws, run_id, with_outputs=False)
    run = run.model_copy(update={"outputs": Packed.pack(repo.iter_outputs(ws, run_id))})
    corpus = repo.get_corpus(ws, run.corpus_id, with_entries=False)
    corpus = corpus.model_copy(update={"entries": Packed.pack(repo.iter_entries(ws, run.corpus_id))})
    info = repo.get_corpus_info(ws, run.corpus_id)
    request = make_request(
        corpus, run, corpus_sha256=info.get("sha256"), options=config.options,
        glossary=_glossary_terms(ws, config.glossary), metrics=config.metrics, exclude=config.exclude,
        params=config.params, batch_size=config.batch_size or DEFAULT_BATCH_SIZE,
        seed=config.seed if config.seed is not None else DEFAULT_SEED,
        n_bootstrap=config.n_bootstrap if config.n_bootstrap is not None else DEFAULT_BOOTSTRAP)
    request.run_id = run_id
    request.composite_profile = config.composite_profile
    request.result_models = False  # results[] once, as the JSON the stored text is made from
    # the files the configuration resolved and hashed: part of what stored results are reused under
    request.input_files = {f"{f.role}:{f.kind or f.language}:{f.path}": f.sha256 for f in config.files}
    from mteval_gui.store.versions import speaker_variants

    request.speaker_variants = speaker_variants(ws, run.corpus_id)
    return request


class _ConfiguredResults(ResultsStore):
    """The workspace sink that stores the job's configuration with the run: when the job begins,
    then completed (metric versions, COMET model) in the run card's ``scoring`` block."""

    def __init__(self, ws: Workspace, configuration: ScoringConfiguration) -> None:
        super().__init__(ws, configuration.model_dump(mode="json"))
        self.configuration = configuration

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[Any]) -> None:
        versions = {m.metric_id: (m.extra or {}).get("version") for m in metric_rows}
        comet_ran = (run_card.get("metric_availability") or {}).get("comet_score") == "ok"
        comet = ((run_card.get("scores") or {}).get("comet_model") or None) if comet_ran else None
        self.configuration = self.configuration.model_copy(update={"metric_versions": versions, "comet_model": comet})
        super().write_run(run_id, {**run_card, "scoring": self.configuration.model_dump(mode="json")}, metric_rows)


def score_workspace_run(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                        exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                        n_bootstrap: int = DEFAULT_BOOTSTRAP, options: ScoringOptions | None = None,
                        params: Mapping[str, Any] | None = None, glossary: str | None = None,
                        configuration: ScoringConfiguration | None = None, replace: bool = True,
                        on_progress: Callable[[Progress], None] | None = None,
                        cancel: CancelToken | None = None, workers: int = 1, cluster: str | None = None,
                        cluster_workers: int | None = None) -> RunResult:
    """Score a workspace run (resuming committed batches) and store its run card and configuration.

    ``workers``: processes scoring its batches (2: a forked helper takes half; the same results).
    ``cluster``: a Ray cluster scores them instead (``"local"``: one started on this machine, else
    its address; ``cluster_workers`` CPU workers, default one per CPU); this process still commits
    every batch, and the run card is the same (:mod:`mteval_gui.scoring.cluster`).

    ``configuration`` (e.g. from :func:`~mteval_gui.app.scoring_config.plan_scoring`) says exactly
    how; without it, the workspace settings with the other arguments on top (the run is scored
    as asked, whatever it was scored with before). One job scores a run at a time: a second one
    raises ``RunBusy`` (a ``StoreError``) naming the first.

    ``replace=False`` (a plan made without ``replace``, as ``mteval score`` and the GUI do) checks
    again once the run is ours: if another job has meanwhile completed the run with another
    configuration, nothing is scored and :class:`~mteval_gui.errors.MtevalError` says what would
    change — a plan made while that job was running must not wipe its results.

    The result's ``run_card`` has no ``results[]``: they are stored (the card's text), and read
    by :func:`~mteval_gui.store.results.load_run_card`; a large run's are not held again.
    """
    from mteval_gui.store.locks import run_lock

    with run_lock(ws, run_id, purpose="scored"):
        if configuration is not None and not replace:
            _require_unchanged(ws, run_id, configuration)
        return _score_workspace_run(ws, run_id, metrics=metrics, exclude=exclude, batch_size=batch_size, seed=seed,
                                    n_bootstrap=n_bootstrap, options=options, params=params, glossary=glossary,
                                    configuration=configuration, on_progress=on_progress, cancel=cancel,
                                    workers=workers, cluster=cluster, cluster_workers=cluster_workers)


def _require_unchanged(ws: Workspace, run_id: str, configuration: ScoringConfiguration) -> None:
    from mteval_gui.app.scoring_config import configuration_changes, stored_configuration

    if not repo.get_run_info(ws, run_id).get("has_run_card"):
        return
    stored = stored_configuration(ws, run_id)
    changes = configuration_changes(stored, configuration) if stored is not None else []
    if changes:
        raise MtevalError(f"{run_id}: another job scored it meanwhile with another configuration; this would change: "
                          f"{'; '.join(changes)}\nnothing was scored: add --replace to score it again that way")


def _score_workspace_run(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None, exclude: Sequence[str],
                         batch_size: int, seed: int, n_bootstrap: int, options: ScoringOptions | None,
                         params: Mapping[str, Any] | None, glossary: str | None,
                         configuration: ScoringConfiguration | None,
                         on_progress: Callable[[Progress], None] | None, cancel: CancelToken | None,
                         workers: int = 1, cluster: str | None = None, cluster_workers: int | None = None) -> RunResult:
    from mteval_gui.store.fst_cache import WorkspaceFstCache

    config = _configuration(ws, run_id, configuration, metrics=metrics, exclude=exclude, batch_size=batch_size,
                            seed=seed, n_bootstrap=n_bootstrap, options=options, params=params, glossary=glossary)
    request = build_request(ws, run_id, configuration=config)
    request.workers = workers
    request.cluster, request.cluster_workers = cluster or None, cluster_workers
    factory = WorkspaceFstCache.factory(ws)
    request.options["fst_cache"] = factory
    sink = _ConfiguredResults(ws, config)
    try:
        result = score_run(request, on_progress=on_progress, cancel=cancel, sink=sink)
    finally:
        factory.flush()
    result.run_card = result.run_card.model_copy(update={"scoring": sink.configuration})
    result.card_json = None  # stored as text: its results[] are not held again (load_run_card reads them)
    _store_statistics(ws, run_id, result)
    return result


def _stored_summary(ws: Workspace, run_id: str) -> RunCard | None:
    """The stored run card without its per-entry ``results`` (what the outcome of a job reports)."""
    data = load_run_card_summary(ws, run_id)
    return None if data is None else RunCard.model_validate(data)


def _store_statistics(ws: Workspace, run_id: str, result: RunResult) -> None:
    """Keep the run's per-entry statistics with its run card (compare reads them, not every
    entry's results); the composite is rebuilt from its inputs, so only the keys' own are kept."""
    from mteval_gui.store.statistics import StoredStatistics, store_run_statistics

    store_run_statistics(ws, run_id, {key: StoredStatistics(st.kind, st.matrix, st.params, st.scale)
                                      for key, st in result.entry_stats.items()})


def score_in_process(ws: Workspace, run_id: str, *, options: ScoringOptions | None = None,
                     configuration: ScoringConfiguration | None = None, replace: bool = True,
                     on_progress: Callable[[Any], None] | None = None, cancel: CancelToken | None = None,
                     **score_kwargs: Any) -> RunCard:
    """:func:`score_workspace_run` in a child process (the runner the GUI uses); returns the stored card.

    ``configuration`` and ``replace`` as for :func:`score_workspace_run`; without it the configuration is made
    here from the settings, ``options`` and ``score_kwargs``. Cancelling the token stops the
    child between batches (:class:`~mteval_gui.errors.Cancelled`).
    """
    from mteval_gui.app.tasks import ProcessJob

    if configuration is None:
        configuration = resolve_configuration(ws, run_id, None, ScoringOverrides.of(options=options, **score_kwargs))
    job = ProcessJob(SCORE_RUNS_TARGET, job_kwargs(ws.path, [(run_id, configuration)], replace=replace))
    job.run(on_progress or (lambda _p: None), lambda _x: None,
            should_cancel=(lambda: cancel.cancelled) if cancel is not None else None)
    card = load_run_card(ws, run_id)
    if card is None:  # pragma: no cover - the child stored it before reporting success
        raise MtevalError(f"the scoring process ended without storing the run card of {run_id}")
    return card


def score_runs_in_process(ws: Workspace, jobs: Sequence[tuple[str, ScoringConfiguration]], *, replace: bool = False,
                          workers: int | None = None, on_progress: Callable[[RunProgress], None] | None = None,
                          on_finished: Callable[[RunOutcome], None] | None = None,
                          cancel: CancelToken | None = None, cluster: str | None = None,
                          cluster_workers: int | None = None) -> list[RunOutcome]:
    """:func:`score_workspace_runs` in one child process (``mteval score --process``, the GUI's
    runner): the same runs, outcomes and order; the child scores the runs side by side on the
    cores (with ``cluster``, one after the other, each run's batches on that Ray cluster).
    Cancelling the token stops the child between batches (the runs not finished then
    ``cancelled``)."""
    from mteval_gui.app.tasks import ProcessJob

    jobs = list(jobs)
    ids = [run_id for run_id, _ in jobs]
    if not jobs:
        return []
    outcomes: dict[str, RunOutcome] = {}
    finished = on_finished or (lambda _o: None)

    def partial(info: Any) -> None:
        run_id = info.get("run_id") if isinstance(info, dict) else None
        if run_id not in ids or run_id in outcomes:
            return
        if info.get("finished"):
            outcome = RunOutcome(run_id, card=_stored_summary(ws, run_id))
        elif "error" in info:
            failure = info.get("failure")
            outcome = RunOutcome.failed(run_id, failure.error if isinstance(failure, runtime.FailedMsg)
                                        else MtevalError(str(info["error"])))
        else:
            return
        outcomes[run_id] = outcome
        finished(outcome)

    job = ProcessJob(SCORE_RUNS_TARGET, job_kwargs(ws.path, jobs, replace=replace, workers=workers, cluster=cluster,
                                                   cluster_workers=cluster_workers))
    try:
        job.run(on_progress or (lambda _p: None), partial,
                should_cancel=(lambda: cancel.cancelled) if cancel is not None else None)
    except Cancelled:
        for run_id in ids:
            if run_id not in outcomes:
                outcomes[run_id] = RunOutcome(run_id, cancelled=True)
                finished(outcomes[run_id])
    except MtevalError as exc:  # a run's error came as a partial result; anything else belongs to every run left
        for run_id in ids:
            if run_id not in outcomes:
                outcomes[run_id] = RunOutcome.failed(run_id, exc)
                finished(outcomes[run_id])
    return [outcomes[r] for r in ids]


# --------------------------------------------------------------------------- several runs (background job target)


@dataclass(frozen=True)
class RunProgress:
    """Progress of one run inside a several-run job."""

    run_id: str
    index: int  # 0-based position of the run in the job
    count: int
    done: int
    total: int
    stage: str
    message: str = ""


def score_runs(db_path: str, run_ids: list[str], options: dict[str, Any] | None = None, *,
               score_kwargs: dict[str, Any] | None = None, configurations: dict[str, Any] | None = None,
               replace: bool = False, workers: int | None = None, cluster: str | None = None,
               cluster_workers: int | None = None, on_progress: Callable[[Any], None],
               on_partial: Callable[[Any], None], cancel_event: Any) -> list[dict[str, Any]]:
    """Score ``run_ids`` (the target of :class:`~mteval_gui.app.tasks.ProcessJob`) on both cores.

    With ``configurations`` (``{run_id: ScoringConfiguration JSON}``, e.g. from
    :meth:`~mteval_gui.app.scoring_config.ScoringPlan.job_kwargs`) each run is scored with its
    own. Without, the runs are planned here by :func:`~mteval_gui.app.scoring_config.plan_scoring`
    — the rule ``mteval score`` follows: unscored, incomplete and stale runs are scored, current
    ones skipped, a change to a scored run's configuration needs ``replace`` (else
    :class:`~mteval_gui.errors.MtevalError` before anything is scored). ``options`` (a
    :class:`ScoringOptions` as JSON) and ``score_kwargs`` (``metrics``, ``exclude``, ``glossary``,
    ``seed``, ``n_bootstrap``, ``batch_size``, ``params``) are the overrides.

    Several runs are scored side by side by :func:`score_workspace_runs` (``workers``
    processes, default both cores); one run gets both cores on its batches; with ``cluster``
    (and ``cluster_workers``) each run's batches are scored on that Ray cluster. Reports
    :class:`RunProgress`; partial results are ``{"run_id", "done", "total"}`` after each
    committed batch, ``{"run_id", "finished": True, "composite", "tier"}`` when a run's card is
    stored, ``{"run_id", "error": message, "failure": FailedMsg}`` for a run that could not be
    scored (the others go on; the job then fails with every run's message, as an error of the
    first failed run's type: :func:`run_failure`) and ``{"run_id", "skipped": True, "message"}``
    for a run left alone. Cancelling stops between batches
    (:class:`~mteval_gui.errors.Cancelled`); stored batches are kept and a rerun resumes.
    """
    from mteval_gui.scoring.parallel import default_workers

    token = CancelToken(cancel_event)
    ws = Workspace(db_path)
    summaries: list[dict[str, Any]] = []
    try:
        if configurations is not None:
            jobs = [(run_id, ScoringConfiguration.model_validate(configurations[run_id])) for run_id in run_ids]
        else:
            overrides = ScoringOverrides.of(options=ScoringOptions(**options) if options else None,
                                            **(score_kwargs or {}))
            plan = plan_scoring(ws, run_ids, overrides, replace=replace)
            plan.require_allowed()
            for p in plan.skipped:
                summary = {"run_id": p.run_id, "skipped": True, "message": p.message}
                on_partial(summary)
                summaries.append(summary)
            jobs = [(p.run_id, p.configuration) for p in plan.to_score]
        workers = default_workers() if workers is None else max(1, int(workers))

        def progress(p: RunProgress) -> None:
            on_progress(p)
            if p.stage == SCORING_STAGE and p.done > 0:
                on_partial({"run_id": p.run_id, "done": p.done, "total": p.total})

        def finished(outcome: RunOutcome) -> None:
            if outcome.card is not None:
                summary: dict[str, Any] = {"run_id": outcome.run_id, "finished": True,
                                           "composite": outcome.card.scores.composite,
                                           "tier": outcome.card.scores.quality_tier}
            elif outcome.error is not None:  # its exception travels as a failure message (its type kept)
                summary = {"run_id": outcome.run_id, "error": outcome.error,
                           "failure": runtime.FailedMsg(outcome.exception or MtevalError(outcome.error),
                                                        outcome.run_id)}
            else:
                return
            on_partial(summary)
            summaries.append(summary)

        if len(jobs) == 1:  # one run: its own errors, unchanged, and both cores on its batches
            run_id, configuration = jobs[0]
            result = score_workspace_run(ws, run_id, configuration=configuration, replace=replace,
                                         on_progress=lambda p: progress(_run_progress(p, run_id, 0, 1)),
                                         cancel=token, workers=workers, cluster=cluster,
                                         cluster_workers=cluster_workers)
            finished(RunOutcome(run_id, card=result.run_card))
            return summaries
        outcomes = score_workspace_runs(ws, jobs, replace=replace, workers=workers, on_progress=progress,
                                        on_finished=finished, cancel=token, cluster=cluster,
                                        cluster_workers=cluster_workers)
        if any(o.cancelled for o in outcomes):
            raise Cancelled("scoring cancelled; committed batches are kept and a rerun resumes")
        failed = [o for o in outcomes if o.error]
        if failed:
            raise run_failure(failed)
    finally:
        ws.close()
    return summaries


def _run_progress(p: Any, run_id: str, index: int, count: int) -> RunProgress:
    return RunProgress(run_id, index, count, int(p.done), int(p.total), str(p.stage),
                       str(getattr(p, "message", "") or ""))


# --------------------------------------------------------------------------- several runs on both cores


@dataclass(frozen=True)
class RunOutcome:
    """How one run of :func:`score_workspace_runs` ended: its stored card without ``results[]``, or why not."""

    run_id: str
    card: RunCard | None = None
    error: str | None = None
    cancelled: bool = False
    exception: MtevalError | None = None  # the error itself (InputError, RunBusy…), its type kept

    @classmethod
    def failed(cls, run_id: str, exc: BaseException) -> RunOutcome:
        error = exc if isinstance(exc, MtevalError) else MtevalError(f"{type(exc).__name__}: {exc}")
        return cls(run_id, error=str(error), exception=error)


def run_failure(failed: Sequence[RunOutcome], *, named: bool = True) -> MtevalError:
    """The error a job raises for its ``failed`` runs, of the type of the first run's error (so
    an :class:`~mteval_gui.errors.InputError` or a ``RunBusy`` stays one, whether one run or
    several were scored): that exception itself for one run when not ``named``, else a copy of
    it whose message names each failed run (``good: …; poor: …``)."""
    first = failed[0].exception or MtevalError(str(failed[0].error))
    if not named and len(failed) == 1:
        return first
    text = "; ".join(f"{o.run_id}: {o.error}" for o in failed)
    cls = type(first)
    named_error = cls.__new__(cls, text)
    named_error.__dict__.update(first.__dict__)
    named_error.args = (text,)
    return named_error


def score_workspace_runs(ws: Workspace, jobs: Sequence[tuple[str, ScoringConfiguration]], *, replace: bool = False,
                         workers: int | None = None, on_progress: Callable[[RunProgress], None] | None = None,
                         on_finished: Callable[[RunOutcome], None] | None = None,
                         cancel: CancelToken | None = None, cluster: str | None = None,
                         cluster_workers: int | None = None) -> list[RunOutcome]:
    """Score several workspace runs — ``(run id, configuration)`` pairs, e.g. a plan's
    ``to_score`` (:func:`~mteval_gui.app.scoring_config.plan_scoring`) — each in one of
    ``workers`` processes (default: both cores when there are two); their outcomes come back
    in the order of ``jobs``.

    Every run is scored exactly as :func:`score_workspace_run` scores it with its configuration
    and ``replace`` (same request, same per-run lock, batches committed one by one, resumable):
    a worker process opens the
    workspace itself and takes the next run when it has finished one, keeping the
    reference-side statistics of the corpus (:mod:`mteval_gui.scoring.corpus_side`) for the
    runs that follow. One run, one worker or no ``fork`` on this system: the runs are scored
    here, one after the other, a single run with both cores on its batches. A run that fails
    (a busy lock, bad settings) is reported in its outcome and the others go on; cancelling
    the token stops every worker between batches (each run then ``cancelled``).

    With ``cluster`` (a Ray address, or ``"local"``) the runs are scored here one after the
    other, the batches of each by the workers of that cluster (``cluster_workers`` CPU workers).
    """
    from mteval_gui.scoring.parallel import can_fork, default_workers

    workers = default_workers() if workers is None else max(1, int(workers))
    jobs = list(jobs)
    cancel = cancel or CancelToken()
    finished = on_finished or (lambda _o: None)
    if cluster:
        return _score_here(ws, jobs, replace, 1, on_progress, finished, cancel, cluster=cluster,
                           cluster_workers=cluster_workers)
    if workers < 2 or len(jobs) < 2 or not can_fork():
        return _score_here(ws, jobs, replace, workers, on_progress, finished, cancel)
    return _score_in_pool(ws, jobs, replace, workers, on_progress, finished, cancel)


def _score_here(ws: Workspace, jobs: list[tuple[str, ScoringConfiguration]], replace: bool, workers: int,
                on_progress: Callable[[RunProgress], None] | None, finished: Callable[[RunOutcome], None],
                cancel: CancelToken, *, cluster: str | None = None,
                cluster_workers: int | None = None) -> list[RunOutcome]:
    ids = [run_id for run_id, _ in jobs]
    outcomes: list[RunOutcome] = []
    for index, (run_id, configuration) in enumerate(jobs):
        def progress(p: Any, run_id: str = run_id, index: int = index) -> None:
            if on_progress is not None:
                on_progress(_run_progress(p, run_id, index, len(ids)))

        try:
            result = score_workspace_run(ws, run_id, configuration=configuration, replace=replace,
                                         on_progress=progress, cancel=cancel, workers=workers if len(ids) == 1 else 1,
                                         cluster=cluster, cluster_workers=cluster_workers)
            outcome = RunOutcome(run_id, card=result.run_card)
        except Cancelled:
            outcome = RunOutcome(run_id, cancelled=True)
        except MtevalError as exc:
            outcome = RunOutcome.failed(run_id, exc)
        outcomes.append(outcome)
        finished(outcome)
        if outcome.cancelled:
            outcomes += [RunOutcome(r, cancelled=True) for r in ids[index + 1:]]
            break
    return outcomes


@contextmanager
def _pool_session(db_path: str) -> Iterator[Workspace]:
    ws = Workspace(db_path)  # a forked worker opens the workspace itself, once for all its runs
    try:
        yield ws
    finally:
        ws.close()


def _score_in_pool(ws: Workspace, jobs: list[tuple[str, ScoringConfiguration]], replace: bool, workers: int,
                   on_progress: Callable[[RunProgress], None] | None, finished: Callable[[RunOutcome], None],
                   cancel: CancelToken) -> list[RunOutcome]:
    """The runs in ``workers`` forked processes (:func:`mteval_gui.runtime.fan_out`); a worker
    whose parent is gone stops after its current batch (the runtime's cancel event)."""
    ids = [run_id for run_id, _ in jobs]

    def work(worker_ws: Workspace, payload: tuple[str, dict[str, Any]], outbox: runtime.Outbox,
             event: runtime.CancelEvent) -> None:
        run_id, configuration = payload
        index = outbox.tag

        def progress(p: Any) -> None:
            outbox.progress(_run_progress(p, run_id, index, len(ids)))

        score_workspace_run(worker_ws, run_id, configuration=ScoringConfiguration.model_validate(configuration),
                            replace=replace, on_progress=progress, cancel=CancelToken(event), workers=1)

    outcomes: dict[int, RunOutcome] = {}

    def on_message(msg: runtime.Message) -> None:
        if isinstance(msg, runtime.ProgressMsg):
            if on_progress is not None:
                on_progress(msg.value)
            return
        if isinstance(msg, runtime.PartialMsg):
            return
        run_id = ids[msg.tag]
        if isinstance(msg, runtime.DoneMsg):
            outcome = RunOutcome(run_id, card=_stored_summary(ws, run_id))
        elif isinstance(msg, runtime.CancelledMsg):
            outcome = RunOutcome(run_id, cancelled=True)
        else:
            outcome = RunOutcome.failed(run_id, msg.error)
        outcomes[msg.tag] = outcome
        finished(outcome)

    runtime.fan_out([(i, (run_id, configuration.model_dump(mode="json"))) for i, (run_id, configuration)
                     in enumerate(jobs)], workers=workers, session=lambda: _pool_session(str(ws.path)), work=work,
                    on_message=on_message, cancelled=lambda: cancel.cancelled, name="mteval-score")
    return [outcomes[i] for i in range(len(ids))]
