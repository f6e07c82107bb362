"""A big workspace end to end: one corpus of N entries (default 1,000,000) and 4 runs of it.

    python perf/bench_big_workspace.py [--entries 1000000] [--runs 4] [--repeat 3] [--no-gui]
                                      [--workspace DIR [--build-only]]

Builds the workspace once (``--workspace``: in DIR, and reused by the next runs with the same
``--entries`` and ``--runs``, the import then not measured) and measures, in one run:

- ``import``: the corpus file (JSON Lines) and the 4 run files through the application's
  importers (read, check, write), as the Import dialog does; targets: under 60 s;
- ``open``: the Entries tab of the 4 runs side by side in the real main window (offscreen Qt):
  the first rows (their texts read in a worker thread), the model and the first paint; target:
  under 2 s; then until the runs' values are read (in a worker thread) and shown;
- ``search``: the text filter on the frame: the first search (which prepares the casefolded text,
  and starts the background index where there is one), the scan, and the indexed search once the
  index is ready; per query the best of ``--repeat`` calls, and the p95 over all queries and calls;
  target: p95 under 100 ms after the first search. Every answer is checked against a plain
  ``str.casefold`` substring scan of the same rows;
- ``sort``: sorting the 1,000,000 rows by a metric (chrF++ values stored for every run), both
  directions, in the model, and once more with the orders computed in the background forgotten;
  target: under 200 ms;
- ``scroll``: 200 jumps of 3 pages with a synchronous repaint of the table; median/p95/max frame.

The metric values are written straight into the workspace (scoring a million entries is measured
elsewhere, ``perf/bench_score_workspace.py``).

``--frame-only`` skips the workspace: the same texts go straight into an entry frame, and the
search and the sort are measured on it, the search also as the entries view did it before the
index (:func:`old_filter`, the previous code reproduced: a Python generator over the rows of a
numpy object array), each answer compared with the old one.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from mteval_gui.app.entry_frame import EntryFilter, filter_mask  # noqa: E402
from mteval_gui.app.imports import import_corpus_file, import_run_file  # noqa: E402
from mteval_gui.store import Workspace  # noqa: E402

CREE = ("nipâw", "mîcisow", "pimohtêw", "takohtêw", "nikamow", "apiw", "pîhtokêw", "kîwêw", "atoskêw",
        "pimâtisiw", "wâpamêw", "ê-nipât", "kinipân", "nititwân", "kisipwêhtân", "ᓃᐹᐤ", "ᐊᑎᒼ", "maskwa",
        "sîsîp", "kinosêw", "Ahcâhk")
EWE = ("akpe", "ŋdi", "woezɔ", "ɖevi", "aƒeme", "suku", "agbalẽ", "tsi", "asime", "Ʋɔ", "ŋkeke")
ENGLISH = ("he", "she", "sleeps", "eats", "walks", "arrives", "sings", "sits", "enters", "goes", "home", "works",
           "lives", "sees", "the", "a", "water", "market", "Straße", "STRASSE", "Fluss", "river", "today", "dog")
QUERIES = ("kinosêw sîsîp", "wâpamêw", "the dog", "zzqq-none", "ÂHCÂHK", "at", "ᓃᐹᐤ ᐊᑎᒼ", "ʋɔ ŋkeke", "strasse",
           "e", "market water", "ŋdi", "fluss", "nipâw mîcisow", "sings")


def generate(directory: Path, n: int, runs: int, seed: int = 7) -> tuple[Path, list[Path]]:
    rng = random.Random(seed)
    target = CREE + EWE
    refs = [" ".join(rng.choices(target, k=rng.randint(1, 12))) for _ in range(n)]
    corpus = directory / "big.jsonl"
    with corpus.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"corpus": {"corpus_id": "big", "language_pair": {"source": "eng", "target": "crk"}}})
                 + "\n")
        for i in range(n):
            src = " ".join(rng.choices(ENGLISH, k=rng.randint(2, 14)))
            fh.write(json.dumps({"id": f"e{i:07d}", "source": src, "reference": refs[i], "difficulty": 1 + i % 5},
                                ensure_ascii=False) + "\n")
    paths = []
    for r in range(runs):
        path = directory / f"run{r}.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            fh.write(json.dumps({"run": {"run_id": f"run-{r}", "model_slug": f"system-{r}"}}) + "\n")
            for i in range(n):
                ref = refs[i].split()
                out = " ".join(w if rng.random() < 0.7 else rng.choice(target) for w in ref)
                fh.write(json.dumps({"id": f"e{i:07d}", "predicted": out}, ensure_ascii=False) + "\n")
        paths.append(path)
    return corpus, paths


def texts(n: int, runs: int, seed: int = 7) -> tuple[list[str], list[str], list[list[str]]]:
    """The generated texts (as :func:`generate` writes them) without files."""
    rng = random.Random(seed)
    target = CREE + EWE
    refs = [" ".join(rng.choices(target, k=rng.randint(1, 12))) for _ in range(n)]
    srcs = [" ".join(rng.choices(ENGLISH, k=rng.randint(2, 14))) for _ in range(n)]
    outs = [[" ".join(w if rng.random() < 0.7 else rng.choice(target) for w in r.split()) for r in refs]
            for _ in range(runs)]
    return srcs, refs, outs


def frame_of(n: int, runs: int):
    from mteval_gui.app.entry_frame import EntryFrame, RunColumns

    def obj(values):
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
        return arr

    srcs, refs, outs = texts(n, runs)
    rng = np.random.default_rng(3)
    frame = EntryFrame("big", obj([f"e{i:07d}" for i in range(n)]), obj(srcs), obj(refs), np.full(n, np.nan))
    for r, out in enumerate(outs):
        chrf = rng.uniform(0, 100, n).round(2)
        chrf[rng.random(n) < 0.01] = np.nan
        frame.runs.append(RunColumns(f"run-{r}", f"system-{r}", obj(out), obj([None] * n), {"core.chrf": chrf}))
    return frame


def old_filter(frame, needle: str, cache: dict) -> np.ndarray:
    """The text filter as it was: casefolded row texts built by a generator, then a generator test per row."""
    if "hay" not in cache:
        parts = [frame.source, frame.reference, *(r.predicted for r in frame.runs)]
        cache["hay"] = np.array(["\x00".join("" if v is None else str(v) for v in row).casefold()
                                 for row in zip(*parts, strict=True)], dtype=object)
    hay = cache["hay"]
    mask = np.ones(len(frame), dtype=bool)
    needle = needle.strip().casefold()
    idx = np.flatnonzero(mask)
    keep = np.fromiter((needle in hay[i] for i in idx), dtype=bool, count=idx.size)
    mask[idx[~keep]] = False
    return mask


def bench_frame(n: int, runs: int, repeat: int) -> None:
    from mteval_gui.app.entry_frame import view_order

    t0 = time.perf_counter()
    frame = frame_of(n, runs)
    print(f"{n:,} entries, {runs} runs: frame built in memory in {time.perf_counter() - t0:.0f} s")
    cache: dict = {}
    t0 = time.perf_counter()
    old_filter(frame, QUERIES[0], cache)
    print(f"before: first search (builds the casefolded text): {(time.perf_counter() - t0) * 1000:.0f} ms")
    old_times, old_hits = [], {}
    for q in QUERIES:
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            old_hits[q] = np.flatnonzero(old_filter(frame, q, cache))
            times.append(time.perf_counter() - t0)
        old_times += times
        print(f"before: {q:<16} {old_hits[q].size:>9,} {min(times) * 1000:>8.1f}")
    print(f"before: p95 over {len(old_times)} searches: {p95(old_times) * 1000:.0f} ms,"
          f" median {statistics.median(old_times) * 1000:.0f} ms, max {max(old_times) * 1000:.0f} ms")
    del cache
    gc.collect()
    bench_search(frame, repeat, False, old_hits)
    values = frame.runs[0].metrics["core.chrf"]
    for desc in (True, False):
        computed, kept = [], []
        for _ in range(repeat):
            frame._orders.clear()  # the order computed again
            t0 = time.perf_counter()
            view_order(frame, EntryFilter(), values, desc)
            computed.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            view_order(frame, EntryFilter(), values, desc)
            kept.append(time.perf_counter() - t0)
        print(f"sort {n:,} rows by a metric ({'descending' if desc else 'ascending'}): order computed: best"
              f" {min(computed) * 1000:.0f} ms, worst {max(computed) * 1000:.0f} ms; kept: worst"
              f" {max(kept) * 1000:.1f} ms")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.1f} GB")


def store_values(ws: Workspace, run_ids: list[str], n: int) -> None:
    """chrF++-like values for every entry of every run (the setup of the sort measurement)."""
    rng = np.random.default_rng(3)
    for run_id in run_ids:
        values = rng.uniform(0, 100, n).round(2)
        values[rng.random(n) < 0.01] = np.nan  # a few entries without a value
        with ws.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
                ((run_id, f"e{i:07d}", "core.chrf", None if np.isnan(v) else float(v), "{}")
                 for i, v in enumerate(values.tolist())))


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


def reference_hits(frame, needle: str) -> np.ndarray:
    """The plain answer: rows whose source, reference or an output contains the casefolded needle."""
    needle = needle.strip().casefold()
    cols = [np.asarray(c) for c in (frame.source, frame.reference, *(r.predicted for r in frame.runs))]
    return np.array([i for i in range(len(frame))
                     if any(v is not None and needle in str(v).casefold() for v in (c[i] for c in cols))],
                    dtype=np.int64)


def bench_search(frame, repeat: int, check: bool, expected: dict | None = None) -> None:
    index_api = hasattr(frame, "search_index")
    t0 = time.perf_counter()
    filter_mask(frame, EntryFilter(text=QUERIES[0]))
    first = time.perf_counter() - t0
    print(f"first search (prepares the search text{', starts the index' if index_api else ''}):"
          f" {first * 1000:.0f} ms")
    modes: list[tuple[str, bool | None]] = [("scan", None)]
    if index_api:
        t0 = time.perf_counter()
        idx = frame.search_index(wait=True)
        print(f"background index ready after {time.perf_counter() - t0:.1f} s more ({idx.nbytes / 1e6:.0f} MB)")
        modes = [("scan", False), ("index", True)]
    for mode, use_index in modes:
        if use_index is not None:
            frame.search_index().use_index = use_index
        all_times = []
        print(f"{mode}: {'query':<16} {'hits':>9} {'best ms':>8}  {'answer':>6}")
        for q in QUERIES:
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                mask = filter_mask(frame, EntryFilter(text=q))
                times.append(time.perf_counter() - t0)
            all_times += times
            hits = np.flatnonzero(mask)
            verdict = "-"
            if check or expected is not None:
                want = expected[q] if expected is not None else reference_hits(frame, q)
                verdict = "same" if np.array_equal(hits, want) else "DIFFERS"
            print(f"{mode}: {q:<16} {hits.size:>9,} {min(times) * 1000:>8.1f}  {verdict:>6}")
        print(f"{mode}: p95 over {len(all_times)} searches: {p95(all_times) * 1000:.0f} ms,"
              f" median {statistics.median(all_times) * 1000:.0f} ms, max {max(all_times) * 1000:.0f} ms")


def build(home: Path, db: Path, n: int, runs: int) -> list[str]:
    """Generate the files, import them as the Import dialog does (timed) and store the metric values."""
    for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        stale.unlink(missing_ok=True)
    t0 = time.perf_counter()
    corpus_file, run_files = generate(home, n, runs)
    size = sum(p.stat().st_size for p in [corpus_file, *run_files])
    print(f"{n:,} entries, {runs} runs: {size / 1e6:.0f} MB of JSON Lines generated in"
          f" {time.perf_counter() - t0:.0f} s")
    ws = Workspace(db)
    t0 = time.perf_counter()
    import_corpus_file(ws, corpus_file, corpus_id="big")
    t_corpus = time.perf_counter() - t0
    run_ids = []
    for p in run_files:
        run_ids.append(import_run_file(ws, p, corpus_id="big").id)
    t_import = time.perf_counter() - t0
    print(f"import: corpus {t_corpus:.1f} s, {runs} runs {t_import - t_corpus:.1f} s, total {t_import:.1f} s"
          f" (peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.1f} GB)")
    store_values(ws, run_ids, n)
    ws.close()
    for p in [corpus_file, *run_files]:
        p.unlink()
    return run_ids


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-gui", action="store_true", help="search only (no main window)")
    ap.add_argument("--check", action="store_true", help="compare each answer with a plain scan (slow)")
    ap.add_argument("--frame-only", action="store_true", help="search and sort on a frame built in memory")
    ap.add_argument("--workspace", type=Path, help="a directory to keep the built workspace in; a workspace"
                    " already built there (with the same --entries and --runs) is reused and the import skipped")
    ap.add_argument("--build-only", action="store_true", help="build the workspace, then stop")
    args = ap.parse_args()
    n = args.entries
    if args.frame_only:
        bench_frame(n, args.runs, args.repeat)
        return 0
    home = args.workspace or Path(tempfile.mkdtemp(prefix="bench-big-"))
    home.mkdir(parents=True, exist_ok=True)
    os.environ["MTEVAL_HOME"] = str(home)
    db = home / "big.sqlite"
    built = home / "built.json"
    if built.exists() and json.loads(built.read_text())["entries"] == n \
            and len(json.loads(built.read_text())["runs"]) == args.runs and db.exists():
        run_ids = json.loads(built.read_text())["runs"]
        print(f"{n:,} entries, {args.runs} runs: the workspace built in {home} is reused (no import)")
    else:
        run_ids = build(home, db, n, args.runs)
        built.write_text(json.dumps({"entries": n, "runs": run_ids}))
    if args.build_only:
        return 0

    if args.no_gui:
        from mteval_gui.app.entries import load_entry_frame

        ws = Workspace(db)
        t0 = time.perf_counter()
        frame = load_entry_frame(ws, run_ids)
        print(f"load the entry frame of {args.runs} runs: {time.perf_counter() - t0:.2f} s")
        bench_search(frame, args.repeat, args.check)
        return 0

    from bench_gui import GapMeter, _app, _fmt  # type: ignore[import-not-found]
    from PySide6.QtCore import Qt

    app, window = _app()
    window.open_workspace(db)
    app.processEvents()
    shown: list[float] = []
    page = window.entries_page
    page.frame_shown.connect(lambda: shown.append(time.perf_counter()))
    meter = GapMeter()
    meter.start()
    t0 = time.perf_counter()
    window.open_entries(run_ids)
    while not shown:
        app.processEvents()
        time.sleep(0.001)
    page.table.viewport().repaint()
    app.processEvents()
    opened = time.perf_counter() - t0
    print(f"open the Entries tab ({args.runs} runs side by side, worker thread + model + first paint):"
          f" {opened:.2f} s; meanwhile {_fmt(meter.stop())}")
    meter = GapMeter()
    meter.start()
    while not page.model.frame.complete:
        app.processEvents()
        time.sleep(0.001)
    page.table.viewport().repaint()
    app.processEvents()
    print(f"the runs' values read and shown (worker thread + model reset + repaint): {time.perf_counter() - t0:.2f} s"
          f" after opening; meanwhile {_fmt(meter.stop())}")
    gc.collect()
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.1f} GB")

    table, model = page.table, page.model
    bar = table.verticalScrollBar()
    frames = []
    step = max(1, bar.pageStep())
    for k in range(200):
        t0 = time.perf_counter()
        bar.setValue((k * step * 3) % max(1, bar.maximum()))
        table.viewport().repaint()
        app.processEvents()
        frames.append(time.perf_counter() - t0)
    print(f"scrolling (200 jumps of 3 pages, synchronous repaint): median {1000 * statistics.median(frames):.1f} ms,"
          f" p95 {1000 * p95(frames):.1f} ms, max {1000 * max(frames):.1f} ms per frame")

    keys = [c.key for c in model.visible_columns()]
    col = keys.index(f"{run_ids[0]}:metric:core.chrf")
    for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            model.sort(col, order)
            times.append(time.perf_counter() - t0)
        print(f"sort {n:,} rows by chrF++ ({order.name}): best {min(times) * 1000:.0f} ms,"
              f" worst {max(times) * 1000:.0f} ms")
    frame = model.frame
    for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
        frame._orders.clear()  # as if the orders computed in the background were not ready yet
        t0 = time.perf_counter()
        model.sort(col, order)
        print(f"sort {n:,} rows by chrF++ ({order.name}), its order not computed yet:"
              f" {(time.perf_counter() - t0) * 1000:.0f} ms")
    model.sort(keys.index("position"), Qt.SortOrder.AscendingOrder)

    frame = model.frame
    bench_search(frame, args.repeat, args.check)
    page.search.setText("wâpamêw")
    t0 = time.perf_counter()
    page.apply_filter()
    table.viewport().repaint()
    app.processEvents()
    print(f"text filter in the page (filter + model reset + repaint) 'wâpamêw': {model.rowCount():,} rows in"
          f" {(time.perf_counter() - t0) * 1000:.0f} ms")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.1f} GB")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
