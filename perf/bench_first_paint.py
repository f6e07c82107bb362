"""Time to the first paint of ``mteval-gui --demo``: from starting the process to the window on screen.

    python perf/bench_first_paint.py [--repeat 5] [--platform offscreen|xcb] [--source CHECKOUT ...]

Each repeat starts a fresh ``python -m mteval_gui.gui --demo --no-score`` process (through a
small driver that records when the main window is first painted, then exits) in a user folder
where the demo workspace already exists and is scored, with the modules' bytecode cached as
in an installed package (the usual start; the first start also compiles the modules and
builds the demo, timed separately as "first start"). Prints the median and range of:

- ``shown``: the window's ``show()`` call (Qt imported, the window and its tabs built);
- ``painted``: the first paint event of a widget of the main window (what the user sees);

and which heavy modules (numpy, scipy, pandas, sacrebleu, hfst, matplotlib, torch...) were
already imported when the window was painted. ``--source`` names checkouts to time side by
side (default: this one), their starts interleaved so that a busy machine slows them alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "scipy", "pandas", "sacrebleu", "hfst", "pyhfst", "matplotlib", "torch", "sklearn", "numba",
         "regex", "pyarrow", "fontTools")

DRIVER = r"""
import json, os, sys, time
t0 = float(os.environ["BENCH_T0"])
marks = {"python": time.time() - t0}
import mteval_gui
import mteval_gui.qt.main as qmain
print("SOURCE " + os.path.dirname(os.path.dirname(os.path.abspath(mteval_gui.__file__))), flush=True)
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

_build = qmain.build_window


class FirstPaint(QObject):
    def __init__(self, window):
        super().__init__()
        self.window = window

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and isinstance(obj, QWidget) and obj.window() is self.window:
            marks["painted"] = time.time() - t0
            marks["heavy"] = sorted(m for m in HEAVY if m in sys.modules)
            print("BENCH " + json.dumps(marks), flush=True)
            os._exit(0)
        return False


def build_window(settings, **kw):
    window = _build(settings, **kw)
    show = window.show

    def shown():
        show()
        marks["shown"] = time.time() - t0

    window.show = shown
    window._first_paint = FirstPaint(window)
    QApplication.instance().installEventFilter(window._first_paint)
    return window


qmain.build_window = build_window
from mteval_gui.gui import main
sys.exit(main(["mteval-gui", "--demo", "--no-score"]))
"""


def run_once(env: dict[str, str]) -> dict:
    code = f"HEAVY = {HEAVY!r}\n" + DRIVER
    env = {**env, "BENCH_T0": repr(time.time())}
    # run from the user folder: "-c" puts the working directory first on sys.path
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                         cwd=env["MTEVAL_HOME"])
    if f"SOURCE {env['PYTHONPATH']}" not in out.stdout:
        raise SystemExit(f"the driver did not import {env['PYTHONPATH']}:\n{out.stdout}\n{out.stderr}")
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if line is None:
        raise SystemExit(f"no first paint recorded:\n{out.stdout}\n{out.stderr}")
    return json.loads(line[6:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    ap.add_argument("--source", action="append", type=Path, help="a checkout to time (repeatable)")
    args = ap.parse_args(argv)
    sources = [p.resolve() for p in (args.source or [REPO])]
    envs = {}
    for src in sources:
        home = Path(tempfile.mkdtemp(prefix="mteval-first-paint-"))
        env = {**os.environ, "MTEVAL_HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
               "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
               "QT_QPA_PLATFORM": args.platform, "PYTHONPATH": str(src),
               # bytecode cached as an installed package has it (kept out of the source tree)
               "PYTHONPYCACHEPREFIX": str(home / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        first = run_once(env)  # compiles the modules and builds the demo workspace
        print(f"{src}: first start (compiles, builds the demo): painted {first['painted']:.2f} s")
        subprocess.run([sys.executable, "-m", "mteval_gui", "demo"], env=env, capture_output=True, check=True,
                       cwd=home)
        envs[src] = env
    runs: dict[Path, list[dict]] = {src: [] for src in sources}
    for _ in range(args.repeat):
        for src in sources:
            runs[src].append(run_once(envs[src]))
    with open("/proc/loadavg", encoding="ascii") if Path("/proc/loadavg").exists() else open(os.devnull) as fh:
        load = fh.read().split()[:1]
    for src in sources:
        print(f"{src} ({args.platform}, load average {load[0] if load else '?'}):")
        for key in ("python", "shown", "painted"):
            values = [r[key] for r in runs[src]]
            print(f"  {key:8s} median {statistics.median(values):.2f} s  (range {min(values):.2f}–{max(values):.2f}, "
                  f"{len(values)} starts)")
        print("  heavy modules imported before the first paint:", ", ".join(runs[src][-1]["heavy"]) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
