"""Full scoring of the 16 MAFAND fr→ewe systems through ``mteval score`` (whole processes).

The NFC text of the corpus and of the 16 system outputs (25,008 entries) is imported into two
fresh workspaces (not timed); then, alternately, ``--repeat`` times:

- ``mteval score --all --workers 1`` (one process, the runs one after the other);
- ``mteval score --all --workers 2`` (the runs side by side in two worker processes);
- ``sacrebleu test.ewe -i SYS1 … SYS16 -m bleu chrf ter --chrf-word-order 2`` (three metrics,
  no intervals, no run card) on the same files, for comparison.

Every built-in metric that applies to Ewe runs (model-based ones excluded, as by default),
with 1,000-resample intervals and the run cards. Each timed ``mteval score`` starts from
unscored runs (``--replace`` scores again). Prints wall and CPU seconds, entries/s, and checks
that both worker settings stored the same run cards (apart from their timestamps and speed).

Usage: ``python perf/bench_score_workspace.py [--data ../shared/data] [--repeat 1] [--systems N]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path


def _nfc_copy(src: Path, dst: Path) -> Path:
    dst.write_text(unicodedata.normalize("NFC", src.read_text(encoding="utf-8")), encoding="utf-8")
    return dst


def _timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode:
        sys.exit(f"{' '.join(cmd[:6])} failed:\n{res.stderr}")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _cards(db: Path) -> dict[str, dict]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT run_id, run_card FROM runs WHERE run_card IS NOT NULL").fetchall()
    finally:
        con.close()
    out = {}
    for run_id, text in rows:
        card = json.loads(text)
        card.pop("timestamp", None)
        for k in ("entries_per_second", "seconds_per_entry"):
            card["scores"].pop(k, None)
        out[run_id] = card
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--systems", type=int, default=0, help="only the first N systems (default: all 16)")
    args = ap.parse_args()
    folder = args.data / "ewe" / "mafand-fr-ewe"
    systems = sorted(p.stem for p in (folder / "predictions").glob("*_fr_ewe_*.txt"))
    if args.systems:
        systems = systems[:args.systems]
    mteval = [sys.executable, "-m", "mteval_gui"]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        src, ref = _nfc_copy(folder / "test.fr", d / "test.fr"), _nfc_copy(folder / "test.ewe", d / "test.ewe")
        hyps = [_nfc_copy(folder / "predictions" / f"{s}.txt", d / f"{s}.txt") for s in systems]
        dbs = {w: d / f"ws{w}.sqlite" for w in (1, 2)}
        for db in dbs.values():
            subprocess.run([*mteval, "--db", str(db), "import", "corpus", str(src), "--ref-file", str(ref),
                            "--id", "mafand", "--source-lang", "fra", "--target-lang", "ewe"],
                           check=True, capture_output=True)
            for h in hyps:
                subprocess.run([*mteval, "--db", str(db), "import", "run", str(h), "--corpus", "mafand"],
                               check=True, capture_output=True)
        n = 1563 * len(systems)
        sb_cmd = [sys.executable, "-m", "sacrebleu", str(ref), "-i", *map(str, hyps), "-m", "bleu", "chrf", "ter",
                  "--chrf-word-order", "2", "-f", "json"]
        times: dict[str, list[tuple[float, float]]] = {"mteval score --workers 1": [], "mteval score --workers 2": [],
                                                       "sacrebleu (3 metrics)": []}
        # both tools start from bytecode, as installed packages do (a checkout run with
        # PYTHONDONTWRITEBYTECODE would compile this package at every start)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "mteval-bench-pycache")
        repo = Path(__file__).resolve().parent.parent
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(repo / "mteval_gui"),
                        str(repo / "eval_standards")], capture_output=True, env=env, check=False)
        for i in range(args.repeat):
            for w, db in dbs.items():
                extra = ["--replace"] if i else []
                times[f"mteval score --workers {w}"].append(
                    _timed([*mteval, "--db", str(db), "score", "--all", "--workers", str(w), *extra], env))
            times["sacrebleu (3 metrics)"].append(_timed(sb_cmd, env))
        same = _cards(dbs[1]) == _cards(dbs[2])
        print(f"{len(systems)} fr→ewe systems, {n:,} entries, {args.repeat} alternating run(s); wall s (CPU s):")
        for name, ts in times.items():
            best = min(w for w, _ in ts)
            print(f"  {name:<26} " + "  ".join(f"{w:7.2f} ({c:6.2f})" for w, c in ts)
                  + f"   {n / best:7.0f} entries/s")
        w1 = min(w for w, _ in times["mteval score --workers 1"])
        w2 = min(w for w, _ in times["mteval score --workers 2"])
        sb = min(w for w, _ in times["sacrebleu (3 metrics)"])
        print(f"  workers 2 / workers 1: {w2 / w1:.2f}; mteval (2 workers) / sacrebleu: {w2 / sb:.2f} "
              f"(target ≥ 1,000 entries/s)")
        print("  run cards of both settings: " + ("identical" if same else "DIFFERENT"))
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
