"""Which workspace the application opens at start; a missing last workspace is never replaced silently."""

from __future__ import annotations

from pathlib import Path

from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.startup import StartupDecision, startup_decision
from mteval_gui.paths import default_workspace_path


def test_a_missing_last_workspace_is_reported_not_replaced(tmp_path, monkeypatch):
    monkeypatch.delenv("MTEVAL_DB", raising=False)
    gone = tmp_path / "usb" / "field-work.sqlite"
    for settings in (AppSettings(last_workspace=str(gone), recent_workspaces=[str(gone)], demo_offered=True),
                     AppSettings(last_workspace=str(gone), demo_offered=False),
                     AppSettings(recent_workspaces=[str(gone)], demo_offered=True)):
        assert startup_decision(demo=False, db=None, settings=settings) == StartupDecision(missing=gone)
    assert not gone.exists() and not gone.parent.exists()
    assert not default_workspace_path().exists()


def test_the_last_workspace_opens_when_it_exists(tmp_path, monkeypatch):
    monkeypatch.delenv("MTEVAL_DB", raising=False)
    there = tmp_path / "ws.sqlite"
    there.write_bytes(b"")
    assert startup_decision(demo=False, db=None, settings=AppSettings(last_workspace=str(there))) == \
        StartupDecision(there)


def test_first_start_offers_the_demo_and_later_starts_open_the_default(monkeypatch):
    monkeypatch.delenv("MTEVAL_DB", raising=False)
    assert startup_decision(demo=False, db=None, settings=AppSettings()) == StartupDecision(offer_demo=True)
    assert startup_decision(demo=False, db=None, settings=AppSettings(demo_offered=True)) == \
        StartupDecision(default_workspace_path())


def test_explicit_choices_come_first(tmp_path, monkeypatch):
    gone = str(tmp_path / "gone.sqlite")
    monkeypatch.setenv("MTEVAL_DB", str(tmp_path / "env.sqlite"))
    settings = AppSettings(last_workspace=gone)
    assert startup_decision(demo=False, db=None, settings=settings) == StartupDecision(tmp_path / "env.sqlite")
    assert startup_decision(demo=False, db="x.sqlite", settings=settings) == StartupDecision(Path("x.sqlite"))
