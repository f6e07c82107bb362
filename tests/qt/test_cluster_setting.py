"""The Ray cluster setting: edited in the workspace settings dialog, given to the scoring job."""

from __future__ import annotations

import sys

from mteval_gui.app.settings import load_settings, set_setting
from mteval_gui.qt import scoring_control
from mteval_gui.qt.settings_dialog import SettingsDialog


def test_the_settings_dialog_saves_the_cluster_address(qtbot, small_ws):
    dlg = SettingsDialog(small_ws)
    qtbot.addWidget(dlg)
    assert dlg.cluster_edit.text() == ""
    dlg.cluster_edit.setText("  10.0.0.5:6379 ")
    dlg.save()
    assert load_settings(small_ws).cluster == "10.0.0.5:6379"
    again = SettingsDialog(small_ws)
    qtbot.addWidget(again)
    assert again.cluster_edit.text() == "10.0.0.5:6379"
    again.cluster_edit.setText("")
    again.save()
    assert load_settings(small_ws).cluster is None


def test_score_hands_the_cluster_to_the_job(window, small_ws, monkeypatch):
    set_setting(small_ws, "cluster", "local")
    assert window.open_workspace(small_ws.path)
    started = []
    monkeypatch.setattr(window.scoring.jobs, "start", started.append)  # the job itself is not run
    monkeypatch.setitem(sys.modules, "ray", object())  # "installed"
    window.score_runs(["good"])
    assert len(started) == 1 and window.scoring.kwargs["cluster"] == "local"
    assert window.scoring.kwargs["run_ids"] == ["good"]
    window.scoring.worker = None


def test_without_ray_score_says_how_to_install_it_and_starts_nothing(window, small_ws, monkeypatch):
    set_setting(small_ws, "cluster", "local")
    assert window.open_workspace(small_ws.path)
    shown: list[BaseException] = []
    monkeypatch.setattr(scoring_control, "show_error", lambda parent, exc: shown.append(exc))
    monkeypatch.setitem(sys.modules, "ray", None)
    window.score_runs(["good"])
    assert window.scoring.worker is None
    assert [str(e) for e in shown] == [
        "scoring on a cluster needs Ray, which is not installed: pip install 'mteval-gui[cluster]'"]
