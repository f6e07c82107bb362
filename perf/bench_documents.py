"""Document context on a large corpus: the review pane's neighbours and a document's entries.

The review pane reads a window of positions around the entry (:func:`mteval_gui.app.documents.document_context`);
rating a document lists its entries in one pass (:func:`mteval_gui.app.documents.document_entries`). The
script stores a corpus of ``--entries`` entries in documents of ``--doc-size`` segments (SQL inserts), then
times both for an entry in the middle.

Usage: ``python perf/bench_documents.py [--entries 1000000] [--doc-size 20]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from mteval_gui.app.documents import document_context, document_entries
from mteval_gui.store import Workspace


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--doc-size", type=int, default=20)
    args = ap.parse_args()
    n = args.entries
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "ws.sqlite")
        with ws.transaction() as c:
            c.execute("INSERT INTO corpora (corpus_id, source_lang, target_lang, sha256, entry_count, imported_at) "
                      "VALUES ('big', 'fra', 'ewe', 'x', ?, '2026-01-01')", (n,))
            c.executemany("INSERT INTO entries (corpus_id, entry_id, position, source, reference, metadata) "
                          "VALUES ('big', ?, ?, ?, ?, ?)",
                          ((f"e{i}", i, f"source sentence {i}", f"reference {i}",
                            json.dumps({"document": f"doc{i // args.doc_size}"})) for i in range(n)))
        middle = f"e{n // 2 + args.doc_size // 2}"
        t = time.perf_counter()
        ctx = document_context(ws, "big", middle)
        first = time.perf_counter() - t
        times = []
        for k in range(20):  # the next entries, as a reviewer moves on
            t = time.perf_counter()
            document_context(ws, "big", f"e{n // 2 + k}")
            times.append(time.perf_counter() - t)
        pane = sorted(times)[len(times) // 2]
        assert ctx is not None and len(ctx.before) == len(ctx.after) == 2
        t = time.perf_counter()
        entries = document_entries(ws, "big", ctx.document)
        listing = time.perf_counter() - t
        assert len(entries) == args.doc_size
        print(f"{n:,} entries in documents of {args.doc_size}: neighbours of one entry {first * 1000:.1f} ms "
              f"(first), {pane * 1000:.1f} ms (median of the next 20), "
              f"one document's entries {listing * 1000:.0f} ms")
        ws.close()


if __name__ == "__main__":
    main()
