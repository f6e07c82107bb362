"""Settings of the application itself, independent of any workspace.

Stored as JSON in ``user_data_dir()/gui-settings.json`` (``MTEVAL_HOME`` moves it, so tests
never touch the user's file): the last workspace, recent workspaces, the interface
language and the window layout. A damaged file (not JSON, not an object) or key (a value of
the wrong type) never stops the GUI: the default is used for it, the other keys still apply,
and :attr:`AppSettings.problems` says what was wrong (the window shows it). Workspace
settings (analyzer folder, gloss files, COMET model, default reviewer) live in the
workspace's ``settings`` table instead.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mteval_gui.paths import user_data_dir

MAX_RECENT = 8


_TYPES: dict[str, tuple[type, ...]] = {
    "last_workspace": (str, type(None)), "recent_workspaces": (list,), "language": (str, type(None)),
    "geometry": (str, type(None)), "window_state": (str, type(None)), "demo_offered": (bool,),
    "last_folder": (str, type(None)), "reference_scripts": (dict,),
}
_EXPECTED = {"last_workspace": "a path or null", "recent_workspaces": "a list of paths",
             "language": "a language code or null", "geometry": "text or null", "window_state": "text or null",
             "demo_offered": "true or false", "last_folder": "a path or null",
             "reference_scripts": "an object {language code: script code}"}


@dataclass
class AppSettings:
    last_workspace: str | None = None
    recent_workspaces: list[str] = field(default_factory=list)
    language: str | None = None  # "en", "fr"; None = system locale
    geometry: str | None = None  # base64 of QMainWindow.saveGeometry()
    window_state: str | None = None
    demo_offered: bool = False
    last_folder: str | None = None  # where the last file dialog chose a file: the next one starts there
    # the script the review pane shows each language's reference in (ISO 15924; absent: as written)
    reference_scripts: dict[str, str] = field(default_factory=dict)
    # what was wrong with the file when it was loaded, one line each (never saved)
    problems: list[str] = field(default_factory=list, compare=False, repr=False)

    @staticmethod
    def path() -> Path:
        return user_data_dir() / "gui-settings.json"

    @classmethod
    def load(cls) -> AppSettings:
        """The settings of the file; a damaged file or key gives its default and a line in :attr:`problems`
        naming the file and the key (the other keys still apply)."""
        p = cls.path()
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except (OSError, UnicodeDecodeError) as exc:
            return cls(problems=[f"{p}: cannot be read ({exc}); the default settings are used"])
        try:
            data = json.loads(text)
        except ValueError as exc:
            return cls(problems=[f"{p}: not valid JSON ({exc}); the default settings are used"])
        if not isinstance(data, dict):
            return cls(problems=[f"{p}: holds {_json_type(data)}, not an object of settings; the default settings "
                                 "are used"])
        s = cls()
        for key, value in data.items():
            types = _TYPES.get(key)
            if types is None:
                continue  # a key of another version
            if not isinstance(value, types) or (bool in types) != isinstance(value, bool):
                s.problems.append(f"{p}: setting {key!r} should be {_EXPECTED[key]}, not {_json_type(value)}; "
                                  "its default is used")
                continue
            setattr(s, key, value)
        paths = [x for x in s.recent_workspaces if isinstance(x, str)]
        if len(paths) != len(s.recent_workspaces):
            s.problems.append(f"{p}: setting 'recent_workspaces' holds entries that are not paths; they are left out")
        s.recent_workspaces = paths[:MAX_RECENT]
        scripts = {k: v for k, v in s.reference_scripts.items() if isinstance(k, str) and isinstance(v, str)}
        if len(scripts) != len(s.reference_scripts):
            s.problems.append(f"{p}: setting 'reference_scripts' holds values that are not script codes; they are "
                              "left out")
        s.reference_scripts = scripts
        return s

    def save(self) -> None:
        p = self.path()
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        data = {k: v for k, v in asdict(self).items() if k != "problems"}
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
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





def _json_type(value: object) -> str:
    """How a JSON value is named in a message (``5 (a number)``, ``a list``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, int | float):
        return f"{value} (a number)"
    if isinstance(value, str):
        return f"the text {json.dumps(value[:40], ensure_ascii=False)}"
    return "a list" if isinstance(value, list) else "an object"
