"""The error helper and application settings."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from mteval_gui.app.preferences import MAX_RECENT, AppSettings
from mteval_gui.errors import Defect, DependencyMissing, InputError, StoreError
from mteval_gui.qt import dialogs


def test_input_error_lists_every_defect(qtbot, monkeypatch):
    exc = InputError([Defect("runs/a.jsonl", 3, "invalid JSON: Expecting value", 5),
                      Defect("runs/a.jsonl", 9, "unknown id 'x9'")])
    shown = []
    monkeypatch.setattr(dialogs, "_exec", lambda box: shown.append(box) or 0)
    dialogs.show_error(None, exc)
    box = shown[0]
    assert box.icon() == QMessageBox.Icon.Critical
    assert "runs/a.jsonl" in box.text() and "2" in box.text()
    assert box.detailedText() == "runs/a.jsonl:3:5: invalid JSON: Expecting value\nruns/a.jsonl:9: unknown id 'x9'"


def test_describe_other_errors():
    d = dialogs.describe_error(DependencyMissing("COMET", "pip install 'mteval-gui[comet]'"))
    assert d.detail == "pip install 'mteval-gui[comet]'"
    d = dialogs.describe_error(StoreError("ws.sqlite: locked"))
    assert d.message == "ws.sqlite: locked" and d.detail == ""
    try:
        raise ValueError("boom")
    except ValueError as exc:
        d = dialogs.describe_error(exc)
    assert d.message == "ValueError: boom" and "Traceback" in d.detail


def test_app_settings_round_trip_and_recent_list(tmp_path):
    s = AppSettings.load()
    assert s.last_workspace is None and s.recent_workspaces == []
    for i in range(MAX_RECENT + 2):
        s.remember_workspace(tmp_path / f"w{i}.sqlite")
    s.remember_workspace(tmp_path / "w3.sqlite")
    s.language = "fr"
    s.save()
    t = AppSettings.load()
    assert t.language == "fr"
    assert t.last_workspace == str(tmp_path / "w3.sqlite")
    assert len(t.recent_workspaces) == MAX_RECENT and t.recent_workspaces[0] == t.last_workspace
    assert t.recent_workspaces.count(t.last_workspace) == 1
    t.forget_workspace(tmp_path / "w3.sqlite")
    assert t.last_workspace is None and str(tmp_path / "w3.sqlite") not in t.recent_workspaces


def test_corrupt_settings_file_gives_defaults():
    AppSettings.path().parent.mkdir(parents=True, exist_ok=True)
    AppSettings.path().write_text("{not json", encoding="utf-8")
    assert AppSettings.load() == AppSettings()
