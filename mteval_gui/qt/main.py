"""Start the desktop application: ``mteval-gui [--demo] [--db PATH] [--lang fr]``.

Creates the QApplication, installs the translation and a font that renders Cree
syllabics, SRO and Ewe letters, applies the stylesheet, opens the start-up workspace
(:mod:`mteval_gui.app.startup`) and runs the event loop. ``--quit-after MS`` (or
``MTEVAL_GUI_QUIT_AFTER``) closes the window after a delay: the smoke test uses it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer, QTranslator
from PySide6.QtGui import QFont, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from mteval_gui.app.preferences import AppSettings
from mteval_gui.paths import default_workspace_path, resources_dir
from mteval_gui.qt.fonts import choose_ui_font, register_bundled_fonts
from mteval_gui.qt.i18n import LANGUAGES, install_translators, resolve_language

if TYPE_CHECKING:
    from mteval_gui.app.startup import StartupDecision
    from mteval_gui.qt.mainwindow import MainWindow


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="mteval-gui", description="Workbench for evaluating MT and LLM output.")
    p.add_argument("--demo", action="store_true", help="open the bundled demo workspace (built on first use)")
    p.add_argument("--db", metavar="PATH", help="workspace database to open")
    p.add_argument("--lang", choices=sorted(LANGUAGES), help="interface language")
    p.add_argument("--quit-after", type=int, metavar="MS",
                   default=int(os.environ.get("MTEVAL_GUI_QUIT_AFTER", "0") or 0),
                   help="close the window after MS milliseconds (for tests)")
    p.add_argument("--no-score", action="store_true", help="do not start scoring unscored demo runs")
    return p.parse_args(list(argv))


_translators: list[QTranslator] = []  # the installed translators (Qt does not own them)


def stylesheet() -> str:
    path = resources_dir() / "styles" / "mteval.qss"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def setup_application(argv: Sequence[str], lang: str | None, settings: AppSettings) -> QApplication:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([argv[0] if argv else "mteval-gui"])
    QCoreApplication.setApplicationName("mteval-gui")
    QCoreApplication.setOrganizationName("mteval-gui")
    _translators[:] = install_translators(app, resolve_language(lang, settings.language))  # kept alive here
    register_bundled_fonts()
    family = choose_ui_font()
    if family:
        app.setFont(QFont(family, app.font().pointSize()))
    app.setStyleSheet(stylesheet())
    icon = resources_dir() / "icons" / "mteval-gui.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    app.setDesktopFileName("mteval-gui")
    return app


def build_window(settings: AppSettings, *, suites: bool = True):
    """The main window with its tabs; ``suites=False`` leaves out the benchmark suites' tabs
    (:func:`mteval_gui.qt.tabs.add_suite_tabs` adds them later: loading a suite reads its files)."""
    from mteval_gui.qt.mainwindow import MainWindow
    from mteval_gui.qt.tabs import add_optional_tabs

    window = MainWindow(settings)
    add_optional_tabs(window, suites=suites)
    return window


def paint_now(app: QApplication, window: QWidget, wait_s: float = 2.0) -> None:
    """Let the window system expose ``window`` and paint it (waits at most ``wait_s``)."""
    deadline = time.monotonic() + wait_s
    handle = window.windowHandle()
    while handle is not None and not handle.isExposed() and time.monotonic() < deadline:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    app.processEvents()


MISSING_CHOICES = ("open", "new", "demo")


def missing_workspace_box(parent: QWidget | None, path: Path) -> QMessageBox:
    """The question asked when the last workspace is gone (not yet executed): its buttons'
    object names are ``missing-open``, ``missing-new``, ``missing-demo`` and ``missing-cancel``."""
    box = QMessageBox(QMessageBox.Icon.Warning, QCoreApplication.translate("MainWindow", "Workspace not found"),
                      QCoreApplication.translate(
                          "MainWindow", "The workspace {0} was not found: it may have been moved or deleted, or "
                                        "be on a drive that is not mounted.").format(path), parent=parent)
    box.setObjectName("missingWorkspaceBox")
    box.setInformativeText(QCoreApplication.translate(
        "MainWindow", "Open another workspace, create a new one, or create the demo workspace. Nothing is "
                      "created until you choose."))
    for name, label, role in (
            ("open", QCoreApplication.translate("MainWindow", "Open…"), QMessageBox.ButtonRole.AcceptRole),
            ("new", QCoreApplication.translate("MainWindow", "New…"), QMessageBox.ButtonRole.ActionRole),
            ("demo", QCoreApplication.translate("MainWindow", "Create the demo"), QMessageBox.ButtonRole.ActionRole),
            ("cancel", QCoreApplication.translate("MainWindow", "Not now"), QMessageBox.ButtonRole.RejectRole)):
        button = box.addButton(label, role)
        button.setObjectName(f"missing-{name}")
        if name == "open":
            box.setDefaultButton(button)
    return box


def ask_missing_workspace(parent: QWidget | None, path: Path) -> str | None:
    """``"open"``, ``"new"``, ``"demo"`` or None (not now) for a missing last workspace."""
    from mteval_gui.qt.dialogs import _exec

    box = missing_workspace_box(parent, path)
    _exec(box)
    clicked = box.clickedButton()
    name = clicked.objectName().removeprefix("missing-") if clicked is not None else ""
    return name if name in MISSING_CHOICES else None


def open_at_start(window: MainWindow, settings: AppSettings, decision: StartupDecision, *,
                  interactive: bool = True) -> None:
    """Carry out the start-up decision (:func:`mteval_gui.app.startup.startup_decision`) in ``window``.

    A missing last workspace is reported and the user chooses what to open or create; without
    ``interactive`` (``--quit-after``) nothing is opened then. First start: the demo is offered."""
    if decision.missing is not None:
        if interactive:
            choice = ask_missing_workspace(window, decision.missing)
            actions = {"open": window.choose_workspace, "new": window.new_workspace, "demo": window.open_demo}
            if choice is not None:
                actions[choice]()
        return
    if decision.offer_demo:
        settings.demo_offered = True
        settings.save()
        if not interactive:
            window.open_workspace(default_workspace_path())
            return
        answer = QMessageBox.question(
            window,
            QCoreApplication.translate("MainWindow", "Welcome"),
            QCoreApplication.translate(
                "MainWindow", "This is the first start. Open the demo workspace (Plains Cree and Ewe examples)?"
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            window.open_demo()
        else:
            window.open_workspace(default_workspace_path())
        return
    if decision.path is not None:
        window.open_workspace(decision.path)


def run(argv: Sequence[str]) -> int:
    args = parse_args(list(argv)[1:])
    settings = AppSettings.load()
    app = setup_application(argv, args.lang, settings)
    from mteval_gui.app.startup import StartupDecision, startup_decision
    from mteval_gui.qt.dialogs import reporting_errors

    window = build_window(settings, suites=False)
    window.show()
    paint_now(app, window)  # on screen before the suites load and the workspace opens (or the demo is built)
    from mteval_gui.qt.tabs import add_suite_tabs

    add_suite_tabs(window)
    decision = StartupDecision()
    with reporting_errors(window):  # e.g. the demo cannot be built: shown, the window stays usable
        decision = startup_decision(demo=args.demo, db=args.db, settings=settings)
    open_at_start(window, settings, decision, interactive=not args.quit_after)
    if decision.path is not None and args.demo and not args.no_score:
        unscored = [r.run_id for r in window.runs_view.model.rows if not r.scored]
        if unscored:
            window.score_runs(unscored)
    if args.quit_after:
        QTimer.singleShot(args.quit_after, window.close)
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run(sys.argv))
