"""The files this process must never open outside SQLite: its open workspaces and SQLite's files beside them.

Opening and closing a workspace's database (or its ``-wal``/``-shm``) with anything but SQLite
releases the process's SQLite locks (see :mod:`mteval_gui.store.walguard`). Every workspace
this process opens registers itself here, and the readers and writers of files (``io``)
refuse those paths before they open anything: a user who picks the workspace itself as a
corpus, a judgments file or an output gets a message instead.

Files are compared by device and inode, so any name of the same file counts. A workspace
is forgotten when it is garbage-collected.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Protocol

SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")


class _HasPath(Protocol):
    path: Path


_open: weakref.WeakSet[_HasPath] = weakref.WeakSet()


def register(workspace: _HasPath) -> None:
    """Protect ``workspace.path`` and its companions for as long as ``workspace`` lives."""
    _open.add(workspace)


def open_paths() -> list[Path]:
    """The databases of the workspaces open in this process."""
    return sorted({ws.path for ws in list(_open)})


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def companion_of(db_path: str | Path, target: os.stat_result) -> str | None:
    """The suffix ("" for the database itself) when ``target`` is the database at ``db_path`` or a companion."""
    for suffix in SQLITE_COMPANIONS:
        try:
            st = os.stat(f"{db_path}{suffix}")
        except OSError:
            continue
        if same_file(st, target):
            return suffix
    return None


def workspace_file(path: str | Path) -> str | None:
    """A description when ``path`` is a file of a workspace open in this process, else None."""
    if not _open:
        return None
    try:
        target = os.stat(path)
    except (OSError, ValueError):
        return None
    for ws in list(_open):
        suffix = companion_of(ws.path, target)
        if suffix is not None:
            what = "database" if suffix == "" else f"{suffix[1:]} file"
            return f"the open workspace's {what} ({ws.path.name}{suffix})"
    return None
