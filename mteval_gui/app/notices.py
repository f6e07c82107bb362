"""Warnings the application layer gives without stopping what it does (a damaged setting, …).

A warning is said once per process. The interfaces decide how it is shown: the command line
subscribes at start and prints each one on stderr (``mteval: warning: …``); the GUI shows the
ones about a workspace when it opens it. Warnings given while nobody listens are kept for the
first subscriber. This module imports nothing, so any command may subscribe for free.
"""

from __future__ import annotations

from collections.abc import Callable

_listeners: list[Callable[[str], None]] = []
_said: set[str] = set()
_pending: list[str] = []


def warn(message: str) -> None:
    """Tell every listener ``message`` (once per process)."""
    if message in _said:
        return
    _said.add(message)
    if not _listeners:
        _pending.append(message)
    for listener in list(_listeners):
        listener(message)


def subscribe(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener`` with every warning from now on (and with those nobody heard yet); returns
    the function that unsubscribes it."""
    _listeners.append(listener)
    pending, _pending[:] = list(_pending), []
    for message in pending:
        listener(message)

    def unsubscribe() -> None:
        if listener in _listeners:
            _listeners.remove(listener)

    return unsubscribe
