"""Charts of a corpus's scored runs (QtCharts), exportable as PNG or SVG.

- distribution of the per-entry chrF++ and FST acceptance of each run (box plots: median,
  quartiles, whiskers at minimum and maximum);
- composite contribution bars: each metric's weight share × normalised value, stacked,
  summing to the composite.

Values come from the store (``entry_values``, the run cards), read in the background; the
chart only draws them (``drawn`` is emitted once the chart shows the chosen corpus and kind).
Comparing runs (:meth:`ChartsView.follow_comparison`) sets the corpus to theirs and restricts the charts
to them (*Only the compared runs*). Axes have titles and round ticks; system names are wrapped,
never cut (:mod:`mteval_gui.qt.chart_axes`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCharts import (
    QBarCategoryAxis,
    QBarSet,
    QBoxPlotSeries,
    QBoxSet,
    QChart,
    QChartView,
    QHorizontalStackedBarSeries,
    QValueAxis,
)
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMargins, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QResizeEvent
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from mteval_gui.app import workspace
from mteval_gui.app.runs import RunRow, load_run_rows
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.metrics import MetricRole
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.chart_axes import apply_value_axis, set_categories
from mteval_gui.qt.labels import score_label
from mteval_gui.qt.page import EmptyState, Page

PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
KINDS = ("chrf", "fst", "composite")
ROW_LABEL_CHARS = 28  # the composite chart's system names (left axis) wrap at this many characters


def box_stats(values: np.ndarray) -> tuple[float, float, float, float, float] | None:
    """(minimum, lower quartile, median, upper quartile, maximum) of the finite values."""
    v = values[np.isfinite(values)]
    if v.size == 0:
        return None
    q1, med, q3 = np.percentile(v, [25, 50, 75])
    return float(v.min()), float(q1), float(med), float(q3), float(v.max())


def export_view(view: QChartView, path: str | Path) -> Path:
    """Write the chart as PNG (any raster suffix) or SVG (``.svg``), drawn in memory and written as
    every export is (atomically, never onto a folder, a special file or the workspace)."""
    from mteval_gui.app.exports import write_export_file

    path = Path(path)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if path.suffix.lower() == ".svg":
        gen = QSvgGenerator()
        gen.setOutputDevice(buffer)
        size = view.size()
        gen.setSize(size)
        gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
        gen.setTitle(view.chart().title())
        painter = QPainter(gen)
        view.render(painter)
        painter.end()
    else:
        if not view.grab().save(buffer, path.suffix.lstrip(".").upper() or "PNG"):
            raise OSError(f"{path}: could not draw the image")
    buffer.close()
    return write_export_file(path, bytes(data.data()))


def chart_data(ws: Workspace, corpus_id: str | None, kind: str,
               only: list[str] | None = None) -> tuple[list[RunRow], dict[str, np.ndarray]]:
    """The scored runs of a corpus (only those of ``only``, in its order, when given) and, for a
    distribution chart, each run's per-entry values."""
    from mteval_gui.app.runs import role_values

    if corpus_id is None:
        return [], {}
    runs = [r for r in load_run_rows(ws, corpus_id) if r.scored]
    if only is not None:
        by_id = {r.run_id: r for r in runs}
        runs = [by_id[i] for i in only if i in by_id]
    values: dict[str, np.ndarray] = {}
    if kind != "composite":
        role: MetricRole = "chrf" if kind == "chrf" else "fst_analysis"
        for r in runs:
            values[r.run_id] = np.array([v for v in role_values(ws, r.run_id, role).values() if v is not None],
                                        dtype=float)
    return runs, values


class ChartsView(Page):
    drawn = Signal()  # the chart shows the chosen corpus and kind

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("chartsView")
        self.ws: Workspace | None = None
        self.draw_task = self.task("chart", self.tr("Reading the values"))
        lay = self.body_layout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Corpus:")))
        self.corpus = QComboBox()
        self.corpus.setObjectName("chartCorpus")
        self.corpus.currentIndexChanged.connect(self.redraw)
        bar.addWidget(self.corpus)
        bar.addWidget(QLabel(self.tr("Chart:")))
        self.kind = QComboBox()
        self.kind.setObjectName("chartKind")
        for key, text in (("chrf", self.tr("chrF++ per entry")), ("fst", self.tr("FST acceptance per entry")),
                          ("composite", self.tr("Composite contributions"))):
            self.kind.addItem(text, key)
        self.kind.currentIndexChanged.connect(self.redraw)
        bar.addWidget(self.kind)
        self.compared: list[str] = []  # the runs of the last comparison (Compare tab)
        self.compared_corpus: str | None = None
        self.only_compared = QCheckBox(self.tr("Only the compared runs"))
        self.only_compared.setObjectName("chartOnlyCompared")
        self.only_compared.setToolTip(self.tr("Draw only the runs compared in the Compare tab"))
        self.only_compared.setVisible(False)
        self.only_compared.toggled.connect(self.redraw)
        bar.addWidget(self.only_compared)
        bar.addStretch(1)
        self.export_button = QPushButton(self.tr("Export…"))
        self.export_button.clicked.connect(self.export_dialog)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)
        self.view = QChartView()
        self.view.setObjectName("chartView")
        self.view.setRenderHint(QPainter.RenderHint.Antialiasing)
        lay.addWidget(self.view, 1)
        self.message = QLabel()
        self.message.setObjectName("chartMessage")
        lay.addWidget(self.message)
        self._categories: tuple[QBarCategoryAxis, list[str]] | None = None  # the x axis's names, re-wrapped on resize
        self._draw([], {})

    def empty_state(self) -> EmptyState | None:
        if self.ws is not None and self.corpus.count():
            return None
        return EmptyState(self.tr("No charts yet"),
                          self.tr("Import a corpus and the runs of some systems, score them, and their per-entry "
                                  "chrF++, FST acceptance and composite contributions are drawn here."))

    def set_workspace(self, ws: Workspace | None) -> None:
        self.compared, self.compared_corpus = [], None
        self.only_compared.setVisible(False)
        super().set_workspace(ws)

    def refresh(self) -> None:
        current = self.corpus.currentData()
        self.corpus.blockSignals(True)
        self.corpus.clear()
        for c in (workspace.list_corpora(self.ws) if self.ws is not None else []):
            self.corpus.addItem(c["corpus_id"], c["corpus_id"])
        idx = self.corpus.findData(current)
        self.corpus.setCurrentIndex(max(idx, 0))
        self.corpus.blockSignals(False)
        self.update_empty()
        self.redraw()

    def set_kind(self, kind: str) -> None:
        """Show the chart ``kind`` (drawn again even when it is already chosen)."""
        i = KINDS.index(kind)
        if self.kind.currentIndex() == i:
            self.redraw()
        else:
            self.kind.setCurrentIndex(i)

    def set_corpus(self, corpus_id: str) -> None:
        idx = self.corpus.findData(corpus_id)
        if idx >= 0 and idx != self.corpus.currentIndex():
            self.corpus.setCurrentIndex(idx)

    def follow_comparison(self, run_ids: list[str]) -> None:
        """Follow a comparison: the corpus of ``run_ids`` and only those runs (until unticked)."""
        if self.ws is None or not run_ids:
            return
        corpus_of = {r["run_id"]: r["corpus_id"] for r in workspace.list_runs(self.ws)}
        corpus = corpus_of.get(run_ids[0])
        self.compared = [r for r in run_ids if corpus_of.get(r) == corpus]
        self.compared_corpus = corpus
        if self.corpus.findData(corpus) < 0:
            self.refresh()
        self.corpus.blockSignals(True)
        if corpus is not None:
            self.set_corpus(corpus)
        self.corpus.blockSignals(False)
        self.only_compared.blockSignals(True)
        self.only_compared.setChecked(True)
        self.only_compared.blockSignals(False)
        self.only_compared.setVisible(True)
        self.redraw()

    def shown_runs(self) -> list[str] | None:
        """The runs the chart is restricted to (None: every scored run of the corpus)."""
        if not self.compared or not self.only_compared.isChecked() \
                or self.corpus.currentData() != self.compared_corpus:
            return None
        return list(self.compared)

    def redraw(self, *_: object) -> None:
        """Read the chosen corpus's values in the background, then draw them."""
        if self.ws is None or self.corpus.currentData() is None:
            self.draw_task.cancel()
            self._draw([], {})
            return
        ws, corpus, kind = self.ws, self.corpus.currentData(), self.kind.currentData()
        on_compared = bool(self.compared) and corpus == self.compared_corpus
        self.only_compared.setVisible(on_compared)
        only = self.shown_runs() if on_compared else None  # another corpus chosen: every run of it
        self.draw_task.start(lambda ctx: chart_data(ws, corpus, kind, only), on_done=lambda d: self._draw(*d),
                             workspace=ws)

    def _draw(self, runs: list[RunRow], values: dict[str, np.ndarray]) -> None:
        chart = QChart()
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        chart.setMargins(QMargins(6, 6, 6, 6))
        kind = self.kind.currentData()
        self._categories = None
        if not runs:
            chart.setTitle(self.tr("No scored runs"))
            self.message.setText(self.tr("Score the runs of a corpus to see their charts."))
        elif kind == "composite":
            self._composite(chart, runs)
        else:
            self._distribution(chart, runs, kind, values)
        old = self.view.chart()
        self.view.setChart(chart)
        if old is not None and old is not chart:
            old.deleteLater()
        self.drawn.emit()

    def _distribution(self, chart: QChart, runs: list[RunRow], kind: str, values_of: dict[str, np.ndarray]) -> None:
        scale, title = ((100.0, self.tr("Per-entry chrF++")) if kind == "chrf"
                        else (1.0, self.tr("Per-entry FST acceptance")))
        series = QBoxPlotSeries()
        names: list[str] = []
        skipped = []
        for r in runs:
            stats = box_stats(values_of.get(r.run_id, np.zeros(0)))
            if stats is None:
                skipped.append(r.run_id)
                continue
            box = QBoxSet(*stats, r.model)
            box.setBrush(QColor(PALETTE[len(names) % len(PALETTE)]))
            series.append(box)
            names.append(r.model)
        chart.addSeries(series)
        chart.setTitle(title + self.tr(" (box: quartiles and median; whiskers: minimum–maximum)"))
        axis_x = QBarCategoryAxis()
        axis_x.setTitleText(self.tr("System"))
        set_categories(axis_x, names, self._category_chars(len(names)))
        self._categories = (axis_x, names)
        axis_y = QValueAxis()
        chart.addAxis(axis_x, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(axis_y, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(axis_x)
        series.attachAxis(axis_y)
        # after attaching: attaching sets the range to the data's
        apply_value_axis(axis_y, 0.0, scale, self.tr("chrF++ of each entry (0–100)") if kind == "chrf"
                         else self.tr("FST acceptance of each entry (share of words, 0–1)"))
        chart.legend().setVisible(False)
        self.message.setText(self.tr("No values for: {0}").format(", ".join(skipped)) if skipped else "")

    def _category_chars(self, n: int) -> int:
        """How many characters of a system's name fit on one line under its box."""
        plot = max(200, self.view.width() - 110)  # the value axis and the margins take the rest
        per = plot / max(1, n)
        return max(6, int(per / max(1, QFontMetrics(self.view.font()).averageCharWidth())) - 2)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self._categories is not None:  # wrap the names again for the new width
            axis, names = self._categories
            set_categories(axis, names, self._category_chars(len(names)))

    def _composite(self, chart: QChart, runs: list[RunRow]) -> None:
        metrics: list[str] = []
        for r in runs:
            for b in r.breakdown:
                if b["metric"] not in metrics:
                    metrics.append(b["metric"])
        series = QHorizontalStackedBarSeries()
        for i, m in enumerate(metrics):
            s = QBarSet(score_label(m))
            s.setColor(QColor(PALETTE[i % len(PALETTE)]))
            for r in runs:
                contrib = next((b["contribution"] for b in r.breakdown if b["metric"] == m), 0.0)
                s.append(float(contrib))
            series.append(s)
        chart.addSeries(series)
        chart.setTitle(self.tr("Composite = sum of weighted, normalised metrics"))
        axis_y = QBarCategoryAxis()
        axis_y.setTitleText(self.tr("System (composite)"))
        set_categories(axis_y, [f"{r.model} ({r.composite:.3f})" if r.composite is not None else r.model
                                for r in runs], ROW_LABEL_CHARS)
        axis_x = QValueAxis()
        chart.addAxis(axis_y, Qt.AlignmentFlag.AlignLeft)
        chart.addAxis(axis_x, Qt.AlignmentFlag.AlignBottom)
        series.attachAxis(axis_x)
        series.attachAxis(axis_y)
        apply_value_axis(axis_x, 0.0, 1.0, self.tr("Contribution to the composite (0–1)"))  # after attaching
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        self.message.setText("" if metrics else self.tr("The run cards hold no composite breakdown."))

    def default_file_name(self) -> str:
        """The export's suggested name: the corpus and the chart (``mafand-chrf.png``), ``-compared``
        when only the compared runs are drawn."""
        corpus = str(self.corpus.currentData() or "chart")
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in corpus)
        return f"{safe}-{self.kind.currentData()}{'-compared' if self.shown_runs() else ''}.png"

    def export(self, path: str | Path) -> Path:
        return export_view(self.view, path)

    def export_dialog(self) -> None:
        from mteval_gui.qt.dialogs import reporting_errors

        path, _ = file_dialogs.save_file_name(self, self.tr("Export chart"), self.default_file_name(),
                                              self.tr("PNG image (*.png);;SVG drawing (*.svg)"))
        if path:
            with reporting_errors(self):
                self.export(path)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(900, 600)
