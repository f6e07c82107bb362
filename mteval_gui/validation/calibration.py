"""Calibrating the composite to speakers' ratings: weights, tier thresholds, their evidence (numpy only).

Plain data in, plain data out (the application layer reads the workspace). The inputs are:

- per item (a run's output for one entry) the composite inputs normalised to [0, 1] (1 = perfect),
  as the composite counts them;
- speakers' scores of the items on [0, 1]: a judgment's direct ESA score ``esa_score / 100`` when
  it has one, else its task A rating ``(r − 1) / 4`` with ``r`` the mean of its adequacy and fluency
  (either alone when only one is given). An item's human score is the mean over its raters.

**Weights.** The composite is ``c = Σ w_k x_k`` with ``w ≥ 0`` and ``Σ w = 1``. The speakers'
score is modelled as ``y = a + b·c + noise``: with ``β = b·w`` this is a least-squares fit with a
free intercept and non-negative slopes (the inputs and the score centred on their means, then
Lawson–Hanson NNLS), and ``w = β / Σ β``. When every ``β`` is 0 (no input rises with the
ratings) there are no weights. Inputs constant over the rated items carry no information (their
weight would only move ``a``): they are left out of the fit and listed. The interval of each
weight is the percentile bootstrap (95 %) over **entries**: an entry is drawn with all the runs'
outputs of it, and the whole fit is done again.

**Tiers.** A tier means what speakers see at its floor (LYSS §5), read on the task A scale as the
sign-off rules read it (:mod:`mteval_gui.domain.signoff`): *fluent* at a mean rating of 4
(adequacy "most", fluency "good"), *deployable* 3, *functional* 2, *emerging* 1.5 (half-way from
"none" to "little": "some correct patterns"). On the [0, 1] scale these are 0.75, 0.5, 0.25 and
0.125 (:data:`TIER_LEVELS`). The rule: fit ``y = a + b·c`` by least squares over the rated items
(``c`` the calibrated composite); a tier's threshold is the composite where the fitted line
reaches the tier's level, ``(level − a) / b``, clamped to [0, 1] and rounded to 4 places; with
``b ≤ 0`` there are no thresholds. A threshold outside the range of composites the speakers
rated is marked ``extrapolated``. Each threshold has a bootstrap interval from the same
resamples as the weights. *baseline* stays at 0.

**Cross-validation.** Entries are split into ``k`` folds (seeded); the weights fitted on the
other folds give each held-out item its composite. Kendall τ-b and Spearman ρ of these
out-of-fold composites against the human scores (with bootstrap intervals) are compared with
those of the seed weights (renormalised over the same inputs, as the composite does).

**Evidence** (:data:`EVIDENCE_RULES`): calibration is refused with fewer than 30 rated items with
every input, fewer than 2 raters, or agreement α (interval, over the raters' scores) that cannot
be computed or is below 0.4; it warns below 200 items rated by 3 or more raters (the study's
target), with fewer than 3 raters, or with α below 0.667 (Krippendorff's lowest limit for
tentative conclusions).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteval_gui.errors import MtevalError
from mteval_gui.validation.agreement import alpha_with_ci
from mteval_gui.validation.correlation import CorrelationResult, correlation_with_ci

Item = tuple[str, str]  # (run_id, entry_id)

TIER_LEVELS: dict[str, float] = {"fluent": 0.75, "deployable": 0.5, "functional": 0.25, "emerging": 0.125}
TIER_RATINGS: dict[str, float] = {"fluent": 4.0, "deployable": 3.0, "functional": 2.0, "emerging": 1.5}
ROUND = 4
DEFAULT_FOLDS = 5
DEFAULT_BOOTSTRAP = 1000
DEFAULT_SEED = 12345
CONFIDENCE = 0.95


@dataclass(frozen=True)
class EvidenceRules:
    """How much evidence calibration needs (refuse below ``min_*``, warn below ``warn_*``)."""

    min_items: int = 30
    min_raters: int = 2
    min_alpha: float = 0.4
    warn_items: int = 200  # items rated by warn_raters_per_item raters or more
    warn_raters_per_item: int = 3
    warn_raters: int = 3
    warn_alpha: float = 0.667


EVIDENCE_RULES = EvidenceRules()


class CalibrationRefused(MtevalError):
    """The evidence does not allow a calibration; ``reasons`` say why."""

    def __init__(self, reasons: Sequence[str], evidence: Mapping[str, object] | None = None) -> None:
        super().__init__("calibration refused: " + "; ".join(reasons))
        self.reasons = list(reasons)
        self.evidence = dict(evidence or {})


@dataclass(frozen=True)
class HumanScore:
    """One rater's score of one item on [0, 1] (see the module docstring)."""

    run_id: str
    entry_id: str
    rater: str
    value: float
    source: str = "task_a"  # or "esa"

    @property
    def item(self) -> Item:
        return (self.run_id, self.entry_id)


def task_a_score(adequacy: int | None, fluency: int | None) -> float | None:
    """A task A rating on [0, 1]: ``(r − 1) / 4`` of the mean of adequacy and fluency (or the one given)."""
    given = [float(v) for v in (adequacy, fluency) if v is not None]
    if not given:
        return None
    return (sum(given) / len(given) - 1.0) / 4.0


def esa_direct_score(esa: float) -> float:
    """A direct ESA score (0–100) on [0, 1]."""
    return min(1.0, max(0.0, float(esa) / 100.0))


# --------------------------------------------------------------------------- the fitter


def nnls(a: np.ndarray, b: np.ndarray, *, max_iter: int | None = None) -> np.ndarray:
    """Non-negative least squares ``min ‖A x − b‖, x ≥ 0`` (Lawson and Hanson 1974, on the normal equations)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n = a.shape[1]
    ata = a.T @ a
    atb = a.T @ b
    return _nnls_normal(ata, atb, max_iter=max_iter or 3 * n + 10)


def _nnls_normal(ata: np.ndarray, atb: np.ndarray, *, max_iter: int) -> np.ndarray:
    n = ata.shape[0]
    x = np.zeros(n)
    passive = np.zeros(n, dtype=bool)
    scale = float(np.abs(ata).sum(axis=0).max()) if n else 0.0
    tol = 10.0 * np.finfo(float).eps * max(scale, 1.0) * n
    grad = atb - ata @ x
    for _ in range(max_iter):
        free = ~passive & (grad > tol)
        if not free.any():
            break
        passive[int(np.argmax(np.where(~passive, grad, -np.inf)))] = True
        while True:
            s = np.zeros(n)
            p = np.flatnonzero(passive)
            s[p] = np.linalg.lstsq(ata[np.ix_(p, p)], atb[p], rcond=None)[0]
            if (s[p] > tol).all():
                break
            bad = passive & (s <= tol)
            alpha = float(np.min(x[bad] / np.where(x[bad] - s[bad] != 0, x[bad] - s[bad], np.inf)))
            x = x + alpha * (s - x)
            passive &= x > tol
            x[~passive] = 0.0
            if not passive.any():
                s = np.zeros(n)
                break
        x = s
        grad = atb - ata @ x
    return np.maximum(x, 0.0)


def fit_weights(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """Weights on the simplex of ``y ≈ a + b · x w`` (b > 0); None when no input rises with ``y``."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    xc = x - x.mean(axis=0)
    yc = y - y.mean()
    beta = nnls(xc, yc)
    total = float(beta.sum())
    if not total > 1e-12:
        return None
    return beta / total


def line_fit(c: np.ndarray, y: np.ndarray) -> tuple[float, float] | None:
    """Least-squares ``(a, b)`` of ``y = a + b c``; None when ``c`` is constant."""
    c = np.asarray(c, dtype=float)
    y = np.asarray(y, dtype=float)
    dc = c - c.mean()
    sxx = float(dc @ dc)
    if sxx <= 0:
        return None
    b = float(dc @ (y - y.mean())) / sxx
    return float(y.mean() - b * c.mean()), b


def tier_thresholds(a: float, b: float, levels: Mapping[str, float] = TIER_LEVELS) -> dict[str, float] | None:
    """The composite where ``a + b c`` reaches each tier's level, clamped to [0, 1] (None when b ≤ 0)."""
    if not b > 0:
        return None
    return {tier: round(min(1.0, max(0.0, (level - a) / b)), ROUND) for tier, level in levels.items()}


def tier_of(value: float | None, thresholds: Mapping[str, float]) -> str:
    """The tier of a composite under ``thresholds`` (highest tier whose threshold it reaches)."""
    if value is None:
        return "unscored"
    for tier, t in sorted(thresholds.items(), key=lambda kv: -kv[1]):
        if value >= t:
            return tier
    return "baseline"


# --------------------------------------------------------------------------- the study


@dataclass
class Calibration:
    """What :func:`calibrate` found (see the module docstring)."""

    profile: str  # the seed profile the inputs come from
    keys: list[str]  # the inputs fitted, in profile order
    weights: dict[str, float]
    weights_ci: dict[str, tuple[float, float]]
    seed_weights: dict[str, float]  # the seed profile's, renormalised over ``keys``
    thresholds: dict[str, float]
    thresholds_ci: dict[str, tuple[float, float]]
    extrapolated: list[str]
    line: tuple[float, float]  # (a, b) of the human score on the calibrated composite
    kendall: dict[str, CorrelationResult]  # "seed", "calibrated" (cross-validated)
    spearman: dict[str, CorrelationResult]
    evidence: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)  # input -> why it is not fitted
    # the warnings as (code, values): few_items (items, target), few_raters (raters, target), low_alpha (alpha, target)
    warning_codes: list[tuple[str, tuple[float, float]]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        def corr(c: CorrelationResult) -> dict[str, object]:
            return {"value": c.value, "ci": [c.ci_lower, c.ci_upper], "n": c.n}

        return {
            "weights": dict(self.weights),
            "weights_ci": {k: list(v) for k, v in self.weights_ci.items()},
            "tiers": {"thresholds": dict(self.thresholds),
                      "thresholds_ci": {k: list(v) for k, v in self.thresholds_ci.items()},
                      "extrapolated": list(self.extrapolated),
                      "rule": "composite where a + b·composite reaches the tier's level",
                      "levels": dict(TIER_RATINGS), "line": {"a": self.line[0], "b": self.line[1]}},
            "tau_b": {"seed": self.kendall["seed"].value, "calibrated": self.kendall["calibrated"].value},
            "evidence": {**self.evidence,
                         "profile": self.profile, "seed_weights": dict(self.seed_weights),
                         "tau_b": {k: corr(v) for k, v in self.kendall.items()},
                         "spearman": {k: corr(v) for k, v in self.spearman.items()},
                         "warnings": list(self.warnings), "left_out": dict(self.left_out)},
        }


def item_scores(scores: Sequence[HumanScore], excluded: Mapping[str, str] | None = None
                ) -> tuple[dict[Item, dict[str, float]], dict[str, str]]:
    """``{item: {rater: score}}`` of the raters not excluded (a rater's last score of an item wins),
    and the excluded raters that had scores, with why."""
    skip = dict(excluded or {})
    out: dict[Item, dict[str, float]] = defaultdict(dict)
    left: dict[str, str] = {}
    for s in scores:
        if s.rater in skip:
            left[s.rater] = skip[s.rater]
            continue
        out[s.item][s.rater] = float(s.value)
    return dict(out), left


def _folds(groups: np.ndarray, k: int, seed: int) -> np.ndarray:
    """A fold number per item; the items of one entry share a fold."""
    uniq = np.unique(groups)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(uniq))
    fold_of = {g: int(i % k) for i, g in zip(range(len(uniq)), uniq[order], strict=True)}
    return np.array([fold_of[g] for g in groups])


def _resamples(groups: np.ndarray, n_bootstrap: int, seed: int) -> list[np.ndarray]:
    """Bootstrap resamples of items drawn by entry (every item of a drawn entry)."""
    uniq, inverse = np.unique(groups, return_inverse=True)
    members = [np.flatnonzero(inverse == g) for g in range(len(uniq))]
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(uniq), size=(n_bootstrap, len(uniq)))
    return [np.concatenate([members[g] for g in row]) for row in draws]


def _ci(samples: list[float]) -> tuple[float, float] | None:
    arr = np.asarray([s for s in samples if np.isfinite(s)])
    if arr.size == 0:
        return None
    tail = (1.0 - CONFIDENCE) / 2.0 * 100.0
    lo, hi = np.percentile(arr, [tail, 100.0 - tail])
    return round(float(lo), ROUND), round(float(hi), ROUND)


def calibrate(
    inputs: Mapping[Item, Mapping[str, float]],
    scores: Sequence[HumanScore],
    seed_profile: Mapping[str, float],
    *,
    profile: str = "",
    excluded_raters: Mapping[str, str] | None = None,
    rules: EvidenceRules = EVIDENCE_RULES,
    n_bootstrap: int = DEFAULT_BOOTSTRAP,
    folds: int = DEFAULT_FOLDS,
    seed: int = DEFAULT_SEED,
) -> Calibration:
    """Fit weights and tier thresholds to the speakers' scores (see the module docstring).

    ``inputs``: per item the normalised composite inputs it has (keys of ``seed_profile``);
    ``excluded_raters``: rater id -> why their scores do not count (quality control).
    Raises :class:`CalibrationRefused` below the evidence ``rules``."""
    per_item, left_raters = item_scores(scores, excluded_raters)
    keys_all = [k for k in seed_profile if any(k in v for v in inputs.values())]
    rated = sorted(i for i in per_item if i in inputs)
    # the inputs: those present for at least 80 % of the rated items; items lacking one are dropped
    left_out: dict[str, str] = {}
    keys = []
    for k in keys_all:
        have = sum(1 for i in rated if np.isfinite(inputs[i].get(k, np.nan)))
        if rated and have >= 0.8 * len(rated):
            keys.append(k)
        else:
            left_out[k] = f"a value for only {have} of {len(rated)} rated items"
    items = [i for i in rated if all(np.isfinite(inputs[i].get(k, np.nan)) for k in keys)]
    x = np.array([[float(inputs[i][k]) for k in keys] for i in items]).reshape(len(items), len(keys))
    constant = [k for j, k in enumerate(keys) if len(items) and float(np.ptp(x[:, j])) == 0.0]
    for k in constant:
        left_out[k] = "the same value for every rated item"
    keep = [j for j, k in enumerate(keys) if k not in constant]
    keys = [keys[j] for j in keep]
    x = x[:, keep]
    y = np.array([float(np.mean(list(per_item[i].values()))) for i in items])
    raters = sorted({r for i in items for r in per_item[i]})
    # α on a grid of 0.005 (task A scores are multiples of 0.125, direct ESA scores of 0.01): the
    # coincidence matrix has at most 201 values, however finely scores are given
    units = [[round(v * 200.0) / 200.0 for v in per_item[i].values()] for i in items]
    alpha = alpha_with_ci(units, "interval", n_bootstrap=min(n_bootstrap, 1000), seed=seed) if items else None
    at_target = sum(1 for i in items if len(per_item[i]) >= rules.warn_raters_per_item)
    sources = sorted({s.source for s in scores if s.item in set(items) and s.rater not in (excluded_raters or {})})
    evidence: dict[str, Any] = {
        "items": len(items), "entries": len({e for _, e in items}), "runs": sorted({r for r, _ in items}),
        "ratings": int(sum(len(per_item[i]) for i in items)), "raters": len(raters), "rater_ids": raters,
        "items_at_target": at_target, "alpha": None if alpha is None else alpha.alpha,
        "alpha_ci": None if alpha is None else [alpha.ci_lower, alpha.ci_upper],
        "score_sources": sources, "excluded_raters": dict(sorted(left_raters.items())),
        "n_bootstrap": n_bootstrap, "folds": folds, "seed": seed,
        "rules": {"min_items": rules.min_items, "min_raters": rules.min_raters, "min_alpha": rules.min_alpha,
                  "warn_items": rules.warn_items, "warn_raters_per_item": rules.warn_raters_per_item,
                  "warn_raters": rules.warn_raters, "warn_alpha": rules.warn_alpha},
    }
    refusals = []
    if len(items) < rules.min_items:
        refusals.append(f"{len(items)} rated items with every composite input (at least {rules.min_items} needed)")
    if len(raters) < rules.min_raters:
        refusals.append(f"{len(raters)} rater{'s' if len(raters) != 1 else ''} (at least {rules.min_raters} needed)")
    a_val = None if alpha is None else alpha.alpha
    if a_val is None:
        refusals.append("agreement α cannot be computed (no item has two ratings, or every rating is the same)")
    elif a_val < rules.min_alpha:
        refusals.append(f"agreement α {a_val:.3f} is below {rules.min_alpha}")
    if len(keys) < 2:
        refusals.append(f"{len(keys)} composite input{'s' if len(keys) != 1 else ''} vary over the rated items "
                        "(at least 2 needed to weigh them)")
    if refusals:
        raise CalibrationRefused(refusals, evidence)
    warnings = []
    codes: list[tuple[str, tuple[float, float]]] = []
    if at_target < rules.warn_items:
        warnings.append(f"{at_target} items rated by {rules.warn_raters_per_item}+ raters "
                        f"(the study's target is {rules.warn_items}): the intervals are wide")
        codes.append(("few_items", (at_target, rules.warn_items)))
    if len(raters) < rules.warn_raters:
        warnings.append(f"only {len(raters)} raters (fewer than {rules.warn_raters})")
        codes.append(("few_raters", (len(raters), rules.warn_raters)))
    if a_val is not None and a_val < rules.warn_alpha:
        warnings.append(f"agreement α {a_val:.3f} is below {rules.warn_alpha}: conclusions are tentative")
        codes.append(("low_alpha", (a_val, rules.warn_alpha)))
    w = fit_weights(x, y)
    if w is None:
        raise CalibrationRefused(["no composite input rises with the speakers' scores: no weights can be fitted"],
                                 evidence)
    c = x @ w
    line = line_fit(c, y)
    thresholds = tier_thresholds(*line) if line is not None else None
    if line is None or thresholds is None:
        raise CalibrationRefused(["the speakers' scores do not rise with the calibrated composite: no tiers"],
                                 evidence)
    extrapolated = [t for t, v in thresholds.items() if not float(c.min()) <= v <= float(c.max())]
    groups = np.array([e for _, e in items])
    boot_w: dict[str, list[float]] = {k: [] for k in keys}
    boot_t: dict[str, list[float]] = {t: [] for t in thresholds}
    for idx in _resamples(groups, n_bootstrap, seed):
        wb = fit_weights(x[idx], y[idx])
        if wb is None:
            continue
        for k, v in zip(keys, wb, strict=True):
            boot_w[k].append(float(v))
        lb = line_fit(x[idx] @ wb, y[idx])
        tb = tier_thresholds(*lb) if lb is not None else None
        if tb is not None:
            for t, v in tb.items():
                boot_t[t].append(v)
    weights_ci = {k: ci for k in keys if (ci := _ci(boot_w[k])) is not None}
    thresholds_ci = {t: ci for t in thresholds if (ci := _ci(boot_t[t])) is not None}
    # cross-validated composites of the fitted weights; the seed weights need no fit
    fold = _folds(groups, max(2, min(folds, len(np.unique(groups)))), seed)
    oof = np.full(len(items), np.nan)
    for f in np.unique(fold):
        train = fold != f
        wf = fit_weights(x[train], y[train])
        if wf is not None:
            oof[fold == f] = x[fold == f] @ wf
    seed_w = np.array([float(seed_profile[k]) for k in keys])
    seed_w = seed_w / seed_w.sum() if seed_w.sum() > 0 else seed_w
    seed_c = x @ seed_w
    kendall = {"seed": correlation_with_ci(seed_c, y, "kendall", n_bootstrap=n_bootstrap, seed=seed),
               "calibrated": correlation_with_ci(oof, y, "kendall", n_bootstrap=n_bootstrap, seed=seed)}
    spearman = {"seed": correlation_with_ci(seed_c, y, "spearman", n_bootstrap=n_bootstrap, seed=seed),
                "calibrated": correlation_with_ci(oof, y, "spearman", n_bootstrap=n_bootstrap, seed=seed)}
    return Calibration(
        profile=profile, keys=keys, weights={k: round(float(v), ROUND) for k, v in zip(keys, w, strict=True)},
        weights_ci=weights_ci, seed_weights={k: round(float(v), ROUND) for k, v in zip(keys, seed_w, strict=True)},
        thresholds=thresholds, thresholds_ci=thresholds_ci, extrapolated=extrapolated,
        line=(round(line[0], ROUND), round(line[1], ROUND)), kendall=kendall, spearman=spearman,
        evidence=evidence, warnings=warnings, left_out=left_out, warning_codes=codes)
