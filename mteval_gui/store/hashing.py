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
from typing import Any

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


def corpus_sha256(corpus: Corpus) -> str:
    """Content hash of a corpus: language pair and every entry in order."""
    rows = (entry_row("", i, e)[1:] for i, e in enumerate(corpus.entries))
    return sha256_rows([corpus.language_pair.source, corpus.language_pair.target], rows)


def canonical_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def sha256_rows(head: Any, rows: Iterable[Sequence[Any]]) -> str:
    """sha256 over ``head`` (canonical JSON) and the rows (one JSON array of arrays).

    Row cells are scalars or JSON text already written with sorted keys, so one encoder
    call over all rows is canonical and much faster than one call per row.
    """
    h = hashlib.sha256()
    h.update(canonical_json(head).encode("utf-8"))
    h.update(b"\n")
    h.update(json.dumps([list(r) for r in rows], ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return h.hexdigest()
