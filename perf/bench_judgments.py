"""Speed of speaker judgments and of the validation study.

- ``record``: latency of :func:`record_judgment` (one committed transaction per keystroke in
  the ratings panel), median and 95th percentile, on a workspace already holding the log;
- ``export``/``import``: the complete log as CSV and JSON, written and merged into a fresh workspace;
- ``study``: agreement + Kendall τ-b / Spearman ρ / system Pearson with 1000 bootstrap
  resamples for several metrics over runs × entries rated by three reviewers.

Usage: ``python perf/bench_judgments.py [--entries 200] [--runs 3] [--metrics 4]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.app.study import validation_study  # noqa: E402
from mteval_gui.domain.judgments import Judgment, Reviewer  # noqa: E402
from mteval_gui.io.judgments import read_judgments, write_judgments  # noqa: E402
from mteval_gui.store import Workspace  # noqa: E402
from mteval_gui.store import judgments as J  # noqa: E402

RATERS = ("ana", "ben", "cat")


def build(path: Path, n_entries: int, n_runs: int) -> Workspace:
    ws = Workspace(path)
    with ws.transaction() as c:
        c.execute("INSERT INTO corpora (corpus_id, source_lang, target_lang, sha256, entry_count, imported_at) "
                  "VALUES ('c', 'eng', 'crk', ?, ?, 'now')", ("0" * 64, n_entries))
        c.executemany("INSERT INTO entries (corpus_id, entry_id, position, source) VALUES ('c', ?, ?, 's')",
                      [(f"e{i}", i) for i in range(n_entries)])
        c.executemany("INSERT INTO runs (run_id, corpus_id, content_sha256, imported_at) VALUES (?, 'c', ?, 'now')",
                      [(f"run{r}", str(r).ljust(64, "0")) for r in range(n_runs)])
    for rid in RATERS:
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid))
    return ws


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--metrics", type=int, default=4)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        ws = build(Path(tmp) / "a.sqlite", args.entries, args.runs)
        quality = rng.random((args.runs, args.entries))
        latencies = []
        for r in range(args.runs):
            for e in range(args.entries):
                for rid in RATERS:
                    a = int(np.clip(round(1 + 4 * quality[r, e] + rng.normal(0, 0.6)), 1, 5))
                    t0 = time.perf_counter()
                    J.record_judgment(
                        ws, Judgment(reviewer_id=rid, run_id=f"run{r}", entry_id=f"e{e}", adequacy=a, fluency=a)
                    )
                    latencies.append(time.perf_counter() - t0)
        lat = sorted(latencies)
        print(f"record: {len(lat)} judgments, median {statistics.median(lat) * 1000:.2f} ms, "
              f"p95 {lat[int(0.95 * len(lat))] * 1000:.2f} ms")

        with ws.transaction() as c:
            for m in range(args.metrics):
                noise = rng.normal(0, 0.1 + 0.1 * m, quality.shape)
                c.executemany("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value) VALUES (?, ?, ?, ?)",
                              [(f"run{r}", f"e{e}", f"m{m}", float(quality[r, e] + noise[r, e]))
                               for r in range(args.runs) for e in range(args.entries)])

        reviewers, log = J.export_log(ws)
        for suffix in ("csv", "json"):
            t0 = time.perf_counter()
            path = write_judgments(Path(tmp) / f"log.{suffix}", reviewers, log)
            t1 = time.perf_counter()
            other = build(Path(tmp) / f"b_{suffix}.sqlite", args.entries, args.runs)
            t2 = time.perf_counter()
            read = read_judgments(path)
            J.import_log(other, read.reviewers, read.judgments, file=read.name, defects=read.defects)
            t3 = time.perf_counter()
            other.close()
            print(f"{suffix}: export {len(log)} judgments {t1 - t0:.3f} s, read+import {t3 - t2:.3f} s")

        runs = [f"run{r}" for r in range(args.runs)]
        t0 = time.perf_counter()
        study = validation_study(ws, runs, n_bootstrap=1000)
        t1 = time.perf_counter()
        print(
            f"study: {args.runs} runs x {args.entries} entries x 3 raters, {args.metrics} metrics, B=1000: "
            f"{t1 - t0:.2f} s "
            f"(alpha adequacy {study.agreement['adequacy'].alpha:.3f})"
        )
        ws.close()


if __name__ == "__main__":
    main()
