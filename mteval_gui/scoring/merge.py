"""Stage 2 of a scoring job: one value per run-card key, its per-entry statistics, and why a
key has no value.

- :func:`merge_scores` — when several metrics produce the same ``scores`` key, a metric the
  language card declares (``evalMetrics``) wins over a built-in while its availability is
  ``ok``; otherwise the first built-in with a value. The others' values stay in their metric rows.
- :func:`producer_statistics` — per-entry statistics (:class:`~mteval_gui.scoring.stats.EntryStats`)
  of the keys, from the metric that supplied each one, used only when they reproduce the corpus
  value. ``load`` gives each metric's per-entry results, so a stored run's statistics can be
  rebuilt the same way.
- :func:`availability_by_key` — availability and reasons by metric id and by key.
- :func:`composite_quantity` — the composite as a function of those statistics (its intervals,
  its breakdowns, paired tests of composites).

:func:`merge` runs the first three on a :class:`~mteval_gui.scoring.job.ScoringJob`. Comparing
stored runs (``mteval_gui.app.compare``) rebuilds statistics with :func:`producer_statistics` and
:func:`composite_quantity`, so a run's intervals and its paired tests agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from numpy.typing import NDArray

from mteval_gui.errors import MtevalError
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring.job import MetricState, ScoringJob, is_number, json_safe
from mteval_gui.scoring.plugins import CorpusScore, EntryScore, Metric, MetricInfo, statistics_of
from mteval_gui.scoring.runcard import AVAILABILITY_KEYS
from mteval_gui.scoring.stats import EntryStats, Quantity


class StatisticsUnavailable(MtevalError):
    """A metric's per-entry results cannot be read (its configuration is not stored…)."""


def merge(job: ScoringJob) -> None:
    """Fill ``job.scores``, ``producers``, ``entry_stats``, ``availability`` and ``reasons``."""
    job.scores, job.producers = merge_scores(job.states, job.corpus_scores)
    states = {s.ref.id: s for s in job.states}

    def load(metric_id: str) -> tuple[Metric, Sequence[EntryScore | None]]:
        st = states[metric_id]
        lst = job.per_entry.get(metric_id)
        if st.metric is None or lst is None:
            raise StatisticsUnavailable("no per-entry results")
        return st.metric, lst

    job.entry_stats, _ = producer_statistics(job.producers, job.producers, job.scores, job.n, load)
    job.availability, job.reasons = availability_by_key(job.states, job.corpus_scores, job.producers, job.scores,
                                                        job.request.exclude)


def merge_scores(states: Sequence[MetricState],
                 corpus_scores: Mapping[str, CorpusScore]) -> tuple[dict[str, Any], dict[str, str]]:
    """(scores key -> value, scores key -> metric id that supplied it), card metrics first."""
    order = sorted(states, key=lambda s: (0 if s.from_card else 1))
    scores: dict[str, Any] = {}
    producers: dict[str, str] = {}
    for st in order:
        cs = corpus_scores.get(st.ref.id)
        if cs is None or not st.usable:
            continue
        for key, v in cs.values.items():
            if key in producers or v is None:
                continue
            scores[key] = json_safe(v)
            producers[key] = st.ref.id
    return scores, producers


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


def metric_statistics(metric: Metric, per_entry: Sequence[EntryScore | None]) -> dict[str, EntryStats]:
    """The metric's own statistics (:class:`~mteval_gui.scoring.plugins.EntryStatistics`) when every
    entry has a result, else the convention."""
    fn = statistics_of(metric)
    complete = [e for e in per_entry if e is not None]
    if fn is not None and len(complete) == len(per_entry):
        return dict(fn(complete))
    return default_entry_statistics(metric.info, per_entry)


def close(a: float | None, b: float | None) -> bool:
    """Equal to 1e-9 (relative to the larger, at least 1)."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def producer_statistics(keys: Iterable[str], producers: Mapping[str, str], scores: Mapping[str, Any], n: int,
                        load: Callable[[str], tuple[Metric, Sequence[EntryScore | None]]],
                        ) -> tuple[dict[str, EntryStats], dict[str, str]]:
    """Per-entry statistics of ``keys`` from the metric that supplied each one (``producers``).

    ``load(metric_id)`` gives the metric and its per-entry results in corpus order; it raises
    :class:`StatisticsUnavailable` (or anything else) when it cannot. Statistics are kept only
    when they cover ``n`` entries and reproduce the key's value in ``scores``. Returns the
    statistics and, for each key left without them, why.
    """
    stats: dict[str, EntryStats] = {}
    problems: dict[str, str] = {}
    cache: dict[str, dict[str, EntryStats]] = {}
    for key in keys:
        mid = producers.get(key)
        value = scores.get(key)
        if mid is None or value is None or not is_number(value):
            continue
        if mid not in cache:
            try:
                metric, lst = load(mid)
                cache[mid] = metric_statistics(metric, lst)
            except StatisticsUnavailable as exc:
                problems[key] = f"{mid}: {exc}"
                cache[mid] = {}
                continue
            except Exception as exc:  # noqa: BLE001 - statistics are optional: the key gets no interval
                problems[key] = f"{mid}: {type(exc).__name__}: {exc}"
                cache[mid] = {}
                continue
        s = cache[mid].get(key)
        if s is None:
            continue
        point = s.point()
        if s.n != n or not close(point, float(value)):
            problems[key] = f"stored per-entry statistics give {point}, the run card says {value}"
            continue
        stats[key] = s
    return stats, problems


def availability_by_key(states: Sequence[MetricState], corpus_scores: Mapping[str, CorpusScore],
                        producers: Mapping[str, str], scores: Mapping[str, Any],
                        excluded: Sequence[str] = ()) -> tuple[dict[str, str], dict[str, str]]:
    """Availability and reasons by metric id and by every reported key (:data:`AVAILABILITY_KEYS`).

    A key takes its supplier's; a key nobody supplied takes the state of the metric that would
    have (the language's own first, and its own reason for that key when it gave one).
    Morphological accuracy below its coverage threshold is ``below_coverage``.
    """
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
            cs = corpus_scores.get(first.ref.id)
            own = cs.reasons.get(key) if cs is not None else None
            reasons[key] = own or first.reason or f"{first.ref.id} produced no value"
        else:
            availability[key] = "unavailable"
            reasons[key] = ("no metric of this scoring job produces it"
                            + (f" (excluded: {', '.join(sorted(excluded))})" if excluded else ""))
    if scores.get("morphological_accuracy") is not None:
        cov = scores.get("morph_coverage")
        if cov is None or float(cov) < comp.MORPH_MIN_COVERAGE:
            availability["morphological_accuracy"] = "below_coverage"
            reasons.setdefault("morphological_accuracy",
                               f"morph_coverage {cov} < {comp.MORPH_MIN_COVERAGE}: reported, not in the composite")
    return availability, reasons


def composite_quantity(profile: str, used: Mapping[str, float], entry_stats: Mapping[str, EntryStats],
                       n: int, weights: Mapping[str, float] | None = None) -> Quantity | None:
    """The composite of ``profile`` as a function of the per-entry statistics of the inputs it
    counts (``used``: key -> value); an input without statistics is a constant. None when the
    composite counts nothing or there are no entries."""
    if not used or n == 0:
        return None
    components: dict[str, EntryStats] = {}
    for key, value in used.items():
        s = entry_stats.get(key)
        components[key] = s if s is not None else EntryStats.mean([value] * n)

    def combine(vals: dict[str, NDArray[Any]]) -> NDArray[Any]:
        return comp.composite_vectorised(vals, profile, weights)

    return Quantity(components, combine)
