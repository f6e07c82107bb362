"""Opening a workspace: one connection per thread, WAL, foreign keys, migrations with backup."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import sqlite_utils

from mteval_gui.errors import StoreError
from mteval_gui.store.schema import MIGRATIONS, SCHEMA_VERSION


def utcnow() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=True)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def migrate(conn: sqlite3.Connection, path: Path | None) -> int:
    """Bring the database to SCHEMA_VERSION; back up a non-empty file first. Returns the old version."""
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > SCHEMA_VERSION:
        raise StoreError(f"{path}: workspace schema version {current} is newer than this application ({SCHEMA_VERSION}); upgrade mteval-gui")
    if current == SCHEMA_VERSION:
        return current
    if current > 0 and path is not None and path.exists():
        backup = path.with_name(f"{path.name}.v{current}.bak")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy2(path, backup)
    for version in range(current, SCHEMA_VERSION):
        try:
            conn.execute("BEGIN")
            step = MIGRATIONS[version]
            if callable(step):
                step(conn)
            else:
                for stmt in _split(step):
                    conn.execute(stmt)
            conn.execute(f"PRAGMA user_version={version + 1}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise StoreError(f"{path}: migration to schema {version + 1} failed: {exc}") from exc
    return current


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


class Workspace:
    """A workspace database. Connections are per thread (``conn`` / ``db`` give this thread's)."""

    def __init__(self, path: str | Path):
        self.path = Path(path).expanduser().resolve()
        self._local = threading.local()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = self.conn
            migrate(conn, self.path)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a workspace database ({exc})") from exc

    @property
    def conn(self) -> sqlite3.Connection:
        c = getattr(self._local, "conn", None)
        if c is None:
            c = _connect(self.path)
            self._local.conn = c
        return c

    @property
    def db(self) -> sqlite_utils.Database:
        d = getattr(self._local, "db", None)
        if d is None:
            d = sqlite_utils.Database(self.conn)
            self._local.db = d
        return d

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction on this thread's connection; rolled back on any exception."""
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        try:
            yield c
        except BaseException:
            c.execute("ROLLBACK")
            raise
        else:
            c.execute("COMMIT")

    def close(self) -> None:
        c = getattr(self._local, "conn", None)
        if c is not None:
            c.close()
            self._local.conn = None
            self._local.db = None

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]
