"""Helpers shared by the CLI command modules."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from mteval_gui.paths import default_workspace_path

# bidirectional controls (embeddings, overrides, isolates, marks) and line/paragraph separators:
# printed as they are, they reorder or break what the terminal shows after them
_INVISIBLE_CONTROLS = frozenset(
    [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def term_safe(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` safe to print on a terminal: C0 and C1 controls (ESC included), DEL and bidi controls
    are shown as ``\\xNN`` / ``\\uNNNN`` escapes instead of acting on the terminal.

    Every CLI line that prints text a user or a file supplied (corrections, notes, names, ids)
    goes through it. Tabs stay; newlines stay only with ``keep_newlines``.
    """
    out = []
    for ch in text:
        cp = ord(ch)
        if ch == "\t" or (ch == "\n" and keep_newlines):
            out.append(ch)
        elif cp < 0x20 or 0x7F <= cp <= 0x9F:
            out.append(f"\\x{cp:02x}")
        elif cp in _INVISIBLE_CONTROLS:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(ch)
    return "".join(out)


def workspace_path(args: Any) -> Path:
    db = getattr(args, "db", None)
    return Path(db) if db else default_workspace_path()


def open_workspace(args: Any):
    """The workspace of ``--db``; a new one is written only by the first change (a failed command leaves no file)."""
    from mteval_gui.app.workspace import Workspace

    return Workspace(workspace_path(args), convert=bool(getattr(args, "convert", False)), defer_create=True)


class ProgressBar:
    """A text progress bar on stderr (only drawn on a terminal, or at the end)."""

    def __init__(self, label: str = "", stream=None, min_interval: float = 0.1):
        self.label = label
        self.stream = stream or sys.stderr
        self.min_interval = min_interval
        self._last = 0.0
        self._tty = getattr(self.stream, "isatty", lambda: False)()
        self._drawn = False

    def __call__(self, progress: Any) -> None:
        done = getattr(progress, "done", 0)
        total = getattr(progress, "total", 0) or 0
        stage = getattr(progress, "stage", "") or self.label
        now = time.monotonic()
        if not self._tty or (now - self._last < self.min_interval and done < total):
            return
        self._last = now
        width = 30
        frac = (done / total) if total else 0.0
        bar = "#" * int(frac * width)
        self.stream.write(f"\r{stage:<18} [{bar:<{width}}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
