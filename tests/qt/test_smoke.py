"""Start the real application in a subprocess on the demo workspace; it must exit cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_gui_starts_on_demo_and_quits(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MTEVAL_HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "mteval_gui.gui", "--demo", "--quit-after", "2000"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    settings = (tmp_path / "gui-settings.json").read_text(encoding="utf-8")
    assert "demo.sqlite" in settings


def test_gui_opens_given_database(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MTEVAL_HOME=str(tmp_path))
    db = tmp_path / "new.sqlite"
    proc = subprocess.run([sys.executable, "-m", "mteval_gui.gui", "--db", str(db), "--lang", "fr",
                           "--quit-after", "1000"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert db.exists()


def test_the_window_is_painted_before_the_scoring_stack_loads(tmp_path):
    """Building and painting the main window imports neither the scoring stack (metrics,
    sacrebleu, the analyzers' hfst) nor pandas: they load when first used, after the window shows."""
    code = (
        "import sys\n"
        "from mteval_gui.app.preferences import AppSettings\n"
        "from mteval_gui.qt.main import build_window, paint_now, setup_application\n"
        "settings = AppSettings.load()\n"
        "app = setup_application(['mteval-gui'], 'en', settings)\n"
        "window = build_window(settings)\n"
        "window.show()\n"
        "paint_now(app, window)\n"
        "heavy = ('pandas', 'sacrebleu', 'hfst', 'mteval_gui.app.scoring', 'mteval_gui.scoring.metrics')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MTEVAL_HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1:] in ([], [""]), proc.stdout
