"""Comparing scored runs: per-entry statistics rebuilt from stored results, paired tests.

:func:`run_statistics` rebuilds a scored run's per-entry statistics from the stored results
(checked against the run card's values) and :func:`compare_workspace_runs` runs paired tests
of N runs against a baseline (approximate randomisation or paired bootstrap, optional Holm),
with each system's own interval. The CLI (``mteval compare``) and the GUI's Compare tab both
call it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteval_gui.domain.card import MetricRef
from mteval_gui.domain.runcard import Caveat
from mteval_gui.domain.score_keys import lower_is_better, ranked
from mteval_gui.errors import MtevalError
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring.merge import StatisticsUnavailable, close, composite_quantity, producer_statistics
from mteval_gui.scoring.plugins import EntryScore, Metric, instantiate
from mteval_gui.scoring.stats import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    EntryStats,
    PairedResult,
    Quantity,
    apply_holm,
    bootstrap_values,
    compare_many,
    interval_of,
)
from mteval_gui.standards import class_ref_problem
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import entry_scores_many, load_run_card_summary, scoring_job
from mteval_gui.store.statistics import load_run_statistics

COMPARE_KEYS: tuple[str, ...] = ranked("compare")  # compared by default (mteval_gui.domain.score_keys)
SIGNIFICANT = 0.05  # a difference from the baseline is significant below this p-value (Holm-corrected when asked)
LOWER_IS_BETTER = lower_is_better()



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

    def present(self, key: str) -> Quantity | EntryStats:
        """The quantity of a key the run is known to have (KeyError otherwise)."""
        q = self.quantity(key)
        if q is None:
            raise KeyError(key)
        return q


_CACHE_SIZE = 64  # runs whose statistics are kept (a 1,563-entry run: a few hundred kilobytes)
_cache: OrderedDict[tuple[Any, ...], RunStatistics] = OrderedDict()
_cache_lock = threading.Lock()


def _stamp(ws: Workspace, run_id: str) -> tuple[Any, ...]:
    """What identifies a run's stored scores: rescoring changes it."""
    info = repo.get_run_info(ws, run_id)
    return (str(ws.path), run_id, info.get("corpus_id"), info.get("scored_at"), info.get("status"))


def run_statistics(ws: Workspace, run_id: str, keys: Sequence[str] = COMPARE_KEYS) -> RunStatistics:
    """Per-entry statistics of a scored run for ``keys`` (checked against the run card's values).

    Kept in memory per workspace and run until the run is scored again, so comparing the same runs
    against another baseline or with another test reads nothing twice."""
    key = (*_stamp(ws, run_id), tuple(keys))
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    stats = _run_statistics(ws, run_id, keys)
    with _cache_lock:
        _cache[key] = stats
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return stats


def _run_statistics(ws: Workspace, run_id: str, keys: Sequence[str]) -> RunStatistics:
    info = repo.get_run_info(ws, run_id)
    corpus_id = info["corpus_id"]
    card = load_run_card_summary(ws, run_id)
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
    inputs = [i["metric"] for i in card.get("composite_breakdown") or []]  # in the profile's order, as scored
    used = set(inputs)
    if "composite" in wanted:
        wanted |= used
    # the statistics stored when the run was scored, where they still give the card's values;
    # the other keys' are rebuilt from the entries' stored results
    kept: dict[str, EntryStats] = {}
    for key, st in load_run_statistics(ws, run_id, info.get("scored_at")).items():
        value = scores.get(key)
        if key in wanted and value is not None and st.matrix.shape[0] == len(ids):
            stats = EntryStats(st.kind, st.matrix, st.params, st.scale)  # type: ignore[arg-type]
            point = stats.point()
            if point is not None and close(point, float(value)):
                kept[key] = stats
    rest = sorted(wanted - {"composite"} - set(kept))
    needed = [sources[k] for k in rest if sources.get(k) in refs and scores.get(k) is not None]
    stored_all = entry_scores_many(ws, run_id, needed)  # one query and one JSON parse for every metric

    def load(mid: str) -> tuple[Metric, list[EntryScore | None]]:
        """The stored run's metric (as configured when it was scored) and its per-entry results."""
        ref = refs.get(mid)
        if ref is None:
            raise StatisticsUnavailable("configuration not stored")
        refused = class_ref_problem(ref.python_name)  # the workspace is data: import only what is installed
        if refused is not None:
            raise StatisticsUnavailable(f"python_name {refused}")
        stored = stored_all.get(mid, {})
        return instantiate(ref), [None if (d := stored.get(i)) is None else EntryScore.from_json(d) for i in ids]

    rebuilt, problems = producer_statistics(rest, sources, scores, len(ids), load)
    out = {k: kept[k] if k in kept else rebuilt[k] for k in sorted({*kept, *rebuilt})}
    composite_q = None
    if "composite" in keys and profile and used and scores.get("composite") is not None:
        calibrated = card.get("composite_calibration")  # scored with a language card's calibrated weights
        weights = dict(calibrated["weights"]) if isinstance(calibrated, dict) else None
        composite_q = composite_quantity(profile, {k: float(scores[k]) for k in inputs}, out, len(ids), weights)
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


def shown_p(c: Comparison, run_id: str, key: str) -> float | None:
    """The p-value of ``run_id`` against the baseline on ``key`` (Holm-corrected when the comparison is);
    None for the baseline."""
    res = c.results.get(run_id, {}).get(key)
    if res is None:
        return None
    return res.p_adjusted if c.holm and res.p_adjusted is not None else res.p_value


def significance(c: Comparison, run_id: str, key: str) -> str | None:
    """``better`` or ``worse`` when ``run_id`` differs significantly from the baseline on ``key``
    (p below :data:`SIGNIFICANT`, in the metric's direction), else None (and for the baseline)."""
    res = c.results.get(run_id, {}).get(key)
    p = shown_p(c, run_id, key)
    if res is None or p is None or res.delta is None or p >= SIGNIFICANT or res.delta == 0:
        return None
    better = res.delta < 0 if key in LOWER_IS_BETTER else res.delta > 0
    return "better" if better else "worse"


SHORT_SEGMENTS_REASON = "short segments"


def short_segments_reason(cards: dict[str, dict[str, Any]]) -> str | None:
    """Why BLEU is left out when one of the runs' cards has the caveat ``short_segments`` (None otherwise)."""
    for run_id, card in cards.items():
        cav = comp.has_short_segments(card)
        if cav is not None:
            median = cav.detail.get("median_reference_tokens")
            return (f"{SHORT_SEGMENTS_REASON}: the median reference of {run_id} has {median:g} "
                    f"token{'s' if median != 1 else ''} "
                    f"(< {comp.SHORT_SEGMENT_TOKENS}), where BLEU's 4-grams hardly exist and BLEU says little")
    return None


def _report(on_progress: Callable[[int, int, str], None] | None, done: int, total: int, stage: str) -> None:
    if on_progress is not None:
        on_progress(done, total, stage)


@dataclass(frozen=True)
class CompareOptions:
    """How runs are compared: the paired test (``ar``: approximate randomisation, or ``bootstrap``),
    its trials and seed, Holm's correction, the run-card keys compared, and whether BLEU is kept on
    short segments."""

    test: str = "ar"
    trials: int = DEFAULT_BOOTSTRAP
    seed: int | None = DEFAULT_SEED
    holm: bool = False
    keys: tuple[str, ...] = COMPARE_KEYS
    short_bleu: bool = False


def compare_workspace_runs(ws: Workspace, run_ids: Sequence[str], baseline: str, options: CompareOptions | None = None,
                           *, on_progress: Callable[[int, int, str], None] | None = None) -> Comparison:
    """Paired tests of every run against ``baseline`` on the metrics all of them have.

    BLEU is left out (with the reason in ``skipped``) when a run has the caveat ``short_segments``,
    unless ``short_bleu`` is true. ``on_progress(done, total, stage)`` is called as the runs are read
    and tested (the GUI shows it).
    """
    o = options or CompareOptions()
    test, trials, seed, holm, keys = o.test, o.trials, o.seed, o.holm, o.keys
    names = list(dict.fromkeys([baseline, *run_ids]))
    stats = {}
    for i, r in enumerate(names):
        stats[r] = run_statistics(ws, r, keys)
        _report(on_progress, i + 1, len(names), "reading the runs")
    base = stats[baseline]
    for r in names:
        if stats[r].corpus_id != base.corpus_id:
            raise MtevalError(f"run {r!r} is on corpus {stats[r].corpus_id!r}, the baseline on {base.corpus_id!r}; "
                              "paired tests need the same corpus")
    skipped: dict[str, str] = {}
    metrics: list[str] = []
    short = None if o.short_bleu else short_segments_reason({r: stats[r].card for r in names})
    for key in keys:
        if key == "bleu" and short is not None:
            skipped[key] = short
            continue
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
    # every system is resampled once per metric; its interval and the intervals of its differences
    # from the baseline come from those same resamples (the seed fixes them)
    done, total = 0, (2 * len(names) - 1) * len(metrics)
    resampled: dict[str, dict[str, np.ndarray]] = {}
    scores: dict[str, dict[str, tuple[float | None, float | None, float | None]]] = {}
    for r in names:
        resampled[r], scores[r] = {}, {}
        for k in metrics:
            q = stats[r].present(k)
            vals = bootstrap_values(q, n_bootstrap=trials, seed=seed)
            resampled[r][k] = vals
            lo, hi = interval_of(vals)
            score = stats[r].card["scores"].get("composite") if k == "composite" else q.point()
            scores[r][k] = (score, lo, hi)
            done += 1
            _report(on_progress, done, total, "intervals")
    base_q = {k: base.present(k) for k in metrics}
    systems = {r: {k: stats[r].present(k) for k in metrics} for r in names if r != baseline}
    results: dict[str, dict[str, PairedResult]] = {}
    for r, qs in systems.items():  # one system at a time, for the progress
        results.update(compare_many(base_q, {r: qs}, test=test, trials=trials, seed=seed,
                                    resampled={r: resampled[r]}, baseline_resampled=resampled[baseline]))
        done += len(metrics)
        _report(on_progress, done, total, "paired tests")
    if holm:
        apply_holm(results)
    caveats = []
    cov = comp.coverage_differs_caveat({r: stats[r].card for r in names})
    if cov is not None:
        caveats.append(cov)
    return Comparison(baseline, [r for r in names if r != baseline], test, trials, seed, holm, metrics, results,
                      scores, caveats, skipped)

