"""Validation ▸ Campaigns: plan a review campaign, follow each reviewer's progress and the overlap
reached, rate a share on the desktop or send it as a review pack (:mod:`mteval_gui.app.campaigns`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import campaigns as app
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.dialogs import reporting_errors

ReviewShare = Callable[[list[str], list[str], str, str], None]


class NewCampaignDialog(QDialog):
    """Name, runs, reviewers, overlap, number of entries and how they are chosen."""

    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        from mteval_gui.app.review import list_reviewers
        from mteval_gui.app.runs import load_run_rows

        self.ws = ws
        self.created: Any = None
        self.setWindowTitle(self.tr("New review campaign"))
        form = QFormLayout(self)
        self.id_edit = QLineEdit()
        self.id_edit.setObjectName("campaignId")
        self.id_edit.setPlaceholderText(self.tr("e.g. wave-1"))
        form.addRow(self.tr("Name:"), self.id_edit)
        self.runs = self._checklist("campaignRuns", [(f"{r.run_id} ({r.corpus_id})", r.run_id)
                                                     for r in load_run_rows(ws)])
        form.addRow(self.tr("Runs rated:"), self.runs)
        self.reviewers = self._checklist("campaignReviewers", [(f"{rv.name} ({rv.reviewer_id})", rv.reviewer_id)
                                                               for rv in list_reviewers(ws)])
        form.addRow(self.tr("Reviewers:"), self.reviewers)
        self.overlap = QSpinBox()
        self.overlap.setObjectName("campaignOverlap")
        self.overlap.setRange(1, 20)
        self.overlap.setValue(2)
        self.overlap.setToolTip(self.tr("How many reviewers rate each entry"))
        form.addRow(self.tr("Overlap:"), self.overlap)
        self.entries = QSpinBox()
        self.entries.setObjectName("campaignEntries")
        self.entries.setRange(1, 1_000_000)
        self.entries.setValue(60)
        form.addRow(self.tr("Entries:"), self.entries)
        self.select = QComboBox()
        self.select.setObjectName("campaignSelect")
        self.select.addItem(self.tr("the first ones, in corpus order"), "first")
        self.select.addItem(self.tr("drawn at random (seed 0)"), "random")
        self.select.addItem(self.tr("stratified by system, difficulty and FST verdict"), "stratified")
        self.select.addItem(self.tr("informative: where the systems differ most first"), "informative")
        form.addRow(self.tr("Chosen:"), self.select)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.make_campaign)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @staticmethod
    def _checklist(name: str, choices: list[tuple[str, str]]) -> QListWidget:
        """A list of unticked (label, id) choices."""
        widget = QListWidget()
        widget.setObjectName(name)
        for label, value in choices:
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setCheckState(Qt.CheckState.Unchecked)
            widget.addItem(item)
        return widget

    @staticmethod
    def _checked(widget: QListWidget) -> list[str]:
        return [widget.item(i).data(Qt.ItemDataRole.UserRole) for i in range(widget.count())
                if widget.item(i).checkState() == Qt.CheckState.Checked]

    def make_campaign(self) -> None:
        with reporting_errors(self) as report:
            self.created = app.create_campaign(self.ws, self.id_edit.text().strip(), self._checked(self.runs),
                                               self._checked(self.reviewers), overlap=self.overlap.value(),
                                               entries=self.entries.value(), select=self.select.currentData())
        if not report.failed:
            self.accept()


class CampaignsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("campaignsPanel")
        self.ws: Workspace | None = None
        self.review_share: ReviewShare = lambda runs, entries, reviewer, label: None
        lay = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New campaign…"))
        self.new_button.clicked.connect(self.new_campaign)
        bar.addWidget(self.new_button)
        bar.addStretch(1)
        lay.addLayout(bar)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("campaignsTable")
        self.table.setHorizontalHeaderLabels([self.tr("Campaign"), self.tr("Runs"), self.tr("Entries"),
                                              self.tr("Overlap"), self.tr("Entries at overlap")])
        self._defaults(self.table)
        self.table.itemSelectionChanged.connect(self._show_reviewers)
        lay.addWidget(self.table, 1)
        self.progress = QTableWidget(0, 3)
        self.progress.setObjectName("campaignProgress")
        self.progress.setHorizontalHeaderLabels([self.tr("Reviewer"), self.tr("Rated"), self.tr("Status")])
        self._defaults(self.progress)
        lay.addWidget(self.progress, 1)
        row = QHBoxLayout()
        self.rate_button = QPushButton(self.tr("Rate this share here"))
        self.rate_button.setToolTip(self.tr("Open the campaign's runs in the Entries tab, only this reviewer's "
                                            "entries, with this reviewer chosen"))
        self.rate_button.clicked.connect(self.rate_here)
        self.pack_button = QPushButton(self.tr("Export as a review pack…"))
        self.pack_button.clicked.connect(self.export_pack)
        row.addWidget(self.rate_button)
        row.addWidget(self.pack_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.summary = QLabel()
        self.summary.setObjectName("campaignSummary")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self._update_buttons()

    @staticmethod
    def _defaults(t: QTableWidget) -> None:
        t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.verticalHeader().setVisible(False)
        t.horizontalHeader().setStretchLastSection(True)

    def set_workspace(self, ws: Workspace | None) -> None:
        self.ws = ws
        self.refresh()

    def refresh(self) -> None:
        current = self.campaign_id()
        self.table.setRowCount(0)
        ws = self.ws
        statuses = [app.campaign_status(ws, c.campaign_id) for c in app.list_campaigns(ws)] if ws is not None else []
        for status in statuses:
            c = status.campaign
            r = self.table.rowCount()
            self.table.insertRow(r)
            cells = [c.campaign_id, ", ".join(c.run_ids), str(len(c.entry_ids)), str(c.overlap),
                     self.tr("{0} of {1}").format(status.entries_at_overlap, status.entries)
                     + (" ✓" if status.complete else "")]
            for col, text in enumerate(cells):
                self.table.setItem(r, col, QTableWidgetItem(text))
            if c.campaign_id == current:
                self.table.selectRow(r)
        if self.table.rowCount() and not self.table.selectedItems():
            self.table.selectRow(0)
        self._show_reviewers()

    def campaign_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        item = self.table.item(rows[0].row(), 0) if rows else None
        return item.text() if item is not None else None

    def reviewer_id(self) -> str | None:
        rows = self.progress.selectionModel().selectedRows() if self.progress.selectionModel() else []
        item = self.progress.item(rows[0].row(), 0) if rows else None
        return item.text() if item is not None else None

    def _show_reviewers(self) -> None:
        self.progress.setRowCount(0)
        cid = self.campaign_id()
        if self.ws is None or cid is None:
            self.summary.setText(self.tr("No campaign yet: a campaign names runs, reviewers and an overlap "
                                         "(every entry rated by that many reviewers).") if self.ws else "")
            self._update_buttons()
            return
        status = app.campaign_status(self.ws, cid)
        for p in status.reviewers:
            r = self.progress.rowCount()
            self.progress.insertRow(r)
            state = self.tr("complete") if p.complete else self.tr("in progress")
            for col, text in enumerate([p.reviewer_id, self.tr("{0} of {1}").format(p.done, p.assigned), state]):
                self.progress.setItem(r, col, QTableWidgetItem(text))
        if self.progress.rowCount():
            self.progress.selectRow(0)
        self.summary.setText(self.tr("Overlap {0} reached on {1} of {2} entries.").format(
            status.campaign.overlap, status.entries_at_overlap, status.entries)
            + (" " + self.tr("The campaign is complete.") if status.complete else ""))
        self._update_buttons()

    def _update_buttons(self) -> None:
        ready = self.ws is not None and self.campaign_id() is not None
        self.rate_button.setEnabled(ready)
        self.pack_button.setEnabled(ready)
        self.new_button.setEnabled(self.ws is not None)

    def new_campaign(self) -> None:
        if self.ws is None:
            return
        dlg = NewCampaignDialog(self.ws, self)
        if dlg.exec():
            self.refresh()

    def rate_here(self) -> None:
        cid, rid = self.campaign_id(), self.reviewer_id()
        if self.ws is None or cid is None or rid is None:
            return
        campaign = app.get_campaign(self.ws, cid)
        entries = campaign.assignment()[rid]
        self.review_share(campaign.run_ids, entries, rid,
                          self.tr("Campaign {0}: the {1} entries of {2}").format(cid, len(entries), rid))

    def export_pack(self) -> None:
        cid, rid = self.campaign_id(), self.reviewer_id()
        if self.ws is None or cid is None or rid is None:
            return
        path, _ = file_dialogs.save_file_name(self, self.tr("Export review pack"), f"{cid}-{rid}.html",
                                              self.tr("Review pack (*.html)"))
        if not path:
            return
        with reporting_errors(self) as report:
            done = app.export_campaign_pack(self.ws, cid, rid, path)
        if not report.failed:
            self.summary.setText(self.tr("Review pack {0} written to {1} ({2} items).").format(
                done.pack_id, done.path, done.items))
