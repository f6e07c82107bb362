"""Documents of a corpus: which entries belong together, and the neighbours of an entry.

An entry's document is the first of its ``metadata`` keys :data:`DOC_KEYS` that holds a text or
a whole number, else its ``segment``; an entry with neither belongs to no document. The
neighbours of an entry are the entries of the same document nearest to it in corpus order,
:data:`CONTEXT_BEFORE` before and :data:`CONTEXT_AFTER` after, each with its offset among the
document's entries (-2, -1, 1, 2).

Review packs hold the whole corpus in memory (:class:`DocumentIndex`); the desktop review pane
reads only a window of :data:`WINDOW` positions on each side of the entry
(:func:`document_context`), so a corpus of a million entries costs no more than a small one.
:func:`document_entries` lists a whole document for its rating (task D,
:mod:`mteval_gui.domain.judgments`): one pass over the corpus that decodes only the entries
mentioning the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.corpus import Entry
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

DOC_KEYS = ("document", "doc_id", "document_id", "doc")
CONTEXT_BEFORE = 2
CONTEXT_AFTER = 2
WINDOW = 64  # positions read on each side of the entry by the review pane


def document_of(entry: Any) -> str | None:
    """The entry's document (None: the entry belongs to none)."""
    meta = entry.metadata or {}
    for key in DOC_KEYS:
        value = meta.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return entry.segment or None


class DocumentIndex:
    """The documents of entries in corpus order: each document's members, found once."""

    def __init__(self, entries: Sequence[Any]) -> None:
        self.entries = entries
        self.docs = [document_of(e) for e in entries]
        self.members: dict[str, list[int]] = {}
        self.rank: list[int] = []
        for i, doc in enumerate(self.docs):
            if doc is None:
                self.rank.append(-1)
                continue
            same = self.members.setdefault(doc, [])
            self.rank.append(len(same))
            same.append(i)

    def around(self, i: int, before: int = CONTEXT_BEFORE, after: int = CONTEXT_AFTER) -> list[tuple[int, int]]:
        """(index, offset) of the same-document entries nearest to entry ``i``, in corpus order."""
        doc = self.docs[i]
        if doc is None:
            return []
        same, k = self.members[doc], self.rank[i]
        return [(j, n - k) for n, j in enumerate(same) if n != k and k - before <= n <= k + after]

    def context_items(self, i: int, blind: bool) -> list[dict[str, Any]]:
        """The neighbours of entry ``i`` as review pack items (``entry_id``, ``offset``, ``source``, and the
        ``reference`` unless ``blind``)."""
        out = []
        for j, offset in self.around(i):
            e = self.entries[j]
            item: dict[str, Any] = {"entry_id": e.id, "offset": offset, "source": e.source}
            if not blind and e.reference is not None:
                item["reference"] = e.reference
            out.append(item)
        return out


@dataclass(frozen=True)
class Neighbour:
    entry_id: str
    offset: int  # among the document's entries: -1 the one before, 1 the one after
    source: str
    reference: str | None
    output: str | None = None  # the run's output of the neighbour (None: no run, an error or nothing)


@dataclass(frozen=True)
class DocumentContext:
    document: str
    before: list[Neighbour]
    after: list[Neighbour]


def document_context(ws: Workspace, corpus_id: str, entry_id: str, run_id: str | None = None, *,
                     before: int = CONTEXT_BEFORE, after: int = CONTEXT_AFTER,
                     window: int = WINDOW) -> DocumentContext | None:
    """The same-document neighbours of one entry found within ``window`` positions of it, with ``run_id``'s
    outputs of them (None: the entry belongs to no document)."""
    pos = repo.entry_position(ws, corpus_id, entry_id)
    rows = repo.entries_between(ws, corpus_id, max(0, pos - window), pos + window)
    entries = [e for _, e in rows]
    index = DocumentIndex(entries)
    i = next(k for k, (p, _) in enumerate(rows) if p == pos)
    doc = index.docs[i]
    if doc is None:
        return None
    found = []
    for j, offset in index.around(i, before, after):
        e = entries[j]
        output = None
        if run_id is not None:
            try:
                o = repo.get_output(ws, run_id, e.id)
            except repo.NotFoundError:
                o = None
            output = o.predicted if o is not None and not o.error and (o.predicted or "").strip() else None
        found.append(Neighbour(e.id, offset, e.source, e.reference, output))
    return DocumentContext(doc, [n for n in found if n.offset < 0], [n for n in found if n.offset > 0])


def document_entries(ws: Workspace, corpus_id: str, document: str) -> list[Entry]:
    """The entries of one document, in corpus order."""
    return [e for _, e in repo.entries_mentioning(ws, corpus_id, document) if document_of(e) == document]
