"""A benchmark suite's tab (one per installed suite, e.g. ÈwéBench): models with their suite score
and category scores, a chart, and every test.

Layout: a toolbar (score a responses file, open a results file, export, delete), the models
table (suite score, passed/total, one column per category of the suite; inactive categories
shown as "—"), a grouped bar chart of category scores per model (QtCharts), and below a
category filter, the tests of the selected model (status, score, pass) and a detail pane with
the prompt, the response and the score explanation the suite's method wrote. A "Run" page
lists the score breakdown, suite defects, provider errors and missing responses.

Everything suite-specific (title, score name, categories with titles, weights and short
labels) comes from the suite's declaration (``app.bench.open_suite``). Results scored here are
stored in the workspace; without a workspace they stay in the tab until it closes. Sorting
happens inside the item models.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCharts import QBarCategoryAxis, QBarSeries, QBarSet, QChart, QChartView, QValueAxis
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QKeyEvent, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.bench import (
    BenchmarkResult,
    BenchTestResult,
    RatingMeans,
    SuiteHandle,
    open_suite,
    suite_infos,
)
from mteval_gui.app.messages import detail_text
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.chart_axes import apply_value_axis
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.labels import adequacy_labels, fluency_labels, interface_language
from mteval_gui.qt.page import Page
from mteval_gui.qt.table_model import Column, ColumnTableModel, select_row

STATUS_COLOURS = {
    "passed": "#d8f0d8",
    "failed": "#f6dcdc",
    "error": "#f3c6a5",
    "missing": "#eeeeee",
    "unscorable": "#f5e6a8",
    "not_run": "#f4f4f4",
}
SERIES_COLOURS = ["#3b6ea5", "#d9822b", "#5a9e4b", "#b5485d", "#7d5ba6", "#2a9d8f", "#8c6d46", "#c4a000"]


def _num(v: float | None, digits: int = 1) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


@dataclass
class BenchRow:
    """One model in the tab: its result and where it lives (stored run id or a file)."""

    key: str
    result: BenchmarkResult
    stored: bool


def default_suite() -> SuiteHandle:
    """The first installed suite (the tab of a window with one suite)."""
    infos = suite_infos()
    if not infos:
        from mteval_gui.app.bench import SuiteError

        raise SuiteError("no benchmark suite is installed")
    return open_suite(infos[0].name)


class BenchModelsModel(ColumnTableModel[BenchRow]):
    """One row per model: suite score, passed/total and the suite's category scores."""

    def __init__(self, parent=None, suite: SuiteHandle | None = None):
        super().__init__(key=lambda r: r.key, parent=parent)
        self.suite = suite if suite is not None else default_suite()
        self.speaker_means: dict[str, RatingMeans] = {}  # row key -> speakers' ratings of its responses
        self.categories: list[str] = self.suite.definition.category_order()
        self.set_columns(self._make_columns())

    def _make_columns(self) -> list[Column[BenchRow]]:
        d = self.suite.definition

        def model_text(r: BenchRow) -> str:
            return r.result.model if r.stored else self.tr("{0} (not stored)").format(r.result.model)

        cols: list[Column[BenchRow]] = [
            Column("model", self.tr("Model"), lambda r: r.result.model.casefold(), text=model_text,
                   tooltip=lambda r: r.result.responses_path or r.result.model),
            Column("score", d.score_name, lambda r: r.result.score, text=lambda r: _num(r.result.score),
                   header_tip=self.tr("Σ category score × weight / Σ weights of the categories that were run"),
                   numeric=True),
            Column("speakers", self.tr("Speakers"), lambda r: self._speaker_value(r), text=self._speaker_text,
                   tooltip=self._speaker_tip,
                   header_tip=self.tr("Speakers' mean adequacy / fluency (1-5) of the model's responses"),
                   numeric=True),
            Column("passed", self.tr("Passed"),
                   lambda r: (r.result.passed / r.result.total) if r.result.total else None,
                   text=lambda r: f"{r.result.passed}/{r.result.total}",
                   header_tip=self.tr("Tests with score ≥ 0.7 / tests of the categories that were run"), numeric=True),
        ]
        weights = d.weights()
        cols += [self._category_column(cat, weights.get(cat, 0.0)) for cat in self.categories]
        cols.append(Column("created", self.tr("Scored"), lambda r: r.result.created_at,
                           text=lambda r: r.result.created_at.replace("T", " ")[:16]))
        return cols

    def _speaker_value(self, r: BenchRow) -> float | None:
        m = self.speaker_means.get(r.key)
        return m.adequacy if m is not None else None

    def _speaker_text(self, r: BenchRow) -> str:
        m = self.speaker_means.get(r.key)
        if m is None or not m.ratings:
            return "—"
        return f"{_num(m.adequacy)} / {_num(m.fluency)}"

    def _speaker_tip(self, r: BenchRow) -> str | None:
        m = self.speaker_means.get(r.key)
        if m is None or not m.ratings:
            return self.tr("No speaker has rated these responses") if r.stored else None
        return self.tr("Mean adequacy %1, fluency %2 over %3 rated response(s), %4 rating(s)").replace(
            "%1", _num(m.adequacy, 2)).replace("%2", _num(m.fluency, 2)).replace("%3", str(m.responses)).replace(
            "%4", str(m.ratings))

    def _category_column(self, cat: str, weight: float) -> Column[BenchRow]:
        d = self.suite.definition
        get = self._cat_getter(cat)
        return Column(f"cat:{cat}", _shown(d.category_label(cat)), get, text=lambda r: _num(get(r)),
                      tooltip=lambda r: self._cat_tip(r, cat),
                      foreground=lambda r: "#999999" if get(r) is None else None,
                      header_tip=self.tr("{0} (weight {1:.0f} %)").format(_shown(d.category_title(cat)), 100 * weight),
                      numeric=True)

    def _cat_tip(self, row: BenchRow, cat: str) -> str:
        c = row.result.category(cat)
        if c is None:
            return self.tr("not in this suite")
        if not c.active:
            return self.tr("not run: no response for any test of this category (left out of the {0})").format(
                self.suite.score_name)
        return self.tr("{0}: {1:.1f} — passed {2}/{3}; errors {4}, missing {5}, unscorable {6}").format(
            c.title, c.score or 0.0, c.passed, c.total, c.errors, c.missing, c.unscorable)

    @staticmethod
    def _cat_getter(cat: str) -> Callable[[BenchRow], float | None]:
        def get(r: BenchRow) -> float | None:
            c = r.result.category(cat)
            return c.score if c is not None and c.active else None
        return get

    def set_rows(self, rows: Sequence[BenchRow]) -> None:
        cats = self.suite.definition.category_order()
        for r in rows:
            for c in r.result.categories:
                if c.category not in cats:
                    cats.append(c.category)
        if cats != self.categories:
            self.categories = cats
            self.set_columns(self._make_columns())
        super().set_rows(rows)


def explanation_lines(t: BenchTestResult) -> list[str]:
    """The lines of a test's score explanation in the interface language."""
    lines = detail_text(t.explanation, "lines", interface_language())
    return [str(x) for x in lines] if isinstance(lines, list) else []


class BenchTestsModel(ColumnTableModel[BenchTestResult]):
    """The tests of one model (optionally one category): status, score and pass."""

    def __init__(self, parent=None, suite: SuiteHandle | None = None):
        super().__init__(key=lambda t: t.test_id, parent=parent)
        self.suite = suite if suite is not None else default_suite()

        def background(t: BenchTestResult) -> str:
            key = t.status if t.status != "scored" else ("passed" if t.passed else "failed")
            return STATUS_COLOURS.get(key, "#ffffff")

        def tip(t: BenchTestResult) -> str | None:
            lines = explanation_lines(t)
            return "\n".join(lines) if lines else None

        common: dict[str, Any] = {"tooltip": tip, "background": background}
        self.set_columns([
            Column("test", self.tr("Test"), lambda t: t.test_id.casefold(), text=lambda t: t.test_id, **common),
            Column("category", self.tr("Category"), lambda t: t.category,
                   text=lambda t: _shown(self.suite.definition.category_title(t.category)), **common),
            Column("method", self.tr("Method"), lambda t: t.method or "", text=lambda t: t.method or "?", **common),
            Column("status", self.tr("Status"), lambda t: t.status, text=self.status_label, **common),
            Column("score", self.tr("Score"), lambda t: t.score, text=lambda t: _num(t.score, 3), numeric=True,
                   **common),
            Column("passed", self.tr("Passed"), lambda t: None if t.passed is None else int(t.passed),
                   text=lambda t: "" if t.passed is None else ("✓" if t.passed else "✗"), numeric=True, **common),
        ])

    def set_tests(self, tests: list[BenchTestResult]) -> None:
        self.set_rows(tests)

    def test_at(self, row: int) -> BenchTestResult | None:
        return self.row_at(row)

    def status_label(self, t: BenchTestResult) -> str:
        labels = {"scored": self.tr("scored"), "error": self.tr("provider error"), "missing": self.tr("no response"),
                  "unscorable": self.tr("suite defect"), "not_run": self.tr("not run")}
        return labels.get(t.status, t.status)


class CategoryChart(QChartView):
    """Grouped bars: one bar set per model, one group per category (0–100)."""

    def __init__(self, parent: QWidget | None = None, suite: SuiteHandle | None = None):
        super().__init__(parent)
        self.suite = suite if suite is not None else default_suite()
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumHeight(220)
        self.chart_ = QChart()
        self.chart_.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self.setChart(self.chart_)
        self.bar_sets: list[QBarSet] = []
        self.categories: list[str] = []
        self._results: list[BenchmarkResult] = []

    def set_results(self, results: list[BenchmarkResult]) -> None:
        ch = self.chart_
        ch.removeAllSeries()
        for axis in list(ch.axes()):
            ch.removeAxis(axis)
        self.bar_sets = []
        d = self.suite.definition
        cats = d.category_order()
        for r in results:
            cats += [c.category for c in r.categories if c.category not in cats]
        cats = [c for c in cats if any(r.category(c) is not None for r in results)] if results else []
        self.categories = cats
        if not results:
            ch.setTitle(self.tr("No {0} results yet").format(self.suite.title))
            return
        ch.setTitle(self.tr("Category scores (0–100); hover a bar for details"))
        series = QBarSeries()
        for i, r in enumerate(results):
            bs = QBarSet(f"{r.model} ({_num(r.score)})")
            bs.setColor(QColor(SERIES_COLOURS[i % len(SERIES_COLOURS)]))
            for c in cats:
                cr = r.category(c)
                bs.append(cr.score if cr is not None and cr.active and cr.score is not None else 0.0)
            series.append(bs)
            self.bar_sets.append(bs)
        series.hovered.connect(self._hovered)
        self._results = results
        ch.addSeries(series)
        ax = QBarCategoryAxis()
        ax.append([_shown(d.category_label(c)) for c in cats])
        font = ax.labelsFont()
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        ax.setLabelsFont(font)
        ay = QValueAxis()
        ch.addAxis(ax, Qt.AlignmentFlag.AlignBottom)
        ch.addAxis(ay, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(ax)
        series.attachAxis(ay)
        apply_value_axis(ay, 0.0, 100.0, self.tr("Score (0–100)"))  # 0, 25, 50, 75, 100


    def bar_text(self, model_index: int, category_index: int) -> str:
        """What a bar shows: model, category and score, or that the category was not run."""
        r = self._results[model_index]
        cat = self.categories[category_index]
        c = r.category(cat)
        title = _shown(self.suite.definition.category_title(cat))
        if c is None or not c.active:
            return self.tr("{0} — {1}: not run").format(r.model, title)
        return self.tr("{0} — {1}: {2} (passed {3}/{4})").format(r.model, title, _num(c.score), c.passed, c.total)

    def _hovered(self, status: bool, index: int, bar_set: QBarSet) -> None:
        if not status or bar_set not in self.bar_sets:
            QToolTip.hideText()
            return
        QToolTip.showText(QCursor.pos(), self.bar_text(self.bar_sets.index(bar_set), index), self)


class ScoreDialog(QDialog):
    """Choose a suite folder, a responses file (or folder) and a model name."""

    def __init__(self, parent: QWidget | None = None, suite: str = "", responses: str = "", model: str = "",
                 title: str = ""):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Score {0} responses").format(title))
        form = QFormLayout(self)
        self.suite_edit = QLineEdit(suite)
        self.suite_edit.setObjectName("suiteEdit")
        self.responses_edit = QLineEdit(responses)
        self.responses_edit.setObjectName("responsesEdit")
        self.model_edit = QLineEdit(model)
        self.model_edit.setObjectName("modelEdit")
        self.model_edit.setPlaceholderText(self.tr("from the responses file"))
        form.addRow(self.tr("Suite folder:"), self._with_browse(self.suite_edit, self._browse_suite))
        form.addRow(self.tr("Responses:"), self._with_browse(self.responses_edit, self._browse_responses))
        form.addRow(self.tr("Model:"), self.model_edit)
        hint = QLabel(self.tr("Responses: JSONL or JSON of {test_id, response} or {test_id, error}, "
                              "or a folder of such files (e.g. one <category>.json per category)."))
        hint.setWordWrap(True)
        form.addRow(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _with_browse(self, edit: QLineEdit, slot: Callable[[], None]) -> QWidget:
        w = QWidget()
        lay = QHBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(edit, 1)
        b = QToolButton()
        b.setText("…")
        b.clicked.connect(slot)
        lay.addWidget(b)
        return w

    def _browse_suite(self) -> None:
        d = file_dialogs.existing_directory(self, self.tr("Suite folder"), self.suite_edit.text())
        if d:
            self.suite_edit.setText(d)

    def _browse_responses(self) -> None:
        f, _ = file_dialogs.open_file_name(self, self.tr("Responses file"), self.responses_edit.text(),
                                           self.tr("Responses (*.jsonl *.json);;All files (*)"))
        if f:
            self.responses_edit.setText(f)

    def values(self) -> tuple[str, str, str | None]:
        model = self.model_edit.text().strip()
        return self.suite_edit.text().strip(), self.responses_edit.text().strip(), model or None


def _store_result(ws: Workspace | None, result: BenchmarkResult) -> tuple[str | None, bool]:
    """Store ``result`` in ``ws`` when there is one: (its key, True); else (None, False)."""
    if ws is None:
        return None, False
    from mteval_gui.app.bench import save_benchmark_run

    return save_benchmark_run(ws, result), True


def _shown(text: str) -> str:
    """A suite's English name of a category (or its short column label) in the interface language,
    through its plugin's messages catalog."""
    from mteval_gui.app.messages import localized_text
    from mteval_gui.qt.labels import interface_language

    return localized_text(text, interface_language())


class BenchmarkTab(Page):
    """The tab of one benchmark suite. ``BenchmarkTab(workspace, suite=NAME)`` (default: the first
    installed suite); ``set_workspace(ws)``."""

    results_changed = Signal()

    def __init__(self, workspace: Workspace | None = None, parent: QWidget | None = None,
                 suite: str | None = None):
        super().__init__(parent)
        self.suite = open_suite(suite) if suite is not None else default_suite()
        self.setObjectName("benchmarkTab")
        self.ws: Workspace | None = None
        self._rows: list[BenchRow] = []
        self._file_counter = 0
        self.score_task = self.task("score", self.tr("Scoring the responses"))

        bar = QHBoxLayout()
        self.score_button = QPushButton(self.tr("Score responses…"))
        self.score_button.setToolTip(self.tr("Score a model's responses against a {0} suite folder").format(
            self.suite.title))
        self.score_button.clicked.connect(self.choose_and_score)
        self.open_button = QPushButton(self.tr("Open results…"))
        self.open_button.setToolTip(self.tr("Add a results file written by '{0}'").format(
            f"mteval bench {self.suite.name} score -o"))
        self.open_button.clicked.connect(self.choose_and_open)
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.setToolTip(self.tr("Write the selected model's results as JSON or CSV"))
        self.export_button.clicked.connect(self.choose_and_export)
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.setToolTip(self.tr("Remove the selected model's results from the workspace"))
        self.delete_button.clicked.connect(self.delete_selected)
        for b in (self.score_button, self.open_button, self.export_button, self.delete_button):
            bar.addWidget(b)
        bar.addStretch(1)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("benchSummary")
        bar.addWidget(self.summary_label)

        self.models_model = BenchModelsModel(self, self.suite)
        self.models_view = QTableView()
        self.models_view.setObjectName("benchModels")
        self.models_view.setModel(self.models_model)
        self._table_defaults(self.models_view)
        self.models_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.models_view.sortByColumn(1, Qt.SortOrder.DescendingOrder)  # best suite score first
        self.models_view.selectionModel().currentRowChanged.connect(lambda *_: self._model_selected())

        self.chart = CategoryChart(suite=self.suite)
        self.chart.setObjectName("benchChart")

        self.category_combo = QComboBox()
        self.category_combo.setObjectName("benchCategory")
        self.category_combo.currentIndexChanged.connect(lambda _: self._fill_tests())
        self.tests_model = BenchTestsModel(self, self.suite)
        self.tests_view = QTableView()
        self.tests_view.setObjectName("benchTests")
        self.tests_view.setModel(self.tests_model)
        self._table_defaults(self.tests_view)
        self.tests_view.selectionModel().currentRowChanged.connect(lambda *_: self._test_selected())

        self.detail = QTextBrowser()
        self.detail.setObjectName("benchDetail")
        self.detail.setOpenLinks(False)
        self.run_notes = QTextBrowser()
        self.run_notes.setObjectName("benchRunNotes")
        self.detail_tabs = QTabWidget()
        self.detail_tabs.addTab(self.detail, self.tr("Test"))
        self.detail_tabs.addTab(self.run_notes, self.tr("Run"))
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.detail_tabs, 1)
        rl.addWidget(self._rating_strip())

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        cl = QHBoxLayout()
        cl.addWidget(QLabel(self.tr("Category:")))
        cl.addWidget(self.category_combo, 1)
        ll.addLayout(cl)
        ll.addWidget(self.tests_view, 1)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(left)
        bottom.addWidget(right)
        bottom.setStretchFactor(0, 2)
        bottom.setStretchFactor(1, 3)

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.models_view)
        top.addWidget(self.chart)
        top.setStretchFactor(0, 3)
        top.setStretchFactor(1, 2)

        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(top)
        main.addWidget(bottom)
        main.setStretchFactor(0, 2)
        main.setStretchFactor(1, 3)
        top.setSizes([760, 640])
        bottom.setSizes([560, 840])
        main.setSizes([330, 570])

        lay = self.body_layout()
        lay.addLayout(bar)
        lay.addWidget(main, 1)
        self.limitations_label = QLabel(self._limitations_html())
        self.limitations_label.setObjectName("benchLimitations")
        self.limitations_label.setWordWrap(True)
        self.limitations_label.setVisible(bool(self.suite.definition.limitations))
        lay.addWidget(self.limitations_label)
        self.set_workspace(workspace)

    def _rating_strip(self) -> QWidget:
        """A speaker's rating of the response shown: reviewer, adequacy, fluency (digits 1-5 in the tests
        table: adequacy, then fluency), note; each change is saved at once."""
        box = QWidget()
        box.setObjectName("benchRating")
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 2, 0, 2)
        self.rating_title = QLabel(self.tr("Speaker rating:"))
        lay.addWidget(self.rating_title)
        self.rating_reviewer = QComboBox()
        self.rating_reviewer.setObjectName("benchReviewer")
        self.rating_reviewer.setToolTip(self.tr("Who rates the responses (Review → Reviewers adds reviewers)"))
        self.rating_reviewer.currentIndexChanged.connect(lambda *_: self._load_rating())
        lay.addWidget(self.rating_reviewer)
        self.rating_adequacy = QComboBox()
        self.rating_adequacy.setObjectName("benchAdequacy")
        self.rating_fluency = QComboBox()
        self.rating_fluency.setObjectName("benchFluency")
        for combo, labels, name in ((self.rating_adequacy, adequacy_labels(), self.tr("Adequacy")),
                                    (self.rating_fluency, fluency_labels(), self.tr("Fluency"))):
            combo.addItem(name + " —", None)
            for k, text in labels.items():
                combo.addItem(f"{k} – {text}", k)
            combo.activated.connect(lambda *_: self._save_rating())
            lay.addWidget(combo)
        self.rating_note = QLineEdit()
        self.rating_note.setObjectName("benchNote")
        self.rating_note.setPlaceholderText(self.tr("note (optional)"))
        self.rating_note.editingFinished.connect(self._save_rating)
        lay.addWidget(self.rating_note, 1)
        self.rating_status = QLabel()
        self.rating_status.setObjectName("benchRatingStatus")
        lay.addWidget(self.rating_status)
        self._next_scale = self.rating_adequacy
        self.tests_view.installEventFilter(self)
        return box

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Digits 1-5 in the tests table rate the response shown: adequacy, then fluency."""
        if watched is self.tests_view and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            text = event.text()
            if len(text) == 1 and text in "12345" and not event.modifiers() & (
                    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
                self.rate_digit(int(text))
                return True
        return super().eventFilter(watched, event)

    def rate_digit(self, digit: int) -> bool:
        """A digit typed: it sets adequacy, then fluency, of the response shown (saved at once)."""
        if not self.rating_adequacy.isEnabled():
            return False
        scale = self._next_scale
        scale.setCurrentIndex(scale.findData(digit))
        self._next_scale = self.rating_fluency if scale is self.rating_adequacy else self.rating_adequacy
        return self._save_rating()

    def _rating_target(self) -> tuple[str, str, str] | None:
        """(bench run id, test id, reviewer) of the response shown, when it can be rated."""
        row, t = self.selected_row(), self.selected_test()
        reviewer = self.rating_reviewer.currentData()
        if self.ws is None or row is None or not row.stored or t is None or t.response is None or not reviewer:
            return None
        return row.key, t.test_id, reviewer

    def _load_rating(self) -> None:
        """Show the reviewer's rating in force of the response shown."""
        from mteval_gui.app.bench import response_rating

        target = self._rating_target()
        current = response_rating(self.ws, *target) if target is not None and self.ws is not None else None
        for combo, value in ((self.rating_adequacy, current.adequacy if current else None),
                             (self.rating_fluency, current.fluency if current else None)):
            combo.setCurrentIndex(max(0, combo.findData(value)) if value is not None else 0)
            combo.setEnabled(target is not None)
        self.rating_note.setText(current.note or "" if current else "")
        self.rating_note.setEnabled(target is not None)
        self._next_scale = self.rating_adequacy
        row = self.selected_row()
        self.rating_status.setText(
            "" if target is not None or row is None else
            self.tr("Store the results in a workspace to rate them") if not row.stored else
            self.tr("Add a reviewer to rate the responses") if self.rating_reviewer.count() == 0 else "")

    def _save_rating(self) -> bool:
        from mteval_gui.app.bench import rate_response, response_rating

        target = self._rating_target()
        if target is None or self.ws is None:
            return False
        adequacy, fluency = self.rating_adequacy.currentData(), self.rating_fluency.currentData()
        note = self.rating_note.text().strip() or None
        current = response_rating(self.ws, *target)
        if (adequacy is None and fluency is None) or (
                current is not None and (current.adequacy, current.fluency, current.note) == (adequacy, fluency, note)):
            return False
        with reporting_errors(self) as report:
            rate_response(self.ws, *target, adequacy, fluency, note)
        if report.failed:
            return False
        self.rating_status.setText(self.tr("Saved"))
        self._update_speaker_means()
        return True

    def _reload_reviewers(self) -> None:
        from mteval_gui.app.review import list_reviewers

        current = self.rating_reviewer.currentData()
        self.rating_reviewer.blockSignals(True)
        self.rating_reviewer.clear()
        for r in (list_reviewers(self.ws) if self.ws is not None else []):
            self.rating_reviewer.addItem(r.name if r.name == r.reviewer_id else f"{r.name} ({r.reviewer_id})",
                                         r.reviewer_id)
        i = self.rating_reviewer.findData(current)
        self.rating_reviewer.setCurrentIndex(i if i >= 0 else 0)
        self.rating_reviewer.blockSignals(False)

    def _update_speaker_means(self) -> None:
        from mteval_gui.app.bench import response_rating_means

        stored = [r.key for r in self._rows if r.stored]
        self.models_model.speaker_means = response_rating_means(self.ws, stored) if self.ws is not None else {}
        for i in range(self.models_model.rowCount()):
            self.models_model.row_changed(i)

    def _limitations_html(self) -> str:
        """The suite's known limitations, in the interface language (its plugin's catalog)."""
        from mteval_gui.app.messages import localized_text
        from mteval_gui.qt.labels import interface_language

        lang = interface_language()
        items = "".join(f"<li>{html.escape(localized_text(x, lang))}</li>" for x in self.suite.definition.limitations)
        title = html.escape(self.tr("What {0} cannot show:").format(self.suite.score_name))
        return f"<b>{title}</b><ol style='margin:0'>{items}</ol>"

    @staticmethod
    def _table_defaults(view: QTableView) -> None:
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # keep the given order at first
        view.setSortingEnabled(True)
        view.verticalHeader().setVisible(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(True)
        view.setAlternatingRowColors(False)

    # ----- data --------------------------------------------------------------------------------
    def set_workspace(self, ws: Workspace | None) -> None:
        """Show the suite's runs stored in ``ws`` (None: an empty tab; results opened stay unsaved)."""
        super().set_workspace(ws)
        self.refresh_if_stale()  # reading the stored summaries is quick: done at once

    def refresh(self) -> None:
        ws = self.ws
        rows: list[BenchRow] = []
        if ws is not None:
            from mteval_gui.app.bench import get_benchmark_run

            for s in self.suite.list_runs(ws):
                rows.append(BenchRow(s.bench_run_id, get_benchmark_run(ws, s.bench_run_id), True))
        self._set_rows(rows)

    def results(self) -> list[BenchmarkResult]:
        return [r.result for r in self._rows]

    def _set_rows(self, rows: list[BenchRow], select: str | None = None) -> None:
        from mteval_gui.app.bench import response_rating_means

        self._rows = rows
        self._reload_reviewers()
        self.models_model.speaker_means = response_rating_means(self.ws, [r.key for r in rows if r.stored]) \
            if self.ws is not None else {}
        self.models_model.set_rows(rows)
        self.chart.set_results([r.result for r in self.models_model.rows])
        n = len(rows)
        self.summary_label.setText(self.tr("{0} model(s)").format(n) if n
                                   else self.tr("No results: score a responses file"))
        for b in (self.export_button, self.delete_button):
            b.setEnabled(n > 0)
        target = self.models_model.row_of(select) if select else (0 if n else None)
        if target is not None:
            select_row(self.models_view, target)
        self._model_selected()
        self.results_changed.emit()

    def add_result(self, result: BenchmarkResult) -> str:
        """Add a result to the tab (stored in the workspace when there is one); returns its key."""
        key, stored = _store_result(self.ws, result)
        return self._show_result(key, result, stored)

    def _show_stored(self, r: tuple[str | None, BenchmarkResult, bool]) -> None:
        self._show_result(*r)

    def _show_result(self, key: str | None, result: BenchmarkResult, stored: bool) -> str:
        if key is None:
            self._file_counter += 1
            key = f"unsaved-{self._file_counter}"
        rows = [r for r in self._rows if r.key != key] + [BenchRow(key, result, stored)]
        self._set_rows(rows, select=key)
        return key

    def score_files(self, suite_dir: str | Path, responses: str | Path, model: str | None = None) -> int:
        """Read a suite and a responses file, score them and store the result, in the background;
        the tab shows it when it is ready (errors go to the error dialog). Returns the task's generation."""
        ws, handle = self.ws, self.suite

        def work(ctx: Any) -> tuple[str | None, BenchmarkResult, bool]:
            ctx.progress(0, 3, self.tr("reading the suite"))
            suite = handle.read_suite(suite_dir)
            ctx.progress(1, 3, self.tr("scoring"))
            result = handle.score_suite(suite, handle.read_responses(responses, suite), model=model)
            ctx.progress(2, 3, self.tr("storing"))
            key, stored = _store_result(ws, result)
            if ws is not None:
                from mteval_gui.app.settings import remember_suite_folder

                remember_suite_folder(ws, handle.name, str(suite_dir))
            return key, result, stored

        return self.score_task.start(work, on_done=self._show_stored, workspace=ws)

    def open_results_file(self, path: str | Path) -> int:
        """Read a results file (and store it) in the background; the tab shows it when it is ready."""
        from mteval_gui.app.bench import read_result_json

        ws = self.ws

        def read(ctx: Any) -> tuple[str | None, BenchmarkResult, bool]:
            result = read_result_json(path)
            key, stored = _store_result(ws, result)
            return key, result, stored

        return self.score_task.start(read, on_done=self._show_stored, workspace=ws,
                                     title=self.tr("Reading the results"))

    def selected_row(self) -> BenchRow | None:
        idx = self.models_view.currentIndex()
        if not idx.isValid() or not (0 <= idx.row() < len(self.models_model.rows)):
            return None
        return self.models_model.rows[idx.row()]

    def selected_result(self) -> BenchmarkResult | None:
        row = self.selected_row()
        return row.result if row else None

    # ----- actions -----------------------------------------------------------------------------
    def choose_and_score(self) -> None:
        suite = ""
        if self.ws is not None:
            from mteval_gui.app.settings import load_settings

            suite = load_settings(self.ws).suite_folders.get(self.suite.name, "")
        dlg = ScoreDialog(self, suite=suite, title=self.suite.title)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        suite_dir, responses, model = dlg.values()
        self.score_files(suite_dir, responses, model)

    def choose_and_open(self) -> None:
        path, _ = file_dialogs.open_file_name(self, self.tr("Open {0} results").format(self.suite.title), "",
                                              self.tr("{0} results (*.json);;All files (*)").format(self.suite.title))
        if not path:
            return
        self.open_results_file(path)

    def export_selected(self, path: str | Path, fmt: str | None = None) -> None:
        """Write the selected model's results: ``csv`` one row per test, ``reference`` the suite's own
        harness file (EweBench's, which its leaderboard reads), else ours (JSON); by default ``.csv``
        is CSV and anything else our JSON."""
        from mteval_gui.app.bench import write_reference_json, write_result_json, write_results_csv

        result = self.selected_result()
        if result is None:
            return
        fmt = fmt or ("csv" if str(path).lower().endswith(".csv") else "mteval")
        if fmt == "csv":
            write_results_csv(result, path)
        elif fmt == "reference":
            write_reference_json(result, path)
        else:
            write_result_json(result, path)

    def export_filters(self) -> list[tuple[str, str]]:
        """(format, dialog filter) of the export dialog; the suite's own results file when it has one."""
        out = [("mteval", self.tr("JSON (*.json)")), ("csv", self.tr("CSV, one row per test (*.csv)"))]
        if self.suite.reference_format is not None:
            out.append(("reference", self.tr("{0}'s own results file, read by its leaderboard (*.json)").format(
                self.suite.title)))
        return out

    def choose_and_export(self) -> None:
        from mteval_gui.app.bench import reference_file_name

        result = self.selected_result()
        if result is None:
            return
        filters = self.export_filters()
        path, chosen = file_dialogs.save_file_name(self, self.tr("Export {0} results").format(self.suite.title),
                                                   f"{self.suite.name}-{result.model}.json",
                                                   ";;".join(f for _, f in filters))
        if not path:
            return
        fmt = next((k for k, f in filters if f == chosen), None)
        if fmt == "reference" and Path(path).name == f"{self.suite.name}-{result.model}.json":
            path = str(Path(path).with_name(reference_file_name(result)))  # the name its leaderboard lists
        with reporting_errors(self):
            self.export_selected(path, fmt)

    def delete_selected(self, *, ask: bool = True) -> None:
        from mteval_gui.qt.dialogs import confirm

        row = self.selected_row()
        if row is None:
            return
        if ask and not confirm(self, self.tr("Delete results"),
                               self.tr("Remove the {0} results of {1}?").format(self.suite.title, row.result.model)):
            return
        if row.stored and self.ws is not None:
            from mteval_gui.app.bench import delete_benchmark_run

            delete_benchmark_run(self.ws, row.key)
        self._set_rows([r for r in self._rows if r.key != row.key])

    # ----- views -------------------------------------------------------------------------------
    def _model_selected(self) -> None:
        result = self.selected_result()
        current = self.category_combo.currentData()
        self.category_combo.blockSignals(True)
        self.category_combo.clear()
        self.category_combo.addItem(self.tr("All categories"), None)
        if result is not None:
            for c in result.categories:
                title = _shown(c.title)
                label = f"{title} — {_num(c.score)}" if c.active else self.tr("{0} — not run").format(title)
                self.category_combo.addItem(label, c.category)
        i = self.category_combo.findData(current)
        self.category_combo.setCurrentIndex(max(0, i))
        self.category_combo.blockSignals(False)
        self.run_notes.setHtml(self._run_html(result) if result else "")
        self._fill_tests()

    def _fill_tests(self) -> None:
        result = self.selected_result()
        cat = self.category_combo.currentData()
        tests = [] if result is None else [t for t in result.tests if cat is None or t.category == cat]
        self.tests_model.set_tests(tests)
        if tests:
            self.tests_view.setCurrentIndex(self.tests_model.index(0, 0))
        self._test_selected()

    def selected_test(self) -> BenchTestResult | None:
        idx = self.tests_view.currentIndex()
        return self.tests_model.test_at(idx.row()) if idx.isValid() else None

    def select_test(self, test_id: str) -> bool:
        for i, t in enumerate(self.tests_model.rows):
            if t.test_id == test_id:
                self.tests_view.setCurrentIndex(self.tests_model.index(i, 0))
                return True
        return False

    def _test_selected(self) -> None:
        t = self.selected_test()
        self.detail.setHtml(self._test_html(t) if t else "")
        self._load_rating()

    def _test_html(self, t: BenchTestResult) -> str:
        e = html.escape
        status = self.tests_model.status_label(t)
        score = _num(t.score, 3)
        verdict = "" if t.passed is None else (self.tr("passed") if t.passed else self.tr("not passed"))
        parts = [f"<h3>{e(t.test_id)}</h3>",
                 f"<p>{e(_shown(self.suite.definition.category_title(t.category)))} · {e(t.method or '?')} · "
                 f"{e(status)} · "
                 f"<b>{self.tr('score')} {score}</b> {e(verdict)}</p>",
                 f"<h4>{self.tr('Prompt')}</h4><p style='white-space: pre-wrap'>{e(t.prompt)}</p>"]
        if t.error:
            parts.append(f"<h4>{self.tr('Provider error')}</h4><p style='color:#a33'>{e(t.error)}</p>")
        if t.response is not None:
            parts.append(f"<h4>{self.tr('Response')}</h4><p style='white-space: pre-wrap'>{e(t.response)}</p>")
        lines = t.explanation.get("lines", [])
        if lines:
            shown = explanation_lines(t)
            items = "".join(f"<li>{self._explain_line(line, text)}</li>"
                            for line, text in zip(lines, shown, strict=False))
            parts.append(f"<h4>{self.tr('Why this score')}</h4><ul>{items}</ul>")
        return "".join(parts)

    @staticmethod
    def _explain_line(line: str, shown: str | None = None) -> str:
        """A line of the explanation (coloured by what the English ``line`` says), shown as ``shown``."""
        text = html.escape((line if shown is None else shown).strip())
        if ": unscored" in line:
            return f"<span style='color:#8a6d00'>{text}</span>"
        if ": failed" in line or "no match" in line or "missing:" in line:
            return f"<span style='color:#a33'>{text}</span>"
        if ": passed" in line:
            return f"<span style='color:#2a7a2a'>{text}</span>"
        return text

    def _run_html(self, r: BenchmarkResult) -> str:
        e = html.escape
        parts = [f"<h3>{e(r.model)} — {e(r.score_name)} {_num(r.score)}</h3>",
                 f"<p>{self.tr('Suite')}: {e(r.suite_path)}<br>{self.tr('Responses')}: {e(r.responses_path or '')}<br>"
                 f"{self.tr('Scored')}: {e(r.created_at)}</p>"]
        rows = []
        for c in r.categories:
            contrib = "" if not c.active or c.score is None or not r.active_weight else \
                f"{c.score * c.weight / r.active_weight:.1f}"
            rows.append(f"<tr><td>{e(c.title)}</td><td align='right'>{_num(c.score)}</td>"
                        f"<td align='right'>{c.passed}/{c.total}</td><td align='right'>{c.weight:.2f}</td>"
                        f"<td align='right'>{contrib or '—'}</td></tr>")
        parts.append(f"<table cellpadding='3'><tr><th>{self.tr('Category')}</th><th>{self.tr('Score')}</th>"
                     f"<th>{self.tr('Passed')}</th><th>{self.tr('Weight')}</th><th>{self.tr('Contribution')}</th></tr>"
                     + "".join(rows) + "</table>")
        inactive = [c.title for c in r.categories if not c.active]
        if inactive:
            left_out = self.tr("Not run (left out of the {0})").format(r.score_name)
            parts.append(f"<p>{e(left_out)}: {e(', '.join(inactive))}</p>")
        if r.provider_errors:
            items = "".join(f"<li>{e(t.test_id)}: {e(t.error or '')}</li>" for t in r.provider_errors)
            parts.append(f"<h4>{self.tr('Provider errors (scored 0)')}</h4><ul>{items}</ul>")
        if r.missing:
            parts.append(f"<h4>{self.tr('Missing responses (scored 0)')}</h4>"
                         f"<p>{e(', '.join(t.test_id for t in r.missing))}</p>")
        if r.unscorable:
            parts.append(f"<h4>{self.tr('Unscorable tests (left out of their category mean)')}</h4>"
                         f"<p>{e(', '.join(t.test_id for t in r.unscorable))}</p>")
        shown = [d for d in r.suite_defects + r.response_warnings if d.severity != "info"]
        if shown:
            items = "".join(f"<li>{e(d.severity)}: {e(str(d))}</li>" for d in shown)
            parts.append(f"<h4>{self.tr('Suite and responses defects')}</h4><ul>{items}</ul>")
        return "".join(parts)
