"""Statistics over per-entry sufficient statistics, vectorised with numpy (SPEC §7, LYSS §8).

Every corpus quantity the application reports is a function of *summed* per-entry
statistics:

- ``mean``/``ratio``: Σ num / Σ den (a mean has den = 1 per scored entry, 0 otherwise);
- ``chrf``: sacrebleu's chrF f-score of the summed [hyp, ref, match] n-gram counts;
- ``bleu``: sacrebleu's BLEU of the summed [sys_len, ref_len, correct…, total…] counts;
- ``ter``: Σ edits / Σ reference length.

An :class:`EntryStats` holds an ``(n_entries, d)`` matrix and knows how to turn summed rows
into values. A resample (bootstrap) or a shuffle (approximate randomisation) is then a
weight matrix ``W`` of shape ``(k, n_entries)``: ``W @ matrix`` gives the ``k`` resampled
sums in one BLAS call, and the finaliser turns them into ``k`` values. Nothing re-runs
sacrebleu per resample; the finalisers mirror sacrebleu's arithmetic operation for
operation, so a point estimate equals sacrebleu's corpus score.

A :class:`Quantity` combines several named ``EntryStats`` (the composite is one), so the
composite's confidence interval is the interval of the displayed composite, recomputed
from the same resampled entries.

Conventions: percentile bootstrap (numpy ``percentile``, linear), ``B = 1000``,
``α = 0.05``, seeded with ``numpy.random.default_rng(seed)``. Paired tests count
``statistic ≥ observed`` (so a run compared with itself gets ``p = 1``) and report
``p = (count + 1) / (trials + 1)``.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

DEFAULT_BOOTSTRAP = 1000
DEFAULT_ALPHA = 0.05
DEFAULT_SEED = 12345
MIN_TIER_ENTRIES = 5
RELIABLE_TIER_ENTRIES = 30
_CHUNK_CELLS = 2_000_000  # rows * entries per weight chunk (bounds memory for large corpora)
_BLEU_LOG_FLOOR = -9999999999.0  # sacrebleu.utils.my_log(0)

StatKind = Literal["ratio", "chrf", "bleu", "ter"]


# --------------------------------------------------------------------------- finalisers


def _ratio(sums: NDArray[Any], scale: float) -> NDArray[Any]:
    num, den = sums[:, 0], sums[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out * scale if scale != 1.0 else out


def chrf_from_sums(sums: NDArray[Any], *, char_order: int = 6, word_order: int = 2, beta: float = 2,
                   eps_smoothing: bool = False) -> NDArray[Any]:
    """chrF of summed statistics, row-wise; mirrors ``sacrebleu.CHRF._compute_f_score``."""
    sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
    k = sums.shape[0]
    order = char_order + word_order
    eps = 1e-16
    factor = beta ** 2
    score = np.zeros(k)
    avg_prec = np.zeros(k)
    avg_rec = np.zeros(k)
    effective = np.zeros(k)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = sums[:, 3 * i], sums[:, 3 * i + 1], sums[:, 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1.0), eps)
            rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1.0), eps)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / np.where(denom > 0, denom, 1.0), eps)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = avg_prec + np.where(both, prec, 0.0)
            avg_rec = avg_rec + np.where(both, rec, 0.0)
            effective = effective + both
        if eps_smoothing:
            return 100 * score / order
        has = effective > 0
        avg_prec = np.where(has, avg_prec / np.where(has, effective, 1.0), 0.0)
        avg_rec = np.where(has, avg_rec / np.where(has, effective, 1.0), 0.0)
        nonzero = (avg_prec + avg_rec) != 0
        top = (1 + factor) * avg_prec * avg_rec
        bottom = (factor * avg_prec) + avg_rec
        out = np.where(nonzero, top / np.where(nonzero, bottom, 1.0), 0.0)
    return np.where(nonzero, 100 * out, 0.0)


def bleu_from_sums(sums: NDArray[Any], *, max_ngram_order: int = 4, smooth_method: str = "exp",
                   smooth_value: float | None = None, effective_order: bool = False) -> NDArray[Any]:
    """BLEU of summed statistics, row-wise; mirrors ``sacrebleu.BLEU.compute_bleu``.

    Columns: ``[sys_len, ref_len, correct_1..N, total_1..N]``.
    """
    sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
    n_order = max_ngram_order
    k = sums.shape[0]
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    correct = sums[:, 2:2 + n_order].copy()
    total = sums[:, 2 + n_order:2 + 2 * n_order].copy()
    if smooth_value is None:
        smooth_value = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}[smooth_method]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(sys_len < ref_len,
                      np.where(sys_len > 0, np.exp(1 - ref_len / np.where(sys_len > 0, sys_len, 1.0)), 0.0),
                      1.0)
        any_correct = (correct != 0).any(axis=1)
        precisions = np.zeros((k, n_order))
        smooth_mteval = np.ones(k)
        alive = np.ones(k, dtype=bool)
        eff_order = np.full(k, n_order, dtype=np.int64) if not effective_order else np.zeros(k, dtype=np.int64)
        for n in range(n_order):
            if smooth_method == "add-k" and n > 0:
                correct[:, n] += smooth_value
                total[:, n] += smooth_value
            alive = alive & (total[:, n] != 0)
            if effective_order:
                eff_order = np.where(alive, n + 1, eff_order)
            c, t = correct[:, n], np.where(total[:, n] != 0, total[:, n], 1.0)
            zero = alive & (c == 0)
            if smooth_method == "exp":
                smooth_mteval = np.where(zero, smooth_mteval * 2, smooth_mteval)
                precisions[:, n] = np.where(zero, 100.0 / (smooth_mteval * t), precisions[:, n])
            elif smooth_method == "floor" and smooth_value is not None:  # 0.1 unless given
                precisions[:, n] = np.where(zero, 100.0 * smooth_value / t, precisions[:, n])
            precisions[:, n] = np.where(alive & (c != 0), 100.0 * c / t, precisions[:, n])
        logs = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1.0)), _BLEU_LOG_FLOOR)
        if effective_order:
            mask = np.arange(n_order)[None, :] < eff_order[:, None]
            denom = np.where(eff_order > 0, eff_order, 1)
            mean_log = np.where(mask, logs, 0.0).sum(axis=1) / denom
        else:
            mean_log = logs.sum(axis=1) / n_order
        score = bp * np.exp(mean_log)
    return np.where(any_correct, score, 0.0)


def ter_from_sums(sums: NDArray[Any]) -> NDArray[Any]:
    """TER of summed ``[edits, reference length]``; mirrors ``sacrebleu.TER._compute_score_from_stats``."""
    sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
    edits, ref_len = sums[:, 0], sums[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(ref_len > 0, edits / np.where(ref_len > 0, ref_len, 1.0),
                         np.where(edits > 0, 1.0, 0.0))
    return 100 * score


# --------------------------------------------------------------------------- entry statistics


@dataclass(frozen=True)
class EntryStats:
    """Per-entry sufficient statistics of one corpus value: a ``(n_entries, d)`` matrix.

    Rows of entries that do not take part (no reference, no terms…) are all zero.
    ``taking_part`` says which entries take part when an all-zero row may belong to one
    (an empty hypothesis against an empty reference: sacrebleu scores such a corpus 0, not
    "no entry"); without it, the entries with a non-zero row take part.
    """

    kind: StatKind
    matrix: NDArray[Any]
    params: tuple[tuple[str, Any], ...] = ()
    scale: float = 1.0
    taking_part: NDArray[Any] | None = None

    @property
    def n(self) -> int:
        return int(self.matrix.shape[0])

    def finalise(self, sums: NDArray[Any]) -> NDArray[Any]:
        p = dict(self.params)
        if self.kind == "ratio":
            return _ratio(np.atleast_2d(sums), self.scale)
        if self.kind == "chrf":
            return chrf_from_sums(sums, **p)
        if self.kind == "bleu":
            return bleu_from_sums(sums, **p)
        if self.kind == "ter":
            return ter_from_sums(sums)
        raise ValueError(f"unknown statistic kind {self.kind!r}")

    def point(self) -> float | None:
        """The corpus value (all entries once)."""
        v = float(self.finalise(self.matrix.sum(axis=0, keepdims=True))[0])
        return None if math.isnan(v) else v

    def subset(self, mask: NDArray[Any]) -> EntryStats:
        part = self.taking_part[mask] if self.taking_part is not None else None
        return EntryStats(self.kind, self.matrix[mask], self.params, self.scale, part)

    def entries_scored(self) -> int:
        """Entries that take part (``taking_part``, else a non-zero row)."""
        if self.taking_part is not None:
            return int(self.taking_part.sum())
        if self.kind == "ratio":
            return int((self.matrix[:, 1] > 0).sum())
        return int(self.matrix.any(axis=1).sum())

    @staticmethod
    def mean(values: Sequence[float | None], scale: float = 1.0) -> EntryStats:
        """Mean over non-null values (null entries do not take part)."""
        m = np.zeros((len(values), 2))
        for i, v in enumerate(values):
            if v is not None and not (isinstance(v, float) and math.isnan(v)):
                m[i, 0] = float(v)
                m[i, 1] = 1.0
        return EntryStats("ratio", m, (), scale)

    @staticmethod
    def ratio(num: Sequence[float], den: Sequence[float], scale: float = 1.0) -> EntryStats:
        m = np.column_stack([np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)])
        return EntryStats("ratio", m.reshape(len(num), 2), (), scale)

    @staticmethod
    def rows(kind: StatKind, rows: Sequence[Sequence[float] | None], width: int, **params: Any) -> EntryStats:
        m = np.zeros((len(rows), width))
        part = np.zeros(len(rows), dtype=bool)
        for i, r in enumerate(rows):
            if r is not None:
                m[i, :] = r
                part[i] = True
        return EntryStats(kind, m, tuple(sorted(params.items())), taking_part=part)


@dataclass
class Quantity:
    """A corpus value computed from one or several named :class:`EntryStats`.

    ``combine`` receives ``{name: values (k,)}`` of each component and returns ``(k,)``
    values; without it the quantity is its single component.
    """

    components: dict[str, EntryStats]
    combine: Callable[[dict[str, NDArray[Any]]], NDArray[Any]] | None = None

    def __post_init__(self) -> None:
        ns = {c.n for c in self.components.values()}
        if len(ns) > 1:
            raise ValueError(f"components have different entry counts: {sorted(ns)}")

    @property
    def n(self) -> int:
        return next(iter(self.components.values())).n if self.components else 0

    def evaluate_sums(self, sums: Mapping[str, NDArray[Any]]) -> NDArray[Any]:
        vals = {name: st.finalise(sums[name]) for name, st in self.components.items()}
        if self.combine is None:
            (only,) = vals.values()
            return only
        return self.combine(vals)

    def evaluate(self, weights: NDArray[Any]) -> NDArray[Any]:
        return self.evaluate_sums({name: weights @ st.matrix for name, st in self.components.items()})

    def point(self) -> float | None:
        v = float(self.evaluate_sums({n: st.matrix.sum(axis=0, keepdims=True) for n, st in self.components.items()})[0])
        return None if math.isnan(v) else v

    def subset(self, mask: NDArray[Any]) -> Quantity:
        return Quantity({n: st.subset(mask) for n, st in self.components.items()}, self.combine)

    @staticmethod
    def of(stats: EntryStats) -> Quantity:
        return Quantity({"value": stats})


# --------------------------------------------------------------------------- resampling


def _as_quantity(q: Quantity | EntryStats) -> Quantity:
    return q if isinstance(q, Quantity) else Quantity.of(q)


def _chunks(total: int, n: int) -> Iterator[int]:
    per = max(1, _CHUNK_CELLS // max(1, n))
    done = 0
    while done < total:
        k = min(per, total - done)
        yield k
        done += k


def resample_weights(rng: np.random.Generator, k: int, n: int) -> NDArray[Any]:
    """``k`` bootstrap resamples of ``n`` entries as a count matrix ``(k, n)``."""
    idx = rng.integers(0, n, size=(k, n))
    w = np.empty((k, n), dtype=np.float64)
    for i in range(k):  # row by row: the bins stay in cache (twice as fast as one flat bincount)
        w[i] = np.bincount(idx[i], minlength=n)
    return w


_CACHE_CELLS = 4_000_000  # weight matrices up to this size are kept for reuse (same seed, size)
_CACHE_SLOTS = 4
_weight_cache: OrderedDict[tuple[str, int, int, int], list[NDArray[Any]]] = OrderedDict()
_cache_lock = threading.Lock()


def weight_chunks(kind: str, seed: int | None, total: int, n: int) -> Iterator[NDArray[Any]]:
    """The weight matrices of ``total`` resamples (``kind="bootstrap"``: counts) or swaps
    (``kind="swap"``: 0/1) of ``n`` entries, in chunks, reproducible from ``seed``.

    Small ones are cached: comparing many runs and metrics with one seed reuses the same
    resamples (paired tests need exactly that) without drawing them again.
    """
    key = (kind, int(seed), total, n) if seed is not None else None
    if key is not None:
        with _cache_lock:
            hit = _weight_cache.get(key)
            if hit is not None:
                _weight_cache.move_to_end(key)
        if hit is not None:
            yield from hit
            return
    rng = np.random.default_rng(seed)
    made: list[NDArray[Any]] = []
    cache = key is not None and total * n <= _CACHE_CELLS
    for k in _chunks(total, n):
        if kind == "bootstrap":
            w = resample_weights(rng, k, n)
        else:
            bits = np.unpackbits(rng.integers(0, 256, size=(k, (n + 7) // 8), dtype=np.uint8), axis=1)
            w = bits[:, :n].astype(np.float64)
        if cache:
            made.append(w)
        yield w
    if cache:
        with _cache_lock:
            _weight_cache[key] = made  # type: ignore[index]
            while len(_weight_cache) > _CACHE_SLOTS:
                _weight_cache.popitem(last=False)


def draw_weights(kind: str, seed: int | None, total: int, n: int) -> None:
    """Draw and cache the resamples :func:`weight_chunks` will give, ahead of their first use
    (the scoring process does this while its helper scores batches); nothing when they would not
    be cached (no seed, or more than :data:`_CACHE_CELLS` cells): they would be drawn twice."""
    if seed is None or total * n > _CACHE_CELLS:
        return
    for _ in weight_chunks(kind, seed, total, n):
        pass


def bootstrap_values(q: Quantity | EntryStats, *, n_bootstrap: int = DEFAULT_BOOTSTRAP,
                     seed: int | None = DEFAULT_SEED) -> NDArray[Any]:
    """The quantity on ``n_bootstrap`` resamples (in order, reproducible from ``seed``)."""
    q = _as_quantity(q)
    out = [q.evaluate(w) for w in weight_chunks("bootstrap", seed, n_bootstrap, q.n)]
    return np.concatenate(out) if out else np.zeros(0)


@dataclass
class Interval:
    """A percentile bootstrap interval around a point estimate."""

    score: float | None
    ci_lower: float | None
    ci_upper: float | None
    n_bootstrap: int
    confidence_level: float
    n_entries: int
    seed: int | None
    unreliable: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "score": self.score, "ci_lower": self.ci_lower, "ci_upper": self.ci_upper,
            "n_bootstrap": self.n_bootstrap, "confidence_level": self.confidence_level,
            "n_entries": self.n_entries, "seed": self.seed, "unreliable": self.unreliable,
        }


def _percentiles(values: NDArray[Any], alpha: float) -> tuple[float | None, float | None]:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return None, None
    lo, hi = np.percentile(finite, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(lo), float(hi)


def interval_of(values: NDArray[Any], alpha: float = DEFAULT_ALPHA) -> tuple[float | None, float | None]:
    """The percentile interval of resampled values (what :func:`bootstrap_ci` reports)."""
    return _percentiles(values, alpha)


def bootstrap_ci(q: Quantity | EntryStats, *, n_bootstrap: int = DEFAULT_BOOTSTRAP,
                 alpha: float = DEFAULT_ALPHA, seed: int | None = DEFAULT_SEED,
                 n_entries: int | None = None) -> Interval:
    """Percentile bootstrap CI; ``score`` is the corpus value (the point estimate)."""
    q = _as_quantity(q)
    point = q.point()
    vals = bootstrap_values(q, n_bootstrap=n_bootstrap, seed=seed)
    lo, hi = _percentiles(vals, alpha)
    return Interval(point, lo, hi, n_bootstrap, 1 - alpha, q.n if n_entries is None else n_entries, seed)


def by_group_ci(
    q: Quantity | EntryStats,
    groups: Sequence[Any],
    *,
    n_bootstrap: int = DEFAULT_BOOTSTRAP,
    alpha: float = DEFAULT_ALPHA,
    seed: int | None = DEFAULT_SEED,
    min_entries: int = MIN_TIER_ENTRIES,
    reliable_entries: int = RELIABLE_TIER_ENTRIES,
) -> dict[str, Interval]:
    """CIs per group label (e.g. difficulty tier) with ≥ ``min_entries`` entries.

    A group is ``unreliable`` below ``reliable_entries`` entries.
    """
    q = _as_quantity(q)
    labels = np.array(["" if g is None else str(g) for g in groups], dtype=object)
    out: dict[str, Interval] = {}
    for label in sorted({str(g) for g in groups if g is not None}, key=_natural_key):
        mask = labels == label
        count = int(mask.sum())
        if count < min_entries:
            continue
        ci = bootstrap_ci(q.subset(mask), n_bootstrap=n_bootstrap, alpha=alpha, seed=seed, n_entries=count)
        ci.unreliable = count < reliable_entries
        out[label] = ci
    return out


def _natural_key(s: str) -> tuple[int, Any]:
    try:
        return (0, float(s))
    except ValueError:
        return (1, s)


# --------------------------------------------------------------------------- paired tests


@dataclass
class PairedResult:
    """Result of comparing system B against baseline A on the same entries."""

    metric: str
    test: str
    baseline_score: float | None
    system_score: float | None
    delta: float | None  # system - baseline
    p_value: float | None
    trials: int
    ci_lower: float | None  # CI of the difference (paired bootstrap)
    ci_upper: float | None
    seed: int | None
    n_entries: int
    p_adjusted: float | None = None
    system_ci: tuple[float | None, float | None] = (None, None)
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric, "test": self.test, "baseline_score": self.baseline_score,
            "system_score": self.system_score, "delta": self.delta, "p_value": self.p_value,
            "p_adjusted": self.p_adjusted, "trials": self.trials, "ci_lower": self.ci_lower,
            "ci_upper": self.ci_upper, "seed": self.seed, "n_entries": self.n_entries,
            "system_ci_lower": self.system_ci[0], "system_ci_upper": self.system_ci[1],
        }


def _tolerance(*values: float | None) -> float:
    m = max((abs(v) for v in values if v is not None and math.isfinite(v)), default=1.0)
    return 1e-9 * max(1.0, m)


def paired_test(baseline: Quantity | EntryStats, system: Quantity | EntryStats, *, test: str = "ar",
                trials: int = DEFAULT_BOOTSTRAP, seed: int | None = DEFAULT_SEED, alpha: float = DEFAULT_ALPHA,
                metric: str = "", deltas: NDArray[Any] | None = None) -> PairedResult:
    """Paired significance test of ``system`` against ``baseline`` (entries aligned row by row).

    ``test="ar"``: approximate randomisation, swapping each entry's two outputs with
    probability ½ per trial; statistic |A − B|. ``test="bootstrap"``: paired bootstrap
    (Koehn 2004 as in sacrebleu: the resampled |difference| centred on its mean). Both
    report the CI of ``system − baseline`` from a paired bootstrap with the same seed.

    ``deltas``: ``system − baseline`` on those ``trials`` bootstrap resamples when the caller has
    them already (each side's :func:`bootstrap_values` with the same seed: the same resamples),
    so that comparing many systems resamples every system once instead of once per pair.
    """
    a, b = _as_quantity(baseline), _as_quantity(system)
    if a.n != b.n:
        raise ValueError(f"paired test needs aligned entries: {a.n} vs {b.n}")
    if set(a.components) != set(b.components):
        raise ValueError("paired test needs the same components on both sides")
    n = a.n
    score_a, score_b = a.point(), b.point()
    if score_a is None or score_b is None:
        return PairedResult(metric, test, score_a, score_b, None, None, 0, None, None, seed, n)
    observed = abs(score_b - score_a)
    tol = _tolerance(score_a, score_b)
    count = 0
    if test == "ar":
        tot_a = {c: st.matrix.sum(axis=0, keepdims=True) for c, st in a.components.items()}
        tot_b = {c: st.matrix.sum(axis=0, keepdims=True) for c, st in b.components.items()}
        diff = {c: a.components[c].matrix - b.components[c].matrix for c in a.components}
        for swap in weight_chunks("swap", seed, trials, n):
            sums_a, sums_b = {}, {}
            for c in a.components:
                # pseudo-A takes B's statistics where swapped, pseudo-B takes A's
                moved = swap @ diff[c]
                sums_a[c] = tot_a[c] - moved
                sums_b[c] = tot_b[c] + moved
            stat = np.abs(a.evaluate_sums(sums_a) - b.evaluate_sums(sums_b))
            count += int(np.sum(stat >= observed - tol))
    elif test in ("bootstrap", "bs"):
        test = "bootstrap"
        if deltas is None:
            deltas = _paired_deltas(a, b, seed, trials)
        finite = deltas[np.isfinite(deltas)]
        absd = np.abs(finite)
        centred = absd - absd.mean() if absd.size else absd
        count = int(np.sum(centred >= observed - tol))
    else:
        raise ValueError(f"unknown test {test!r} (use 'ar' or 'bootstrap')")
    p = (count + 1) / (trials + 1)
    if deltas is None:
        deltas = _paired_deltas(a, b, seed, trials)
    lo, hi = _percentiles(deltas, alpha)
    return PairedResult(metric, test, score_a, score_b, score_b - score_a, p, trials, lo, hi, seed, n)


def _paired_deltas(a: Quantity, b: Quantity, seed: int | None, trials: int) -> NDArray[Any]:
    """``b − a`` on the same bootstrap resamples (one matrix product per component for both)."""
    stacked = {c: np.hstack([a.components[c].matrix, b.components[c].matrix]) for c in a.components}
    widths = {c: a.components[c].matrix.shape[1] for c in a.components}
    out = []
    for w in weight_chunks("bootstrap", seed, trials, a.n):
        sums = {c: w @ m for c, m in stacked.items()}
        va = a.evaluate_sums({c: sm[:, :widths[c]] for c, sm in sums.items()})
        vb = b.evaluate_sums({c: sm[:, widths[c]:] for c, sm in sums.items()})
        out.append(vb - va)
    return np.concatenate(out) if out else np.zeros(0)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm–Bonferroni adjusted p-values (step-down, monotone, capped at 1); ``None`` kept."""
    idx = [i for i, p in enumerate(p_values) if p is not None]
    m = len(idx)
    order = sorted(idx, key=lambda i: p_values[i])  # type: ignore[arg-type, return-value]
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        adj = min(1.0, (m - rank) * float(p_values[i]))  # type: ignore[arg-type]
        running = max(running, adj)
        out[i] = running
    return out


def compare_many(
    baseline: Mapping[str, Quantity | EntryStats],
    systems: Mapping[str, Mapping[str, Quantity | EntryStats]],
    *,
    test: str = "ar",
    trials: int = DEFAULT_BOOTSTRAP,
    seed: int | None = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    holm_correction: bool = False,
    resampled: Mapping[str, Mapping[str, NDArray[Any]]] | None = None,
    baseline_resampled: Mapping[str, NDArray[Any]] | None = None,
) -> dict[str, dict[str, PairedResult]]:
    """Every system against the baseline, per metric; Holm correction per metric over systems.

    ``resampled`` / ``baseline_resampled``: each quantity's :func:`bootstrap_values` (same trials and
    seed) when the caller has them (its own intervals need them too): the differences' intervals
    are then taken from them instead of resampling each pair again."""
    out: dict[str, dict[str, PairedResult]] = {}
    for name, metrics in systems.items():
        out[name] = {}
        for metric, q in metrics.items():
            if metric not in baseline:
                continue
            deltas = None
            if resampled is not None and baseline_resampled is not None and metric in baseline_resampled \
                    and metric in resampled.get(name, {}):
                deltas = resampled[name][metric] - baseline_resampled[metric]
            out[name][metric] = paired_test(baseline[metric], q, test=test, trials=trials, seed=seed,
                                            alpha=alpha, metric=metric, deltas=deltas)
    if holm_correction:
        apply_holm(out)
    return out


def apply_holm(results: Mapping[str, Mapping[str, PairedResult]]) -> None:
    """Set ``p_adjusted``: Holm correction per metric over the systems of ``{system: {metric: result}}``."""
    metrics_all = {m for r in results.values() for m in r}
    for metric in metrics_all:
        names = [n for n in results if metric in results[n]]
        adj = holm([results[n][metric].p_value for n in names])
        for n, p in zip(names, adj, strict=True):
            results[n][metric].p_adjusted = p
