"""Test configuration shared by every test package.

- Qt runs offscreen; core tests never import Qt.
- ``shared_data`` tests read ``../shared`` (or ``$MTEVAL_SHARED``); they skip when it is
  absent, except in CI (``CI=true``) where a missing folder is a failure.
- Nothing reads or writes the user's real folders: before any fixture runs (session-scoped
  ones included), ``MTEVAL_HOME``, the XDG folders and the Hugging Face cache point into one
  temporary folder per test session, and the variables that name real files are removed;
  every test then gets its own ``MTEVAL_HOME`` on top.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# --- user folders, isolated for the whole session (session fixtures included) -------------------
SESSION_ROOT = Path(tempfile.mkdtemp(prefix="mteval-tests-"))
for _var, _sub in (("MTEVAL_HOME", "mteval-home"), ("XDG_DATA_HOME", "xdg-data"), ("XDG_CACHE_HOME", "xdg-cache"),
                   ("XDG_CONFIG_HOME", "xdg-config"), ("XDG_STATE_HOME", "xdg-state"), ("HF_HOME", "hf-home"),
                   ("HF_HUB_CACHE", "hf-home/hub")):
    os.environ[_var] = str(SESSION_ROOT / _sub)
for _var in ("MTEVAL_DB", "MTEVAL_ANALYZERS", "MTEVAL_CARDS_DIR", "MTEVAL_FST_BACKEND", "HF_TOKEN"):
    os.environ.pop(_var, None)
os.environ["HF_HUB_OFFLINE"] = "1"  # tests never touch the network; the download tests unset it locally

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MTEVAL_SHARED", REPO.parent / "shared")).resolve()
SHARED_DATA = SHARED / "data"


def pytest_collection_modifyitems(config, items):
    if SHARED_DATA.is_dir():
        return
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(f"CI=true but the shared data folder is missing: {SHARED_DATA}")
    skip = pytest.mark.skip(reason=f"shared data folder not found at {SHARED_DATA}")
    for item in items:
        if "shared_data" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("mteval_home")
    monkeypatch.setenv("MTEVAL_HOME", str(home))
    monkeypatch.delenv("MTEVAL_DB", raising=False)
    monkeypatch.delenv("MTEVAL_ANALYZERS", raising=False)
    # review packs embed fonts: only the system's, never a user's own font folders
    monkeypatch.setenv("MTEVAL_FONT_DIRS", os.pathsep.join(("/usr/share/fonts", "/usr/local/share/fonts")))
    yield home
    # the Ewe standard keeps the card a job or a suite handed over: the next test starts from the bundled one
    orthography = sys.modules.get("eval_standards.ewe.orthography")
    if orthography is not None:
        orthography.use_card(None)


@pytest.fixture
def shared_data() -> Path:
    """Path of ``../shared/data`` (tests using it must be marked ``shared_data``)."""
    return SHARED_DATA


@pytest.fixture
def workspace(tmp_path):
    from mteval_gui.store import Workspace

    ws = Workspace(tmp_path / "ws.sqlite")
    yield ws
    ws.close()
