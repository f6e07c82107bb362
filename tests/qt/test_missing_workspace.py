"""At start, a missing last workspace is reported with a choice; nothing is created without it."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox, QPushButton

from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.startup import startup_decision
from mteval_gui.paths import default_workspace_path
from mteval_gui.qt import dialogs
from mteval_gui.qt.main import build_window, open_at_start


@pytest.fixture
def started(qtbot, tmp_path, monkeypatch):
    """Start as the application does with a last workspace that is gone; answer the question with ``choice``."""
    monkeypatch.delenv("MTEVAL_DB", raising=False)
    gone = tmp_path / "usb" / "field-work.sqlite"
    settings = AppSettings(last_workspace=str(gone), recent_workspaces=[str(gone)], demo_offered=True)
    shown: list[QMessageBox] = []

    def start(choice: str):
        def answer(box):
            shown.append(box)
            box.findChild(QPushButton, f"missing-{choice}").click()
            return 0

        monkeypatch.setattr(dialogs, "_exec", answer)
        window = build_window(settings, suites=False)
        qtbot.addWidget(window)
        open_at_start(window, settings, startup_decision(demo=False, db=None, settings=settings))
        return window

    return start, shown, gone


def test_the_user_is_told_and_nothing_is_created(started):
    start, shown, gone = started
    window = start("cancel")
    (box,) = shown
    assert box.objectName() == "missingWorkspaceBox"
    assert box.text() == (f"The workspace {gone} was not found: it may have been moved or deleted, or be on a "
                          "drive that is not mounted.")
    assert sorted(b.text() for b in box.buttons()) == ["Create the demo", "New…", "Not now", "Open…"]
    assert box.defaultButton().objectName() == "missing-open"
    assert "first start" not in box.text()
    assert window.ws is None
    assert not gone.exists() and not default_workspace_path().exists()


@pytest.mark.parametrize("choice, method", [("open", "choose_workspace"), ("new", "new_workspace"),
                                            ("demo", "open_demo")])
def test_each_choice_does_what_it_says(started, monkeypatch, choice, method):
    from mteval_gui.qt.mainwindow import MainWindow

    called = []
    monkeypatch.setattr(MainWindow, method, lambda self: called.append(method))
    start, shown, gone = started
    window = start(choice)
    assert called == [method] and len(shown) == 1
    assert window.ws is None and not gone.exists()


def test_the_application_creates_nothing_for_a_missing_last_workspace(tmp_path):
    """The real application, started with a last workspace that is gone (``--quit-after``: no one to ask)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    gone = tmp_path / "usb" / "field-work.sqlite"
    home = tmp_path / "home"
    home.mkdir()
    (home / "gui-settings.json").write_text(json.dumps({"last_workspace": str(gone), "recent_workspaces": [str(gone)],
                                                        "demo_offered": True}), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MTEVAL_DB"}
    env.update(QT_QPA_PLATFORM="offscreen", MTEVAL_HOME=str(home))
    proc = subprocess.run([sys.executable, "-m", "mteval_gui.gui", "--quit-after", "500"],
                          cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert not gone.exists() and not (home / "workspace.sqlite").exists()
    assert json.loads((home / "gui-settings.json").read_text(encoding="utf-8"))["last_workspace"] == str(gone)


def test_the_question_is_translated(french, tmp_path):
    from mteval_gui.qt.main import missing_workspace_box

    box = missing_workspace_box(None, tmp_path / "gone.sqlite")
    assert box.windowTitle() == "Espace de travail introuvable"
    assert sorted(b.text() for b in box.buttons()) == ["Créer la démonstration", "Nouveau…", "Ouvrir…",
                                                       "Pas maintenant"]
