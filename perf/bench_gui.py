"""GUI responsiveness benchmarks (numbers for the README; not a test).

    python perf/bench_gui.py scoring [--runs 14] [--mode process|thread]
    python perf/bench_gui.py entries [--n 100000]

``scoring``: the real main window scores N fr→ewe systems of the MAFAND test set
(``../shared/data/ewe/mafand-fr-ewe``, 1,563 segments each) in the background while the
Entries tab shows the first run (so partial results are reloaded as batches finish). A
10 ms ``QTimer`` runs in the GUI thread; the gaps between its ticks are the event-loop
stalls a user would feel. ``--mode process`` is the application's default (scoring in a
child process driven by a QThread); ``--mode thread`` scores inside the QThread for
comparison. Idle gaps are measured first as the baseline.

``entries``: a synthetic corpus and run of N entries (scored with exact match and chrF++),
then: time to load and show the entries of the run, frame times while scrolling page by
page (synchronous repaints of the table), sort and text-filter times inside the model.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MTEVAL_SHARED", REPO.parent / "shared")) / "data"


def _app():
    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.qt.main import build_window, setup_application

    settings = AppSettings.load()
    app = setup_application(["bench"], "en", settings)
    window = build_window(settings)
    window.resize(1400, 860)
    window.show()
    return app, window


class GapMeter:
    """Records the time between ticks of a 10 ms timer in the GUI thread."""

    def __init__(self, interval_ms: int = 10):
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now

    def start(self) -> None:
        self.gaps.clear()
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> dict[str, float]:
        self.timer.stop()
        g = sorted(self.gaps) or [0.0]
        return {"ticks": len(self.gaps), "max_ms": 1000 * g[-1], "p99_ms": 1000 * g[int(0.99 * (len(g) - 1))],
                "median_ms": 1000 * statistics.median(g), "over_100ms": sum(1 for x in g if x > 0.1)}


def _fmt(stats: dict[str, float]) -> str:
    return (f"ticks {stats['ticks']}, longest gap {stats['max_ms']:.1f} ms, p99 {stats['p99_ms']:.1f} ms, "
            f"median {stats['median_ms']:.1f} ms, gaps > 100 ms: {stats['over_100ms']}")


def bench_scoring(n_runs: int, mode: str) -> None:
    from mteval_gui.app.imports import import_corpus_file, import_run_file
    from mteval_gui.store import Workspace

    data = SHARED / "ewe" / "mafand-fr-ewe"
    if not data.is_dir():
        sys.exit(f"needs {data}")
    home = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    os.environ["MTEVAL_HOME"] = str(home)
    db = home / "bench.sqlite"
    ws = Workspace(db)
    import_corpus_file(ws, data / "test.fr", fmt="text", ref_path=data / "test.ewe", corpus_id="mafand-fr-ewe",
                       source_lang="fra", target_lang="ewe")
    files = sorted((data / "predictions").glob("*_fr_ewe_*.txt"))[:n_runs]
    run_ids = [import_run_file(ws, f, corpus_id="mafand-fr-ewe", fmt="text", run_id=f.stem).id for f in files]
    ws.close()

    app, window = _app()
    from mteval_gui.qt import mainwindow

    window.open_workspace(db)
    window.open_entries([run_ids[0]])
    meter = GapMeter()
    meter.start()
    t_end = time.perf_counter() + 3.0
    while time.perf_counter() < t_end:
        app.processEvents()
        time.sleep(0.001)
    idle = meter.stop()
    print(f"idle: {_fmt(idle)}")

    if mode == "thread":
        _use_thread_scoring(window)
    done = {}
    window.scoring.finished.connect(lambda outcome: done.setdefault("outcome", outcome))
    meter.start()
    t0 = time.perf_counter()
    window.score_runs(run_ids)
    while "outcome" not in done:
        app.processEvents()
        time.sleep(0.001)
    seconds = time.perf_counter() - t0
    busy = meter.stop()
    print(f"scoring {len(run_ids)} systems × 1563 segments ({mode}): {seconds:.1f} s, outcome {done['outcome'].status}")
    print(f"while scoring: {_fmt(busy)}")
    window.close()
    del mainwindow


def _use_thread_scoring(window) -> None:
    """Swap the child process for in-thread scoring (the comparison DESIGN §4 describes)."""
    from mteval_gui.qt import jobs, scoring_control

    class InThread(jobs.FunctionJob):
        def __init__(self, target: str, kwargs: dict):
            fn = jobs.resolve_target(target)
            super().__init__(lambda p, q, ev: fn(on_progress=p, on_partial=q, cancel_event=ev, **kwargs))

    scoring_control.ProcessJob = InThread


def bench_entries(n: int) -> None:
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo

    home = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    os.environ["MTEVAL_HOME"] = str(home)
    db = home / "big.sqlite"
    rng = random.Random(7)
    vocab = ["atim", "nipâw", "pimohtêw", "mîcisow", "nikamow", "wâpamêw", "kinipân", "nêhiyawêw", "ê-nipât",
             "api", "kîwêw", "pîhtokêw", "atoskêw", "pimâtisiw", "kiskêyihtam", "wâskahikan", "sîpiy", "maskwa"]
    entries, outputs = [], []
    for i in range(n):
        ref = " ".join(rng.choice(vocab) for _ in range(rng.randint(1, 6)))
        out = (
            ref if rng.random() < 0.3 else " ".join(w if rng.random() < 0.7 else rng.choice(vocab) for w in ref.split())
        )
        entries.append(Entry(id=str(i), source=f"source sentence {i}", reference=ref, difficulty=rng.randint(1, 5)))
        outputs.append(Output(id=str(i), predicted=out))
    ws = Workspace(db)
    t = time.perf_counter()
    repo.add_corpus(
        ws, Corpus(corpus_id="big", language_pair=LanguagePair(source="eng", target="crk"), entries=entries)
    )
    repo.add_run(ws, Run(meta=RunMeta(run_id="big-run", model_slug="synthetic"), corpus_id="big", outputs=outputs))
    print(f"import {n} entries: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    score_workspace_run(ws, "big-run", metrics=["core.exact", "core.chrf"], batch_size=2000)
    print(f"score exact + chrF++: {time.perf_counter() - t:.1f} s")
    ws.close()

    app, window = _app()
    window.open_workspace(db)
    app.processEvents()
    shown = []
    window.entries_page.frame_shown.connect(lambda: shown.append(time.perf_counter()))
    meter = GapMeter()
    meter.start()
    t = time.perf_counter()
    window.open_entries(["big-run"])
    while not shown:
        app.processEvents()
        time.sleep(0.001)
    page = window.entries_page
    table = page.table
    table.viewport().repaint()
    app.processEvents()
    opened = time.perf_counter() - t
    stalls = meter.stop()
    print(
        f"open the entries of a {n}-entry run (load in a worker thread + model + first paint): {opened * 1000:.0f} ms; "
        f"meanwhile {_fmt(stalls)}"
    )
    from mteval_gui.app.entries import load_entry_frame

    ws2 = window.ws
    t = time.perf_counter()
    load_entry_frame(ws2, ["big-run"])
    print(f"  of which loading the columns from the workspace: {(time.perf_counter() - t) * 1000:.0f} ms")

    bar = table.verticalScrollBar()
    frames = []
    step = max(1, bar.pageStep())
    for k in range(200):
        t = time.perf_counter()
        bar.setValue((k * step * 3) % max(1, bar.maximum()))
        table.viewport().repaint()
        app.processEvents()
        frames.append(time.perf_counter() - t)
    frames.sort()
    print(f"scrolling (200 jumps of 3 pages, synchronous repaint): median {1000 * statistics.median(frames):.1f} ms, "
          f"p95 {1000 * frames[int(0.95 * (len(frames) - 1))]:.1f} ms, max {1000 * frames[-1]:.1f} ms per frame")

    model = page.model
    col = [c.key for c in model.visible_columns()].index("big-run:metric:core.chrf")
    from PySide6.QtCore import Qt

    for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
        t = time.perf_counter()
        model.sort(col, order)
        print(f"sort {n} rows by chrF++ ({order.name}): {(time.perf_counter() - t) * 1000:.0f} ms")
    src = [c.key for c in model.visible_columns()].index("source")
    t = time.perf_counter()
    model.sort(src, Qt.SortOrder.AscendingOrder)
    print(f"sort {n} rows by source text: {(time.perf_counter() - t) * 1000:.0f} ms")
    for text in ("maskwa sîpiy", "nipâw"):
        page.search.setText(text)
        t = time.perf_counter()
        page.apply_filter()
        print(f"text filter {text!r}: {model.rowCount()} rows in {(time.perf_counter() - t) * 1000:.0f} ms")
    window.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("scoring")
    s.add_argument("--runs", type=int, default=14)
    s.add_argument("--mode", choices=("process", "thread"), default="process")
    e = sub.add_parser("entries")
    e.add_argument("--n", type=int, default=100_000)
    args = ap.parse_args(argv)
    if args.what == "scoring":
        bench_scoring(args.runs, args.mode)
    else:
        bench_entries(args.n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
