"""Workspace settings: analyzer folder, gloss files, COMET model, default reviewer.

They are stored in the workspace's ``settings`` table (keys ``analyzer_dir``,
``gloss_files`` = ``{lang: [paths]}``, ``comet_model``, ``default_reviewer``) and turned
into scorer options by :func:`scoring_options`. Next to the COMET model choice, the known
COMET models with their status and a "Download…" button
(:class:`~mteval_gui.qt.comet_models.CometModelsPanel`, the GUI's only network use, on request).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QListWidget, QPushButton, QVBoxLayout, QWidget)

from mteval_gui.paths import analyzers_dir
from mteval_gui.qt.comet_models import CometModelsPanel
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

KEY_ANALYZERS = "analyzer_dir"
KEY_GLOSSES = "gloss_files"
KEY_COMET = "comet_model"
KEY_REVIEWER = "default_reviewer"


def analyzer_base(ws: Workspace) -> Path:
    """Folder analyzers are installed to and looked up in (workspace setting, else the user folder)."""
    value = repo.get_setting(ws, KEY_ANALYZERS)
    return Path(value) if value else analyzers_dir()


def scoring_options(ws: Workspace) -> tuple[dict[str, Any], dict[str, str]]:
    """(scorer options, environment for the scoring process) from the workspace settings."""
    options: dict[str, Any] = {}
    env: dict[str, str] = {}
    glosses = repo.get_setting(ws, KEY_GLOSSES)
    if glosses:
        options["gloss_files"] = glosses
    comet = repo.get_setting(ws, KEY_COMET)
    if comet:
        options["comet_model"] = comet
    folder = repo.get_setting(ws, KEY_ANALYZERS)
    if folder:
        env["MTEVAL_ANALYZERS"] = str(folder)
    return options, env


class SettingsDialog(QDialog):
    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = ws
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Workspace settings"))
        self.resize(720, 560)
        lay = QVBoxLayout(self)
        form = QFormLayout()

        row = QHBoxLayout()
        self.analyzer_edit = QLineEdit(str(repo.get_setting(ws, KEY_ANALYZERS) or ""))
        self.analyzer_edit.setPlaceholderText(str(analyzers_dir()))
        row.addWidget(self.analyzer_edit, 1)
        b = QPushButton(self.tr("Choose…"))
        b.clicked.connect(self._choose_folder)
        row.addWidget(b)
        form.addRow(self.tr("Analyzer folder:"), row)

        self.gloss_lang = QLineEdit("crk")
        self.gloss_lang.setMaximumWidth(80)
        self.gloss_list = QListWidget()
        self._glosses: dict[str, list[str]] = {k: list(v) if isinstance(v, list) else [v]
                                               for k, v in (repo.get_setting(ws, KEY_GLOSSES) or {}).items()}
        self.gloss_lang.textChanged.connect(self._show_glosses)
        gl = QVBoxLayout()
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Language:")))
        top.addWidget(self.gloss_lang)
        add = QPushButton(self.tr("Add file…"))
        add.clicked.connect(self._add_gloss)
        top.addWidget(add)
        rm = QPushButton(self.tr("Remove"))
        rm.clicked.connect(self._remove_gloss)
        top.addWidget(rm)
        top.addStretch(1)
        gl.addLayout(top)
        gl.addWidget(self.gloss_list)
        form.addRow(self.tr("Gloss files:"), gl)

        self.comet_edit = QLineEdit(str(repo.get_setting(ws, KEY_COMET) or ""))
        self.comet_edit.setPlaceholderText(self.tr("model name or local checkpoint (default: from the language card)"))
        comet = QVBoxLayout()
        comet.addWidget(self.comet_edit)
        self.comet_models = CometModelsPanel()
        self.comet_models.model_chosen.connect(self.comet_edit.setText)
        self.comet_models.select(self.comet_edit.text().strip())
        comet.addWidget(self.comet_models)
        form.addRow(self.tr("COMET model:"), comet)

        self.reviewer_combo = QComboBox()
        self.reviewer_combo.addItem(self.tr("(none)"), None)
        for r in jstore.list_reviewers(ws):
            self.reviewer_combo.addItem(f"{r.name} ({r.reviewer_id})", r.reviewer_id)
        idx = self.reviewer_combo.findData(repo.get_setting(ws, KEY_REVIEWER))
        self.reviewer_combo.setCurrentIndex(max(idx, 0))
        form.addRow(self.tr("Default reviewer:"), self.reviewer_combo)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self._show_glosses()

    def _choose_folder(self) -> None:
        d = QFileDialog.getExistingDirectory(self, self.tr("Analyzer folder"), self.analyzer_edit.text() or str(Path.home()))
        if d:
            self.analyzer_edit.setText(d)

    def _show_glosses(self, *_: object) -> None:
        self.gloss_list.clear()
        self.gloss_list.addItems(self._glosses.get(self.gloss_lang.text().strip(), []))

    def _add_gloss(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Gloss file"), str(Path.home()),
                                              self.tr("Dictionaries (*.importjson *.json *.tsv *.txt);;All files (*)"))
        if path:
            self.add_gloss_file(self.gloss_lang.text().strip(), path)

    def add_gloss_file(self, lang: str, path: str) -> None:
        files = self._glosses.setdefault(lang, [])
        if path not in files:
            files.append(path)
        self._show_glosses()

    def _remove_gloss(self) -> None:
        item = self.gloss_list.currentItem()
        lang = self.gloss_lang.text().strip()
        if item is not None and item.text() in self._glosses.get(lang, []):
            self._glosses[lang].remove(item.text())
            self._show_glosses()

    def done(self, result: int) -> None:  # Qt override
        """Close, unless a model download is still running (it cannot be interrupted)."""
        if self.comet_models.busy():
            self.comet_models.status.setText(self.tr("The download is still running; the dialog can close when it ends."))
            return
        super().done(result)

    def save(self) -> None:
        repo.set_setting(self.ws, KEY_ANALYZERS, self.analyzer_edit.text().strip() or None)
        glosses = {k: v for k, v in self._glosses.items() if k and v}
        repo.set_setting(self.ws, KEY_GLOSSES, glosses or None)
        repo.set_setting(self.ws, KEY_COMET, self.comet_edit.text().strip() or None)
        repo.set_setting(self.ws, KEY_REVIEWER, self.reviewer_combo.currentData())
        self.accept()
