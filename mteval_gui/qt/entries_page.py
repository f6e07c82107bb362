"""Entries page: filter bar, the virtualised entries table, the review pane and ratings.

The table never proxies: filters and sorting are applied inside
:class:`~mteval_gui.qt.entries_model.EntriesModel`. Keyboard navigation is the Review menu's
(:mod:`mteval_gui.qt.actions` binds Alt+Down / Alt+Up, Return and Shift+Return to the table); the
ratings keys (1–5, Tab, Shift+Tab, F, Ctrl+Z) and the error-span keys (S, M, Shift+M, C, Delete, 0)
work while the table has the focus.
Each run's review status column sits beside its output, its title counting the entries the
current reviewer has rated on both aspects ("N of M rated").

The page owns what it shows (the :mod:`~mteval_gui.qt.page` contract): it opens runs
(:meth:`EntriesPage.open_runs`; corpora of :data:`BACKGROUND_ROWS` entries or more are read in a
worker thread), rereads their values when the workspace changed (:meth:`~EntriesPage.refresh`, in
the background; while a run is being scored at most every :data:`ENTRY_REFRESH_SECONDS`), and keeps
the randomised order, blind mode and the analysis of the reference (its analyzers loaded once per
workspace).

When the workspace's settings ask for attention checks or repeated items, the focused run's
checks for the current reviewer (:func:`mteval_gui.app.desktop_checks.desktop_queue`, the same
every time the runs are opened) are rows of the table among the entries in blind mode, rated like
any entry; their ratings are the checks' answers. Only in blind mode: the metric values, verdicts,
FST analyses and the reference diff shown otherwise are the real output's, and would give a
known-bad output away.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.desktop_checks import CheckSlot, DesktopQueue
from mteval_gui.app.entry_frame import EntryFilter, EntryFrame, distinct
from mteval_gui.app.entry_review import FstWord, OutputView, ReferenceAnalyser, ReviewData
from mteval_gui.app.generator import CorrectionHelper, WordSuggestions
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.entries_model import EntriesModel
from mteval_gui.qt.labels import metric_label
from mteval_gui.qt.page import Page
from mteval_gui.qt.ratings import RatingsPanel
from mteval_gui.qt.review_pane import ReviewPane

BACKGROUND_ROWS = 20_000  # corpora at least this large are loaded in a worker thread
SORTS_READY_ROWS = 50_000  # tables at least this large sort by each metric in the background once shown
ENTRY_REFRESH_SECONDS = 2.0  # while a shown run is scored, its values are reread at most this often

COLUMN_WIDTHS = {"position": 44, "id": 80, "source": 190, "reference": 150, "difficulty": 64, "predicted": 170,
                 "metric": 72, "lint": 96, "semantic": 96, "fst_rejected": 84, "review": 84}


class ColumnChooser(QDialog):
    """Checkable list of every column of the entries table."""

    def __init__(self, model: EntriesModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Columns"))
        lay = QVBoxLayout(self)
        self.list = QListWidget()
        visible = {c.key for c in model.visible_columns()}
        for c in model.all_columns():
            item = QListWidgetItem(model.column_title(c))
            item.setData(Qt.ItemDataRole.UserRole, c.key)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if c.key in visible else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def keys(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]


class EntriesPage(Page):
    current_entry_changed = Signal(str)  # entry id ("" when none)
    frame_shown = Signal()  # the table shows newly opened runs

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("entriesPage")
        self.ws: Workspace | None = None
        self._building = False
        self._quiet = False  # set while a filter moves the current row: the review pane waits
        self._analyser: ReferenceAnalyser | None = None
        self._generator: CorrectionHelper | None = None
        self._last_partial = 0.0
        self.check_queue: DesktopQueue | None = None  # the checks the table shows among the entries
        outer = self.body_layout()
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(self._scope_bar())
        outer.addLayout(self._filter_bar())

        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.model = EntriesModel(parent=self)
        self.model.order_changed.connect(self._update_count)
        self.table = QTableView()
        self.table.setObjectName("entriesTable")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        vh = self.table.verticalHeader()
        vh.setVisible(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        ll.addWidget(self.table)
        self.count_label = QLabel()
        self.count_label.setObjectName("entriesCount")
        ll.addWidget(self.count_label)
        split.addWidget(left)

        right = QSplitter(Qt.Orientation.Vertical)
        self.review = ReviewPane()
        right.addWidget(self.review)
        self.ratings = RatingsPanel()
        right.addWidget(self.ratings)
        right.setStretchFactor(0, 4)
        right.setStretchFactor(1, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([900, 600])
        right.setSizes([560, 200])
        self.splitter = split
        outer.addWidget(split, 1)
        self.ratings.install_shortcuts(self)
        self.ratings.judgment_changed.connect(self._judgment_changed)
        self.ratings.spans_left.connect(lambda: self.table.setFocus(Qt.FocusReason.ShortcutFocusReason))
        self.ratings.field_left.connect(lambda: self.table.setFocus(Qt.FocusReason.ShortcutFocusReason))
        self.review.promote_requested.connect(self.promote_variants)
        self.review.reference_analyser = self._analyse_reference
        self.review.correction_suggester = self._suggest_corrections
        self.review.correction_chosen.connect(self._use_correction)
        self.review.document_rating_requested.connect(self.rate_document)
        self.review.install_shortcuts(self)
        self.ratings.reviewer_changed.connect(self._reviewer_changed)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(250)
        self._text_timer.timeout.connect(self.apply_filter)
        self._update_count()

    # ----- filter bar ----------------------------------------------------------------------
    def _scope_bar(self) -> QWidget:
        self._scope: frozenset[str] | None = None
        self.scope_bar = QWidget()
        self.scope_bar.setObjectName("entryScope")
        row = QHBoxLayout(self.scope_bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.scope_label = QLabel()
        self.scope_label.setObjectName("entryScopeLabel")
        row.addWidget(self.scope_label, 1)
        show_all = QPushButton(self.tr("Show all entries"))
        show_all.clicked.connect(lambda: self.set_scope(None))
        row.addWidget(show_all)
        self.scope_bar.hide()
        return self.scope_bar

    def _filter_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setObjectName("entrySearch")
        self.search.setPlaceholderText(self.tr("Search source, reference, outputs…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _: self._text_timer.start())
        bar.addWidget(self.search, 2)

        self.run_combo = QComboBox()
        self.run_combo.setObjectName("focusRunCombo")
        self.run_combo.setToolTip(self.tr("Run whose verdicts, metric values and review status the filters use"))
        self.run_combo.currentIndexChanged.connect(self._focus_run_changed)
        bar.addWidget(self.run_combo)

        self.verdict_button = QToolButton()
        self.verdict_button.setText(self.tr("Verdict"))
        self.verdict_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.verdict_menu = QMenu(self.verdict_button)
        self.verdict_button.setMenu(self.verdict_menu)
        bar.addWidget(self.verdict_button)

        self.difficulty_button = QToolButton()
        self.difficulty_button.setText(self.tr("Difficulty"))
        self.difficulty_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.difficulty_menu = QMenu(self.difficulty_button)
        self.difficulty_button.setMenu(self.difficulty_menu)
        bar.addWidget(self.difficulty_button)

        self.review_combo = QComboBox()
        self.review_combo.setObjectName("reviewFilter")
        for key, text in (("all", self.tr("All entries")), ("unreviewed", self.tr("Unreviewed")),
                          ("reviewed", self.tr("Reviewed")), ("flagged", self.tr("Flagged"))):
            self.review_combo.addItem(text, key)
        self.review_combo.currentIndexChanged.connect(self.apply_filter)
        bar.addWidget(self.review_combo)

        self.metric_combo = QComboBox()
        self.metric_combo.setObjectName("metricFilter")
        self.metric_combo.setToolTip(self.tr("Keep entries whose metric value lies in the range"))
        self.metric_combo.currentIndexChanged.connect(self.apply_filter)
        bar.addWidget(self.metric_combo)
        self.metric_min = QDoubleSpinBox()
        self.metric_max = QDoubleSpinBox()
        for spin, value in ((self.metric_min, 0.0), (self.metric_max, 100.0)):
            spin.setLocale(QLocale.c())  # a decimal point, as every table and chart of the window writes numbers
            spin.setRange(-1e9, 1e9)
            spin.setDecimals(3)
            spin.setEnabled(False)
            spin.setMaximumWidth(110)
            spin.setValue(value)
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(self.apply_filter)
            bar.addWidget(spin)

        self.fst_box = QCheckBox(self.tr("FST rejections"))
        self.fst_box.setToolTip(self.tr("Only entries with at least one word the analyzer rejects"))
        self.fst_box.toggled.connect(self.apply_filter)
        bar.addWidget(self.fst_box)

        columns = QToolButton()
        columns.setText(self.tr("Columns…"))
        columns.clicked.connect(self.choose_columns)
        bar.addWidget(columns)
        return bar

    def _fill_filter_choices(self, frame: EntryFrame) -> None:
        self._building = True
        self.run_combo.clear()
        for r in frame.runs:
            self.run_combo.addItem(r.label, r.run_id)
        self.run_combo.setVisible(len(frame.runs) > 1)
        self._fill_focus_dependent()
        self.difficulty_menu.clear()
        known = ~np.isnan(frame.difficulty)
        levels = [int(d) for d in np.unique(frame.difficulty[known])]
        for level in levels:
            a = QAction(str(level), self.difficulty_menu)
            a.setCheckable(True)
            a.setData(level)
            a.toggled.connect(self.apply_filter)
            self.difficulty_menu.addAction(a)
        if not known.all():
            a = QAction(self.tr("none"), self.difficulty_menu)
            a.setCheckable(True)
            a.setData(0)
            a.toggled.connect(self.apply_filter)
            self.difficulty_menu.addAction(a)
        self.difficulty_button.setEnabled(bool(levels))
        self._building = False

    def _fill_focus_dependent(self) -> None:
        frame = self.model.frame
        run = frame.run(self.run_combo.currentData()) if frame and self.run_combo.currentData() else None
        self.verdict_menu.clear()
        verdicts = distinct(run.lint_verdict) if run is not None else []
        for v in verdicts:
            a = QAction(str(v), self.verdict_menu)
            a.setCheckable(True)
            a.setData(v)
            a.toggled.connect(self.apply_filter)
            self.verdict_menu.addAction(a)
        self.verdict_button.setEnabled(bool(verdicts))
        current = self.metric_combo.currentData()
        self.metric_combo.clear()
        self.metric_combo.addItem(self.tr("Any metric value"), None)
        for mid in (run.metrics if run is not None else {}):
            assert run is not None
            self.metric_combo.addItem(metric_label(run.descriptors.get(mid) or mid), mid)
        idx = self.metric_combo.findData(current)
        self.metric_combo.setCurrentIndex(max(idx, 0))
        self.fst_box.setEnabled(run is not None and run.fst_rejected is not None)

    def _focus_run_changed(self, *_: object) -> None:
        if self._building:
            return
        self._building = True
        self._fill_focus_dependent()
        self._building = False
        self._apply_checks()
        self.apply_filter()
        self._row_changed()

    def current_filter(self) -> EntryFilter:
        verdicts = frozenset(a.data() for a in self.verdict_menu.actions() if a.isChecked())
        levels = frozenset(int(a.data()) for a in self.difficulty_menu.actions() if a.isChecked())
        metric = self.metric_combo.currentData()
        ranges: dict[str, tuple[float | None, float | None]] = (
            {metric: (self.metric_min.value(), self.metric_max.value())} if metric else {})
        return EntryFilter(
            run_id=self.run_combo.currentData(),
            verdicts=verdicts or None,
            metric_ranges=ranges,
            difficulties=levels or None,
            fst_rejections_only=self.fst_box.isEnabled() and self.fst_box.isChecked(),
            review=self.review_combo.currentData() or "all",
            text=self.search.text(),
            entry_ids=self._scope,
        )

    def set_scope(self, entry_ids: list[str] | None, label: str = "") -> None:
        """Show only ``entry_ids`` (a reviewer's share of a campaign), said by ``label`` above the table
        with a button that shows every entry again; None: every entry."""
        self._scope = frozenset(entry_ids) if entry_ids is not None else None
        self.scope_label.setText(label)
        self.scope_bar.setVisible(self._scope is not None)
        self.apply_filter()

    def apply_filter(self, *_: object) -> None:
        has_metric = self.metric_combo.currentData() is not None
        self.metric_min.setEnabled(has_metric)
        self.metric_max.setEnabled(has_metric)
        if self._building or self.model.frame is None:
            return
        keep = self.current_entry_id()
        # the model's reset and the reselection each move the current row: the review pane is
        # loaded once afterwards, and not at all when the same entry stays selected
        self._quiet = True
        try:
            self.model.set_filter(self.current_filter())
            if not (keep and self.select_entry(keep)) and self.model.rowCount():
                self.select_view_row(0)
        finally:
            self._quiet = False
        if keep is None or self.current_entry_id() != keep:
            self._row_changed()

    # ----- data ----------------------------------------------------------------------------
    def set_frame(self, frame: EntryFrame | None, keep_entry: bool = False) -> None:
        keep = self.current_entry_id() if keep_entry else None
        keep_check = self.model.check_of(self.current_view_row()) if keep_entry else None
        if frame is None:
            self.model.clear()
            self.review.show_data(None)
            self.ratings.set_item(None, None)
            self._update_count()
            return
        previous = self.model.frame
        same_layout = (previous is not None and keep_entry
                       and [r.run_id for r in previous.runs] == [r.run_id for r in frame.runs])
        visible = [c.key for c in self.model.visible_columns()] if same_layout else None
        # the first rows' frame announced the columns; keep the user's choice if they are the same
        if same_layout and previous is not None and not previous.complete \
                and [c.key for c in self.model.all_columns()] != [c.key for c in self.model.columns_of(frame)]:
            visible = None
        flt = self.model.filter()
        if previous is not None:
            frame.share_search(previous)  # the same texts (the first rows' frame, then the complete one)
        frame.search_index()  # large corpora: the search text and its index are built in the background
        if frame.complete and len(frame) >= SORTS_READY_ROWS:  # and the order of each metric's values
            frame.prepare_sorts([v for r in frame.runs for v in r.metrics.values()])
        self.model.set_frame(frame, visible)
        if same_layout:
            self.model.set_filter(flt)
            if previous is not None and not previous.complete:
                self._fill_filter_choices(frame)
                if visible is None:
                    self._size_columns()
        else:
            self._fill_filter_choices(frame)
            self._size_columns()
        queue = self.check_queue
        self._apply_checks()
        if keep_check is not None and self.check_queue is queue \
                and (row := self.model.view_row_of_check(keep_check)) is not None:
            self.select_view_row(row)
        elif keep and previous is not None and not previous.complete:
            # the first rows' frame completed: the review pane reads the workspace, not the frame, so
            # it is reloaded only if the entry changed
            self._quiet = True
            try:
                self._restore(keep)
            finally:
                self._quiet = False
            if self.current_entry_id() != keep:
                self._row_changed()
        elif keep:
            self._restore(keep)
        elif self.model.rowCount():
            self.select_view_row(0)
        self._update_rated()
        self._update_count()

    def _apply_checks(self) -> None:
        """Show the focused run's attention checks and repeated items for the current reviewer among the
        entries, as many as the workspace's settings ask, in blind mode (none without a reviewer, or
        read-only)."""
        from mteval_gui.app.desktop_checks import check_statuses, desktop_queue, recorded_queue
        from mteval_gui.app.settings import load_settings

        frame, ws, reviewer = self.model.frame, self.ws, self.ratings.reviewer_id
        run_id = self.focus_run_id() or (frame.runs[0].run_id if frame is not None and frame.runs else None)
        queue = None
        if frame is not None and ws is not None and reviewer and run_id and not ws.read_only and self.model.blind:
            settings = load_settings(ws)
            checks, repeats = settings.attention_checks, settings.repeated_items
            recorded = recorded_queue(ws, run_id, reviewer, checks, repeats) if checks or repeats else None
            if recorded is None and (checks or repeats) and len(frame) >= BACKGROUND_ROWS:
                # a large run's first schedule reads all its entries: made in a worker thread, then shown
                if self.model.check_run() is not None:
                    self.check_queue = None
                    self.model.set_checks(None, [])
                task = self.task("checks", QCoreApplication.translate("MainWindow", "Placing the attention checks…"))
                if not task.running:  # once done, the table asks again (for whoever rates then)
                    task.start(lambda ctx: desktop_queue(ws, run_id, reviewer, checks, repeats),
                               on_done=lambda _queue: self._apply_checks(), workspace=ws)
                return
            if recorded is not None:
                queue = recorded  # read once: the schedule made the first time
            else:
                with reporting_errors(self):
                    queue = desktop_queue(ws, run_id, reviewer, checks, repeats)
        if queue is None and self.model.check_run() is None:
            self.check_queue = None
            return  # no checks before nor now: the table stays as it is
        if queue == self.check_queue and queue is not None and self.model.check_run() == queue.run_id:
            self._refresh_checks()  # the same queue: only the statuses may have changed
            return
        self.check_queue = queue
        if queue is None or ws is None:
            self.model.set_checks(None, [])
            return
        statuses = check_statuses(ws, queue)
        self.model.set_checks(queue.run_id, [(c.entry_id, c.after, c.output) for c in queue.slots], statuses,
                              _rated(statuses))

    def _refresh_checks(self) -> None:
        """The checks' review statuses after a rating (or an undo) of the queue's run."""
        from mteval_gui.app.desktop_checks import check_statuses

        if self.check_queue is not None and self.ws is not None:
            statuses = check_statuses(self.ws, self.check_queue)
            self.model.set_check_statuses(statuses, _rated(statuses))

    def current_check(self) -> tuple[DesktopQueue, CheckSlot] | None:
        """The queue's check the current row shows (None: a real entry)."""
        k = self.model.check_of(self.current_view_row())
        if k is None or self.check_queue is None or self.check_queue.run_id != self.focus_run_id():
            return None
        return self.check_queue, self.check_queue.slots[k]

    def _update_rated(self) -> None:
        """The "N of M rated" of each run's review column, for the current reviewer."""
        from mteval_gui.app.entries import rated_entries

        f, ws, reviewer = self.model.frame, self.ratings.ws, self.ratings.reviewer_id
        if f is None or ws is None or not reviewer:
            self.model.set_rated({})
            return
        self.model.set_rated({r.run_id: rated_entries(ws, r.run_id, reviewer) for r in f.runs})

    def refresh_values(self, frame: EntryFrame) -> None:
        """New values for the same runs (partial results while scoring): keep filter, sort and position."""
        self.set_frame(frame, keep_entry=True)

    def _size_columns(self) -> None:
        fm = self.table.horizontalHeader().fontMetrics()
        several = self.model.frame is not None and len(self.model.frame.runs) > 1
        for i, c in enumerate(self.model.visible_columns()):
            width = COLUMN_WIDTHS.get(c.field, 100)
            if not several:  # one run: room for the whole title; several: titles are elided (tooltip)
                width = max(width, fm.horizontalAdvance(str(self.model.headerData(i, Qt.Orientation.Horizontal))) + 24)
            self.table.setColumnWidth(i, width)

    def choose_columns(self) -> None:
        if self.model.frame is None:
            return
        dlg = ColumnChooser(self.model, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.model.set_visible_columns(dlg.keys())
            self._size_columns()

    def set_blind(self, blind: bool) -> None:
        """Blind mode on or off; the queue's checks are shown in blind mode only (the current entry stays)."""
        keep = self.current_entry_id()
        self.model.set_blind(blind)
        self.review.set_blind(blind)
        self._quiet = True
        try:
            self._apply_checks()
            if not (keep and self.select_entry(keep)) and self.model.rowCount():
                self.select_view_row(0)
        finally:
            self._quiet = False
        self._row_changed()
        self._update_rated()
        self._update_count()

    def _update_count(self) -> None:
        f = self.model.frame
        if f is None:
            self.count_label.setText(self.tr("Open one or more runs from the Runs tab."))
        else:  # the queue's checks count as rows like the entries
            self.count_label.setText(self.tr("{0} of {1} entries").format(self.model.rowCount(),
                                                                         self.model.total_rows()))

    # ----- current entry -------------------------------------------------------------------
    def current_view_row(self) -> int:
        return self.table.currentIndex().row() if self.table.currentIndex().isValid() else -1

    def current_entry_id(self) -> str | None:
        row = self.current_view_row()
        return self.model.entry_id(row) if 0 <= row < self.model.rowCount() else None

    def focus_run_id(self) -> str | None:
        return self.run_combo.currentData()

    def select_view_row(self, row: int) -> None:
        if not 0 <= row < self.model.rowCount():
            return
        idx = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)

    def select_entry(self, entry_id: str) -> bool:
        f = self.model.frame
        fr = f.row_of(entry_id) if f is not None else None
        vr = self.model.view_row_of(fr) if fr is not None else None
        if vr is None:
            return False
        self.select_view_row(vr)
        return True

    def _restore(self, entry_id: str | None) -> None:
        if entry_id and self.select_entry(entry_id):
            return
        if self.model.rowCount():
            self.select_view_row(0)
        else:
            self._row_changed()

    def _row_changed(self, *_: object) -> None:
        if self._quiet:
            return
        entry_id = self.current_entry_id()
        f = self.model.frame
        if entry_id is None or f is None:
            self.review.show_data(None)
            self.ratings.set_item(None, None)
            self.current_entry_changed.emit("")
            return
        check = self.current_check()
        self.review.preferred_run = self.focus_run_id()
        self.review.show_data(self._review_data(entry_id, check[1] if check else None))
        self.ratings.set_item(self.focus_run_id(), entry_id, check)
        self.current_entry_changed.emit(entry_id)

    # ----- navigation ----------------------------------------------------------------------
    def next_entry(self) -> None:
        self.select_view_row(min(self.current_view_row() + 1, self.model.rowCount() - 1))

    def previous_entry(self) -> None:
        self.select_view_row(max(self.current_view_row() - 1, 0))

    def next_unreviewed(self) -> None:
        row = self.model.next_row(self.current_view_row(), self.focus_run_id(), "unreviewed")
        if row is not None:
            self.select_view_row(row)

    def next_flagged(self) -> None:
        row = self.model.next_row(self.current_view_row(), self.focus_run_id(), "flagged")
        if row is not None:
            self.select_view_row(row)

    def _judgment_changed(self, run_id: str, entry_id: str) -> None:
        from mteval_gui.app.entries import review_status

        f = self.model.frame
        ws = self.ratings.ws
        if f is None or ws is None or run_id not in {r.run_id for r in f.runs}:
            return
        status = review_status(ws, run_id, self.ratings.reviewer_id, [entry_id])
        self.model.set_review_status(run_id, entry_id, int(status[0]))
        if self.check_queue is not None and run_id == self.check_queue.run_id:
            self._refresh_checks()
        self._update_rated()
        if entry_id == self.current_entry_id():  # the speakers' spans, corrections
            bar = self.review.text.verticalScrollBar()
            at = bar.value()
            check = self.current_check()
            self.review.show_data(self._review_data(entry_id, check[1] if check else None))
            bar.setValue(at)

    def promote_variants(self, run_id: str, entry_id: str) -> None:
        """The review pane's action: this entry's speaker corrections become accepted variants (new corpus version)."""
        from mteval_gui.app.variants import promote_variants

        ws = self.ratings.ws
        if ws is None:
            return
        with reporting_errors(self) as report:
            done = promote_variants(ws, [run_id], entry_ids=[entry_id], by=self.ratings.reviewer_id)
        if report.failed:
            return
        added = [c.variant for p in done for c in p.added]
        versions = ", ".join(f"{p.corpus_id} {p.old_version} -> {p.new_version}" for p in done if p.new_version)
        self._row_changed()
        self.ratings.status.setText(
            self.tr("Added {0} variant(s) ({1}); rescore the runs to use them").format(len(added), versions)
            if added else self.tr("Nothing new: the corrections are already the reference or accepted variants"))

    # ----- loads (the page contract) -------------------------------------------------------
    def set_workspace(self, ws: Any) -> None:
        self.set_frame(None)  # first: a reviewer change must not reload the previous workspace's runs
        self.ratings.set_workspace(ws)
        self._analyser = None
        self._generator = None
        super().set_workspace(ws)

    def open_runs(self, run_ids: list[str], largest: int = 0) -> None:
        """Show the entries of ``run_ids`` side by side; ``largest`` (the most entries of one of the
        runs) at least :data:`BACKGROUND_ROWS`: read in worker threads, the window stays usable; the
        first rows are shown at once, the runs' values when they are read."""
        from mteval_gui.app.entries import load_entry_frame, open_entry_frame

        ws = self.ws
        if ws is None or not run_ids:
            return
        reviewer = self.ratings.reviewer_id
        if largest >= BACKGROUND_ROWS:
            task = self.task("open", QCoreApplication.translate("MainWindow", "Loading the entries…"))
            task.start(lambda ctx: open_entry_frame(ws, run_ids), on_done=self._show_first_rows, workspace=ws)
            return
        with reporting_errors(self, busy=True) as report:
            frame = load_entry_frame(ws, run_ids, reviewer)
        if not report.failed:
            self._show_frame(frame)

    def _show_first_rows(self, first: EntryFrame) -> None:
        """A frame still to complete is shown; its values are read in the background."""
        from mteval_gui.app.entries import WorkspaceTexts, load_entry_frame

        self._show_frame(first)
        ws, reviewer = self.ws, self.ratings.reviewer_id
        if ws is None:
            return
        run_ids = [r.run_id for r in first.runs]
        texts = first.texts if isinstance(first.texts, WorkspaceTexts) else None
        task = self.task("complete", QCoreApplication.translate("MainWindow", "Loading the entries…"))
        task.start(lambda ctx: (first, load_entry_frame(ws, run_ids, reviewer, texts=texts)),
                   on_done=self._complete_frame, workspace=ws)

    def _complete_frame(self, result: tuple[EntryFrame, EntryFrame]) -> None:
        first, frame = result
        if self.model.frame is first:  # still shown (not closed, nor replaced by other runs)
            self.set_frame(frame, keep_entry=True)

    def _show_frame(self, frame: EntryFrame) -> None:
        self.set_frame(frame)
        self.context.show(self)
        self.table.setFocus()
        self.frame_shown.emit()

    def refresh(self) -> None:
        """Reread the open runs' values and review status in the background (the workspace changed)."""
        self.reload(details=True)
        self.ratings.reload_current()

    def reload(self, details: bool = True) -> None:
        """New values for the open entries, read in a worker thread (only the stored results:
        entries and outputs are shared with the current table)."""
        frame, ws = self.model.frame, self.ws
        if frame is None or ws is None:
            return
        from mteval_gui.app.entries import refresh_entry_frame

        run_ids, reviewer = [r.run_id for r in frame.runs], self.ratings.reviewer_id
        self.task("frame").start(lambda ctx: (run_ids, refresh_entry_frame(ws, frame, reviewer, details=details)),
                                 on_done=self._apply_frame, workspace=ws)

    def _apply_frame(self, result: tuple[list[str], EntryFrame]) -> None:
        run_ids, frame = result
        current = self.model.frame
        if current is not None and [r.run_id for r in current.runs] == run_ids:
            self.refresh_values(frame)

    def _reviewer_changed(self) -> None:
        """Another reviewer rates: the review status and the queue's checks become theirs. A large
        table rereads them in the background (reading a million rows at once would stop the window);
        a small one at once."""
        frame = self.model.frame
        if frame is None:
            return
        if len(frame) >= BACKGROUND_ROWS:
            self.reload(details=True)
        else:
            self.reload_now()

    def reload_now(self) -> None:
        """Reread the open runs at once (the reviewer changed, an export is about to write the table)."""
        frame, ws = self.model.frame, self.ws
        if frame is None or ws is None:
            return
        from mteval_gui.app.entries import load_entry_frame

        with reporting_errors(self) as report:
            new = load_entry_frame(ws, [r.run_id for r in frame.runs], self.ratings.reviewer_id)
        if not report.failed:
            self.refresh_values(new)

    def run_scored(self, run_id: str, finished: bool) -> None:
        """Scoring stored results of ``run_id``: reread them if the table shows the run (partial
        results at most every :data:`ENTRY_REFRESH_SECONDS`, with their details once it finished)."""
        frame = self.model.frame
        if frame is None or run_id not in {r.run_id for r in frame.runs}:
            return
        if finished:
            self.reload(details=True)
        elif time.monotonic() - self._last_partial > ENTRY_REFRESH_SECONDS:
            self._last_partial = time.monotonic()
            self.reload(details=False)

    def _review_data(self, entry_id: str, check: CheckSlot | None = None) -> ReviewData | None:
        """What the review pane shows of ``entry_id``; an attention ``check`` shows its known-bad output in
        its run's place (without the speakers' spans, which mark the real output)."""
        import dataclasses

        from mteval_gui.app.entry_review import load_review_data

        f = self.model.frame
        if self.ws is None or f is None:
            return None
        data = load_review_data(self.ws, f.corpus_id, entry_id, [(r.run_id, r.label) for r in f.runs])
        if check is not None and check.output is not None:
            data.outputs = [dataclasses.replace(v, output=v.output.model_copy(update={"predicted": check.output}),
                                                speaker_marks=[]) if v.run_id == check.run_id else v
                            for v in data.outputs]
        return data

    def _analyse_reference(self, text: str) -> list[FstWord] | None:
        from mteval_gui.app import workspace
        from mteval_gui.app.settings import analyzer_folder

        frame = self.model.frame
        if self.ws is None or frame is None:
            return None
        with reporting_errors(self):
            lang = workspace.target_language(self.ws, frame.corpus_id)
            if self._analyser is None:
                self._analyser = ReferenceAnalyser(analyzer_folder(self.ws))
            return self._analyser.analyse(lang, text)
        return None  # the error was shown

    def _suggest_corrections(self, data: ReviewData, view: OutputView) -> list[WordSuggestions] | str | None:
        """The generator's forms for the output's words (None without a generator for the language; why,
        when one is there but cannot be used)."""
        from mteval_gui.app.generator import CorrectionHelper
        from mteval_gui.app.settings import analyzer_folder

        if self.ws is None or not data.target_lang:
            return None
        with reporting_errors(self):
            if self._generator is None:
                self._generator = CorrectionHelper(analyzer_folder(self.ws))
            got = self._generator.suggestions(data.target_lang, data.entry, view.output.predicted)
            problem = self._generator.problems.get(data.target_lang, "")
            if got is None and "cannot be used" in problem:
                return problem
            return got
        return None  # the error was shown

    def rate_document(self) -> bool:
        """Rate the translation of the current entry's document by the focused run (a dialog; task D);
        returns whether a rating was recorded."""
        from mteval_gui.app.documents import document_rating, rate_document
        from mteval_gui.qt.document_rating import DocumentRatingDialog

        data, ws, reviewer = self.review.data, self.ws, self.ratings.reviewer_id
        if data is None or ws is None or data.document is None or not data.outputs:
            self.ratings.status.setText(self.tr("This entry belongs to no document"))
            return False
        if not reviewer:
            self.ratings.status.setText(self.tr("Choose a reviewer first: the rating is theirs"))
            return False
        run_id = self.focus_run_id() or data.outputs[0].run_id
        view = next((v for v in data.outputs if v.run_id == run_id), data.outputs[0])
        document = data.document.document
        with reporting_errors(self) as report:
            current = document_rating(ws, view.run_id, reviewer, document)
        if report.failed:
            return False
        dialog = DocumentRatingDialog(document, view.label if not self.review.blind else self.tr("this system"),
                                      current.adequacy if current else None, current.fluency if current else None,
                                      current.note if current else None, self)
        if dialog.exec() != DocumentRatingDialog.DialogCode.Accepted:
            return False
        adequacy, fluency, note = dialog.values()
        with reporting_errors(self) as report:
            rate_document(ws, view.run_id, reviewer, document, adequacy, fluency, note)
        if report.failed:
            return False
        self.ratings.status.setText(self.tr("Document %1 rated").replace("%1", document))
        return True

    def _use_correction(self, run_id: str, entry_id: str, text: str) -> None:
        """A generator form picked in the review pane: the current reviewer's correction of that output."""
        if not self.ratings.reviewer_id:
            self.ratings.status.setText(self.tr("Choose a reviewer first: the correction is theirs"))
            return
        if not self.ratings.use_correction(run_id, entry_id, text):
            self.ratings.status.setText(self.tr("The correction could not be recorded for this output"))
            return
        self.ratings.status.setText(self.tr("Correction: {0} (Alt+0 accepts it as a variant)").format(text))

    # ----- review modes --------------------------------------------------------------------
    def set_random_order(self, on: bool) -> bool:
        """Show the entries in a shuffled order fixed per reviewer (or back in corpus order);
        returns whether the order is random (it cannot be without open runs)."""
        from mteval_gui.app.review import review_queue

        frame = self.model.frame
        if not on or self.ws is None or frame is None:
            self.model.set_custom_order(None)
            return False
        queue = review_queue(self.ws, [self.focus_run_id() or frame.runs[0].run_id], self.ratings.reviewer_id,
                             randomise=True)
        self.model.set_custom_order([e for _, e in queue])
        self.select_view_row(0)
        return True

    def set_review_order(self, mode: str, on: bool) -> bool:
        """Show the entries in a ``stratified`` or ``informative`` order (the open runs' items chosen by
        :func:`mteval_gui.app.sampling.entry_order`, seeded per reviewer), or back in corpus order;
        returns whether that order is shown."""
        from mteval_gui.app.sampling import entry_order

        frame = self.model.frame
        if not on or self.ws is None or frame is None:
            self.model.set_custom_order(None)
            return False
        with reporting_errors(self) as report:
            order = entry_order(self.ws, [r.run_id for r in frame.runs], mode, self.ratings.reviewer_id or "")
        if report.failed:
            return False
        self.model.set_custom_order(order)
        self.select_view_row(0)
        return True


def _rated(statuses: list[int]) -> int:
    """How many checks are rated (flagged ones counted as rated)."""
    from mteval_gui.app.entry_frame import REVIEW_FLAGGED, REVIEW_RATED

    return sum(1 for s in statuses if s in (REVIEW_RATED, REVIEW_FLAGGED))
