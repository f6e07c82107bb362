"""Status-bar progress of background jobs: stage, bar, ETA and a Cancel button."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from mteval_gui.qt.workers import EtaEstimator, format_eta


class ProgressPanel(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("progressPanel")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.stage = QLabel()
        self.stage.setObjectName("progressStage")
        self.bar = QProgressBar()
        self.bar.setMinimumWidth(180)
        self.bar.setMaximumWidth(260)
        self.eta_label = QLabel()
        self.eta_label.setObjectName("progressEta")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.clicked.connect(self._cancel)
        for w in (self.stage, self.bar, self.eta_label, self.cancel_button):
            lay.addWidget(w)
        self._eta = EtaEstimator()
        self.hide()

    def start(self, title: str) -> None:
        self._eta = EtaEstimator()
        self.stage.setText(title)
        self.bar.setRange(0, 0)
        self.eta_label.setText("")
        self.cancel_button.setEnabled(True)
        self.show()

    def update_progress(self, title: str, done: int, total: int, stage: str, message: str = "") -> None:
        self.stage.setText(f"{title} — {stage}" + (f": {message}" if message else ""))
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)
        eta = self._eta.update(done, total, f"{title}/{stage}")
        self.eta_label.setText(self.tr("ETA {0}").format(format_eta(eta)) if total > 0 and done < total else "")

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.stage.setText(self.tr("Cancelling…"))
        self.cancel_requested.emit()

    def finish(self) -> None:
        self.hide()

