"""Workspace settings, typed (:class:`~mteval_gui.domain.settings.WorkspaceSettings`).

One way in and out for the settings dialog and ``mteval settings``: values are validated
against the model before anything is written, so a wrong type is an error naming the key,
never a silently ignored setting. Keys written by earlier versions (``glossary.<corpus>``)
are read into :attr:`WorkspaceSettings.glossaries`.

A stored row that is damaged (its value is not JSON, or not of the key's type: edited by hand
or by another program) never stops a command: that key is left at its default and a warning
names the key and the workspace (:func:`checked_settings`); the other keys still apply.
``mteval settings set`` or the settings dialog writes a good value over it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mteval_gui.app import notices
from mteval_gui.domain.settings import ANALYZER_KINDS, ScoringOptions, WorkspaceSettings
from mteval_gui.errors import MtevalError
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

LEGACY_GLOSSARY_PREFIX = "glossary."
LEGACY_SUITE_SUFFIX = "_suite"  # "<suite>_suite": one suite's folder, before suite_folders

__all__ = ["ANALYZER_KINDS", "ScoringOptions", "WorkspaceSettings", "SettingError", "load_settings", "save_settings",
           "set_setting", "unset_setting", "setting_rows", "settings_warnings", "checked_settings",
           "scoring_options_for", "analyzer_folder",
           "remember_suite_folder"]


class SettingError(MtevalError):
    """A setting key is unknown or its value has the wrong type."""


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())) or 'value'}: {e.get('msg')}" for e in exc.errors())


def load_settings(ws: Workspace) -> WorkspaceSettings:
    """The workspace's settings. A stored value that is damaged (not JSON, or not of the key's type)
    is left at its default, with a warning naming the key (:mod:`mteval_gui.app.notices`, once per
    process); the other keys still apply."""
    settings, problems = checked_settings(ws)
    for problem in problems:
        notices.warn(problem)
    return settings


def settings_warnings(ws: Workspace) -> list[str]:
    """What is wrong with the stored settings of ``ws``, one line per damaged key (empty: nothing)."""
    return checked_settings(ws)[1]


def checked_settings(ws: Workspace) -> tuple[WorkspaceSettings, list[str]]:
    """(the settings, one warning per damaged key): see :func:`load_settings`."""
    stored, damaged = repo.read_settings(ws)
    problems = [_warning(ws, key, why) for key, why in damaged.items()
                if key in WorkspaceSettings.model_fields or key.startswith(LEGACY_GLOSSARY_PREFIX)
                or _legacy_suite_key(key)]
    data: dict[str, Any] = {}
    glossaries: dict[str, str] = {}
    folders: dict[str, str] = {}
    for key, value in stored.items():
        if key.startswith(LEGACY_GLOSSARY_PREFIX) and isinstance(value, str):
            glossaries[key[len(LEGACY_GLOSSARY_PREFIX):]] = value
        elif key in WorkspaceSettings.model_fields:
            data[key] = value
        elif _legacy_suite_key(key) and isinstance(value, str):
            folders[key[: -len(LEGACY_SUITE_SUFFIX)]] = value
    out = WorkspaceSettings()
    for key, value in data.items():
        try:
            setattr(out, key, value)
        except ValidationError as exc:  # left at its default
            expected = WorkspaceSettings.type_name(key)
            problems.append(_warning(ws, key, f"{_value_problems(exc, key)} (expected {expected}, "
                                              f"found {_shown(value)})"))
    if glossaries:  # keys of earlier versions; the current key wins
        out.glossaries = {**glossaries, **out.glossaries}
    if folders:
        out.suite_folders = {**folders, **out.suite_folders}
    return out, problems


def _value_problems(exc: ValidationError, key: str) -> str:
    """The validation errors of one key's value, located inside the value (``crk: …``)."""
    out = []
    for e in exc.errors():
        loc = [str(p) for p in e.get("loc", ())]
        where = ".".join(loc[1:] if loc[:1] == [key] else loc)
        out.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
    return "; ".join(out)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _warning(ws: Workspace, key: str, why: str) -> str:
    return f"workspace {ws.path}: setting {key!r} is damaged: {why}; its default is used"


def _legacy_suite_key(key: str) -> bool:
    return (key.endswith(LEGACY_SUITE_SUFFIX) and key != LEGACY_SUITE_SUFFIX
            and key not in WorkspaceSettings.model_fields)


def remember_suite_folder(ws: Workspace, suite: str, folder: str) -> WorkspaceSettings:
    """Store the folder of ``suite``'s test files last opened (``suite_folders``)."""
    settings = load_settings(ws)
    return set_setting(ws, "suite_folders", {**settings.suite_folders, suite: folder})


def _store(ws: Workspace, key: str, value: Any) -> None:
    default = WorkspaceSettings.describe(key)[2]
    repo.set_setting(ws, key, None if value in (None, "", default) else value)


def save_settings(ws: Workspace, settings: WorkspaceSettings) -> None:
    """Write every key (defaults delete their row)."""
    data = settings.model_dump(mode="json")
    for key in WorkspaceSettings.keys():  # noqa: SIM118 - keys() is the model's own classmethod, not dict.keys
        _store(ws, key, data[key])
    for key in repo.all_settings(ws):
        if key.startswith(LEGACY_GLOSSARY_PREFIX) or _legacy_suite_key(key):
            repo.set_setting(ws, key, None)


def set_setting(ws: Workspace, key: str, value: Any) -> WorkspaceSettings:
    """Validate and store one key; returns the settings after the change."""
    if key not in WorkspaceSettings.model_fields:
        raise SettingError(f"unknown setting {key!r}; known settings: {', '.join(WorkspaceSettings.keys())}")
    settings = load_settings(ws)
    try:
        setattr(settings, key, value)
    except ValidationError as exc:
        raise SettingError(f"setting {key!r} ({WorkspaceSettings.type_name(key)}): {_problems(exc)}") from exc
    if key in ("glossaries", "suite_folders"):
        save_settings(ws, settings)  # also drops the keys of earlier versions
    else:
        _store(ws, key, settings.model_dump(mode="json")[key])
    return settings


def unset_setting(ws: Workspace, key: str) -> None:
    if key not in WorkspaceSettings.model_fields:
        raise SettingError(f"unknown setting {key!r}; known settings: {', '.join(WorkspaceSettings.keys())}")
    if key in ("glossaries", "suite_folders"):
        for k in repo.all_settings(ws):
            if (k.startswith(LEGACY_GLOSSARY_PREFIX) if key == "glossaries" else _legacy_suite_key(k)):
                repo.set_setting(ws, k, None)
    repo.set_setting(ws, key, None)


def setting_rows(ws: Workspace) -> list[tuple[str, str, Any, bool, str]]:
    """(key, type, value, is_default, label) for every key, for listing."""
    settings = load_settings(ws)
    data = settings.model_dump(mode="json")
    rows = []
    for key in WorkspaceSettings.keys():  # noqa: SIM118 - keys() is the model's own classmethod, not dict.keys
        label, _, default = WorkspaceSettings.describe(key)
        rows.append((key, WorkspaceSettings.type_name(key), data[key], data[key] == default, label))
    return rows


def scoring_options_for(ws: Workspace, target_lang: str, overrides: ScoringOptions | None = None) -> ScoringOptions:
    """The options a run with target language ``target_lang`` is scored with: the workspace
    settings, then the caller's overrides (the set fields of ``overrides`` win)."""
    base = ScoringOptions.from_settings(load_settings(ws), target_lang)
    if overrides is None:
        return base
    return base.merged(**{k: v for k, v in overrides.model_dump().items() if k in overrides.model_fields_set})


def analyzer_folder(ws: Workspace) -> Path:
    """The folder analyzers are installed to and looked up in (the setting, else the user folder)."""
    from mteval_gui.paths import analyzers_dir

    folder = load_settings(ws).analyzer_dir
    return Path(folder).expanduser() if folder else analyzers_dir()
