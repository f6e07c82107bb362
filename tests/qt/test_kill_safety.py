"""A process killed (SIGKILL) right after a rating keystroke loses no judgment."""

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
from tests.qt.conftest import make_small_workspace

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_rating_survives_sigkill(tmp_path):
    db = tmp_path / "kill.sqlite"
    ws = make_small_workspace(db)
    jstore.add_reviewer(ws, Reviewer(reviewer_id="amy", name="Amy"))
    ws.close()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-m", "tests.qt.kill_harness", str(db), "good", "e3", "4"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    ws = Workspace(db)
    try:
        (j,) = jstore.current_judgments(ws, run_id="good", reviewer_id="amy", task="A")
        assert (j.entry_id, j.adequacy, j.fluency) == ("e3", 4, None)
    finally:
        ws.close()
