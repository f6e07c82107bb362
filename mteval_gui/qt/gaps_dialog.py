"""File > Analyzer gaps: the words the strict analyzer rejects, for the analyzer's maintainers.

The dialog asks for corpora (their references are read) and runs of those corpora (their
outputs, and the speakers' Task C answers on them), then builds the report in the background
(:func:`mteval_gui.app.gaps.collect_gaps`, what ``mteval analyzers gaps`` calls): one row per
word, most frequent first, with its counts, kind, the speakers' verdicts and the descriptive
analyzer's guess; the selected word's kind rule and example sentences below. *Export missing
words…* and *Export morph-test YAML…* write the GiellaLT files from the answers of reviewers
whose consent allows sharing; *Compare analyzers…* gives the false-rejection rate of the runs'
judged words with two analyzer files.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.gaps import (
    GapInputs,
    collect_gaps,
    compare_analyzers,
    gap_words,
    write_missing_list,
    write_morph_tests,
)
from mteval_gui.qt import dialogs, file_dialogs
from mteval_gui.qt.background import BackgroundTask, BusyBar
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP

KIND_NAMES = {"loanword": QT_TRANSLATE_NOOP("GapsDialog", "loanword"),
              "name": QT_TRANSLATE_NOOP("GapsDialog", "name"),
              "dialectal": QT_TRANSLATE_NOOP("GapsDialog", "dialectal"),
              "typo": QT_TRANSLATE_NOOP("GapsDialog", "typo"),
              "unknown": QT_TRANSLATE_NOOP("GapsDialog", "unknown")}
# the rules of mteval_gui.validation.gaps.RULES, translated ({0}: the speakers' kind, the tag or the near word)
RULE_TEXTS = {"speakers": QT_TRANSLATE_NOOP("GapsDialog", "speakers: {0}"),
              "loanword_list": QT_TRANSLATE_NOOP("GapsDialog", "the language card's loanword list"),
              "proper_noun": QT_TRANSLATE_NOOP("GapsDialog", "descriptive analyzer: proper noun (+Prop)"),
              "dialect_tag": QT_TRANSLATE_NOOP("GapsDialog", "descriptive analyzer: +{0}"),
              "error_tag": QT_TRANSLATE_NOOP("GapsDialog", "descriptive analyzer: +{0}"),
              "capitalised": QT_TRANSLATE_NOOP("GapsDialog", "capitalised inside a sentence"),
              "diacritics": QT_TRANSLATE_NOOP("GapsDialog", "the accepted word {0} with other diacritics"),
              "one_edit": QT_TRANSLATE_NOOP("GapsDialog", "one edit from the accepted word {0}"),
              "none": QT_TRANSLATE_NOOP("GapsDialog", "no rule applies")}


def _checked(widget: QListWidget) -> list[str]:
    return [widget.item(i).data(Qt.ItemDataRole.UserRole) for i in range(widget.count())
            if widget.item(i).checkState() == Qt.CheckState.Checked]


class GapsDialog(QDialog):
    """Corpora and runs in, the ranked words out, with the GiellaLT exports."""

    def __init__(self, ws: Any, selected_runs: list[str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("gapsDialog")
        self.setWindowTitle(self.tr("Analyzer gaps"))
        self.resize(1000, 700)
        self.ws = ws
        self.inputs: GapInputs | None = None
        self.words: list[Any] = []
        lay = QVBoxLayout(self)
        intro = QLabel(self.tr("Words the strict analyzer rejects in the references of the chosen corpora and the "
                               "outputs of the chosen runs, most frequent first. The exports hold only the answers "
                               "of reviewers whose consent allows sharing."))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        pick = QHBoxLayout()
        self.corpora = QListWidget()
        self.corpora.setObjectName("gapsCorpora")
        self.runs = QListWidget()
        self.runs.setObjectName("gapsRuns")
        chosen = set(selected_runs or [])
        run_rows = workspace.list_runs(ws)
        corpora_of_chosen = {r["corpus_id"] for r in run_rows if r["run_id"] in chosen}
        for c in workspace.list_corpora(ws):
            item = QListWidgetItem(f"{c['corpus_id']} ({c['target_lang']})")
            item.setData(Qt.ItemDataRole.UserRole, c["corpus_id"])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if c["corpus_id"] in corpora_of_chosen
                               else Qt.CheckState.Unchecked)
            self.corpora.addItem(item)
        labels = workspace.run_labels(ws)
        for r in run_rows:
            label = labels.get(r["run_id"], r["run_id"])
            item = QListWidgetItem(label if label == r["run_id"] else f"{label} ({r['run_id']})")
            item.setData(Qt.ItemDataRole.UserRole, r["run_id"])
            item.setData(Qt.ItemDataRole.UserRole + 1, r["corpus_id"])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if r["run_id"] in chosen else Qt.CheckState.Unchecked)
            self.runs.addItem(item)
        for title, widget in ((self.tr("Corpora (references)"), self.corpora),
                              (self.tr("Runs (outputs and Task C answers)"), self.runs)):
            widget.setMaximumHeight(150)
            box = QVBoxLayout()
            box.addWidget(QLabel(title))
            box.addWidget(widget)
            pick.addLayout(box)
        lay.addLayout(pick)
        buttons = QHBoxLayout()
        self.build_button = QPushButton(self.tr("Build report"))
        self.build_button.setObjectName("gapsBuild")
        self.build_button.clicked.connect(self.build)
        self.missing_button = QPushButton(self.tr("Export missing words…"))
        self.missing_button.setObjectName("gapsExportMissing")
        self.missing_button.setToolTip(self.tr("GiellaLT missing-words list: each word after its count"))
        self.missing_button.clicked.connect(self.export_missing)
        self.yaml_button = QPushButton(self.tr("Export morph-test YAML…"))
        self.yaml_button.setObjectName("gapsExportYaml")
        self.yaml_button.setToolTip(self.tr("GiellaLT morph-test cases for the words speakers confirmed"))
        self.yaml_button.clicked.connect(self.export_yaml)
        self.compare_button = QPushButton(self.tr("Compare analyzers…"))
        self.compare_button.setObjectName("gapsCompare")
        self.compare_button.setToolTip(self.tr("False-rejection rate of the runs' judged words with two analyzer "
                                               "files (before and after installing a new one)"))
        self.compare_button.clicked.connect(self.compare)
        for b in (self.build_button, self.missing_button, self.yaml_button, self.compare_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        self.busy = BusyBar(self)
        lay.addWidget(self.busy)
        self.summary = QLabel("")
        self.summary.setObjectName("gapsSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.summary)
        split = QSplitter(Qt.Orientation.Vertical)
        self.table = QTableWidget(0, 8)
        self.table.setObjectName("gapsTable")
        self.table.setHorizontalHeaderLabels([
            self.tr("Rank"), self.tr("Word"), self.tr("Count"), self.tr("References"), self.tr("Outputs"),
            self.tr("Kind"), self.tr("Speakers (valid/invalid/unsure)"), self.tr("Descriptive analyzer")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)  # the rank is the first column
        self.table.itemSelectionChanged.connect(self._show_selected)
        split.addWidget(self.table)
        self.detail = QTextBrowser()
        self.detail.setObjectName("gapsDetail")
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        lay.addWidget(split, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        lay.addWidget(close)
        self.task = BackgroundTask(self, "gaps", busy=self.busy, title=self.tr("Looking up the words…"))
        self._enable()

    def chosen_corpora(self) -> list[str]:
        return _checked(self.corpora)

    def chosen_runs(self) -> list[str]:
        return _checked(self.runs)

    def _enable(self) -> None:
        for b in (self.missing_button, self.yaml_button):
            b.setEnabled(self.inputs is not None)

    def build(self) -> None:
        """Build the report of the chosen corpora and runs in the background."""
        corpora, runs = self.chosen_corpora(), self.chosen_runs()
        if not corpora:
            dialogs.inform(self, self.tr("Analyzer gaps"), self.tr("Choose at least one corpus."))
            return
        ws = self.ws
        self.summary.setText(self.tr("Looking up the words…"))

        def work(ctx: Any) -> tuple[GapInputs, list[Any]]:
            inputs = collect_gaps(ws, corpora, runs)
            ctx.check()
            return inputs, gap_words(inputs)

        self.task.start(work, on_done=self._built, on_error=self._failed, workspace=ws)

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText("")
        dialogs.show_error(self, exc)

    def _built(self, result: tuple[GapInputs, list[Any]]) -> None:
        self.inputs, self.words = result
        self._enable()
        inputs = self.inputs
        text = self.tr("{0} words the {1} strict analyzer rejects in {2} texts ({3} occurrences).").format(
            len(self.words), inputs.lang, inputs.texts, sum(g.count for g in self.words))
        if inputs.descriptive is None:
            text += " " + self.tr("No descriptive analyzer is installed: no guesses.")
        self.summary.setText(text)
        self.table.setRowCount(len(self.words))
        for row, g in enumerate(self.words):
            v = g.verdicts
            said = f"{v.valid} / {v.invalid} / {v.unresolved}" if v.judged else "—"
            cells = [str(row + 1), g.word, str(g.count), str(g.references), str(g.outputs),
                     QCoreApplication.translate("GapsDialog", KIND_NAMES[g.kind]), said,
                     ", ".join(g.descriptive) or "—"]
            for col, value in enumerate(cells):
                item = QTableWidgetItem(value)
                if col in (0, 2, 3, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        if self.words:
            self.table.selectRow(0)
        else:
            self.detail.clear()

    def _show_selected(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        if not rows or not self.words:
            return
        g = self.words[min(rows)]
        reason = QCoreApplication.translate("GapsDialog", RULE_TEXTS[g.rule]).format(g.detail)
        kind = self.tr("kind: {0} ({1})").format(QCoreApplication.translate("GapsDialog", KIND_NAMES[g.kind]), reason)
        parts = [f"<p><b>{html.escape(g.word)}</b> — {html.escape(kind)}</p><ul>"]
        for o in g.examples:
            where = (self.tr("reference {0}").format(o.entry_id) if o.run_id is None
                     else self.tr("output {0} of {1}").format(o.entry_id, o.run_id))
            parts.append(f"<li><i>{html.escape(where)}</i>: {html.escape(o.text)}</li>")
        parts.append("</ul>")
        self.detail.setHtml("".join(parts))

    def _save(self, caption: str, name: str, filters: str) -> str:
        path, _ = file_dialogs.save_file_name(self, caption, str(Path.home() / name), filters)
        return path

    def export_missing(self) -> None:
        if self.inputs is None:
            return
        path = self._save(self.tr("Export missing words"), f"{self.inputs.lang}-missing.txt",
                          self.tr("Text (*.txt)"))
        if not path:
            return
        self.write_missing(path)

    def write_missing(self, path: str | Path) -> None:
        assert self.inputs is not None
        with reporting_errors(self) as report:
            n = write_missing_list(self.inputs, path)
        if not report.failed:
            self.summary.setText(self.tr("Wrote {0} words to {1}.").format(n, path))

    def export_yaml(self) -> None:
        if self.inputs is None:
            return
        path = self._save(self.tr("Export morph-test YAML"), f"{self.inputs.lang}-speaker-confirmed.yaml",
                          self.tr("YAML (*.yaml)"))
        if not path:
            return
        self.write_yaml(path)

    def write_yaml(self, path: str | Path) -> None:
        assert self.inputs is not None
        with reporting_errors(self) as report:
            n = write_morph_tests(self.inputs, path)
        if not report.failed:
            self.summary.setText(self.tr("Wrote {0} confirmed words to {1}.").format(n, path))

    def compare(self) -> None:
        runs = self.chosen_runs()
        if not runs:
            dialogs.inform(self, self.tr("Compare analyzers"), self.tr("Choose the runs whose Task C answers are "
                                                                       "compared."))
            return
        filters = self.tr("HFST analyzers (*.hfstol)")
        old, _ = file_dialogs.open_file_name(self, self.tr("The old analyzer"), str(Path.home()), filters)
        if not old:
            return
        new, _ = file_dialogs.open_file_name(self, self.tr("The new analyzer"), str(Path(old).parent), filters)
        if not new:
            return
        self.compare_files(runs, old, new)

    def compare_files(self, runs: list[str], old: str | Path, new: str | Path) -> str | None:
        with reporting_errors(self, busy=True) as report:
            c = compare_analyzers(self.ws, runs, old, new)
        if report.failed:
            return None
        text = self.comparison_text(c, old, new)
        dialogs.inform(self, self.tr("Compare analyzers"), text)
        return text

    def comparison_text(self, c: Any, old: str | Path, new: str | Path) -> str:
        def rate(p: Any) -> str:
            if p.value is None:
                return self.tr("n/a (no judged word rejected)")
            return f"{p.value:.3f} [{p.ci_lower:.3f}, {p.ci_upper:.3f}] ({p.successes}/{p.n})"

        return "\n".join([
            self.tr("False-rejection rate of the words speakers judged (Task C; Wilson 95% CI):"),
            self.tr("before ({0}): {1}").format(Path(old).name, rate(c.old)),
            self.tr("after ({0}): {1}").format(Path(new).name, rate(c.new)),
            self.tr("valid words the new analyzer accepts: {0}; words judged invalid it accepts: {1}").format(
                c.fixed, c.newly_accepted_invalid)])

    def done(self, result: int) -> None:  # noqa: D401 (Qt override)
        self.task.shutdown()
        super().done(result)


def show_gaps(window: Any) -> None:
    if window.ws is None:
        return
    GapsDialog(window.ws, window.runs_view.selected_run_ids(), window).exec()
