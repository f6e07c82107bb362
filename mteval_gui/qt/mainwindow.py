"""The main window: it holds the workspace and routes between the tabs (runs, entries, compare,
charts, validation, ÈwéBench), the menus and scoring.

No evaluation logic and little state here: the menus come from one action table
(:mod:`mteval_gui.qt.actions`), scoring belongs to a :class:`~mteval_gui.qt.scoring_control.ScoringController`,
and every tab but Runs is a :class:`~mteval_gui.qt.page.Page` (Entries included) that reads what it
shows and asks the window through a :class:`~mteval_gui.qt.page.PageContext`. Closing the window
cancels scoring and every background read and waits for their threads.

Live views: a :class:`~mteval_gui.qt.live.WorkspaceWatcher` notices what other processes commit
to the workspace (``mteval score`` in a terminal) while the window is active; the window then
rereads the runs table and marks every page stale (View ▸ Refresh, F5, does it by hand).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QTabWidget, QWidget

from mteval_gui.app import workspace
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.settings import checked_settings
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.actions import FIRST_STEPS, all_acts, build_menus
from mteval_gui.qt.background import BackgroundTask
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.entries_page import EntriesPage
from mteval_gui.qt.live import WorkspaceWatcher
from mteval_gui.qt.page import Page, PageContext
from mteval_gui.qt.progress import ProgressPanel
from mteval_gui.qt.runs_view import RunsView
from mteval_gui.qt.scoring_control import ScoringController
from mteval_gui.qt.tab_style import keep_titles_whole

LIVE_REFRESH_SECONDS = 2.0  # changes seen by the watcher are applied at most this often


class MainWindow(QMainWindow):
    workspace_opened = Signal(str)

    def __init__(self, settings: AppSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.settings = settings or AppSettings.load()
        self.ws: Workspace | None = None
        self._loads: dict[str, BackgroundTask] = {}
        self.setWindowTitle("mteval-gui")
        self.resize(1400, 860)

        self.tabs = QTabWidget()
        keep_titles_whole(self.tabs.tabBar())
        self.tabs.setObjectName("mainTabs")
        self.runs_view = RunsView()
        self.entries_page: EntriesPage = EntriesPage()
        self.tabs.addTab(self.runs_view, self.tr("Runs"))
        self.setCentralWidget(self.tabs)
        self.extra_tabs: dict[str, QWidget] = {}
        self.context = PageContext(reviewer=lambda: self.entries_page.ratings.reviewer_id,
                                   open_entries=self.open_entries, run_changed=self._run_changed,
                                   show=self.tabs.setCurrentWidget, review_share=self.review_share)
        self.add_tab("entries", self.entries_page, self.tr("Entries"))

        self.runs_view.open_entries.connect(self.open_entries)
        self.runs_view.score_requested.connect(self.score_runs)
        self.runs_view.compare_requested.connect(self.compare_runs)
        self.runs_view.corpus_changed.connect(lambda _: self.refresh_runs())
        self.runs_view.first_step.connect(lambda name: self.menu_actions[FIRST_STEPS[name]].trigger())
        self.entries_page.ratings.reviewers_requested.connect(self.manage_reviewers)

        self.progress = ProgressPanel()
        self.scoring: ScoringController = ScoringController(self, self.progress)
        self.scoring.started.connect(self._update_actions)
        self.scoring.started.connect(lambda: self.runs_view.set_scoring(True))
        self.scoring.finished.connect(lambda _outcome: self.runs_view.set_scoring(False))
        self.scoring.finished.connect(self._load_runs)  # then every page is marked stale
        self.scoring.finished.connect(self._update_actions)
        self.scoring.run_progressed.connect(lambda run_id: self.entries_page.run_scored(run_id, False))
        self.scoring.run_finished.connect(self._run_finished)
        self.workspace_label = QLabel()
        self.workspace_label.setObjectName("workspaceLabel")
        self.statusBar().addWidget(self.workspace_label, 1)
        self.statusBar().addPermanentWidget(self.progress)
        self.live = WorkspaceWatcher(self, lambda: self.ws)
        self.live.changed.connect(self._live_changed)
        self._last_live_refresh = 0.0
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.timeout.connect(self.refresh_all)
        self.menu_actions: dict[str, QAction] = build_menus(self)
        self._restore_layout()
        self._update_actions()
        self.warning_box: QMessageBox | None = None
        if self.settings.problems:
            QTimer.singleShot(0, lambda: self.show_setting_warnings(self.settings.problems))

    def show_setting_warnings(self, lines: list[str]) -> None:
        """Say which settings are damaged (their defaults are used), without blocking the window."""
        if not lines:
            return
        text = self.tr("Some settings are damaged; their defaults are used:") + "\n\n" + "\n".join(lines)
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Damaged settings"), text, QMessageBox.StandardButton.Ok,
                          self)
        box.setModal(False)
        box.show()
        self.warning_box = box

    # ----- menus ---------------------------------------------------------------------------
    def _update_actions(self) -> None:
        for act in all_acts():
            if act.needs_workspace:
                self.menu_actions[act.name].setEnabled(self.ws is not None)
        self.menu_actions["cancelScoring"].setEnabled(self.scoring.running)

    def selected_runs(self) -> list[str]:
        return self.runs_view.selected_run_ids()

    # ----- workspace -----------------------------------------------------------------------
    def open_workspace(self, path: str | Path) -> bool:
        with reporting_errors(self) as report:
            ws = Workspace(path)
        if report.failed:
            return False
        if self.scoring.running:
            self.scoring.shutdown()
        if self.ws is not None:
            self.ws.close()
        self.ws = ws
        self.settings.remember_workspace(ws.path)
        self.settings.save()
        self.setWindowTitle(f"mteval-gui — {ws.path.name}")
        self.workspace_label.setText(str(ws.path))
        for task in self._loads.values():
            task.cancel()  # their results belong to the previous workspace
        for page in self.pages():
            page.set_workspace(ws)
        ws_settings, damaged = checked_settings(ws)
        self.show_setting_warnings(damaged)
        if ws_settings.default_reviewer:
            self.entries_page.ratings.set_reviewer(ws_settings.default_reviewer)
        self.runs_view.set_workspace(ws)
        self.refresh_runs()
        self.live.reset()
        self._update_actions()
        self.workspace_opened.emit(str(ws.path))
        return True

    def new_workspace(self) -> None:
        path, _ = file_dialogs.save_file_name(self, self.tr("New workspace"), "workspace.sqlite",
                                              self.tr("Workspaces (*.sqlite *.db)"))
        if path:
            self.open_workspace(path)

    def choose_workspace(self) -> None:
        path, _ = file_dialogs.open_file_name(self, self.tr("Open workspace"), "",
                                              self.tr("Workspaces (*.sqlite *.db);;All files (*)"))
        if path:
            self.open_workspace(path)

    def open_demo(self) -> None:
        from mteval_gui.app.startup import ensure_demo_workspace

        with reporting_errors(self) as report:
            path = ensure_demo_workspace()
        if not report.failed:
            self.open_workspace(path)

    def refresh_runs(self) -> None:
        from mteval_gui.app.runs import load_run_rows

        if self.ws is None:
            self.runs_view.set_corpora([])
            self.runs_view.set_rows([])
            return
        with reporting_errors(self):
            self.runs_view.set_corpora(workspace.list_corpora(self.ws))
            self.runs_view.set_rows(load_run_rows(self.ws, self.runs_view.corpus_combo.currentData()))
        self._mark_pages_stale()

    # ----- live views ----------------------------------------------------------------------
    def _live_changed(self) -> None:
        """Another process changed the workspace: reread it (at most every LIVE_REFRESH_SECONDS)."""
        if self.scoring.running:
            return  # our own scoring reports its batches; everything is reread when it ends
        wait = LIVE_REFRESH_SECONDS - (time.monotonic() - self._last_live_refresh)
        if wait > 0:
            if not self._live_timer.isActive():
                self._live_timer.start(int(wait * 1000))
            return
        self.refresh_all()

    def refresh_all(self) -> None:
        """Reread what the window shows from the workspace, in the background: the runs table, then
        every page (the open entries' values and review status among them)."""
        if self.ws is None:
            return
        self._last_live_refresh = time.monotonic()
        self.live.reset()
        self._load_runs()
        self.statusBar().showMessage(self.tr("Workspace reread."), 3000)

    def refresh_now(self) -> bool:
        """Reread at once (before an export) if another process changed the workspace; True if it did."""
        if self.ws is None or not self.live.pending():
            return False
        self.live.reset()
        with reporting_errors(self, busy=True):
            self.refresh_runs()
            self.entries_page.reload_now()
        return True

    def _load(self, name: str, fn: Callable[[Workspace], Any], apply: Callable[[Any], None]) -> None:
        """``fn(ws)`` in a worker thread (its own SQLite connection), ``apply``-ed in the GUI thread
        unless a newer load of the same ``name`` started meanwhile (or another workspace was opened)."""
        ws = self.ws
        if ws is None:
            return
        task = self._loads.get(name)
        if task is None:
            task = self._loads[name] = BackgroundTask(self, f"load-{name}")
        task.start(lambda ctx: fn(ws), on_done=apply, workspace=ws)

    def _load_runs(self) -> None:
        from mteval_gui.app.runs import load_run_rows

        corpus = self.runs_view.corpus_combo.currentData()
        self._load("runs", lambda ws: (workspace.list_corpora(ws), load_run_rows(ws, corpus)), self._apply_run_rows)

    def _apply_run_rows(self, result: tuple[list[Any], list[Any]]) -> None:
        corpora, rows = result
        self.runs_view.set_corpora(corpora)
        self.runs_view.set_rows(rows)
        self._mark_pages_stale()

    def _run_changed(self, run_id: str) -> None:
        """A page changed the run (a sign-off): its row is reread at once."""
        from mteval_gui.app.runs import load_run_row

        if self.ws is not None:
            with reporting_errors(self):
                self._apply_run_row(load_run_row(self.ws, run_id))

    def _apply_run_row(self, row: Any) -> None:
        if row is not None:
            self.runs_view.model.update_row(row)

    # ----- routes --------------------------------------------------------------------------
    def open_entries(self, run_ids: list[str]) -> None:
        """Show the entries of ``run_ids`` side by side (the entries page reads large corpora in the background)."""
        sizes = {r.run_id: r.entries for r in self.runs_view.model.rows}
        self.entries_page.open_runs(run_ids, max((sizes.get(r, 0) for r in run_ids), default=0))

    def review_share(self, run_ids: list[str], entry_ids: list[str], reviewer_id: str, label: str) -> None:
        """Rate a share of a campaign here: its runs side by side, only its entries, as its reviewer."""
        self.open_entries(run_ids)
        self.entries_page.set_scope(entry_ids, label)
        self.entries_page.ratings.set_reviewer(reviewer_id)
        self.tabs.setCurrentWidget(self.entries_page)

    def compare_runs(self, run_ids: list[str]) -> None:
        page = self.extra_tabs.get("compare")
        if isinstance(page, Page) and page.show_runs(run_ids):
            self.tabs.setCurrentWidget(page)
            charts = self.extra_tabs.get("charts")
            if charts is not None and hasattr(charts, "follow_comparison"):
                charts.follow_comparison(run_ids)  # the charts follow: the compared runs' corpus, those runs only

    def score_runs(self, run_ids: list[str]) -> None:
        if self.ws is not None and run_ids:
            self.scoring.score(self.ws, run_ids)

    def _run_finished(self, run_id: str) -> None:
        from mteval_gui.app.runs import load_run_row

        self._load(f"run-row:{run_id}", lambda ws: load_run_row(ws, run_id), self._apply_run_row)
        self.entries_page.run_scored(run_id, True)

    def add_tab(self, key: str, widget: QWidget, title: str) -> None:
        """Add a tab; a :class:`Page` is given the window's context and the open workspace."""
        self.extra_tabs[key] = widget
        self.tabs.addTab(widget, title)
        if isinstance(widget, Page):
            widget.attach(self.context)
            if self.ws is not None:
                widget.set_workspace(self.ws)

    def pages(self) -> list[Page]:
        """The tabs that follow the page contract (:mod:`mteval_gui.qt.page`)."""
        return [w for w in self.extra_tabs.values() if isinstance(w, Page)]

    def _mark_pages_stale(self) -> None:
        """The workspace changed: every page rereads it (now if shown, else when shown)."""
        for page in self.pages():
            page.mark_stale()

    # ----- dialogs -------------------------------------------------------------------------
    def import_file(self, kind: str, path: str | None = None) -> None:
        if self.ws is None:
            return
        from mteval_gui.qt.import_dialog import ImportDialog

        dlg = ImportDialog(self.ws, kind, self)
        if path:
            dlg.set_path(path)
        if dlg.exec() and dlg.result_summary is not None:
            self.statusBar().showMessage(dlg.result_summary, 8000)
            self.refresh_runs()

    def import_judgments(self) -> None:
        from mteval_gui.qt import review_pack_dialog

        review_pack_dialog.import_judgments(self)

    def manage_reviewers(self) -> None:
        if self.ws is None:
            return
        from mteval_gui.qt.reviewers_dialog import ReviewersDialog

        dlg = ReviewersDialog(self.ws, self)
        dlg.exec()
        self.entries_page.ratings.reload_reviewers(dlg.last_added)
        self._mark_pages_stale()  # the audits list the reviewers too

    def set_language(self, code: str) -> None:
        self.settings.language = code
        self.settings.save()
        self.statusBar().showMessage(self.tr("The interface language changes at the next start."), 8000)

    # ----- window --------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        if self.settings.last_folder and not file_dialogs.last_folder:
            file_dialogs.last_folder = self.settings.last_folder
        if self.settings.geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.geometry.encode()))
        if self.settings.window_state:
            self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self.scoring.shutdown()
        for task in self._loads.values():
            task.shutdown()
        for page in self.pages():
            page.shutdown()
        self.settings.geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        self.settings.window_state = bytes(self.saveState().toBase64().data()).decode()
        self.settings.last_folder = file_dialogs.last_folder or self.settings.last_folder
        self.settings.save()
        self.entries_page.set_frame(None)
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        super().closeEvent(event)
