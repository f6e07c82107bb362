"""Content hashes of corpora and runs (sha256 of a canonical JSON form of the content).

The canonical form is the same tuple of values the workspace stores, so a hash can be
recomputed from the database. Run hashes leave out the run id (the same outputs imported
under another name are the same run) and cover the outputs in corpus order, missing ones
included.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from itertools import islice, repeat
from typing import Any

from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.corpus import Corpus, Entry

# one encoder for every JSON column (json.dumps with options builds a new encoder per call);
# strict: NaN and infinities are refused (SQLite's JSON functions cannot read them)
encode_column = json.JSONEncoder(ensure_ascii=False, sort_keys=True, allow_nan=False).encode


def dumps_column(v: Any, empty: str) -> str:
    """A JSON column (``empty``: the stored literal of an empty value)."""
    if not v:
        return empty
    return encode_column(v)


def dumps_optional(v: Any) -> str | None:
    return None if v is None else encode_column(v)


def entry_row(corpus_id: str, position: int, e: Entry) -> tuple[Any, ...]:
    """An entry as the workspace stores it (the values its content hash covers)."""
    return (
        corpus_id, e.id, position, e.source, e.reference,
        dumps_column(e.variants, "[]"), dumps_column(e.terminology, "{}"), e.difficulty,
        e.domain, e.register, e.segment, dumps_optional(e.provenance),
        dumps_column(e.phenomena, "[]"), dumps_column(e.expected_morphology, "{}"), dumps_column(e.metadata, "{}"),
    )


def entry_rows(corpus_id: str, entries: Iterable[Entry]) -> list[tuple[Any, ...]]:
    """:func:`entry_row` of each entry, position counted from 0; an entry without lists, objects
    or provenance (most of a big corpus) written without encoding its empty values, and plain
    entries held as columns (:class:`PlainColumns`) straight from their columns."""
    if isinstance(entries, PlainColumns) and entries.kind == "entry":
        c, n = entries.columns, len(entries)
        return list(zip(repeat(corpus_id, n), c["id"], range(n), c["source"], c["reference"], repeat("[]", n),
                        repeat("{}", n), c["difficulty"], c["domain"], c["register"], c["segment"], repeat(None, n),
                        repeat("[]", n), repeat("{}", n), repeat("{}", n), strict=True))
    rows: list[tuple[Any, ...]] = []
    add = rows.append
    for i, e in enumerate(entries):
        d = e.__dict__
        if (d["provenance"] is None and not d["variants"] and not d["terminology"] and not d["phenomena"]
                and not d["expected_morphology"] and not d["metadata"]):
            add((corpus_id, d["id"], i, d["source"], d["reference"], "[]", "{}", d["difficulty"], d["domain"],
                 d["register"], d["segment"], None, "[]", "{}", "{}"))
        else:
            add(entry_row(corpus_id, i, e))
    return rows


def corpus_sha256(corpus: Corpus) -> str:
    """Content hash of a corpus: language pair and every entry in order."""
    rows = (r[1:] for r in entry_rows("", corpus.entries))
    return sha256_rows([corpus.language_pair.source, corpus.language_pair.target], rows)


def canonical_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


HASH_CHUNK = 65_536  # rows encoded by one encoder call while hashing
_encode_rows = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def sha256_rows(head: Any, rows: Iterable[Sequence[Any]]) -> str:
    """sha256 over ``head`` (canonical JSON) and the rows (one JSON array of arrays).

    Row cells are scalars or JSON text already written with sorted keys, so one encoder
    call per :data:`HASH_CHUNK` rows is canonical and much faster than one call per row. The
    rows (tuples or lists: the encoder writes both as arrays) are hashed a chunk at a time,
    so the text of a million rows is never held at once; the bytes hashed are those of
    one ``json.dumps`` of the whole list.
    """
    h = hashlib.sha256()
    h.update(canonical_json(head).encode("utf-8"))
    h.update(b"\n[")
    it = iter(rows)
    sep = b""
    while chunk := list(islice(it, HASH_CHUNK)):
        h.update(sep)
        h.update(_encode_rows(chunk)[1:-1].encode("utf-8"))
        sep = b","
    h.update(b"]")
    return h.hexdigest()
