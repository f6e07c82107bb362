"""Scoring workspace runs: requests, jobs, and the one background runner (CLI and GUI alike).

This module joins the store and the pure scoring core:

- :func:`build_request` loads the corpus, the run, the language cards, the glossary and the
  review status from the workspace; the options are the workspace settings
  (:func:`mteval_gui.app.settings.scoring_options_for`) with the caller's overrides on top,
  so the CLI and the GUI score a workspace the same way.
- :func:`score_workspace_run` calls :func:`mteval_gui.scoring.runner.score_run` with the
  workspace sink (:class:`mteval_gui.store.results.ResultsStore`): results are committed per
  batch and a rerun resumes.
- :func:`score_runs` scores several runs one after the other; it is the target of the one
  background runner, :class:`mteval_gui.app.tasks.ProcessJob` (``SCORE_RUNS_TARGET``), used
  by ``mteval score --process`` and by the GUI: a long sacrebleu or HFST call holding the
  interpreter lock in the child cannot stall the caller.
- :func:`refresh_review_status` brings a scored run's ``human_review`` block and displayed
  tier up to date without rescoring.

The run glossary is the argument ``glossary`` (a glossary id or ``{term: [targets]}``);
without it the corpus's glossary from the settings (``glossaries``), if any.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Corpus
from mteval_gui.domain.run import Run
from mteval_gui.domain.runcard import HumanReview, RunCard
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import CardError, MtevalError
from mteval_gui.scoring import composite as comp
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
from mteval_gui.store.results import ResultsStore, load_run_card, load_run_card_dict, replace_run_card

SCORE_RUNS_TARGET = "mteval_gui.app.scoring:score_runs"
__all__ = ["CancelToken", "Progress", "RunResult", "SCORE_RUNS_TARGET", "RunProgress", "make_request",
           "build_request", "score_workspace_run", "score_in_process", "score_runs", "refresh_review_status",
           "partial_rescore_problem"]
SCORING_STAGE = "scoring"


def _review_status(ws: Workspace, run_id: str) -> HumanReview | None:
    from mteval_gui.app.review import run_review_status

    try:
        d = run_review_status(ws, run_id)
    except MtevalError:
        return None
    return HumanReview(**{k: v for k, v in d.items() if k in HumanReview.model_fields})


def _glossary(ws: Workspace, corpus_id: str, glossary: str | Mapping[str, Sequence[str]] | None) -> dict[str, list[str]]:
    from mteval_gui.app.settings import load_settings

    if isinstance(glossary, Mapping):
        return {str(k): list(v) for k, v in glossary.items()}
    gid = glossary or load_settings(ws).glossaries.get(corpus_id)
    if not gid:
        return {}
    return {str(k): list(v) for k, v in repo.get_glossary(ws, str(gid))["terms"].items()}


def _language_card(corpus_id: str, side: str, code: str) -> tuple[LanguageCard | None, str | None]:
    """(card, sha256) of a corpus language; (None, None) when no card exists (generic scoring).

    A code that is not ISO 639-3 and a card that exists but has problems are refused
    (:class:`CardError`): scoring never goes on with a card it silently dropped.
    """
    from mteval_gui.cards import card_info, code_problem

    problem = code_problem(code)
    if problem is not None:
        raise CardError(f"corpus {corpus_id!r}: {side} {problem}; no language card is looked up for it")
    try:
        info = card_info(code)
    except CardError:
        return None, None
    if info.card is None or not info.ok:
        raise CardError(f"the {side} language card cannot be used (fix it or remove it; `mteval cards validate`)",
                        card=str(info.path), problems=list(info.problems))
    return info.card, info.sha256


def make_request(corpus: Corpus, run: Run, *, corpus_sha256: str | None, options: ScoringOptions,
                 glossary: Mapping[str, Sequence[str]] | None = None, metrics: Sequence[str] | None = None,
                 exclude: Sequence[str] = (), params: Mapping[str, Any] | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                 n_bootstrap: int = DEFAULT_BOOTSTRAP, human_review: HumanReview | None = None) -> ScoringRequest:
    """The :class:`ScoringRequest` of a run on a corpus: the language cards of both sides (and the
    target card's sha256), the options in the form metrics read them. Workspace runs and one-shot
    evaluations are both built here."""
    target, source = corpus.language_pair.target, corpus.language_pair.source
    card, card_sha = _language_card(corpus.corpus_id, "target", target)
    source_card, _ = _language_card(corpus.corpus_id, "source", source)
    return ScoringRequest(
        run_id=run.meta.run_id, corpus=corpus, run=run, target_card=card, source_card=source_card,
        glossary={str(k): list(v) for k, v in (glossary or {}).items()}, include=list(metrics) if metrics else None,
        exclude=tuple(exclude), params=dict(params or {}), options=options.to_context(), batch_size=batch_size,
        seed=seed, n_bootstrap=n_bootstrap, card_sha256=card_sha, corpus_sha256=corpus_sha256,
        human_review=human_review,
    )


def build_request(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                  exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                  n_bootstrap: int = DEFAULT_BOOTSTRAP, options: ScoringOptions | None = None,
                  params: Mapping[str, Any] | None = None,
                  glossary: str | Mapping[str, Sequence[str]] | None = None) -> ScoringRequest:
    """The :class:`ScoringRequest` of a workspace run (nothing is scored yet).

    ``options`` are overrides: the fields the caller set win over the workspace settings.
    """
    from mteval_gui.app.settings import scoring_options_for

    run = repo.get_run(ws, run_id)
    corpus = repo.get_corpus(ws, run.corpus_id)
    info = repo.get_corpus_info(ws, run.corpus_id)
    request = make_request(
        corpus, run, corpus_sha256=info.get("sha256"),
        options=scoring_options_for(ws, corpus.language_pair.target, options),
        glossary=_glossary(ws, run.corpus_id, glossary), metrics=metrics, exclude=exclude, params=params,
        batch_size=batch_size, seed=seed, n_bootstrap=n_bootstrap, human_review=_review_status(ws, run_id))
    request.run_id = run_id
    from mteval_gui.store.versions import speaker_variants

    request.speaker_variants = speaker_variants(ws, run.corpus_id)
    return request


def score_workspace_run(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                        exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                        n_bootstrap: int = DEFAULT_BOOTSTRAP, options: ScoringOptions | None = None,
                        params: Mapping[str, Any] | None = None,
                        glossary: str | Mapping[str, Sequence[str]] | None = None,
                        on_progress: Callable[[Progress], None] | None = None,
                        cancel: CancelToken | None = None) -> RunResult:
    """Score a workspace run (resuming committed batches) and store its run card.

    One job scores a run at a time: a second one raises ``RunBusy`` (a ``StoreError``) naming the first.
    """
    from mteval_gui.store.locks import run_lock

    with run_lock(ws, run_id, purpose="scored"):
        return _score_workspace_run(ws, run_id, metrics=metrics, exclude=exclude, batch_size=batch_size, seed=seed,
                                    n_bootstrap=n_bootstrap, options=options, params=params, glossary=glossary,
                                    on_progress=on_progress, cancel=cancel)


def _score_workspace_run(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None, exclude: Sequence[str],
                         batch_size: int, seed: int, n_bootstrap: int, options: ScoringOptions | None,
                         params: Mapping[str, Any] | None, glossary: str | Mapping[str, Sequence[str]] | None,
                         on_progress: Callable[[Progress], None] | None, cancel: CancelToken | None) -> RunResult:
    from mteval_gui.store.fst_cache import WorkspaceFstCache

    request = build_request(ws, run_id, metrics=metrics, exclude=exclude, batch_size=batch_size, seed=seed,
                            n_bootstrap=n_bootstrap, options=options, params=params, glossary=glossary)
    factory = WorkspaceFstCache.factory(ws)
    request.options["fst_cache"] = factory
    try:
        return score_run(request, on_progress=on_progress, cancel=cancel, sink=ResultsStore(ws))
    finally:
        factory.flush()


def refresh_review_status(ws: Workspace, run_id: str) -> RunCard | None:
    """Update a scored run's card with the current speaker-review status (after judgments or a
    sign-off) without rescoring: ``human_review`` and the displayed tier. None if never scored."""
    card = load_run_card_dict(ws, run_id)
    if card is None:
        return None
    review = _review_status(ws, run_id)
    if review is not None:
        card["human_review"] = review.model_dump(mode="json")
        scores = card.setdefault("scores", {})
        scores["quality_tier_display"] = comp.tier_display(scores.get("quality_tier"), review.confirmed)
        replace_run_card(ws, run_id, card)
    return RunCard.model_validate(card)


def partial_rescore_problem(ws: Workspace, run_ids: Sequence[str], metrics: Sequence[str] | None) -> str | None:
    """Why scoring only ``metrics`` would drop other scores of an already scored run (None: it would not)."""
    if not metrics:
        return None
    wanted = set(metrics)
    for run_id in run_ids:
        card = load_run_card(ws, run_id)
        if card is None:
            continue
        others = sorted(m for m, a in card.metric_availability.items() if "." in m and a == "ok" and m not in wanted)
        if others:
            return (f"run {run_id} is already scored with {len(others)} other metric(s) ({', '.join(others[:6])}"
                    f"{', …' if len(others) > 6 else ''}); --metrics would keep only {', '.join(sorted(wanted))}")
    return None


def score_in_process(ws: Workspace, run_id: str, *, options: ScoringOptions | None = None,
                     on_progress: Callable[[Any], None] | None = None, cancel: CancelToken | None = None,
                     **score_kwargs: Any) -> RunCard:
    """:func:`score_workspace_run` in a child process (the runner the GUI uses); returns the stored card.

    Cancelling the token stops the child between batches (:class:`~mteval_gui.errors.Cancelled`).
    """
    from mteval_gui.app.tasks import ProcessJob

    job = ProcessJob(SCORE_RUNS_TARGET, {
        "db_path": str(ws.path), "run_ids": [run_id],
        "options": options.model_dump(mode="json", exclude_unset=True) if options is not None else None,
        "score_kwargs": score_kwargs})
    job.run(on_progress or (lambda _p: None), lambda _x: None,
            should_cancel=(lambda: cancel.cancelled) if cancel is not None else None)
    card = load_run_card(ws, run_id)
    if card is None:  # pragma: no cover - the child stored it before reporting success
        raise MtevalError(f"the scoring process ended without storing the run card of {run_id}")
    return card


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
               score_kwargs: dict[str, Any] | None = None,
               on_progress: Callable[[Any], None], on_partial: Callable[[Any], None],
               cancel_event: Any) -> list[dict[str, Any]]:
    """Score ``run_ids`` one after the other (the target of :class:`~mteval_gui.app.tasks.ProcessJob`).

    Reports :class:`RunProgress`; partial results are ``{"run_id", "done", "total"}`` after each
    committed batch and ``{"run_id", "finished": True, "composite", "tier"}`` when a
    run's card is stored. ``options`` is a :class:`ScoringOptions` as JSON (overrides of the
    workspace settings); ``score_kwargs`` the other arguments of :func:`score_workspace_run`.
    Cancelling stops between batches (:class:`~mteval_gui.errors.Cancelled`); stored batches
    are kept and a rerun resumes.
    """
    token = CancelToken(cancel_event)
    ws = Workspace(db_path)
    overrides = ScoringOptions(**options) if options else None
    summaries: list[dict[str, Any]] = []
    try:
        for index, run_id in enumerate(run_ids):
            def progress(p: Any, run_id: str = run_id, index: int = index) -> None:
                on_progress(RunProgress(run_id, index, len(run_ids), int(p.done), int(p.total), str(p.stage),
                                        str(getattr(p, "message", "") or "")))
                if p.stage == SCORING_STAGE and p.done > 0:
                    on_partial({"run_id": run_id, "done": int(p.done), "total": int(p.total)})

            result = score_workspace_run(ws, run_id, options=overrides, on_progress=progress, cancel=token,
                                         **(score_kwargs or {}))
            card = result.run_card
            summary = {"run_id": run_id, "finished": True, "composite": card.scores.composite,
                       "tier": card.scores.quality_tier}
            on_partial(summary)
            summaries.append(summary)
    finally:
        ws.close()
    return summaries
