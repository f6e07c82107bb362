"""Statistics of a corpus's reference side, computed once per corpus version.

Every run scored on a corpus is compared with the same references: their n-grams (chrF++,
BLEU), their TER tokenisation, their analyses (morphology) and their script and word sets
(code switching) do not depend on the run. :func:`corpus_side` gives the store of one corpus
*version* — keyed by the corpus id and the hash of its content (``corpus_sha256``, or a hash of
the entries' ids, references and variants when the caller has none) — and the runner puts it
in :attr:`ScoringContext.corpus_side`. A metric keeps its reference statistics in a *table* of
it (:meth:`CorpusSide.table`, one per metric configuration), by entry id, next to the
reference texts they were computed from: a value is reused only for the same texts.

The store lives in the process (worker processes each keep their own): the last
:data:`MAX_VERSIONS` corpus versions are kept, and a new version of a corpus replaces the
store of the previous one (its statistics are dropped, never reused). A table keeps the values
of its first :data:`MAX_TABLE_ENTRIES` entries; further ones are computed each time and not
kept, so a large corpus costs bounded memory (≈ 5 kB per entry over all tables: 200,000
entries kept would take a gigabyte in each scoring process, 10,000 took 50 MB in the command
and again in its forked helper). 2,000 entries cover a usual test set (MAFAND's 1,563), whose
statistics every run scored on it reuses.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

MAX_VERSIONS = 4
MAX_TABLE_ENTRIES = 2_000

T = TypeVar("T")


class CorpusSide:
    """Reference-side statistics of one corpus version (see the module docstring)."""

    def __init__(self, corpus_id: str, version_key: str) -> None:
        self.corpus_id = corpus_id
        self.version_key = version_key
        self._tables: dict[Hashable, dict[str, tuple[Hashable, Any]]] = {}
        self._lock = threading.Lock()
        self.computed = 0  # values computed (not reused), for tests and benchmarks

    def table(self, namespace: Hashable) -> dict[str, tuple[Hashable, Any]]:
        """The table of one metric configuration: entry id -> (reference texts, value)."""
        with self._lock:
            return self._tables.setdefault(namespace, {})

    def get(self, namespace: Hashable, entry_id: str, texts: Hashable, compute: Callable[[], T]) -> T:
        """The value of ``entry_id`` in ``namespace`` computed from ``texts`` (the reference
        side it depends on); ``compute()`` runs when it is absent or was computed from other texts."""
        table = self.table(namespace)
        hit = table.get(entry_id)
        if hit is not None and hit[0] == texts:
            value: T = hit[1]
            return value
        value = compute()
        if hit is not None or len(table) < MAX_TABLE_ENTRIES:
            table[entry_id] = (texts, value)
        self.computed += 1
        return value

    def namespaces(self) -> list[Hashable]:
        with self._lock:
            return list(self._tables)


_STORES: OrderedDict[tuple[str, str], CorpusSide] = OrderedDict()
_LOCK = threading.Lock()


def content_key(entries: Iterable[Any]) -> str:
    """A hash of what reference-side statistics depend on: ids, references, variants, gold
    morphology (used when the caller has no ``corpus_sha256``)."""
    h = hashlib.sha256()
    for e in entries:
        for part in (e.id, e.reference or "", "\x1e".join(e.references()),
                     repr(sorted((e.expected_morphology or {}).items()))):
            h.update(part.encode("utf-8", "surrogatepass"))
            h.update(b"\x1f")
        h.update(b"\x1d")
    return h.hexdigest()


def corpus_side(corpus_id: str, version_key: str) -> CorpusSide:
    """The store of this corpus version (made on first use; a new version of ``corpus_id``
    drops the store of the previous one)."""
    key = (corpus_id, version_key)
    with _LOCK:
        store = _STORES.get(key)
        if store is not None:
            _STORES.move_to_end(key)
            return store
        for old in [k for k in _STORES if k[0] == corpus_id]:
            del _STORES[old]
        store = _STORES[key] = CorpusSide(corpus_id, version_key)
        while len(_STORES) > MAX_VERSIONS:
            _STORES.popitem(last=False)
        return store


def cached_versions() -> list[tuple[str, str]]:
    """``(corpus id, version key)`` of the stores kept in this process, oldest first."""
    with _LOCK:
        return list(_STORES)


def clear() -> None:
    with _LOCK:
        _STORES.clear()
