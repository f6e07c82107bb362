"""Calibrating a language's composite: the fit, 1,000 bootstrap refits and the cross-validation.

The plain-data core (:func:`mteval_gui.validation.calibration.calibrate`) on synthetic studies of
5 composite inputs, 3 raters per item giving adequacy and fluency 1-5, items drawn as 5 runs'
outputs of each entry; sizes 200, 600 and 2,000 items (the study target is 200 items rated by 3
speakers). Prints the best wall time of ``--repeat`` calls and checks that the known weights lie
inside their intervals.

Usage: ``python perf/bench_calibrate.py [--repeat 3] [--bootstrap 1000]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mteval_gui.domain.score_keys import PROFILES
from mteval_gui.validation.calibration import HumanScore, calibrate, task_a_score

KEYS = ["chrf_plus_plus", "equivalent_match_rate", "exact_match_rate", "code_switching_rate", "hallucination_rate"]
TRUE = np.array([0.35, 0.05, 0.0, 0.3, 0.3])


def study(n_items: int, seed: int = 1) -> tuple[dict, list[HumanScore]]:
    rng = np.random.default_rng(seed)
    inputs: dict = {}
    scores: list[HumanScore] = []
    for i in range(n_items):
        run, entry = f"r{i % 5}", f"e{i // 5}"
        x = np.array([rng.uniform(), rng.integers(0, 2), rng.integers(0, 2), rng.beta(5, 1), rng.beta(5, 1)])
        inputs[(run, entry)] = dict(zip(KEYS, x.tolist(), strict=True))
        y = 0.1 + 0.8 * float(TRUE @ x)
        for r in ("a", "b", "c"):  # adequacy and fluency 1-5, as speakers give them
            a, f = (min(5, max(1, round(1 + 4 * (y + float(rng.normal(0, 0.1)))))) for _ in range(2))
            scores.append(HumanScore(run, entry, r, task_a_score(a, f) or 0.0))
    return inputs, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args()
    for n in (200, 600, 2000):
        inputs, scores = study(n)
        best, cal = float("inf"), None
        for _ in range(args.repeat):
            t = time.perf_counter()
            cal = calibrate(inputs, scores, PROFILES["B"], profile="B", n_bootstrap=args.bootstrap)
            best = min(best, time.perf_counter() - t)
        assert cal is not None
        inside = all(cal.weights_ci[k][0] <= w <= cal.weights_ci[k][1] for k, w in zip(KEYS, TRUE, strict=True))
        print(f"{n:>5} items x 3 raters, B={args.bootstrap}: {best:6.2f} s  "
              f"(known weights inside their intervals: {'yes' if inside else 'no'}; "
              f"tau-b seed {cal.kendall['seed'].value:.3f}, calibrated {cal.kendall['calibrated'].value:.3f})")


if __name__ == "__main__":
    main()
