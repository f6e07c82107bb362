"""Reviewer quality control on a large judgment log: the first computation and the kept answer.

Every run card read asks which reviewers quality control leaves out
(:func:`mteval_gui.app.reviewer_qc.excluded_reviewers`); the answer is kept until the task A or
check judgments change. The script fills a workspace with ``--entries`` × ``--runs`` × 3 reviewers
task A ratings (SQL inserts) and times both.

Usage: ``python perf/bench_reviewer_qc.py [--entries 2000] [--runs 5]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from mteval_gui.app.reviewer_qc import excluded_reviewers
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "ws.sqlite")
        entries = [f"e{i}" for i in range(args.entries)]
        with ws.transaction() as c:
            c.execute("INSERT INTO corpora (corpus_id, version, source_lang, target_lang, sha256, entry_count, "
                      "imported_at) VALUES ('c', '1', 'eng', 'crk', ?, ?, '2024-01-01T00:00:00+00:00')",
                      ("0" * 64, len(entries)))
            c.executemany("INSERT INTO entries (corpus_id, entry_id, position, source) VALUES ('c', ?, ?, 's')",
                          [(e, i) for i, e in enumerate(entries)])
            for r in range(args.runs):
                c.execute("INSERT INTO runs (run_id, corpus_id, model_slug, content_sha256, imported_at) "
                          "VALUES (?, 'c', 'm', ?, '2024-01-01T00:00:00+00:00')", (f"r{r}", str(r).ljust(64, "0")))
        for k in range(3):
            J.add_reviewer(ws, Reviewer(reviewer_id=f"v{k}", name=f"v{k}"))
        with ws.transaction() as c:
            c.executemany("INSERT INTO judgments (reviewer_id, run_id, entry_id, task, adequacy, fluency, created_at) "
                          "VALUES (?, ?, ?, 'A', ?, 3, '2024-01-01T00:00:00+00:00')",
                          [(f"v{k}", f"r{r}", e, 1 + (i + k) % 5) for r in range(args.runs) for k in range(3)
                           for i, e in enumerate(entries)])
        n = args.entries * args.runs * 3
        t = time.perf_counter()
        excluded_reviewers(ws)
        first = time.perf_counter() - t
        t = time.perf_counter()
        excluded_reviewers(ws)
        kept = time.perf_counter() - t
        print(f"{n:,} task A ratings: quality control {first:.3f} s; the kept answer {kept * 1000:.1f} ms per read")
        ws.close()


if __name__ == "__main__":
    main()
