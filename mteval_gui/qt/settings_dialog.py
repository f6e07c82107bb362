"""Workspace settings, one form field per :class:`~mteval_gui.domain.settings.WorkspaceSettings` key.

The labels and help texts come from the settings model (translated through
:mod:`mteval_gui.qt.labels`); the values are validated by the model and written through
:mod:`mteval_gui.app.settings`, the same path ``mteval settings set`` takes. Next to the COMET
model choice, the known COMET models with their status and a "Download…" button
(:class:`~mteval_gui.qt.comet_models.CometModelsPanel`, the GUI's only network use, on request).
Settings chosen elsewhere (the corpora's glossaries at import, the ÈwéBench suite folder in
its tab) are listed read-only.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.review import list_reviewers
from mteval_gui.app.settings import ANALYZER_KINDS, WorkspaceSettings, load_settings, save_settings
from mteval_gui.app.workspace import Workspace
from mteval_gui.paths import analyzers_dir
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.comet_models import CometModelsPanel
from mteval_gui.qt.dialogs import show_error
from mteval_gui.qt.labels import setting_help, setting_label


class SettingsDialog(QDialog):
    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = ws
        self.settings = load_settings(ws)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Workspace settings"))
        self.resize(760, 640)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        s = self.settings

        row = QHBoxLayout()
        self.analyzer_edit = QLineEdit(s.analyzer_dir or "")
        self.analyzer_edit.setPlaceholderText(str(analyzers_dir()))
        row.addWidget(self.analyzer_edit, 1)
        b = QPushButton(self.tr("Choose…"))
        b.clicked.connect(self._choose_folder)
        row.addWidget(b)
        self._add_row(form, "analyzer_dir", row)

        self.analyzer_table = QTableWidget(0, 3)
        self.analyzer_table.setObjectName("analyzerPaths")
        self.analyzer_table.setHorizontalHeaderLabels([self.tr("Language"), self.tr("Kind"), self.tr("File")])
        self.analyzer_table.horizontalHeader().setStretchLastSection(True)
        self.analyzer_table.setMaximumHeight(130)
        for lang, kinds in sorted(s.analyzer_paths.items()):
            for kind, path in sorted(kinds.items()):
                self._add_analyzer_row(lang, kind, path)
        at = QVBoxLayout()
        at.addWidget(self.analyzer_table)
        # what is installed in the analyzer folder (File ▸ Install analyzer) is found there without
        # a row above: listed here so that the table being empty does not read as "no analyzer"
        self.installed_analyzers = QLabel(self._installed_text(ws))
        self.installed_analyzers.setObjectName("installedAnalyzers")
        self.installed_analyzers.setWordWrap(True)
        self.installed_analyzers.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        at.addWidget(self.installed_analyzers)
        ab = QHBoxLayout()
        add_an = QPushButton(self.tr("Add file…"))
        add_an.clicked.connect(self._add_analyzer)
        rm_an = QPushButton(self.tr("Remove"))
        rm_an.clicked.connect(lambda: self.analyzer_table.removeRow(self.analyzer_table.currentRow()))
        ab.addWidget(add_an)
        ab.addWidget(rm_an)
        ab.addStretch(1)
        at.addLayout(ab)
        self._add_row(form, "analyzer_paths", at)

        self.gloss_lang = QLineEdit("crk")
        self.gloss_lang.setMaximumWidth(80)
        self.gloss_list = QListWidget()
        self.gloss_list.setMaximumHeight(110)
        self._glosses: dict[str, list[str]] = {k: list(v) for k, v in s.gloss_files.items()}
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
        self._add_row(form, "gloss_files", gl)

        self.comet_edit = QLineEdit(s.comet_model or "")
        self.comet_edit.setPlaceholderText(self.tr("model name or local checkpoint (default: from the language card)"))
        comet = QVBoxLayout()
        comet.addWidget(self.comet_edit)
        self.comet_models = CometModelsPanel()
        self.comet_models.model_chosen.connect(self.comet_edit.setText)
        self.comet_models.select(self.comet_edit.text().strip())
        comet.addWidget(self.comet_models)
        self._add_row(form, "comet_model", comet)

        self.cluster_edit = QLineEdit(s.cluster or "")
        self.cluster_edit.setObjectName("clusterAddress")
        self.cluster_edit.setPlaceholderText(self.tr("empty: this machine; local, or the head's address (HOST:6379)"))
        self._add_row(form, "cluster", self.cluster_edit)

        self.reviewer_combo = QComboBox()
        self.reviewer_combo.addItem(self.tr("(none)"), None)
        for r in list_reviewers(ws):
            self.reviewer_combo.addItem(f"{r.name} ({r.reviewer_id})", r.reviewer_id)
        idx = self.reviewer_combo.findData(s.default_reviewer)
        self.reviewer_combo.setCurrentIndex(max(idx, 0))
        self._add_row(form, "default_reviewer", self.reviewer_combo)

        # the checks of the desktop's rating queue (mteval_gui.app.desktop_checks), off by default
        self.checks_spin, self.repeats_spin = QSpinBox(), QSpinBox()
        for key, spin in (("attention_checks", self.checks_spin), ("repeated_items", self.repeats_spin)):
            spin.setObjectName(key)
            spin.setRange(0, 100)
            spin.setValue(getattr(s, key))
            spin.setSpecialValueText(self.tr("none"))
            spin.setToolTip(setting_help(key))
            self._add_row(form, key, spin)

        arrows = {"glossaries": self.tr("{0}: glossary {1}"), "suite_folders": self.tr("{0}: {1}")}
        for key in ("glossaries", "suite_folders"):
            value = getattr(s, key)
            # one line per corpus (its glossary) or suite (its folder), not the stored JSON
            text = "\n".join(arrows[key].format(k, v) for k, v in sorted(value.items()))
            shown = QLabel(text or self.tr("(not set)"))
            shown.setObjectName(f"{key}Shown")
            shown.setWordWrap(True)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._add_row(form, key, shown)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self._show_glosses()

    def _installed_text(self, ws: Workspace) -> str:
        from mteval_gui.app.analyzers import analyzer_report, analyzer_root

        root = analyzer_root(ws)
        lines = [self.tr("{0} · {1}: {2}").format(lang.lang, f.kind, f.path)
                 for lang in analyzer_report(root) for f in lang.files if f.path is not None]
        if not lines:
            return self.tr("Installed in {0}: none.").format(root)
        return self.tr("Installed in {0} (used without a row above; a row above overrides them):").format(root) \
            + "\n" + "\n".join(lines)

    def _add_row(self, form: QFormLayout, key: str, field: QWidget | QLayout) -> None:
        label = QLabel(setting_label(key) + ":")
        label.setToolTip(setting_help(key))
        if isinstance(field, QWidget):  # addRow has one overload for each
            form.addRow(label, field)
        else:
            form.addRow(label, field)

    def _choose_folder(self) -> None:
        d = file_dialogs.existing_directory(
            self, self.tr("Analyzer folder"), self.analyzer_edit.text() or ""
        )
        if d:
            self.analyzer_edit.setText(d)

    def _add_analyzer_row(self, lang: str, kind: str, path: str) -> None:
        r = self.analyzer_table.rowCount()
        self.analyzer_table.insertRow(r)
        self.analyzer_table.setItem(r, 0, QTableWidgetItem(lang))
        combo = QComboBox()
        for k in ANALYZER_KINDS:
            combo.addItem(k, k)
        combo.setCurrentIndex(max(combo.findData(kind), 0))
        self.analyzer_table.setCellWidget(r, 1, combo)
        self.analyzer_table.setItem(r, 2, QTableWidgetItem(path))

    def _add_analyzer(self) -> None:
        path, _ = file_dialogs.open_file_name(self, self.tr("Analyzer file"), "",
                                              self.tr("HFST analyzers (*.hfstol);;All files (*)"))
        if path:
            self.add_analyzer_file(self.gloss_lang.text().strip() or "crk", "strict", path)

    def add_analyzer_file(self, lang: str, kind: str, path: str) -> None:
        self._add_analyzer_row(lang, kind, path)

    def analyzer_paths(self) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for r in range(self.analyzer_table.rowCount()):
            lang_item, path_item = self.analyzer_table.item(r, 0), self.analyzer_table.item(r, 2)
            combo = self.analyzer_table.cellWidget(r, 1)
            lang = lang_item.text().strip() if lang_item is not None else ""
            path = path_item.text().strip() if path_item is not None else ""
            kind = combo.currentData() if isinstance(combo, QComboBox) else "strict"
            if lang and path:
                out.setdefault(lang, {})[kind] = path
        return out

    def _show_glosses(self, *_: object) -> None:
        self.gloss_list.clear()
        self.gloss_list.addItems(self._glosses.get(self.gloss_lang.text().strip(), []))

    def _add_gloss(self) -> None:
        path, _ = file_dialogs.open_file_name(self, self.tr("Gloss file"), "",
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
            self.comet_models.status.setText(self.tr("The download is still running: cancel it or wait for it to end."))
            return
        super().done(result)

    def save(self) -> None:
        from pydantic import ValidationError

        data = self.settings.model_dump()
        data.update(
            analyzer_dir=self.analyzer_edit.text().strip() or None,
            analyzer_paths=self.analyzer_paths(),
            gloss_files={k: v for k, v in self._glosses.items() if k and v},
            comet_model=self.comet_edit.text().strip() or None,
            cluster=self.cluster_edit.text().strip() or None,
            default_reviewer=self.reviewer_combo.currentData(),
            attention_checks=self.checks_spin.value(),
            repeated_items=self.repeats_spin.value(),
        )
        try:
            settings = WorkspaceSettings.model_validate(data)
        except ValidationError as exc:
            show_error(self, exc)
            return
        save_settings(self.ws, settings)
        self.settings = settings
        self.accept()
