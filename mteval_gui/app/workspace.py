"""Opening a workspace and reading what it holds (corpora, runs, glossaries, entries, outputs).

:class:`Workspace` is the handle the interfaces pass around; they never touch its
connection. Reads are the store's own functions, named here so that the CLI and the GUI
reach them through the application layer only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.errors import MtevalError
from mteval_gui.paths import default_workspace_path
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.repo import (
    NotFoundError,
    corpus_exists,
    get_corpus_info,
    get_entries,
    get_entry,
    get_output,
    get_run_info,
    list_corpora,
    list_glossaries,
    list_runs,
    run_exists,
)

__all__ = [
    "Workspace", "NotFoundError", "open_workspace", "workspace_summary", "corpus_exists", "run_exists",
    "get_corpus_info", "get_entries", "get_entry", "get_output", "get_run_info", "list_corpora", "list_glossaries",
    "list_runs", "require_run", "data_version", "target_language", "entry_and_output", "run_labels",
]


def open_workspace(path: str | Path | None = None, *, convert: bool = False) -> Workspace:
    """Open (creating and migrating when needed) the workspace at ``path``, else the default one.

    ``convert`` turns another application's SQLite file into a workspace (after a backup).
    """
    return Workspace(Path(path) if path is not None else default_workspace_path(), convert=convert)


def workspace_summary(ws: Workspace) -> dict[str, Any]:
    """Path, schema version and row counts (``mteval workspace info``)."""
    return {"path": str(ws.path), "schema_version": ws.schema_version(), "counts": repo.counts(ws)}


def data_version(ws: Workspace) -> int:
    """A number that changes when another process (or thread) has committed a change to the
    workspace since it was last read on this thread (SQLite ``PRAGMA data_version``)."""
    return ws.data_version()


def require_run(ws: Workspace, run_id: str) -> None:
    if not run_exists(ws, run_id):
        raise MtevalError(f"no run {run_id!r} in the workspace {ws.path}")


def target_language(ws: Workspace, corpus_id: str) -> str:
    return str(get_corpus_info(ws, corpus_id)["target_lang"])


def entry_and_output(ws: Workspace, corpus_id: str, run_id: str, entry_id: str) -> tuple[Entry, Output]:
    return get_entry(ws, corpus_id, entry_id), get_output(ws, run_id, entry_id)


def run_labels(ws: Workspace) -> dict[str, str]:
    """``{run_id: system name}`` (the model slug, else the run id)."""
    return {r["run_id"]: r.get("model_slug") or r["run_id"] for r in list_runs(ws)}
