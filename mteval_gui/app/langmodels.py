"""Language models loaded from the start of a command, while it imports, reads and prepares.

:func:`language_models` starts :mod:`mteval_gui.scoring.metrics.lid_service` for the run's languages
(when code-switching will run) and ends it when the block ends. Only the standard library is
imported here, so a command can enter the block before anything heavy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from mteval_gui.scoring.metrics.lid_service import USED_BY


def needs_detector(metrics: Sequence[str] | None, exclude: Sequence[str]) -> bool:
    """Whether a metric that asks the detector (code-switching) is among those a command was
    asked to run."""
    return any(m not in exclude and (not metrics or m in metrics) for m in USED_BY)


@contextmanager
def language_models(source: str | None, target: str | None, *, metrics: Sequence[str] | None = None,
                    exclude: Sequence[str] = ()) -> Iterator[None]:
    """The language-model service for ``source`` → ``target`` while the block runs (nothing
    when code-switching is not asked for, processes cannot be forked or lingua is missing)."""
    from mteval_gui.scoring.metrics import lid_service

    started = needs_detector(metrics, exclude) and lid_service.current() is None \
        and lid_service.start(source, target) is not None
    try:
        yield
    finally:
        if started:
            lid_service.stop()
