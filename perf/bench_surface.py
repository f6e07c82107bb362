"""chrF++ and BLEU sentence statistics: the metrics (compiled n-gram kernel) against sacrebleu.

The fr→ewe MAFAND systems (1,563 lines each, NFC as the metrics score them), in this
process, after a warm-up that imports everything and loads the compiled kernel. Timed,
alternately, ``--repeat`` times:

- *sacrebleu*: ``CHRF(word_order=2)`` and ``BLEU()`` holding the references (sacrebleu's own
  reference cache, built once), ``_extract_corpus_statistics`` of each system — what its
  corpus score and its significance tests compute;
- *metric, kernel*: ``core.chrf`` and ``core.bleu`` scoring each system in batches of 50
  (``score_entries``: statistics, sentence values, per-entry results; the entries are built
  before timing), the reference side computed once per corpus version (the first system
  pays it, as in a workspace);
- *metric, sacrebleu code*: the same metrics with numba hidden (their fallback).

Checks that every sentence's statistics are identical and prints seconds, entries/s and the
ratios. ``--profile`` prints cProfile's top functions of the kernel path instead.

Usage: ``python perf/bench_surface.py [--data ../shared/data] [--systems 16] [--repeat 3] [--profile]``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def _lines(p: Path) -> list[str]:
    t = p.read_text(encoding="utf-8")
    t = t[:-1] if t.endswith("\n") else t
    return [unicodedata.normalize("NFC", x) for x in t.split("\n")]


def _sacrebleu(refs: list[str]) -> Callable[[list[str]], tuple[list[Any], list[Any]]]:
    from sacrebleu.metrics import BLEU, CHRF

    chrf, bleu = CHRF(word_order=2, references=[refs]), BLEU(references=[refs], force=True)
    return lambda hyp: (chrf._extract_corpus_statistics(hyp, None), bleu._extract_corpus_statistics(hyp, None))


def _inputs(refs: list[str], systems: list[list[str]]) -> dict[int, list[Any]]:
    """The metrics' inputs of each system (built before timing: both metric paths read them)."""
    from mteval_gui.domain.corpus import Entry
    from mteval_gui.domain.run import Output
    from mteval_gui.scoring.plugins import EntryInput

    entries = [Entry(id=str(i), source="-", reference=r) for i, r in enumerate(refs)]
    return {id(hyp): [EntryInput(i, e, Output(id=e.id, predicted=h)) for i, (e, h) in enumerate(zip(entries, hyp,
                                                                                                   strict=True))]
            for hyp in systems}


_INPUTS: dict[int, list[Any]] = {}


def _metrics(refs: list[str]) -> Callable[[list[str]], tuple[list[Any], list[Any]]]:
    from mteval_gui.scoring import corpus_side
    from mteval_gui.scoring.metrics.surface import BleuMetric, ChrfMetric
    from mteval_gui.scoring.plugins import ScoringContext

    ctx = ScoringContext(source_lang="fra", target_lang="ewe", target_card=None, source_card=None,
                         glossary={}, options={}, shared={})
    ctx.corpus_side = corpus_side.corpus_side(f"bench-{time.perf_counter_ns()}", "v1")  # a new corpus version
    chrf, bleu = ChrfMetric(), BleuMetric()
    chrf.prepare(ctx)
    bleu.prepare(ctx)

    def score(hyp: list[str]) -> tuple[list[Any], list[Any]]:
        items = _INPUTS[id(hyp)]
        out = []
        for m in (chrf, bleu):
            per = [s for k in range(0, len(items), 50) for s in m.score_entries(items[k:k + 50])]
            out.append([s.detail["stats"] for s in per])
        return out[0], out[1]

    return score


def _time(make: Callable[[list[str]], Callable[[list[str]], Any]], refs: list[str],
          systems: list[list[str]]) -> tuple[float, list[Any]]:
    t = time.perf_counter()
    score = make(refs)
    results = [score(h) for h in systems]
    return time.perf_counter() - t, results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--systems", type=int, default=16, help="the first N fr→ewe systems (default 16: all)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="cProfile the kernel path once")
    args = ap.parse_args()
    folder = args.data / "ewe" / "mafand-fr-ewe"
    refs = _lines(folder / "test.ewe")
    names = sorted(p.stem for p in (folder / "predictions").glob("*_fr_ewe_*.txt"))[:args.systems]
    systems = [_lines(folder / "predictions" / f"{n}.txt") for n in names]

    from mteval_gui.scoring.metrics import ngram_kernel

    _INPUTS.update(_inputs(refs, systems))
    _time(_metrics, refs, systems[:1])  # warm-up: imports, the compiled kernel
    _time(_sacrebleu, refs, systems[:1])
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        _time(_metrics, refs, systems)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return

    @contextlib.contextmanager
    def numba_hidden() -> Iterator[None]:
        state = ngram_kernel._KERNEL._state
        saved = dict(state)
        state.clear()
        state.update(kernel=None, implementation="sacrebleu", reason="hidden by the benchmark")
        try:
            yield
        finally:
            state.clear()
            state.update(saved)

    runs: list[tuple[str, Callable[[list[str]], Any], Callable[[], Any]]] = [
        ("sacrebleu (CHRF + BLEU statistics)", _sacrebleu, contextlib.nullcontext),
        ("metrics, compiled kernel", _metrics, contextlib.nullcontext),
        ("metrics, sacrebleu code (no numba)", _metrics, numba_hidden),
    ]
    times: dict[str, list[float]] = {label: [] for label, _m, _c in runs}
    reference: list[Any] | None = None
    same = True
    for _ in range(args.repeat):
        for label, make, context in runs:
            with context():
                seconds, results = _time(make, refs, systems)
            times[label].append(seconds)
            rows = [([list(map(int, s)) for s in c], [list(map(int, s)) for s in b]) for c, b in results]
            if reference is None:
                reference = rows
            same = same and rows == reference
    n = len(systems) * len(refs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"chrF++ and BLEU statistics of {len(systems)} fr→ewe systems ({n:,} entries), "
          f"{args.repeat} alternating runs, load {load:.1f}; wall s:")
    base = min(times["sacrebleu (CHRF + BLEU statistics)"])
    for label, ts in times.items():
        print(f"  {label:<38} " + "  ".join(f"{t:6.2f}" for t in ts)
              + f"   {n / min(ts):9,.0f} entries/s   {base / min(ts):5.1f}× sacrebleu")
    print("  every sentence's statistics: " + ("identical" if same else "DIFFERENT"))
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
