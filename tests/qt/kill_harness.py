"""Child process of the kill-safety test: rate with one keystroke, then die by SIGKILL.

Usage: python -m tests.qt.kill_harness DB_PATH RUN_ID ENTRY_ID KEY
"""

from __future__ import annotations

import os
import signal
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv: list[str]) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QTableView, QVBoxLayout, QWidget

    from mteval_gui.qt.ratings import RatingsPanel
    from mteval_gui.store import Workspace

    db, run_id, entry_id, key = argv
    app = QApplication([])
    ws = Workspace(db)
    host = QWidget()
    lay = QVBoxLayout(host)
    table = QTableView()
    lay.addWidget(table)
    panel = RatingsPanel(ws)
    lay.addWidget(panel)
    panel.install_shortcuts(host)
    panel.set_workspace(ws)
    panel.set_item(run_id, entry_id)
    host.show()
    app.processEvents()
    table.setFocus()
    QTest.keyClick(table, getattr(Qt.Key, f"Key_{key}"))
    # no close, no event loop, no cleanup: the process ends the hard way
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    main(sys.argv[1:])
