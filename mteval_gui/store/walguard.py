"""Keeping a workspace's write-ahead log safe when this process loses its SQLite locks.

SQLite's locks on Linux and macOS are POSIX record locks, and those belong to the process:
closing *any* file descriptor of the database file in the process releases all of them, even a
descriptor SQLite never saw. Qt's file dialogs do exactly that when they list a folder (they
open each file to detect its content type), and so would any reader of this process handed the
workspace's own path. After that, the next process that closes its last connection (a
scoring child, any ``mteval`` command) finds nobody holding the database's shared lock, takes
the exclusive lock, checkpoints and *deletes* the ``-wal`` and ``-shm`` files that this
process still writes to: every transaction committed afterwards goes to an unlinked file and
is gone when the process ends. Measured here: a judgment shown as saved, then lost to a
``kill -9`` of the GUI.

Two defences, both needed:

1. Nothing in the application opens the workspace's files outside SQLite (the GUI's file
   dialogs use an icon provider that never reads a file; readers and writers refuse the
   workspace's own files: :func:`mteval_gui.store.db.Workspace.owns_file`).
2. This module: every writable connection of a workspace also holds an *open file
   description* lock (Linux's ``F_OFD_SETLK``) — a shared lock on the byte range of SQLite's
   shared lock in the database file, and on the "dead man switch" byte of the ``-shm`` file.
   An OFD lock belongs to the descriptor that took it, not to the process, so no other
   open/close in the process can release it; and OFD locks conflict with POSIX locks. So,
   while any connection of this process is open, another process can neither take the
   exclusive lock that lets it checkpoint and delete the WAL, nor decide that the shared
   memory is unused and truncate it. WAL-mode readers and writers only take shared locks on
   the database file (the write lock lives in the ``-shm`` file), so nothing else is blocked.

When the last guarded connection of the process closes, the guard is released *before*
SQLite closes, so the last connection of the last process still checkpoints and removes the
WAL as usual (a workspace file copied after the program ends is complete).

The guard descriptors are kept per file (device, inode) and counted; a forked child never
touches its parent's (releasing an inherited OFD lock would release the parent's). Where the
system has no OFD locks (macOS, Windows — whose locks belong to the handle anyway) the guard
is a no-op and the first defence stands alone.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
import threading
from dataclasses import dataclass

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# where SQLite's unix VFS puts its locks (sqlite3.c: PENDING_BYTE, SHARED_FIRST, SHARED_SIZE, UNIX_SHM_DMS)
_SHARED_FIRST = 0x40000000 + 2
_SHARED_SIZE = 510
_SHM_DMS = (22 + 8) * 4 + 8

_OFD_SETLK: int | None = getattr(fcntl, "F_OFD_SETLK", None) if fcntl is not None else None
# the disabled switch exists for the tests that show what happens without the guard
enabled = _OFD_SETLK is not None


@dataclass
class _Held:
    pid: int
    count: int
    fds: list[int]


_lock = threading.Lock()
_held: dict[tuple[int, int], _Held] = {}


def _flock(kind: int, start: int, length: int) -> bytes:
    # struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for OFD locks), padded to its C size
    return struct.pack("hhqqi4x", kind, os.SEEK_SET, start, length, 0)


def _ofd_read_lock(path: str, start: int, length: int) -> int | None:
    """A descriptor of ``path`` holding an OFD shared lock on [start, start+length), or None."""
    assert fcntl is not None and _OFD_SETLK is not None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    for _ in range(50):
        try:
            fcntl.fcntl(fd, _OFD_SETLK, _flock(fcntl.F_RDLCK, start, length))
            return fd
        except OSError:
            # another process holds the exclusive lock for an instant (its last connection closing)
            threading.Event().wait(0.01)
    os.close(fd)
    return None


def acquire(path: str) -> tuple[int, int] | None:
    """Guard the workspace database at ``path`` for one more connection of this process.

    Call it once the connection has read the database (so the ``-shm`` file exists). Returns
    the key to :func:`release`, or None where there is nothing to guard.
    """
    if not enabled:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (st.st_dev, st.st_ino)
    pid = os.getpid()
    with _lock:
        held = _held.get(key)
        if held is not None and held.pid == pid:
            held.count += 1
            return key
        fds = []
        fd = _ofd_read_lock(path, _SHARED_FIRST, _SHARED_SIZE)
        if fd is None:
            return None
        fds.append(fd)
        shm = _ofd_read_lock(path + "-shm", _SHM_DMS, 1)
        if shm is not None:
            fds.append(shm)
        # an entry inherited from a parent process is left alone (its descriptors are the parent's locks)
        _held[key] = _Held(pid=pid, count=1, fds=fds)
        return key


def release(key: tuple[int, int] | None) -> None:
    """One guarded connection fewer; the last one unlocks and closes the guard's descriptors."""
    if key is None:
        return
    with _lock:
        held = _held.get(key)
        if held is None or held.pid != os.getpid():
            return
        held.count -= 1
        if held.count > 0:
            return
        del _held[key]
        for fd in held.fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def held_count(path: str) -> int:
    """How many connections of this process hold the guard of ``path`` (0 when none does)."""
    try:
        st = os.stat(path)
    except OSError:
        return 0
    with _lock:
        held = _held.get((st.st_dev, st.st_ino))
        return held.count if held is not None and held.pid == os.getpid() else 0


class GuardedConnection(sqlite3.Connection):
    """An SQLite connection that holds the workspace guard from :meth:`guard` until it closes."""

    _guard_key: tuple[int, int] | None = None

    def guard(self, path: str) -> None:
        if self._guard_key is None:
            self._guard_key = acquire(path)

    def close(self) -> None:
        key, self._guard_key = self._guard_key, None
        release(key)  # before SQLite closes: the last connection of the last process still tidies the WAL
        super().close()

    def __del__(self) -> None:
        key, self._guard_key = self._guard_key, None
        with contextlib.suppress(Exception):  # at interpreter shutdown the module may be half gone
            release(key)
