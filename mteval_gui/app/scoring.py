"""Scoring and comparing runs of a workspace (shared by the CLI, the demo and the GUI workers).

This module joins the store and the pure scoring core:

- :func:`score_workspace_run` loads the corpus, the run, the language cards, the glossary and
  the review status from the workspace and calls :func:`mteval_gui.scoring.runner.score_run`
  with the workspace sink (:class:`mteval_gui.store.results.ResultsStore`), so results are
  committed per batch and a rerun resumes.
- :func:`score_workspace_run_in_process` does the same in a spawned worker process (its own
  SQLite connection), forwarding progress and cancel through a queue and an event: a long
  sacrebleu or COMET call cannot hold the GUI process's interpreter lock.
- :func:`run_statistics` rebuilds a scored run's per-entry statistics from stored results and
  :func:`compare_workspace_runs` runs paired tests of N runs against a baseline.

The run glossary is the argument ``glossary`` (a glossary id or ``{term: [targets]}``); without
it, the workspace setting ``glossary.<corpus_id>`` names the corpus's glossary, if any. The
workspace settings ``gloss_files``, ``comet_model`` and ``analyzer_paths`` become scoring
options unless the caller passes the same option explicitly.
"""

from __future__ import annotations

import math
import multiprocessing
import queue as queue_mod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.domain.card import MetricRef
from mteval_gui.domain.runcard import Caveat, HumanReview, RunCard
from mteval_gui.errors import MtevalError
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring.plugins import EntryScore, instantiate
from mteval_gui.scoring.runner import (
    DEFAULT_BATCH_SIZE, CancelToken, Progress, RunResult, ScoringCancelled, ScoringRequest, default_entry_statistics,
    score_run,
)
from mteval_gui.scoring.stats import (
    DEFAULT_BOOTSTRAP, DEFAULT_SEED, EntryStats, PairedResult, Quantity, bootstrap_ci, compare_many,
)
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import (
    ResultsStore, entry_scores, load_run_card_dict, replace_run_card, scoring_job,
)

GLOSSARY_SETTING = "glossary.{corpus_id}"
COMPARE_KEYS: tuple[str, ...] = ("chrf_plus_plus", "bleu", "ter", "exact_match_rate", "equivalent_match_rate",
                                 "fst_acceptance_rate", "semantic_score", "comet_score", "composite")


def _review_status(ws: Workspace, run_id: str) -> HumanReview | None:
    try:
        from mteval_gui.app.review import run_review_status
    except ImportError:
        return None
    try:
        d = run_review_status(ws, run_id)
    except MtevalError:
        return None
    return HumanReview(**{k: d.get(k) for k in ("reviewers", "judgments", "agreement", "confirmed") if k in d})


def _glossary(ws: Workspace, corpus_id: str, glossary: str | Mapping[str, Sequence[str]] | None) -> dict[str, list[str]]:
    if isinstance(glossary, Mapping):
        return {str(k): list(v) for k, v in glossary.items()}
    gid = glossary or repo.get_setting(ws, GLOSSARY_SETTING.format(corpus_id=corpus_id))
    if not gid:
        return {}
    return {str(k): list(v) for k, v in repo.get_glossary(ws, str(gid))["terms"].items()}


def settings_options(ws: Workspace, target_lang: str) -> dict[str, Any]:
    """Scoring options from the workspace settings (``gloss_files``, ``comet_model``,
    ``analyzer_paths`` = ``{lang: {kind: path}}`` for the target language)."""
    out: dict[str, Any] = {}
    gloss = repo.get_setting(ws, "gloss_files")
    if gloss:
        out["gloss_files"] = gloss
    comet = repo.get_setting(ws, "comet_model")
    if comet:
        out["comet_model"] = comet
    paths = repo.get_setting(ws, "analyzer_paths") or {}
    mine = paths.get(target_lang) if isinstance(paths, Mapping) else None
    if isinstance(mine, Mapping):
        if mine.get("strict"):
            out["analyzer_path"] = mine["strict"]
        if mine.get("descriptive"):
            out["descriptive_analyzer_path"] = mine["descriptive"]
    return out


def build_request(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                  exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                  n_bootstrap: int = DEFAULT_BOOTSTRAP, options: Mapping[str, Any] | None = None,
                  params: Mapping[str, Any] | None = None,
                  glossary: str | Mapping[str, Sequence[str]] | None = None) -> ScoringRequest:
    """The :class:`ScoringRequest` of a workspace run (nothing is scored yet)."""
    from mteval_gui.cards import load_card_sha256, try_load_card

    run = repo.get_run(ws, run_id)
    corpus = repo.get_corpus(ws, run.corpus_id)
    info = repo.get_corpus_info(ws, run.corpus_id)
    target, source = corpus.language_pair.target, corpus.language_pair.source
    merged = settings_options(ws, target)
    merged.update(options or {})  # the caller's options win over the workspace settings
    card = try_load_card(target)
    card_sha = None
    if card is not None:
        try:
            card_sha = load_card_sha256(target)
        except MtevalError:
            card_sha = None
    return ScoringRequest(
        run_id=run_id, corpus=corpus, run=run, target_card=card, source_card=try_load_card(source),
        glossary=_glossary(ws, run.corpus_id, glossary), include=list(metrics) if metrics else None,
        exclude=tuple(exclude), params=dict(params or {}), options=merged, batch_size=batch_size,
        seed=seed, n_bootstrap=n_bootstrap, card_sha256=card_sha, corpus_sha256=info.get("sha256"),
        human_review=_review_status(ws, run_id),
    )


def score_workspace_run(ws: Workspace, run_id: str, *, metrics: Sequence[str] | None = None,
                        exclude: Sequence[str] = (), batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                        n_bootstrap: int = DEFAULT_BOOTSTRAP, options: Mapping[str, Any] | None = None,
                        params: Mapping[str, Any] | None = None,
                        glossary: str | Mapping[str, Sequence[str]] | None = None,
                        on_progress: Callable[[Progress], None] | None = None,
                        cancel: CancelToken | None = None) -> RunResult:
    """Score a workspace run (resuming committed batches) and store its run card."""
    opts = dict(options or {})
    factory = None
    if "fst_cache" not in opts:
        from mteval_gui.store.fst_cache import WorkspaceFstCache

        factory = WorkspaceFstCache.factory(ws)
        opts["fst_cache"] = factory
    request = build_request(ws, run_id, metrics=metrics, exclude=exclude, batch_size=batch_size, seed=seed,
                            n_bootstrap=n_bootstrap, options=opts, params=params, glossary=glossary)
    try:
        return score_run(request, on_progress=on_progress, cancel=cancel, sink=ResultsStore(ws))
    finally:
        if factory is not None:
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


# --------------------------------------------------------------------------- worker process


def _child(db_path: str, run_id: str, kwargs: dict[str, Any], out: Any, cancel_event: Any) -> None:
    """Entry point of the worker process: score and report through ``out``."""
    ws = Workspace(db_path)
    try:
        def forward(p: Progress) -> None:
            out.put(("progress", (p.done, p.total, p.stage, p.message)))

        result = score_workspace_run(ws, run_id, on_progress=forward, cancel=CancelToken(cancel_event), **kwargs)
        out.put(("done", result.run_card.model_dump(mode="json")))
    except ScoringCancelled as exc:
        out.put(("cancelled", str(exc)))
    except MtevalError as exc:
        out.put(("error", f"{type(exc).__name__}: {exc}"))
    except Exception as exc:  # reported to the parent, which raises it as an MtevalError
        out.put(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        ws.close()


def score_workspace_run_in_process(db_path: str | Path, run_id: str, *,
                                   on_progress: Callable[[Progress], None] | None = None,
                                   cancel: CancelToken | None = None, poll_seconds: float = 0.05,
                                   **kwargs: Any) -> RunCard:
    """:func:`score_workspace_run` in a spawned worker process; returns the run card.

    ``kwargs`` are those of :func:`score_workspace_run` (they must pickle). Cancelling the
    token stops the worker between batches (:class:`ScoringCancelled` is raised here).
    """
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    event = ctx.Event()
    proc = ctx.Process(target=_child, args=(str(db_path), run_id, kwargs, out, event), daemon=True)
    proc.start()
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                event.set()
            try:
                kind, payload = out.get(timeout=poll_seconds)
            except queue_mod.Empty:
                if not proc.is_alive() and out.empty():
                    raise MtevalError(f"the scoring process for {run_id} ended unexpectedly (exit code {proc.exitcode})")
                continue
            if kind == "progress":
                if on_progress is not None:
                    on_progress(Progress(*payload))
            elif kind == "done":
                return RunCard.model_validate(payload)
            elif kind == "cancelled":
                raise ScoringCancelled(payload)
            else:
                raise MtevalError(payload)
    finally:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=5)


# --------------------------------------------------------------------------- statistics of stored runs


@dataclass
class RunStatistics:
    """A scored run's per-entry statistics, rebuilt from stored results."""

    run_id: str
    corpus_id: str
    entry_ids: list[str]
    card: dict[str, Any]
    stats: dict[str, EntryStats]  # scores key -> per-entry statistics
    composite: Quantity | None
    composite_metrics: frozenset[str] = frozenset()
    profile: str | None = None
    problems: dict[str, str] = field(default_factory=dict)

    def quantity(self, key: str) -> Quantity | EntryStats | None:
        return self.composite if key == "composite" else self.stats.get(key)


def run_statistics(ws: Workspace, run_id: str, keys: Sequence[str] = COMPARE_KEYS) -> RunStatistics:
    """Per-entry statistics of a scored run for ``keys`` (checked against the run card's values)."""
    row = ws.conn.execute("SELECT corpus_id FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        raise repo.NotFoundError(f"no run {run_id!r} in the workspace")
    corpus_id = row[0]
    card = load_run_card_dict(ws, run_id)
    if card is None:
        raise MtevalError(f"run {run_id!r} has not been scored yet: run `mteval score {run_id}` first")
    ids = repo.entry_ids(ws, corpus_id)
    job = scoring_job(ws, run_id) or {"config": {"metrics": []}}
    refs = {m["id"]: MetricRef(id=m["id"], python_name=m["python_name"], params=m.get("params") or {})
            for m in job["config"].get("metrics", [])}
    sources: dict[str, str] = card.get("score_sources") or {}
    scores: dict[str, Any] = card.get("scores") or {}
    wanted = set(keys)
    profile = card.get("composite_profile")
    used = {i["metric"] for i in card.get("composite_breakdown") or []}
    if "composite" in wanted:
        wanted |= used
    out: dict[str, EntryStats] = {}
    problems: dict[str, str] = {}
    cache: dict[str, dict[str, EntryStats]] = {}
    for key in sorted(wanted - {"composite"}):
        mid = sources.get(key)
        value = scores.get(key)
        if mid is None or value is None:
            continue
        if mid not in cache:
            ref = refs.get(mid)
            if ref is None:
                problems[key] = f"{mid}: configuration not stored"
                cache[mid] = {}
                continue
            try:
                metric = instantiate(ref)
                stored = entry_scores(ws, run_id, mid)
                lst = [EntryScore.from_json(stored[i]) if i in stored else None for i in ids]
                fn = getattr(metric, "entry_statistics", None)
                cache[mid] = fn(lst) if callable(fn) and None not in lst else default_entry_statistics(metric.info, lst)
            except Exception as exc:  # statistics of one metric are optional
                problems[key] = f"{mid}: {type(exc).__name__}: {exc}"
                cache[mid] = {}
                continue
        st = cache[mid].get(key)
        if st is None:
            continue
        point = st.point()
        if point is None or abs(point - float(value)) > 1e-9 * max(1.0, abs(float(value))):
            problems[key] = f"stored per-entry statistics give {point}, the run card says {value}"
            continue
        out[key] = st
    composite_q = None
    if "composite" in keys and profile and used and scores.get("composite") is not None:
        components = {k: out.get(k) or EntryStats.mean([float(scores[k])] * len(ids)) for k in used}

        def combine(vals: dict[str, Any], _p: str = profile) -> Any:
            return comp.composite_vectorised(vals, _p)

        composite_q = Quantity(components, combine)
    return RunStatistics(run_id, corpus_id, ids, card, out, composite_q, frozenset(used), profile, problems)


@dataclass
class Comparison:
    """N runs against a baseline: per metric, per run, a paired result (and the system's own CI)."""

    baseline: str
    runs: list[str]
    test: str
    trials: int
    seed: int | None
    holm: bool
    metrics: list[str]
    results: dict[str, dict[str, PairedResult]]  # run -> metric -> result
    scores: dict[str, dict[str, tuple[float | None, float | None, float | None]]]  # run -> metric -> (score, lo, hi)
    caveats: list[Caveat] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)


def compare_workspace_runs(ws: Workspace, run_ids: Sequence[str], baseline: str, *, test: str = "ar",
                           trials: int = DEFAULT_BOOTSTRAP, seed: int | None = DEFAULT_SEED, holm: bool = False,
                           keys: Sequence[str] = COMPARE_KEYS) -> Comparison:
    """Paired tests of every run against ``baseline`` on the metrics all of them have."""
    names = [r for r in dict.fromkeys([baseline, *run_ids])]
    stats = {r: run_statistics(ws, r, keys) for r in names}
    base = stats[baseline]
    for r in names:
        if stats[r].corpus_id != base.corpus_id:
            raise MtevalError(f"run {r!r} is on corpus {stats[r].corpus_id!r}, the baseline on {base.corpus_id!r}; "
                              "paired tests need the same corpus")
    skipped: dict[str, str] = {}
    metrics: list[str] = []
    for key in keys:
        if all(stats[r].quantity(key) is not None for r in names):
            if key == "composite" and len({stats[r].composite_metrics for r in names}) > 1:
                skipped[key] = "the runs' composites count different metrics (metric_coverage_differs)"
                continue
            metrics.append(key)
        else:
            missing = [r for r in names if stats[r].quantity(key) is None]
            if len(missing) < len(names):  # some runs have it: say which do not
                shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
                skipped[key] = f"no value or per-entry statistics in {shown}"
    base_q = {k: base.quantity(k) for k in metrics}
    systems = {r: {k: stats[r].quantity(k) for k in metrics} for r in names if r != baseline}
    results = compare_many(base_q, systems, test=test, trials=trials, seed=seed, holm_correction=holm)  # type: ignore[arg-type]
    scores: dict[str, dict[str, tuple[float | None, float | None, float | None]]] = {}
    for r in names:
        scores[r] = {}
        for k in metrics:
            q = stats[r].quantity(k)
            iv = bootstrap_ci(q, n_bootstrap=trials, seed=seed)  # type: ignore[arg-type]
            score = iv.score
            if k == "composite":
                score = stats[r].card["scores"].get("composite")
            scores[r][k] = (score, iv.ci_lower, iv.ci_upper)
    caveats = []
    cov = comp.coverage_differs_caveat({r: stats[r].card for r in names})
    if cov is not None:
        caveats.append(cov)
    return Comparison(baseline, [r for r in names if r != baseline], test, trials, seed, holm, metrics, results,
                      scores, caveats, skipped)


def is_finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(float(v))
