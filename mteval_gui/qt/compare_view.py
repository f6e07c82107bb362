"""Compare runs: every run against a chosen baseline with paired significance tests.

The table has one row per system, the baseline first, and one group of three columns per
metric: the system's value with its 95 % bootstrap interval, the difference from the baseline
(its interval in the tooltip) and the p-value of the paired test (approximate randomisation or
paired bootstrap, Holm-corrected on request), coloured when significant; 16 systems fit on one
screen without scrolling sideways for the headline metrics. Everything is
all computed by :func:`mteval_gui.app.compare.compare_workspace_runs` from the stored per-entry
statistics, in the background (the page's busy bar shows it). Caveats (e.g. different metric
coverage) are shown above the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QPushButton,
    QTableView,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.compare import shown_p, significance
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.score_keys import keys_where_scale
from mteval_gui.qt.labels import caveat_explanation, caveat_title, score_label
from mteval_gui.qt.page import EmptyState, Page
from mteval_gui.qt.table_model import Column, ColumnTableModel

GROUP_TINTS = ("#ffffff", "#f2f5f9")  # alternate metric groups, so the three columns of a metric read together
_SCALED_100 = frozenset(keys_where_scale("0-100"))


def _fmt(key: str, v: float | None) -> str:
    if v is None:
        return "—"
    if key in _SCALED_100:
        return f"{v:.2f}"
    return f"{v:.4f}"


class CompareView(Page):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compareView")
        self.ws: Workspace | None = None
        self.run_ids: list[str] = []
        self.comparison: Any = None
        self.compute_task = self.task("compare", self.tr("Comparing the runs"))
        lay = self.body_layout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Baseline:")))
        self.baseline = QComboBox()
        self.baseline.setObjectName("baselineCombo")
        bar.addWidget(self.baseline)
        bar.addWidget(QLabel(self.tr("Test:")))
        self.test = QComboBox()
        self.test.addItem(self.tr("approximate randomisation"), "ar")
        self.test.addItem(self.tr("paired bootstrap"), "bootstrap")
        bar.addWidget(self.test)
        self.holm = QCheckBox(self.tr("Holm correction"))
        bar.addWidget(self.holm)
        self.short_bleu = QCheckBox(self.tr("BLEU on short segments"))
        self.short_bleu.setObjectName("shortBleuBox")
        self.short_bleu.setToolTip(self.tr("Compare BLEU even when the median reference has fewer than 4 tokens "
                                           "(caveat short_segments), where BLEU says little"))
        bar.addWidget(self.short_bleu)
        self.run_button = QPushButton(self.tr("Compare"))
        self.run_button.setObjectName("compareButton")
        self.run_button.clicked.connect(self.compute)
        bar.addWidget(self.run_button)
        bar.addStretch(1)
        self.entries_button = QPushButton(self.tr("Entries side by side"))
        self.entries_button.clicked.connect(lambda: self.context.open_entries(list(self.run_ids)))
        bar.addWidget(self.entries_button)
        self.export_button = QPushButton(self.tr("Export table…"))
        self.export_button.setObjectName("compareExportButton")
        self.export_button.setToolTip(self.tr("Write the table with its intervals and significance marks as "
                                              "LaTeX (booktabs), Markdown or CSV"))
        self.export_button.clicked.connect(self.export_dialog)
        self.export_button.setEnabled(False)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)
        self.caveats = QLabel()
        self.caveats.setObjectName("compareCaveats")
        self.caveats.setWordWrap(True)
        lay.addWidget(self.caveats)
        self.model = CompareModel(self)
        self.table = QTableView()
        self.table.setObjectName("compareTable")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the given order at first
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setWordWrap(False)
        lay.addWidget(self.table, 1)
        self.note = QLabel()
        self.note.setObjectName("compareNote")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self._show_empty()

    def set_workspace(self, ws: Workspace | None) -> None:
        self.run_ids = []
        self.comparison = None
        self.baseline.clear()
        self._show_empty()
        super().set_workspace(ws)

    def refresh(self) -> None:
        """Recompute the comparison shown (the runs may have been rescored)."""
        self.update_empty()
        if self.comparison is not None and len(self.run_ids) >= 2:
            self.compute()

    def empty_state(self) -> EmptyState | None:
        if len(self.run_ids) >= 2:
            return None
        return EmptyState(self.tr("Nothing to compare yet"),
                          self.tr("Select two or more scored runs of one corpus in the Runs tab (Ctrl+click) and "
                                  "press <b>Compare</b>: each run is tested against a baseline of your choice."))

    def _show_empty(self) -> None:
        self.export_button.setEnabled(False)
        self.model.set_rows([])
        self.caveats.setText("")
        self.note.setText(self.tr("Select two or more scored runs of one corpus in the Runs tab and press Compare."))
        self.run_button.setEnabled(bool(self.run_ids))
        self.entries_button.setEnabled(bool(self.run_ids))
        self.update_empty()

    def show_runs(self, run_ids: list[str]) -> bool:
        """Compare ``run_ids`` (Runs ▸ Compare); at least two runs."""
        if self.ws is None or len(run_ids) < 2:
            return False
        self.set_runs(run_ids)
        return True

    def set_runs(self, run_ids: list[str], baseline: str | None = None) -> None:
        self.run_ids = list(run_ids)
        labels = workspace.run_labels(self.ws) if self.ws else {}
        self.baseline.clear()
        for rid in self.run_ids:
            self.baseline.addItem(f"{labels.get(rid, rid)} ({rid})", rid)
        if baseline in self.run_ids:
            self.baseline.setCurrentIndex(self.run_ids.index(baseline))
        self.run_button.setEnabled(len(self.run_ids) >= 2)
        self.entries_button.setEnabled(bool(self.run_ids))
        self.update_empty()
        if len(self.run_ids) >= 2:
            self.compute()

    def compute(self) -> None:
        """Compare the runs in the background; the table is filled when the result arrives."""
        if self.ws is None or len(self.run_ids) < 2:
            return
        from mteval_gui.app.compare import CompareOptions, compare_workspace_runs

        ws, runs, baseline = self.ws, list(self.run_ids), self.baseline.currentData()
        test, holm, short_bleu = self.test.currentData(), self.holm.isChecked(), self.short_bleu.isChecked()
        stages = {"reading the runs": self.tr("reading the runs"), "intervals": self.tr("intervals"),
                  "paired tests": self.tr("paired tests")}

        def work(ctx: Any) -> Any:
            options = CompareOptions(test=test, holm=holm, short_bleu=short_bleu)
            return compare_workspace_runs(ws, runs, baseline, options,
                                          on_progress=lambda d, t, s: ctx.progress(d, t, stages.get(s, s)))

        self.compute_task.start(work, on_done=self._computed, workspace=ws)

    def _computed(self, comparison: Any) -> None:
        self.comparison = comparison
        self.export_button.setEnabled(True)
        self._show(comparison)

    def export(self, path: str | Path, fmt: str | None = None) -> Path:
        """Write the comparison shown as a table (LaTeX, Markdown or CSV by the file name, or ``fmt``)."""
        from mteval_gui.app.tables import export_comparison

        if self.comparison is None:
            raise ValueError("nothing compared yet")
        labels = workspace.run_labels(self.ws) if self.ws else {}
        return export_comparison(self.comparison, path, labels, fmt)[0]

    def export_dialog(self) -> None:
        """Ask for a file and write the comparison table (LaTeX, Markdown or CSV)."""
        from mteval_gui.qt.dialogs import reporting_errors

        if self.comparison is None:
            return
        from mteval_gui.qt.exports import ask_table_path

        path = ask_table_path(self, self.tr("Export comparison table"), f"compare-{self.comparison.baseline}.tex")
        if not path:
            return
        with reporting_errors(self) as report:
            self.export(path)
        window = self.window()
        if not report.failed and isinstance(window, QMainWindow):
            window.statusBar().showMessage(self.tr("Comparison table written to {0}").format(path), 8000)

    def _show(self, c: Any) -> None:
        labels = workspace.run_labels(self.ws) if self.ws else {}
        self.model.set_comparison(c, labels)
        self.table.resizeColumnsToContents()
        for i in range(self.model.columnCount()):
            self.table.setColumnWidth(i, min(self.table.columnWidth(i), 260))
        warnings = [f"⚠ {caveat_title(cv.code)}: {caveat_explanation(cv.code, cv.message)}" for cv in c.caveats]
        self.caveats.setText("\n".join(warnings))
        test = self.test.currentText()
        skipped = "; ".join(f"{score_label(k)}: {why}" for k, why in c.skipped.items())
        self.note.setText(self.tr("{0}, {1} trials, seed {2}{3}. Δ = run − baseline (hover for its 95 % interval); "
                                  "bold p-values are below 0.05, green better and red worse than the baseline.").format(
            test, c.trials, c.seed, self.tr(", Holm-corrected") if c.holm else "")
            + (("\n" + self.tr("Not compared: {0}").format(skipped)) if skipped else ""))


@dataclass(frozen=True)
class CompareRow:
    """One system of a comparison (the baseline is the first row)."""

    run_id: str
    label: str
    baseline: bool


class CompareModel(ColumnTableModel[CompareRow]):
    """Systems as rows (baseline first), metrics as column groups: value [95 % CI], Δ, p.

    Sorting by a column keeps the baseline on top: the other systems are ordered below it.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(key=lambda r: r.run_id, parent=parent)
        self.comparison: Any = None
        self.set_columns([Column("system", self.tr("System"), lambda r: r.label.casefold())])

    def set_comparison(self, c: Any, labels: dict[str, str]) -> None:
        self.comparison = c
        cols: list[Column[CompareRow]] = [
            Column("system", self.tr("System"), lambda r: (not r.baseline, r.label.casefold()),
                   text=lambda r: self.tr("{0} (baseline)").format(r.label) if r.baseline else r.label,
                   tooltip=lambda r: r.run_id, bold=False)]
        for i, key in enumerate(c.metrics):
            cols += self._metric_columns(c, key, GROUP_TINTS[i % 2])
        rows = [CompareRow(c.baseline, labels.get(c.baseline, c.baseline), True)]
        rows += [CompareRow(r, labels.get(r, r), False) for r in c.runs]
        self.set_columns(cols)
        self.set_rows(rows)

    def _metric_columns(self, c: Any, key: str, tint: str) -> list[Column[CompareRow]]:
        """The value [CI], Δ and p columns of the metric ``key``."""
        name = score_label(key)
        return [
            Column(f"{key}:value", self.tr("{0} [95 % CI]").format(name),
                   lambda r: c.scores[r.run_id][key][0], text=lambda r: self._value_text(r, key),
                   background=lambda r: tint, numeric=True,
                   header_tip=self.tr("{0} of each system with its 95 % bootstrap interval").format(name)),
            Column(f"{key}:delta", self.tr("Δ"), lambda r: self._delta(r, key),
                   text=lambda r: self._delta_text(r, key), tooltip=lambda r: self._delta_tip(r, key),
                   foreground=lambda r: self._colour(r, key), background=lambda r: tint, numeric=True,
                   header_tip=self.tr("{0}: difference from the baseline (run − baseline)").format(name)),
            Column(f"{key}:p", self.tr("p"), lambda r: self._p(r, key),
                   text=lambda r: "" if r.baseline else _p_text(self._p(r, key)),
                   tooltip=lambda r: self._p_tip(r, key), foreground=lambda r: self._colour(r, key),
                   background=lambda r: tint, numeric=True,
                   header_tip=self.tr("{0}: p-value of the paired test against the baseline").format(name)),
        ]

    def _apply_sort(self) -> None:
        super()._apply_sort()
        self.rows.sort(key=lambda r: not r.baseline)  # stable: the baseline first, the order kept below it

    def _result(self, r: CompareRow, key: str) -> Any:
        return None if r.baseline else self.comparison.results[r.run_id][key]

    def _delta(self, r: CompareRow, key: str) -> float | None:
        res = self._result(r, key)
        return None if res is None else res.delta

    def _p(self, r: CompareRow, key: str) -> float | None:
        return None if r.baseline else shown_p(self.comparison, r.run_id, key)

    def _value_text(self, r: CompareRow, key: str) -> str:
        score, lo, hi = self.comparison.scores[r.run_id][key]
        ci = f" [{_fmt(key, lo)}–{_fmt(key, hi)}]" if lo is not None and hi is not None else ""
        return _fmt(key, score) + ci

    def _delta_text(self, r: CompareRow, key: str) -> str:
        if r.baseline:
            return ""
        d = self._delta(r, key)
        return "—" if d is None else _signed(key, d)

    def _delta_tip(self, r: CompareRow, key: str) -> str | None:
        res = self._result(r, key)
        if res is None or res.ci_lower is None or res.ci_upper is None:
            return None
        return self.tr("95 % interval of the difference: {0} to {1}").format(_signed(key, res.ci_lower),
                                                                            _signed(key, res.ci_upper))

    def _significant(self, r: CompareRow, key: str) -> bool | None:
        """True: significantly better than the baseline, False: worse, None: not significant
        (:func:`mteval_gui.app.compare.significance`, which the exported tables mark too)."""
        mark = None if r.baseline else significance(self.comparison, r.run_id, key)
        return None if mark is None else mark == "better"

    def _colour(self, r: CompareRow, key: str) -> str | None:
        better = self._significant(r, key)
        return None if better is None else ("#1b5e20" if better else "#8b0000")

    def _p_tip(self, r: CompareRow, key: str) -> str | None:
        better = self._significant(r, key)
        if better is None:
            return None
        return self.tr("significantly better than the baseline") if better else \
            self.tr("significantly worse than the baseline")

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.FontRole and index.isValid() and 0 <= index.row() < len(self.rows):
            col = self.columns[index.column()]
            row = self.rows[index.row()]
            if col.key == "system" and row.baseline:
                return self._bold
            if col.key.endswith(":p") and self._significant(row, col.key[:-2]) is not None:
                return self._bold
        return super().data(index, role)


def _signed(key: str, v: float) -> str:
    return f"{v:+.2f}" if key in _SCALED_100 else f"{v:+.4f}"


def _p_text(p: float | None) -> str:
    if p is None:
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
