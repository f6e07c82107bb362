"""The workspace file under stress: races, snapshots, foreign files, read-only files, a full disk."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mteval_gui.domain.corpus import Corpus, LanguagePair
from mteval_gui.errors import InputError, StoreError
from mteval_gui.io.records import make_entry
from mteval_gui.store import Workspace, repo
from mteval_gui.store.db import APPLICATION_ID
from mteval_gui.store.locks import RunBusy, acquire_run_lock, release_run_lock, run_lock, run_lock_holder
from mteval_gui.store.schema import SCHEMA_VERSION
from tests.store.judgment_helpers import add_corpus, add_run

REPO = Path(__file__).resolve().parents[2]
PREVIOUS = SCHEMA_VERSION - 1  # the schema version before the last step


def _corpus(cid: str, n: int, text: str = "source") -> Corpus:
    return Corpus.model_construct(corpus_id=cid, version="1", language_pair=LanguagePair(source="eng", target="crk"),
                                  license=None, attribution=None, description=None, metadata={},
                                  entries=[make_entry(str(i), f"{text} {i}", f"reference {i}") for i in range(n)])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }


def _mteval(*args: str, cwd: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(prefix or []), sys.executable, "-m", "mteval_gui", *args], capture_output=True, text=True,
                          timeout=300, env=_env(), cwd=str(cwd), stdin=subprocess.DEVNULL)


# ----------------------------------------------------------------------------- creation races

def _create_and_note(path: str, n: int, barrier) -> str:
    barrier.wait()
    try:
        ws = Workspace(path)
        repo.set_setting(ws, f"opener-{n}", n)
        version = ws.schema_version()
        ws.close()
        return f"ok {version}"
    except Exception as exc:  # noqa: BLE001 - reported to the parent as text
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("start", ["missing", "empty file"])
def test_eight_processes_creating_one_workspace(tmp_path, start):
    path = tmp_path / "new.sqlite"
    if start == "empty file":
        path.touch()
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Manager().Barrier(8)
    with ctx.Pool(8) as pool:
        outcomes = pool.starmap(_create_and_note, [(str(path), n, barrier) for n in range(8)])
    assert outcomes == [f"ok {SCHEMA_VERSION}"] * 8
    ws = Workspace(path)
    assert sorted(r[0] for r in ws.conn.execute("SELECT key FROM settings")) == [f"opener-{n}" for n in range(8)]
    assert ws.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    ws.close()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["new.sqlite"]


# ----------------------------------------------------------------------------- migration backups

def _to_previous_schema(conn: sqlite3.Connection) -> None:
    """Bring the version number back one step (the last step runs again and finds its work done)."""
    conn.execute(f"PRAGMA user_version={PREVIOUS}")


def test_the_migration_backup_holds_commits_still_in_the_wal(tmp_path):
    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    writer = sqlite3.connect(str(path), isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    _to_previous_schema(writer)
    writer.execute("INSERT INTO settings VALUES ('early', '1')")
    reader = sqlite3.connect(str(path), isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM settings").fetchone()  # holds a snapshot: checkpoints stop here
    writer.execute("INSERT INTO settings VALUES ('late', '2')")
    try:
        ws = Workspace(path)
        assert ws.schema_version() == SCHEMA_VERSION
        ws.close()
    finally:
        reader.execute("COMMIT")
        reader.close()
        writer.close()
    backup = tmp_path / f"ws.sqlite.v{PREVIOUS}.bak"
    b = sqlite3.connect(str(backup))
    assert sorted(r[0] for r in b.execute("SELECT key FROM settings")) == ["early", "late"]
    assert b.execute("PRAGMA user_version").fetchone()[0] == PREVIOUS
    assert b.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    b.close()


def test_a_second_backup_does_not_overwrite_the_first(tmp_path):
    path = tmp_path / "ws.sqlite"
    for _ in range(2):
        Workspace(path).close()
        c = sqlite3.connect(str(path), isolation_level=None)
        _to_previous_schema(c)
        c.close()
        Workspace(path).close()
    assert len(list(tmp_path.glob(f"ws.sqlite.v{PREVIOUS}*.bak"))) == 2


# ----------------------------------------------------------------------------- foreign files

def _foreign(path: Path) -> Path:
    c = sqlite3.connect(str(path))
    c.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    c.execute("INSERT INTO notes (body) VALUES ('keep me')")
    c.execute("PRAGMA user_version = 7")
    c.commit()
    c.close()
    return path


def test_another_applications_file_is_refused_unless_converted(tmp_path):
    path = _foreign(tmp_path / "other.sqlite")
    before = _digest(path)
    with pytest.raises(StoreError, match=r"another application \(tables: notes\), not a workspace; give --convert"):
        Workspace(path)
    assert _digest(path) == before
    ws = Workspace(path, convert=True)
    assert ws.schema_version() == SCHEMA_VERSION
    assert ws.conn.execute("SELECT body FROM notes").fetchone()[0] == "keep me"
    assert ws.converted_backup is not None
    ws.close()
    b = sqlite3.connect(str(tmp_path / "other.sqlite.before-convert.bak"))
    assert [r[0] for r in b.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["notes"]
    b.close()
    Workspace(path).close()  # a workspace now


def test_the_command_line_refuses_and_converts(tmp_path):
    path = _foreign(tmp_path / "other.sqlite")
    refused = _mteval("--db", str(path), "list", "runs", cwd=tmp_path)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "give --convert" in refused.stderr
    converted = _mteval("--db", str(path), "--convert", "list", "runs", cwd=tmp_path)
    assert converted.returncode == 0, converted.stderr
    assert (tmp_path / "other.sqlite.before-convert.bak").exists()


def test_a_damaged_file_is_a_store_error(tmp_path):
    path = tmp_path / "ws.sqlite"
    ws = Workspace(path)
    repo.add_corpus(ws, _corpus("c", 50))
    ws.close()
    path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 4000)
    with pytest.raises(StoreError, match="not a workspace database"):
        Workspace(path)
    path.write_bytes(b"hello, I am a text file\n" * 10)
    with pytest.raises(StoreError):
        Workspace(path)


# ----------------------------------------------------------------------------- read-only workspaces

def _populated(path: Path) -> None:
    ws = Workspace(path)
    repo.add_corpus(ws, _corpus("c", 3))
    add_run(ws, "r1", "c")
    ws.close()


@pytest.mark.parametrize(("errorname", "hint"), [
    ("SQLITE_IOERR_SHMSIZE", "an input/output error occurred on the disk (is it full, or failing?); free some "
                             "space, or copy the workspace to another disk, and try again"),
    ("SQLITE_FULL", "the disk is full; free some space and try again"),
])
def test_a_disk_error_while_opening_is_not_called_a_damaged_file(tmp_path, monkeypatch, errorname, hint):
    """A full disk can fail the opening itself (SQLite cannot size its shared-memory file): the message names the
    disk, not the file (was: "not a workspace database (disk I/O error)", which invites deleting it)."""
    from mteval_gui.store import db as store_db

    path = tmp_path / "ws.sqlite"
    _populated(path)

    def failing(conn):
        exc = sqlite3.OperationalError("disk I/O error")
        exc.sqlite_errorname = errorname  # type: ignore[attr-defined]
        raise exc

    monkeypatch.setattr(store_db, "identify", failing)
    with pytest.raises(StoreError) as info:
        Workspace(path)
    assert str(info.value) == f"{path}: cannot open the workspace: {hint} (disk I/O error)"
    monkeypatch.undo()
    assert [r["run_id"] for r in repo.list_runs(Workspace(path))] == ["r1"]


def test_a_read_only_workspace_lists_and_refuses_writes(tmp_path):
    path = tmp_path / "ws.sqlite"
    _populated(path)
    ws = Workspace(path, read_only=True)
    assert ws.read_only
    assert [r["run_id"] for r in repo.list_runs(ws)] == ["r1"]
    with pytest.raises(StoreError, match="read-only"):
        repo.set_setting(ws, "x", 1)
    ws.close()


def _drop_file_permissions() -> list[str] | None:
    """A command prefix under which file permissions apply (root otherwise ignores them)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@pytest.mark.parametrize("what", ["file", "folder"])
def test_read_only_on_disk_is_opened_read_only(tmp_path, what):
    prefix = _drop_file_permissions()
    if prefix is None:
        pytest.skip("setpriv is needed to make permissions apply to root")
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "ws.sqlite"
    _populated(path)
    corpus_file = tmp_path / "c.jsonl"
    corpus_file.write_text('{"id": "1", "source": "x"}\n', encoding="utf-8")
    target = path if what == "file" else folder
    os.chmod(path, 0o444)
    if what == "folder":
        os.chmod(folder, 0o555)
    try:
        listed = _mteval("--db", str(path), "list", "runs", cwd=tmp_path, prefix=prefix)
        assert listed.returncode == 0, listed.stderr
        assert "r1" in listed.stdout
        exported = _mteval("--db", str(path), "export", "entries", "c", "-o", str(tmp_path / "out.csv"),
                           cwd=tmp_path, prefix=prefix)
        assert exported.returncode == 0, exported.stderr
        written = _mteval("--db", str(path), "import", "corpus", str(corpus_file), "--source-lang", "eng",
                          "--target-lang", "crk", cwd=tmp_path, prefix=prefix)
        assert written.returncode == 1 and "read-only" in written.stderr and "Traceback" not in written.stderr
    finally:
        os.chmod(folder, 0o755)
        os.chmod(path, 0o644)
    assert target.exists()


# ----------------------------------------------------------------------------- full disk

def test_a_full_disk_is_a_message_and_the_workspace_stays_consistent(tmp_path):
    path = tmp_path / "ws.sqlite"
    ws = Workspace(path)
    repo.add_corpus(ws, _corpus("small", 5))
    pages = ws.conn.execute("PRAGMA page_count").fetchone()[0]
    ws.conn.execute(f"PRAGMA max_page_count={pages + 3}")  # what a full disk looks like to SQLite
    before = repo.counts(ws)
    with pytest.raises(StoreError, match="the disk is full") as info:
        repo.add_corpus(ws, _corpus("big", 5000, "a longer source text that needs many pages"))
    assert "nothing was written" in str(info.value)
    assert repo.counts(ws) == before
    assert not ws.conn.in_transaction
    ws.conn.execute("PRAGMA max_page_count=1073741823")
    repo.add_corpus(ws, _corpus("after", 5))
    assert ws.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    ws.close()


# ----------------------------------------------------------------------------- deferred creation

def test_a_rejected_import_into_a_new_db_path_creates_no_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"id": "1", "source": "x", "source": "y"}]', encoding="utf-8")
    db = tmp_path / "new" / "ws.sqlite"
    db.parent.mkdir()
    out = _mteval("--db", str(db), "import", "corpus", str(bad), "--source-lang", "eng", "--target-lang", "crk",
                  cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert list(db.parent.iterdir()) == []
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": "1", "source": "x"}\n', encoding="utf-8")
    out = _mteval("--db", str(db), "import", "corpus", str(good), "--source-lang", "eng", "--target-lang", "crk",
                  cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    ws = Workspace(db)
    assert [c["corpus_id"] for c in repo.list_corpora(ws)] == ["good"]
    ws.close()


def test_a_failed_first_transaction_leaves_no_file(tmp_path):
    from mteval_gui.io.judgments import read_judgments
    from mteval_gui.store import judgments as J

    db = tmp_path / "ws.sqlite"
    ws = Workspace(db, defer_create=True)
    assert ws.pending and repo.list_runs(ws) == [] and ws.schema_version() == SCHEMA_VERSION
    f = tmp_path / "j.json"
    f.write_text(
        json.dumps([{"reviewer_id": "nobody", "run_id": "none", "entry_id": "1", "adequacy": 3}]), encoding="utf-8"
    )
    read = read_judgments(f)
    with pytest.raises(InputError, match="unknown reviewer"):  # found inside the transaction
        J.import_log(ws, read.reviewers, read.judgments, file=read.name)
    assert sorted(os.listdir(tmp_path)) == ["j.json"]
    repo.set_setting(ws, "k", 1)
    assert not ws.pending and db.exists()
    assert repo.get_setting(ws, "k") == 1
    ws.close()
    assert repo.get_setting(Workspace(db), "k") == 1


def test_deferred_creation_meets_a_workspace_created_meanwhile(tmp_path):
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db, defer_create=True)
    other = Workspace(db)
    repo.set_setting(other, "first", 1)
    other.close()
    repo.set_setting(ws, "second", 2)
    assert (repo.get_setting(ws, "first"), repo.get_setting(ws, "second")) == (1, 2)
    ws.close()


# ----------------------------------------------------------------------------- run locks

@pytest.fixture
def scored(tmp_path):
    ws = Workspace(tmp_path / "ws.sqlite")
    add_corpus(ws, "c", ["1", "2"])
    add_run(ws, "r", "c")
    yield ws
    ws.close()


def test_a_second_job_on_the_same_run_is_refused_with_a_message(scored):
    lock = acquire_run_lock(scored, "r")
    with pytest.raises(RunBusy, match=r"run 'r' is being scored by another job \(process \d+, since .*\); wait"):
        acquire_run_lock(scored, "r")
    assert run_lock_holder(scored, "r")["pid"] == os.getpid()
    release_run_lock(scored, lock)
    assert run_lock_holder(scored, "r") is None
    with run_lock(scored, "r"):
        pass


def test_a_second_job_waits_for_the_first(scored, tmp_path):
    lock = acquire_run_lock(scored, "r")
    got: list[str] = []

    def second() -> None:
        ws = Workspace(scored.path)
        try:
            with run_lock(ws, "r", wait=120):
                got.append("acquired")
        finally:
            ws.close()

    t = threading.Thread(target=second)
    t.start()
    release_run_lock(scored, lock)
    t.join(150)
    assert got == ["acquired"]


def test_a_dead_holder_does_not_block_the_run(scored):
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(proc.stdout)
    with scored.transaction() as c:
        c.execute("INSERT INTO run_locks (run_id, token, host, pid, process_started, purpose, acquired_at)"
                  " VALUES ('r', 't', ?, ?, NULL, 'scored', 'then')", (__import__("socket").gethostname(), dead))
    assert run_lock_holder(scored, "r") is None
    with run_lock(scored, "r") as lock:
        assert lock.run_id == "r"


def test_a_reused_process_id_does_not_hold_the_lock(scored):
    with scored.transaction() as c:  # our own pid, but "started" at another time: a reused id
        c.execute("INSERT INTO run_locks (run_id, token, host, pid, process_started, purpose, acquired_at)"
                  " VALUES ('r', 't', ?, ?, '1', 'scored', 'then')", (__import__("socket").gethostname(), os.getpid()))
    assert run_lock_holder(scored, "r") is None


def test_scoring_refuses_a_run_another_job_is_scoring(scored):
    from mteval_gui.app.scoring import score_workspace_run

    lock = acquire_run_lock(scored, "r")
    with pytest.raises(RunBusy):
        score_workspace_run(scored, "r", metrics=["core.chrf"])
    release_run_lock(scored, lock)
    assert scored.conn.execute("SELECT COUNT(*) FROM entry_metrics").fetchone()[0] == 0


def test_a_lock_holder_is_checked_without_signalling_it(monkeypatch):
    """On Windows ``os.kill(pid, 0)`` is CTRL_C_EVENT: checking a lock holder must not interrupt it."""
    import subprocess
    import sys

    from mteval_gui.store import locks

    assert locks._process_exists(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not locks._process_exists(child.pid)

    def no_signal(pid, sig):
        raise AssertionError(f"os.kill({pid}, {sig}) on Windows")

    monkeypatch.setattr(locks.sys, "platform", "win32")
    monkeypatch.setattr(locks.os, "kill", no_signal)
    monkeypatch.setattr(locks, "_windows_process_exists", lambda pid: pid == 4242)
    assert locks._process_exists(4242) and not locks._process_exists(4243)
