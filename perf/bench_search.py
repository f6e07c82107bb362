"""Speed of the entries text filter: FTS5 trigram search in the workspace vs the numpy substring scan.

Builds a workspace with one corpus of N entries (default 100,000; Cree-like and English
texts) and two runs, then times:

- ``index``: the first search of the corpus and its runs, which indexes them (imports do not);
- ``fts``: :func:`mteval_gui.store.search.search_positions` for several queries (rare and
  common words, a 2-letter query, which scans);
- ``numpy``: the entries view's own filter (``filter_mask`` over the frame's casefolded
  search text), first call (building the text) and later calls.

Every query's answer is checked to be the same both ways.

Usage: ``python perf/bench_search.py [--n 100000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from mteval_gui.app.entry_frame import EntryFilter, EntryFrame, RunColumns, filter_mask  # noqa: E402
from mteval_gui.domain.corpus import Corpus, LanguagePair  # noqa: E402
from mteval_gui.domain.run import Run, RunMeta  # noqa: E402
from mteval_gui.io.records import make_entry, make_output  # noqa: E402
from mteval_gui.store import Workspace, repo  # noqa: E402
from mteval_gui.store.search import search_positions  # noqa: E402

WORDS = ("nipâw", "wâpamêw", "atim", "mîcisow", "pimohtêw", "kîsikâw", "sîsîp", "maskwa", "the", "dog", "sees",
         "walks", "eats", "sleeps", "he", "she", "today", "river", "Ahcâhk", "kinosêw")
QUERIES = ("kinosêw sîsîp", "wâpamêw", "the dog", "zzqq-none", "ÂHCÂHK", "at")


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build(path: Path, n: int) -> tuple[Workspace, float, list[str]]:
    rng = random.Random(7)
    ws = Workspace(path)
    entries = [make_entry(str(i), sentence(rng, 8), sentence(rng, 6)) for i in range(n)]
    corpus = Corpus.model_construct(
        corpus_id="big",
        version="1",
        language_pair=LanguagePair(source="eng", target="crk"),
        license=None,
        attribution=None,
        description=None,
        metadata={},
        entries=entries,
    )
    runs = []
    t0 = time.perf_counter()
    repo.add_corpus(ws, corpus)
    for r in ("a", "b"):
        run = Run(meta=RunMeta(run_id=r), corpus_id="big", outputs=[])
        run.outputs = [make_output(str(i), sentence(rng, 6)) for i in range(n)]
        repo.import_run(ws, run)
        runs.append(r)
    return ws, time.perf_counter() - t0, runs


def frame_of(ws: Workspace, runs: list[str]) -> EntryFrame:
    cols = repo.entry_columns(ws, "big", ("entry_id", "source", "reference"))
    frame = EntryFrame("big", np.array(cols["entry_id"], dtype=object), np.array(cols["source"], dtype=object),
                       np.array(cols["reference"], dtype=object), np.full(len(cols["entry_id"]), np.nan))
    for r in runs:
        out = repo.output_columns(ws, r, ("predicted", "error"))
        frame.runs.append(
            RunColumns(r, r, np.array(out["predicted"], dtype=object), np.array(out["error"], dtype=object))
        )
    return frame


def best(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws, t_import, runs = build(Path(tmp) / "ws.sqlite", args.n)
        size0 = (Path(tmp) / "ws.sqlite").stat().st_size
        t0 = time.perf_counter()
        search_positions(ws, "big", QUERIES[0], run_ids=runs)
        t_index = time.perf_counter() - t0
        ws.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size1 = (Path(tmp) / "ws.sqlite").stat().st_size
        print(
            f"import of {args.n:,} entries and 2 runs: {t_import:.2f} s; first search (indexes them): {t_index:.2f} s;"
            f" workspace {size0 / 1e6:.0f} MB -> {size1 / 1e6:.0f} MB with the index"
        )
        frame = frame_of(ws, runs)
        t0 = time.perf_counter()
        filter_mask(frame, EntryFilter(text=QUERIES[0]))
        print(f"numpy scan, first call (builds the casefolded text): {time.perf_counter() - t0:.3f} s")
        print(f"{'query':<16} {'hits':>7} {'fts (s)':>9} {'numpy (s)':>10}")
        for q in QUERIES:
            hits = search_positions(ws, "big", q, run_ids=runs)
            mask = filter_mask(frame, EntryFilter(text=q))
            assert hits == np.flatnonzero(mask).tolist(), q
            t_q = best(lambda q=q: search_positions(ws, "big", q, run_ids=runs), args.repeat)
            t_np = best(lambda q=q: filter_mask(frame, EntryFilter(text=q)), args.repeat)
            print(f"{q:<16} {len(hits):>7,} {t_q:>9.3f} {t_np:>10.3f}")
        ws.close()


if __name__ == "__main__":
    main()
