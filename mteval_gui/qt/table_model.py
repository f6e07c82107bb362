"""One table model for the window's small tables (runs, benchmark models and tests, audit queues).

A :class:`ColumnTableModel` shows ``rows`` (any objects) through a list of :class:`Column`
descriptions. A column says how to read a row:

- ``value(row)``: the value it sorts by (``None`` always sorts last, in either order);
- ``text(row)``: what the cell shows (default: ``value`` as text, ``""`` for None);
- ``tooltip(row)``, ``foreground(row)`` / ``background(row)`` (colour names), ``bold``,
  ``numeric`` (right-aligned) and ``header_tip`` (the header's tooltip).

Sorting happens inside the model (no proxy: a ``QSortFilterProxyModel`` is slow on large
tables) and survives :meth:`ColumnTableModel.set_rows`; persistent indexes follow their rows.
``KEY_ROLE`` gives a row's key (``key(row)``, used to find and keep rows), ``SORT_ROLE`` the
sort value. Tested with ``qtmodeltester`` and no view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView

R = TypeVar("R")
KEY_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()


def _text(v: Any) -> str:
    return "" if v is None else str(v)


@dataclass(frozen=True)
class Column(Generic[R]):
    """How one column reads a row (see the module docstring)."""

    key: str
    title: str
    value: Callable[[R], Any]
    text: Callable[[R], str] | None = None
    tooltip: Callable[[R], str | None] | None = None
    foreground: Callable[[R], str | None] | None = None
    background: Callable[[R], str | None] | None = None
    header_tip: str = ""
    numeric: bool = False
    bold: bool = False

    def display(self, row: R) -> str:
        return self.text(row) if self.text is not None else _text(self.value(row))


class ColumnTableModel(QAbstractTableModel, Generic[R]):
    """Rows shown through columns, sorted inside the model."""

    def __init__(self, columns: Sequence[Column[R]] = (), key: Callable[[R], Any] | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.rows: list[R] = []
        self.columns: list[Column[R]] = list(columns)
        self._key = key or (lambda r: id(r))
        self._sort: tuple[str, bool] | None = None  # column key, descending
        self._brushes: dict[str, QBrush] = {}
        self._bold = QFont()
        self._bold.setBold(True)

    # ----- content -------------------------------------------------------------------------
    def set_columns(self, columns: Sequence[Column[R]]) -> None:
        self.beginResetModel()
        self.columns = list(columns)
        if self._sort is not None and self._sort[0] in self.column_keys():
            self._apply_sort()
        self.endResetModel()

    def set_rows(self, rows: Sequence[R]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self._apply_sort()
        self.endResetModel()

    def update_row(self, row: R) -> None:
        """Replace the row with the same key (or append it), keeping the order."""
        k = self._key(row)
        i = self.row_of(k)
        if i is None:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
            self.rows.append(row)
            self.endInsertRows()
            return
        self.rows[i] = row
        self.row_changed(i)

    def row_changed(self, i: int) -> None:
        """Tell the views that row ``i`` shows something new."""
        if self.columns:
            self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.columns) - 1))

    def column_keys(self) -> list[str]:
        return [c.key for c in self.columns]

    def column_index(self, key: str) -> int:
        return self.column_keys().index(key)

    def row_of(self, key: Any) -> int | None:
        return next((i for i, r in enumerate(self.rows) if self._key(r) == key), None)

    def row_at(self, i: int) -> R | None:
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def key_of(self, row: R) -> Any:
        return self._key(row)

    # ----- Qt interface --------------------------------------------------------------------
    def rowCount(self, parent: _Index = _ROOT) -> int:  # noqa: N802 (Qt override)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = _ROOT) -> int:  # noqa: N802 (Qt override)
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 (Qt override)
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section].header_tip or None
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def _brush(self, colour: str | None) -> QBrush | None:
        if not colour:
            return None
        b = self._brushes.get(colour)
        if b is None:
            b = self._brushes[colour] = QBrush(QColor(colour))
        return b

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows) or not 0 <= index.column() < len(self.columns):
            return None
        r = self.rows[index.row()]
        c = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return c.display(r)
        if role == KEY_ROLE:
            return self._key(r)
        if role == SORT_ROLE:
            return c.value(r)
        if role == Qt.ItemDataRole.ToolTipRole:
            return c.tooltip(r) if c.tooltip is not None else None
        if role == Qt.ItemDataRole.TextAlignmentRole and c.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and c.foreground is not None:
            return self._brush(c.foreground(r))
        if role == Qt.ItemDataRole.BackgroundRole and c.background is not None:
            return self._brush(c.background(r))
        if role == Qt.ItemDataRole.FontRole and c.bold:
            return self._bold
        return None

    # ----- sorting -------------------------------------------------------------------------
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        self.layoutAboutToBeChanged.emit()
        old = list(self.rows)
        self._sort = (self.columns[column].key, order == Qt.SortOrder.DescendingOrder)
        self._apply_sort()
        pos = {id(r): i for i, r in enumerate(self.rows)}
        for idx in self.persistentIndexList():
            if idx.isValid() and idx.row() < len(old):
                self.changePersistentIndex(idx, self.index(pos[id(old[idx.row()])], idx.column()))
        self.layoutChanged.emit()

    @property
    def sort_state(self) -> tuple[str, bool] | None:
        """(column key, descending) of the current sort, or None."""
        return self._sort

    def _apply_sort(self) -> None:
        if self._sort is None or self._sort[0] not in self.column_keys():
            return
        key, descending = self._sort
        value = self.columns[self.column_index(key)].value
        present = [r for r in self.rows if value(r) is not None]
        absent = [r for r in self.rows if value(r) is None]
        present.sort(key=value, reverse=descending)
        self.rows = present + absent


def select_row(view: QAbstractItemView, row: int) -> None:
    """Make ``row`` the one selected row of ``view`` and its current row.

    ``QTableView.selectRow`` reads the keyboard modifiers held at that moment: with Shift down
    (the user holding it while a background result arrives) it extends from a stale anchor and
    may select nothing at all. This sets the selection explicitly instead.
    """
    model = view.model()
    if model is None or not 0 <= row < model.rowCount():
        return
    index = model.index(row, 0)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().setCurrentIndex(index, flags)

