"""A GUI process for tests/qt/test_wal_safety.py: lists its workspace's folder in a real file
dialog, rates, lets another process score and close, rates again, and waits to be killed.

``python -m tests.qt.wal_gui_child DB DIALOG GUARD``: DIALOG is ``app`` (the application's
dialog, :mod:`mteval_gui.qt.file_dialogs`) or ``qt`` (a Qt file dialog with Qt's own icon
provider, which reads the files it lists); GUARD is ``on`` or ``off`` (the WAL guard of
:mod:`mteval_gui.store.walguard`). Each judgment is acknowledged on stdout (``ACK id``) once
``record_judgment`` returned, as the review pane says "Saved" then.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel

from mteval_gui.app.review import record_judgment
from mteval_gui.domain.judgments import Judgment
from mteval_gui.qt import file_dialogs
from mteval_gui.store import Workspace, walguard


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _rate(ws: Workspace, i: int) -> None:
    j = record_judgment(ws, Judgment(reviewer_id="rev", run_id="r", entry_id=f"e{i:03d}", task="A",
                                     adequacy=i % 5 + 1, fluency=(i + 1) % 5 + 1, note=f"n{i}"))
    _say(f"ACK {j.judgment_id}")


def _list_folder(app: QApplication, folder: Path, dialog_kind: str) -> int:
    """Show the dialog on ``folder`` in detail view until every file is listed with its type; cancel it."""
    listed: list[int] = []

    def close_when_listed() -> None:
        dialog = app.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(50, close_when_listed)
            return
        dialog.setViewMode(QFileDialog.ViewMode.Detail)
        model = dialog.findChild(QFileSystemModel)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            app.processEvents()
            root = model.index(str(folder))
            names = {model.index(r, 0, root).data() for r in range(model.rowCount(root))}
            if {"ws.sqlite", "ws.sqlite-wal", "ws.sqlite-shm"} <= names:
                # ask every row for its type and icon, as painting the view does
                for r in range(model.rowCount(root)):
                    model.index(r, 2, root).data()
                    model.fileIcon(model.index(r, 0, root))
                listed.append(len(names))
                break
            time.sleep(0.01)
        end = time.monotonic() + 1.0  # let the gatherer thread finish its icons and types
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        dialog.reject()

    QTimer.singleShot(0, close_when_listed)
    if dialog_kind == "app":  # File > Export > Run card… opens this dialog
        file_dialogs.save_file_name(None, "Export run card", str(folder / "r.runcard.json"), "All files (*)")
    else:
        dialog = QFileDialog(None, "Export run card", str(folder), "All files (*)")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.exec()
    return listed[0] if listed else 0


def main() -> None:
    db, dialog_kind, guard = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    walguard.enabled = guard == "on"
    app = QApplication([])
    ws = Workspace(db)
    _rate(ws, 0)  # the workspace now has its -wal and -shm
    n = _list_folder(app, db.parent, dialog_kind)
    _say(f"LISTED {n}")
    _rate(ws, 1)
    # a scoring process opens the workspace, writes and closes its connection
    subprocess.run([sys.executable, "-m", "mteval_gui", "--db", str(db), "score", "r", "--metrics", "core.exact",
                    "--workers", "1"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _say("SCORED")
    for i in range(2, 12):
        _rate(ws, i)
    _say("DONE")
    time.sleep(600)  # killed here


if __name__ == "__main__":
    main()
