"""Speed of the two FST lookup backends (hfst, pyhfst) on the Plains Cree analyzers.

For each backend and each crk analyzer (strict, descriptive):

- ``load``: reading the ``.hfstol`` file (header check + the library's reader);
- ``lookups/s``: raw transducer lookups of every distinct form of the five verb-form runs, the
  corpus and the demo (as written, first letter lowered, all lowered), no cache;
- ``words/s``: ``core.fst`` scoring of the five runs with a fresh analyzer (cold caches), the
  way a scoring job does.

The probe that guards the first use of a file in a process is not included (it runs once per
file and is cached).

Usage: ``python perf/bench_fst_backends.py [--shared ../shared/data] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.domain.corpus import Entry  # noqa: E402
from mteval_gui.domain.run import Output  # noqa: E402
from mteval_gui.fst import Analyzer  # noqa: E402
from mteval_gui.fst.analysis import parse_analysis  # noqa: E402
from mteval_gui.fst.analyzer import read_transducer, sha256_file  # noqa: E402
from mteval_gui.fst.backends import backend_version  # noqa: E402
from mteval_gui.paths import demo_dir  # noqa: E402
from mteval_gui.scoring.metrics.structural import FstAcceptanceMetric  # noqa: E402
from mteval_gui.scoring.plugins import EntryInput, ScoringContext  # noqa: E402
from mteval_gui.text import case_variants, fst_form, word_tokens  # noqa: E402

FILES = {"strict": "crk-strict-analyzer-for-dictionary.hfstol", "descriptive": "crk-descriptive-analyzer.hfstol"}


def forms(files: list[Path]) -> list[str]:
    out: set[str] = set()
    for f in files:
        for line in f.read_text("utf-8").splitlines():
            rec = json.loads(line) if line.strip() else {}
            for key in ("predicted", "reference"):
                for tok in word_tokens(rec.get(key) if isinstance(rec.get(key), str) else None):
                    out.update(case_variants(fst_form(tok)))
    return sorted(out)


def load_runs(data: Path) -> list[list[EntryInput]]:
    base = data / "crk" / "verbforms"
    entries = [Entry(**json.loads(x)) for x in (base / "corpus.jsonl").read_text("utf-8").splitlines() if x.strip()]
    runs = []
    for p in sorted((base / "runs").glob("*.jsonl")):
        lines = p.read_text("utf-8").splitlines()
        outs = {o.id: o for o in (Output(**json.loads(x)) for x in lines[1:] if x.strip())}
        runs.append([EntryInput(i, e, outs.get(e.id, Output(id=e.id))) for i, e in enumerate(entries)])
    return runs


def score_words_per_second(path: Path, backend: str, runs: list[list[EntryInput]]) -> float:
    parse_analysis.cache_clear()
    an = Analyzer(read_transducer(path, backend), path=path, sha256=sha256_file(path))
    m = FstAcceptanceMetric()
    ctx = ScoringContext("eng", "crk")
    ctx.shared["fst.strict"] = an
    m.prepare(ctx)
    words = 0
    t0 = time.perf_counter()
    for items in runs:
        for s in m.score_entries(items):
            words += s.values["tokens"]
    return words / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_shared = Path(os.environ.get("MTEVAL_SHARED", REPO.parent / "shared")) / "data"
    ap.add_argument("--shared", type=Path, default=default_shared)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    verb = args.shared / "crk" / "verbforms"
    files = sorted((verb / "runs").glob("*.jsonl")) + [verb / "corpus.jsonl"] + sorted(demo_dir().glob("crk-*.jsonl"))
    todo = forms(files)
    runs = load_runs(args.shared)
    print(f"{len(todo)} distinct forms; hfst {backend_version('hfst')}, pyhfst {backend_version('pyhfst')}")
    results: dict[tuple[str, str], dict[str, float]] = {}
    for kind, name in FILES.items():
        path = args.shared / "crk" / "fst" / name
        for backend in ("hfst", "pyhfst"):
            loads, rates, scoring = [], [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                t = read_transducer(path, backend)
                loads.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                for f in todo:
                    t.lookup(f)
                rates.append(len(todo) / (time.perf_counter() - t0))
                if kind == "strict":
                    scoring.append(score_words_per_second(path, backend, runs))
            r = {"load": statistics.median(loads), "lookups": statistics.median(rates)}
            if scoring:
                r["words"] = statistics.median(scoring)
            results[(kind, backend)] = r
            extra = f"   core.fst {r['words']:>8,.0f} words/s (cold)" if scoring else ""
            print(f"{kind:<12} {backend:<7} load {r['load'] * 1000:>6.0f} ms   {r['lookups']:>8,.0f} lookups/s{extra}")
        h, p = results[(kind, "hfst")], results[(kind, "pyhfst")]
        print(f"{kind:<12} pyhfst/hfst: lookups {h['lookups'] / p['lookups']:.1f}x slower, "
              f"load {p['load'] / h['load']:.0f}x slower")
    return 0


if __name__ == "__main__":
    sys.exit(main())
