"""Speed of the entries text filter: an FTS5 trigram index in the workspace vs the numpy substring scan.

The workspace had such an index (``store/search.py``, schema v6, never wired to the filter);
these measurements are why it was removed (schema v10 drops it). The index and its query are
reproduced here as they were: external-content FTS5 tables with the ``trigram`` tokenizer over
``entries(source, reference)`` and ``outputs(predicted)``, filled at the first search, queried
through the index (``CROSS JOIN``), a query under three characters answered by a scan.

Builds a workspace with one corpus of N entries (default 50,000, 100,000 and 200,000; Cree in
roman letters and syllabics, Ewe, German and English texts) and two runs, then times:

- ``index``: the first search of the corpus and its runs, which indexes them (imports do not);
- ``fts``: the indexed search for several queries (rare and common words, a 2-letter query,
  which scans, syllabics, Ewe letters, ``ß``);
- ``numpy``: the entries view's own filter (``filter_mask`` over the frame's casefolded
  search text), first call (building the text) and later calls.

Each query's answer is compared both ways: the numpy filter matches ``str.casefold`` substrings,
FTS5's trigram tokenizer folds case with SQLite's own table, so ``ß``/``ss``, Cherokee and
ligatures answer differently; the table says ``same`` or how many entries differ.

Usage: ``python perf/bench_search.py [--n 50000 100000 200000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from mteval_gui.app.entry_frame import EntryFilter, EntryFrame, RunColumns, filter_mask  # noqa: E402
from mteval_gui.domain.corpus import Corpus, LanguagePair  # noqa: E402
from mteval_gui.domain.run import Run, RunMeta  # noqa: E402
from mteval_gui.io.records import make_entry, make_output  # noqa: E402
from mteval_gui.store import Workspace, repo  # noqa: E402

WORDS = ("nipâw", "wâpamêw", "atim", "mîcisow", "pimohtêw", "kîsikâw", "sîsîp", "maskwa", "the", "dog", "sees",
         "walks", "eats", "sleeps", "he", "she", "today", "river", "Ahcâhk", "kinosêw", "ᓃᐹᐤ", "ᐊᑎᒼ", "ɖevi",
         "Ʋɔ", "ŋkeke", "Straße", "STRASSE", "Fluss", "ÈWÉ")
QUERIES = ("kinosêw sîsîp", "wâpamêw", "the dog", "zzqq-none", "ÂHCÂHK", "at", "ᓃᐹᐤ ᐊᑎᒼ", "ʋɔ ŋkeke", "strasse",
           "èwé")


def index(ws: Workspace, runs: list[str]) -> None:
    """What the first search did: create the FTS5 tables and index the corpus and its runs."""
    with ws.transaction() as c:
        c.execute("CREATE VIRTUAL TABLE entries_fts USING fts5(source, reference, content=[entries],"
                  " tokenize='trigram')")
        c.execute("CREATE VIRTUAL TABLE outputs_fts USING fts5(predicted, content=[outputs], tokenize='trigram')")
        c.execute("INSERT INTO entries_fts (rowid, source, reference) SELECT rowid, source, reference FROM entries"
                  " WHERE corpus_id = 'big'")
        c.execute("INSERT INTO outputs_fts (rowid, predicted) SELECT rowid, predicted FROM outputs WHERE run_id IN"
                  f" ({','.join('?' * len(runs))})", runs)


def search_positions(ws: Workspace, corpus_id: str, text: str, *, run_ids: list[str]) -> list[int]:
    """Positions of the entries whose source, reference or output in ``run_ids`` contains ``text``."""
    needle = unicodedata.normalize("NFC", text.strip())
    conn = ws.conn
    if len(needle) < 3:  # no trigram: a scan with str.casefold
        folded, hits = needle.casefold(), set()
        for pos, *texts in conn.execute("SELECT position, source, reference FROM entries WHERE corpus_id = ?",
                                        (corpus_id,)):
            if any(t is not None and folded in t.casefold() for t in texts):
                hits.add(pos)
        for run_id in run_ids:
            for pos, predicted in conn.execute("SELECT e.position, o.predicted FROM outputs o JOIN entries e"
                                               " ON e.corpus_id = ? AND e.entry_id = o.entry_id WHERE o.run_id = ?",
                                               (corpus_id, run_id)):
                if predicted and folded in predicted.casefold():
                    hits.add(pos)
        return sorted(hits)
    phrase = '"' + needle.replace('"', '""') + '"'
    marks = ",".join("?" * len(run_ids))
    sql = ("SELECT e.position FROM entries_fts f CROSS JOIN entries e ON e.rowid = f.rowid"
           " WHERE entries_fts MATCH ? AND e.corpus_id = ?"
           " UNION SELECT e.position FROM outputs_fts f CROSS JOIN outputs o ON o.rowid = f.rowid"
           " CROSS JOIN entries e ON e.corpus_id = ? AND e.entry_id = o.entry_id"
           f" WHERE outputs_fts MATCH ? AND o.run_id IN ({marks}) ORDER BY 1")
    match = f"source : {phrase} OR reference : {phrase}"
    return [r[0] for r in conn.execute(sql, [match, corpus_id, corpus_id, phrase, *run_ids])]


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


def run(n: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws, t_import, runs = build(Path(tmp) / "ws.sqlite", n)
        size0 = (Path(tmp) / "ws.sqlite").stat().st_size
        t0 = time.perf_counter()
        index(ws, runs)
        search_positions(ws, "big", QUERIES[0], run_ids=runs)
        t_index = time.perf_counter() - t0
        ws.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size1 = (Path(tmp) / "ws.sqlite").stat().st_size
        print(
            f"\n{n:,} entries and 2 runs: import {t_import:.2f} s; first search (indexes them): {t_index:.2f} s;"
            f" workspace {size0 / 1e6:.0f} MB -> {size1 / 1e6:.0f} MB with the index"
        )
        frame = frame_of(ws, runs)
        t0 = time.perf_counter()
        filter_mask(frame, EntryFilter(text=QUERIES[0]))
        print(f"numpy scan, first call (builds the casefolded text): {time.perf_counter() - t0:.3f} s")
        print(f"{'query':<16} {'hits':>7} {'fts (s)':>9} {'numpy (s)':>10}  answers")
        for q in QUERIES:
            hits = search_positions(ws, "big", q, run_ids=runs)
            scanned = np.flatnonzero(filter_mask(frame, EntryFilter(text=q))).tolist()
            differ = len(set(hits) ^ set(scanned))
            t_q = best(lambda q=q: search_positions(ws, "big", q, run_ids=runs), repeat)
            t_np = best(lambda q=q: filter_mask(frame, EntryFilter(text=q)), repeat)
            verdict = "same" if not differ else f"differ on {differ:,} entries (fts {len(hits):,})"
            print(f"{q:<16} {len(scanned):>7,} {t_q:>9.3f} {t_np:>10.3f}  {verdict}")
        ws.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[50_000, 100_000, 200_000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for n in args.n:
        run(n, args.repeat)


if __name__ == "__main__":
    main()
