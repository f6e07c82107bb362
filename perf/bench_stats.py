"""Paired significance tests on cached per-entry statistics vs sacrebleu's own.

Two fr→ewe systems of the MAFAND test set (1,563 entries), BLEU and chrF++, 1,000
resamples / trials, seed 12345:

- sacrebleu ``PairedTest`` (``--paired-bs`` / ``--paired-ar``): extracts each system's
  segment statistics and recomputes the metric object per resample in Python;
- mteval-gui :func:`mteval_gui.scoring.stats.paired_test` on the statistics stored per entry
  at scoring time (matrix products of resample weights with the statistics matrix).

Prints wall times, the speed-up ratio, and checks that both report the same system scores.

Usage: ``python perf/bench_stats.py [--data ../shared/data] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import os
import time
import unicodedata
from pathlib import Path

import numpy as np

os.environ.setdefault("SACREBLEU_SEED", "12345")

from sacrebleu.metrics import BLEU, CHRF  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

from mteval_gui.scoring.stats import EntryStats, paired_test  # noqa: E402

BASE = "mt5_fr_ewe_news"
SYSTEM = "m2m100_fr_ewe_rel_news_newsft"


def _lines(p: Path) -> list[str]:
    t = p.read_text(encoding="utf-8")
    return (t[:-1] if t.endswith("\n") else t).split("\n")


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trials", type=int, default=1000)
    args = ap.parse_args()
    folder = args.data / "ewe" / "mafand-fr-ewe"
    nfc = lambda s: unicodedata.normalize("NFC", s)  # noqa: E731
    refs = [nfc(x) for x in _lines(folder / "test.ewe")]
    hyp_a = [nfc(x) for x in _lines(folder / "predictions" / f"{BASE}.txt")]
    hyp_b = [nfc(x) for x in _lines(folder / "predictions" / f"{SYSTEM}.txt")]
    n = len(refs)
    print(f"{n} entries, 2 systems, {args.trials} resamples, BLEU + chrF++")

    def metrics():
        return {"BLEU": BLEU(), "chrF2++": CHRF(word_order=2)}

    # statistics as the scoring job stores them (computed once, at scoring time)
    t = time.perf_counter()
    bl, ch = BLEU(), CHRF(word_order=2)
    stats = {}
    for name, hyps in ((BASE, hyp_a), (SYSTEM, hyp_b)):
        stats[name] = {
            "bleu": EntryStats.rows("bleu", bl._extract_corpus_statistics(hyps, [refs]), 10,
                                    max_ngram_order=4, smooth_method="exp", smooth_value=None),
            "chrf": EntryStats.rows("chrf", ch._extract_corpus_statistics(hyps, [refs]), 24,
                                    char_order=6, word_order=2, beta=2, eps_smoothing=False),
        }
    extract = time.perf_counter() - t
    print(f"segment statistics of both systems (done once when scoring): {extract:.2f} s")

    sb_bs_time = None
    for test, sb_type in (("bootstrap", "bs"), ("ar", "ar")):
        def run_sacrebleu(sb_type: str = sb_type):
            pt = PairedTest([(BASE, hyp_a), (SYSTEM, hyp_b)], metrics(), [refs], test_type=sb_type,
                            n_samples=args.trials, n_ar_confidence=-1)
            _sigs, scores = pt()
            return scores

        def run_ours(test: str = test):
            return {k: paired_test(stats[BASE][k], stats[SYSTEM][k], test=test, trials=args.trials, seed=12345)
                    for k in ("bleu", "chrf")}

        t_sb, sb = _best(run_sacrebleu, args.repeat)
        from mteval_gui.scoring import stats as stats_mod

        def cold_ours():
            stats_mod._weight_cache.clear()  # include drawing the resamples
            return run_ours()

        t_ours, ours = _best(cold_ours, args.repeat)
        sb_bleu, sb_chrf = sb["BLEU"][1].score, sb["chrF2++"][1].score
        same = (abs(sb_bleu - ours["bleu"].system_score) < 1e-9 and abs(sb_chrf - ours["chrf"].system_score) < 1e-9
                and abs(sb["BLEU"][0].score - ours["bleu"].baseline_score) < 1e-9
                and abs(sb["chrF2++"][0].score - ours["chrf"].baseline_score) < 1e-9)
        print(f"\n{'paired bootstrap' if test == 'bootstrap' else 'approximate randomisation'}:")
        print(f"  sacrebleu --paired-{sb_type}: {t_sb:.3f} s   (p BLEU {sb['BLEU'][1].p_value:.4f}, "
              f"chrF++ {sb['chrF2++'][1].p_value:.4f})")
        print(
            f"  mteval-gui on stored statistics: {t_ours:.4f} s   (p BLEU {ours['bleu'].p_value:.4f}, "
            f"chrF++ {ours['chrf'].p_value:.4f}; "
            f"Δ chrF++ CI [{ours['chrf'].ci_lower:.2f}, {ours['chrf'].ci_upper:.2f}])"
        )
        if sb_type == "bs":
            sb_bs_time = t_sb
        print(f"  speed-up: {t_sb / t_ours:.0f}x"
              + (f" (vs sacrebleu --paired-bs: {sb_bs_time / t_ours:.0f}x; ours also draws a 1,000-resample CI "
                 f"of the difference)" if sb_type == "ar" and sb_bs_time else "")
              + f"; with statistics extraction included: {t_sb / (t_ours + extract):.1f}x")
        print(
            f"  same point estimates: {same} "
            f"(BLEU {ours['bleu'].baseline_score:.4f} -> {ours['bleu'].system_score:.4f}, "
            f"chrF++ {ours['chrf'].baseline_score:.4f} -> {ours['chrf'].system_score:.4f})"
        )
    _ = np  # numpy is the engine of both


if __name__ == "__main__":
    main()
