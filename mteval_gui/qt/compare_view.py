"""Compare runs: every run against a chosen baseline with paired significance tests.

The table lists, per metric, each run's value with its 95 % bootstrap interval and, for
the other runs, the difference from the baseline with its interval and the p-value of the
paired test (approximate randomisation or paired bootstrap, Holm-corrected on request),
all computed by :func:`mteval_gui.app.compare.compare_workspace_runs` from the stored per-entry
statistics, in the background (the page's busy bar shows it). Caveats (e.g. different metric
coverage) are shown above the table.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt.labels import caveat_explanation, caveat_title, score_label
from mteval_gui.qt.page import EmptyState, Page

SIGNIFICANT = 0.05
LOWER_IS_BETTER = frozenset({"ter", "code_switching_rate", "hallucination_rate"})


def _fmt(key: str, v: float | None) -> str:
    if v is None:
        return "—"
    if key in ("chrf_plus_plus", "bleu", "ter"):
        return f"{v:.2f}"
    return f"{v:.4f}"


class CompareView(Page):
    show_entries = Signal(list)  # run ids, side by side in the entries tab

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
        self.run_button = QPushButton(self.tr("Compare"))
        self.run_button.setObjectName("compareButton")
        self.run_button.clicked.connect(self.compute)
        bar.addWidget(self.run_button)
        bar.addStretch(1)
        self.entries_button = QPushButton(self.tr("Entries side by side"))
        self.entries_button.clicked.connect(lambda: self.show_entries.emit(list(self.run_ids)))
        bar.addWidget(self.entries_button)
        lay.addLayout(bar)
        self.caveats = QLabel()
        self.caveats.setObjectName("compareCaveats")
        self.caveats.setWordWrap(True)
        lay.addWidget(self.caveats)
        self.table = QTableWidget()
        self.table.setObjectName("compareTable")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
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
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.caveats.setText("")
        self.note.setText(self.tr("Select two or more scored runs of one corpus in the Runs tab and press Compare."))
        self.run_button.setEnabled(bool(self.run_ids))
        self.entries_button.setEnabled(bool(self.run_ids))
        self.update_empty()

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
        from mteval_gui.app.compare import compare_workspace_runs

        ws, runs, baseline = self.ws, list(self.run_ids), self.baseline.currentData()
        test, holm = self.test.currentData(), self.holm.isChecked()
        self.compute_task.start(lambda ctx: compare_workspace_runs(ws, runs, baseline, test=test, holm=holm),
                                on_done=self._computed, workspace=ws)

    def _computed(self, comparison: Any) -> None:
        self.comparison = comparison
        self._show(comparison)

    def _show(self, c: Any) -> None:
        runs = [c.baseline, *c.runs]
        labels = workspace.run_labels(self.ws) if self.ws else {}
        headers = [self.tr("Metric"), self.tr("{0} (baseline)").format(labels.get(c.baseline, c.baseline))]
        for r in c.runs:
            headers += [labels.get(r, r), self.tr("Δ vs baseline [95 % CI]"), self.tr("p")]
        self.table.clear()
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(c.metrics))
        bold = QFont()
        bold.setBold(True)
        for row, key in enumerate(c.metrics):
            self.table.setItem(row, 0, QTableWidgetItem(score_label(key)))
            col = 1
            for r in runs:
                score, lo, hi = c.scores[r][key]
                ci = f"  [{_fmt(key, lo)}–{_fmt(key, hi)}]" if lo is not None and hi is not None else ""
                text = _fmt(key, score) + ci
                self.table.setItem(row, col, QTableWidgetItem(text))
                col += 1
                if r == c.baseline:
                    continue
                res = c.results[r][key]
                diff, dlo, dhi = res.delta, res.ci_lower, res.ci_upper
                dtext = ("—" if diff is None else f"{diff:+.4f}") + (
                    f"  [{dlo:+.3f}, {dhi:+.3f}]" if dlo is not None and dhi is not None else "")
                self.table.setItem(row, col, QTableWidgetItem(dtext))
                p = res.p_adjusted if c.holm and res.p_adjusted is not None else res.p_value
                pitem = QTableWidgetItem("—" if p is None else f"{p:.4f}")
                if p is not None and p < SIGNIFICANT:
                    pitem.setFont(bold)
                    better = (diff or 0) < 0 if key in LOWER_IS_BETTER else (diff or 0) > 0
                    pitem.setForeground(QBrush(QColor("#1b5e20" if better else "#8b0000")))
                    pitem.setToolTip(self.tr("significantly better than the baseline") if better
                                     else self.tr("significantly worse than the baseline"))
                self.table.setItem(row, col + 1, pitem)
                col += 2
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        warnings = [f"⚠ {caveat_title(cv.code)}: {caveat_explanation(cv.code, cv.message)}" for cv in c.caveats]
        self.caveats.setText("\n".join(warnings))
        test = self.test.currentText()
        skipped = "; ".join(f"{score_label(k)}: {why}" for k, why in c.skipped.items())
        self.note.setText(self.tr("{0}, {1} trials, seed {2}{3}. Bold p-values are below 0.05.").format(
            test, c.trials, c.seed, self.tr(", Holm-corrected") if c.holm else "")
            + (("\n" + self.tr("Not compared: {0}").format(skipped)) if skipped else ""))
