"""COMET models in the settings dialog: what the language cards name, what is on this machine,
and the one explicit download.

The list comes from :func:`mteval_gui.app.models.known_comet_models` (models named by the cards,
the defaults, and COMET models already in the local Hugging Face cache) with each model's
status (:func:`mteval_gui.app.models.comet_model_status`). "Download…" is the only control of
the GUI that uses the network: it asks first, saying so and how large the download is, then
runs :func:`mteval_gui.app.models.download_comet_model` in a worker thread
(:mod:`mteval_gui.qt.workers`) while the panel shows what is happening and how much has
arrived in the model cache. "Cancel download" stops it at once; the files fetched so far are
kept and the next download resumes them. Errors go through :func:`mteval_gui.qt.dialogs.show_error`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import models as modelhub
from mteval_gui.app.models import cached_bytes, hub_cache_dir
from mteval_gui.app.tasks import FunctionJob, JobOutcome
from mteval_gui.qt.dialogs import confirm, reporting_errors, show_error
from mteval_gui.qt.table_model import select_row
from mteval_gui.qt.workers import JobManager, Worker

# model.ckpt of Unbabel/wmt22-comet-da (XLM-R large encoder) is 2.32 GB; COMET models on the
# same encoder (AfriCOMET) are about as large
APPROX_DOWNLOAD = "2.3 GB"
STATE_COLOURS = {"downloaded": "#1b7f3b", "incomplete": "#b58900", "missing": "#b03030"}


def model_state(status: str) -> str:
    """``downloaded``, ``incomplete`` or ``missing`` from a :func:`comet_model_status` line."""
    if status.startswith("not downloaded"):
        return "missing"
    if status.startswith("downloaded") and " but " not in status:
        return "downloaded"
    return "incomplete"


class CometModelsPanel(QWidget):
    """Known COMET models with their status, "Use selected" and "Download…"."""

    model_chosen = Signal(str)
    download_finished = Signal(object)  # JobOutcome

    POLL_MS = 500

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("cometModels")
        self.jobs = JobManager(self)
        self.worker: Worker | None = None
        self.downloading: str | None = None
        self._cache: Path | None = None
        self._messages: list[str] = []
        self._timer = QTimer(self)
        self._timer.setInterval(self.POLL_MS)
        self._timer.timeout.connect(self._show_received)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("cometModelTable")
        self.table.setHorizontalHeaderLabels([self.tr("Model"), self.tr("Languages (card)"), self.tr("Status")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMaximumHeight(130)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda *_: self.use_selected())
        lay.addWidget(self.table)
        row = QHBoxLayout()
        self.use_button = QPushButton(self.tr("Use selected"))
        self.use_button.setObjectName("useCometModel")
        self.use_button.clicked.connect(self.use_selected)
        row.addWidget(self.use_button)
        self.download_button = QPushButton(self.tr("Download…"))
        self.download_button.setObjectName("downloadCometModel")
        self.download_button.setToolTip(self.tr("Fetch the selected model from Hugging Face (uses the network)"))
        self.download_button.clicked.connect(self.download_selected)
        row.addWidget(self.download_button)
        self.cancel_button = QPushButton(self.tr("Cancel download"))
        self.cancel_button.setObjectName("cancelCometDownload")
        self.cancel_button.clicked.connect(self.cancel_download)
        self.cancel_button.setEnabled(False)
        row.addWidget(self.cancel_button)
        self.status = QLabel()
        self.status.setObjectName("cometDownloadStatus")
        self.status.setWordWrap(True)
        row.addWidget(self.status, 1)
        lay.addLayout(row)
        self.reload()

    # ----- list ----------------------------------------------------------------------------
    def reload(self) -> None:
        keep = self.selected()
        rows = []
        with reporting_errors(self):  # the list stays empty
            models = modelhub.known_comet_models()
            rows = [(name, langs, modelhub.comet_model_status(name)) for name, langs in models.items()]
        self.table.setRowCount(len(rows))
        names = {"downloaded": self.tr("downloaded"), "incomplete": self.tr("incomplete"),
                 "missing": self.tr("not downloaded")}
        for r, (name, langs, status) in enumerate(rows):
            covered = [code for code, ok in langs if ok]
            uncovered = [code for code, ok in langs if not ok]
            text = ", ".join(covered)
            if uncovered:
                text += ("; " if text else "") + self.tr("not covered: {0}").format(", ".join(uncovered))
            state = model_state(status)
            cells = [QTableWidgetItem(name), QTableWidgetItem(text), QTableWidgetItem(names[state])]
            cells[0].setData(Qt.ItemDataRole.UserRole, name)
            cells[2].setData(Qt.ItemDataRole.UserRole, state)
            cells[2].setForeground(QColor(STATE_COLOURS[state]))
            for c, cell in enumerate(cells):
                cell.setToolTip(status)
                self.table.setItem(r, c, cell)
        for r in range(self.table.rowCount()):
            if self._data(r, 0) == keep:
                select_row(self.table, r)
        self._update_buttons()

    def _data(self, row: int, column: int) -> Any:
        item = self.table.item(row, column)
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def names(self) -> list[str]:
        return [self._data(r, 0) for r in range(self.table.rowCount())]

    def state_of(self, name: str) -> str | None:
        for r in range(self.table.rowCount()):
            if self._data(r, 0) == name:
                return self._data(r, 2)
        return None

    def select(self, name: str) -> None:
        for r in range(self.table.rowCount()):
            if self._data(r, 0) == name:
                select_row(self.table, r)

    def selected(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self._data(rows[0].row(), 0) if rows else None

    def _update_buttons(self) -> None:
        name = self.selected()
        self.use_button.setEnabled(name is not None)
        self.download_button.setEnabled(name is not None and self.downloading is None)
        self.cancel_button.setEnabled(self.downloading is not None)

    def cancel_download(self) -> None:
        """Stop the running download (its files are kept for the next one)."""
        if self.worker is not None:
            self.worker.cancel()

    def use_selected(self) -> None:
        name = self.selected()
        if name:
            self.model_chosen.emit(name)

    # ----- download ------------------------------------------------------------------------
    def confirmation_text(self, name: str) -> str:
        cache = hub_cache_dir()
        where = str(cache) if cache is not None else self.tr("the Hugging Face cache")
        return self.tr(
            "Downloading {0} uses the network: it fetches the model from Hugging Face, about {1} "
            "(the size of COMET models built on XLM-R large), plus its encoder's tokenizer, into {2}.\n\n"
            "Scoring itself never uses the network. Cancel stops the download at once; the files fetched "
            "so far are kept and the next download resumes them.\n\nDownload now?").format(name, APPROX_DOWNLOAD, where)

    def download_selected(self) -> None:
        name = self.selected()
        if name is None or self.downloading is not None:
            return
        if not confirm(self, self.tr("Download COMET model"), self.confirmation_text(name)):
            self.status.setText(self.tr("Download of {0} not started.").format(name))
            return
        self.start_download(name)

    def start_download(self, name: str) -> None:
        """Run the download in a worker thread (only after the user confirmed it)."""
        def job(on_progress, on_partial, cancel_event) -> Any:
            from mteval_gui.app.scoring import CancelToken

            return modelhub.download_comet_model(name, echo=on_progress, cancel=CancelToken(cancel_event))

        self.downloading = name
        self._messages = []
        self._cache = hub_cache_dir()
        worker = Worker(FunctionJob(job), name="comet-download")
        worker.progress.connect(self._progress)
        worker.error.connect(self._error)
        worker.finished.connect(self._finished)
        self.worker = worker
        self.status.setText(self.tr("Downloading {0} (about {1})…").format(name, APPROX_DOWNLOAD))
        self._update_buttons()
        self.jobs.start(worker)
        self._timer.start()

    def _progress(self, message: Any) -> None:
        self._messages.append(str(message))
        self.status.setToolTip("\n".join(self._messages))
        self._show_received()

    def _show_received(self) -> None:
        if self.downloading is None:
            return
        got = cached_bytes(self.downloading, self._cache)
        step = self._messages[-1] if self._messages else ""
        self.status.setText(self.tr("Downloading {0} (about {1})… {2} in the model cache").format(
            self.downloading, APPROX_DOWNLOAD, modelhub.human_size(got)) + (f"\n{step}" if step else ""))

    def _error(self, exc: BaseException) -> None:
        show_error(self, exc)

    def _finished(self, outcome: JobOutcome) -> None:
        name = self.downloading
        self._timer.stop()
        self.downloading = None
        self.worker = None
        if outcome.status == "done":
            self.status.setText(self.tr("{0} is ready: scoring finds it offline.").format(name))
        elif outcome.status == "cancelled":
            self.status.setText(self.tr("Download of {0} cancelled; the next download resumes it.").format(name))
        else:
            self.status.setText(self.tr("Download of {0} failed.").format(name))
        self.reload()
        self.download_finished.emit(outcome)

    def busy(self) -> bool:
        return self.downloading is not None
