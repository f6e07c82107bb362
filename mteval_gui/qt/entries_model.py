"""Item model of the entries table: one row per entry, one or several runs side by side.

Sorting and filtering happen inside the model on numpy arrays
(:mod:`mteval_gui.app.entry_frame`); no proxy model. ``data()`` only indexes arrays, so the
view stays smooth with 100,000 rows. Texts read when shown (:class:`LazyColumn`) are read for a
window of rows around the first one asked that is not read yet, in the order the view shows them.

The desktop queue's attention checks and repeated items (:meth:`EntriesModel.set_checks`,
:mod:`mteval_gui.app.desktop_checks`) are rows too: each check row shows its real entry with
the check's output in its run's column and the check's own review status, right after the entry
it follows in the queue (whatever the order, sorting or filter, while that entry is shown). It
looks like any row; only :meth:`EntriesModel.check_of` tells it apart, and exports leave it out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from mteval_gui.app.entry_frame import (
    REVIEW_FLAGGED,
    REVIEW_NONE,
    REVIEW_PARTIAL,
    REVIEW_RATED,
    EntryFilter,
    EntryFrame,
    LazyColumn,
    view_order,
)
from mteval_gui.app.metrics import describe
from mteval_gui.domain.metrics import MetricDescriptor
from mteval_gui.qt.labels import metric_label, review_label, validation_explanation, validation_label, verdict_colour

ENTRY_ID_ROLE = Qt.ItemDataRole.UserRole + 1
FRAME_ROW_ROLE = Qt.ItemDataRole.UserRole + 2
SORT_ROLE = Qt.ItemDataRole.UserRole + 3

_Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()


READ_BEFORE, READ_AFTER = 16, 80  # view rows around a row whose texts are not read yet, read with it

# fields read when shown, and fields that a frame still to complete has not read yet (shown empty)
TEXT_FIELDS = ("id", "source", "reference", "predicted")
PENDING_FIELDS = ("difficulty", "metric", "lint", "semantic", "fst_rejected", "review")


@dataclass(frozen=True)
class Column:
    """One column: ``field`` is ``position``, ``id``, ``source``, ``reference``, ``difficulty``
    (entry columns) or ``predicted``, ``metric``, ``lint``, ``semantic``, ``fst_rejected``,
    ``review`` (per run, ``run_id`` set; ``metric`` names the metric id)."""

    key: str
    field: str
    run_id: str | None = None
    metric: str | None = None


ENTRY_FIELDS = ("position", "id", "source", "reference", "difficulty")
RUN_FIELDS = ("predicted", "lint", "semantic", "fst_rejected", "review")


# metric columns shown by default, by role: one run, several runs side by side
DEFAULT_ROLES_ONE_RUN = ("chrf", "fst_analysis", "exact")
DEFAULT_ROLES_SIDE_BY_SIDE = ("chrf",)


def descriptor_of(frame: EntryFrame | None, run_id: str | None, metric: str) -> MetricDescriptor:
    """The declaration of a metric column: as recorded for the run, else from the registry."""
    if frame is not None and run_id is not None:
        d = next((r.descriptors.get(metric) for r in frame.runs if r.run_id == run_id), None)
        if d is not None:
            return d
    return describe(metric)


class EntriesModel(QAbstractTableModel):
    """Entries of ``frame``; ``set_filter``/``sort`` reorder rows in place (model reset)."""

    order_changed = Signal()

    def __init__(self, frame: EntryFrame | None = None, parent=None):
        super().__init__(parent)
        self._frame: EntryFrame | None = None
        self._columns: list[Column] = []
        self._visible: list[Column] = []
        self._order = np.zeros(0, dtype=np.int64)
        self._filter = EntryFilter()
        self._sort: tuple[str, bool] | None = None
        self._custom: np.ndarray | None = None  # frame rows in a given order (randomised review)
        self.blind = False
        self.rated: dict[str, int] = {}  # run id -> entries the current reviewer rated on both aspects
        self._slot = np.zeros(0, dtype=np.int64)  # per view row: -1 a real entry, k the k-th check
        self._check_run: str | None = None
        self._checks: list[tuple[int, int, str | None]] = []  # (frame row, row it follows or -1, output)
        self._check_status = np.zeros(0, dtype=np.int8)
        self._checks_rated = 0
        if frame is not None:
            self.set_frame(frame)

    # ----- configuration -------------------------------------------------------------------
    @property
    def frame(self) -> EntryFrame | None:
        return self._frame

    def all_columns(self) -> list[Column]:
        return list(self._columns)

    def visible_columns(self) -> list[Column]:
        return list(self._visible)

    def set_frame(self, frame: EntryFrame, visible: list[str] | None = None) -> None:
        """Show ``frame``. New values for the same columns and rows in the same order (a large
        table's values arriving, partial results while scoring) change the cells without a reset,
        which would make the view lay out every row again."""
        columns = self._build_columns(frame)
        keys = {c.key for c in columns}
        if visible is None:
            visible = [c.key for c in columns if self._default_visible(frame, c, len(frame.runs))]
        shown = [c for c in columns if c.key in set(visible) & keys]
        same_rows = (self._frame is not None and len(frame) == len(self._frame)
                     and frame.corpus_id == self._frame.corpus_id)
        flt = self._filter
        if flt.run_id and flt.run_id not in {r.run_id for r in frame.runs}:
            flt = EntryFilter()
        if same_rows and columns == self._columns and shown == self._visible and flt is self._filter:
            order = self._order_of(frame, flt, self._custom)
            if np.array_equal(order, self._order[self._slot < 0]):  # the entries' rows; the checks stay
                self._frame = frame
                rows, cols = self.rowCount(), self.columnCount()
                if rows and cols:
                    self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, cols - 1))
                if cols:
                    self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, cols - 1)
                self.order_changed.emit()
                return
        self.beginResetModel()
        if not same_rows:
            self._custom = None
            self._check_run, self._checks = None, []
        self._frame = frame
        self._columns = columns
        self._visible = shown
        self._filter = flt
        self._recompute()
        self.endResetModel()
        self.order_changed.emit()

    def columns_of(self, frame: EntryFrame) -> list[Column]:
        """The columns a frame would have (shown or not)."""
        return self._build_columns(frame)

    @staticmethod
    def _build_columns(frame: EntryFrame) -> list[Column]:
        """Entry columns, then per-run columns grouped by kind so that runs shown side by side
        have their outputs, values and verdicts next to each other; each output is followed by its
        review status, so the reviewer sees it beside what is rated."""
        cols = [Column(f, f) for f in ENTRY_FIELDS]
        for r in frame.runs:
            cols += [Column(f"{r.run_id}:predicted", "predicted", r.run_id),
                     Column(f"{r.run_id}:review", "review", r.run_id)]
        metrics: list[str] = []
        for r in frame.runs:
            metrics += [m for m in r.metrics if m not in metrics]
        for m in metrics:
            cols += [Column(f"{r.run_id}:metric:{m}", "metric", r.run_id, m) for r in frame.runs if m in r.metrics]
        cols += [Column(f"{r.run_id}:lint", "lint", r.run_id) for r in frame.runs if r.lint_verdict is not None]
        cols += [Column(f"{r.run_id}:semantic", "semantic", r.run_id) for r in frame.runs
                 if r.semantic_verdict is not None]
        cols += [Column(f"{r.run_id}:fst_rejected", "fst_rejected", r.run_id) for r in frame.runs
                 if r.fst_rejected is not None]
        return cols

    @staticmethod
    def _default_visible(frame: EntryFrame, c: Column, n_runs: int) -> bool:
        if c.field in ("position", "source", "reference", "predicted", "lint", "review"):
            return True
        if c.field == "metric":
            roles = DEFAULT_ROLES_SIDE_BY_SIDE if n_runs > 1 else DEFAULT_ROLES_ONE_RUN
            return descriptor_of(frame, c.run_id, c.metric or "").role in roles
        return c.field == "difficulty" and n_runs == 1

    def clear(self) -> None:
        self.beginResetModel()
        self._frame = None
        self._custom = None
        self._check_run, self._checks = None, []
        self._columns, self._visible = [], []
        self._order = np.zeros(0, dtype=np.int64)
        self._slot = np.zeros(0, dtype=np.int64)
        self.endResetModel()
        self.order_changed.emit()

    def set_visible_columns(self, keys: list[str]) -> None:
        wanted = set(keys)
        self.beginResetModel()
        self._visible = [c for c in self._columns if c.key in wanted]
        self.endResetModel()

    def set_blind(self, blind: bool) -> None:
        """Blind mode: metric values, verdicts and the reference are not shown."""
        self.beginResetModel()
        self.blind = blind
        self.endResetModel()

    def filter(self) -> EntryFilter:
        return self._filter

    def set_filter(self, flt: EntryFilter) -> None:
        if self._frame is not None:
            order = self._order_of(self._frame, flt, self._custom)
            if np.array_equal(order, self._order):  # the same rows in the same order: nothing to lay out
                self._filter = flt
                self.order_changed.emit()
                return
        self.beginResetModel()
        self._filter = flt
        self._recompute()
        self.endResetModel()
        self.order_changed.emit()

    def set_custom_order(self, entry_ids: list[str] | None) -> None:
        """Show rows in the order of ``entry_ids`` (filters still apply); None restores sorting."""
        self.beginResetModel()
        if entry_ids is None or self._frame is None:
            self._custom = None
        else:
            pos = {str(e): i for i, e in enumerate(self._frame.entry_ids)}
            self._custom = np.array([pos[e] for e in entry_ids if e in pos], dtype=np.int64)
        self._recompute()
        self.endResetModel()
        self.order_changed.emit()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._visible):
            return
        self.beginResetModel()
        self._custom = None
        self._sort = (self._visible[column].key, order == Qt.SortOrder.DescendingOrder)
        self._recompute()
        self.endResetModel()
        self.order_changed.emit()

    def set_checks(self, run_id: str | None, checks: list[tuple[str, str | None, str | None]],
                   statuses: list[int] | None = None, rated: int = 0) -> None:
        """The queue's checks of ``run_id``: (entry, entry it follows or None: first, output shown or None:
        the real one) each, their review statuses and how many are rated on both aspects; no run: none."""
        f = self._frame
        self.beginResetModel()
        if f is None or run_id is None or run_id not in {r.run_id for r in f.runs}:
            self._check_run, self._checks = None, []
        else:
            self._check_run = run_id
            # an entry no longer in the corpus: its check is not shown (the indexes stay the queue's)
            self._checks = [(_row(f.row_of(entry)), -1 if after is None else _row(f.row_of(after)), output)
                            for entry, after, output in checks]
        self._check_status = np.array(statuses if statuses is not None and self._checks else
                                      [REVIEW_NONE] * len(self._checks), dtype=np.int8)
        self._checks_rated = rated if self._checks else 0
        self._recompute()
        self.endResetModel()
        self.order_changed.emit()

    def check_run(self) -> str | None:
        """The run whose checks the table shows (None: no checks)."""
        return self._check_run if self._checks else None

    def check_of(self, view_row: int) -> int | None:
        """The index of the check a view row shows (None: a real entry)."""
        if not 0 <= view_row < self._slot.size:
            return None
        k = int(self._slot[view_row])
        return k if k >= 0 else None

    def view_row_of_check(self, k: int) -> int | None:
        hits = np.flatnonzero(self._slot == k)
        return int(hits[0]) if hits.size else None

    def set_check_statuses(self, statuses: list[int], rated: int) -> None:
        """New review statuses of the checks (one was rated) and how many are rated on both aspects."""
        if len(statuses) != len(self._checks):
            return
        self._check_status = np.array(statuses, dtype=np.int8)
        self._checks_rated = rated
        col = next((i for i, c in enumerate(self._visible) if c.field == "review" and c.run_id == self._check_run),
                   None)
        rows = np.flatnonzero(self._slot >= 0)
        if col is not None and rows.size:
            self.dataChanged.emit(self.index(int(rows[0]), col), self.index(int(rows[-1]), col))
        if self._visible:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._visible) - 1)

    def total_rows(self) -> int:
        """Rows the table has without a filter: the entries and the checks."""
        return 0 if self._frame is None else len(self._frame) + len(self._checks)

    def _recompute(self) -> None:
        frame = self._frame
        if frame is None:
            self._order = np.zeros(0, dtype=np.int64)
            self._slot = np.zeros(0, dtype=np.int64)
            return
        self._place_checks(self._order_of(frame, self._filter, self._custom))

    def _order_of(self, frame: EntryFrame, flt: EntryFilter, custom: np.ndarray | None) -> np.ndarray:
        """The frame rows shown, in view order, for ``frame`` with this filter, sort or given order
        (the entries only: :meth:`_place_checks` puts the checks among them)."""
        if custom is not None:
            shown = set(view_order(frame, flt).tolist())
            return np.array([r for r in custom if r in shown], dtype=np.int64)
        values, desc = None, False
        if self._sort is not None:
            col = next((c for c in self._build_columns(frame) if c.key == self._sort[0]), None)
            if col is not None:
                values, desc = self._column_values(col, frame), self._sort[1]
        return view_order(frame, flt, values, desc)

    def _place_checks(self, real: np.ndarray) -> None:
        """The view rows: the real ones in ``real`` order, each check right after the row it follows."""
        if not self._checks:
            self._order = real
            self._slot = np.full(real.size, -1, dtype=np.int64)
            return
        following: dict[int, list[int]] = {}
        for k, (_, after, _) in enumerate(self._checks):
            following.setdefault(after, []).append(k)
        shown = set(real.tolist())
        scope = self._filter.entry_ids  # a campaign's share: a check of an entry outside it is not asked
        if scope is not None and self._frame is not None:
            ids = self._frame.entry_ids
            following = {after: [k for k in ks if self._checks[k][0] >= 0 and str(ids[self._checks[k][0]]) in scope]
                         for after, ks in following.items()}
        order: list[int] = []
        slot: list[int] = []
        for k in following.get(-1, []):  # the checks opening the queue, while their own entry is shown
            if self._checks[k][0] in shown:
                order.append(self._checks[k][0])
                slot.append(k)
        for fr in real.tolist():
            order.append(fr)
            slot.append(-1)
            for k in following.get(fr, []):
                if self._checks[k][0] >= 0:
                    order.append(self._checks[k][0])
                    slot.append(k)
        self._order = np.array(order, dtype=np.int64)
        self._slot = np.array(slot, dtype=np.int64)

    def _column_values(self, c: Column, frame: EntryFrame | None = None) -> np.ndarray | None:
        f = self._frame if frame is None else frame
        if f is None:
            return None
        if c.field == "position":
            return np.arange(len(f), dtype=np.int64)
        if c.field == "id":
            return _array(f.entry_ids)
        if c.field in ("source", "reference"):
            return _array(getattr(f, c.field))
        if c.field == "difficulty":
            return f.difficulty
        r = f.run(c.run_id or "")
        if c.field == "predicted":
            return _array(r.predicted)
        if c.field == "metric":
            return r.metrics.get(c.metric or "")
        if c.field == "lint":
            return r.lint_verdict
        if c.field == "semantic":
            return r.semantic_verdict
        if c.field == "fst_rejected":
            return r.fst_rejected
        if c.field == "review":
            return r.review if r.review is not None else np.zeros(len(f), dtype=np.int8)
        return None

    # ----- navigation helpers --------------------------------------------------------------
    def frame_row(self, view_row: int) -> int:
        return int(self._order[view_row])

    def view_row_of(self, frame_row: int) -> int | None:
        hits = np.flatnonzero((self._order == frame_row) & (self._slot < 0))
        return int(hits[0]) if hits.size else None

    def entry_id(self, view_row: int) -> str:
        assert self._frame is not None
        return str(self._frame.entry_ids[self._order[view_row]])

    def next_row(self, view_row: int, run_id: str | None, want: str) -> int | None:
        """Next view row after ``view_row`` that is ``unreviewed`` or ``flagged`` (wrapping)."""
        f = self._frame
        if f is None or not len(self._order):
            return None
        run = f.run(run_id) if run_id else (f.runs[0] if f.runs else None)
        if run is None:
            return None
        review = run.review if run.review is not None else np.zeros(len(f), dtype=np.int8)
        status = review[self._order].copy()
        checks = self._slot >= 0
        if checks.any():  # a check row has its own status (the queue's checks of another run: none to rate)
            status[checks] = self._check_status[self._slot[checks]] if run.run_id == self._check_run \
                else REVIEW_RATED
        if want == "unreviewed":  # not rated on both aspects yet
            hits = np.flatnonzero((status == REVIEW_NONE) | (status == REVIEW_PARTIAL))
        else:
            hits = np.flatnonzero(status == REVIEW_FLAGGED)
        if not hits.size:
            return None
        after = hits[hits > view_row]
        return int(after[0] if after.size else hits[0])

    def set_rated(self, counts: dict[str, int]) -> None:
        """Entries rated on both aspects by the current reviewer, per run (shown in the review headers)."""
        self.rated = dict(counts)
        if self._visible:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self._visible) - 1)

    def set_review_status(self, run_id: str, entry_id: str, status: int) -> None:
        f = self._frame
        if f is None:
            return
        row = f.row_of(entry_id)
        if row is None:
            return
        r = f.run(run_id)
        if r.review is None:
            r.review = np.zeros(len(f), dtype=np.int8)
        r.review[row] = status
        view_row = self.view_row_of(row)
        col = next((i for i, c in enumerate(self._visible) if c.field == "review" and c.run_id == run_id), None)
        if view_row is not None and col is not None:
            idx = self.index(view_row, col)
            self.dataChanged.emit(idx, idx)

    def export_rows(self) -> tuple[list[str], list[dict[str, object]]]:
        """The visible columns (plain names, the entry id always first) and the shown rows in view
        order, with raw values (blind mode leaves hidden columns empty)."""
        f = self._frame
        if f is None:
            return [], []
        names = ["id"]
        cols: list[tuple[Column, np.ndarray | None]] = []
        for c in self._visible:
            if c.field == "id":
                continue
            names.append(c.key.replace(":metric:", ":"))
            cols.append((c, None if self._hidden(c) else self._column_values(c)))
        rows = []
        for fr in self._order[self._slot < 0]:
            rec: dict[str, object] = {"id": str(f.entry_ids[fr])}
            for name, (c, values) in zip(names[1:], cols, strict=True):
                v = None if values is None else values[fr]
                if c.field == "position":
                    v = int(fr) + 1
                elif c.field == "review":
                    v = review_label(int(v)) if v is not None else ""
                elif isinstance(v, np.generic):
                    v = v.item()
                if isinstance(v, float) and math.isnan(v):
                    v = None
                rec[name] = v
            rows.append(rec)
        return names, rows

    # ----- Qt model interface --------------------------------------------------------------
    def rowCount(self, parent: _Index = _ROOT) -> int:
        return 0 if parent.isValid() else int(self._order.size)

    def columnCount(self, parent: _Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._visible)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical:
            if role == Qt.ItemDataRole.DisplayRole and 0 <= section < self._order.size:
                return str(int(self._order[section]) + 1)
            return None
        if not 0 <= section < len(self._visible):
            return None
        c = self._visible[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.column_title(c)
        if role == Qt.ItemDataRole.ToolTipRole:
            if c.field == "metric":
                level = descriptor_of(self._frame, c.run_id, c.metric or "").validation
                line = self.tr("Validation: {0} — {1}").format(validation_label(level), validation_explanation(level))
                return f"{self.column_title(c)}\n{line}"
            return self.column_title(c)
        return None

    def column_title(self, c: Column) -> str:
        titles = {
            "position": self.tr("#"), "id": self.tr("Id"), "source": self.tr("Source"),
            "reference": self.tr("Reference"), "difficulty": self.tr("Difficulty"),
            "predicted": self.tr("Output"), "lint": self.tr("Verdict"), "semantic": self.tr("Semantic"),
            "fst_rejected": self.tr("FST rejected"), "review": self.tr("Review"),
        }
        f = self._frame
        title = metric_label(descriptor_of(f, c.run_id, c.metric or "")) if c.field == "metric" else titles[c.field]
        if c.field == "review" and f is not None and c.run_id in self.rated:
            rated, total = self.rated[c.run_id], len(f)
            if c.run_id == self.check_run():  # the checks count as rows like any other
                rated, total = rated + self._checks_rated, total + len(self._checks)
            title = self.tr("{0} ({1} of {2} rated)").format(title, rated, total)
        if c.run_id and f is not None and len(f.runs) > 1:
            return f"{f.run(c.run_id).label}: {title}"
        return title

    def _hidden(self, c: Column) -> bool:
        return self.blind and c.field in ("reference", "metric", "lint", "semantic", "fst_rejected")

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self._frame is None:
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < self._order.size and 0 <= col < len(self._visible)):
            return None
        fr = int(self._order[row])
        c = self._visible[col]
        texts = self._frame.texts
        if texts is not None and not texts.cached(fr) and (role == ENTRY_ID_ROLE or c.field in TEXT_FIELDS):
            texts.load(self._order[max(0, row - READ_BEFORE):row + READ_AFTER].tolist())
        if role == ENTRY_ID_ROLE:
            return str(self._frame.entry_ids[fr])
        if role == FRAME_ROW_ROLE:
            return fr
        if self._hidden(c):
            return "—" if role == Qt.ItemDataRole.DisplayRole else None
        k = int(self._slot[row])
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if k >= 0 and c.run_id == self._check_run:  # a check row: the check's output and status
                output = self._checks[k][2]
                if c.field == "predicted" and output is not None:
                    return _one_line(output, role == Qt.ItemDataRole.ToolTipRole)
                if c.field == "review":
                    return review_label(int(self._check_status[k]))
            return self._display(c, fr, tooltip=role == Qt.ItemDataRole.ToolTipRole)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if c.field in ("position", "difficulty", "metric", "fst_rejected"):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.BackgroundRole and c.field == "lint":
            v = self._column_values(c)
            colour = verdict_colour(v[fr] if v is not None else None)
            return QBrush(QColor(colour)) if colour else None
        if role == Qt.ItemDataRole.ForegroundRole and c.field == "predicted":
            r = self._frame.run(c.run_id or "")
            if texts is not None and not texts.cached(fr):
                texts.load(self._order[max(0, row - READ_BEFORE):row + READ_AFTER].tolist())
            if r.error[fr]:
                return QBrush(QColor("#a00000"))
        if role == SORT_ROLE:
            v = self._column_values(c)
            return None if v is None else v[fr]
        return None

    def _display(self, c: Column, fr: int, tooltip: bool) -> str | None:
        f = self._frame
        assert f is not None
        if c.field == "position":
            return str(fr + 1)
        if not f.complete and c.field in PENDING_FIELDS:
            return ""
        if c.field == "id":
            return str(f.entry_ids[fr])
        if c.field in ("source", "reference"):
            v = getattr(f, c.field)[fr]
            return "" if v is None else _one_line(str(v), tooltip)
        if c.field == "difficulty":
            d = f.difficulty[fr]
            return "" if math.isnan(d) else str(int(d))
        r = f.run(c.run_id or "")
        if c.field == "predicted":
            err = r.error[fr]
            if err:
                return self.tr("error: {0}").format(err) if tooltip else self.tr("[error]")
            return _one_line(str(r.predicted[fr] or ""), tooltip)
        if c.field == "metric":
            v = r.metrics.get(c.metric or "")
            if v is None or math.isnan(v[fr]):
                return ""
            return descriptor_of(f, c.run_id, c.metric or "").format_value(float(v[fr]))
        if c.field in ("lint", "semantic"):
            v = r.lint_verdict if c.field == "lint" else r.semantic_verdict
            return "" if v is None or v[fr] is None else str(v[fr])
        if c.field == "fst_rejected":
            n = int(r.fst_rejected[fr]) if r.fst_rejected is not None else -1
            return "" if n < 0 else str(n)
        if c.field == "review":
            s = int(r.review[fr]) if r.review is not None else REVIEW_NONE
            return review_label(s)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


def _row(row: int | None) -> int:
    return -1 if row is None else row


def _array(values: np.ndarray | LazyColumn) -> np.ndarray:
    """A column as an array (a column read when shown: all of it, once)."""
    return values.array() if isinstance(values, LazyColumn) else values


def _one_line(s: str, tooltip: bool) -> str:
    if tooltip:
        return s
    s = " ".join(s.split())
    return s if len(s) <= 300 else s[:297] + "…"


__all__ = ["Column", "EntriesModel", "ENTRY_ID_ROLE", "FRAME_ROW_ROLE", "SORT_ROLE",
           "REVIEW_NONE", "REVIEW_RATED", "REVIEW_FLAGGED", "REVIEW_PARTIAL"]
