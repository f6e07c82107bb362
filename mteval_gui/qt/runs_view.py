"""Runs view: the runs table with a corpus filter and the actions on selected runs.

Until the workspace holds a run, the page shows the first steps instead (open a workspace,
import a corpus, import a run, score), each with its button; ``first_step(name)`` asks the
window to do one (``new``, ``open``, ``demo``, ``import_corpus``, ``import_run``).
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QWidget,
)

from mteval_gui.app.runs import RunRow
from mteval_gui.qt.page import EmptyState, Page
from mteval_gui.qt.runs_model import RunsModel


class RunsView(Page):
    open_entries = Signal(list)  # run ids
    score_requested = Signal(list)
    compare_requested = Signal(list)
    corpus_changed = Signal(object)  # corpus id or None
    first_step = Signal(str)  # new, open, demo, import_corpus, import_run

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("runsView")
        self._corpora = 0
        self.scoring = False  # a scoring job of the window is running (the summary says so)
        lay = self.body_layout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Corpus:")))
        self.corpus_combo = QComboBox()
        self.corpus_combo.setObjectName("corpusCombo")
        self.corpus_combo.setMinimumContentsLength(18)
        self.corpus_combo.currentIndexChanged.connect(
            lambda _: self.corpus_changed.emit(self.corpus_combo.currentData()))
        bar.addWidget(self.corpus_combo)
        bar.addStretch(1)
        self.open_button = QPushButton(self.tr("Open entries"))
        self.open_button.setToolTip(self.tr("Show the entries of the selected runs side by side (Enter)"))
        self.open_button.clicked.connect(lambda: self.open_entries.emit(self.selected_run_ids()))
        self.score_button = QPushButton(self.tr("Score"))
        self.score_button.setToolTip(self.tr("Score the selected runs in the background"))
        self.score_button.clicked.connect(lambda: self.score_requested.emit(self.selected_run_ids()))
        self.compare_button = QPushButton(self.tr("Compare"))
        self.compare_button.setToolTip(self.tr("Compare the selected runs (same corpus) with significance tests"))
        self.compare_button.clicked.connect(lambda: self.compare_requested.emit(self.selected_run_ids()))
        for b in (self.open_button, self.score_button, self.compare_button):
            bar.addWidget(b)
        lay.addLayout(bar)

        self.model = RunsModel(self)
        self.table = QTableView()
        self.table.setObjectName("runsTable")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.doubleClicked.connect(lambda _: self.open_entries.emit(self.selected_run_ids()))
        self.table.activated.connect(lambda _: self.open_entries.emit(self.selected_run_ids()))
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.sortByColumn(self.model.column_index("composite"), Qt.SortOrder.DescendingOrder)
        self._sizing = False
        self._user_widths: set[str] = set()  # columns the user resized: their width is kept
        self.table.horizontalHeader().sectionResized.connect(self._section_resized)
        lay.addWidget(self.table)
        self.summary = QLabel()
        self.summary.setObjectName("runsSummary")
        lay.addWidget(self.summary)
        self._update_buttons()

    def set_workspace(self, ws: object) -> None:
        self.ws = ws
        self.update_empty()

    def refresh(self) -> None:
        self.update_empty()  # the window fills the table (set_corpora, set_rows)

    def empty_state(self) -> EmptyState | None:
        step = lambda name: (lambda: self.first_step.emit(name))  # noqa: E731
        if self.ws is None:
            return EmptyState(
                self.tr("No workspace open"),
                self.tr("A workspace is one file that holds your corpora, the outputs of the systems you evaluate, "
                        "their scores and the speakers' judgments. Create one, open one, or look around the demo "
                        "workspace (Plains Cree and Ewe examples) first."),
                [(self.tr("New workspace…"), step("new")), (self.tr("Open workspace…"), step("open")),
                 (self.tr("Open the demo workspace"), step("demo"))])
        if self.model.rowCount() or self.corpus_combo.currentData() is not None:
            return None
        done = "✓ " if self._corpora else ""
        text = self.tr(
            "<ol>"
            "<li>{0}<b>Import a corpus</b>: the source sentences, their references and accepted variants "
            "(File ▸ Import corpus, Ctrl+I; JSON, JSONL, TSV, CSV or two line-aligned text files).</li>"
            "<li><b>Import a run</b>: one system's outputs for that corpus (File ▸ Import run, Ctrl+Shift+I; "
            "JSONL, a hypothesis file with one line per entry, or a harness report).</li>"
            "<li><b>Score</b> the runs: select them in this table and press Score (Ctrl+R). Then open their "
            "entries, compare them, and let speakers rate them.</li>"
            "</ol>").format(done)
        actions = [(self.tr("Import run…"), step("import_run"))] if self._corpora else \
            [(self.tr("Import corpus…"), step("import_corpus"))]
        actions.append((self.tr("Open the demo workspace"), step("demo")))
        return EmptyState(self.tr("First steps"), text, actions)

    def set_corpora(self, corpora: list[dict]) -> None:
        self._corpora = len(corpora)
        current = self.corpus_combo.currentData()
        self.corpus_combo.blockSignals(True)
        self.corpus_combo.clear()
        self.corpus_combo.addItem(self.tr("All corpora"), None)
        for c in corpora:
            self.corpus_combo.addItem(f"{c['corpus_id']} ({c['source_lang']}→{c['target_lang']}, {c['entry_count']})",
                                      c["corpus_id"])
        idx = self.corpus_combo.findData(current)
        self.corpus_combo.setCurrentIndex(max(idx, 0))
        self.corpus_combo.blockSignals(False)

    def set_rows(self, rows: list[RunRow]) -> None:
        """Show ``rows``, keeping the sort, the selection and the widths the user gave columns.

        A metric column no run has a value in is hidden; a column shown again is sized to its
        contents (hidden sections have no width, so sizing comes after showing)."""
        selected = set(self.selected_run_ids())
        self.model.set_rows(rows)
        self._sizing = True
        try:
            for c, col in enumerate(self.model.columns):
                hide = self.model.column_is_empty(c)
                self.table.setColumnHidden(c, hide)
                if not hide and col.key not in self._user_widths:
                    self.table.resizeColumnToContents(c)
                    self.table.setColumnWidth(c, min(max(self.table.columnWidth(c), 40), 320))
        finally:
            self._sizing = False
        self.select_runs([r for r in selected if self.model.row_of(r) is not None])
        self._show_summary()
        self._update_buttons()
        self.update_empty()

    def set_scoring(self, running: bool) -> None:
        """The window started (or ended) a scoring job: the summary says so instead of asking for one."""
        self.scoring = running
        self._show_summary()

    def _show_summary(self) -> None:
        rows = self.model.rows
        scored = sum(1 for r in rows if r.scored)
        if rows and self.scoring:
            self.summary.setText(self.tr("{0} runs, {1} scored; scoring in the background: each run's results "
                                         "appear as they are stored.").format(len(rows), scored))
        elif rows and not scored:
            self.summary.setText(self.tr("{0} runs, none scored yet: select them (Ctrl+A) and press Score "
                                         "(Ctrl+R).").format(len(rows)))
        else:
            self.summary.setText(self.tr("{0} runs, {1} scored. Select several runs (Ctrl/Shift+click) to compare "
                                         "them or see their entries side by side.").format(len(rows), scored))

    def _section_resized(self, section: int, _old: int, new: int) -> None:
        if not self._sizing and new > 0 and 0 <= section < len(self.model.columns):
            self._user_widths.add(self.model.columns[section].key)

    def selected_run_ids(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.rows[r].run_id for r in rows]

    def select_runs(self, run_ids: list[str]) -> None:
        sm = self.table.selectionModel()
        sm.clearSelection()
        for rid in run_ids:
            row = self.model.row_of(rid)
            if row is not None:
                sm.select(self.model.index(row, 0), QItemSelectionModel.SelectionFlag.Select
                          | QItemSelectionModel.SelectionFlag.Rows)
        self._update_buttons()

    def _update_buttons(self, *_: object) -> None:
        ids = self.selected_run_ids()
        rows = [self.model.rows[i] for i in map(self.model.row_of, ids) if i is not None]
        same_corpus = len({r.corpus_id for r in rows}) == 1
        self.open_button.setEnabled(bool(ids) and same_corpus)
        self.score_button.setEnabled(bool(ids))
        self.compare_button.setEnabled(len(ids) >= 2 and same_corpus)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected_run_ids():
            self.open_entries.emit(self.selected_run_ids())
            return
        super().keyPressEvent(event)
