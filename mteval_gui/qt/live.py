"""Live views: notice changes that other processes made to the open workspace.

:class:`WorkspaceWatcher` polls :func:`mteval_gui.app.workspace.data_version` (SQLite's
``PRAGMA data_version``: it changes only when *another* connection committed — ``mteval score``
in a terminal, a worker thread's import, a child process's scoring batch) while the window is
active, and checks at once when the window becomes active again. It emits ``changed`` when the
number moved; the window then rereads what it shows. Polling costs one pragma on the GUI
thread's connection (microseconds), and nothing while the window is in the background.

When the window becomes active, the installed plugins are also compared with those discovered
(:func:`mteval_gui.app.standards.rediscover_if_changed`: 17 ms with 171 installed
distributions): a plugin installed meanwhile is discovered and ``changed`` is emitted, so runs
scored with its metrics are not shown as stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from mteval_gui.app.standards import rediscover_if_changed
from mteval_gui.app.workspace import data_version

POLL_MS = 1000


class WorkspaceWatcher(QObject):
    """Emits ``changed`` when another process committed to the workspace (see the module docstring)."""

    changed = Signal()

    def __init__(self, window: QWidget, workspace: Callable[[], Any], interval_ms: int = POLL_MS):
        super().__init__(window)
        self.window = window
        self._workspace = workspace
        self._seen: int | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        window.installEventFilter(self)

    def reset(self) -> None:
        """Take the workspace as it is now as seen (after opening it or rereading it)."""
        ws = self._workspace()
        self._seen = data_version(ws) if ws is not None else None
        self._update_timer()

    def pending(self) -> bool:
        """True when the workspace changed since it was last seen (without emitting)."""
        ws = self._workspace()
        return ws is not None and self._seen is not None and data_version(ws) != self._seen

    def check(self) -> bool:
        """Look now: emit ``changed`` (and return True) if another process changed the workspace."""
        ws = self._workspace()
        if ws is None:
            self._seen = None
            return False
        version = data_version(ws)
        if self._seen is None:
            self._seen = version
            return False
        if version == self._seen:
            return False
        self._seen = version
        self.changed.emit()
        return True

    def _update_timer(self) -> None:
        if self.window.isActiveWindow() and self._workspace() is not None:
            if not self.timer.isActive():
                self.timer.start()
        else:
            self.timer.stop()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self.window and event.type() == QEvent.Type.ActivationChange:
            self._update_timer()
            if self.window.isActiveWindow() and not self.check() and rediscover_if_changed():
                self.changed.emit()  # a plugin was installed or removed meanwhile: the runs' staleness may differ
        return False
