"""Import dialog for corpora, runs, glossaries and analyzers.

Pick a file (or drop it on the dialog); the format is detected and the first rows are
previewed. Importing reads and checks the whole file first
(:mod:`mteval_gui.app.imports`): a rejected file shows its complete defect list
(``file:line[:column]: message``) in the dialog and nothing is written to the workspace.
The import runs in a worker thread (its own SQLite connection) with a progress bar, so a
100,000-line file does not freeze the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QCloseEvent, QColor, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.tasks import JobOutcome
from mteval_gui.app.workspace import Workspace
from mteval_gui.errors import InputError, MtevalError
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.background import BackgroundTask
from mteval_gui.qt.dialogs import defect_text, describe_error

KINDS = ("corpus", "run", "glossary", "analyzer")
PREVIEW_ROWS = 10


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (list, dict)):
        import json

        return json.dumps(v, ensure_ascii=False)
    s = str(v)
    return s if len(s) <= 200 else s[:197] + "…"


class ImportDialog(QDialog):
    # per workspace, the corpus the last run import of this process was for (None: named in the file)
    last_run_corpus: dict[str, str | None] = {}  # noqa: RUF012 (shared on purpose)
    import_finished = Signal(object)  # JobOutcome

    def __init__(self, ws: Workspace, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        if kind not in KINDS:
            raise ValueError(kind)
        self.ws = ws
        self.kind = kind
        self.result_summary: str | None = None
        self.imported: Any = None
        self._done = False
        self.setObjectName("importDialog")
        self.setAcceptDrops(True)
        titles = {"corpus": self.tr("Import corpus"), "run": self.tr("Import run"),
                  "glossary": self.tr("Import glossary"), "analyzer": self.tr("Install analyzer")}
        self.setWindowTitle(titles[kind])
        self.resize(900, 620)
        lay = QVBoxLayout(self)
        hint = QLabel(self.tr("Choose a file or drop it here."))
        hint.setObjectName("dropHint")
        lay.addWidget(hint)

        form = QFormLayout()
        row = QHBoxLayout()
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("pathEdit")
        self.path_edit.editingFinished.connect(self.refresh_preview)
        row.addWidget(self.path_edit, 1)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self.browse)
        row.addWidget(browse)
        form.addRow(self.tr("File:"), row)

        self.format_combo = QComboBox()
        self.format_combo.setObjectName("formatCombo")
        self.format_combo.addItem(self.tr("detect"), None)
        for fmt in self._formats():
            self.format_combo.addItem(fmt, fmt)
        self.format_combo.currentIndexChanged.connect(self.refresh_preview)
        if kind != "analyzer":
            form.addRow(self.tr("Format:"), self.format_combo)

        self.ref_edit = QLineEdit()
        self.ref_edit.setPlaceholderText(self.tr("reference file, line-aligned (plain text corpora)"))
        self.id_edit = QLineEdit()
        self.id_edit.setObjectName("idEdit")
        self.src_edit = QLineEdit()
        self.tgt_edit = QLineEdit()
        self.corpus_combo = QComboBox()
        self.corpus_combo.setObjectName("corpusChoice")
        self.model_edit = QLineEdit()
        self.lang_combo = QComboBox()
        if kind == "corpus":
            self.id_edit.setPlaceholderText(self.tr("from the file"))
            self.src_edit.setPlaceholderText(self.tr("e.g. eng"))
            self.tgt_edit.setPlaceholderText(self.tr("e.g. crk"))
            form.addRow(self.tr("Reference file:"), self.ref_edit)
            form.addRow(self.tr("Corpus id:"), self.id_edit)
            form.addRow(self.tr("Source language:"), self.src_edit)
            form.addRow(self.tr("Target language:"), self.tgt_edit)
        elif kind == "run":
            self.corpus_combo.addItem(self.tr("named in the file"), None)
            corpora = [c["corpus_id"] for c in workspace.list_corpora(ws)]
            for cid in corpora:
                self.corpus_combo.addItem(cid, cid)
            # the corpus chosen last time in this workspace, else the only one there is
            remembered = ImportDialog.last_run_corpus.get(str(ws.path))
            default = remembered if remembered in corpora else (corpora[0] if len(corpora) == 1 else None)
            self.corpus_combo.setCurrentIndex(max(self.corpus_combo.findData(default), 0) if default else 0)
            self.id_edit.setPlaceholderText(self.tr("from the file"))
            self.model_edit.setPlaceholderText(self.tr("from the file"))
            form.addRow(self.tr("Corpus:"), self.corpus_combo)
            form.addRow(self.tr("Run id:"), self.id_edit)
            form.addRow(self.tr("Model:"), self.model_edit)
        elif kind == "glossary":
            self.id_edit.setPlaceholderText(self.tr("file name"))
            form.addRow(self.tr("Name:"), self.id_edit)
        else:
            from mteval_gui.app.standards import language_choices

            for code, label in language_choices():
                self.lang_combo.addItem(label, code)
            form.addRow(self.tr("Language:"), self.lang_combo)
        lay.addLayout(form)

        self.summary = QLabel()
        self.summary.setObjectName("previewSummary")
        lay.addWidget(self.summary)
        self.preview = QTableWidget()
        self.preview.setObjectName("previewTable")
        self.preview.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        lay.addWidget(self.preview, 3)
        self.problems_label = QLabel()
        self.problems_label.setObjectName("problemsLabel")
        self.problems_label.setWordWrap(True)
        lay.addWidget(self.problems_label)
        self.problems = QListWidget()
        self.problems.setObjectName("problemsList")
        # a long message wraps onto more lines instead of being cut at the list's edge
        self.problems.setWordWrap(True)
        self.problems.setUniformItemSizes(False)
        self.problems.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.problems.setTextElideMode(Qt.TextElideMode.ElideNone)
        lay.addWidget(self.problems, 2)
        self.progress = QProgressBar()
        self.progress.setObjectName("importProgress")
        self.progress.hide()
        lay.addWidget(self.progress)
        self.import_task = BackgroundTask(self, "import")
        self.import_task.finished.connect(self._finished)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton(self.tr("Import") if kind != "analyzer" else self.tr("Install"),
                                                    QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("importButton")
        self.import_button.setEnabled(False)
        self.buttons.accepted.connect(self.do_import)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def _formats(self) -> tuple[str, ...]:
        from mteval_gui.app.formats import format_choices

        return format_choices(self.kind)

    def file_patterns(self) -> str:
        """The file-name patterns of the formats this dialog imports (``*.jsonl *.json ...``)."""
        from mteval_gui.app.formats import file_patterns

        return file_patterns(self.kind)

    # ----- file choice ---------------------------------------------------------------------
    def browse(self) -> None:
        filters = self.tr("Analyzers (*.hfstol *.deb);;All files (*)") if self.kind == "analyzer" else \
            self.tr("Data files ({0});;All files (*)").format(self.file_patterns())
        path, _ = file_dialogs.open_file_name(self, self.windowTitle(), "", filters)
        if path:
            self.set_path(path)

    def set_path(self, path: str | Path) -> None:
        self.path_edit.setText(str(path))
        self.refresh_preview()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt override)
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt override)
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            self.set_path(files[0])
            if len(files) > 1 and self.kind == "corpus":
                self.ref_edit.setText(files[1])
            event.acceptProposedAction()

    # ----- preview -------------------------------------------------------------------------
    def refresh_preview(self, *_: object) -> None:
        self.problems.clear()
        self.problems_label.setText("")
        self.preview.clear()
        self.preview.setRowCount(0)
        self.preview.setColumnCount(0)
        self._done = False
        self.import_button.setText(self.tr("Import") if self.kind != "analyzer" else self.tr("Install"))
        path = Path(self.path_edit.text().strip()) if self.path_edit.text().strip() else None
        if path is None or not path.is_file():
            self.summary.setText(self.tr("File not found.") if path else "")
            self.import_button.setEnabled(False)
            return
        self.import_button.setEnabled(True)
        if self.kind == "analyzer":
            self.summary.setText(self.tr("{0} ({1:,} bytes)").format(path.name, path.stat().st_size))
            return
        from mteval_gui.app.formats import detect_format
        from mteval_gui.app.imports import preview

        try:
            fmt = self.format_combo.currentData() or detect_format(path, self.kind)
            p = preview(path, PREVIEW_ROWS, fmt)
        except (MtevalError, OSError, ValueError) as exc:  # an unreadable file is shown in the dialog
            self.summary.setText(self.tr("Cannot read the file."))
            self._show_problems(exc)
            return
        total = "?" if p.total is None else f"{p.total:,}"
        self.summary.setText(self.tr("Format {0}, looks like a {1}; {2} records. First rows:").format(
            p.format, p.kind, total))
        if self.kind == "corpus" and p.format == "text":
            self.ref_edit.setEnabled(True)
        cols = list(p.columns)
        self.preview.setColumnCount(len(cols))
        self.preview.setHorizontalHeaderLabels(cols)
        self.preview.setRowCount(len(p.rows))
        for r, rec in enumerate(p.rows):
            for c, key in enumerate(cols):
                self.preview.setItem(r, c, QTableWidgetItem(_cell(rec.get(key))))
        self.preview.resizeColumnsToContents()
        if p.defects:
            self.problems_label.setText(self.tr("{0} problem(s) seen in the first rows:").format(len(p.defects)))
            for d in p.defects:
                self._problem(defect_text(d))

    def _problem(self, text: str, warning: bool = False, *, info: bool = False) -> None:
        """A line of the list: an error (red), a warning (amber) or what was done (the text colour)."""
        item = QListWidgetItem(text)
        item.setToolTip(text)
        if not info:
            item.setForeground(QBrush(QColor("#8a5a00" if warning else "#a00000")))
        self.problems.addItem(item)

    def _show_problems(self, exc: BaseException) -> None:
        text = describe_error(exc)
        self.problems.clear()
        self.problems_label.setText(text.message)
        if isinstance(exc, InputError):
            for d in exc.defects:
                self._problem(defect_text(d))
        elif text.detail:
            for line in text.detail.splitlines():
                self._problem(line)

    # ----- import --------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        text = lambda w: w.text().strip() or None  # noqa: E731
        fmt = self.format_combo.currentData()
        if self.kind == "corpus":
            return {"fmt": fmt, "ref_path": text(self.ref_edit), "corpus_id": text(self.id_edit),
                    "source_lang": text(self.src_edit), "target_lang": text(self.tgt_edit)}
        if self.kind == "run":
            return {"fmt": fmt, "corpus_id": self.corpus_combo.currentData(), "run_id": text(self.id_edit),
                    "model_slug": text(self.model_edit)}
        if self.kind == "glossary":
            return {"fmt": fmt, "name": text(self.id_edit)}
        return {"lang": self.lang_combo.currentData()}

    def run_import(self, ws: Workspace, path: str, opts: dict[str, Any], on_progress=None) -> Any:
        """Read, check and write the file (in the calling thread, no widget access); raises on any defect."""
        from mteval_gui.app import imports as importer

        if self.kind == "corpus":
            return importer.import_corpus_file(ws, path, on_progress=on_progress, **opts)
        if self.kind == "run":
            return importer.import_run_file(ws, path, on_progress=on_progress, **opts)
        if self.kind == "glossary":
            return importer.import_glossary_file(ws, path, **opts)
        from mteval_gui.app.analyzers import InstallOptions, analyzer_root, install

        return install(opts["lang"], path, InstallOptions(root=analyzer_root(ws)))

    def do_import(self) -> None:
        """Start the import in a worker thread; :attr:`import_finished` tells how it ended."""
        if self._done:
            self.accept()
            return
        if self.import_task.running:
            return
        ws = self.ws
        path, opts = self.path_edit.text().strip(), self.options()  # read the widgets here, in the GUI thread
        if self.kind == "run":
            ImportDialog.last_run_corpus[str(ws.path)] = opts["corpus_id"]
        self.import_button.setEnabled(False)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.problems_label.setText(self.tr("Reading and checking the whole file…"))
        # an import is one transaction: it is never cancelled half-way (progress is not a cancel point)
        self.import_task.start(lambda ctx: self.run_import(ws, path, opts, ctx.report), on_progress=self._progress,
                               on_error=lambda exc: None, workspace=ws)  # errors are listed in the dialog

    def _progress(self, p: Any) -> None:
        total = int(getattr(p, "total", 0) or 0)
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(int(getattr(p, "done", 0) or 0))
        stage = getattr(p, "stage", "")
        if stage:
            self.progress.setFormat(f"{stage} %p%")

    @property
    def worker(self) -> BackgroundTask | None:
        """The import under way, if any."""
        return self.import_task if self.import_task.running else None

    def _finished(self, outcome: JobOutcome) -> None:
        self.progress.hide()
        self.import_button.setEnabled(True)
        if outcome.status != "done":
            self.problems_label.setText("")
            if outcome.error is not None:
                self._show_problems(outcome.error)
            self.import_finished.emit(outcome)
            return
        self.imported = outcome.result
        warnings = self._summarise(outcome.result)
        if warnings:
            self.problems.clear()
            self.problems_label.setText(self.result_summary or "")
            for w in warnings:  # an installed analyzer's lines say what was done: not warnings
                self._problem(w, warning=True, info=self.kind == "analyzer")
            self._done = True
            self.import_button.setText(self.tr("Close"))
            # nothing is left to cancel: Close is the one way out
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).hide()
        else:
            self.problems_label.setText(self.result_summary or "")
        self.import_finished.emit(outcome)
        if not warnings:
            self.accept()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self.import_task.jobs.shutdown()  # an import is one transaction: let it finish or fail as a whole
        super().closeEvent(event)

    def done(self, result: int) -> None:  # noqa: D401 (Qt override: accept/reject end here)
        self.import_task.jobs.shutdown()
        super().done(result)

    def _summarise(self, result: Any) -> list[str]:
        if self.kind == "analyzer":
            self.result_summary = self.tr("Analyzer installed for {0}.").format(result.lang)
            return result.lines()
        verb = self.tr("Imported") if result.created else self.tr("Already in the workspace:")
        self.result_summary = self.tr("{0} {1} {2} ({3} records, {4}).").format(verb, result.kind, result.id,
                                                                                  result.count, result.format)
        warnings = list(result.warnings)
        for also in getattr(result, "also", []) or []:
            warnings.insert(0, self.tr("Also imported {0} {1}").format(also.kind, also.id))
        return warnings
