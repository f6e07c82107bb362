"""Scoring MAFAND fr→ewe runs on a Ray cluster against local scoring (whole processes).

A Ray head is started on loopback (``ray start --head --block --num-cpus 4``, Ray's token
authentication off as it listens on this machine only: four worker
slots whatever this machine has, so 4 workers on 2 cores measure contention, not a bigger
machine); the corpus and ``--systems`` system outputs (NFC) are imported into a fresh workspace
(not timed). Then, each starting from unscored runs (``--replace``):

- ``mteval score --all --workers 1`` and ``--workers 2`` (this machine's processes), after one
  untimed ``--workers 2`` (bytecode, caches);
- ``mteval score --all --cluster 127.0.0.1:PORT --cluster-workers N`` for N = 1, 2, 4.

Every built-in metric that applies to Ewe runs (model-based ones excluded, as by default), with
1,000-resample intervals. Prints wall seconds, entries/s and the desktop process's own CPU
seconds (what the cluster does not take over: committing batches, aggregating, intervals, the
run cards), checks that every setting stored the same run cards as ``--workers 1`` (timestamps
and speed aside) and exits 1 if not.

Then, in this process, on the same head: the per-batch overhead (the median round trip of an
empty batch to a started worker, and of a 50-entry batch of ``core.exact`` minus its scoring
time here) and the start of a worker (actor created, metrics opened).

Usage: ``python perf/bench_cluster.py [--data ../shared/data] [--systems 4] [--port 6391]``
(needs ``pip install -e ".[cluster]"``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_score_workspace import _cards, _nfc_copy, _timed  # noqa: E402 (the sibling script's helpers)


def _wait_for_head(port: int, head: subprocess.Popen[str], limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if head.poll() is not None:
            sys.exit(f"ray start --head ended with {head.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    sys.exit(f"the Ray head did not listen on port {port} within {limit:.0f} s")


def _overhead(address: str, db: Path) -> dict[str, float]:
    """Per-batch round trip and worker start, measured on the head from this process."""
    import ray

    from mteval_gui.app.scoring import build_request
    from mteval_gui.scoring import cluster
    from mteval_gui.scoring.batches import score_batch
    from mteval_gui.scoring.job import ScoringJob
    from mteval_gui.scoring.plugins import metrics_for
    from mteval_gui.store.db import Workspace

    sys.path.insert(0, str(REPO))
    ws = Workspace(str(db))
    try:
        run_id = sorted(r for (r,) in sqlite3.connect(db).execute("SELECT run_id FROM runs"))[0]
        request = build_request(ws, run_id, metrics=["core.exact"], n_bootstrap=0)
    finally:
        ws.close()
    ray.init(address=address, log_to_driver=False, logging_level="ERROR")
    request.cluster = address
    portable, shipped = cluster._portable(ray, request)
    portable = dataclasses.replace(portable, metrics=metrics_for(portable.target_card, include=["core.exact"]),
                                   include=None)
    spec = cluster.WorkerSpec(ray.put(portable), shipped, ["core.exact"], False)
    t = time.perf_counter()
    actor = ray.remote(cluster.BatchWorker).options(num_cpus=1).remote()
    ray.get(actor.load.remote(spec))
    start = time.perf_counter() - t
    empty, full = [], []
    for _ in range(50):
        t = time.perf_counter()
        ray.get(actor.score.remote(0, 0, 0))
        empty.append(time.perf_counter() - t)
    for b in range(30):
        t = time.perf_counter()
        ray.get(actor.score.remote(b, b * 50, b * 50 + 50))
        full.append(time.perf_counter() - t)
    job = ScoringJob.start(portable)
    from mteval_gui.scoring.batches import prepare, resolve_metrics
    from mteval_gui.scoring.progress import Throttle

    job.states = resolve_metrics(portable)
    prepare(job, Throttle(None))
    here = []
    for b in range(30):
        t = time.perf_counter()
        score_batch(job.states, job.items[b * 50:b * 50 + 50], b)
        here.append(time.perf_counter() - t)
    ray.kill(actor)
    ray.shutdown()
    return {"start_s": start, "empty_ms": statistics.median(empty) * 1000,
            "batch_ms": statistics.median(full) * 1000, "here_ms": statistics.median(here) * 1000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--systems", type=int, default=4, help="the first N fr→ewe systems (default 4)")
    ap.add_argument("--port", type=int, default=6391, help="the head's port on 127.0.0.1")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4], help="cluster worker counts to time")
    ap.add_argument("--overhead", nargs=2, metavar=("ADDRESS", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.overhead:  # run by main() in a process of its own, with the head's environment
        print(json.dumps(_overhead(args.overhead[0], Path(args.overhead[1]))))
        return
    if shutil.which("ray") is None:
        sys.exit("Ray is not installed: pip install -e '.[cluster]'")
    folder = args.data / "ewe" / "mafand-fr-ewe"
    systems = sorted(p.stem for p in (folder / "predictions").glob("*_fr_ewe_*.txt"))[:args.systems]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["RAY_AUTH_MODE"] = "disabled"  # a head on loopback for measuring; a real cluster keeps Ray's token
    mteval = [sys.executable, "-m", "mteval_gui"]
    address = f"127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        env["MTEVAL_HOME"] = str(d / "home")
        src, ref = _nfc_copy(folder / "test.fr", d / "test.fr"), _nfc_copy(folder / "test.ewe", d / "test.ewe")
        db = d / "ws.sqlite"
        subprocess.run([*mteval, "--db", str(db), "import", "corpus", str(src), "--ref-file", str(ref), "--id",
                        "mafand", "--source-lang", "fra", "--target-lang", "ewe"], check=True, capture_output=True,
                       env=env)
        for s in systems:
            subprocess.run([*mteval, "--db", str(db), "import", "run", str(_nfc_copy(
                folder / "predictions" / f"{s}.txt", d / f"{s}.txt")), "--corpus", "mafand"], check=True,
                capture_output=True, env=env)
        n = 1563 * len(systems)
        head = subprocess.Popen(["ray", "start", "--head", "--block", f"--port={args.port}", "--num-cpus=4",
                                 "--num-gpus=0", "--include-dashboard=false", "--disable-usage-stats",
                                 f"--temp-dir={d / 'ray'}"], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, text=True)
        try:
            _wait_for_head(args.port, head)
            rows: list[tuple[str, float, float]] = []
            _timed([*mteval, "--db", str(db), "score", "--all", "--workers", "2"], env)  # warm-up: not timed
            wall, cpu = _timed([*mteval, "--db", str(db), "score", "--all", "--replace", "--workers", "1"], env)
            rows.append(("local, 1 process", wall, cpu))
            reference = _cards(db)
            same = True
            settings = [("local, 2 processes", ["--workers", "2"])] + [
                (f"Ray, {w} worker{'s' if w > 1 else ''}", ["--cluster", address, "--cluster-workers", str(w)])
                for w in args.workers]
            for name, extra in settings:
                wall, cpu = _timed([*mteval, "--db", str(db), "score", "--all", "--replace", *extra], env)
                rows.append((name, wall, cpu))
                if _cards(db) != reference:
                    print(f"  {name}: run cards DIFFER from local scoring")
                    same = False
            print(f"{len(systems)} MAFAND fr→ewe systems, {n:,} entries, batches of 50; "
                  f"head: 4 CPU slots on {os.cpu_count()} cores")
            print(f"  {'setting':<22} {'wall s':>8} {'entries/s':>10} {'desktop CPU s':>14}")
            for name, wall, cpu in rows:
                print(f"  {name:<22} {wall:8.2f} {n / wall:10.0f} {cpu:14.2f}")
            print("  run cards of every setting: " + ("identical to local scoring" if same else "DIFFERENT"))
            res = subprocess.run([sys.executable, __file__, "--overhead", address, str(db)], capture_output=True,
                                 text=True, env=env, check=False)
            if res.returncode:
                sys.exit(f"the overhead measurement failed:\n{res.stderr[-3000:]}")
            o = json.loads(res.stdout.strip().splitlines()[-1])
            print(f"  worker start (actor + metrics opened): {o['start_s']:.2f} s; per batch: empty round trip "
                  f"{o['empty_ms']:.1f} ms, 50 entries of core.exact {o['batch_ms']:.1f} ms on a worker vs "
                  f"{o['here_ms']:.1f} ms here (overhead {o['batch_ms'] - o['here_ms']:.1f} ms)")
        finally:
            head.terminate()
            try:
                head.wait(30)
            except subprocess.TimeoutExpired:
                head.kill()
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
