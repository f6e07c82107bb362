"""Tests never see the user's real folders, not even from session-scoped fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import SESSION_ROOT


@pytest.fixture(scope="session")
def folders_seen_by_a_session_fixture() -> dict[str, Path]:
    from mteval_gui import paths

    return {"data": paths.user_data_dir(), "analyzers": paths.analyzers_dir(), "models": paths.models_dir(),
            "cache": paths.user_cache_dir(), "workspace": paths.default_workspace_path()}


def test_session_fixtures_use_the_session_folder(folders_seen_by_a_session_fixture):
    for what, folder in folders_seen_by_a_session_fixture.items():
        assert folder.is_relative_to(SESSION_ROOT), f"{what}: {folder}"


def test_real_home_folders_are_not_reachable():
    from mteval_gui import paths
    from mteval_gui.app.models import hub_cache_dir

    home = Path.home()
    for folder in (paths.user_data_dir(), paths.analyzers_dir(), paths.models_dir(), paths.user_cache_dir()):
        assert not folder.is_relative_to(home / ".local") and not folder.is_relative_to(home / ".cache"), folder
    cache = hub_cache_dir()
    if cache is not None:
        assert cache.is_relative_to(SESSION_ROOT), cache
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert "MTEVAL_ANALYZERS" not in os.environ and "MTEVAL_DB" not in os.environ
