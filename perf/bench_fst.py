"""Speed of FST scoring (``core.fst``) on the Plains Cree verb-form runs, in words per second.

Scores every run of ``data/crk/verbforms/runs/*.jsonl`` against ``corpus.jsonl`` with the
strict analyzer, the way a scoring job does (tokenisation, case fallback, flag stripping,
analysis parsing, per-word detail for the review pane):

- ``cold``: a freshly loaded analyzer, empty caches (every distinct form hits the transducer);
- ``warm``: the same analyzer again (in-memory LRU cache warm);
- ``persistent``: a fresh analyzer whose misses are answered by a filled workspace
  ``fst_cache`` (reopening a workspace in a new session).

Usage: ``python perf/bench_fst.py [--shared ../shared/data] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.domain.corpus import Entry  # noqa: E402
from mteval_gui.domain.run import Output  # noqa: E402
from mteval_gui.fst import Analyzer  # noqa: E402
from mteval_gui.fst.analysis import parse_analysis  # noqa: E402
from mteval_gui.scoring.metrics.structural import FstAcceptanceMetric  # noqa: E402
from mteval_gui.scoring.plugins import EntryInput, ScoringContext  # noqa: E402

STRICT = "crk-strict-analyzer-for-dictionary.hfstol"


def load_runs(data: Path) -> dict[str, list[EntryInput]]:
    base = data / "crk" / "verbforms"
    entries = [Entry(**json.loads(x)) for x in (base / "corpus.jsonl").read_text("utf-8").splitlines() if x.strip()]
    runs = {}
    for p in sorted((base / "runs").glob("*.jsonl")):
        lines = p.read_text("utf-8").splitlines()
        outs = {o.id: o for o in (Output(**json.loads(x)) for x in lines[1:] if x.strip())}
        runs[p.stem] = [EntryInput(i, e, outs.get(e.id, Output(id=e.id))) for i, e in enumerate(entries)]
    return runs


def score_all(metric: FstAcceptanceMetric, runs: dict[str, list[EntryInput]]) -> tuple[int, float]:
    words = 0
    t0 = time.perf_counter()
    for items in runs.values():
        for s in metric.score_entries(items):
            words += s.values["tokens"]
    return words, time.perf_counter() - t0


def fresh_metric(analyzer: Analyzer) -> FstAcceptanceMetric:
    m = FstAcceptanceMetric()
    ctx = ScoringContext("eng", "crk")
    ctx.shared["fst.strict"] = analyzer
    m.prepare(ctx)
    return m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--shared", type=Path, default=Path(os.environ.get("MTEVAL_SHARED", REPO.parent / "shared")) / "data"
    )
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    path = args.shared / "crk" / "fst" / STRICT
    runs = load_runs(args.shared)

    cold, warm, persistent = [], [], []
    words = 0
    from mteval_gui.store import Workspace
    from mteval_gui.store.fst_cache import WorkspaceFstCache

    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "bench.sqlite")
        for _ in range(args.repeat):
            parse_analysis.cache_clear()
            an = Analyzer.load(path)
            m = fresh_metric(an)
            words, secs = score_all(m, runs)
            cold.append(words / secs)
            words, secs = score_all(m, runs)
            warm.append(words / secs)
            lookups = an.transducer_lookups
        # fill a workspace cache once, then time fresh analyzers answered from it
        an = Analyzer.load(path)
        factory = WorkspaceFstCache.factory(ws)
        an.persistent_cache = factory(an.sha256)
        score_all(fresh_metric(an), runs)
        factory.flush()
        for _ in range(args.repeat):
            parse_analysis.cache_clear()
            an2 = Analyzer.load(path, cache=WorkspaceFstCache(ws, an.sha256))
            w, secs = score_all(fresh_metric(an2), runs)
            persistent.append(w / secs)
            assert an2.transducer_lookups == 0
        ws.close()

    print(f"crk verbforms: {len(runs)} runs, {sum(len(v) for v in runs.values())} outputs, {words} words "
          f"({lookups} distinct transducer lookups)")
    for name, xs in (("cold", cold), ("warm", warm), ("persistent", persistent)):
        print(f"{name:<11} median {statistics.median(xs):>10,.0f} words/s   best {max(xs):>10,.0f}   "
              f"worst {min(xs):>10,.0f}  (n={len(xs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
