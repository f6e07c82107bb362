"""The main window: workspace, tabs (runs, entries, compare, charts, validation, ÈwéBench),
menus, background scoring and exports.

The window holds no evaluation logic: it asks the application layer and shows what it
returns. Scoring runs through one :class:`~mteval_gui.qt.workers.JobManager`, reading through
:class:`~mteval_gui.qt.background.BackgroundTask`; closing the window cancels every job and
waits for its thread.

Live views: a :class:`~mteval_gui.qt.live.WorkspaceWatcher` notices what other processes commit
to the workspace (``mteval score`` in a terminal) while the window is active, and the window
rereads the runs table, the open entries and every page (View ▸ Refresh, F5, does it by hand).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QMessageBox, QTabWidget, QWidget

from mteval_gui.app import workspace
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.settings import checked_settings
from mteval_gui.app.tasks import JobOutcome, ProcessJob
from mteval_gui.app.workspace import Workspace
from mteval_gui.errors import MtevalError
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.background import BackgroundTask
from mteval_gui.qt.dialogs import reporting_errors, show_error
from mteval_gui.qt.entries_page import EntriesPage
from mteval_gui.qt.help_dialogs import open_user_guide
from mteval_gui.qt.i18n import LANGUAGES
from mteval_gui.qt.live import WorkspaceWatcher
from mteval_gui.qt.page import Page
from mteval_gui.qt.progress import ProgressPanel
from mteval_gui.qt.runs_view import RunsView
from mteval_gui.qt.workers import JobManager, Worker

ENTRY_REFRESH_SECONDS = 2.0
LIVE_REFRESH_SECONDS = 2.0  # changes seen by the watcher are applied at most this often
BACKGROUND_ROWS = 20_000  # corpora at least this large are loaded in a worker thread


class MainWindow(QMainWindow):
    workspace_opened = Signal(str)
    scoring_finished = Signal(object)  # JobOutcome
    frame_shown = Signal()  # the entries table shows newly opened runs

    def __init__(self, settings: AppSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.settings = settings or AppSettings.load()
        self.ws: Workspace | None = None
        self.jobs = JobManager(self)
        self.scoring_worker: Worker | None = None
        self._scoring_runs: list[str] = []
        self._scoring_seen: dict[str, tuple[int, int]] = {}  # run id -> (entries scored, entries)
        self._scoring_done = 0
        self._last_entry_refresh = 0.0
        self._refresh_interval = ENTRY_REFRESH_SECONDS
        self._loads: dict[str, BackgroundTask] = {}
        self.blind = False
        self.setWindowTitle("mteval-gui")
        self.resize(1400, 860)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.runs_view = RunsView()
        self.entries_page = EntriesPage()
        self.tabs.addTab(self.runs_view, self.tr("Runs"))
        self.tabs.addTab(self.entries_page, self.tr("Entries"))
        self.setCentralWidget(self.tabs)
        self.extra_tabs: dict[str, QWidget] = {}

        self.runs_view.open_entries.connect(self.open_entries)
        self.runs_view.score_requested.connect(self.score_runs)
        self.runs_view.compare_requested.connect(self.compare_runs)
        self.runs_view.corpus_changed.connect(lambda _: self.refresh_runs())
        self.runs_view.first_step.connect(self._first_step)
        self.entries_page.loader = self._load_review
        self._reference_analyser = None
        self.entries_page.review.reference_analyser = self._analyse_reference
        self.entries_page.ratings.reviewers_requested.connect(self.manage_reviewers)
        self.entries_page.ratings.reviewer_combo.currentIndexChanged.connect(self._reviewer_changed)

        self.progress = ProgressPanel()
        self.progress.cancel_requested.connect(self.cancel_scoring)
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
        self._build_menus()
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
    def _action(self, menu: QMenu, text: str, slot, shortcut: Any = None, name: str | None = None,
                tip: str | None = None) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(slot)
        if name:
            a.setObjectName(name)
        menu.addAction(a)
        return a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu(self.tr("&File"))
        self._action(f, self.tr("&New workspace…"), self.new_workspace, QKeySequence.StandardKey.New)
        self._action(f, self.tr("&Open workspace…"), self.choose_workspace, QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu(self.tr("Open &recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(f, self.tr("Open the &demo workspace"), self.open_demo)
        f.addSeparator()
        self.import_actions = [
            self._action(f, self.tr("Import &corpus…"), lambda: self.import_file("corpus"), "Ctrl+I", "importCorpus"),
            self._action(f, self.tr("Import &run…"), lambda: self.import_file("run"), "Ctrl+Shift+I", "importRun"),
            self._action(f, self.tr("Import &glossary…"), lambda: self.import_file("glossary")),
            self._action(f, self.tr("Install &analyzer…"), lambda: self.import_file("analyzer")),
            self._action(f, self.tr("Import &judgments or review-pack answers…"), self.import_judgments,
                         name="importJudgments"),
        ]
        f.addSeparator()
        exp = f.addMenu(self.tr("&Export"))
        self.export_actions = [
            self._action(exp, self.tr("Run card (JSON)…"), self.export_run_card, name="exportRunCard"),
            self._action(exp, self.tr("Entries (CSV)…"), self.export_entries_csv, name="exportEntries"),
            self._action(exp, self.tr("Judgments (CSV)…"), lambda: self.export_judgments("csv")),
            self._action(exp, self.tr("Judgments (JSON)…"), lambda: self.export_judgments("json")),
            self._action(exp, self.tr("Chart (PNG/SVG)…"), self.export_chart),
            self._action(exp, self.tr("Review pack for a speaker (HTML)…"), self.export_review_pack,
                         name="exportReviewPack"),
        ]
        f.addSeparator()
        self.settings_action = self._action(f, self.tr("&Settings…"), self.open_settings,
                                            QKeySequence.StandardKey.Preferences)
        f.addSeparator()
        self._action(f, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)

        r = mb.addMenu(self.tr("&Runs"))
        self.score_action = self._action(r, self.tr("&Score selected runs"),
                                         lambda: self.score_runs(self.runs_view.selected_run_ids()), "Ctrl+R",
                                         "scoreRuns")
        self.cancel_action = self._action(r, self.tr("&Cancel scoring"), self.cancel_scoring, "Esc")
        r.addSeparator()
        self._action(r, self.tr("Open &entries of selected runs"),
                     lambda: self.open_entries(self.runs_view.selected_run_ids()))
        self._action(r, self.tr("C&ompare selected runs"), lambda: self.compare_runs(self.runs_view.selected_run_ids()))

        v = mb.addMenu(self.tr("Re&view"))
        self._action(v, self.tr("&Reviewers…"), self.manage_reviewers)
        self.blind_action = self._action(v, self.tr("&Blind mode"), self.toggle_blind, "Ctrl+B", "blindMode",
                                         self.tr("Hide metric values, verdicts and the reference while rating"))
        self.blind_action.setCheckable(True)
        self.random_action = self._action(v, self.tr("R&andomised order"), self.toggle_random_order, name="randomOrder",
                                          tip=self.tr("Show the entries in a shuffled order, fixed per reviewer"))
        self.random_action.setCheckable(True)
        v.addSeparator()
        p = self.entries_page
        self._action(v, self.tr("&Next entry"), p.next_entry)
        self._action(v, self.tr("&Previous entry"), p.previous_entry)
        self._action(v, self.tr("Next &unreviewed"), p.next_unreviewed)
        self._action(v, self.tr("Next &flagged"), p.next_flagged)
        v.addSeparator()
        self._action(v, self.tr("&Keyboard shortcuts"), self.show_shortcuts)

        view = mb.addMenu(self.tr("&View"))
        self.refresh_action = self._action(
            view, self.tr("&Refresh"), self.refresh_all, "F5", "refresh",
            self.tr("Reread the workspace (changes made by other programs are also picked up by themselves)"))
        view.addSeparator()
        self._action(view, self.tr("Entry &columns…"), p.choose_columns)
        lang = view.addMenu(self.tr("Interface &language"))
        group = QActionGroup(self)
        for code, name in LANGUAGES.items():
            a = QAction(name, self, checkable=True)
            a.setChecked(code == (self.settings.language or "en"))
            a.triggered.connect(lambda _=False, c=code: self.set_language(c))
            group.addAction(a)
            lang.addAction(a)

        h = mb.addMenu(self.tr("&Help"))
        self._action(h, self.tr("&User guide"), lambda: open_user_guide(self), "F1", "userGuide")
        self._action(h, self.tr("Metric &glossary"), self.show_glossary)
        self._action(h, self.tr("Data &licences"), self.show_licences)
        h.addSeparator()
        self._action(h, self.tr("&About mteval-gui"), self.about)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_workspaces:
            self.recent_menu.addAction(path, lambda p=path: self.open_workspace(p))
        if not self.settings.recent_workspaces:
            a = self.recent_menu.addAction(self.tr("(none)"))
            a.setEnabled(False)

    def _update_actions(self) -> None:
        has_ws = self.ws is not None
        for a in (*self.import_actions, *self.export_actions, self.score_action, self.settings_action,
                  self.refresh_action):
            a.setEnabled(has_ws)
        self.cancel_action.setEnabled(self.scoring_worker is not None)

    # ----- workspace -----------------------------------------------------------------------
    def open_workspace(self, path: str | Path) -> bool:
        with reporting_errors(self) as report:
            ws = Workspace(path)
        if report.failed:
            return False
        if self.scoring_worker is not None:
            self.jobs.shutdown()
        if self.ws is not None:
            self.ws.close()
        self.ws = ws
        self._reference_analyser = None
        self.settings.remember_workspace(ws.path)
        self.settings.save()
        self.setWindowTitle(f"mteval-gui — {ws.path.name}")
        self.workspace_label.setText(str(ws.path))
        self.entries_page.set_frame(None)  # first: a reviewer change below must not reload the old runs
        self.entries_page.ratings.set_workspace(ws)
        ws_settings, damaged = checked_settings(ws)
        default_reviewer = ws_settings.default_reviewer
        self.show_setting_warnings(damaged)
        if default_reviewer:
            self.entries_page.ratings.set_reviewer(default_reviewer)
        for task in self._loads.values():
            task.cancel()  # their results belong to the previous workspace
        self.runs_view.set_workspace(ws)
        for page in self.pages():
            page.set_workspace(ws)
        self.refresh_runs()
        self.live.reset()
        self._update_actions()
        self.workspace_opened.emit(str(ws.path))
        return True

    def new_workspace(self) -> None:
        path, _ = file_dialogs.save_file_name(self, self.tr("New workspace"), str(Path.home() / "workspace.sqlite"),
                                              self.tr("Workspaces (*.sqlite *.db)"))
        if path:
            self.open_workspace(path)

    def choose_workspace(self) -> None:
        path, _ = file_dialogs.open_file_name(self, self.tr("Open workspace"), str(Path.home()),
                                              self.tr("Workspaces (*.sqlite *.db);;All files (*)"))
        if path:
            self.open_workspace(path)

    def open_demo(self) -> None:
        from mteval_gui.app.startup import ensure_demo_workspace

        with reporting_errors(self) as report:
            path = ensure_demo_workspace()
        if report.failed:
            return
        self.open_workspace(path)

    def _first_step(self, name: str) -> None:
        """A button of the first-steps page of the Runs tab."""
        actions = {"new": self.new_workspace, "open": self.choose_workspace, "demo": self.open_demo,
                   "import_corpus": lambda: self.import_file("corpus"), "import_run": lambda: self.import_file("run")}
        actions[name]()

    def refresh_runs(self) -> None:
        from mteval_gui.app.runs import load_run_rows

        if self.ws is None:
            self.runs_view.set_corpora([])
            self.runs_view.set_rows([])
            return
        with reporting_errors(self):
            self.runs_view.set_corpora(workspace.list_corpora(self.ws))
            self.runs_view.set_rows(load_run_rows(self.ws, self.runs_view.corpus_combo.currentData()))
        self._refresh_tabs()

    # ----- live views ----------------------------------------------------------------------
    def _live_changed(self) -> None:
        """Another process changed the workspace: reread it (at most every LIVE_REFRESH_SECONDS)."""
        if self.scoring_worker is not None:
            return  # our own scoring reports its batches; everything is reread when it ends
        wait = LIVE_REFRESH_SECONDS - (time.monotonic() - self._last_live_refresh)
        if wait > 0:
            if not self._live_timer.isActive():
                self._live_timer.start(int(wait * 1000))
            return
        self.refresh_all()

    def refresh_all(self) -> None:
        """Reread what the window shows from the workspace, in the background: the runs table,
        the open entries (values and review status) and every page."""
        if self.ws is None:
            return
        self._last_live_refresh = time.monotonic()
        self.live.reset()
        corpus = self.runs_view.corpus_combo.currentData()
        self._background_load("runs", lambda ws: (workspace.list_corpora(ws), _load_rows(ws, corpus)),
                              self._apply_run_rows)
        self._reload_frame_in_background()
        self.entries_page.ratings.reload_current()
        self.statusBar().showMessage(self.tr("Workspace reread."), 3000)

    def refresh_now(self) -> bool:
        """Reread at once (before an export) if another process changed the workspace; True if it did."""
        if self.ws is None or not self.live.pending():
            return False
        self.live.reset()
        with reporting_errors(self, busy=True):
            self.refresh_runs()
            self._reload_frame()
        return True

    # ----- entries -------------------------------------------------------------------------
    def open_entries(self, run_ids: list[str]) -> None:
        """Show the entries of ``run_ids`` side by side. Large corpora are read in a worker thread
        (the window stays usable; the table appears when they are loaded)."""
        if self.ws is None or not run_ids:
            return
        from mteval_gui.app.entries import load_entry_frame

        reviewer = self.entries_page.ratings.reviewer_id
        rows = {r.run_id: r.entries for r in self.runs_view.model.rows}
        if max(rows.get(r, 0) for r in run_ids) >= BACKGROUND_ROWS:
            self.statusBar().showMessage(self.tr("Loading the entries…"))
            self._background_load("open", lambda ws: load_entry_frame(ws, run_ids, reviewer), self._show_frame)
            return
        with reporting_errors(self, busy=True) as report:
            frame = load_entry_frame(self.ws, run_ids, reviewer)
        if not report.failed:
            self._show_frame(frame)

    def _show_frame(self, frame: Any) -> None:
        self.statusBar().clearMessage()
        self.entries_page.set_frame(frame)
        self.tabs.setCurrentWidget(self.entries_page)
        self.entries_page.table.setFocus()
        self.frame_shown.emit()

    def _load_review(self, corpus_id: str, entry_id: str, runs: list[tuple[str, str]]):
        from mteval_gui.app.entry_review import load_review_data

        if self.ws is None:
            return None
        return load_review_data(self.ws, corpus_id, entry_id, runs)

    def _analyse_reference(self, text: str):
        from mteval_gui.app.entry_review import ReferenceAnalyser
        from mteval_gui.app.settings import analyzer_folder

        frame = self.entries_page.model.frame
        if self.ws is None or frame is None:
            return None
        lang = workspace.target_language(self.ws, frame.corpus_id)
        if self._reference_analyser is None:
            self._reference_analyser = ReferenceAnalyser(analyzer_folder(self.ws))
        with reporting_errors(self) as report:
            return self._reference_analyser.analyse(lang, text)
        if report.failed:
            return None

    def _reload_frame(self) -> None:
        frame = self.entries_page.model.frame
        if frame is None or self.ws is None:
            return
        from mteval_gui.app.entries import load_entry_frame

        with reporting_errors(self) as report:
            new = load_entry_frame(self.ws, [r.run_id for r in frame.runs], self.entries_page.ratings.reviewer_id)
        if report.failed:
            return
        self.entries_page.refresh_values(new)

    def _reviewer_changed(self, *_: object) -> None:
        self._reload_frame()

    def toggle_random_order(self, checked: bool) -> None:
        from mteval_gui.app.review import review_queue

        page = self.entries_page
        frame = page.model.frame
        if not checked or self.ws is None or frame is None:
            page.model.set_custom_order(None)
            self.random_action.setChecked(False)
            return
        queue = review_queue(self.ws, [page.focus_run_id() or frame.runs[0].run_id],
                                    page.ratings.reviewer_id, randomise=True)
        page.model.set_custom_order([e for _, e in queue])
        page.select_view_row(0)

    def toggle_blind(self, checked: bool) -> None:
        self.blind = bool(checked)
        self.entries_page.set_blind(self.blind)

    # ----- scoring -------------------------------------------------------------------------
    def score_runs(self, run_ids: list[str]) -> None:
        if self.ws is None or not run_ids:
            return
        if self.scoring_worker is not None:
            self.statusBar().showMessage(self.tr("Scoring is already running."), 4000)
            return
        from mteval_gui.app.scoring_config import plan_scoring

        # the rule of `mteval score`: unscored, interrupted and stale runs are scored (a scored run
        # with its stored configuration), a run that is up to date only when the user says so
        try:
            plan = plan_scoring(self.ws, run_ids)
            current = plan.skipped
            if current and self._confirm_rescore([p.message for p in current]):
                plan = plan_scoring(self.ws, run_ids, replace=True)
        except MtevalError as exc:
            show_error(self, exc)
            return
        if not plan.to_score:
            self.statusBar().showMessage(self.tr("Nothing to score: the selected runs are up to date."), 8000)
            return
        notes = [p.message for p in plan.to_score if p.message]
        if notes:
            self.statusBar().showMessage("  ·  ".join(notes), 15000)
        run_ids = [p.run_id for p in plan.to_score]
        from mteval_gui.app.scoring import SCORE_RUNS_TARGET  # the scoring modules load when first needed

        job = ProcessJob(SCORE_RUNS_TARGET, plan.job_kwargs(self.ws.path))
        worker = Worker(job, name="scoring")
        worker.progress.connect(self._scoring_progress)
        worker.partial.connect(self._scoring_partial)
        worker.error.connect(self._scoring_error)  # a bound slot: runs in the GUI thread
        worker.finished.connect(self._scoring_finished)
        self.scoring_worker = worker
        self._scoring_runs = list(run_ids)
        self._scoring_seen = {}
        self._scoring_done = 0
        self.progress.start(self.tr("Scoring {0} run(s)").format(len(run_ids)))
        self.jobs.start(worker)
        self._update_actions()

    def rescore_question(self, n: int) -> str:
        """The question asked before ``n`` up-to-date runs are scored again."""
        if n == 1:
            return self.tr("%n of the selected runs is up to date: its inputs have not changed since it was scored. "
                           "Score it again with its stored configuration?", "", n)
        return self.tr("%n of the selected runs are up to date: their inputs have not changed since they were "
                       "scored. Score them again with their stored configuration?", "", n)

    def _confirm_rescore(self, messages: list[str]) -> bool:
        """Ask whether runs that are up to date are scored again (with their stored configuration)."""
        from PySide6.QtWidgets import QMessageBox

        text = self.rescore_question(len(messages))
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Score again?"), text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setDetailedText("\n".join(messages))
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _scoring_error(self, exc: BaseException) -> None:
        show_error(self, exc)

    def cancel_scoring(self) -> None:
        if self.scoring_worker is not None:
            self.scoring_worker.cancel()

    def _scoring_progress(self, p: Any) -> None:
        if p.count <= 1:
            title = self.tr("Run {0}/{1} {2}").format(p.index + 1, p.count, p.run_id)
            self.progress.update_progress(title, p.done, p.total, p.stage, p.message)
            return
        # several runs are scored side by side: one bar for all of them, the entries scored so
        # far against the entries of the runs (a run not started yet counted at the mean size)
        if p.stage == "scoring" and p.total > 0:
            self._scoring_seen[p.run_id] = (p.done, p.total)
        seen = self._scoring_seen
        done = sum(d for d, _ in seen.values())
        total = sum(t for _, t in seen.values())
        if seen:
            total += round(total / len(seen)) * max(0, p.count - len(seen))
        title = self.tr("Scoring {0} runs").format(p.count)
        finished = self.tr("{0} of {1} runs finished").format(self._scoring_done, p.count)
        # until a run scores its first batch, what the runs are doing (loading analyzers, models)
        stage = self.tr("side by side") if seen else p.stage  # then a steady text: the ETA is keyed by it
        self.progress.update_progress(title, done, total, stage, finished)

    def _scoring_partial(self, info: dict) -> None:
        run_id = info.get("run_id")
        if not run_id:
            return
        if "error" in info or info.get("finished"):  # a failed run is reported again when the job ends
            self._scoring_done += 1
            if run_id in self._scoring_seen:
                total = self._scoring_seen[run_id][1]
                self._scoring_seen[run_id] = (total, total)
        if self.ws is None or "error" in info:
            return
        frame = self.entries_page.model.frame
        shows_run = frame is not None and run_id in {r.run_id for r in frame.runs}
        if info.get("finished"):
            self._background_load("run-row", lambda ws, rid=run_id: _load_one_row(ws, rid), self._apply_run_row)
            if shows_run:
                self._reload_frame_in_background(details=True)
            return
        if shows_run and time.monotonic() - self._last_entry_refresh > self._refresh_interval:
            self._last_entry_refresh = time.monotonic()
            self._reload_frame_in_background(details=False)

    def _reload_frame_in_background(self, details: bool = True) -> None:
        """New values for the open entries table, read in a worker thread (only the stored
        results: entries and outputs are shared with the current table)."""
        frame = self.entries_page.model.frame
        if frame is None:
            return
        from mteval_gui.app.entries import refresh_entry_frame

        run_ids = [r.run_id for r in frame.runs]
        reviewer = self.entries_page.ratings.reviewer_id
        self._background_load("frame", lambda ws: (run_ids, refresh_entry_frame(ws, frame, reviewer, details=details)),
                              self._apply_frame)

    def _apply_frame(self, result: Any) -> None:
        run_ids, frame = result
        current = self.entries_page.model.frame
        if current is not None and [r.run_id for r in current.runs] == run_ids:
            self.entries_page.refresh_values(frame)

    def _apply_run_row(self, row: Any) -> None:
        if row is not None:
            self.runs_view.model.update_row(row)

    def _apply_run_rows(self, result: Any) -> None:
        corpora, rows = result
        self.runs_view.set_corpora(corpora)
        self.runs_view.set_rows(rows)
        self._mark_tabs_dirty()

    def _background_load(self, name: str, fn, apply) -> None:
        """Run ``fn(ws)`` in a worker thread (its own SQLite connection) and ``apply`` the result in
        the GUI thread, unless a newer load of the same ``name`` was started meanwhile (or another
        workspace was opened)."""
        if self.ws is None:
            return
        ws = self.ws
        task = self._loads.get(name)
        if task is None:
            task = self._loads[name] = BackgroundTask(self, f"load-{name}")
        task.start(lambda ctx: fn(ws), on_done=apply, workspace=ws)

    def load_running(self, name: str) -> bool:
        """True while the background load ``name`` (``runs``, ``frame``, ``open``, …) is under way."""
        task = self._loads.get(name)
        return task is not None and task.running

    def _scoring_finished(self, outcome: JobOutcome) -> None:
        self.scoring_worker = None
        self.progress.finish()
        messages = {"done": self.tr("Scoring finished."),
                    "cancelled": self.tr("Scoring cancelled; stored batches are kept."),
                    "failed": self.tr("Scoring failed.")}
        self.statusBar().showMessage(messages.get(outcome.status, ""), 8000)
        corpus = self.runs_view.corpus_combo.currentData()
        self._background_load("runs", lambda ws: (workspace.list_corpora(ws), _load_rows(ws, corpus)),
                              self._apply_run_rows)
        self._reload_frame_in_background()
        self._update_actions()
        self.scoring_finished.emit(outcome)

    def _mark_tabs_dirty(self) -> None:
        """The workspace changed: every page rereads it (now if shown, else when shown)."""
        for page in self.pages():
            page.mark_stale()

    def pages(self) -> list[Page]:
        """The tabs that follow the page contract (:mod:`mteval_gui.qt.page`)."""
        return [w for w in self.extra_tabs.values() if isinstance(w, Page)]

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

    def manage_reviewers(self) -> None:
        if self.ws is None:
            return
        from mteval_gui.qt.reviewers_dialog import ReviewersDialog

        dlg = ReviewersDialog(self.ws, self)
        dlg.exec()
        self.entries_page.ratings.reload_reviewers(dlg.last_added)
        validation = self.extra_tabs.get("validation")
        if isinstance(validation, Page):
            validation.mark_stale()  # the audits list the reviewers too

    def open_settings(self) -> None:
        if self.ws is None:
            return
        from mteval_gui.qt.settings_dialog import SettingsDialog

        SettingsDialog(self.ws, self).exec()

    def compare_runs(self, run_ids: list[str]) -> None:
        tab = self.extra_tabs.get("compare")
        if tab is None or self.ws is None or len(run_ids) < 2:
            return
        tab.set_runs(run_ids)
        self.tabs.setCurrentWidget(tab)

    def add_tab(self, key: str, widget: QWidget, title: str) -> None:
        self.extra_tabs[key] = widget
        self.tabs.addTab(widget, title)
        if key == "compare":
            widget.show_entries.connect(self.open_entries)
        if key == "validation":
            widget.reviewer_provider = lambda: self.entries_page.ratings.reviewer_id
            widget.signed_off.connect(self._run_signed_off)
        if self.ws is not None and isinstance(widget, Page):
            widget.set_workspace(self.ws)

    def _run_signed_off(self, run_id: str) -> None:
        from mteval_gui.app.runs import load_run_row

        if self.ws is not None:
            self._apply_run_row(load_run_row(self.ws, run_id))

    def _refresh_tabs(self) -> None:
        self._mark_tabs_dirty()

    def show_shortcuts(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        text = self.tr(
            "<table>"
            "<tr><td><b>1–5</b></td><td>rate the highlighted aspect and move on (adequacy, then fluency): "
            "<b>3 4</b> and <b>3 Tab 4</b> both record adequacy 3, fluency 4</td></tr>"
            "<tr><td><b>Tab / Shift+Tab</b></td><td>next / previous aspect, without rating</td></tr>"
            "<tr><td><b>F</b></td><td>flag or unflag the entry</td></tr>"
            "<tr><td><b>Ctrl+Z / Ctrl+Shift+Z</b></td><td>undo / redo your last judgment</td></tr>"
            "<tr><td><b>Return</b></td><td>next unreviewed entry</td></tr>"
            "<tr><td><b>Shift+Return</b></td><td>next flagged entry</td></tr>"
            "<tr><td><b>Alt+Down / Alt+Up</b></td><td>next / previous entry</td></tr>"
            "<tr><td><b>Ctrl+B</b></td><td>blind mode</td></tr>"
            "<tr><td><b>Ctrl+R / Esc</b></td><td>score selected runs / cancel scoring</td></tr>"
            "<tr><td><b>F5</b></td><td>reread the workspace (changes made by other programs appear by "
            "themselves)</td></tr>"
            "</table>")
        text += self.tr(
            "<p><b>Validation ▸ linter audit:</b> <b>Y / N / D</b> same meaning yes / no / depends; "
            "<b>1–4</b> both natural: yes / A better / B better / neither.<br/>"
            "<b>Validation ▸ FST audit:</b> <b>Y / N / U</b> valid word yes / no / unsure; <b>1–6</b> kind "
            "(established, loanword, name, dialectal, neologism, other).<br/>"
            "In both audits: <b>Return</b> next unanswered item, <b>Ctrl+Z / Ctrl+Shift+Z</b> undo / redo.</p>")
        text += self.tr(
            "<p><b>Error spans</b> (Entries): <b>S</b> puts the cursor in the output, <b>Shift+arrows</b> (or the "
            "mouse) select; <b>M / Shift+M</b> mark the selection minor / major (nothing selected: the word under "
            "the cursor; inside a marked span: change its severity); <b>C</b> category; <b>Delete</b> remove the "
            "span in hand; <b>0</b> no errors found; <b>Esc</b> back to the entries. Type the correction under the "
            "spans (Enter saves). Each change is saved at once and undone by Ctrl+Z.</p>")
        QMessageBox.information(self, self.tr("Keyboard shortcuts"), text)

    def show_glossary(self) -> None:
        from mteval_gui.qt.help_dialogs import MetricGlossaryDialog

        with reporting_errors(self):
            MetricGlossaryDialog(self).exec()

    def show_licences(self) -> None:
        from mteval_gui.qt.help_dialogs import DataLicencesDialog

        DataLicencesDialog(self).exec()

    def about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        from mteval_gui import __version__

        text = self.tr(
            "<b>mteval-gui {0}</b><br>A workbench for evaluating machine translation and language models "
            "for low-resource languages: LYSS metrics, HFST morphology, speaker judgments, ÈwéBench.")
        QMessageBox.about(self, self.tr("About mteval-gui"), text.format(__version__))

    def set_language(self, code: str) -> None:
        self.settings.language = code
        self.settings.save()
        self.statusBar().showMessage(self.tr("The interface language changes at the next start."), 8000)

    # ----- exports (see exports.py) --------------------------------------------------------
    def export_run_card(self) -> None:
        from mteval_gui.qt import exports

        exports.export_run_card(self)

    def export_entries_csv(self) -> None:
        from mteval_gui.qt import exports

        exports.export_entries_csv(self)

    def export_judgments(self, fmt: str) -> None:
        from mteval_gui.qt import exports

        exports.export_judgments(self, fmt)

    def export_chart(self) -> None:
        from mteval_gui.qt import exports

        exports.export_chart(self)

    def export_review_pack(self) -> None:
        from mteval_gui.qt import review_pack_dialog

        review_pack_dialog.export_pack(self)

    def import_judgments(self) -> None:
        from mteval_gui.qt import review_pack_dialog

        review_pack_dialog.import_judgments(self)

    # ----- window --------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        if self.settings.geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.geometry.encode()))
        if self.settings.window_state:
            self.restoreState(QByteArray.fromBase64(self.settings.window_state.encode()))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self.jobs.shutdown()
        for task in self._loads.values():
            task.shutdown()
        for page in self.pages():
            page.shutdown()
        self.settings.geometry = bytes(self.saveGeometry().toBase64()).decode()
        self.settings.window_state = bytes(self.saveState().toBase64()).decode()
        self.settings.save()
        self.entries_page.set_frame(None)
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        super().closeEvent(event)


def _load_rows(ws: Workspace, corpus_id: str | None):
    from mteval_gui.app.runs import load_run_rows

    return load_run_rows(ws, corpus_id)


def _load_one_row(ws: Workspace, run_id: str):
    from mteval_gui.app.runs import load_run_row

    return load_run_row(ws, run_id)


def quit_after(window: MainWindow, ms: int) -> None:
    """Close the window after ``ms`` milliseconds (smoke tests and screenshots)."""
    QTimer.singleShot(ms, window.close)
