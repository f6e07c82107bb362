"""The WAL guard: another process never deletes the WAL of a workspace this process has open,
even after this process released its SQLite locks by opening and closing the file itself."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui import protected
from mteval_gui.errors import InputError
from mteval_gui.io.textfile import read_bytes
from mteval_gui.store import Workspace, walguard

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="OFD locks are Linux's")
ROOT = Path(__file__).resolve().parents[2]

_WRITER = (
    "import sys\n"
    "from mteval_gui.store import Workspace\n"
    "w = Workspace(sys.argv[1])\n"
    "with w.transaction() as c: c.execute(\"INSERT INTO settings(key, value) VALUES ('other', '1')\")\n"
    "w.close()\n"
)


def _set(ws: Workspace, key: str) -> None:
    with ws.transaction() as c:
        c.execute("INSERT INTO settings(key, value) VALUES (?, '1')", (key,))


def _keys(db: Path) -> list[str]:
    ws = Workspace(db)
    try:
        return sorted(r[0] for r in ws.conn.execute("SELECT key FROM settings WHERE key IN ('a', 'b', 'other')"))
    finally:
        ws.close()


def _lose_locks_and_let_another_process_close(db: Path, ws: Workspace) -> None:
    for suffix in ("", "-wal", "-shm"):  # what Qt's file dialog does to each file it lists
        with open(f"{db}{suffix}", "rb") as fh:
            fh.read(16)
    subprocess.run([sys.executable, "-c", _WRITER, str(db)], check=True, cwd=ROOT,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _crash_after(db: Path, guard: bool) -> None:
    """In a forked process: open, write, lose the locks, let another process close, write, die."""
    walguard.enabled = guard
    ws = Workspace(db)
    _set(ws, "a")
    _lose_locks_and_let_another_process_close(db, ws)
    _set(ws, "b")
    os._exit(0)  # no close: as a kill would end it


@linux_only
@pytest.mark.parametrize(("guard", "expected"), [(True, ["a", "b", "other"]), (False, ["a", "other"])])
def test_a_write_after_another_process_closed_survives_only_with_the_guard(tmp_path, guard, expected):
    db = tmp_path / "ws.sqlite"
    Workspace(db).close()
    proc = multiprocessing.get_context("fork").Process(target=_crash_after, args=(db, guard))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 0
    assert _keys(db) == expected  # without the guard 'b' went to a WAL the other process had deleted


@linux_only
def test_the_last_connection_still_removes_the_wal_and_releases_the_guard(tmp_path):
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    _set(ws, "a")
    assert walguard.held_count(str(db)) == 1
    assert Path(f"{db}-wal").exists()
    ws.close()
    assert walguard.held_count(str(db)) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws.sqlite"]  # a copy of the file alone is complete


@linux_only
def test_a_forked_child_closing_its_connections_leaves_the_parents_guard(tmp_path):
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    _set(ws, "a")

    def child() -> None:
        w = Workspace(db)
        _set(w, "b")
        w.close()  # releases the child's own guard only
        os._exit(0)

    proc = multiprocessing.get_context("fork").Process(target=child)
    proc.start()
    proc.join(60)
    assert proc.exitcode == 0
    assert walguard.held_count(str(db)) == 1
    _lose_locks_and_let_another_process_close(db, ws)
    assert Path(f"{db}-wal").exists()
    ws.close()
    assert _keys(db) == ["a", "b", "other"]


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_readers_refuse_the_files_of_an_open_workspace(tmp_path, suffix):
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    _set(ws, "a")
    try:
        link = tmp_path / "other-name.jsonl"
        os.link(f"{db}{suffix}", link)  # another name of the same file
        for path in (Path(f"{db}{suffix}"), link):
            with pytest.raises(InputError) as info:
                read_bytes(path)
            what = "database" if suffix == "" else f"{suffix[1:]} file"
            assert str(info.value) == (f"{path}: is the open workspace's {what} (ws.sqlite{suffix}), "
                                       "not a file to read; choose another file")
        assert ws.owns_file(link) and not ws.owns_file(tmp_path)
    finally:
        ws.close()
    del ws
    import gc

    gc.collect()
    assert protected.workspace_file(db) is None  # forgotten with the workspace


def test_importing_the_workspace_into_itself_is_refused_and_changes_nothing(tmp_path):
    db = tmp_path / "ws.sqlite"
    Workspace(db).close()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = db.read_bytes()
    out = subprocess.run([sys.executable, "-m", "mteval_gui", "--db", str(db), "import", "corpus", str(db)],
                         capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode != 0
    assert f"{db}: is the open workspace's database (ws.sqlite), not a file to read; choose another file" in out.stderr
    assert "Traceback" not in out.stderr
    assert db.read_bytes() == before


def test_analyzer_readers_refuse_the_files_of_an_open_workspace(tmp_path):
    from mteval_gui.fst.analyzer import AnalyzerError, read_transducer
    from mteval_gui.fst.install import InstallError, install_analyzer

    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    try:
        with pytest.raises(AnalyzerError) as a:
            read_transducer(db)
        assert str(a.value) == f"{db}: the open workspace's database (ws.sqlite), not an analyzer file"
        with pytest.raises(InstallError) as b:
            install_analyzer("crk", db, base=tmp_path / "analyzers")
        assert str(b.value) == f"{db}: the open workspace's database (ws.sqlite), not an analyzer file or package"
    finally:
        ws.close()
