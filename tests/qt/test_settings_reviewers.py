"""Workspace settings dialog and reviewers dialog."""

from __future__ import annotations

from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt.reviewers_dialog import ReviewersDialog
from mteval_gui.qt.settings_dialog import SettingsDialog, scoring_options
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo


def test_settings_saved_and_turned_into_scoring_options(qtbot, small_ws, tmp_path):
    jstore.add_reviewer(small_ws, Reviewer(reviewer_id="amy", name="Amy"))
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.analyzer_edit.setText(str(tmp_path / "fst"))
    dlg.add_gloss_file("crk", str(tmp_path / "crk.importjson"))
    dlg.comet_edit.setText("Unbabel/wmt22-comet-da")
    dlg.reviewer_combo.setCurrentIndex(dlg.reviewer_combo.findData("amy"))
    dlg.save()
    assert repo.get_setting(small_ws, "default_reviewer") == "amy"
    options, env = scoring_options(small_ws)
    assert options == {"gloss_files": {"crk": [str(tmp_path / "crk.importjson")]},
                       "comet_model": "Unbabel/wmt22-comet-da"}
    assert env == {"MTEVAL_ANALYZERS": str(tmp_path / "fst")}
    dlg2 = SettingsDialog(small_ws)
    qtbot.addWidget(dlg2)
    dlg2.comet_edit.setText("")
    dlg2.save()
    assert "comet_model" not in scoring_options(small_ws)[0]


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
    assert repo.get_setting(small_ws, "default_reviewer") == "mary-cardinal"


def test_reviewer_without_name_is_refused(qtbot, small_ws, monkeypatch):
    from mteval_gui.qt import reviewers_dialog

    shown = []
    monkeypatch.setattr(reviewers_dialog, "show_error", lambda parent, exc: shown.append(exc))
    dlg = ReviewersDialog(small_ws)
    qtbot.addWidget(dlg)
    dlg.id_edit.setText("x")
    dlg.save()
    assert shown and "name" in str(shown[0])
    assert jstore.list_reviewers(small_ws) == []
