"""The page contract: what every tab of the main window implements.

A :class:`Page` is a ``QWidget`` that

- **``set_workspace(ws)``** takes the workspace to show (``None``: no workspace). The base
  class stores it, drops the page's running background work (its results belong to the old
  workspace) and marks the page stale.
- **``refresh()``** rereads what the page shows from ``self.ws``. The window calls
  :meth:`mark_stale` when the workspace changed (an import, scoring, another process); a
  visible page refreshes at once, a hidden one when it is next shown, so only the page in
  view pays for reading.
- **``empty_state()``** says what the page shows when it has nothing to show: an
  :class:`EmptyState` (a title, a paragraph and buttons for the first steps) replaces the
  page's body until :meth:`update_empty` finds content again. ``None`` shows the body.
- **background work** goes through :meth:`task`: one :class:`~mteval_gui.qt.background.BackgroundTask`
  per kind of work, with the page's :attr:`busy` bar, so nothing computes on the GUI thread
  and a stale result is never applied. :meth:`shutdown` cancels and joins them (the window
  calls it when it closes).
- **``attach(context)``**: the window gives each page a :class:`PageContext`, what a page may
  ask of it (the current reviewer, open runs in the entries table, a run changed, show me), so
  the window adds every page the same way. ``show_runs(run_ids)`` routes runs to a page (the
  compare tab takes the runs the Runs tab chose); False: the page takes none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from mteval_gui.qt.background import BackgroundTask, BusyBar


@dataclass
class EmptyState:
    """What a page shows instead of its body when there is nothing to show."""

    title: str
    text: str = ""
    actions: list[tuple[str, Callable[[], None]]] = field(default_factory=list)


@dataclass
class PageContext:
    """What a page may ask of the window that holds it (a page on its own gets this no-op one)."""

    reviewer: Callable[[], str | None] = lambda: None  # the reviewer chosen in the ratings panel
    open_entries: Callable[[list[str]], None] = lambda run_ids: None  # side by side in the entries table
    run_changed: Callable[[str], None] = lambda run_id: None  # a run's row in the runs table is stale
    show: Callable[[QWidget], None] = lambda page: None  # bring a page to the front
    # rate a campaign's share on the desktop: (run ids, entry ids, reviewer id, what the scope is)
    review_share: Callable[[list[str], list[str], str, str], None] = lambda runs, entries, reviewer, label: None


class EmptyView(QWidget):
    """The empty state of a page: a title, an explanation and first-step buttons."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("emptyView")
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        self.title = QLabel()
        self.title.setObjectName("emptyTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title.setWordWrap(True)
        self.text = QLabel()
        self.text.setObjectName("emptyText")
        self.text.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setMaximumWidth(720)
        outer.addWidget(self.title)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.text)
        row.addStretch(1)
        outer.addLayout(row)
        self.buttons_row = QHBoxLayout()
        outer.addLayout(self.buttons_row)
        outer.addStretch(2)
        self.buttons: list[QPushButton] = []

    def show_state(self, state: EmptyState) -> None:
        self.title.setText(state.title)
        self.text.setText(state.text)
        self.text.setVisible(bool(state.text))
        for b in self.buttons:  # hidden at once: deleteLater waits for the event loop
            self.buttons_row.removeWidget(b)
            b.hide()
            b.setParent(None)
            b.deleteLater()
        self.buttons = []
        while self.buttons_row.count():
            self.buttons_row.takeAt(0)
        self.buttons_row.addStretch(1)
        for i, (label, slot) in enumerate(state.actions):
            b = QPushButton(label)
            b.setObjectName(f"emptyAction{i}")
            b.clicked.connect(lambda _=False, s=slot: s())
            self.buttons_row.addWidget(b)
            self.buttons.append(b)
        self.buttons_row.addStretch(1)


class Page(QWidget):
    """Base class of the window's tabs (see the module docstring for the contract)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws: Any = None
        self.context = PageContext()
        self._stale = True
        self._tasks: dict[str, BackgroundTask] = {}
        self._stack = QStackedWidget()
        self._body: QWidget | None = None
        self.empty_view = EmptyView()
        self.busy = BusyBar()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        outer.addWidget(self._stack, 1)
        outer.addWidget(self.busy)
        self._stack.addWidget(self.empty_view)

    # ----- layout --------------------------------------------------------------------------
    def set_body(self, body: QWidget) -> None:
        """The widget that shows the page's content (shown unless :meth:`empty_state` says otherwise)."""
        self._body = body
        self._stack.addWidget(body)
        self._stack.setCurrentWidget(body)

    def body_layout(self) -> QVBoxLayout:
        """A fresh body widget with a vertical layout (a shortcut for :meth:`set_body`)."""
        body = QWidget()
        lay = QVBoxLayout(body)
        self.set_body(body)
        return lay

    @property
    def showing_empty(self) -> bool:
        return self._stack.currentWidget() is self.empty_view

    def update_empty(self) -> None:
        """Show the empty state or the body, as :meth:`empty_state` says."""
        state = self.empty_state()
        if state is None:
            if self._body is not None:
                self._stack.setCurrentWidget(self._body)
            return
        self.empty_view.show_state(state)
        self._stack.setCurrentWidget(self.empty_view)

    # ----- the contract --------------------------------------------------------------------
    def attach(self, context: PageContext) -> None:
        self.context = context

    def show_runs(self, run_ids: list[str]) -> bool:
        """Take the runs ``run_ids`` (override); False: this page takes no runs."""
        return False

    def set_workspace(self, ws: Any) -> None:
        self.ws = ws
        for t in self._tasks.values():
            t.cancel()
        self.mark_stale()

    def refresh(self) -> None:
        """Reread what the page shows from ``self.ws`` (override)."""
        self.update_empty()

    def empty_state(self) -> EmptyState | None:
        """What to show when there is nothing to show (override); None shows the body."""
        return None

    def mark_stale(self) -> None:
        """The workspace changed: refresh now if the page is visible, else when it is shown."""
        self._stale = True
        if self.isVisible():
            self.refresh_if_stale()

    def refresh_if_stale(self) -> None:
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.refresh_if_stale()

    # ----- background work -----------------------------------------------------------------
    def task(self, name: str, title: str = "") -> BackgroundTask:
        """The page's background task called ``name`` (created on first use, with the busy bar)."""
        t = self._tasks.get(name)
        if t is None:
            t = BackgroundTask(self, name, busy=self.busy, title=title)
            self._tasks[name] = t
        return t

    def busy_tasks(self) -> list[str]:
        return [name for name, t in self._tasks.items() if t.running]

    def shutdown(self) -> None:
        for t in self._tasks.values():
            t.shutdown()
