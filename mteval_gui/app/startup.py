"""Which workspace the application opens at start, and the bundled demo workspace.

Order: ``--demo`` → ``--db PATH`` → ``$MTEVAL_DB`` → the last workspace used (if it still
exists) → on first start, an offer to open the demo workspace, else the default
workspace in the user data folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from mteval_gui.app.demo import ensure_demo_workspace
from mteval_gui.app.preferences import AppSettings
from mteval_gui.paths import default_workspace_path

__all__ = ["ensure_demo_workspace", "startup_workspace"]


def startup_workspace(*, demo: bool, db: str | None, settings: AppSettings) -> tuple[Path | None, bool]:
    """(workspace to open, whether to offer the demo first). None path = ask via the offer."""
    if demo:
        return ensure_demo_workspace(), False
    if db:
        return Path(db), False
    env = os.environ.get("MTEVAL_DB")
    if env:
        return Path(env), False
    if settings.last_workspace and Path(settings.last_workspace).exists():
        return Path(settings.last_workspace), False
    if not settings.demo_offered:
        return None, True
    return default_workspace_path(), False
