"""How many ratings each selection needs for a given width of the metric–human τ-b interval.

A resampled study: each repetition draws a pool of entries × systems with a latent quality
(entry difficulty + system effect + noise), three metrics that measure it with their own noise
(one of them TER-like, lower is better, one much noisier), and three speakers whose 1–5
adequacy ratings are the latent quality plus rater noise, rounded. Only the metric values are
known when the items are chosen (as in a real pack): ``random`` and ``informative``
(:func:`mteval_gui.validation.sampling.select`) each order the pool once, and the study rates
the first n items of that order, every item by 3 speakers. For n = 20, 40, … the 95% percentile
bootstrap interval of Kendall's τ-b between the first metric and the mean rating is computed
(:func:`mteval_gui.validation.correlation.correlation_with_ci`, B resamples); the script reports,
per selection, the median over repetitions of the fewest items (and ratings = 3 × items) whose
interval is at most ``--width`` wide, the mean width at 200 items, and the mean τ-b at 200 items
beside the τ-b of the whole pool: a selection that favours separated systems spreads the
metric's values, which narrows the interval and also raises τ-b above the pool's (the price of
the narrower interval, reported rather than hidden).

Usage: ``python perf/bench_sampling.py [--repeats 10] [--width 0.15] [--entries 400] [--systems 3]
[--bootstrap 300] [--seed 1]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from mteval_gui.validation.correlation import correlation_with_ci, kendall_tau_b
from mteval_gui.validation.sampling import ItemFeatures, percentile_ranks, select

STEP = 20


def pool(rng: np.random.Generator, entries: int, systems: int) -> tuple[list[tuple[str, str]], dict, np.ndarray]:
    """Items, their metric values ``{metric: {item: value}}`` and the speakers' ratings (items × 3)."""
    difficulty = rng.normal(0.0, 1.0, entries)
    effect = np.linspace(-0.8, 0.8, systems)
    items, latent = [], []
    for s in range(systems):
        for e in range(entries):
            items.append((f"s{s}", f"e{e}"))
            latent.append(difficulty[e] + effect[s] + rng.normal(0.0, 0.6))
    q = np.array(latent)
    metrics = {
        "chrf": q + rng.normal(0.0, 0.8, len(q)),
        "ter": -q + rng.normal(0.0, 0.8, len(q)),  # lower is better
        "noisy": q + rng.normal(0.0, 2.0, len(q)),
    }
    values = {m: {it: float(v) for it, v in zip(items, arr, strict=True)} for m, arr in metrics.items()}
    ratings = np.clip(np.rint(3.0 + 0.9 * q[:, None] + rng.normal(0.0, 0.9, (len(q), 3))), 1, 5)
    return items, values, ratings


def features(values: dict) -> ItemFeatures:
    f = ItemFeatures()
    for mid, vals in sorted(values.items()):
        for item, p in percentile_ranks(vals, higher_is_better=mid != "ter").items():
            f.percentiles.setdefault(item, []).append(p)
    return f


def widths(order: list[tuple[str, str]], index: dict, chrf: dict, ratings: np.ndarray, bootstrap: int,
           seed: int) -> tuple[dict[int, float], dict[int, float]]:
    out, taus = {}, {}
    for n in range(STEP * 2, len(order) + 1, STEP):
        chosen = order[:n]
        x = np.array([chrf[i] for i in chosen])
        y = ratings[[index[i] for i in chosen]].mean(axis=1)
        r = correlation_with_ci(x, y, "kendall", n_bootstrap=bootstrap, seed=seed)
        if r.ci_lower is not None and r.ci_upper is not None and r.value is not None:
            out[n] = r.ci_upper - r.ci_lower
            taus[n] = r.value
    return out, taus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--width", type=float, default=0.15)
    ap.add_argument("--entries", type=int, default=400)
    ap.add_argument("--systems", type=int, default=3)
    ap.add_argument("--bootstrap", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    started = time.perf_counter()
    needed: dict[str, list[int]] = {"random": [], "informative": []}
    at200: dict[str, list[float]] = {"random": [], "informative": []}
    tau200: dict[str, list[float]] = {"random": [], "informative": []}
    pool_tau: list[float] = []
    for k in range(args.repeats):
        rng = np.random.default_rng(args.seed + k)
        items, values, ratings = pool(rng, args.entries, args.systems)
        index = {it: i for i, it in enumerate(items)}
        f = features(values)
        pool_tau.append(float(kendall_tau_b([values["chrf"][i] for i in items], ratings.mean(axis=1)) or 0.0))
        for mode in needed:
            order = select(items, None, mode, seed=args.seed + k, features=f)
            w, taus = widths(order, index, values["chrf"], ratings, args.bootstrap, args.seed + k)
            first = next((n for n, v in sorted(w.items()) if v <= args.width), None)
            needed[mode].append(first if first is not None else len(items) + STEP)
            if 200 in w:
                at200[mode].append(w[200])
                tau200[mode].append(taus[200])
    print(f"resampled study: {args.repeats} pools of {args.entries} entries x {args.systems} systems, 3 raters per "
          f"item, tau-b of chrF-like metric vs mean adequacy, 95% bootstrap CI (B={args.bootstrap}), seed {args.seed}")
    print(f"{'selection':<12} {'items for width <= ' + format(args.width, 'g'):>24} {'ratings':>8} "
          f"{'mean width at 200 items':>24} {'tau-b at 200 items':>19}")
    for mode, ns in needed.items():
        med = statistics.median(ns)
        print(f"{mode:<12} {med:>24g} {3 * med:>8g} {statistics.mean(at200[mode]):>24.3f} "
              f"{statistics.mean(tau200[mode]):>19.3f}")
    print(f"tau-b of the whole pool (every item rated): {statistics.mean(pool_tau):.3f}")
    r, i = statistics.median(needed["random"]), statistics.median(needed["informative"])
    print(f"informative needs {i:g} items ({3 * i:g} ratings) where random needs {r:g} ({3 * r:g}): "
          f"{(1 - i / r):.0%} fewer; {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
