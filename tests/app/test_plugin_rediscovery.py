"""A plugin installed while the application runs is discovered before runs are judged stale or scored.

The GUI discovers the plugins once; a run scored meanwhile by ``mteval score`` (another process,
which sees the new plugin) must not show "metric … is no longer installed" until a restart.
"""

from __future__ import annotations

from mteval_gui import standards
from mteval_gui.app.runs import load_run_rows
from mteval_gui.app.scoring_config import plan_scoring
from mteval_gui.app.standards import installed_plugins, rediscover_if_changed
from tests.scoring.role_metrics import install_zzx_plugin, make_zzx_workspace, uninstall_zzx_plugin


def _started_before_the_install(monkeypatch):
    """Make this process's plugins those discovered before ``zzx_standard`` was installed (it still is)."""
    with_plugin = standards._entry_points
    monkeypatch.setattr(standards, "_entry_points",
                        lambda: [c for c in with_plugin() if c[0].name != "zzx_standard"])
    standards.refresh_plugins()
    assert installed_plugins().get("zzx_standard") is None
    monkeypatch.setattr(standards, "_entry_points", with_plugin)  # installed now, not yet discovered


def test_the_runs_table_discovers_a_plugin_installed_meanwhile(tmp_path, monkeypatch):
    install_zzx_plugin(monkeypatch)
    ws = make_zzx_workspace(tmp_path / "ws.sqlite", monkeypatch)
    try:
        _started_before_the_install(monkeypatch)
        [row] = load_run_rows(ws)
        assert (row.run_id, row.freshness, row.stale_reasons) == ("zrun", "current", [])
        assert installed_plugins().get("zzx_standard") is not None
        assert rediscover_if_changed() is False  # nothing changed since
    finally:
        ws.close()
        monkeypatch.undo()
        uninstall_zzx_plugin()


def test_scoring_plans_discover_a_plugin_installed_meanwhile(tmp_path, monkeypatch):
    install_zzx_plugin(monkeypatch)
    ws = make_zzx_workspace(tmp_path / "ws.sqlite", monkeypatch)
    try:
        _started_before_the_install(monkeypatch)
        [plan] = plan_scoring(ws, ["zrun"]).runs
        assert (plan.state, plan.stale) == ("current", [])
    finally:
        ws.close()
        monkeypatch.undo()
        uninstall_zzx_plugin()


def test_removing_a_plugin_is_noticed_too(monkeypatch):
    before = standards._entry_points
    install_zzx_plugin(monkeypatch)
    try:
        assert rediscover_if_changed() is False
        monkeypatch.setattr(standards, "_entry_points", before)  # uninstalled by another program
        assert rediscover_if_changed() is True
        assert installed_plugins().get("zzx_standard") is None
    finally:
        monkeypatch.undo()
        uninstall_zzx_plugin()
