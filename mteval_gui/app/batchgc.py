"""Garbage collection for a process that scores and then ends (a CLI command, a background job).

Scoring allocates many small objects that live until the run card is written (entries,
per-entry results, their details) and almost no reference cycles. With CPython's default
thresholds (a collection every 700 allocations) the collector scans that growing heap again
and again: on one 1,563-entry MAFAND system `mteval evaluate` spent 0.4–0.8 s in collections,
most of it in full ones, for almost nothing collected (the numbers are in the README).
:func:`batch_gc` moves the objects that exist when it starts (imported modules, parsed input)
out of the collector's view (:func:`gc.freeze`) and collects the youngest generation every
:data:`GEN0_THRESHOLD` allocations instead; on leaving it puts both back, so that a caller
that goes on (a test, an interactive session) is left as it was (blocks may nest). It is the
one place that tunes the collector: imports (``app.imports``) run in it too, the readers do not
tune it themselves.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

GEN0_THRESHOLD = 20_000  # allocations between collections of the youngest generation (CPython: 700)
GEN1_THRESHOLD = 20  # young collections per middle one (CPython: 10)
GEN2_THRESHOLD = 100  # middle collections per full one (CPython: 10)


@contextmanager
def batch_gc(*, collect: bool = True) -> Iterator[None]:
    """Fewer collections while the block runs (see the module docstring).

    ``collect=False``: none at all (an import, which makes millions of objects and no reference
    cycles: at 1,000,000 entries the rare collections still cost 5 s of a corpus's 23 s); the
    collector is enabled again on leaving if it was before."""
    before, frozen, enabled = gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()
    gc.freeze()
    gc.set_threshold(GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD)
    if not collect:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.set_threshold(*before)
        if not frozen:  # an enclosing block (or the caller) froze objects first: it unfreezes them
            gc.unfreeze()
