"""Importing a big workspace: a corpus of N entries (default 1,000,000) and 4 runs of it, stage by stage.

    python perf/bench_import_big.py [--entries 1000000] [--runs 4] [--files DIR] [--mode batch|single|one-by-one]

The files are those of ``perf/bench_big_workspace.py`` (JSON Lines, the same generator and seed),
written into DIR (kept, and reused when they are already there) or into a temporary folder. They
are imported into a new workspace through the application layer, as ``mteval import`` and the
Import dialog do. Target: the corpus and its 4 runs in under 60 s.

Modes:

- ``batch`` (default): the corpus and its runs in one call, ``import_files`` (``mteval import
  corpus big.jsonl --runs run0.jsonl ...``): one transaction, a forked helper reading, checking
  and preparing files while this process writes the others (and prepares those it takes). The
  time at which each file is written is printed, then the wall time, the CPU time of this
  process and of the helper, and the peak memory of each.
- ``single``: the same call without the helper (``helper=False``): every stage in this process,
  so the stage table below says where the CPU goes.
- ``one-by-one``: ``import_corpus_file`` then ``import_run_file`` for each run (one transaction
  per file), as the Import dialog imports a single file.

In ``single`` and ``one-by-one`` modes each file's wall and CPU time is given with the time of
each stage (wall / CPU seconds, the functions of the import timed where they are called):
``file`` reading and decoding the UTF-8 text; ``json`` decoding the lines; ``checks`` checking the
records and making the entries or outputs; ``language`` the check of a run's language against its
corpus (a sample of 200 outputs, and the corpus's references); ``hash`` the content hash; ``rows``
the rest of preparing what is stored (the rows, the checks against the corpus); ``store`` the
SQLite inserts and the commit (in ``single`` mode the one commit at the end has a line of its
own). The load average of the machine is printed before and after: on a
shared machine the wall times depend on it, the CPU times much less.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "perf"))

from bench_big_workspace import generate  # type: ignore[import-not-found]  # noqa: E402

from mteval_gui.app import imports  # noqa: E402
from mteval_gui.io import corpus as corpus_io  # noqa: E402
from mteval_gui.io import runs as runs_io  # noqa: E402
from mteval_gui.scoring.progress import Progress  # noqa: E402
from mteval_gui.store import Workspace, repo  # noqa: E402

# (module, function, stage): the functions timed; a stage's time excludes the stages called inside it
TIMED = (
    (corpus_io, "read_text", "file"), (runs_io, "read_text", "file"),
    (corpus_io, "parse_jsonl", "json"), (runs_io, "parse_jsonl", "json"),
    (corpus_io, "_collect_entries", "checks"), (runs_io, "_collect_outputs", "checks"),
    (corpus_io, "plain_entries", "checks"), (runs_io, "plain_outputs", "checks"),
    (imports, "sample_language_warnings", "language"),
    (repo, "sha256_rows", "hash"),
    (repo, "prepare_corpus", "rows"), (repo, "prepare_run", "rows"),
    (repo, "write_corpus", "store"), (repo, "write_run", "store"),
    (repo, "add_corpus", "store"), (repo, "import_run", "store"),
)
STAGES = ("file", "json", "checks", "language", "hash", "rows", "store", "other")


class Stages:
    """Wall and CPU seconds per stage, each stage without the stages it calls."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # per open stage: wall and CPU spent in nested stages

    def wrap(self, module, name: str, stage: str) -> None:
        f = getattr(module, name)

        @functools.wraps(f)
        def timed(*args, **kwargs):
            self._stack.append([0.0, 0.0])
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                dw, dc = time.perf_counter() - w0, time.process_time() - c0
                inner = self._stack.pop()
                self.wall[stage] += dw - inner[0]
                self.cpu[stage] += dc - inner[1]
                if self._stack:
                    self._stack[-1][0] += dw
                    self._stack[-1][1] += dc

        setattr(module, name, timed)

    def report(self, label: str, wall: float, cpu: float) -> str:
        self.wall["other"] = wall - sum(v for k, v in self.wall.items() if k != "other")
        self.cpu["other"] = cpu - sum(v for k, v in self.cpu.items() if k != "other")
        parts = ", ".join(f"{s} {self.wall[s]:.1f}/{self.cpu[s]:.1f}" for s in STAGES if s in self.wall)
        self.wall.clear()
        self.cpu.clear()
        return f"{label}: {wall:.1f} s wall, {cpu:.1f} s CPU ({parts})"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--files", type=Path, help="folder of the generated files (kept; reused if present)")
    ap.add_argument("--mode", choices=("batch", "single", "one-by-one"), default="batch",
                    help="one call with a helper process (default), one call without, or one call per file")
    args = ap.parse_args()
    n = args.entries
    home = Path(tempfile.mkdtemp(prefix="bench-import-big-"))
    os.environ["MTEVAL_HOME"] = str(home)
    folder = args.files or home
    folder.mkdir(parents=True, exist_ok=True)
    corpus_file, run_files = folder / "big.jsonl", [folder / f"run{r}.jsonl" for r in range(args.runs)]
    if not all(p.exists() for p in [corpus_file, *run_files]):
        t0 = time.perf_counter()
        corpus_file, run_files = generate(folder, n, args.runs)
        print(f"files generated in {time.perf_counter() - t0:.0f} s")
    size = sum(p.stat().st_size for p in [corpus_file, *run_files])
    print(f"{n:,} entries, {args.runs} runs: {size / 1e6:.0f} MB of JSON Lines")

    ws = Workspace(home / "big.sqlite")
    print(f"mode {args.mode}; load average before: {load()}")
    w_all, c_all = time.perf_counter(), time.process_time()
    if args.mode == "batch":
        def written(p: Progress) -> None:
            if p.stage == "writing":
                print(f"  {time.perf_counter() - w_all:5.1f} s: {p.done} of {p.total} files written", flush=True)

        imports.import_files(ws, corpus_file, run_files, corpus_id="big", on_progress=written)
    else:
        stages = Stages()
        for module, name, stage in TIMED:
            stages.wrap(module, name, stage)
        if args.mode == "single":
            state = {"w": time.perf_counter(), "c": time.process_time()}
            labels = ["corpus", *(p.stem for p in run_files)]

            def step(p: Progress) -> None:
                if p.stage == "writing":
                    w, c = time.perf_counter(), time.process_time()
                    print(stages.report(labels[p.done - 1], w - state["w"], c - state["c"]), flush=True)
                    state.update(w=w, c=c)

            imports.import_files(ws, corpus_file, run_files, corpus_id="big", helper=False, on_progress=step)
            w, c = time.perf_counter(), time.process_time()
            print(stages.report("commit", w - state["w"], c - state["c"]), flush=True)
        else:
            w0, c0 = time.perf_counter(), time.process_time()
            imports.import_corpus_file(ws, corpus_file, corpus_id="big")
            print(stages.report("corpus", time.perf_counter() - w0, time.process_time() - c0), flush=True)
            for p in run_files:
                w0, c0 = time.perf_counter(), time.process_time()
                imports.import_run_file(ws, p, corpus_id="big")
                print(stages.report(p.stem, time.perf_counter() - w0, time.process_time() - c0), flush=True)
    wall, cpu = time.perf_counter() - w_all, time.process_time() - c_all
    helper = resource.getrusage(resource.RUSAGE_CHILDREN)
    helper_cpu = f", helper {helper.ru_utime + helper.ru_stime:.1f} s CPU" if args.mode == "batch" else ""
    helper_rss = f", helper {helper.ru_maxrss / 1e6:.2f} GB" if args.mode == "batch" else ""
    print(f"import: {wall:.1f} s wall, {cpu:.1f} s CPU{helper_cpu} (target < 60 s wall); peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB{helper_rss}; "
          f"load average after: {load()}")
    ws.close()
    db = sum(f.stat().st_size for f in home.glob("big.sqlite*"))
    print(f"workspace {db / 1e6:.0f} MB")
    shutil.rmtree(home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
