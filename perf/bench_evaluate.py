"""Whole-process speed of ``mteval evaluate`` against sacrebleu's command line, same files.

One MAFAND fr→ewe system (m2m100 rel_news_newsft, 1,563 lines). The text is written in NFC
to a temporary folder first, so that both tools read the same characters (the application
compares NFC text, sacrebleu the text as given). Timed, alternately, ``--repeat`` times:

- ``sacrebleu test.ewe -i hyp -m bleu chrf ter --chrf-word-order 2`` (three metrics, no
  intervals);
- ``mteval evaluate --corpus test.fr --ref test.ewe --run hyp --lang ewe`` (every metric
  that applies to Ewe, 1,000-resample intervals, the run card; both cores by default).

Both run byte-compiled, as installed (the bytecode of this run in a temporary folder, written
by one untimed run of each tool before the timed ones).

Prints wall and CPU seconds and their ratio, checks that BLEU, chrF++ and TER agree to the
4 decimals sacrebleu prints, and with ``--phases`` times where ``mteval evaluate`` spends
its time (in-process: imports, reading, each metric's prepare and scoring, aggregation).

Usage: ``python perf/bench_evaluate.py [--data ../shared/data] [--repeat 3] [--phases]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

SYSTEM = "m2m100_fr_ewe_rel_news_newsft"


def _nfc_copy(src: Path, dst: Path) -> Path:
    dst.write_text(unicodedata.normalize("NFC", src.read_text(encoding="utf-8")), encoding="utf-8")
    return dst


def _timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode:
        sys.exit(f"{' '.join(cmd[:3])} failed:\n{res.stderr}")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), res.stdout


def _phases(argv: list[str]) -> None:
    """Run ``mteval evaluate`` in this process with timers around each metric's calls."""
    t_start = time.perf_counter()
    from mteval_gui import cli
    from mteval_gui.scoring import assembly, batches, isolation, merge

    t_imported = time.perf_counter()
    wall: dict[str, float] = defaultdict(float)
    original = isolation.instantiate

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                wall[name] += time.perf_counter() - t
        return call

    def instantiate(ref: Any) -> Any:
        m = original(ref)
        for hook in ("prepare", "score_entries", "aggregate"):
            setattr(m, hook, timed(f"{ref.id} {hook}", getattr(m, hook)))
        return m

    isolation.instantiate = instantiate
    finish = "runner: aggregation + run card"
    batches.aggregate = timed(finish, batches.aggregate)
    merge.merge = timed(finish, merge.merge)
    assembly.assemble = timed(finish, assembly.assemble)
    batches.score_batches = timed("runner: scoring loop", batches.score_batches)
    t_main = time.perf_counter()
    sys.stdout, saved = open("/dev/null", "w"), sys.stdout  # noqa: SIM115
    try:
        cli.main(argv)
    finally:
        sys.stdout.close()
        sys.stdout = saved
    total = time.perf_counter() - t_main
    print("\nwhere `mteval evaluate` spends its time "
          f"(one process, wall s; total {t_imported - t_start + total:.2f} s):")
    print(f"  {'import mteval_gui.cli + scoring.runner':<44} {t_imported - t_start:6.2f}")
    loop = wall.pop("runner: scoring loop")
    finish = wall.pop("runner: aggregation + run card")
    scoring = sum(v for k, v in wall.items() if k.endswith("score_entries"))
    print(f"  {'reading, cards, prepare, imports on first use':<44} {total - loop - finish:6.2f}")
    print(f"  {'scoring loop':<44} {loop:6.2f}  (metrics {scoring:.2f}, the loop's own work {loop - scoring:.2f})")
    print(f"  {'aggregation, intervals, run card':<44} {finish:6.2f}")
    print("  per metric call (top 16):")
    for k, v in sorted(wall.items(), key=lambda kv: -kv[1])[:16]:
        print(f"    {k:<42} {v:6.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--system", default=SYSTEM)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--phases", action="store_true", help="also time the phases of mteval evaluate in-process")
    args = ap.parse_args()
    folder = args.data / "ewe" / "mafand-fr-ewe"
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        src = _nfc_copy(folder / "test.fr", d / "test.fr")
        ref = _nfc_copy(folder / "test.ewe", d / "test.ewe")
        hyp = _nfc_copy(folder / "predictions" / f"{args.system}.txt", d / "hyp.txt")
        card = d / "card.json"
        sb_cmd = [sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "-m", "bleu", "chrf", "ter",
                  "--chrf-word-order", "2", "-w", "4", "-f", "json"]
        mt_argv = ["evaluate", "--corpus", str(src), "--ref", str(ref), "--run", str(hyp), "--lang", "ewe",
                   "--source-lang", "fra", "-o", str(card)]
        mt_cmd = [sys.executable, "-m", "mteval_gui", *mt_argv]
        # both tools as installed: byte-compiled (site-packages holds sacrebleu's .pyc files; a
        # checkout run with PYTHONDONTWRITEBYTECODE would compile this package at every start),
        # the bytecode in a folder of this run, written by one untimed run of each first
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(d / "pycache")
        _timed(sb_cmd, env)
        _timed(mt_cmd, env)
        sb_times, mt_times = [], []
        for _ in range(args.repeat):
            sb_wall, sb_cpu, sb_out = _timed(sb_cmd, env)
            mt_wall, mt_cpu, _ = _timed(mt_cmd, env)
            sb_times.append((sb_wall, sb_cpu))
            mt_times.append((mt_wall, mt_cpu))
        sb_scores = {s["name"]: float(s["score"]) for s in json.loads(sb_out)}
        ours = json.loads(card.read_text(encoding="utf-8"))["scores"]
        pairs = [("BLEU", "bleu"), ("chrF2++", "chrf_plus_plus"), ("TER", "ter")]
        same = all(round(ours[k], 4) == sb_scores[n] for n, k in pairs)
        print(f"{args.system}, 1,563 lines (NFC), {args.repeat} alternating runs; wall s (CPU s):")
        for name, times in (("sacrebleu -m bleu chrf ter", sb_times), ("mteval evaluate", mt_times)):
            print(f"  {name:<28} " + "  ".join(f"{w:6.2f} ({c:5.2f})" for w, c in times))
        print(f"  mteval / sacrebleu: wall {min(w for w, _ in mt_times) / min(w for w, _ in sb_times):.2f}, "
              f"CPU {min(c for _, c in mt_times) / min(c for _, c in sb_times):.2f} (best of each; target ≤ 0.25)")
        print("  values: " + ", ".join(f"{n} {sb_scores[n]} / {round(ours[k], 4)}" for n, k in pairs)
              + ("  (identical)" if same else "  DIFFERENT"))
        if args.phases:
            _phases([*mt_argv, "--workers", "1"])  # one process, so that every metric call is timed here
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
