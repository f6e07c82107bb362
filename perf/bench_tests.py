"""Wall and CPU time of the whole test suite (``python -m pytest -q -n 2 -p no:randomly``).

The CPU time counts every process the suite starts (pytest-xdist workers and the
subprocesses tests run), so it says what the suite costs when the machine is shared and the
wall time mostly says how busy the machine was. Extra arguments go to pytest (e.g.
``-m "not slow"``).

Usage: ``python perf/bench_tests.py [PYTEST ARGS…]``
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time


def main() -> None:
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:randomly", *sys.argv[1:]]
    t = time.perf_counter()
    code = subprocess.run(cmd, check=False).returncode
    wall = time.perf_counter() - t
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ru.ru_utime + ru.ru_stime
    print(f"\ntest suite: {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU "
          f"({cpu / 120:.1f} min on 2 free cores), exit {code}")
    sys.exit(code)


if __name__ == "__main__":
    main()
