"""Speed of the GUI's Compare and Validation → Compute on the 16 fr→ewe MAFAND systems.

Builds (once, in ``--db``) a workspace with the MAFAND fr→ewe test set and its 16 system
outputs, scored with the default metrics, then times, in a fresh process state each:

- ``compare``: :func:`mteval_gui.app.compare.compare_workspace_runs` of the 16 systems against
  the first (approximate randomisation, 1,000 trials, every comparable metric), what the
  Compare tab computes in the background;
- ``validation``: :func:`mteval_gui.app.study.validation_study` over the 16 scored runs with
  3 raters × 200 entries × 3 runs of synthetic ratings (a copy of the workspace), what
  Validation → Compute runs.

Usage: ``python perf/bench_compare.py [--data ../shared/data] [--db /tmp/mafand.sqlite] [--repeat 3] [--profile]``
(building and scoring the workspace the first time takes a few minutes; later runs reuse it).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.app import workspace  # noqa: E402
from mteval_gui.app.compare import CompareOptions, compare_workspace_runs  # noqa: E402
from mteval_gui.app.review import add_reviewer, record_judgment  # noqa: E402
from mteval_gui.app.scoring import score_workspace_run  # noqa: E402
from mteval_gui.app.study import validation_study  # noqa: E402
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair  # noqa: E402
from mteval_gui.domain.judgments import Judgment, Reviewer  # noqa: E402
from mteval_gui.domain.run import Output, Run, RunMeta  # noqa: E402

CORPUS = "mafand-fr-ewe-test"  # the id `mteval import corpus test.fr --ref-file test.ewe` gives it


def _lines(p: Path) -> list[str]:
    t = p.read_text(encoding="utf-8")
    return (t[:-1] if t.endswith("\n") else t).split("\n")


def build(db: Path, data: Path) -> None:
    """The scored MAFAND fr→ewe workspace (kept between runs of this script)."""
    from mteval_gui.store import repo

    folder = data / "ewe" / "mafand-fr-ewe"
    nfc = lambda s: unicodedata.normalize("NFC", s)  # noqa: E731
    ws = workspace.open_workspace(db)
    try:
        if not workspace.corpus_exists(ws, CORPUS):
            src, ref = [nfc(x) for x in _lines(folder / "test.fr")], [nfc(x) for x in _lines(folder / "test.ewe")]
            repo.add_corpus(ws, Corpus(corpus_id=CORPUS, language_pair=LanguagePair(source="fra", target="ewe"),
                                       entries=[Entry(id=str(i + 1), source=s, reference=r)
                                                for i, (s, r) in enumerate(zip(src, ref, strict=True))]))
        for path in sorted((folder / "predictions").glob("*_fr_ewe_*.txt")):
            if not workspace.run_exists(ws, path.stem):
                outputs = [Output(id=str(i + 1), predicted=nfc(h)) for i, h in enumerate(_lines(path))]
                repo.add_run(ws, Run(meta=RunMeta(run_id=path.stem, model_slug=path.stem), corpus_id=CORPUS,
                                     outputs=outputs))
        for r in workspace.list_runs(ws, CORPUS):
            if not r["has_run_card"]:
                t = time.perf_counter()
                score_workspace_run(ws, r["run_id"])
                print(f"scored {r['run_id']} in {time.perf_counter() - t:.1f} s", flush=True)
    finally:
        ws.close()


def add_ratings(ws: workspace.Workspace, runs: list[str], n_entries: int = 200) -> None:
    ids = [e.id for e in workspace.get_entries(ws, CORPUS)][:n_entries]
    for k, rid in enumerate(("ana", "ben", "cat")):
        add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title()))
        for j, run in enumerate(runs[:3]):
            for i, eid in enumerate(ids):
                record_judgment(ws, Judgment(reviewer_id=rid, run_id=run, entry_id=eid,
                                             adequacy=1 + (i * 7 + j * 3 + k) % 5, fluency=1 + (i * 5 + j + k) % 5))


def timed(label: str, fn, repeat: int, profile: bool) -> None:
    """Wall and CPU time of each call (the first is cold; later ones find the runs' statistics cached)."""
    for i in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        if profile:
            prof = cProfile.Profile()
            prof.runcall(fn)
        else:
            fn()
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        if profile:
            pstats.Stats(prof).sort_stats("cumulative").print_stats(18)
        print(f"{label} [{'cold' if i == 0 else 'again'}]: wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--db", type=Path, default=Path(tempfile.gettempdir()) / "mteval-bench-mafand.sqlite")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="print a cProfile summary of each timed call")
    args = ap.parse_args()
    build(args.db, args.data)
    ws = workspace.open_workspace(args.db)
    runs = [r["run_id"] for r in workspace.list_runs(ws, CORPUS)]
    print(f"{len(runs)} systems x {len(workspace.get_entries(ws, CORPUS))} entries")
    timed(f"compare {len(runs)} systems (AR, 1000 trials)",
          lambda: compare_workspace_runs(ws, runs, runs[0], CompareOptions(test="ar")), args.repeat, args.profile)
    ws.close()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "rated.sqlite"
        shutil.copy2(args.db, copy)
        rated = workspace.open_workspace(copy)
        add_ratings(rated, runs)
        timed(f"validation study over {len(runs)} runs (3 raters x 200 entries x 3 runs, B=1000)",
              lambda: validation_study(rated, runs, aspect="adequacy"), args.repeat, args.profile)
        rated.close()


if __name__ == "__main__":
    main()
