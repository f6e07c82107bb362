"""A read-only sequence of plain models held as columns of their values (:class:`PlainColumns`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

M = TypeVar("M")


class PlainColumns(Sequence[M], Generic[M]):
    """Models of one plain shape (corpus entries or run outputs holding only their id and texts,
    every other field empty) held as one list per field that varies (``columns``, by field name),
    each model made when asked for (``make`` takes one value per column, in order).

    A reader of a big file hands these to the workspace, which makes its rows from the columns
    without making a million models first; anything else sees an ordinary sequence of models."""

    def __init__(self, kind: str, columns: dict[str, list[Any]], make: Callable[..., M]) -> None:
        self.kind = kind  # entry | output
        self.columns = columns
        self._make = make
        self._n = len(next(iter(columns.values()))) if columns else 0

    @property
    def ids(self) -> list[str]:
        return self.columns["id"]

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> M: ...

    @overload
    def __getitem__(self, i: slice) -> list[M]: ...

    def __getitem__(self, i: int | slice) -> M | list[M]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._make(*(c[i] for c in self.columns.values()))

    def __iter__(self) -> Iterator[M]:
        make = self._make
        for values in zip(*self.columns.values(), strict=True):
            yield make(*values)


__all__ = ["PlainColumns"]
