"""The program inside the frozen bundle: one Python program behind two executables.

``mteval`` runs the command line and ``mteval-gui`` the desktop application; both are built
from this script (see ``mteval-gui.spec``) and share one folder of libraries, so the bundle
carries Python, Qt and the data once. The executable's own name says which to run.

Child processes of the bundle are the bundle's executables too: ``multiprocessing`` starts
its spawned workers (background scoring) with ``sys.executable``, and
:func:`multiprocessing.freeze_support` lets such a child run its task instead of the program;
the analyzer probe starts ``<executable> --mteval-fst-probe FILE BACKEND``, which
:func:`mteval_gui.fst.probe.run_child_if_requested` answers.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from pathlib import Path

CLI_NAMES = frozenset({"mteval"})


def _ensure_streams() -> None:
    # A windowed Windows executable has no console: print() would fail on a None stream
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 - lives as long as the process


def main() -> int:
    _ensure_streams()
    multiprocessing.freeze_support()
    # the analyzer probe's child is this executable too (mteval_gui.fst.probe): run it, not the program
    from mteval_gui.fst.probe import run_child_if_requested

    run_child_if_requested()
    if Path(sys.executable).stem.lower() in CLI_NAMES:
        from mteval_gui.cli import main as cli_main

        return cli_main()
    from mteval_gui.gui import main as gui_main

    return gui_main()


if __name__ == "__main__":
    sys.exit(main())
