"""Reviewers dialog: list the workspace's reviewers and add or edit one.

A reviewer is a name or pseudonym with an optional dialect, languages and consent scope
(SPEC §9). The store checks and normalises what is entered.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.review import add_reviewer, get_reviewer, list_reviewers, update_reviewer
from mteval_gui.app.settings import load_settings, set_setting
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.dialogs import reporting_errors


class ReviewersDialog(QDialog):
    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = ws
        self.last_added: str | None = None
        self.setObjectName("reviewersDialog")
        self.setWindowTitle(self.tr("Reviewers"))
        self.resize(560, 420)
        lay = QHBoxLayout(self)
        left = QVBoxLayout()
        self.list = QListWidget()
        self.list.setObjectName("reviewerList")
        self.list.currentItemChanged.connect(self._picked)
        left.addWidget(self.list)
        new = QPushButton(self.tr("New reviewer"))
        new.clicked.connect(self._new)
        left.addWidget(new)
        lay.addLayout(left, 1)

        right = QVBoxLayout()
        form = QFormLayout()
        self.id_edit = QLineEdit()
        self.id_edit.setObjectName("reviewerId")
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("reviewerName")
        self.dialect_edit = QLineEdit()
        self.languages_edit = QLineEdit()
        self.languages_edit.setPlaceholderText(self.tr("e.g. crk, eng"))
        self.consent_edit = QLineEdit()
        self.consent_edit.setPlaceholderText(self.tr("e.g. research use, no publication of notes"))
        form.addRow(self.tr("Id:"), self.id_edit)
        form.addRow(self.tr("Name or pseudonym:"), self.name_edit)
        form.addRow(self.tr("Dialect:"), self.dialect_edit)
        form.addRow(self.tr("Languages:"), self.languages_edit)
        form.addRow(self.tr("Consent scope:"), self.consent_edit)
        right.addLayout(form)
        self.default_label = QLabel()
        right.addWidget(self.default_label)
        row = QHBoxLayout()
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.setObjectName("saveReviewer")
        self.save_button.clicked.connect(self.save)
        row.addWidget(self.save_button)
        self.default_button = QPushButton(self.tr("Make default"))
        self.default_button.clicked.connect(self.make_default)
        row.addWidget(self.default_button)
        right.addLayout(row)
        right.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.accept)
        right.addWidget(close)
        lay.addLayout(right, 2)
        self.reload()
        if self.list.count() == 0:
            self._new()

    def reload(self, select: str | None = None) -> None:
        self.list.clear()
        default = load_settings(self.ws).default_reviewer
        for r in list_reviewers(self.ws):
            item = QListWidgetItem(f"{r.name} ({r.reviewer_id})" + (" ★" if r.reviewer_id == default else ""))
            item.setData(Qt.ItemDataRole.UserRole, r.reviewer_id)
            self.list.addItem(item)
            if r.reviewer_id == select:
                self.list.setCurrentItem(item)
        self.default_label.setText(self.tr("Default reviewer: {0}").format(default) if default else "")

    def _new(self) -> None:
        self.list.setCurrentRow(-1)  # no reviewer: a new one
        for w in (self.id_edit, self.name_edit, self.dialect_edit, self.languages_edit, self.consent_edit):
            w.clear()
        self.id_edit.setReadOnly(False)
        self.name_edit.setFocus()

    def _picked(self, item: QListWidgetItem | None, _prev=None) -> None:
        if item is None:
            return
        r = get_reviewer(self.ws, item.data(Qt.ItemDataRole.UserRole))
        if r is None:
            return
        self.id_edit.setText(r.reviewer_id)
        self.id_edit.setReadOnly(True)
        self.name_edit.setText(r.name)
        self.dialect_edit.setText(r.dialect or "")
        self.languages_edit.setText(", ".join(r.languages))
        self.consent_edit.setText(r.consent_scope or "")

    def reviewer(self) -> Reviewer:
        name = self.name_edit.text().strip()
        rid = self.id_edit.text().strip() or name.casefold().replace(" ", "-")
        langs = [x.strip() for x in self.languages_edit.text().replace(";", ",").split(",") if x.strip()]
        return Reviewer(reviewer_id=rid, name=name, dialect=self.dialect_edit.text() or None, languages=langs,
                        consent_scope=self.consent_edit.text() or None)

    def save(self) -> None:
        r = self.reviewer()
        with reporting_errors(self) as report:
            if self.id_edit.isReadOnly():
                saved = update_reviewer(self.ws, r)
            else:
                saved = add_reviewer(self.ws, r)
                self.last_added = saved.reviewer_id
        if report.failed:
            return
        self.reload(saved.reviewer_id)

    def make_default(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            set_setting(self.ws, "default_reviewer", item.data(Qt.ItemDataRole.UserRole))
            self.reload(item.data(Qt.ItemDataRole.UserRole))
