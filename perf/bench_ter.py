"""TER speed: the compiled kernel (``core.ter``) against sacrebleu's TER, same text, same values.

One MAFAND fr→ewe system (m2m100 rel_news_newsft, 1,563 lines, NFC as the metric scores
it), each side in its own fresh process so that imports count:

- *compile*: first use ever (an empty numba cache): numba import + compilation + scoring;
- *cold*: a new process with the compiled code cached: loading the cached machine code (no numba import) + scoring;
- *warm*: the same process scoring the system again.

sacrebleu's cold figure is its import + first scoring, warm the second scoring. Prints the
times and the ratios, and checks that the corpus TER and every sentence's statistics agree.

Usage: ``python perf/bench_ter.py [--data ../shared/data] [--system m2m100_fr_ewe_rel_news_newsft]``
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
from pathlib import Path


def _lines(p: Path) -> list[str]:
    t = p.read_text(encoding="utf-8")
    return t.removesuffix("\n").split("\n")


def _texts(data: Path, system: str) -> tuple[list[str], list[str]]:
    import unicodedata

    folder = data / "ewe" / "mafand-fr-ewe"
    ref = _lines(folder / ("test.ewe" if "_fr_ewe_" in system else "test.fr"))
    hyp = _lines(folder / "predictions" / f"{system}.txt")
    return [unicodedata.normalize("NFC", h) for h in hyp], [unicodedata.normalize("NFC", r) for r in ref]


def _child(side: str, data: Path, system: str) -> None:
    hyps, refs = _texts(data, system)
    out: dict[str, object] = {}
    if side == "ours":
        from mteval_gui.domain.corpus import Entry
        from mteval_gui.domain.run import Output
        from mteval_gui.scoring.metrics import ter_kernel
        from mteval_gui.scoring.metrics.surface import TerMetric
        from mteval_gui.scoring.plugins import EntryInput, ScoringContext

        items = [EntryInput(i, Entry(id=str(i), source="s", reference=r), Output(id=str(i), predicted=h))
                 for i, (h, r) in enumerate(zip(hyps, refs, strict=True))]
        ctx = ScoringContext(source_lang="fra", target_lang="ewe")
        t, c = time.perf_counter(), time.process_time()
        ter_kernel.kernel()
        out["load"], out["load_cpu"] = time.perf_counter() - t, time.process_time() - c
        for run in ("first", "warm"):
            t, c = time.perf_counter(), time.process_time()
            metric = TerMetric()
            metric.prepare(ctx)
            per = metric.score_entries(items)
            cs = metric.aggregate(per, ctx)
            out[run], out[run + "_cpu"] = time.perf_counter() - t, time.process_time() - c
        out["implementation"] = cs.extra["implementation"]
        out["ter"] = cs.values["ter"]
        out["stats"] = [p.detail["stats"] for p in per]
    else:
        from sacrebleu.metrics import TER

        for run in ("first", "warm"):
            t, c = time.perf_counter(), time.process_time()
            ter = TER()
            stats = ter._extract_corpus_statistics(hyps, [refs])
            score = ter._compute_score_from_stats([sum(s[0] for s in stats), sum(s[1] for s in stats)]).score
            out[run], out[run + "_cpu"] = time.perf_counter() - t, time.process_time() - c
        out["ter"] = score
        out["stats"] = [[int(e), int(r)] for e, r in stats]
    print(json.dumps(out))


def _spawn(side: str, args: argparse.Namespace, env: dict[str, str]) -> dict:
    t = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run([sys.executable, __file__, "--child", side, "--data", str(args.data), "--system", args.system],
                         capture_output=True, text=True, env=env, check=False)
    if res.returncode:
        sys.exit(f"{side} failed:\n{res.stderr}")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["process"] = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out["process_cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--system", default="m2m100_fr_ewe_rel_news_newsft")
    ap.add_argument("--child", choices=("ours", "sacrebleu"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.data, args.system)
        return
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        env["NUMBA_CACHE_DIR"] = cache  # an empty cache: the first run compiles
        compiled = _spawn("ours", args, env)
        cold = _spawn("ours", args, env)
    sb = _spawn("sacrebleu", args, dict(os.environ))
    same = compiled["stats"] == sb["stats"] and cold["stats"] == sb["stats"] and compiled["ter"] == sb["ter"]
    print(f"TER of {args.system}, {len(sb['stats'])} lines: {sb['ter']:.4f} "
          f"({'identical' if same else 'DIFFERENT'} corpus value and sentence statistics; "
          f"implementation {cold['implementation']}); wall s (CPU s)")

    def t(d: dict, k: str) -> str:
        return f"{d[k]:6.3f} ({d[k + '_cpu']:6.3f})"

    print(f"  sacrebleu        process {t(sb, 'process')}   first scoring {t(sb, 'first')}   warm {t(sb, 'warm')}")
    print(f"  ours, compiling  process {t(compiled, 'process')}   numba import + compile {t(compiled, 'load')}   "
          f"first scoring {t(compiled, 'first')}")
    print(f"  ours, cached     process {t(cold, 'process')}   cache load {t(cold, 'load')}   "
          f"first scoring {t(cold, 'first')}   warm {t(cold, 'warm')}")
    for label, x in (("wall", ""), ("CPU", "_cpu")):
        print(f"  sacrebleu / ours ({label}): whole process {sb['process' + x] / cold['process' + x]:.1f}x "
              f"(compiling {sb['process' + x] / compiled['process' + x]:.1f}x); cold scoring "
              f"incl. cache load {sb['first' + x] / (cold['load' + x] + cold['first' + x]):.1f}x (incl. compile "
              f"{sb['first' + x] / (compiled['load' + x] + compiled['first' + x]):.1f}x); "
              f"warm {sb['warm' + x] / cold['warm' + x]:.0f}x")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
