"""File > Export > Review pack: one offline HTML file for a speaker; File > Import judgments merges its answers.

The dialog asks for the runs, the reviewer, the task, how many items, how they are chosen
(first, random, stratified, informative), how many attention checks and repeated items a task A
pack carries, and whether the pack is blind, then calls
:func:`mteval_gui.app.review_pack.export_review_pack` (what ``mteval review-pack export`` calls). Importing goes through
:func:`mteval_gui.app.judgment_files.import_judgments_file`, which recognises a pack's answers file
and refuses, with the reason, answers from another pack or altered ones. Judgments of a
reviewer who withdrew consent are skipped; a notice names the withdrawal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.judgment_files import import_judgments_file
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.review import list_reviewers
from mteval_gui.app.review_pack import export_review_pack, pack_scripts
from mteval_gui.qt import dialogs, file_dialogs
from mteval_gui.qt.dialogs import reporting_errors


class ReviewPackDialog(QDialog):
    """Runs, reviewer, task, number of items, blind: what a review pack holds."""

    def __init__(self, ws: Any, selected_runs: list[str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export review pack"))
        self.ws = ws
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.runs = QListWidget()
        self.runs.setObjectName("packRuns")
        for run_id, label in workspace.run_labels(ws).items():
            item = QListWidgetItem(label if label == run_id else f"{label} ({run_id})")
            item.setData(Qt.ItemDataRole.UserRole, run_id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if run_id in (selected_runs or []) else Qt.CheckState.Unchecked)
            self.runs.addItem(item)
        form.addRow(self.tr("Runs:"), self.runs)
        self.reviewer = QComboBox()
        self.reviewer.setObjectName("packReviewer")
        for r in list_reviewers(ws):
            self.reviewer.addItem(r.name if r.name == r.reviewer_id else f"{r.name} ({r.reviewer_id})", r.reviewer_id)
        form.addRow(self.tr("Reviewer:"), self.reviewer)
        self.task = QComboBox()
        self.task.setObjectName("packTask")
        for code, label in (("a", self.tr("A: adequacy and fluency, error spans, corrections")),
                            ("b", self.tr("B: linter audit (pairs called EQUIVALENT)")),
                            ("c", self.tr("C: FST audit (rejected words)"))):
            self.task.addItem(label, code)
        form.addRow(self.tr("Task:"), self.task)
        self.entries = QSpinBox()
        self.entries.setObjectName("packEntries")
        self.entries.setRange(0, 1_000_000)
        self.entries.setSpecialValueText(self.tr("all"))
        self.entries.setValue(50)
        form.addRow(self.tr("Items:"), self.entries)
        self.select = QComboBox()
        self.select.setObjectName("packSelect")
        for code, label in (("first", self.tr("first (corpus order)")), ("random", self.tr("random")),
                            ("stratified", self.tr("stratified by system, difficulty and FST verdict")),
                            ("informative", self.tr("informative (metrics disagree, new FST verdicts, systems "
                                                    "separated)"))):
            self.select.addItem(label, code)
        form.addRow(self.tr("Choose items:"), self.select)
        self.checks = QSpinBox()
        self.checks.setObjectName("packChecks")
        self.checks.setRange(0, 1000)
        self.checks.setToolTip(self.tr("Known-bad outputs (shuffled words, a wrong sentence, truncated) among the "
                                       "real items; only the workspace can tell them apart. A reviewer who rates "
                                       "them as high as the real ones is flagged in Validation."))
        form.addRow(self.tr("Attention checks:"), self.checks)
        self.repeats = QSpinBox()
        self.repeats.setObjectName("packRepeats")
        self.repeats.setRange(0, 1000)
        self.repeats.setToolTip(self.tr("Items shown a second time, to measure the reviewer's self-consistency."))
        form.addRow(self.tr("Repeated items:"), self.repeats)
        self.task.currentIndexChanged.connect(self._task_changed)
        self.blind = QCheckBox(self.tr("Blind (hide the reference and the systems, shuffle)"))
        self.blind.setObjectName("packBlind")
        form.addRow("", self.blind)
        self.language = QComboBox()
        for lang, label in ((None, self.tr("the reviewer's browser")), ("en", "English"), ("fr", "Français")):
            self.language.addItem(label, lang)
        form.addRow(self.tr("Interface:"), self.language)
        self.script = QComboBox()
        self.script.setObjectName("packScript")
        self.script.setToolTip(self.tr("The script the pack shows the reference in first (the page switches)"))
        self.script_label = QLabel(self.tr("Reference in:"))
        form.addRow(self.script_label, self.script)
        self.runs.itemChanged.connect(lambda _item: self._fill_scripts())
        self._fill_scripts()
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _task_changed(self, *_: object) -> None:
        rating = self.task.currentData() == "a"  # selection and checks are for ratings (task A)
        for w in (self.select, self.checks, self.repeats):
            w.setEnabled(rating)

    def _fill_scripts(self) -> None:
        """The scripts of the chosen runs' language (the card's transliterations), the reviewer's
        choice in the review pane first."""
        lang, scripts = pack_scripts(self.ws, self.chosen_runs())
        current = self.script.currentData() or AppSettings.load().reference_scripts.get(lang or "")
        self.script.clear()
        self.script.addItem(self.tr("as written"), None)
        for sc in scripts:
            self.script.addItem(sc, sc)
        idx = self.script.findData(current) if current else 0
        self.script.setCurrentIndex(max(idx, 0))
        self.script.setVisible(bool(scripts))
        self.script_label.setVisible(bool(scripts))

    def chosen_runs(self) -> list[str]:
        return [self.runs.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.runs.count())
                if self.runs.item(i).checkState() == Qt.CheckState.Checked]

    def options(self) -> dict[str, Any]:
        return {"run_ids": self.chosen_runs(), "reviewer_id": self.reviewer.currentData(),
                "task": self.task.currentData(), "entries": self.entries.value() or None,
                "blind": self.blind.isChecked(), "ui_lang": self.language.currentData(),
                "reference_script": self.script.currentData(),
                **({"select": self.select.currentData(), "checks": self.checks.value(),
                    "repeats": self.repeats.value()} if self.task.currentData() == "a" else
                   {"select": "first", "checks": 0, "repeats": 0})}

    def export_to(self, path: str | Path) -> Any:
        o = self.options()
        return export_review_pack(self.ws, o["run_ids"], o["reviewer_id"] or "", path, task=o["task"],
                                  entries=o["entries"], blind=o["blind"], ui_lang=o["ui_lang"], select=o["select"],
                                  checks=o["checks"], repeats=o["repeats"], reference_script=o["reference_script"])


def export_pack(window: Any) -> None:
    if window.ws is None:
        return
    dialog = ReviewPackDialog(window.ws, window.runs_view.selected_run_ids(), window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return
    reviewer = dialog.reviewer.currentData() or "reviewer"
    path, _ = file_dialogs.save_file_name(window, QCoreApplication.translate(
        "ReviewPackDialog", "Export review pack"),
                                          f"review-{reviewer}.html", QCoreApplication.translate(
        "ReviewPackDialog", "HTML (*.html)"))
    if not path:
        return
    with reporting_errors(window) as report:
        done = dialog.export_to(path)
    if report.failed:
        return
    window.statusBar().showMessage(QCoreApplication.translate(
        "ReviewPackDialog", "Review pack {0} written to {1} ({2} items, {3} KiB)").format(
        done.pack_id, done.path, done.items, done.bytes // 1024), 10000)


def import_judgments(window: Any) -> None:
    if window.ws is None:
        return
    path, _ = file_dialogs.open_file_name(window, QCoreApplication.translate(
        "ReviewPackDialog", "Import judgments or review-pack answers"), "",
                                          QCoreApplication.translate(
        "ReviewPackDialog", "Judgments (*.json *.csv)"))
    if not path:
        return
    with reporting_errors(window) as report:
        summary = import_judgments_file(window.ws, path)
    if report.failed:
        return
    shown = QCoreApplication.translate("ReviewPackDialog", "Imported {0} judgments ({1} already present)").format(
        summary["judgments_added"], summary["judgments_unchanged"])
    if "benchmark_ratings_added" in summary:
        shown += QCoreApplication.translate(
            "ReviewPackDialog", "; {0} ratings of benchmark responses ({1} already present)").format(
            summary["benchmark_ratings_added"], summary["benchmark_ratings_unchanged"])
    window.statusBar().showMessage(shown, 10000)
    if summary.get("notices"):
        dialogs.inform(window, QCoreApplication.translate("ReviewPackDialog", "Withdrawn judgments skipped"),
                       "\n".join(summary["notices"]))
    window.refresh_runs()  # review counts and the pending-review badges
