"""What running metrics in processes of their own costs: the demo workspace scored three ways.

The demo workspace (5 runs of the bundled Plains Cree and Ewe demo corpora, 25–29 entries each)
is built in a temporary folder and each run is scored through ``score_run`` with every metric
the workspace's scoring uses (heavy model-based ones excluded, as the demo does), with

- ``isolation="none"`` — every metric in this process (what main did before isolation);
- ``isolation="plugins"`` — the default: metrics of installed plugin packages in a process of
  their own (the demo's metrics are all bundled, so this is the cost of the policy alone);
- ``isolation="all"`` — every metric in a process of its own: what each plugin metric pays
  (a spawned interpreter importing the metric, then entries and results pickled per batch).

Each way is timed ``--repeat`` times after one warm-up in this process; the median is printed, and for
``all`` the time per isolated metric. ``--entries N`` repeats the first corpus's entries to N
entries (one run) to show the per-batch cost apart from the start-up.

``--startup N`` only times starting (and closing) one isolated metric N times.

Usage: ``python perf/bench_isolation.py [--repeat 3] [--entries 2000] [--startup N]``
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import tempfile
import time
from pathlib import Path

from mteval_gui.app.demo import build_demo_workspace
from mteval_gui.app.metrics import heavy_metric_ids
from mteval_gui.app.scoring import build_request
from mteval_gui.domain.corpus import Corpus
from mteval_gui.domain.run import Run
from mteval_gui.scoring.runner import ScoringRequest, score_run
from mteval_gui.store import repo

MODES = ("none", "plugins", "all")


def _time(requests: list[ScoringRequest], mode: str) -> tuple[float, int]:
    """(seconds to score every request, metrics that ran ``ok``)."""
    t = time.perf_counter()
    ok = 0
    for req in requests:
        res = score_run(dataclasses.replace(req, isolation=mode))  # type: ignore[arg-type]
        ok += sum(1 for k, v in res.availability.items() if "." in k and v == "ok")
    return time.perf_counter() - t, ok


def _scaled(req: ScoringRequest, n: int) -> ScoringRequest:
    """The request with its corpus and outputs repeated to ``n`` entries (ids made unique)."""
    entries, outputs = req.corpus.entries, req.run.outputs
    by_id = {o.id: o for o in outputs}
    new_entries, new_outputs = [], []
    for i in range(n):
        e = entries[i % len(entries)]
        eid = f"{e.id}-{i}"
        new_entries.append(e.model_copy(update={"id": eid}))
        o = by_id.get(e.id)
        if o is not None:
            new_outputs.append(o.model_copy(update={"id": eid}))
    corpus = Corpus.model_validate({**req.corpus.model_dump(), "entries": [x.model_dump() for x in new_entries]})
    run = Run.model_validate({**req.run.model_dump(), "outputs": [x.model_dump() for x in new_outputs]})
    return dataclasses.replace(req, corpus=corpus, run=run, corpus_sha256=None)


def _startup(n: int) -> None:
    """Start and close one isolated metric (core.exact) ``n`` times; print the median."""
    from mteval_gui.domain.card import MetricRef
    from mteval_gui.scoring.isolation import close_all, open_metric

    ref = MetricRef(id="core.exact", python_name="mteval_gui.scoring.metrics.surface:ExactMatchMetric")
    times, cpu = [], []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        close_all([open_metric(ref, isolated=True)])
        times.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print(f"start and close one isolated metric (core.exact), {n} times: wall median {statistics.median(times):.2f} s "
          f"(min {min(times):.2f} s), the child's CPU median {statistics.median(cpu):.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--entries", type=int, default=0, help="also score one run scaled to N entries")
    ap.add_argument("--startup", type=int, default=0, metavar="N",
                    help="only time starting one isolated metric N times")
    args = ap.parse_args()
    if args.startup:
        _startup(args.startup)
        return
    with tempfile.TemporaryDirectory() as tmp:
        ws = build_demo_workspace(Path(tmp) / "demo.sqlite")
        excluded = heavy_metric_ids()
        requests = [build_request(ws, row["run_id"], exclude=excluded) for row in repo.list_runs(ws)]
        ws.close()
    entries = sum(len(r.corpus.entries) for r in requests)
    print(f"demo workspace: {len(requests)} runs, {entries} entries", flush=True)
    cases = [("demo workspace", requests)]
    if args.entries:
        cases.append((f"one run, {args.entries} entries", [_scaled(requests[0], args.entries)]))
    for label, reqs in cases:
        print(f"\n{label}:")
        base = None
        _time(reqs, "none")  # warm-up: imports, analyzers, caches
        for mode in MODES:
            runs = [_time(reqs, mode) for _ in range(args.repeat)]
            med = statistics.median(t for t, _ in runs)
            ok = runs[0][1]
            base = med if base is None else base
            extra = f"  +{med - base:.2f} s" if mode != "none" else ""
            per = f"  ({(med - base) / ok:.2f} s per isolated metric run)" if mode == "all" and ok else ""
            print(f"  isolation={mode:<8} {med:7.2f} s (median of {args.repeat}; {ok} metric runs ok){extra}{per}",
                  flush=True)


if __name__ == "__main__":
    main()
