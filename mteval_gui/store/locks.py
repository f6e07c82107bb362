"""Per-run locks: one scoring job per run at a time, across threads and processes.

A lock is a row of ``run_locks`` (run id, a random token, the holder's host, process id and
process start time), taken and released in ``BEGIN IMMEDIATE`` transactions. A second job
on the same run waits up to ``wait`` seconds, then gets :class:`RunBusy` naming the holder.

A holder that died (killed, crashed) must not block the run for ever: a lock whose process
no longer runs on this host, or whose process id now belongs to a process that started
later (a reused id), is stale and is taken over. A lock held from another host is
respected (its liveness cannot be checked from here) and named in the message.

Use::

    with run_lock(ws, run_id, purpose="scoring"):
        ...  # score
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace, utcnow
from mteval_gui.store.repo import NotFoundError


class RunBusy(StoreError):
    """Another job holds the run's lock."""

    def __init__(self, run_id: str, holder: dict[str, Any]):
        self.run_id = run_id
        self.holder = holder
        where = f"process {holder['pid']}" + ("" if holder["host"] == socket.gethostname() else f" on {holder['host']}")
        super().__init__(f"run {run_id!r} is being {holder['purpose']} by another job ({where}, since "
                         f"{holder['acquired_at']}); wait for it to finish, or cancel it, and try again")


@dataclass(frozen=True)
class RunLock:
    run_id: str
    token: str


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: count fields after it
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def _windows_process_exists(pid: int) -> bool:
    """Whether a process ``pid`` runs (Windows: ``os.kill(pid, 0)`` would send it Ctrl-C)."""
    import ctypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    query_limited_information, still_active = 0x1000, 259
    handle = kernel32.OpenProcess(query_limited_information, False, pid)
    if not handle:
        return bool(ctypes.get_last_error() == 5)  # type: ignore[attr-defined]  # access denied: another user's
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == still_active
    finally:
        kernel32.CloseHandle(handle)


def _process_exists(pid: int) -> bool:
    if sys.platform == "win32":
        return _windows_process_exists(pid)
    try:
        os.kill(pid, 0)  # POSIX: signal 0 only checks
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a process of another user: it exists
    except OSError:
        return True
    return True


def _alive(holder: dict[str, Any]) -> bool:
    if holder["host"] != socket.gethostname():
        return True
    pid = int(holder["pid"])
    if not _process_exists(pid):
        return False
    started = holder.get("process_started")
    return not (started and _start_time(pid) not in (None, started))


def run_lock_holder(ws: Workspace, run_id: str) -> dict[str, Any] | None:
    """The live holder of a run's lock (a dict of the row), None if the run is free."""
    row = ws.conn.execute("SELECT * FROM run_locks WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        return None
    holder = dict(row)
    return holder if _alive(holder) else None


def acquire_run_lock(ws: Workspace, run_id: str, *, purpose: str = "scored", wait: float = 0.0,
                     poll: float = 0.25) -> RunLock:
    """Take the run's lock, waiting up to ``wait`` seconds for a live holder; raises :class:`RunBusy`."""
    token = secrets.token_hex(16)
    pid = os.getpid()
    deadline = time.monotonic() + max(0.0, wait)
    while True:
        with ws.transaction() as c:
            if c.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
                raise NotFoundError(f"no run {run_id!r} in the workspace")
            row = c.execute("SELECT * FROM run_locks WHERE run_id = ?", (run_id,)).fetchone()
            holder = dict(row) if row is not None else None
            if holder is None or not _alive(holder):
                c.execute("DELETE FROM run_locks WHERE run_id = ?", (run_id,))
                c.execute("INSERT INTO run_locks (run_id, token, host, pid, process_started, purpose, acquired_at)"
                          " VALUES (?,?,?,?,?,?,?)",
                          (run_id, token, socket.gethostname(), pid, _start_time(pid), purpose, utcnow()))
                return RunLock(run_id, token)
        if time.monotonic() >= deadline:
            raise RunBusy(run_id, holder)
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())) or poll)


def release_run_lock(ws: Workspace, lock: RunLock) -> None:
    """Give the lock back (only the holder's own token releases it)."""
    with ws.transaction() as c:
        c.execute("DELETE FROM run_locks WHERE run_id = ? AND token = ?", (lock.run_id, lock.token))


@contextmanager
def run_lock(ws: Workspace, run_id: str, *, purpose: str = "scored", wait: float = 0.0) -> Iterator[RunLock]:
    """Hold the run's lock for the duration of the block."""
    lock = acquire_run_lock(ws, run_id, purpose=purpose, wait=wait)
    try:
        yield lock
    finally:
        release_run_lock(ws, lock)
