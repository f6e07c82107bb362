"""Opening a workspace: one connection per thread, WAL, foreign keys, migrations with backup.

What the file at a path may be, and what opening it does:

- **nothing yet**: the workspace is created atomically. Its schema is written into a private
  file beside it, which is then hard-linked into place: another process sees no file or a
  complete workspace, never a half-made one, and two processes creating the same new
  workspace both end up using the one that landed first. With ``defer_create=True`` nothing
  is written until the first transaction that changes something commits, so a command that
  fails before writing (a rejected import) leaves no file behind.
- **a workspace** (``PRAGMA application_id`` of this application, or an older workspace
  recognised by its tables): migrated to :data:`SCHEMA_VERSION` after a backup made with
  SQLite's online backup API (a consistent copy, WAL content included, even while another
  connection reads). Migrations run under ``BEGIN IMMEDIATE`` and re-read the version inside
  the transaction, so concurrent openers never apply a step twice.
- **another application's SQLite file**: refused, unless ``convert=True`` (which backs the
  file up first, then adds the workspace tables).
- **read-only** (the file, or the folder that would hold its journal, is not writable, or
  ``read_only=True``): opened read-only for listing and exporting; a write raises
  :class:`StoreError` with a message.

Creating a new workspace takes an exclusive lock on its folder (``flock``; released by the
system if the process dies, so no stale lock file is ever left behind).

SQLite errors raised while writing (disk full, I/O error, read-only file) become a
:class:`StoreError` naming the workspace; the transaction is rolled back, so the workspace
keeps its last committed state.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from mteval_gui.errors import StoreError
from mteval_gui.paths import note_open_database
from mteval_gui.store._sqlite import sqlite_utils
from mteval_gui.store.schema import MIGRATIONS, SCHEMA_VERSION

APPLICATION_ID = 0x4D544556  # "MTEV"
# tables every workspace has had since schema 1 (how a workspace older than application_id is recognised)
_CORE_TABLES = frozenset({"settings", "corpora", "entries", "runs", "outputs", "judgments", "reviewers"})

try:  # POSIX advisory locks; elsewhere creation relies on the atomic hard link alone
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS
    fcntl = None  # type: ignore[assignment]


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _pragmas(conn: sqlite3.Connection, *, read_only: bool = False, wal: bool = True) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout=30000")
    if not read_only:
        if wal:
            _journal_wal(conn)
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")


def _journal_wal(conn: sqlite3.Connection) -> None:
    # switching a new file to WAL needs an exclusive lock: retry while another opener holds one
    for _ in range(300):
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            threading.Event().wait(0.1)
    conn.execute("PRAGMA journal_mode=WAL")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=True)
    _pragmas(conn)
    return conn


def _connect_read_only(path: Path) -> sqlite3.Connection:
    uri = "file:" + quote(str(path)) + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None, check_same_thread=True)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        # a WAL workspace in a read-only folder: nobody can have written a -wal there, read the file as is
        conn = sqlite3.connect(uri.replace("mode=ro", "immutable=1"), uri=True, timeout=30.0, isolation_level=None,
                               check_same_thread=True)
    _pragmas(conn, read_only=True)
    return conn


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive advisory lock on ``folder`` (a no-op where the system offers none)."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(folder, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def identify(conn: sqlite3.Connection) -> str:
    """``workspace``, ``empty`` (a new or empty SQLite file) or ``foreign`` (another application's database)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id == APPLICATION_ID:
        return "workspace"
    tables = _tables(conn)
    if app_id == 0 and not tables and conn.execute("PRAGMA user_version").fetchone()[0] == 0:
        return "empty"
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id == 0 and version >= 1 and tables >= _CORE_TABLES:
        return "workspace"  # made before workspaces carried an application_id
    return "foreign"


def backup_to(source: Path, target: Path) -> Path:
    """A consistent copy of the database at ``source`` (WAL content included) at ``target``.

    Read through a connection of its own: it sees the last committed state even while the
    caller's connection holds the write lock (SQLite refuses to back up from a connection
    that is writing).
    """
    src = sqlite3.connect(str(source), timeout=30.0)
    try:
        dest = sqlite3.connect(str(target))
        try:
            src.backup(dest)
        finally:
            dest.close()
    finally:
        src.close()
    return target


def _backup_path(path: Path, label: str) -> Path:
    candidate = path.with_name(f"{path.name}.{label}.bak")
    if not candidate.exists():
        return candidate
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return path.with_name(f"{path.name}.{label}.{stamp}-{secrets.token_hex(2)}.bak")


def migrate(conn: sqlite3.Connection, path: Path | None, *, from_scratch: bool = False) -> int:
    """Bring the database to SCHEMA_VERSION; back up a non-empty file first. Returns the old version.

    ``from_scratch`` applies every step whatever ``user_version`` says (a converted file of
    another application, whose version number means nothing here).
    """
    if not from_scratch:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current > SCHEMA_VERSION:
            raise StoreError(f"{path}: workspace schema version {current} is newer than this application "
                             f"({SCHEMA_VERSION}); upgrade mteval-gui")
        if current == SCHEMA_VERSION:
            return current
    conn.execute("BEGIN IMMEDIATE")
    try:
        # read again under the write lock: another process may have migrated meanwhile
        current = 0 if from_scratch else conn.execute("PRAGMA user_version").fetchone()[0]
        if current >= SCHEMA_VERSION:
            conn.execute("COMMIT")
            return current
        if current > 0 and path is not None and path.exists():
            backup_to(path, _backup_path(path, f"v{current}"))
        for version in range(current, SCHEMA_VERSION):
            step = MIGRATIONS[version]
            if callable(step):
                step(conn)
            else:
                for stmt in _split(step):
                    conn.execute(stmt)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise StoreError(f"{path}: migration to schema {SCHEMA_VERSION} failed: {exc}") from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return current


# SQLite's errors while opening that say nothing about the file's content (prefixes of sqlite_errorname)
_OPEN_TROUBLE = (
    ("SQLITE_FULL", "the disk is full; free some space and try again"),
    ("SQLITE_IOERR", "an input/output error occurred on the disk (is it full, or failing?); free some space, "
                     "or copy the workspace to another disk, and try again"),
    ("SQLITE_CANTOPEN", "the file cannot be opened (check the folder and its permissions)"),
    ("SQLITE_BUSY", "another program keeps the workspace locked; try again when it is done"),
    ("SQLITE_LOCKED", "another program keeps the workspace locked; try again when it is done"),
)


def _open_error(path: Path, exc: sqlite3.DatabaseError) -> str:
    """What opening ``path`` failed on: the disk or a lock when SQLite says so, else the file is no workspace."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    for prefix, hint in _OPEN_TROUBLE:
        if name.startswith(prefix):
            return f"{path}: cannot open the workspace: {hint} ({exc})"
    return f"{path}: not a workspace database ({exc})"


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _pending_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")


def _publish(tmp: Path, path: Path) -> bool:
    """Give ``tmp`` the name ``path`` unless ``path`` exists; True if it did. ``tmp`` is removed."""
    try:
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: rename under the folder lock
        if path.exists():
            return False
        os.replace(tmp, path)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _new_database(tmp: Path) -> sqlite3.Connection:
    conn = _connect(tmp)
    migrate(conn, None)
    return conn


class Workspace:
    """A workspace database. Connections are per thread (``conn`` / ``db`` give this thread's).

    ``convert``: turn another application's SQLite file into a workspace (after a backup).
    ``read_only``: open for reading only (None: only when the file or its folder is not writable).
    ``defer_create``: for a path that does not exist yet, create the file only when a
    transaction that changes something commits (until then the workspace is empty).
    """

    def __init__(self, path: str | Path, *, convert: bool = False, read_only: bool | None = None,
                 defer_create: bool = False):
        self.path = Path(path).expanduser().resolve()
        note_open_database(self.path)  # outputs never replace it (mteval_gui.io.outputs)
        self._local = threading.local()
        self._generation = 0
        self._pending = False
        self._owner = threading.get_ident()
        self.converted_backup: Path | None = None
        self.read_only = False
        try:
            if not self.path.exists() and not self.path.is_symlink():
                if read_only:
                    raise StoreError(f"{self.path}: no workspace here (a read-only workspace is not created)")
                if defer_create:
                    if not self.path.parent.is_dir():
                        raise StoreError(f"{self.path}: the folder {self.path.parent} does not exist")
                    self._pending = True
                    return
                self._create()
            self._open(convert=convert, read_only=read_only)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(_open_error(self.path, exc)) from exc
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ opening

    def _create(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the folder: {exc.strerror or exc}") from exc
        with folder_lock(self.path.parent):
            if self.path.exists():
                return
            tmp = _pending_name(self.path)
            try:
                _new_database(tmp).close()
                _publish(tmp, self.path)
            except OSError as exc:
                raise StoreError(f"{self.path}: cannot create the workspace: {exc.strerror or exc}") from exc
            finally:
                for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
                    with contextlib.suppress(FileNotFoundError):
                        p.unlink()

    def _open(self, *, convert: bool, read_only: bool | None) -> None:
        if not self.path.is_file():
            raise StoreError(f"{self.path}: not a file")
        if read_only is None:
            read_only = not _writable(self.path)
        if read_only:
            self.read_only = True
            conn = self.conn
            kind = identify(conn)
            if kind == "empty":
                raise StoreError(f"{self.path}: an empty file, not a workspace (and it is read-only)")
            if kind == "foreign":
                raise StoreError(f"{self.path}: {self._foreign_description(conn)}; it is read-only")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: the workspace is read-only and has schema version {version} "
                    f"(this application needs {SCHEMA_VERSION}); copy it to a writable folder to upgrade it"
                )
            return
        # identify the file before anything changes it (even switching it to WAL)
        probe = sqlite3.connect("file:" + quote(str(self.path)) + "?mode=ro", uri=True, timeout=30.0)
        try:
            kind = identify(probe)
            description = self._foreign_description(probe) if kind == "foreign" else ""
        finally:
            probe.close()
        if kind == "foreign":
            if not convert:
                raise StoreError(f"{self.path}: {description}; "
                                 "give --convert to turn it into a workspace (a backup is made first)")
            self.converted_backup = backup_to(self.path, _backup_path(self.path, "before-convert"))
            migrate(self.conn, self.path, from_scratch=True)
            return
        migrate(self.conn, self.path)

    def _foreign_description(self, conn: sqlite3.Connection) -> str:
        tables = sorted(_tables(conn))
        shown = ", ".join(tables[:8]) + (" ..." if len(tables) > 8 else "")
        return f"an SQLite database of another application (tables: {shown or 'none'}), not a workspace"

    # ------------------------------------------------------------------ connections

    @property
    def pending(self) -> bool:
        """True while a deferred workspace has not been written to its file yet."""
        return self._pending

    @property
    def conn(self) -> sqlite3.Connection:
        local = self._local
        c = getattr(local, "conn", None)
        if c is not None and getattr(local, "generation", 0) != self._generation:
            c.close()
            local.conn = local.db = c = None
        if c is None:
            if self._pending:
                if threading.get_ident() != self._owner:
                    raise StoreError(
                        f"{self.path}: the workspace is not created yet (it is used by one thread until then)"
                    )
                c = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=True)
                _pragmas(c, wal=False)
                migrate(c, None)
            elif self.read_only:
                c = _connect_read_only(self.path)
            else:
                c = _connect(self.path)
            local.conn = c
            local.generation = self._generation
            local.db = None
        return c

    @property
    def db(self) -> sqlite_utils.Database:
        _ = self.conn  # (re)connects if needed
        d = getattr(self._local, "db", None)
        if d is None:
            d = sqlite_utils.Database(self.conn)
            self._local.db = d
        return d

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction on this thread's connection; rolled back on any exception.

        SQLite errors (disk full, I/O error, a read-only file) raise :class:`StoreError`.
        """
        if self.read_only:
            raise StoreError(f"{self.path}: the workspace is read-only (open a writable copy to change it)")
        if self._pending:
            with self._first_transaction() as c:
                yield c
            return
        c = self.conn
        try:
            c.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._write_error(exc) from exc
        try:
            yield c
        except sqlite3.Error as exc:
            self._rollback(c)
            raise self._write_error(exc) from exc
        except BaseException:
            self._rollback(c)
            raise
        try:
            c.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback(c)
            raise self._write_error(exc) from exc

    @contextmanager
    def _first_transaction(self) -> Iterator[sqlite3.Connection]:
        """The first write of a deferred workspace: into a private file, published when it commits."""
        with folder_lock(self.path.parent):
            if self.path.exists():  # created meanwhile by another process: write there
                self._pending = False
                self._generation += 1
                self._open(convert=False, read_only=False)
                with self.transaction() as c:
                    yield c
                return
            tmp = _pending_name(self.path)
            try:
                c = _new_database(tmp)
            except (OSError, sqlite3.Error) as exc:
                raise self._write_error(exc) from exc
            try:
                before = c.total_changes
                c.execute("BEGIN IMMEDIATE")
                try:
                    yield c
                    c.execute("COMMIT")
                except sqlite3.Error as exc:
                    self._rollback(c)
                    raise self._write_error(exc) from exc
                except BaseException:
                    self._rollback(c)
                    raise
                changed = c.total_changes != before
                c.close()  # the last connection: its WAL is checkpointed into the file and removed
                if changed:
                    if not _publish(tmp, self.path):
                        raise StoreError(
                            f"{self.path}: another program created this file meanwhile; nothing was written"
                        )
                    self._pending = False
                    self._generation += 1
            finally:
                with contextlib.suppress(sqlite3.Error):
                    c.close()
                for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
                    with contextlib.suppress(FileNotFoundError):
                        p.unlink()

    @staticmethod
    def _rollback(c: sqlite3.Connection) -> None:
        if c.in_transaction:  # SQLite may already have rolled back (e.g. after SQLITE_FULL)
            with contextlib.suppress(sqlite3.Error):
                c.execute("ROLLBACK")

    def _write_error(self, exc: BaseException) -> StoreError:
        msg = str(exc)
        low = msg.lower()
        if "full" in low:
            hint = "the disk is full (or the workspace reached its size limit); free some space and try again"
        elif "readonly" in low or "read-only" in low:
            hint = "the workspace cannot be written (read-only file or folder)"
        elif "disk i/o" in low or "i/o error" in low:
            hint = "an input/output error occurred on the disk"
        elif "locked" in low or "busy" in low:
            hint = "another program keeps the workspace locked; try again when it is done"
        elif "malformed" in low or "not a database" in low:
            hint = "the workspace file is damaged; restore it from a backup"
        else:
            hint = msg
        return StoreError(f"{self.path}: {hint}; nothing was written ({msg})")

    def close(self) -> None:
        c = getattr(self._local, "conn", None)
        if c is not None:
            c.close()
            self._local.conn = None
            self._local.db = None

    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version`` on this thread's connection: it changes when another
        connection (another thread or process) has committed a change to the database, and only
        then (this connection's own commits leave it alone). Cheap enough to poll."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])
