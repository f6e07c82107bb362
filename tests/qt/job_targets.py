"""Top-level functions run by ProcessJob in the worker tests (a child process imports them)."""

from __future__ import annotations

import time

from mteval_gui.app.tasks import Cancelled
from mteval_gui.errors import InputError


def count(n, on_progress, on_partial, cancel_event, delay=0.0):
    total = 0
    for i in range(n):
        if cancel_event.is_set():
            raise Cancelled("stopped")
        total += i
        on_progress((i + 1, n))
        if i % 2 == 1:
            on_partial(i)
        time.sleep(delay)
    return total


def fail(on_progress, on_partial, cancel_event):
    raise InputError("bad.tsv: line 3 has 2 fields")


def die(on_progress, on_partial, cancel_event):
    import os

    os._exit(3)
