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
mentioning the document, whose first entry carries the document's ratings.
:func:`document_study` gives, per run, the mean over documents of each document's mean rating,
and Krippendorff's alpha (ordinal) over (run, document) units, for ``mteval validate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.app.review import record_judgment
from mteval_gui.domain.corpus import DOC_KEYS, Entry, document_of
from mteval_gui.domain.judgments import Judgment
from mteval_gui.errors import InputError
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import current_judgments
from mteval_gui.validation.agreement import AlphaResult, alpha_with_ci

CONTEXT_BEFORE = 2
CONTEXT_AFTER = 2
WINDOW = 64  # positions read on each side of the entry by the review pane
__all__ = ["DOC_KEYS", "document_of", "DocumentIndex", "DocumentContext", "Neighbour", "document_context",
           "document_entries", "document_rating", "rate_document", "document_study", "DocumentStudy", "DocumentRun"]


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


# ----- document ratings (task D) -------------------------------------------------------------

def document_rating(ws: Workspace, run_id: str, reviewer_id: str, document: str) -> Judgment | None:
    """The reviewer's current rating of one document's translation by a run (None: not rated)."""
    found = [j for j in current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id, task="D")
             if j.payload.get("document") == document]
    return found[-1] if found else None


def rate_document(ws: Workspace, run_id: str, reviewer_id: str, document: str, adequacy: int | None,
                  fluency: int | None, note: str | None = None) -> Judgment:
    """Record (a new version of) the reviewer's rating of the run's translation of ``document``: a task D
    judgment on the document's first entry."""
    corpus_id = repo.get_run_info(ws, run_id)["corpus_id"]
    entries = document_entries(ws, corpus_id, document)
    if not entries:
        raise InputError(f"corpus {corpus_id!r} has no document {document!r}")
    if adequacy is None and fluency is None:
        raise InputError("rate the document's adequacy or fluency (1-5)")
    return record_judgment(ws, Judgment(reviewer_id=reviewer_id, run_id=run_id, entry_id=entries[0].id, task="D",
                                        adequacy=adequacy, fluency=fluency, note=(note or "").strip() or None,
                                        payload={"document": document}))


@dataclass(frozen=True)
class DocumentRun:
    """One run's document ratings: the mean over documents of each document's mean rating."""

    run_id: str
    documents: int  # documents rated
    judgments: int
    adequacy: float | None
    fluency: float | None

    def to_json(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "documents": self.documents, "judgments": self.judgments,
                "adequacy": self.adequacy, "fluency": self.fluency}


@dataclass(frozen=True)
class DocumentStudy:
    runs: list[DocumentRun]
    agreement: dict[str, AlphaResult]  # aspect -> Krippendorff's alpha (ordinal) over (run, document) units

    @property
    def judgments(self) -> int:
        return sum(r.judgments for r in self.runs)

    def to_json(self) -> dict[str, Any]:
        return {"runs": [r.to_json() for r in self.runs],
                "agreement": {k: a.to_json() for k, a in self.agreement.items()}}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def document_study(ws: Workspace, run_ids: Sequence[str], *, n_bootstrap: int = 1000,
                   seed: int = 12345) -> DocumentStudy:
    """Document-level means and agreement of the runs' current document ratings (task D)."""
    runs = []
    units: dict[str, list[list[float]]] = {"adequacy": [], "fluency": []}
    for run_id in run_ids:
        by_doc: dict[str, dict[str, Judgment]] = {}
        for j in current_judgments(ws, run_id=run_id, task="D"):
            document = j.payload.get("document")
            if isinstance(document, str):
                by_doc.setdefault(document, {})[j.reviewer_id] = j  # the latest per reviewer
        n = 0
        means: dict[str, list[float]] = {"adequacy": [], "fluency": []}
        for ratings in by_doc.values():
            n += len(ratings)
            for aspect in means:
                values = [float(v) for j in ratings.values() if (v := getattr(j, aspect)) is not None]
                if values:
                    means[aspect].append(sum(values) / len(values))
                    units[aspect].append(values)
        runs.append(DocumentRun(run_id, len(by_doc), n, _mean(means["adequacy"]), _mean(means["fluency"])))
    agreement = {aspect: alpha_with_ci(u, "ordinal", n_bootstrap=n_bootstrap, seed=seed)
                 for aspect, u in units.items()}
    return DocumentStudy(runs, agreement)
