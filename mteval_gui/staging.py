"""Staging folders: where an install or a model copy is assembled before it is moved into place.

A staging folder is removed by the process that made it on every exit it sees (errors, cancel,
Ctrl-C). A process killed outright (SIGKILL, a power cut) leaves it behind; the next install,
and listing what is installed, remove such folders, and never the folder of an install still
running in another process:

- the process that makes a staging folder holds an exclusive ``flock`` on it until it is done
  (the system drops the lock when the process ends, however it ends);
- between creating the folder and locking it, the maker holds a shared lock on the parent
  folder (the gate; no lock file is left anywhere); a process looking for abandoned folders
  holds the gate exclusively, so it never sees a folder that is made but not locked yet;
- under the gate, a folder whose lock can be taken belongs to no running process: it is removed
  at once (no waiting period).

Where folders cannot be locked (no ``fcntl``: Windows) a staging folder is removed once it is a
day old.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

UNLOCKED_AGE_S = 86400.0  # where folders cannot be locked: removed when this old
GATE_WAIT_S = 10.0  # the gate is held for moments; past this, a stuck holder is not waited for


def _flock(fd: int, operation: int, seconds: float) -> bool:
    """Take a lock on ``fd`` within ``seconds`` (0: one try)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)


@contextlib.contextmanager
def _gate(parent: Path, *, exclusive: bool) -> Iterator[bool]:
    """The gate of ``parent`` (True when held, False where it cannot be)."""
    if fcntl is None:
        yield False
        return
    try:
        fd = os.open(parent, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        yield _flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH, GATE_WAIT_S)
    finally:
        os.close(fd)  # closing the descriptor releases its lock


class Staging:
    """A staging folder this process made and holds (:func:`make`); :meth:`close` removes it."""

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self._fd = fd

    def release(self) -> None:
        """Let go of the lock (the folder was moved into place, or removed)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """Remove what is left of the folder, then let go of it."""
        shutil.rmtree(self.path, ignore_errors=True)
        self.release()

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock_folder(path: Path) -> int | None:
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    if _flock(fd, fcntl.LOCK_EX, 0):
        return fd
    os.close(fd)
    return None


def make(parent: Path, prefix: str) -> Staging:
    """A new staging folder in ``parent`` (its name: ``prefix`` and a random suffix), locked by this process."""
    parent.mkdir(parents=True, exist_ok=True)
    with _gate(parent, exclusive=False):
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        return Staging(path, _lock_folder(path))


def remove_abandoned(parent: Path, prefix: str) -> list[Path]:
    """Remove the staging folders named ``<prefix>…`` in ``parent`` that no running process holds;
    returns them."""
    removed: list[Path] = []
    try:
        candidates = [p for p in parent.iterdir() if p.name.startswith(prefix) and p.is_dir() and not p.is_symlink()]
    except OSError:
        return removed
    if not candidates:
        return removed
    with _gate(parent, exclusive=True) as gated:
        now = time.time()
        for folder in candidates:
            if gated:
                fd = _lock_folder(folder)
                if fd is None:
                    continue  # a running process holds it (or it is gone)
                try:
                    shutil.rmtree(folder, ignore_errors=True)
                finally:
                    os.close(fd)
            elif fcntl is None:
                try:
                    age = now - folder.stat().st_mtime
                except OSError:
                    continue
                if age <= UNLOCKED_AGE_S:
                    continue
                shutil.rmtree(folder, ignore_errors=True)
            else:
                continue  # the gate is busy: looked at next time
            if not folder.exists():
                removed.append(folder)
    return removed
