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
