"""Per-entry statistics of a scored run, kept with the run (table ``run_statistics``, v8).

When a run is scored, the statistics its intervals were drawn from — one ``(n_entries, d)``
matrix per run-card key, with the kind of value it makes (``ratio``, ``chrf``, ``bleu``,
``ter``), its parameters and scale — are stored beside its run card, stamped with the run's
``scored_at``. Comparing runs then reads a few small matrices per run instead of decoding
every entry's stored results again; a run scored again gets a new stamp, so older statistics
are never taken for newer ones.

The workspace is data: :func:`load_run_statistics` accepts a row only when its matrix has the
size its shape says, its kind is known and its parameters are a JSON list of ``[name, value]``
pairs (a value a number, a string, a boolean or null); anything else is left out (the caller
rebuilds it from the stored results). Matrices are little-endian float64, row-major; nothing
is unpickled.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mteval_gui.store.db import Workspace

KINDS = frozenset({"ratio", "chrf", "bleu", "ter"})
_DTYPE = np.dtype("<f8")


@dataclass(frozen=True)
class StoredStatistics:
    """One key's per-entry statistics as stored (the fields of ``scoring.stats.EntryStats``)."""

    kind: str
    matrix: NDArray[Any]
    params: tuple[tuple[str, Any], ...] = ()
    scale: float = 1.0


def store_run_statistics(ws: Workspace, run_id: str, stats: Mapping[str, StoredStatistics]) -> str | None:
    """Replace the stored statistics of ``run_id`` by ``stats``, stamped with the run's current
    ``scored_at`` (returned; None, and nothing stored, when the run has no run card)."""
    with ws.transaction() as conn:
        row = conn.execute("SELECT scored_at FROM runs WHERE run_id = ? AND run_card IS NOT NULL",
                           (run_id,)).fetchone()
        conn.execute("DELETE FROM run_statistics WHERE run_id = ?", (run_id,))
        if row is None or row[0] is None:
            return None
        stamp = str(row[0])
        rows = []
        for key, st in stats.items():
            m = np.ascontiguousarray(st.matrix, dtype=_DTYPE)
            if m.ndim != 2 or st.kind not in KINDS:
                continue
            rows.append((run_id, key, stamp, st.kind, json.dumps([list(p) for p in st.params], allow_nan=False),
                         float(st.scale), int(m.shape[0]), int(m.shape[1]), m.tobytes()))
        conn.executemany("INSERT INTO run_statistics (run_id, stats_key, scored_at, kind, params, scale, n_rows,"
                         " n_cols, matrix) VALUES (?,?,?,?,?,?,?,?,?)", rows)
    return stamp


def load_run_statistics(ws: Workspace, run_id: str, scored_at: str | None) -> dict[str, StoredStatistics]:
    """The statistics stored for ``run_id`` when it was scored at ``scored_at`` (``{}`` when none
    match); rows that do not read as statistics are left out."""
    if scored_at is None:
        return {}
    out: dict[str, StoredStatistics] = {}
    cur = ws.conn.execute("SELECT stats_key, kind, params, scale, n_rows, n_cols, matrix FROM run_statistics"
                          " WHERE run_id = ? AND scored_at = ?", (run_id, scored_at))
    for key, kind, params, scale, n_rows, n_cols, blob in cur:
        st = _read(kind, params, scale, n_rows, n_cols, blob)
        if st is not None and isinstance(key, str):
            out[key] = st
    return out


def _read(kind: Any, params: Any, scale: Any, n_rows: Any, n_cols: Any, blob: Any) -> StoredStatistics | None:
    if kind not in KINDS or not isinstance(blob, bytes):
        return None
    if not (isinstance(n_rows, int) and isinstance(n_cols, int) and n_rows >= 0 and 0 < n_cols <= 1024):
        return None
    if len(blob) != n_rows * n_cols * _DTYPE.itemsize:
        return None
    if not isinstance(scale, int | float) or not math.isfinite(scale):
        return None
    try:
        pairs = json.loads(params)
    except (TypeError, ValueError, RecursionError):
        return None
    if not isinstance(pairs, list) or not all(_is_param(p) for p in pairs):
        return None
    matrix = np.frombuffer(blob, dtype=_DTYPE).reshape(n_rows, n_cols).astype(np.float64)
    if not np.isfinite(matrix).all():
        return None
    return StoredStatistics(str(kind), matrix, tuple((p[0], p[1]) for p in pairs), float(scale))


def _is_param(p: Any) -> bool:
    return (isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
            and (p[1] is None or isinstance(p[1], bool | int | float | str)))
