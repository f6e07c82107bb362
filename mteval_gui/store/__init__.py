"""The SQLite workspace (sqlite-utils). No Qt, no scoring internals."""

from mteval_gui.store.db import Workspace

__all__ = ["Workspace"]
