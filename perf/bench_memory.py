"""Peak memory of ``mteval score`` and ``mteval evaluate`` on large generated corpora, and how fast a
huge input is refused.

The corpus is made of the MAFAND fr→ewe test set (source, reference and one system's output)
repeated with variation until it has the asked number of entries: from the second copy on, each
line has one word dropped, doubled or swapped with its neighbour (seeded, so every run of the
script scores the same text). Without ``../shared/data`` a generated Ewe-like vocabulary is
used instead. Three measurements, each a whole process as a user runs it:

1. ``mteval score --all`` of one ``--entries``-entry run in a fresh workspace (the import is not
   measured), default workers: the command and the helper it forks score the batches;
2. ``mteval evaluate`` of ``--evaluate-entries`` entries (text corpus, reference and run files);
3. ``mteval evaluate`` given a 2 GB sparse file as corpus: seconds and peak memory until it is
   refused (a sparse file takes no disk space).

Memory is the peak resident set (``VmHWM``) of every process of the command's tree, read from
``/proc`` every 20 ms while it runs (each process's peak is kept, so the last reading before a
process ends is its peak so far); the total adds up the peaks of all the processes as if they
had come at the same moment (an upper bound: a forked helper's resident set counts the pages it
shares with the command again). The tree's proportional set size (``Pss`` of
``/proc/PID/smaps_rollup``: each shared page divided among the processes sharing it), summed
over the processes at the same moment every 0.1 s, gives its largest real total.
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` (the largest single process of the tree, measured by
the kernel) is printed as a check.

Usage: ``python perf/bench_memory.py [--data ../shared/data] [--entries 200000]
[--evaluate-entries 50000] [--skip score,evaluate,sparse]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
from pathlib import Path

SYSTEM = "m2m100_fr_ewe_rel_news_newsft"
TARGETS_MB = {"score": 1500, "evaluate": 800}
WORDS = ["akpe", "ŋdi", "woezɔ", "ɖevi", "aƒeme", "suku", "agbalẽ", "tsi", "asime", "nyɔnu", "ŋutsu", "dzidzɔ",
         "Mawu", "kɔƒe", "du", "ɖe", "le", "la", "wo", "eye", "be", "me", "nu", "ƒe"]
FRENCH = ["le", "la", "les", "un", "une", "de", "et", "est", "dans", "village", "marché", "eau", "enfant",
          "maison", "école", "livre", "femme", "homme", "joie", "Dieu", "ville", "parler", "aller", "venir"]


def _base_lines(data: Path, system: str) -> tuple[list[str], list[str], list[str]]:
    folder = data / "ewe" / "mafand-fr-ewe"
    hyp_path = folder / "predictions" / f"{system}.txt"
    if hyp_path.is_file():
        def read(p: Path) -> list[str]:
            return unicodedata.normalize("NFC", p.read_text(encoding="utf-8")).splitlines()

        return read(folder / "test.fr"), read(folder / "test.ewe"), read(hyp_path)
    rng = random.Random(3)
    refs = [" ".join(rng.choices(WORDS, k=rng.randint(3, 25))) for _ in range(1500)]
    hyps = [" ".join(w for w in r.split() if rng.random() > 0.2) or "la" for r in refs]
    srcs = [" ".join(rng.choices(FRENCH, k=rng.randint(3, 25))) for _ in range(1500)]
    return srcs, refs, hyps


def _vary(line: str, rng: random.Random) -> str:
    words = line.split()
    if len(words) < 2:
        return line + " " + rng.choice(WORDS)
    i = rng.randrange(len(words) - 1)
    how = rng.randrange(3)
    if how == 0:
        del words[i]
    elif how == 1:
        words.insert(i, words[i])
    else:
        words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def generate(directory: Path, n: int, data: Path, system: str = SYSTEM, seed: int = 21) -> tuple[Path, Path, Path]:
    """``src.txt``, ``ref.txt``, ``hyp.txt`` of ``n`` lines each in ``directory``."""
    srcs, refs, hyps = _base_lines(data, system)
    rng = random.Random(seed)
    paths = directory / "src.txt", directory / "ref.txt", directory / "hyp.txt"
    handles = [p.open("w", encoding="utf-8") for p in paths]
    try:
        for i in range(n):
            j, copy = i % len(srcs), i // len(srcs)
            lines = (srcs[j], refs[j], hyps[j])
            if copy:
                lines = tuple(_vary(x, rng) for x in lines)
            for fh, line in zip(handles, lines, strict=True):
                fh.write(line + "\n")
    finally:
        for fh in handles:
            fh.close()
    return paths


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(b")") + 2:].split()[1])
        out.setdefault(ppid, []).append(int(name))
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _hwm_kb(pid: int) -> tuple[int, str] | None:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    if "VmHWM" not in fields:  # a zombie
        return None
    return int(fields["VmHWM"].split()[0]), fields["Name"].strip()


class TreePeaks:
    """Samples the peak resident set of a process and all its descendants until :meth:`stop`."""

    def __init__(self, root: int, interval: float = 0.02) -> None:
        self.root = root
        self.interval = interval
        self.peaks: dict[int, tuple[int, str]] = {}  # pid -> (VmHWM kB, name)
        self.order: list[int] = []
        self.pss_peak_kb = 0  # largest sum of the tree's Pss at one moment
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        tick = 0
        while not self._stop.is_set():
            kids = _children()
            todo, tree = [self.root], []
            while todo:
                pid = todo.pop()
                tree.append(pid)
                todo += kids.get(pid, [])
            for pid in tree:
                got = _hwm_kb(pid)
                if got is None:
                    continue
                if pid not in self.peaks:
                    self.order.append(pid)
                if got[0] >= self.peaks.get(pid, (0, ""))[0]:
                    self.peaks[pid] = got
            if tick % 5 == 0:
                self.pss_peak_kb = max(self.pss_peak_kb, sum(_pss_kb(pid) for pid in tree))
            tick += 1
            self._stop.wait(self.interval)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, list[tuple[int, str, float]], float, float, int,
                                                           str]:
    """Run ``cmd``: wall seconds, [(pid, name, peak MB)] in start order, the largest process's peak
    by the kernel (MB), the peak of the tree's summed Pss (MB), the exit code and stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    peaks = TreePeaks(proc.pid)
    _, err = proc.communicate()
    wall = time.perf_counter() - t
    peaks.stop()
    kernel = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    largest = kernel / 1024 if kernel > before else float("nan")  # earlier children were larger
    rows = [(pid, peaks.peaks[pid][1], peaks.peaks[pid][0] / 1024) for pid in peaks.order]
    return wall, rows, largest, peaks.pss_peak_kb / 1024, proc.returncode, err


def _report(label: str, target: int | None, wall: float, rows: list[tuple[int, str, float]], largest: float,
            pss: float) -> float:
    total = sum(mb for _, _, mb in rows)
    print(f"{label}: {wall:.1f} s wall")
    for i, (pid, name, mb) in enumerate(rows):
        role = "command" if i == 0 else "child"
        print(f"    {role:<8} pid {pid:<7} {name:<16} peak {mb:7.0f} MB")
    verdict = "" if target is None else f"  (target ≤ {target} MB: {'met' if total <= target else 'NOT met'})"
    print(f"    sum of the peaks {total:.0f} MB{verdict}; largest process by the kernel {largest:.0f} MB; "
          f"largest total Pss of the tree {pss:.0f} MB")
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--entries", type=int, default=200_000, help="entries of the scored workspace run")
    ap.add_argument("--evaluate-entries", type=int, default=50_000, help="entries given to mteval evaluate")
    ap.add_argument("--skip", default="", help="comma-separated: score, evaluate, sparse")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")]))}
    mteval = [sys.executable, "-m", "mteval_gui"]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        if "score" not in skip:
            (d / "score").mkdir()
            src, ref, hyp = generate(d / "score", args.entries, args.data)
            db = str(d / "score" / "ws.sqlite")
            t = time.perf_counter()
            for cmd in (["import", "corpus", str(src), "--ref-file", str(ref), "--id", "big", "--source-lang", "fra",
                         "--target-lang", "ewe"], ["import", "run", str(hyp), "--corpus", "big", "--run-id", "sys"]):
                subprocess.run([*mteval, "--db", db, *cmd], check=True, capture_output=True, env=env)
            print(f"imported {args.entries:,} entries in {time.perf_counter() - t:.1f} s (not measured)")
            wall, rows, largest, pss, code, err = measure([*mteval, "--db", db, "score", "--all"], env)
            if code:
                sys.exit(f"mteval score failed ({code}):\n{err}")
            failed |= _report(f"mteval score, {args.entries:,} entries", TARGETS_MB["score"], wall, rows,
                              largest, pss) > TARGETS_MB["score"]
        if "evaluate" not in skip:
            (d / "evaluate").mkdir()
            src, ref, hyp = generate(d / "evaluate", args.evaluate_entries, args.data)
            wall, rows, largest, pss, code, err = measure(
                [*mteval, "evaluate", "--corpus", str(src), "--ref", str(ref), "--run", str(hyp), "--lang", "ewe",
                 "--source-lang", "fra", "-o", str(d / "evaluate" / "card.json")], env)
            if code:
                sys.exit(f"mteval evaluate failed ({code}):\n{err}")
            failed |= _report(f"mteval evaluate, {args.evaluate_entries:,} entries", TARGETS_MB["evaluate"], wall,
                              rows, largest, pss) > TARGETS_MB["evaluate"]
        if "sparse" not in skip:
            (d / "sparse").mkdir()
            huge = d / "sparse" / "huge.txt"
            with huge.open("wb") as fh:
                fh.truncate(2 * 1024 ** 3)
            small = d / "sparse" / "run.txt"
            small.write_text("a\n", encoding="utf-8")
            wall, rows, largest, pss, code, err = measure(
                [*mteval, "evaluate", "--corpus", str(huge), "--ref", str(small), "--run", str(small), "--lang", "ewe",
                 "-o", str(d / "sparse" / "card.json")], env)
            _report("mteval evaluate of a 2 GB sparse corpus file", None, wall, rows, largest, pss)
            print(f"    exit {code}: {err.strip().splitlines()[-1] if err.strip() else '(no message)'}")
            failed |= code == 0
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
