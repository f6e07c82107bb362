"""The SQLite workspace (sqlite-utils). No Qt, no scoring internals.

``Workspace`` is loaded on first use, so that the content hashes (:mod:`.hashing`) are there
without sqlite-utils (``mteval evaluate`` needs no workspace).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mteval_gui.store.db import Workspace

__all__ = ["Workspace"]


def __getattr__(name: str) -> Any:
    if name == "Workspace":
        from mteval_gui.store.db import Workspace

        return Workspace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
