"""The window discovers a plugin installed while it was open when it becomes active again."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from mteval_gui import standards
from mteval_gui.app.preferences import AppSettings
from mteval_gui.qt.main import build_window
from tests.scoring.role_metrics import install_zzx_plugin, make_zzx_workspace, uninstall_zzx_plugin


def test_activating_the_window_rediscovers_plugins_and_rereads_the_runs(qtbot, tmp_path, monkeypatch):
    install_zzx_plugin(monkeypatch)
    make_zzx_workspace(tmp_path / "ws.sqlite", monkeypatch).close()  # scored by "another program"
    with_plugin = standards._entry_points
    monkeypatch.setattr(standards, "_entry_points", lambda: [c for c in with_plugin() if c[0].name != "zzx_standard"])
    standards.refresh_plugins()  # the window started before the plugin was installed
    window = build_window(AppSettings())
    qtbot.addWidget(window)
    try:
        window.show()
        qtbot.waitExposed(window)
        window.open_workspace(tmp_path / "ws.sqlite")
        [row] = window.runs_view.model.rows
        assert row.stale_reasons == ["the language card is gone", "metric zzx.checker is no longer installed"]
        monkeypatch.setattr(standards, "_entry_points", with_plugin)  # pip install, in a terminal
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        QApplication.sendEvent(window, QEvent(QEvent.Type.ActivationChange))  # (again, if it already was)
        qtbot.waitUntil(lambda: window.runs_view.model.rows[0].stale_reasons == [])
        assert window.runs_view.model.rows[0].freshness == "current"
    finally:
        window.close()
        monkeypatch.undo()
        uninstall_zzx_plugin()
