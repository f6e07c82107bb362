"""Workspace settings dialog and reviewers dialog."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from mteval_gui.app.settings import load_settings, scoring_options_for
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.reviewers_dialog import ReviewersDialog
from mteval_gui.qt.settings_dialog import SettingsDialog
from mteval_gui.store import judgments as jstore


def test_settings_saved_and_turned_into_scoring_options(qtbot, small_ws, tmp_path):
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="amy", name="Amy"))
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.analyzer_edit.setText(str(tmp_path / "fst"))
    dlg.add_gloss_file("crk", str(tmp_path / "crk.importjson"))
    dlg.comet_edit.setText("Unbabel/wmt22-comet-da")
    dlg.reviewer_combo.setCurrentIndex(dlg.reviewer_combo.findData("amy"))
    dlg.add_analyzer_file("crk", "descriptive", str(tmp_path / "desc.hfstol"))
    dlg.save()
    assert load_settings(small_ws).default_reviewer == "amy"
    options = scoring_options_for(small_ws, "crk").to_context()
    assert options == {"gloss_files": {"crk": [str(tmp_path / "crk.importjson")]},
                       "comet_model": "Unbabel/wmt22-comet-da", "analyzers_dir": str(tmp_path / "fst"),
                       "descriptive_analyzer_path": str(tmp_path / "desc.hfstol")}
    dlg2 = SettingsDialog(small_ws)
    qtbot.addWidget(dlg2)
    assert dlg2.analyzer_paths() == {"crk": {"descriptive": str(tmp_path / "desc.hfstol")}}
    dlg2.comet_edit.setText("")
    dlg2.save()
    assert "comet_model" not in scoring_options_for(small_ws, "crk").to_context()


def test_every_setting_has_a_translatable_label_equal_to_the_model():
    from mteval_gui.domain.settings import WorkspaceSettings
    from mteval_gui.qt.labels import setting_texts

    texts = setting_texts()
    assert sorted(texts) == sorted(WorkspaceSettings.keys())
    for key, (label, help_text) in texts.items():
        assert (label, help_text) == WorkspaceSettings.describe(key)[:2]


def test_reviewers_dialog_adds_edits_and_sets_default(qtbot, small_ws):
    dlg = ReviewersDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.name_edit.setText("Mary Cardinal")
    dlg.dialect_edit.setText("Plains Cree (y-dialect)")
    dlg.languages_edit.setText("crk, eng")
    dlg.save()
    r = jstore.get_reviewer(small_ws, "mary-cardinal")
    assert r is not None and r.languages == ["crk", "eng"] and dlg.last_added == "mary-cardinal"
    assert dlg.id_edit.isReadOnly()  # now editing the saved reviewer
    dlg.consent_edit.setText("research only")
    dlg.save()
    assert jstore.get_reviewer(small_ws, "mary-cardinal").consent_scope == "research only"
    dlg.make_default()
    assert load_settings(small_ws).default_reviewer == "mary-cardinal"


def test_reviewer_without_name_is_refused(qtbot, small_ws, shown_errors):
    shown = shown_errors
    dlg = ReviewersDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.id_edit.setText("x")
    dlg.save()
    assert shown and "name" in str(shown[0])
    assert jstore.list_reviewers(small_ws) == []


@pytest.mark.shared_data
def test_settings_list_installed_analyzers_and_readable_glossaries(qtbot, small_ws, shared_data, tmp_path,
                                                                   monkeypatch):
    from mteval_gui.app.analyzers import InstallOptions, install
    from mteval_gui.app.settings import set_setting

    fst = shared_data / "crk" / "fst"
    root = tmp_path / "analyzers"
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(root))
    install("crk", fst / "crk-strict-analyzer-for-dictionary.hfstol", InstallOptions(root=root, kind="strict"))
    install("crk", fst / "crk-descriptive-analyzer.hfstol", InstallOptions(root=root, kind="descriptive"))
    set_setting(small_ws, "glossaries", {"mini": "cree-terms"})
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    assert dlg.analyzer_table.rowCount() == 0  # no path given by hand
    shown = dlg.installed_analyzers.text()
    assert shown.startswith(f"Installed in {root}")
    assert "crk · strict: " in shown and "crk · descriptive: " in shown
    assert dlg.findChild(QLabel, "glossariesShown").text() == "mini: glossary cree-terms"
    assert dlg.findChild(QLabel, "suite_foldersShown").text() == "(not set)"
