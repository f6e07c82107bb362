"""Persistent analyzer cache in the workspace (table ``fst_cache``).

Analyses are stored per (analyzer sha256, exact word form) as a JSON list of analysis strings
(flag diacritics already removed), so a second scoring of the same outputs with the same
analyzer file does not query the transducer at all. An analyzer replaced by a different file
has a different sha256 and therefore a separate cache.

:class:`WorkspaceFstCache` is a ``MutableMapping[str, list[str]]`` for one analyzer: it reads
every cached form of that analyzer in one query on first use and buffers new entries, written
in one transaction every ``flush_every`` entries and on :meth:`flush`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, MutableMapping

from mteval_gui.store.db import Workspace


class WorkspaceFstCache(MutableMapping[str, list[str]]):
    def __init__(self, ws: Workspace, analyzer_sha256: str, *, flush_every: int = 500):
        self.ws = ws
        self.sha256 = analyzer_sha256
        self.flush_every = flush_every
        self._data: dict[str, list[str]] | None = None
        self._pending: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    # -- loading ------------------------------------------------------------------------
    def _loaded(self) -> dict[str, list[str]]:
        if self._data is None:
            rows = self.ws.conn.execute(
                "SELECT word, analyses FROM fst_cache WHERE analyzer_sha256 = ?", (self.sha256,)
            ).fetchall()
            self._data = {r[0]: json.loads(r[1]) for r in rows}
        return self._data

    # -- mapping protocol ---------------------------------------------------------------
    def __getitem__(self, word: str) -> list[str]:
        return self._loaded()[word]

    def get(self, word: str, default: list[str] | None = None) -> list[str] | None:  # type: ignore[override]
        return self._loaded().get(word, default)

    def __setitem__(self, word: str, analyses: list[str]) -> None:
        data = self._loaded()
        value = list(analyses)
        with self._lock:
            if data.get(word) == value:
                return
            data[word] = value
            self._pending[word] = value
            due = len(self._pending) >= self.flush_every
        if due:
            self.flush()

    def __delitem__(self, word: str) -> None:
        data = self._loaded()
        del data[word]
        with self._lock:
            self._pending.pop(word, None)
        with self.ws.transaction() as c:
            c.execute("DELETE FROM fst_cache WHERE analyzer_sha256 = ? AND word = ?", (self.sha256, word))

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._loaded()))

    def __len__(self) -> int:
        return len(self._loaded())

    # -- writing ------------------------------------------------------------------------
    def flush(self) -> int:
        """Write buffered entries in one transaction; returns how many were written."""
        with self._lock:
            pending, self._pending = self._pending, {}
        if not pending:
            return 0
        rows = [(self.sha256, w, json.dumps(a, ensure_ascii=False)) for w, a in pending.items()]
        with self.ws.transaction() as c:
            c.executemany(
                "INSERT OR REPLACE INTO fst_cache (analyzer_sha256, word, analyses) VALUES (?, ?, ?)", rows
            )
        return len(rows)

    @property
    def pending(self) -> int:
        return len(self._pending)

    # -- integration with scoring -------------------------------------------------------
    @classmethod
    def factory(cls, ws: Workspace, *, flush_every: int = 500) -> CacheFactory:
        """A callable ``sha256 -> WorkspaceFstCache`` for ``ScoringContext.options["fst_cache"]``."""
        return CacheFactory(ws, flush_every=flush_every)


class CacheFactory:
    """Creates one :class:`WorkspaceFstCache` per analyzer sha256 and flushes them all."""

    def __init__(self, ws: Workspace, *, flush_every: int = 500):
        self.ws = ws
        self.flush_every = flush_every
        self.caches: dict[str, WorkspaceFstCache] = {}

    def __call__(self, analyzer_sha256: str) -> WorkspaceFstCache:
        c = self.caches.get(analyzer_sha256)
        if c is None:
            c = WorkspaceFstCache(self.ws, analyzer_sha256, flush_every=self.flush_every)
            self.caches[analyzer_sha256] = c
        return c

    def flush(self) -> int:
        return sum(c.flush() for c in self.caches.values())


def clear_fst_cache(ws: Workspace, analyzer_sha256: str | None = None) -> int:
    """Delete cached analyses (of one analyzer, or all). Returns the number of rows deleted."""
    with ws.transaction() as c:
        if analyzer_sha256 is None:
            cur = c.execute("DELETE FROM fst_cache")
        else:
            cur = c.execute("DELETE FROM fst_cache WHERE analyzer_sha256 = ?", (analyzer_sha256,))
        return cur.rowcount


CacheFactoryType = Callable[[str], MutableMapping[str, list[str]]]
