"""A read-only sequence of models held as pickled chunks (:class:`Packed`)."""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

PACK_CHUNK = 64  # models pickled together in one chunk of a Packed sequence
PACK_LEVEL = 1  # zlib level of a chunk: its field names and repeated values shrink to a third, fast to inflate

M = TypeVar("M")


class Packed(Sequence[M], Generic[M]):
    """A sequence of models (corpus entries, outputs) held as pickled and compressed chunks of
    :data:`PACK_CHUNK` items and decoded when asked for: a decoded entry with its output takes
    about 2.5 kB, its pickled form (every field name and class reference repeated in each model)
    about 600 bytes, and that compressed with zlib a third of it. A job reads its entries one batch
    at a time (``items[a:b]``), so a run of any size holds them packed, and so does a helper
    forked from it. The ids are kept decoded (``ids``). The last chunk decoded is kept, so
    consecutive reads of a chunk decode it once; a chunk decoded again gives equal, new objects.

    A reader fills one as it reads (:meth:`append`): the models not yet making a whole chunk are
    kept decoded, every whole chunk is pickled at once, so a file is never held as models."""

    def __init__(self, chunks: list[bytes] | None = None, ids: list[str] | None = None,
                 chunk: int = PACK_CHUNK) -> None:
        self._chunks = chunks if chunks is not None else []
        self.ids = ids if ids is not None else []
        self._chunk = chunk
        self._open: list[M] = []  # the models appended after the last whole chunk
        self._last: tuple[int, list[M]] = (-1, [])
        self.decoded = 0  # chunks decoded (for tests)
        self.most_open = 0  # the most models ever held decoded while appending (for tests)

    @classmethod
    def pack(cls, models: Iterable[M], chunk: int = PACK_CHUNK) -> Packed[M]:
        """``models`` (any iterable, read once: a cursor's rows as they come) packed."""
        out: Packed[M] = cls(chunk=chunk)
        for m in models:
            out.append(m)
        return out

    def append(self, model: M) -> None:
        """``model`` added at the end (its ``id`` kept decoded)."""
        self._open.append(model)
        self.ids.append(model.id)  # type: ignore[attr-defined]
        self.most_open = max(self.most_open, len(self._open))
        if len(self._open) == self._chunk:
            self._chunks.append(zlib.compress(pickle.dumps(self._open, protocol=pickle.HIGHEST_PROTOCOL), PACK_LEVEL))
            self._open = []

    def _decode(self, c: int) -> list[M]:
        if c == len(self._chunks):
            return self._open
        last = self._last
        if last[0] == c:
            return last[1]
        part: list[M] = pickle.loads(zlib.decompress(self._chunks[c]))
        self.decoded += 1
        self._last = (c, part)
        return part

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def packed_bytes(self) -> int:
        """Bytes of the chunks as held (compressed)."""
        return sum(len(c) for c in self._chunks)

    @overload
    def __getitem__(self, i: int) -> M: ...

    @overload
    def __getitem__(self, i: slice) -> list[M]: ...

    def __getitem__(self, i: int | slice) -> M | list[M]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            out: list[M] = []
            k = start
            while k < stop:
                c, off = divmod(k, self._chunk)
                part = self._decode(c)[off:off + stop - k]
                out += part
                k += len(part)
            return out
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._decode(i // self._chunk)[i % self._chunk]

    def __iter__(self) -> Iterator[M]:
        for c in range(len(self._chunks)):
            yield from pickle.loads(zlib.decompress(self._chunks[c]))
        yield from list(self._open)


def packed_or_list(packed: bool) -> list[M] | Packed[M]:
    """An empty :class:`Packed` to fill when ``packed``, else an empty list."""
    return Packed() if packed else []


__all__ = ["PACK_CHUNK", "PACK_LEVEL", "Packed", "packed_or_list"]
