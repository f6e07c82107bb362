"""Speed of the analyzer-gap report (``mteval analyzers gaps``) on the Plains Cree verb forms.

Imports ``data/crk/verbforms/corpus.jsonl`` and its five runs into a fresh workspace, then
times :func:`mteval_gui.app.gaps.collect_gaps` (every reference and output word looked up
with the strict analyzer, the rejected ones with the descriptive analyzer) and
:func:`mteval_gui.app.gaps.gap_words` (ranking and classifying), best of ``--repeat`` runs,
each with freshly loaded analyzers (cold caches).

Usage: ``python perf/bench_gaps.py [--shared ../shared/data] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.app.gaps import collect_gaps, gap_words  # noqa: E402
from mteval_gui.app.imports import import_corpus_file, import_run_file  # noqa: E402
from mteval_gui.fst.analyzer import forget_loaded  # noqa: E402
from mteval_gui.store import Workspace  # noqa: E402

STRICT = "crk-strict-analyzer-for-dictionary.hfstol"
DESCRIPTIVE = "crk-descriptive-analyzer.hfstol"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("MTEVAL_SHARED", REPO.parent / "shared")) / "data"
    ap.add_argument("--shared", type=Path, default=shared)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    base = args.shared / "crk" / "verbforms"
    fst = args.shared / "crk" / "fst"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("MTEVAL_HOME", tmp)
        ws = Workspace(Path(tmp) / "ws.sqlite")
        import_corpus_file(ws, base / "corpus.jsonl", corpus_id="verbforms", source_lang="eng", target_lang="crk")
        runs = []
        for p in sorted((base / "runs").glob("*.jsonl")):
            runs.append(import_run_file(ws, p, corpus_id="verbforms").id)
        best_collect = best_rank = float("inf")
        for _ in range(args.repeat):
            forget_loaded()
            t0 = time.perf_counter()
            inputs = collect_gaps(ws, ["verbforms"], runs, strict=fst / STRICT, descriptive=fst / DESCRIPTIVE)
            t1 = time.perf_counter()
            words = gap_words(inputs)
            t2 = time.perf_counter()
            best_collect, best_rank = min(best_collect, t1 - t0), min(best_rank, t2 - t1)
        ws.close()
    print(f"{inputs.texts} texts, {len(inputs.occurrences)} rejected occurrences ({inputs.source_copies} source "
          f"copies left out), {len(words)} words")
    kinds = Counter(g.kind for g in words)
    print("kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"collect (cold analyzers): {best_collect:.2f} s; rank and classify: {best_rank * 1000:.1f} ms")
    print("first words: " + ", ".join(f"{g.word} {g.count} ({g.kind})" for g in words[:5]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
