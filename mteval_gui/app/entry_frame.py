"""Column-oriented table of the entries of one or several runs on one corpus (no Qt).

The entries view shows up to hundreds of thousands of rows; sorting and filtering happen
here on numpy arrays (DESIGN §4: a ``QSortFilterProxyModel`` took 43 s to sort 100k rows,
numpy 82 ms). An :class:`EntryFrame` holds one row per corpus entry; per-run columns
(output, metric values, verdicts, FST rejections, review status) are stored per run id.

:func:`view_order` turns an :class:`EntryFilter` and a sort key into the array of row
indices the view shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mteval_gui.domain.metrics import MetricDescriptor

REVIEW_NONE, REVIEW_RATED, REVIEW_FLAGGED, REVIEW_PARTIAL = 0, 1, 2, 3  # PARTIAL: one aspect of two rated


@dataclass
class RunColumns:
    """Per-entry data of one run, aligned with the frame's rows."""

    run_id: str
    label: str
    predicted: np.ndarray  # object (str)
    error: np.ndarray  # object (str or None)
    metrics: dict[str, np.ndarray] = field(default_factory=dict)  # metric key -> float64 (NaN = none)
    lint_verdict: np.ndarray | None = None  # object (str or None)
    semantic_verdict: np.ndarray | None = None  # object (str or None)
    fst_rejected: np.ndarray | None = None  # int64 count of rejected words; -1 = not analysed
    review: np.ndarray | None = None  # int8: REVIEW_NONE / REVIEW_RATED / REVIEW_FLAGGED / REVIEW_PARTIAL
    descriptors: dict[str, MetricDescriptor] = field(default_factory=dict)  # metric id -> declaration


@dataclass
class EntryFrame:
    corpus_id: str
    entry_ids: np.ndarray  # object (str)
    source: np.ndarray  # object
    reference: np.ndarray  # object (str or None)
    difficulty: np.ndarray  # float64, NaN = none
    runs: list[RunColumns] = field(default_factory=list)
    _search_text: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return int(self.entry_ids.shape[0])

    def run(self, run_id: str) -> RunColumns:
        for r in self.runs:
            if r.run_id == run_id:
                return r
        raise KeyError(run_id)

    def row_of(self, entry_id: str) -> int | None:
        hits = np.flatnonzero(self.entry_ids == entry_id)
        return int(hits[0]) if hits.size else None

    def search_text(self, run_id: str | None) -> np.ndarray:
        """Casefolded ``source \\x00 reference \\x00 outputs`` per row, built once and cached."""
        key = run_id or ""
        cached = self._search_text.get(key)
        if cached is not None:
            return cached
        outputs = [r.predicted for r in self.runs if run_id is None or r.run_id == run_id]
        parts = [self.source, self.reference, *outputs]
        joined = np.array(["\x00".join("" if v is None else str(v) for v in row).casefold()
                           for row in zip(*parts, strict=True)] if len(self) else [], dtype=object)
        self._search_text[key] = joined
        return joined


@dataclass
class EntryFilter:
    """What the entries view shows. Per-run conditions apply to ``run_id`` (the focus run)."""

    run_id: str | None = None
    verdicts: frozenset[str] | None = None  # lint verdicts kept (EXACT, EQUIVALENT, MISS, NO_OUTPUT)
    semantic_verdicts: frozenset[str] | None = None
    metric_ranges: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    difficulties: frozenset[int] | None = None  # 0 = no difficulty
    fst_rejections_only: bool = False
    review: str = "all"  # all | unreviewed | reviewed | flagged
    text: str = ""
    entry_ids: frozenset[str] | None = None  # only these entries (a reviewer's share of a campaign)

    def is_empty(self) -> bool:
        return (self.verdicts is None and self.semantic_verdicts is None and not self.metric_ranges
                and self.difficulties is None and not self.fst_rejections_only and self.review == "all"
                and not self.text.strip() and self.entry_ids is None)


def filter_mask(frame: EntryFrame, flt: EntryFilter) -> np.ndarray:
    n = len(frame)
    mask = np.ones(n, dtype=bool)
    run = frame.run(flt.run_id) if flt.run_id else (frame.runs[0] if frame.runs else None)
    if flt.verdicts is not None and run is not None:
        mask &= _in_set(run.lint_verdict, flt.verdicts, n)
    if flt.semantic_verdicts is not None and run is not None:
        mask &= _in_set(run.semantic_verdict, flt.semantic_verdicts, n)
    for key, (lo, hi) in flt.metric_ranges.items():
        values = run.metrics.get(key) if run is not None else None
        if values is None:
            mask &= False
            continue
        with np.errstate(invalid="ignore"):
            ok = ~np.isnan(values)
            if lo is not None:
                ok &= values >= lo
            if hi is not None:
                ok &= values <= hi
        mask &= ok
    if flt.entry_ids is not None:
        mask &= np.isin(frame.entry_ids, np.array(sorted(flt.entry_ids), dtype=object))
    if flt.difficulties is not None:
        d = np.nan_to_num(frame.difficulty, nan=0.0).astype(np.int64)
        mask &= np.isin(d, np.fromiter(flt.difficulties, dtype=np.int64, count=len(flt.difficulties)))
    if flt.fst_rejections_only and run is not None:
        mask &= (run.fst_rejected > 0) if run.fst_rejected is not None else False
    if flt.review != "all" and run is not None:
        review = run.review if run.review is not None else np.zeros(n, dtype=np.int8)
        if flt.review == "unreviewed":  # not fully rated
            mask &= (review == REVIEW_NONE) | (review == REVIEW_PARTIAL)
        elif flt.review == "reviewed":
            mask &= (review == REVIEW_RATED) | (review == REVIEW_FLAGGED)
        elif flt.review == "flagged":
            mask &= review == REVIEW_FLAGGED
        else:
            raise ValueError(f"unknown review filter {flt.review!r}")
    needle = flt.text.strip().casefold()
    if needle:
        hay = frame.search_text(None)
        idx = np.flatnonzero(mask)
        keep = np.fromiter((needle in hay[i] for i in idx), dtype=bool, count=idx.size)
        mask[idx[~keep]] = False
    return mask


def _in_set(values: np.ndarray | None, wanted: frozenset[str], n: int) -> np.ndarray:
    if values is None:
        return np.zeros(n, dtype=bool)
    return np.isin(values.astype(str), np.array(sorted(wanted), dtype=str))


def sort_keys(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(numeric key, missing) for sorting a column: numbers as is, text by casefolded rank."""
    if values.dtype.kind == "f":
        missing = np.isnan(values)
        return np.where(missing, 0.0, values), missing
    if values.dtype.kind in "iub":
        return values, np.zeros(values.shape, dtype=bool)
    missing = np.fromiter((v is None for v in values), dtype=bool, count=values.size)
    folded = np.array(["" if v is None else str(v).casefold() for v in values], dtype=object)
    # integer ranks of the text, so both directions sort numerically and stably
    _, ranks = np.unique(folded, return_inverse=True)
    return ranks.astype(np.int64).reshape(values.shape), missing


def view_order(frame: EntryFrame, flt: EntryFilter, sort_values: np.ndarray | None = None,
               descending: bool = False) -> np.ndarray:
    """Row indices shown, filtered then stably sorted (missing values always last)."""
    rows = np.flatnonzero(filter_mask(frame, flt)) if not flt.is_empty() else np.arange(len(frame))
    if sort_values is None or rows.size == 0:
        return rows
    keys, missing = sort_keys(sort_values[rows])
    order = np.argsort(-keys if descending else keys, kind="stable")
    order = np.concatenate([order[~missing[order]], order[missing[order]]])
    return rows[order]


def distinct(values: np.ndarray | None) -> list[Any]:
    """Distinct non-null values of an object column, sorted."""
    if values is None:
        return []
    return sorted({v for v in values if v is not None}, key=str)
