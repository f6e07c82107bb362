"""A judgment shown as saved is never lost, whatever the GUI's file dialogs do to the workspace's files.

A real GUI process (tests/qt/wal_gui_child.py) lists its workspace's folder in a real file
dialog, rates an entry, lets a scoring process open, write and close the workspace, rates ten
more entries and is killed with SIGKILL. Qt's own icon provider opens and closes each listed
file, which releases the process's SQLite locks; the scoring process's close then deletes
the WAL the GUI still writes to. Either defence alone keeps every acknowledged judgment: the
application's dialogs, which never read a listed file, and the WAL guard of the store.
The last case shows the hazard itself (both defences off): the test can fail.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui.domain.judgments import Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as jstore
from tests.app.scoring_helpers import make_workspace

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform != "linux", reason="OFD locks are Linux's")]
ROOT = Path(__file__).resolve().parents[2]


def _run_gui(db: Path, dialog: str, guard: str) -> tuple[list[str], list[str]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "tests.qt.wal_gui_child", str(db), dialog, guard],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.strip())
            if line.strip() == "DONE":
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # as a crash would end it
        _, err = proc.communicate(timeout=60)
    assert "DONE" in lines, f"the GUI process stopped early: {lines} {err[-2000:]}"
    return [ln.split()[1] for ln in lines if ln.startswith("ACK ")], lines


def _kept(db: Path, acked: list[str]) -> list[str]:
    ws = Workspace(db)
    try:
        assert ws.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {str(j.judgment_id) for j in jstore.current_judgments(ws, run_id="r", task="A")}
    finally:
        ws.close()
    return [a for a in acked if a in stored]


def _workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "folder"
    folder.mkdir()
    db = folder / "ws.sqlite"
    make_workspace(db, 12)
    ws = Workspace(db)
    jstore.add_reviewer(ws, Reviewer(reviewer_id="rev", name="Reviewer"))
    ws.close()
    return db


@pytest.mark.parametrize(("dialog", "guard"), [("qt", "on"), ("app", "off"), ("app", "on")])
def test_every_acknowledged_judgment_survives_a_file_dialog_a_scoring_process_and_a_kill(tmp_path, dialog, guard):
    db = _workspace(tmp_path)
    acked, lines = _run_gui(db, dialog, guard)
    assert "LISTED 3" in lines or any(ln.startswith("LISTED ") and int(ln.split()[1]) >= 3 for ln in lines)
    assert len(acked) == 12
    assert _kept(db, acked) == acked


def test_without_either_defence_the_judgments_after_the_scoring_process_are_lost(tmp_path):
    db = _workspace(tmp_path)
    acked, _ = _run_gui(db, "qt", "off")
    assert len(acked) == 12
    # the two made before the scoring process closed were checkpointed into the file; the ten after it went
    # to a WAL it had deleted
    assert _kept(db, acked) == acked[:2]
