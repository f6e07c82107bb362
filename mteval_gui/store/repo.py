"""Workspace repositories: corpora, entries, runs, outputs, glossaries and settings.

Every write is one transaction (``ws.transaction()``): an import either lands completely or
leaves the database as it was. Functions take the :class:`~mteval_gui.store.db.Workspace`
first; rows come back as plain dicts (JSON columns decoded) or as domain models.

Runs:
- outputs are checked against the corpus: unknown ids are an :class:`InputError` listing
  every one (with its line when known); ids the run lacks are stored as empty outputs with
  ``missing = 1`` and reported back;
- a run whose content (outputs in corpus order, metadata except the run id, and the run id
  the file itself declares, if any) was already imported for the corpus is not imported
  again: the existing run id is returned;
- a run id already used by a different run gets a numeric suffix (``name-2``, ``name-3``),
  and the import reports the renaming.

Imports come in two steps, so that several files can go into one transaction and be prepared
in another process: ``prepare_corpus`` / ``prepare_run`` check and make the rows and the
content hash without touching the workspace; ``write_corpus`` / ``write_run`` write them inside
the caller's transaction, from memory or from a staging file (``stage_entry_rows``,
``stage_output_rows``). ``add_corpus`` and ``import_run`` do both for one file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from mteval_gui.domain.base import construct
from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta, Usage
from mteval_gui.errors import Defect, InputError, StoreError
from mteval_gui.store.db import Workspace, utcnow
from mteval_gui.store.hashing import corpus_sha256 as corpus_sha256  # the content hash lives beside the others
from mteval_gui.store.hashing import dumps_column as _dumps
from mteval_gui.store.hashing import dumps_optional as _dumps_opt
from mteval_gui.store.hashing import encode_column as _encode
from mteval_gui.store.hashing import entry_rows as _entry_rows
from mteval_gui.store.hashing import sha256_rows

_USAGE_NAMES = tuple(Usage.model_fields)


_LANG_CODE = re.compile(r"[a-z]{3}")


class NotFoundError(StoreError):
    """A corpus, run, entry or glossary id that the workspace does not hold."""


def _loads(v: str | None, default: Any = None) -> Any:
    """Decode a JSON column; the stored empty literals are answered without decoding."""
    if v is None or v == "":
        return default
    if v == "[]":
        return []
    if v == "{}":
        return {}
    return json.loads(v)


# ----------------------------------------------------------------------------- corpora

_ENTRY_INSERT = (
    "INSERT INTO entries (corpus_id, entry_id, position, source, reference, variants, terminology, difficulty,"
    " domain, register, segment, provenance, phenomena, expected_morphology, metadata)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_ENTRY_COLS = ("entry_id, source, reference, variants, terminology, difficulty, domain, register, segment,"
               " provenance, phenomena, expected_morphology, metadata")


def corpus_exists(ws: Workspace, corpus_id: str) -> bool:
    return ws.conn.execute("SELECT 1 FROM corpora WHERE corpus_id = ?", (corpus_id,)).fetchone() is not None


def add_corpus(ws: Workspace, corpus: Corpus, *, source_path: str | None = None, replace: bool = False) -> str:
    """Store a corpus and its entries in one transaction; returns the corpus id.

    A corpus id already in the workspace is an :class:`InputError` unless ``replace`` is
    true, in which case the old corpus is deleted first, together with its runs.
    """
    where = str(source_path) if source_path else corpus.corpus_id
    prepared = prepare_corpus(corpus, where)
    with ws.transaction() as conn:
        write_corpus(conn, prepared, source_path=source_path, replace=replace, where=where)
    return prepared.corpus_id


@dataclass
class PreparedCorpus:
    """A checked corpus as the workspace stores it, before anything is written: the values of
    its ``corpora`` row, its content hash, and its entry rows (``rows``, as ``entry_rows`` makes
    them) or the staging file that holds them (``stage``, see :func:`stage_entry_rows`)."""

    corpus_id: str
    values: dict[str, Any]  # version, source_lang, target_lang, license, attribution, description, metadata
    sha256: str
    count: int
    rows: list[tuple] | None = None
    stage: str | None = None

    def order(self) -> list[tuple[str, int]]:
        """(entry id, position) of each entry in order (from ``rows``)."""
        if self.rows is None:
            raise ValueError("the rows of a staged corpus are in its staging file")
        return [(r[1], r[2]) for r in self.rows]


def prepare_corpus(corpus: Corpus, where: str) -> PreparedCorpus:
    """Check a corpus for the workspace (duplicate ids, language codes, JSON values) and make its
    rows and content hash; raises :class:`InputError` naming ``where``. Writes nothing."""
    defects = []
    entries = corpus.entries
    ids = entries.ids if isinstance(entries, PlainColumns) else [e.id for e in entries]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for i, eid in enumerate(ids):
            if eid in seen:
                defects.append(Defect(where, None, f"duplicate id {eid!r} (entry {i + 1})"))
            seen.add(eid)
    del ids
    lp = corpus.language_pair
    for side, code in (("source", lp.source), ("target", lp.target)):
        if not isinstance(code, str) or not _LANG_CODE.fullmatch(code):
            defects.append(
                Defect(where, None, f"{side} language {code!r} is not an ISO 639-3 code (three lowercase letters)")
            )
    if defects:
        raise InputError(defects)
    cid = corpus.corpus_id
    try:
        rows = _entry_rows(cid, corpus.entries)
    except ValueError as exc:  # NaN or infinity in a JSON field
        raise InputError(Defect(where, None, f"an entry holds a value that is not JSON: {exc}")) from None
    sha = sha256_rows([corpus.language_pair.source, corpus.language_pair.target], (r[1:] for r in rows))
    lp_extra = {k: v for k, v in lp.model_dump().items() if k not in ("source", "target")}
    metadata = dict(corpus.metadata)
    if lp_extra:
        metadata.setdefault("language_pair_extra", lp_extra)
    values = {"version": corpus.version, "source_lang": lp.source, "target_lang": lp.target,
              "license": corpus.license, "attribution": corpus.attribution, "description": corpus.description,
              "metadata": _dumps(metadata, "{}")}
    return PreparedCorpus(cid, values, sha, len(rows), rows)


def write_corpus(conn: Any, prepared: PreparedCorpus, *, source_path: str | None, replace: bool, where: str) -> None:
    """Write a prepared corpus inside the caller's transaction (``conn``); a corpus of the same id
    is an :class:`InputError` unless ``replace`` (then it is deleted first, with its runs)."""
    cid, v = prepared.corpus_id, prepared.values
    old = conn.execute("SELECT source_path, sha256 FROM corpora WHERE corpus_id = ?", (cid,)).fetchone()
    if old is not None:
        if not replace:
            same = " with the same content" if old[1] == prepared.sha256 else ""
            raise InputError(Defect(where, None,
                                    f"corpus {cid!r} is already in the workspace{same} (imported from "
                                    f"{old[0] or 'unknown'}); choose another id or replace it"))
        conn.execute("DELETE FROM corpora WHERE corpus_id = ?", (cid,))
    conn.execute(
        "INSERT INTO corpora (corpus_id, version, source_lang, target_lang, license, attribution, description,"
        " metadata, sha256, entry_count, source_path, imported_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (cid, v["version"], v["source_lang"], v["target_lang"], v["license"], v["attribution"], v["description"],
         v["metadata"], prepared.sha256, prepared.count, str(source_path) if source_path else None, utcnow()),
    )
    if prepared.rows is not None:
        _insert_entries(conn, prepared.rows)
    elif prepared.stage is not None:
        _copy_stage(conn, prepared.stage, f"INSERT INTO main.entries ({_STAGE_ENTRY_TARGET})"
                    f" SELECT ?, {_STAGE_ENTRY_NAMES} FROM {{schema}}.rows ORDER BY rowid", (cid,))


# an entry with no list, object or provenance: those columns as ``entry_row`` writes them
_PLAIN_ENTRY_INSERT = (
    "INSERT INTO entries (corpus_id, entry_id, position, source, reference, variants, terminology, difficulty,"
    " domain, register, segment, provenance, phenomena, expected_morphology, metadata)"
    " VALUES (?,?,?,?,?,'[]','{}',?,?,?,?,NULL,'[]','{}','{}')"
)


def _plain_entry(r: tuple) -> bool:
    return (r[5] == "[]" and r[6] == "{}" and r[11] is None and r[12] == "[]" and r[13] == "{}"
            and r[14] == "{}")


PLAIN_STRETCH = 256  # plain rows in a row that are written by the shorter statement


def plain_stretches(rows: Sequence[tuple], plain: Callable[[tuple], bool],
                    least: int = PLAIN_STRETCH) -> list[tuple[bool, int, int]]:
    """``(plain, start, end)`` pieces covering ``rows`` in order: stretches of at least ``least``
    rows for which ``plain`` is true, and the rows between them (plain or not) as one piece each,
    so that a file mixing plain and other rows is written by few statements."""
    pieces: list[tuple[bool, int, int]] = []
    n, i, rest = len(rows), 0, 0
    while i < n:
        if not plain(rows[i]):
            i += 1
            continue
        j = i + 1
        while j < n and plain(rows[j]):
            j += 1
        if j - i >= least:
            if rest < i:
                pieces.append((False, rest, i))
            pieces.append((True, i, j))
            rest = j
        i = j
    if rest < n:
        pieces.append((False, rest, n))
    return pieces


def _insert_entries(conn: Any, rows: list[tuple]) -> None:
    """Insert a corpus's rows (as ``entry_row`` makes them) in order; long stretches of plain rows
    go through a statement binding 9 values instead of 15."""
    for plain, start, end in plain_stretches(rows, _plain_entry):
        if plain:
            conn.executemany(_PLAIN_ENTRY_INSERT, ((r[0], r[1], r[2], r[3], r[4], r[7], r[8], r[9], r[10])
                                                   for r in rows[start:end]))
        else:
            conn.executemany(_ENTRY_INSERT, rows[start:end])


def _entry_from_row(r: Sequence[Any]) -> Entry:
    return construct(Entry, {
        "id": r[0], "source": r[1], "reference": r[2], "variants": _loads(r[3], []), "terminology": _loads(r[4], {}),
        "difficulty": r[5], "domain": r[6], "register": r[7], "segment": r[8], "provenance": _loads(r[9]),
        "phenomena": _loads(r[10], []), "expected_morphology": _loads(r[11], {}), "metadata": _loads(r[12], {}),
    })


ENTRY_COLUMNS = ("entry_id", "position", "source", "reference", "variants", "terminology", "difficulty", "domain",
                 "register", "segment", "provenance", "phenomena", "expected_morphology", "metadata")
_ENTRY_JSON: dict[str, Any] = {
    "variants": [],
    "terminology": {},
    "phenomena": [],
    "expected_morphology": {},
    "metadata": {},
    "provenance": None,
}


def entry_columns(ws: Workspace, corpus_id: str,
                  fields: Sequence[str] = ("entry_id", "source", "reference", "difficulty")) -> dict[str, list[Any]]:
    """Columns of a corpus' entries in corpus order, decoding only the JSON columns asked for.

    ``fields`` are column names of the entries table (``id`` is accepted for ``entry_id``).
    Meant for tables of 100,000 rows, where building Entry objects would cost seconds.
    """
    cols = ["entry_id" if f == "id" else f for f in fields]
    bad = [c for c in cols if c not in ENTRY_COLUMNS]
    if bad:
        raise StoreError(f"unknown entry column(s): {', '.join(bad)} (known: {', '.join(ENTRY_COLUMNS)})")
    if not cols:
        return {}
    sql = "SELECT " + ", ".join(f'"{c}"' for c in cols) + " FROM entries WHERE corpus_id = ? ORDER BY position"
    rows = ws.conn.execute(sql, (corpus_id,)).fetchall()
    out: dict[str, list[Any]] = {}
    for j, (name, col) in enumerate(zip(fields, cols, strict=True)):
        values = [r[j] for r in rows]
        if col in _ENTRY_JSON:
            default = _ENTRY_JSON[col]
            values = [_loads(v, type(default)() if default is not None else None) for v in values]
        out[name] = values
    return out


def entry_texts(ws: Workspace, corpus_id: str, column: str) -> list[str | None]:
    """One text column (``source`` or ``reference``) of a corpus's entries in corpus order, read as
    plain values (what :func:`entry_columns` gives for it, without a row object per entry)."""
    if column not in ("source", "reference"):
        raise StoreError(f"not a text column of the entries: {column!r}")
    cur = ws.conn.cursor()
    cur.row_factory = None
    cur.execute(f"SELECT {column} FROM entries WHERE corpus_id = ? ORDER BY position", (corpus_id,))
    return [r[0] for r in cur.fetchall()]


def _corpus_row(ws: Workspace, corpus_id: str) -> dict[str, Any]:
    row = ws.conn.execute("SELECT * FROM corpora WHERE corpus_id = ?", (corpus_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no corpus {corpus_id!r} in the workspace")
    d = dict(row)
    d["metadata"] = _loads(d["metadata"], {})
    return d


def get_corpus_info(ws: Workspace, corpus_id: str) -> dict[str, Any]:
    """The corpora row of ``corpus_id`` (metadata decoded)."""
    return _corpus_row(ws, corpus_id)


def get_entries(ws: Workspace, corpus_id: str) -> list[Entry]:
    """Entries of a corpus in corpus order."""
    return list(iter_entries(ws, corpus_id))


def iter_entries(ws: Workspace, corpus_id: str) -> Iterator[Entry]:
    """Entries of a corpus in corpus order, one at a time as they are read."""
    cur = ws.conn.execute(f"SELECT {_ENTRY_COLS} FROM entries WHERE corpus_id = ? ORDER BY position", (corpus_id,))
    return (_entry_from_row(r) for r in cur)


def get_entry(ws: Workspace, corpus_id: str, entry_id: str) -> Entry:
    r = ws.conn.execute(f"SELECT {_ENTRY_COLS} FROM entries WHERE corpus_id = ? AND entry_id = ?",
                        (corpus_id, entry_id)).fetchone()
    if r is None:
        raise NotFoundError(f"no entry {entry_id!r} in corpus {corpus_id!r}")
    return _entry_from_row(r)


def entry_position(ws: Workspace, corpus_id: str, entry_id: str) -> int:
    """The entry's position in its corpus (0-based corpus order)."""
    r = ws.conn.execute("SELECT position FROM entries WHERE corpus_id = ? AND entry_id = ?",
                        (corpus_id, entry_id)).fetchone()
    if r is None:
        raise NotFoundError(f"no entry {entry_id!r} in corpus {corpus_id!r}")
    return int(r[0])


def entries_between(ws: Workspace, corpus_id: str, first: int, last: int) -> list[tuple[int, Entry]]:
    """(position, entry) of the entries at positions ``first``..``last`` (inclusive), in corpus order."""
    rows = ws.conn.execute(f"SELECT position, {_ENTRY_COLS} FROM entries WHERE corpus_id = ? "
                           "AND position BETWEEN ? AND ? ORDER BY position", (corpus_id, first, last)).fetchall()
    return [(int(r[0]), _entry_from_row(r[1:])) for r in rows]


def entries_mentioning(ws: Workspace, corpus_id: str, text: str) -> list[tuple[int, Entry]]:
    """(position, entry) of the entries whose segment is ``text`` or whose metadata JSON contains it (a
    pre-selection for a Python test; one pass over the corpus without decoding the others), in corpus order."""
    needle = _encode(text)[1:-1]
    rows = ws.conn.execute(f"SELECT position, {_ENTRY_COLS} FROM entries WHERE corpus_id = ? "
                           "AND (segment = ? OR instr(metadata, ?) > 0) ORDER BY position",
                           (corpus_id, text, needle)).fetchall()
    return [(int(r[0]), _entry_from_row(r[1:])) for r in rows]


def entry_ids(ws: Workspace, corpus_id: str) -> list[str]:
    """Entry ids in corpus order."""
    return [
        r[0]
        for r in ws.conn.execute("SELECT entry_id FROM entries WHERE corpus_id = ? ORDER BY position", (corpus_id,))
    ]


def get_corpus(ws: Workspace, corpus_id: str, *, with_entries: bool = True) -> Corpus:
    d = _corpus_row(ws, corpus_id)
    metadata = dict(d["metadata"])
    lp_extra = metadata.pop("language_pair_extra", {}) or {}
    return Corpus.model_construct(
        corpus_id=d["corpus_id"], version=d["version"] or "1",
        language_pair=LanguagePair(source=d["source_lang"], target=d["target_lang"], **lp_extra),
        license=d["license"], attribution=d["attribution"], description=d["description"],
        metadata=metadata, entries=get_entries(ws, corpus_id) if with_entries else [],
    )


def list_corpora(ws: Workspace) -> list[dict[str, Any]]:
    """Rows of the corpora table plus ``run_count``, in import order."""
    cur = ws.conn.execute(
        "SELECT c.*, (SELECT COUNT(*) FROM runs r WHERE r.corpus_id = c.corpus_id) AS run_count"
        " FROM corpora c ORDER BY c.imported_at, c.rowid"
    )
    out = []
    for row in cur:
        d = dict(row)
        d["metadata"] = _loads(d["metadata"], {})
        out.append(d)
    return out


def find_corpus(ws: Workspace, *, sha256: str | None = None, source_name: str | None = None) -> str | None:
    """A corpus id by content hash, or by the file name it was imported from."""
    if sha256:
        r = ws.conn.execute(
            "SELECT corpus_id FROM corpora WHERE sha256 = ? ORDER BY rowid LIMIT 1", (sha256,)
        ).fetchone()
        if r:
            return r[0]
    if source_name:
        for cid, path in ws.conn.execute("SELECT corpus_id, source_path FROM corpora ORDER BY rowid"):
            if path and path.replace("\\", "/").rsplit("/", 1)[-1] == source_name:
                return cid
    return None


def delete_corpus(ws: Workspace, corpus_id: str) -> bool:
    """Delete a corpus with its entries and runs. Returns False if it did not exist."""
    with ws.transaction() as conn:
        cur = conn.execute("DELETE FROM corpora WHERE corpus_id = ?", (corpus_id,))
    return cur.rowcount > 0


# ----------------------------------------------------------------------------- runs

@dataclass
class RunImport:
    """Outcome of adding a run: its id, whether it was written, and what to tell the user."""

    run_id: str
    created: bool
    missing_ids: list[str] = field(default_factory=list)
    renamed_from: str | None = None
    warnings: list[str] = field(default_factory=list)


_OUTPUT_INSERT = (
    "INSERT INTO outputs (run_id, entry_id, position, predicted, raw_predicted, latency_s, cost_usd, cached,"
    " usage, error, missing, extra) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)


def _usage_json(u: Usage | dict | None) -> str | None:
    if u is None:
        return None
    if isinstance(u, Usage):
        d = {k: v for k, v in u.__dict__.items() if v is not None}
        d.update({k: v for k, v in (u.__pydantic_extra__ or {}).items() if v is not None})
    else:
        d = {k: v for k, v in u.items() if v is not None}
    return _dumps_opt(d) if d else None


def _output_row(position: int, entry_id: str, o: Output | None) -> tuple:
    if o is None:
        return (entry_id, position, "", None, None, None, None, None, None, 1, "{}")
    cached = None if o.cached is None else int(bool(o.cached))
    return (entry_id, position, o.predicted or "", o.raw_predicted, o.latency_s, o.cost_usd, cached,
            _usage_json(o.usage), o.error, 0, _dumps(o.model_extra or {}, "{}"))


# an output with nothing but its text: every other column as ``_output_row`` writes it
_PLAIN_OUTPUT_INSERT = (
    "INSERT INTO outputs (run_id, entry_id, position, predicted, raw_predicted, latency_s, cost_usd, cached,"
    " usage, error, missing, extra) VALUES (?,?,?,?,NULL,NULL,NULL,NULL,NULL,NULL,0,'{}')"
)
_PLAIN_OUTPUT_TAIL = (None, None, None, None, None, None, 0, "{}")


def _output_rows(order: Sequence[tuple[str, int]], by_id: Mapping[str, Output], missing: list[str]) -> list[tuple]:
    """The stored rows of a run's outputs in corpus order (``order``: entry id and position);
    the ids without an output are appended to ``missing``. Same rows as :func:`_output_row`,
    an output holding only its text (most of a big run) built without the general case."""
    rows: list[tuple] = []
    add = rows.append
    get = by_id.get
    for eid, pos in order:
        o = get(eid)
        if o is None:
            missing.append(eid)
            add(_output_row(pos, eid, None))
            continue
        d = o.__dict__
        if (d["raw_predicted"] is None and d["latency_s"] is None and d["cost_usd"] is None and d["cached"] is None
                and d["usage"] is None and d["error"] is None and not o.__pydantic_extra__):
            add((eid, pos, d["predicted"] or "", *_PLAIN_OUTPUT_TAIL))
        else:
            add(_output_row(pos, eid, o))
    return rows


_NO_OUTPUT = object()


def _plain_output_rows(order: Sequence[tuple[str, int]], texts: Mapping[str, str | None],
                       missing: list[str]) -> list[tuple]:
    """:func:`_output_rows` of plain outputs given by their texts (``texts``: id -> text or None)."""
    rows: list[tuple] = []
    add = rows.append
    get = texts.get
    tail = _PLAIN_OUTPUT_TAIL
    for eid, pos in order:
        p = get(eid, _NO_OUTPUT)
        if p is _NO_OUTPUT:
            missing.append(eid)
            add(_output_row(pos, eid, None))
        else:
            add((eid, pos, p or "") + tail)
    return rows


def _plain_output(r: tuple) -> bool:
    return r[3:] == _PLAIN_OUTPUT_TAIL


def _insert_outputs(conn: Any, run_id: str, rows: list[tuple]) -> None:
    """Insert a run's rows (as :func:`_output_rows` makes them) in order; long stretches of rows
    whose columns other than the text are those of a plain output go through a statement binding
    4 values instead of 12."""
    for plain, start, end in plain_stretches(rows, _plain_output):
        if plain:
            conn.executemany(_PLAIN_OUTPUT_INSERT, ((run_id, r[0], r[1], r[2]) for r in rows[start:end]))
        else:
            conn.executemany(_OUTPUT_INSERT, ((run_id, *r) for r in rows[start:end]))


def _meta_dict(meta: RunMeta) -> dict[str, Any]:
    d = meta.model_dump(mode="json", exclude_none=True)
    if meta.system_prompt and not meta.system_prompt_sha256:
        d["system_prompt_sha256"] = hashlib.sha256(meta.system_prompt.encode("utf-8")).hexdigest()
    return d


def _unique_run_id(conn, base: str) -> str:
    def taken(rid: str) -> bool:
        return conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (rid,)).fetchone() is not None

    if not taken(base):
        return base
    n = 2
    while taken(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def import_run(ws: Workspace, run: Run, *, source_path: str | None = None,
               locations: Mapping[str, int] | None = None, identity: str | None = None,
               file_label: str | None = None) -> RunImport:
    """Add a run (see the module docstring for the rules); returns what happened.

    ``identity`` is the run id the file itself declares (if any): it is part of the content
    hash, so two reports with identical outputs but different declared run ids are two runs,
    while the same file imported twice (under any ``run_id``) is recognised.
    ``file_label`` names the file in defect messages as the user gave it (default: ``source_path``).
    """
    where = file_label or (str(source_path) if source_path else f"run {run.meta.run_id}")
    cid = run.corpus_id
    if not cid:
        raise InputError(Defect(where, None, "the run does not name its corpus"))
    corpus = ws.conn.execute("SELECT source_lang, target_lang FROM corpora WHERE corpus_id = ?", (cid,)).fetchone()
    if corpus is None:
        raise InputError(Defect(where, None, f"no corpus {cid!r} in the workspace: import the corpus first"))
    prepared = prepare_run(run, corpus_order(ws, cid), locations=locations, identity=identity, where=where)
    with ws.transaction() as conn:
        return write_run(conn, prepared, language_pair=f"{corpus[0]}-{corpus[1]}", source_path=source_path)


def corpus_order(ws: Workspace, corpus_id: str) -> list[tuple[str, int]]:
    """(entry id, position) of each entry of a corpus, in order."""
    cur = ws.conn.cursor()
    cur.row_factory = None  # plain tuples: a million Row objects cost a second
    return cur.execute("SELECT entry_id, position FROM entries WHERE corpus_id = ? ORDER BY position",
                       (corpus_id,)).fetchall()


@dataclass
class PreparedRun:
    """A checked run as the workspace stores it, before anything is written: its metadata, content
    hash, the ids it lacks, and its output rows (``rows``, as ``_output_rows`` makes them) or the
    staging file that holds them (``stage``, see :func:`stage_output_rows`)."""

    corpus_id: str
    meta: dict[str, Any]  # as stored in ``runs.meta`` (the run id replaced when written)
    run_meta: RunMeta
    sha256: str
    missing: list[str]
    count: int
    rows: list[tuple] | None = None
    stage: str | None = None


def prepare_run(run: Run, order: Sequence[tuple[str, int]], *, locations: Mapping[str, int] | None = None,
                identity: str | None = None, where: str) -> PreparedRun:
    """Check a run against its corpus (``order``: entry id and position of each entry) and make its
    rows and content hash; raises :class:`InputError` naming ``where``. Writes nothing."""
    cid = run.corpus_id
    locations = locations or {}
    outputs = run.outputs
    # plain outputs held as columns: their texts by id (the rows made from them, not from models)
    columns = outputs if isinstance(outputs, PlainColumns) and outputs.kind == "output" else None
    ids = columns.ids if columns is not None else [o.id for o in outputs]
    if columns is not None and len(ids) == len(order) and ids == [eid for eid, _ in order]:
        # an output for each entry, in corpus order (most big runs): the rows straight from the columns
        n = len(ids)
        texts = [t or "" for t in columns.columns["predicted"]]
        rows = list(zip(ids, [pos for _, pos in order], texts, *(repeat(v, n) for v in _PLAIN_OUTPUT_TAIL),
                        strict=True))
        return _prepared_run(run, rows, [], identity, where)
    positions = dict(order)
    by_id: Mapping[str, Any] = dict(zip(ids, columns.columns["predicted"] if columns is not None else outputs,
                                        strict=True))
    if len(by_id) != len(ids) or not positions.keys() >= by_id.keys():  # say which, in file order
        defects: list[Defect] = []
        seen: set[str] = set()
        for oid in ids:
            if oid not in positions:
                defects.append(Defect(where, locations.get(oid), f"unknown id {oid!r}: not in corpus {cid!r}"))
            elif oid in seen:
                defects.append(Defect(where, locations.get(oid), f"duplicate id {oid!r}"))
            else:
                seen.add(oid)
        raise InputError(defects)
    del positions
    missing: list[str] = []
    try:
        rows = (_plain_output_rows(order, by_id, missing) if columns is not None
                else _output_rows(order, by_id, missing))
    except ValueError as exc:  # NaN or infinity in a JSON field
        raise InputError(Defect(where, None, f"the run holds a value that is not JSON: {exc}")) from None
    return _prepared_run(run, rows, missing, identity, where)


def _prepared_run(run: Run, rows: list[tuple], missing: list[str], identity: str | None, where: str) -> PreparedRun:
    try:
        _encode(_meta_dict(run.meta))
    except ValueError as exc:  # NaN or infinity in a JSON field
        raise InputError(Defect(where, None, f"the run holds a value that is not JSON: {exc}")) from None
    meta = _meta_dict(run.meta)
    head = {k: v for k, v in meta.items() if k != "run_id"}
    if identity:
        head["declared_run_id"] = identity
    sha = run.content_sha256 or sha256_rows(head, rows)
    return PreparedRun(run.corpus_id, meta, run.meta, sha, missing, len(rows), rows)


def write_run(conn: Any, prepared: PreparedRun, *, language_pair: str, source_path: str | None) -> RunImport:
    """Write a prepared run inside the caller's transaction (``conn``), unless the same run is
    already there; a run id taken by another run gets a suffix. ``language_pair``: "src-tgt"."""
    cid, sha, missing, meta, rm = prepared.corpus_id, prepared.sha256, prepared.missing, prepared.meta, \
        prepared.run_meta
    dup = conn.execute("SELECT run_id FROM runs WHERE corpus_id = ? AND content_sha256 = ?", (cid, sha)).fetchone()
    if dup is not None:
        return RunImport(
            dup[0],
            False,
            missing,
            None,
            [f"the same run is already in the workspace as {dup[0]!r}; nothing imported"],
        )
    wanted = rm.run_id
    rid = _unique_run_id(conn, wanted)
    warnings = []
    if rid != wanted:
        warnings.append(f"run id {wanted!r} is already used by a different run; imported as {rid!r}")
    if missing:
        shown = ", ".join(repr(m) for m in missing[:10]) + (" ..." if len(missing) > 10 else "")
        warnings.append(f"{len(missing)} corpus entr{'y has' if len(missing) == 1 else 'ies have'} no output "
                        f"(scored as empty output): {shown}")
    meta = {**meta, "run_id": rid}
    conn.execute(
        "INSERT INTO runs (run_id, corpus_id, model_slug, model_id, condition, temperature, system_prompt_sha256,"
        " started_at, elapsed_seconds, pricing, meta, content_sha256, source_path, imported_at, status,"
        " dataset_id, language_pair) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (rid, cid, rm.model_slug, rm.model_id, rm.condition, rm.temperature,
         meta.get("system_prompt_sha256"), rm.started_at, rm.elapsed_seconds,
         _dumps_opt(meta.get("pricing")), _dumps(meta, "{}"), sha, str(source_path) if source_path else None,
         utcnow(), "imported", cid, language_pair),
    )
    if prepared.rows is not None:
        _insert_outputs(conn, rid, prepared.rows)
    elif prepared.stage is not None:
        _copy_stage(conn, prepared.stage, f"INSERT INTO main.outputs ({_STAGE_OUTPUT_TARGET})"
                    f" SELECT ?, {_STAGE_OUTPUT_NAMES} FROM {{schema}}.rows ORDER BY rowid", (rid,))
    return RunImport(rid, True, missing, wanted if rid != wanted else None, warnings)


# ----- staging: rows written by another process into a file of their own, copied by SQLite -----
# A helper process that reads the next file of an import writes its rows into a staging file
# (an SQLite database of one table, ``rows``, in order); the writing process copies them into
# the workspace with one INSERT ... SELECT, which SQLite runs without going back to Python for
# each row. The staging table has the columns of the stored rows (less the corpus or run id), the
# columns of a plain row as defaults, so plain rows are written with the few values they have.

_STAGE_ENTRY_COLUMNS = (
    ("entry_id", None), ("position", None), ("source", None), ("reference", None), ("variants", "'[]'"),
    ("terminology", "'{}'"), ("difficulty", None), ("domain", None), ("register", None), ("segment", None),
    ("provenance", None), ("phenomena", "'[]'"), ("expected_morphology", "'{}'"), ("metadata", "'{}'"))
_STAGE_OUTPUT_COLUMNS = (
    ("entry_id", None), ("position", None), ("predicted", None), ("raw_predicted", None), ("latency_s", None),
    ("cost_usd", None), ("cached", None), ("usage", None), ("error", None), ("missing", "0"), ("extra", "'{}'"))
_STAGE_ENTRY_NAMES = ", ".join(f'"{n}"' for n, _ in _STAGE_ENTRY_COLUMNS)
_STAGE_OUTPUT_NAMES = ", ".join(f'"{n}"' for n, _ in _STAGE_OUTPUT_COLUMNS)
_STAGE_ENTRY_TARGET = "corpus_id, " + _STAGE_ENTRY_NAMES.replace('"', "")
_STAGE_OUTPUT_TARGET = "run_id, " + _STAGE_OUTPUT_NAMES.replace('"', "")
_PLAIN_STAGE_ENTRY = ('INSERT INTO rows (entry_id, position, source, reference, difficulty, domain, "register",'
                      " segment) VALUES (?,?,?,?,?,?,?,?)")
_PLAIN_STAGE_OUTPUT = "INSERT INTO rows (entry_id, position, predicted) VALUES (?,?,?)"


def _stage_file(path: str, columns: tuple[tuple[str, str | None], ...]) -> Any:
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    cols = ", ".join(f'"{n}"' + (f" DEFAULT {d}" if d is not None else "") for n, d in columns)
    conn.execute(f"CREATE TABLE rows ({cols})")
    conn.execute("BEGIN")
    return conn


def stage_entry_rows(path: str, rows: Sequence[tuple]) -> None:
    """Write a corpus's rows (as ``entry_rows`` makes them, the corpus id left out) into a new
    staging file at ``path``."""
    conn = _stage_file(path, _STAGE_ENTRY_COLUMNS)
    try:
        for plain, start, end in plain_stretches(rows, _plain_entry):
            if plain:
                conn.executemany(_PLAIN_STAGE_ENTRY, ((r[1], r[2], r[3], r[4], r[7], r[8], r[9], r[10])
                                                      for r in rows[start:end]))
            else:
                conn.executemany(f"INSERT INTO rows VALUES ({','.join('?' * 14)})",
                                 (r[1:] for r in rows[start:end]))
        conn.execute("COMMIT")
    finally:
        conn.close()


def stage_output_rows(path: str, rows: Sequence[tuple]) -> None:
    """Write a run's rows (as ``_output_rows`` makes them) into a new staging file at ``path``."""
    conn = _stage_file(path, _STAGE_OUTPUT_COLUMNS)
    try:
        for plain, start, end in plain_stretches(rows, _plain_output):
            if plain:
                conn.executemany(_PLAIN_STAGE_OUTPUT, ((r[0], r[1], r[2]) for r in rows[start:end]))
            else:
                conn.executemany(f"INSERT INTO rows VALUES ({','.join('?' * 11)})", rows[start:end])
        conn.execute("COMMIT")
    finally:
        conn.close()


_staged = 0  # staging files attached so far (each under a name of its own)


def _copy_stage(conn: Any, path: str, sql: str, params: tuple) -> None:
    """Run ``sql`` (``{schema}`` naming the staging file's schema) on the staging file at ``path``,
    attached to ``conn`` for the rest of the transaction. When SQLite cannot attach one more file
    (at most 10 per connection), its rows are read here and inserted with the statement's values."""
    import sqlite3

    global _staged
    _staged += 1
    name = f"stage{_staged}"
    try:
        conn.execute("ATTACH DATABASE ? AS " + name, (path,))
    except sqlite3.OperationalError as exc:
        if "too many attached" not in str(exc):
            raise
        insert, select = sql.split(" SELECT ", 1)
        columns = select.split(" FROM ", 1)[0].split(", ", 1)[1]
        src = sqlite3.connect(path)
        try:
            cur = src.execute(f"SELECT {columns} FROM rows ORDER BY rowid")
            marks = ",".join("?" * (columns.count(",") + 2))
            while chunk := cur.fetchmany(65_536):
                conn.executemany(f"{insert} VALUES ({marks})", (params + r for r in chunk))
        finally:
            src.close()
        return
    conn.execute(sql.format(schema=name), params)


def detach_stages(conn: Any) -> None:
    """Detach the staging files attached to ``conn`` (after its transaction ended)."""
    for row in conn.execute("PRAGMA database_list").fetchall():
        if str(row[1]).startswith("stage"):
            conn.execute("DETACH DATABASE " + str(row[1]))


def add_run(ws: Workspace, run: Run, *, source_path: str | None = None,
            locations: Mapping[str, int] | None = None, identity: str | None = None) -> tuple[str, bool]:
    """Add a run; returns ``(run_id, created)``. ``created`` is False for a re-import."""
    res = import_run(ws, run, source_path=source_path, locations=locations, identity=identity)
    return res.run_id, res.created


def run_exists(ws: Workspace, run_id: str) -> bool:
    return ws.conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is not None


def _output_from_row(r: Sequence[Any]) -> Output:
    """Row: entry_id, predicted, raw_predicted, latency_s, cost_usd, cached, usage, error, missing, extra."""
    usage = _loads(r[6])
    extra = _loads(r[9], {}) or {}
    if r[8]:
        extra["missing"] = True
    usage_obj = None
    if usage:
        usage_obj = construct(Usage, {k: usage.get(k) for k in _USAGE_NAMES},
                               {k: v for k, v in usage.items() if k not in _USAGE_NAMES})
    return construct(Output, {
        "id": r[0], "predicted": r[1] or "", "raw_predicted": r[2], "latency_s": r[3], "cost_usd": r[4],
        "cached": None if r[5] is None else bool(r[5]), "usage": usage_obj, "error": r[7],
    }, extra)


_OUTPUT_COLS = (
    "o.entry_id, o.predicted, o.raw_predicted, o.latency_s, o.cost_usd, o.cached, o.usage, o.error, o.missing, o.extra"
)


def _run_row(ws: Workspace, run_id: str) -> dict[str, Any]:
    row = ws.conn.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no run {run_id!r} in the workspace")
    return dict(row)


def get_run_info(ws: Workspace, run_id: str) -> dict[str, Any]:
    """The runs row of ``run_id`` without the run card JSON (not even read) plus ``has_run_card``;
    ``meta``, ``pricing`` and ``scoring_config`` decoded."""
    cols = ", ".join(f'"{c}"' for c in _run_columns(ws))
    row = ws.conn.execute(f"SELECT {cols}, run_card IS NOT NULL AS has_run_card FROM runs WHERE run_id = ?",
                          (run_id,)).fetchone()
    if row is None:
        raise NotFoundError(f"no run {run_id!r} in the workspace")
    d = dict(row)
    d["has_run_card"] = bool(d["has_run_card"])
    d["meta"] = _loads(d.get("meta"), {})
    d["pricing"] = _loads(d.get("pricing"))
    d["scoring_config"] = _loads(d.get("scoring_config"))
    return d


def get_outputs(ws: Workspace, run_id: str) -> list[Output]:
    """Outputs of a run in corpus order, missing ones included (flagged ``missing=True``)."""
    return list(iter_outputs(ws, run_id))


def iter_outputs(ws: Workspace, run_id: str) -> Iterator[Output]:
    """:func:`get_outputs` one at a time as they are read."""
    cur = ws.conn.execute(f"SELECT {_OUTPUT_COLS} FROM outputs o WHERE o.run_id = ? ORDER BY o.position", (run_id,))
    return (_output_from_row(r) for r in cur)


def get_output(ws: Workspace, run_id: str, entry_id: str) -> Output:
    r = ws.conn.execute(f"SELECT {_OUTPUT_COLS} FROM outputs o WHERE o.run_id = ? AND o.entry_id = ?",
                        (run_id, entry_id)).fetchone()
    if r is None:
        raise NotFoundError(f"no output for entry {entry_id!r} in run {run_id!r}")
    return _output_from_row(r)


OUTPUT_COLUMNS = ("entry_id", "position", "predicted", "raw_predicted", "latency_s", "cost_usd", "cached", "usage",
                  "error", "missing", "extra")


def output_columns(ws: Workspace, run_id: str,
                   fields: Sequence[str] = ("entry_id", "predicted", "error")) -> dict[str, list[Any]]:
    """Columns of a run's outputs in corpus order (missing outputs included), decoding only what is asked.

    ``cached`` and ``missing`` come back as booleans (``cached`` may be None); ``usage`` and
    ``extra`` as dicts (``usage`` may be None); ``id`` is accepted for ``entry_id``.
    """
    cols = ["entry_id" if f == "id" else f for f in fields]
    bad = [c for c in cols if c not in OUTPUT_COLUMNS]
    if bad:
        raise StoreError(f"unknown output column(s): {', '.join(bad)} (known: {', '.join(OUTPUT_COLUMNS)})")
    if not cols:
        return {}
    sql = "SELECT " + ", ".join(f'"{c}"' for c in cols) + " FROM outputs WHERE run_id = ? ORDER BY position"
    rows = ws.conn.execute(sql, (run_id,)).fetchall()
    out: dict[str, list[Any]] = {}
    for j, (name, col) in enumerate(zip(fields, cols, strict=True)):
        values = [r[j] for r in rows]
        if col == "cached":
            values = [None if v is None else bool(v) for v in values]
        elif col == "missing":
            values = [bool(v) for v in values]
        elif col == "usage":
            values = [_loads(v) for v in values]
        elif col == "extra":
            values = [_loads(v, {}) for v in values]
        out[name] = values
    return out


def get_run(ws: Workspace, run_id: str, *, with_outputs: bool = True) -> Run:
    """A run with its outputs in corpus order (missing outputs included; none without ``with_outputs``)."""
    d = _run_row(ws, run_id)
    meta = RunMeta.model_validate(_loads(d["meta"], {}) | {"run_id": run_id})
    run = Run(meta=meta, corpus_id=d["corpus_id"], content_sha256=d["content_sha256"])
    if with_outputs:
        run.outputs = get_outputs(ws, run_id)
    return run


def entry_outputs(ws: Workspace, run_id: str) -> list[tuple[Entry, Output]]:
    """(entry, output) pairs of a run in corpus order."""
    d = _run_row(ws, run_id)
    ecols = ", ".join("e." + c.strip() for c in _ENTRY_COLS.split(","))
    cur = ws.conn.execute(
        f"SELECT {ecols}, {_OUTPUT_COLS} FROM outputs o JOIN entries e"
        " ON e.corpus_id = ? AND e.entry_id = o.entry_id WHERE o.run_id = ? ORDER BY o.position",
        (d["corpus_id"], run_id),
    )
    return [(_entry_from_row(r[:13]), _output_from_row(r[13:])) for r in cur]


def _run_columns(ws: Workspace) -> list[str]:
    return [r[1] for r in ws.conn.execute("PRAGMA table_info(runs)") if r[1] != "run_card"]


_IN_LIST = 500  # values bound in one ``IN (...)``


def _plain_rows(ws: Workspace, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of a query as plain tuples (no row objects: a million rows are read twice as fast)."""
    cur = ws.conn.cursor()
    cur.row_factory = None
    try:
        return cur.execute(sql, tuple(params)).fetchall()
    finally:
        cur.close()


def corpus_span(ws: Workspace, corpus_id: str) -> tuple[int, int, int]:
    """(number of entries, first position, last position) of a corpus (0, 0, -1 when empty)."""
    n, first, last = _plain_rows(ws, "SELECT count(*), min(position), max(position) FROM entries"
                                      " WHERE corpus_id = ?", (corpus_id,))[0]
    return (int(n), int(first), int(last)) if n else (0, 0, -1)


def entry_positions(ws: Workspace, corpus_id: str) -> list[int]:
    """The positions of a corpus' entries, in order (from the position index alone)."""
    return [r[0] for r in _plain_rows(ws, "SELECT position FROM entries WHERE corpus_id = ? ORDER BY position",
                                      (corpus_id,))]


def entry_texts_at(ws: Workspace, corpus_id: str, positions: Sequence[int]) -> dict[int, tuple[str, str, str | None]]:
    """``{position: (entry_id, source, reference)}`` of the entries at ``positions``."""
    out: dict[int, tuple[str, str, str | None]] = {}
    positions = list(positions)
    for i in range(0, len(positions), _IN_LIST):
        part = positions[i:i + _IN_LIST]
        for pos, eid, source, reference in _plain_rows(
                ws, "SELECT position, entry_id, source, reference FROM entries WHERE corpus_id = ?"
                f" AND position IN ({','.join('?' * len(part))})", (corpus_id, *part)):
            out[pos] = (eid, source, reference)
    return out


def output_texts_of(ws: Workspace, run_id: str, entry_ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """``{entry_id: (predicted, error)}`` of the run's outputs of ``entry_ids`` (those it has)."""
    out: dict[str, tuple[str, str | None]] = {}
    ids = list(entry_ids)
    for i in range(0, len(ids), _IN_LIST):
        part = ids[i:i + _IN_LIST]
        for eid, predicted, error in _plain_rows(
                ws, f"SELECT entry_id, predicted, error FROM outputs WHERE run_id = ? AND entry_id IN"
                f" ({','.join('?' * len(part))})", (run_id, *part)):
            out[eid] = (predicted, error)
    return out


def entry_column(ws: Workspace, corpus_id: str, field: str) -> list[Any]:
    """One column (``entry_id``, ``source``, ``reference`` or ``difficulty``) of a corpus' entries in
    corpus order, as stored."""
    if field not in ("entry_id", "source", "reference", "difficulty"):
        raise StoreError(f"not a plain entry column: {field}")
    return [r[0] for r in _plain_rows(ws, f'SELECT "{field}" FROM entries WHERE corpus_id = ? ORDER BY position',
                                      (corpus_id,))]


def output_column_by_id(ws: Workspace, run_id: str, field: str) -> list[tuple[str, Any]]:
    """``(entry_id, predicted or error)`` of a run's outputs in the order of the entry ids (the
    order of the key: no sort)."""
    if field not in ("predicted", "error"):
        raise StoreError(f"not an output text column: {field}")
    return _plain_rows(ws, f'SELECT entry_id, "{field}" FROM outputs WHERE run_id = ? ORDER BY entry_id', (run_id,))


def entry_ids_and_difficulty(ws: Workspace, corpus_id: str) -> tuple[list[str], list[Any]]:
    """The entry ids and difficulties of a corpus in corpus order."""
    rows = _plain_rows(ws, "SELECT entry_id, difficulty FROM entries WHERE corpus_id = ? ORDER BY position",
                       (corpus_id,))
    return [r[0] for r in rows], [r[1] for r in rows]


def run_corpora(ws: Workspace, run_ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """``{run_id: (corpus_id, model_slug)}`` of the runs of ``run_ids`` that exist (no output counted)."""
    ids = list(dict.fromkeys(run_ids))
    out: dict[str, tuple[str, str | None]] = {}
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for row in ws.conn.execute(f"SELECT run_id, corpus_id, model_slug FROM runs WHERE run_id IN"
                                   f" ({','.join('?' * len(part))})", part):
            out[row[0]] = (row[1], row[2])
    return out


def list_runs(ws: Workspace, corpus_id: str | None = None) -> list[dict[str, Any]]:
    """Rows of the runs table (without the run card JSON) plus output counts, in import order.

    Extra keys: ``n_outputs``, ``n_missing``, ``n_errors``, ``n_empty`` (missing, error or
    blank output), ``has_run_card``; ``meta``, ``pricing`` and ``scoring_config`` are decoded.
    """
    cols = ", ".join(f'r."{c}"' for c in _run_columns(ws))
    sql = (
        f"SELECT {cols}, r.run_card IS NOT NULL AS has_run_card, o.n_outputs, o.n_missing, o.n_errors, o.n_empty"
        " FROM runs r LEFT JOIN (SELECT run_id, COUNT(*) AS n_outputs, SUM(missing) AS n_missing,"
        " SUM(error IS NOT NULL) AS n_errors,"
        " SUM(missing = 1 OR error IS NOT NULL OR TRIM(predicted) = '') AS n_empty"
        " FROM outputs GROUP BY run_id) o ON o.run_id = r.run_id"
    )
    params: tuple = ()
    if corpus_id is not None:
        sql += " WHERE r.corpus_id = ?"
        params = (corpus_id,)
    sql += " ORDER BY r.imported_at, r.rowid"
    out = []
    for row in ws.conn.execute(sql, params):
        d = dict(row)
        d["meta"] = _loads(d.get("meta"), {})
        d["pricing"] = _loads(d.get("pricing"))
        d["scoring_config"] = _loads(d.get("scoring_config"))
        d["has_run_card"] = bool(d["has_run_card"])
        for k in ("n_outputs", "n_missing", "n_errors", "n_empty"):
            d[k] = int(d[k] or 0)
        out.append(d)
    return out


def delete_run(ws: Workspace, run_id: str) -> bool:
    """Delete a run with its outputs, scores and judgments. Returns False if it did not exist."""
    with ws.transaction() as conn:
        cur = conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
    return cur.rowcount > 0


# ----------------------------------------------------------------------------- glossaries

def _slug(text: str) -> str:
    s = re.sub(r"[^\w.\-]+", "-", text.strip()).strip("-.")
    return s or "glossary"


def add_glossary(ws: Workspace, name: str, terms: Mapping[str, Iterable[str]], source_path: str | None = None) -> str:
    """Store a glossary; returns its id (a slug of the name, suffixed if taken by other terms).

    The same name with the same terms returns the existing id without writing.
    """
    clean = {str(k): [str(t) for t in v] for k, v in terms.items()}
    if not clean:
        raise InputError(Defect(str(source_path or name), None, "the glossary has no terms"))
    blob = json.dumps(clean, ensure_ascii=False, sort_keys=True)
    base = _slug(name)
    with ws.transaction() as conn:
        gid, n = base, 1
        while True:
            r = conn.execute("SELECT terms FROM glossaries WHERE glossary_id = ?", (gid,)).fetchone()
            if r is None:
                break
            if r[0] == blob:
                return gid
            n += 1
            gid = f"{base}-{n}"
        conn.execute("INSERT INTO glossaries (glossary_id, name, terms, source_path, imported_at) VALUES (?,?,?,?,?)",
                     (gid, name, blob, str(source_path) if source_path else None, utcnow()))
    return gid


def get_glossary(ws: Workspace, glossary_id: str) -> dict[str, Any]:
    """The glossary row: ``glossary_id``, ``name``, ``terms`` ({term: [targets]}), ``source_path``, ``imported_at``."""
    r = ws.conn.execute("SELECT * FROM glossaries WHERE glossary_id = ?", (glossary_id,)).fetchone()
    if r is None:
        raise NotFoundError(f"no glossary {glossary_id!r} in the workspace")
    d = dict(r)
    d["terms"] = json.loads(d["terms"])
    return d


def list_glossaries(ws: Workspace) -> list[dict[str, Any]]:
    """Glossary rows with ``term_count`` (terms not included)."""
    out = []
    for r in ws.conn.execute(
        "SELECT glossary_id, name, terms, source_path, imported_at FROM glossaries ORDER BY rowid"
    ):
        d = dict(r)
        d["term_count"] = len(json.loads(d.pop("terms")))
        out.append(d)
    return out


# ----------------------------------------------------------------------------- settings

def get_setting(ws: Workspace, key: str, default: Any = None) -> Any:
    """The stored value of ``key`` (``default`` when it is not stored or its row is not valid JSON)."""
    r = ws.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    if r is None:
        return default
    try:
        return json.loads(r[0])
    except (TypeError, ValueError):
        return default


def read_settings(ws: Workspace) -> tuple[dict[str, Any], dict[str, str]]:
    """Every stored setting, ``{key: value}`` sorted by key, and ``{key: what is wrong}`` for the rows
    whose value is not JSON (edited by hand, or by another program)."""
    values: dict[str, Any] = {}
    damaged: dict[str, str] = {}
    for key, raw in ws.conn.execute("SELECT key, value FROM settings ORDER BY key"):
        try:
            if not isinstance(raw, str | bytes):
                raise TypeError(f"a {type(raw).__name__} ({raw!r}), not JSON text")
            values[key] = json.loads(raw)
        except (TypeError, ValueError) as exc:
            damaged[key] = f"not valid JSON ({exc})" if isinstance(exc, ValueError) else f"stored as {exc}"
    return values, damaged


def all_settings(ws: Workspace) -> dict[str, Any]:
    """Every stored setting whose value is valid JSON, ``{key: value}`` sorted by key (see :func:`read_settings`)."""
    return read_settings(ws)[0]


def set_setting(ws: Workspace, key: str, value: Any) -> None:
    """Store a JSON-serialisable value (``None`` deletes the key)."""
    with ws.transaction() as conn:
        if value is None:
            conn.execute("DELETE FROM settings WHERE key = ?", (key,))
        else:
            conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value, ensure_ascii=False)),
            )


def counts(ws: Workspace) -> dict[str, int]:
    """Row counts of the main tables (used to check that a failed import changed nothing)."""
    return {t: ws.conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("corpora", "entries", "runs", "outputs", "glossaries", "settings")}
