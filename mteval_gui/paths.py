"""Where the application's bundled data and per-user folders are.

One module answers for a source checkout, an installed wheel and a frozen bundle alike:
bundled folders (``language_cards``, ``resources``) sit at the repository root in a
checkout, inside the ``mteval_gui`` package in a wheel, and under ``sys._MEIPASS`` in a
PyInstaller bundle.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

APP_NAME = "mteval-gui"
_PKG_DIR = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    candidates = []
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        candidates.append(Path(meipass) / name)
    candidates.append(_PKG_DIR.parent / name)  # source checkout / editable install
    candidates.append(_PKG_DIR / name)  # wheel (package-dir mapping)
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(f"bundled folder {name!r} not found (looked in {', '.join(map(str, candidates))})")


@cache
def language_cards_dir() -> Path:
    return _bundled("language_cards")


@cache
def resources_dir() -> Path:
    return _bundled("resources")


def bundled_fonts_dir() -> Path:
    """Fonts shipped with a bundle (``resources/fonts``; absent in a checkout or a wheel)."""
    return resources_dir() / "fonts"


def is_frozen() -> bool:
    """Whether this is the PyInstaller bundle (no pip, no optional extras inside)."""
    return bool(getattr(sys, "frozen", False))


def extra_install_hint(extra: str) -> str:
    """How to get optional extra ``extra``: the pip command, and in a bundle that the bundle lacks it."""
    command = f"pip install 'mteval-gui[{extra}]'"
    if is_frozen():
        return f"this bundle does not include it; install mteval-gui with pip instead: {command}"
    return command


def schemas_dir() -> Path:
    return resources_dir() / "schemas"


def demo_dir() -> Path:
    return resources_dir() / "demo"


def user_data_dir() -> Path:
    """Per-user data folder (XDG on Linux). ``MTEVAL_HOME`` overrides it (tests use this)."""
    override = os.environ.get("MTEVAL_HOME")
    if override:
        base = Path(override)
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / APP_NAME
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support" / APP_NAME
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP_NAME
    return base


def user_cards_dir() -> Path:
    """Per-user folder of language cards (``mteval cards add`` copies cards here)."""
    return user_data_dir() / "language_cards"


def default_workspace_path() -> Path:
    """``--db`` beats ``MTEVAL_DB`` beats this default."""
    env = os.environ.get("MTEVAL_DB")
    if env:
        return Path(env)
    return user_data_dir() / "workspace.sqlite"


def analyzers_dir() -> Path:
    """Per-user folder where installed analyzers live, one sub-folder per language code.

    ``MTEVAL_ANALYZERS`` overrides it.
    """
    env = os.environ.get("MTEVAL_ANALYZERS")
    return Path(env) if env else user_data_dir() / "analyzers"


def models_dir() -> Path:
    return user_data_dir() / "models"


def user_cache_dir() -> Path:
    """Per-user cache folder (compiled code; safe to delete). Under ``MTEVAL_HOME`` when set."""
    override = os.environ.get("MTEVAL_HOME")
    if override:
        return Path(override) / "cache"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / APP_NAME / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP_NAME
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / APP_NAME

