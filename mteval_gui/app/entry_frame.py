"""Column-oriented table of the entries of one or several runs on one corpus (no Qt).

The entries view shows up to hundreds of thousands of rows; sorting and filtering happen
here on numpy arrays (DESIGN §4: a ``QSortFilterProxyModel`` took 43 s to sort 100k rows,
numpy 82 ms). An :class:`EntryFrame` holds one row per corpus entry; per-run columns
(output, metric values, verdicts, FST rejections, review status) are stored per run id.

:func:`view_order` turns an :class:`EntryFilter` and a sort key into the array of row
indices the view shows.

The text filter looks for the casefolded query in each row's casefolded ``source \\x00
reference \\x00 outputs`` (:class:`SearchIndex`). The first search builds those row texts; a
background thread then builds the index: the rows of each word and of each two neighbouring words
(:class:`WordIndex`), exact bitmaps of rows for the most frequent byte n-grams, and for every block
of :data:`ROWS_PER_BLOCK` rows a bitset of its hashed byte 3-grams. A query without white space is
answered by the rows of the words that contain it (no row tested); a query of several words, or
one the word index does not narrow, is tested only on the rows its words and n-grams allow (no row
holding it is left out), with Python's substring test: the answer is exactly the full scan's.

The texts themselves may be read lazily (:class:`RowTexts`, :class:`LazyColumn`): a row's texts
when it is first shown, whole columns for the search or a sort by a text.
"""

from __future__ import annotations

import re
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from itertools import count as counter
from typing import Any

import numpy as np

from mteval_gui.domain.metrics import MetricDescriptor

REVIEW_NONE, REVIEW_RATED, REVIEW_FLAGGED, REVIEW_PARTIAL = 0, 1, 2, 3  # PARTIAL: one aspect of two rated


ROWS_READ_AT_ONCE = 256  # rows whose texts are read together when one of them is first shown
CACHED_ROWS = 20_000  # rows whose texts are kept (least recently shown dropped first)


class RowTexts(ABC):
    """The texts of a frame's rows (its entry ids, sources, references, each run's output and error)
    read from where they are stored when a row is first shown, a few hundred rows at a time, and kept
    for the :data:`CACHED_ROWS` rows shown last; or whole columns at once, for the text search (its
    own copy, casefolded) or a sort by a text column (kept).

    Subclasses read: :meth:`fetch` the values of some rows, :meth:`read_all` a whole column,
    :meth:`find` the row of a value of a column."""

    def __init__(self, n: int, names: Sequence[str], cached_rows: int = CACHED_ROWS):
        self.n = n
        self.names = tuple(names)
        self._slot = {name: i for i, name in enumerate(self.names)}
        self._cache: OrderedDict[int, tuple[Any, ...]] = OrderedDict()
        self._cached_rows = cached_rows
        self._lock = threading.Lock()
        self._full: dict[str, np.ndarray] = {}
        self._columns: dict[str, LazyColumn] = {}

    @abstractmethod
    def fetch(self, rows: list[int]) -> list[tuple[Any, ...]]:
        """Per row (ascending frame rows) its values, in the order of :attr:`names`."""

    @abstractmethod
    def read_all(self, name: str) -> list[Any]:
        """Every row's value of ``name``, in row order."""

    def find(self, name: str, value: Any) -> int | None:
        """The first row whose ``name`` is ``value``."""
        hits = np.flatnonzero(self.array(name) == value)
        return int(hits[0]) if hits.size else None

    def keep(self, name: str, values: np.ndarray) -> None:
        """Every row's ``name``, read elsewhere."""
        if len(values) != self.n:
            raise ValueError(f"{name}: {len(values)} values for {self.n} rows")
        self._full[name] = values

    def column(self, name: str) -> LazyColumn:
        col = self._columns.get(name)
        if col is None:
            col = self._columns[name] = LazyColumn(self, name)
        return col

    def cached(self, row: int) -> bool:
        return row in self._cache

    def load(self, rows: Iterable[int]) -> None:
        """Read the rows of ``rows`` not read yet (one :meth:`fetch`)."""
        with self._lock:
            missing = sorted({int(r) for r in rows if 0 <= int(r) < self.n} - self._cache.keys())
        if not missing:
            return
        values = self.fetch(missing)
        with self._lock:
            for row, rec in zip(missing, values, strict=True):
                self._cache[row] = rec
            while len(self._cache) > self._cached_rows:
                self._cache.popitem(last=False)

    def value(self, name: str, row: int) -> Any:
        full = self._full.get(name)
        if full is not None:
            return full[row]
        if not 0 <= row < self.n:
            raise IndexError(row)
        with self._lock:
            rec = self._cache.get(row)
            if rec is not None:
                self._cache.move_to_end(row)
        if rec is None:
            self.load(range(row, row + ROWS_READ_AT_ONCE))
            with self._lock:
                rec = self._cache.get(row)
            if rec is None:  # dropped at once by a cache smaller than a read
                rec = self.fetch([row])[0]
        return rec[self._slot[name]]

    def array(self, name: str) -> np.ndarray:
        """The whole column (read once, then kept)."""
        full = self._full.get(name)
        if full is None:
            full = np.empty(self.n, dtype=object)
            full[:] = self.read_all(name)
            self._full[name] = full
        return full


class LazyColumn:
    """One column of a :class:`RowTexts`: indexing one row reads it (and its neighbours) when
    needed; any other use reads the whole column once."""

    dtype = np.dtype(object)

    def __init__(self, texts: RowTexts, name: str):
        self.texts = texts
        self.name = name

    def __len__(self) -> int:
        return self.texts.n

    @property
    def shape(self) -> tuple[int]:
        return (self.texts.n,)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int | np.integer):
            row = int(key)
            return self.texts.value(self.name, row + self.texts.n if row < 0 else row)
        return self.array()[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.array())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        full = self.array()
        return full if dtype is None else full.astype(dtype)

    def array(self) -> np.ndarray:
        return self.texts.array(self.name)

    def tolist(self) -> list[Any]:
        """Every row's value, read for the caller (the text search keeps its own casefolded copy)."""
        full = self.texts._full.get(self.name)
        return full.tolist() if full is not None else self.texts.read_all(self.name)


Column = np.ndarray | LazyColumn


@dataclass
class RunColumns:
    """Per-entry data of one run, aligned with the frame's rows."""

    run_id: str
    label: str
    predicted: Column  # object (str)
    error: Column  # object (str or None)
    metrics: dict[str, np.ndarray] = field(default_factory=dict)  # metric key -> float64 (NaN = none)
    lint_verdict: np.ndarray | None = None  # object (str or None)
    semantic_verdict: np.ndarray | None = None  # object (str or None)
    fst_rejected: np.ndarray | None = None  # int64 count of rejected words; -1 = not analysed
    review: np.ndarray | None = None  # int8: REVIEW_NONE / REVIEW_RATED / REVIEW_FLAGGED / REVIEW_PARTIAL
    descriptors: dict[str, MetricDescriptor] = field(default_factory=dict)  # metric id -> declaration


@dataclass
class EntryFrame:
    corpus_id: str
    entry_ids: Column  # object (str)
    source: Column  # object
    reference: Column  # object (str or None)
    difficulty: np.ndarray  # float64, NaN = none
    runs: list[RunColumns] = field(default_factory=list)
    texts: RowTexts | None = None  # where the lazy columns read their rows
    complete: bool = True  # False: the runs' values, verdicts, review status and difficulties are not read yet
    _search_text: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    _search_index: SearchIndex | None = field(default=None, repr=False)
    _orders: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _orders_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __len__(self) -> int:
        return int(self.entry_ids.shape[0])

    def run(self, run_id: str) -> RunColumns:
        for r in self.runs:
            if r.run_id == run_id:
                return r
        raise KeyError(run_id)

    def row_of(self, entry_id: str) -> int | None:
        if isinstance(self.entry_ids, LazyColumn):
            return self.entry_ids.texts.find(self.entry_ids.name, entry_id)
        hits = np.flatnonzero(self.entry_ids == entry_id)
        return int(hits[0]) if hits.size else None

    def search_text(self, run_id: str | None) -> np.ndarray:
        """Casefolded ``source \\x00 reference \\x00 outputs`` per row, built once and cached."""
        if run_id is None:
            return self.search_index(start=False).rows
        cached = self._search_text.get(run_id)
        if cached is None:
            cached = self._search_text[run_id] = _joined_rows(
                [self.source, self.reference, *(r.predicted for r in self.runs if r.run_id == run_id)])
        return cached

    def search_index(self, *, start: bool = True, wait: bool = False) -> SearchIndex:
        """The text search over all runs' outputs; ``start`` builds its row texts and its index in a
        background thread (corpora of :data:`INDEX_MIN_ROWS` rows or more; a search meanwhile waits
        for the row texts only), ``wait`` waits until the index is built."""
        idx = self._search_index
        if idx is None:
            outputs = [r.predicted for r in self.runs]
            idx = self._search_index = SearchIndex(None, columns=(self.source, self.reference, *outputs))
        if start and len(self) >= INDEX_MIN_ROWS:
            idx.start()
        if wait:
            idx.start()
            idx.wait()
        return idx

    def sorted_rows(self, values: np.ndarray, descending: bool = False) -> np.ndarray:
        """Every row in the stable order of ``values`` (floats of this frame's rows, which are not
        changed in place; missing values last either way), kept for the next sort by the same values."""
        key = (id(values), descending)
        with self._orders_lock:
            kept = self._orders.get(key)
        if kept is None or kept[0] is not values:
            with self._orders_lock:
                ascending = self._orders.get((id(values), False))
            if not descending:
                order = np.argsort(values, kind="stable")  # NaN last
            elif ascending is not None and ascending[0] is values:
                order = _descending(values, ascending[1])
            else:  # -NaN is NaN: last too
                order = np.argsort(-values, kind="stable")
            kept = (values, order)
            with self._orders_lock:
                self._orders[key] = kept
        return kept[1]

    def prepare_sorts(self, columns: Sequence[np.ndarray]) -> threading.Thread:
        """Sort by ``columns`` both ways in a background thread (numpy's sort lets the other threads run)."""
        def run() -> None:
            for values in columns:
                self.sorted_rows(values)
                self.sorted_rows(values, descending=True)

        thread = threading.Thread(target=run, name="entry-sorts", daemon=True)
        thread.start()
        return thread

    def share_search(self, other: EntryFrame) -> None:
        """Reuse ``other``'s search text and index when both frames show the same texts (the same
        entries and outputs, reloaded values)."""
        idx = other._search_index
        if idx is not None and idx.columns_are((self.source, self.reference, *(r.predicted for r in self.runs))):
            self._search_index = idx


def _descending(values: np.ndarray, ascending: np.ndarray) -> np.ndarray:
    """The stable descending order from the stable ascending one: the known values reversed, each
    run of equal values back in row order, then the missing values in row order."""
    known = ascending[:int(np.count_nonzero(~np.isnan(values)))]
    rev = known[::-1]
    v = values[rev]
    if not rev.size:
        return ascending
    start = np.flatnonzero(np.concatenate([[True], v[1:] != v[:-1]]))  # first position of each run
    size = np.diff(np.concatenate([start, [rev.size]]))
    first = np.repeat(start, size)
    last = first + np.repeat(size, size) - 1
    return np.concatenate([rev[first + last - np.arange(rev.size)], ascending[known.size:]])


_JOIN_ROWS = 2_000  # rows casefolded in one call (a few ms with the lock of the interpreter held)


def _joined_rows(columns: Sequence[Column]) -> np.ndarray:
    """Per row the casefolded texts of ``columns`` joined by NUL (None as empty text)."""
    n = len(columns[0]) if columns else 0
    lists = []
    for col in columns:
        values = col.tolist()
        if any(v is None or not isinstance(v, str) for v in values):
            values = ["" if v is None else str(v) for v in values]
        lists.append(values)
    rows = np.empty(n, dtype=object)
    for first in range(0, n, _JOIN_ROWS):  # casefold a chunk of rows in one call, then split it again
        joined = list(map("\x00".join, zip(*(values[first:first + _JOIN_ROWS] for values in lists), strict=True)))
        chunk = "\x01".join(joined)
        if chunk.count("\x01") != len(joined) - 1:  # the separator is in a text
            rows[first:first + len(joined)] = [t.casefold() for t in joined]
        else:
            rows[first:first + len(joined)] = chunk.casefold().split("\x01")
    return rows


INDEX_MIN_ROWS = 50_000  # smaller corpora are scanned (a few ms)
ROWS_PER_BLOCK = 128
BLOCK_BITS = 1 << 16  # bits of one block's n-gram set
FREQUENT_SHARE = 0.02  # n-grams in at least this share of the rows get an exact bitmap of rows ...
MAX_FREQUENT = 256  # ... up to this many (n / 8 bytes each)
_CHUNK_ROWS = 8192  # rows indexed at a time (a few MB of numpy arrays); a multiple of 8 and of the block
_SAMPLE_ROWS = 2_000  # rows sampled to find the frequent n-grams
_HASH = np.uint32(0x9E3779B1)
_GRAMS = (1, 2, 3)  # byte n-grams indexed (1-grams: the exact bitmaps only)


def _gram_keys(buf: np.ndarray, k: int) -> np.ndarray:
    """Keys of the byte ``k``-grams of ``buf`` (uint8) at every start position: ``k << 24`` with the bytes."""
    m = buf.size - k + 1
    if m <= 0:
        return np.zeros(0, dtype=np.uint32)
    key = np.full(m, k << 24, dtype=np.uint32)
    for j in range(k):
        key |= buf[j:m + j].astype(np.uint32) << np.uint32(8 * (k - 1 - j))
    return key


def _spans(sep: np.ndarray, k: int) -> np.ndarray:
    """Per start position: the ``k``-gram holds a row separator."""
    m = sep.size - k + 1
    out = sep[:m].copy()
    for j in range(1, k):
        out |= sep[j:m + j]
    return out


def _hash(keys: np.ndarray, bits: int) -> np.ndarray:
    return (keys * _HASH) >> np.uint32(33 - bits.bit_length())


def _encode_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """UTF-8 of ``rows`` joined by newlines: (bytes, row of each byte, separator positions)."""
    enc = [r.encode("utf-8") for r in rows]
    buf = np.frombuffer(b"\n".join(enc), dtype=np.uint8)
    lens = np.fromiter(map(len, enc), dtype=np.int64, count=len(enc)) + 1
    owner = np.repeat(np.arange(len(enc)), lens)[:buf.size]
    sep = np.zeros(buf.size, dtype=bool)
    sep[np.cumsum(lens)[:-1] - 1] = True
    return buf, owner, sep


class SearchIndex:
    """Casefolded row texts and, once :meth:`build` has run, the index: a bitset of hashed byte
    n-grams per block of rows, and an exact bitmap of rows for the most frequent n-grams."""

    def __init__(self, rows: np.ndarray | None, *, columns: tuple[Column, ...] = (),
                 rows_per_block: int = ROWS_PER_BLOCK, bits: int = BLOCK_BITS,
                 frequent_share: float = FREQUENT_SHARE, max_frequent: int = MAX_FREQUENT):
        """``rows``: the casefolded row texts, or None to join and casefold ``columns`` when first needed."""
        self._rows = rows
        self._rows_lock = threading.Lock()
        self.rows_per_block = rows_per_block
        self.bits = bits
        self.frequent_share = frequent_share
        self.max_frequent = max_frequent
        self.use_index = True  # False: scan every row (for comparison)
        self._columns = columns
        self._blocks: np.ndarray | None = None  # uint8 [n_blocks, bits / 8], bit order little
        self._frequent: dict[int, int] = {}  # n-gram key -> row of _row_bits
        self._row_bits: np.ndarray | None = None  # uint8 [n_frequent, ceil(n / 8)], bit order little
        self._words: WordIndex | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def rows(self) -> np.ndarray:
        """The casefolded text of each row (built once, by whichever thread asks first)."""
        rows = self._rows
        if rows is None:
            with self._rows_lock:
                if self._rows is None:
                    self._rows = _joined_rows(list(self._columns))
                rows = self._rows
        return rows

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def columns_are(self, columns: tuple[Column, ...]) -> bool:
        return len(columns) == len(self._columns) and all(a is b for a, b in zip(columns, self._columns, strict=True))

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @property
    def nbytes(self) -> int:
        words = 0 if self._words is None else self._words.nbytes
        return words + sum(0 if a is None else int(a.nbytes) for a in (self._blocks, self._row_bits))

    def frequent_grams(self) -> list[bytes]:
        """The n-grams with an exact bitmap of rows, as bytes."""
        return sorted(int(k & 0xFFFFFF).to_bytes(3, "big")[3 - (k >> 24):] for k in self._frequent)

    def start(self) -> None:
        """Build the index in a background thread (once)."""
        with self._lock:
            if self._thread is None and not self._ready.is_set():
                self._thread = threading.Thread(target=self.build, name="entry-search-index", daemon=True)
                self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def _choose_frequent(self) -> dict[int, int]:
        """The n-grams in at least ``frequent_share`` of a sample of rows, most frequent first."""
        n = len(self)
        sample = self.rows[::max(1, n // _SAMPLE_ROWS)]
        if not len(sample):
            return {}
        buf, owner, sep = _encode_rows(sample)
        pairs = []
        for k in _GRAMS:
            keys = _gram_keys(buf, k)
            pos = np.flatnonzero(~_spans(sep, k))
            pairs.append(np.unique((owner[pos].astype(np.int64) << 27) | keys[pos]))
        if not pairs:
            return {}
        keys, counts = np.unique(np.concatenate(pairs) & ((1 << 27) - 1), return_counts=True)
        order = np.argsort(-counts, kind="stable")
        chosen: dict[int, int] = {}
        for key, count in zip(keys[order].tolist(), counts[order].tolist(), strict=True):
            if count < self.frequent_share * len(sample) or len(chosen) >= self.max_frequent:
                break
            chosen[key] = len(chosen)
        return chosen

    def build(self) -> None:
        """Compute the index, a chunk of rows at a time (numpy)."""
        if self._ready.is_set():
            return
        n, per = len(self), self.rows_per_block
        frequent = self._choose_frequent()
        trash = len(frequent)  # the bitmap row written for the n-grams without one (dropped)
        slots = {k: np.full(1 << (8 * k), trash, dtype=np.uint16) for k in _GRAMS}
        for key, slot in frequent.items():
            slots[key >> 24][key & 0xFFFFFF] = slot
        blocks = np.zeros((-(-n // per), self.bits // 8), dtype=np.uint8)
        row_bits = np.zeros((len(frequent), -(-n // 8)), dtype=np.uint8)
        chunk = _CHUNK_ROWS // (8 * per) * 8 * per if per <= _CHUNK_ROWS // 8 else per * 8
        for first in range(0, n, chunk):
            last = min(n, first + chunk)
            buf, owner, sep = _encode_rows(self.rows[first:last])
            width = last - first
            seen = np.zeros((-(-width // per), self.bits), dtype=bool)
            hits = np.zeros((len(frequent) + 1, width), dtype=bool)
            for k in _GRAMS:
                keys = _gram_keys(buf, k)
                if not keys.size:
                    continue
                rows = owner[:keys.size]
                if k == 3:  # the blocks hold 3-grams (shorter queries: the bitmaps, or a scan)
                    seen.reshape(-1)[(rows // per) * self.bits + _hash(keys, self.bits)] = True
                if frequent:
                    slot = slots[k][keys & np.uint32(0xFFFFFF)].astype(np.int64)
                    slot[_spans(sep, k)] = trash  # across two rows
                    hits.reshape(-1)[slot * width + rows] = True
            blocks[first // per:first // per + seen.shape[0]] = np.packbits(seen, axis=1, bitorder="little")
            if frequent:
                packed = np.packbits(hits[:trash], axis=1, bitorder="little")
                row_bits[:, first // 8:first // 8 + packed.shape[1]] = packed
        words = WordIndex.build(self.rows)
        self._frequent, self._row_bits, self._blocks, self._words = frequent, row_bits, blocks, words
        self._ready.set()

    def candidates(self, needle: str) -> tuple[np.ndarray, bool] | None:
        """(rows that may hold ``needle``, whether exactly those hold it), or None when the
        index is not built."""
        blocks, row_bits = self._blocks, self._row_bits
        if blocks is None or row_bits is None or not self.use_index:
            return None
        n = len(self)
        raw = np.frombuffer(needle.encode("utf-8"), dtype=np.uint8)
        keep_blocks = np.ones(blocks.shape[0], dtype=bool)
        keep_rows: np.ndarray | None = None
        exact = False
        for k in _GRAMS:
            for key in np.unique(_gram_keys(raw, k)).tolist():
                slot = self._frequent.get(key)
                if slot is not None:
                    bits = np.unpackbits(row_bits[slot], count=n, bitorder="little").view(bool)
                    keep_rows = bits if keep_rows is None else keep_rows & bits
                    exact = exact or (key >> 24) == raw.size
                elif key >> 24 == 3:
                    v = int(_hash(np.array([key], dtype=np.uint32), self.bits)[0])
                    keep_blocks &= (blocks[:, v >> 3] >> (v & 7)) & 1 == 1
        rows = np.repeat(keep_blocks, self.rows_per_block)[:n]
        return (rows if keep_rows is None else rows & keep_rows), exact

    def matches(self, needle: str, within: np.ndarray | None = None) -> np.ndarray:
        """Bool per row: the row's casefolded text holds ``needle`` (already casefolded)."""
        n = len(self)
        found = self.candidates(needle)
        if found is not None and found[1]:  # the needle is a frequent n-gram: its bitmap is the answer
            return found[0] if within is None else found[0] & within
        if found is not None and self._words is not None:
            hit = self._words.rows_with(needle, n)
            if hit is not None:
                rows, exact = hit
                if exact:  # one word, no space: the rows of the words holding it are the answer
                    return rows if within is None else rows & within
                found = (found[0] & rows, False)
        cand = None if found is None else found[0]
        if within is not None:
            cand = within if cand is None else cand & within
        if cand is None:
            return np.fromiter(map(str.__contains__, self.rows, repeat(needle)), dtype=bool, count=n)
        idx = np.flatnonzero(cand)
        keep = np.fromiter(map(str.__contains__, self.rows[idx], repeat(needle)), dtype=bool, count=idx.size)
        out = np.zeros(n, dtype=bool)
        out[idx[keep]] = True
        return out


_WORD_CHUNK = 8192  # rows whose words are gathered at a time (fits the uint16 row numbers of a chunk)
_SPLIT_ROWS = 512  # rows split into words in one call
_ROW_MARK = " \ue000\x02\ue000 "  # put between the rows of a chunk split at once (unless a row holds it)
_MAX_PAIRS = 4096  # word pairs looked up for two neighbouring parts of a needle; more: each part alone


class _Postings:
    """Rows per key (a word, or two neighbouring words), gathered a chunk of rows at a time."""

    def __init__(self) -> None:
        self._parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.keys = np.zeros(0, dtype=np.int64)  # [groups]: by chunk, then key
        self.starts = np.zeros(1, dtype=np.int64)  # [groups + 1]: where each group's rows begin in ``rows``
        self.chunks = np.zeros(0, dtype=np.int32)  # [groups]: the chunk of the group
        self.rows = np.zeros(0, dtype=np.uint16)  # [postings]: rows within the chunk

    def add(self, keys: np.ndarray, local_rows: np.ndarray) -> None:
        """The next chunk's (key, row) pairs; keys below 2 ** 50."""
        pairs = np.unique(keys * _WORD_CHUNK + local_rows)  # by key, then row
        group_keys, sizes = np.unique(pairs // _WORD_CHUNK, return_counts=True)
        self._parts.append((group_keys, sizes, (pairs % _WORD_CHUNK).astype(np.uint16)))

    def finish(self) -> None:
        parts, self._parts = self._parts, []
        if not parts:
            return
        self.keys = np.concatenate([p[0] for p in parts])
        self.starts = np.zeros(self.keys.size + 1, dtype=np.int64)
        np.cumsum(np.concatenate([p[1] for p in parts]), out=self.starts[1:])
        self.chunks = np.repeat(np.arange(len(parts), dtype=np.int32), [p[0].size for p in parts])
        self.rows = np.concatenate([p[2] for p in parts])

    @property
    def nbytes(self) -> int:
        return sum(int(a.nbytes) for a in (self.keys, self.starts, self.chunks, self.rows))

    def rows_of(self, keys: np.ndarray, n: int) -> np.ndarray:
        """Bool per row: the row has one of ``keys``."""
        out = np.zeros(n, dtype=bool)
        groups = np.flatnonzero(np.isin(self.keys, keys)) if keys.size else keys
        if not groups.size:
            return out
        first, sizes = self.starts[groups], self.starts[groups + 1] - self.starts[groups]
        at = np.repeat(first - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        base = np.repeat(self.chunks[groups].astype(np.int64) * _WORD_CHUNK, sizes)
        out[self.rows[at].astype(np.int64) + base] = True
        return out


def _split_rows(rows: list[str]) -> tuple[list[str], np.ndarray]:
    """The words of ``rows`` (a NUL counts as a space), and how many each row has."""
    if not any(_ROW_MARK.strip() in r for r in rows):
        words = (_ROW_MARK.join(rows) + _ROW_MARK).replace("\x00", " ").split()
        mark = _ROW_MARK.strip()
        ends = np.flatnonzero(np.fromiter(map(mark.__eq__, words), dtype=bool, count=len(words)))
        counts = np.diff(np.concatenate([[-1], ends])) - 1
        return [w for w in words if w != mark], counts
    lists = [r.replace("\x00", " ").split() for r in rows]
    return list(chain.from_iterable(lists)), np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))


class WordIndex:
    """The words of the row texts (maximal runs without white space; the NUL between a row's texts
    counts as a space), the rows of every word and the rows of every two words in a row.

    A needle without white space is inside one word wherever it occurs, so the rows holding it are
    exactly the rows of the words that contain it: no row is tested. Where a needle ``a b c`` of
    several words occurs, a word ending with ``a`` is followed by the word ``b``, then by a word
    starting with ``c``: only the rows with such neighbours are tested."""

    def __init__(self, vocabulary: list[str], words: _Postings, pairs: _Postings):
        self.vocabulary = vocabulary  # word id -> word
        self._ids = {w: i for i, w in enumerate(vocabulary)}
        self._joined = "\n".join(vocabulary)  # a word holds no white space
        self._word_starts = np.cumsum([0] + [len(w) + 1 for w in vocabulary[:-1]], dtype=np.int64)
        self._words = words
        self._pairs = pairs  # key: first word << 25 | second word

    @property
    def nbytes(self) -> int:
        return self._words.nbytes + self._pairs.nbytes

    @classmethod
    def build(cls, rows: np.ndarray) -> WordIndex:
        vocabulary: dict[str, int] = {}
        words, pairs = _Postings(), _Postings()
        for first in range(0, len(rows), _WORD_CHUNK):
            parts, sizes = [], []
            # a few hundred rows per call into C: the thread lets the others (the GUI) run in between
            for sub in range(first, min(first + _WORD_CHUNK, len(rows)), _SPLIT_ROWS):
                flat, counts = _split_rows(rows[sub:min(sub + _SPLIT_ROWS, first + _WORD_CHUNK)].tolist())
                new = dict.fromkeys(flat).keys() - vocabulary.keys()
                vocabulary.update(zip(sorted(new), counter(len(vocabulary))))
                parts.append(np.fromiter(map(vocabulary.__getitem__, flat), dtype=np.int64, count=len(flat)))
                sizes.append(counts)
            if len(vocabulary) >= 1 << 25:
                raise ValueError("too many distinct words to index")
            ids, counts = np.concatenate(parts), np.concatenate(sizes)
            local = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
            words.add(ids, local)
            same_row = local[1:] == local[:-1]
            pairs.add(((ids[:-1] << 25) | ids[1:])[same_row], local[1:][same_row])
        words.finish()
        pairs.finish()
        return cls(list(vocabulary), words, pairs)

    def _matching(self, pattern: str, text: str) -> np.ndarray:
        """Ids of the words of ``text`` (the vocabulary joined by newlines) where ``pattern`` occurs."""
        at = np.fromiter((m.start() for m in re.finditer(re.escape(pattern), text)), dtype=np.int64)
        return np.unique(np.searchsorted(self._word_starts, at, side="right") - 1)

    def words_with(self, part: str, how: str) -> np.ndarray:
        """Ids of the words that ``contain``, ``end`` with, ``start`` with or ``are`` ``part``."""
        if how == "are":
            i = self._ids.get(part)
            return np.zeros(0, dtype=np.int64) if i is None else np.array([i], dtype=np.int64)
        if how == "end":
            return self._matching(part + "\n", self._joined + "\n")
        if how == "start":  # the match begins at the newline before the word
            return self._matching("\n" + part, "\n" + self._joined)
        return self._matching(part, self._joined)

    def rows_with(self, needle: str, n: int) -> tuple[np.ndarray, bool] | None:
        """(rows, exact): the rows holding ``needle`` when ``exact``, else rows that may hold it;
        None for a needle this index does not narrow (empty, or holding a NUL)."""
        parts = needle.split()
        if not parts or "\x00" in needle:
            return None
        if len(parts) == 1 and parts[0] == needle:
            return self._words.rows_of(self.words_with(needle, "contain"), n), True
        if needle != needle.strip():  # white space at an end: each part is somewhere in a word
            sets = [self.words_with(p, "contain") for p in parts]
            neighbours = False
        else:
            sets = [self.words_with(parts[0], "end"), *(self.words_with(p, "are") for p in parts[1:-1]),
                    self.words_with(parts[-1], "start")]
            neighbours = True
        if any(not s.size for s in sets):
            return np.zeros(n, dtype=bool), False
        rows: np.ndarray | None = None
        alone = set(range(len(parts)))
        if neighbours:
            for j in sorted(range(len(parts) - 1), key=lambda j: sets[j].size * sets[j + 1].size):
                a, b = sets[j], sets[j + 1]
                if a.size * b.size > _MAX_PAIRS:
                    continue
                found = self._pairs.rows_of(((a[:, None] << 25) | b[None, :]).ravel(), n)
                rows = found if rows is None else rows & found
                alone -= {j, j + 1}
        for j in sorted(alone, key=lambda j: sets[j].size):
            found = self._words.rows_of(sets[j], n)
            rows = found if rows is None else rows & found
        assert rows is not None
        return rows, False


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
        mask &= frame.search_index().matches(needle, None if mask.all() else mask)
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
    if sort_values.dtype.kind == "f":  # NaN (missing) sorts last either way, in row order
        order = frame.sorted_rows(sort_values, descending)
        if rows.size == len(frame):
            return order
        shown = np.zeros(len(frame), dtype=bool)
        shown[rows] = True
        return order[shown[order]]
    values = sort_values if rows.size == len(frame) else sort_values[rows]
    keys, missing = sort_keys(values)
    order = np.argsort(-keys if descending else keys, kind="stable")
    order = np.concatenate([order[~missing[order]], order[missing[order]]])
    return rows[order]


def distinct(values: np.ndarray | None) -> list[Any]:
    """Distinct non-null values of an object column, sorted."""
    if values is None:
        return []
    return sorted({v for v in values if v is not None}, key=str)
