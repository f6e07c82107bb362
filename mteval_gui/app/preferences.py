"""Settings of the application itself, independent of any workspace.

Stored as JSON in ``user_data_dir()/gui-settings.json`` (``MTEVAL_HOME`` moves it, so tests
never touch the user's file): the last workspace, recent workspaces, the interface
language and the window layout. Workspace settings (analyzer folder, gloss files, COMET
model, default reviewer) live in the workspace's ``settings`` table instead.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mteval_gui.paths import user_data_dir

MAX_RECENT = 8


@dataclass
class AppSettings:
    last_workspace: str | None = None
    recent_workspaces: list[str] = field(default_factory=list)
    language: str | None = None  # "en", "fr"; None = system locale
    geometry: str | None = None  # base64 of QMainWindow.saveGeometry()
    window_state: str | None = None
    demo_offered: bool = False

    @staticmethod
    def path() -> Path:
        return user_data_dir() / "gui-settings.json"

    @classmethod
    def load(cls) -> AppSettings:
        p = cls.path()
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__} if isinstance(data, dict) else {}
        s = cls(**known)
        s.recent_workspaces = [x for x in s.recent_workspaces if isinstance(x, str)][:MAX_RECENT]
        return s

    def save(self) -> None:
        p = self.path()
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, p)

    def remember_workspace(self, path: str | Path) -> None:
        s = str(Path(path).expanduser().resolve())
        self.last_workspace = s
        self.recent_workspaces = [s] + [x for x in self.recent_workspaces if x != s]
        del self.recent_workspaces[MAX_RECENT:]

    def forget_workspace(self, path: str | Path) -> None:
        s = str(Path(path).expanduser().resolve())
        self.recent_workspaces = [x for x in self.recent_workspaces if x != s]
        if self.last_workspace == s:
            self.last_workspace = None



