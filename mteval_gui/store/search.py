"""Full-text search over sources, references and outputs (the entries filter).

Two FTS5 tables, made by sqlite-utils (schema v5) with the ``trigram`` tokenizer, index
``entries(source, reference)`` and ``outputs(predicted)`` (external content: the text is
not stored twice). A corpus or run is indexed in bulk the first time it is searched
(``fts_indexed`` lists what is), and leaves the index in the transaction that replaces or
deletes it, so the index never disagrees with the tables. Imports, a measured hot path,
pay nothing: per-row triggers made a 20,000-entry import 7 times slower, and even one
``INSERT ... SELECT`` per import added a third. A trigram index answers *substring* queries,
case-insensitively, which is what the entries filter has always meant by "text": the
entries whose source, reference, or output in one of the given runs contains the text.

A query shorter than three characters has no trigram: it is answered by a scan of the same
columns with Python's ``casefold`` (as is everything where SQLite lacks the trigram
tokenizer). Texts are NFC in the workspace; the query is normalised to NFC too.

Use (``frame`` rows are in corpus order, so positions are row indices)::

    rows = search_positions(ws, corpus_id, "nipâw", run_ids=["oracle", "mixed"])
    mask = np.zeros(len(frame), bool); mask[rows] = True
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Sequence
from typing import Any

from mteval_gui.store._sqlite import sqlite_utils
from mteval_gui.store.db import Workspace

FIELDS = ("source", "reference", "output")
ENTRY_COLUMNS = ("source", "reference")
OUTPUT_COLUMNS = ("predicted",)
TOKENIZE = "trigram"


class _StatementByStatement:
    """A connection whose ``executescript`` runs one statement at a time.

    ``sqlite3.Connection.executescript`` commits any open transaction first; migrations run
    sqlite-utils inside their own transaction, which must stay whole.
    """

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def executescript(self, script: str) -> sqlite3.Cursor:
        cursor = self._conn.cursor()
        statement = ""
        for line in script.splitlines(keepends=True):
            statement += line
            if sqlite3.complete_statement(statement):
                cursor.execute(statement)
                statement = ""
        if statement.strip():
            cursor.execute(statement)
        return cursor


def database_in_transaction(conn: sqlite3.Connection) -> sqlite_utils.Database:
    """A sqlite-utils view of ``conn`` that never commits behind the caller's back."""
    return sqlite_utils.Database(_StatementByStatement(conn))  # type: ignore[arg-type]


def has_trigram(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.trigram_probe USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp.trigram_probe")
    return True


def enable_search(conn: sqlite3.Connection) -> None:
    """Create (and fill) the FTS5 indexes and their triggers; a migration step (inside its transaction)."""
    if not has_trigram(conn):
        return  # SQLite older than 3.34: searches scan
    db = database_in_transaction(conn)
    db.table("entries").enable_fts(list(ENTRY_COLUMNS), fts_version="FTS5", tokenize=TOKENIZE)
    db.table("outputs").enable_fts(list(OUTPUT_COLUMNS), fts_version="FTS5", tokenize=TOKENIZE)
    # enable_fts fills the indexes with every row: what is there now is indexed
    db.table("fts_indexed").create({"kind": str, "id": str}, pk=("kind", "id"))
    conn.execute("INSERT INTO fts_indexed (kind, id) SELECT 'corpus', corpus_id FROM corpora")
    conn.execute("INSERT INTO fts_indexed (kind, id) SELECT 'run', run_id FROM runs")


def _enabled(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'entries_fts'").fetchone() is not None


def search_enabled(ws: Workspace) -> bool:
    return _enabled(ws.conn)


# inside the caller's transaction

def _indexed(conn: sqlite3.Connection, kind: str, key: str) -> bool:
    return conn.execute("SELECT 1 FROM fts_indexed WHERE kind = ? AND id = ?", (kind, key)).fetchone() is not None


def _exists(conn: sqlite3.Connection, table: str, column: str, key: str) -> bool:
    return conn.execute(f"SELECT 1 FROM {table} WHERE {column} = ?", (key,)).fetchone() is not None


def index_corpus(conn: sqlite3.Connection, corpus_id: str) -> None:
    if _enabled(conn) and _exists(conn, "corpora", "corpus_id", corpus_id) and not _indexed(conn, "corpus", corpus_id):
        conn.execute("INSERT INTO entries_fts (rowid, source, reference) SELECT rowid, source, reference"
                     " FROM entries WHERE corpus_id = ?", (corpus_id,))
        conn.execute("INSERT INTO fts_indexed (kind, id) VALUES ('corpus', ?)", (corpus_id,))


def index_run(conn: sqlite3.Connection, run_id: str) -> None:
    if _enabled(conn) and _exists(conn, "runs", "run_id", run_id) and not _indexed(conn, "run", run_id):
        conn.execute("INSERT INTO outputs_fts (rowid, predicted) SELECT rowid, predicted FROM outputs WHERE run_id = ?",
                     (run_id,))
        conn.execute("INSERT INTO fts_indexed (kind, id) VALUES ('run', ?)", (run_id,))


def unindex_run(conn: sqlite3.Connection, run_id: str) -> None:
    """Before a run's outputs are deleted: take them out of the index (if they are in it)."""
    if _enabled(conn) and _indexed(conn, "run", run_id):
        conn.execute("INSERT INTO outputs_fts (outputs_fts, rowid, predicted) SELECT 'delete', rowid, predicted"
                     " FROM outputs WHERE run_id = ?", (run_id,))
        conn.execute("DELETE FROM fts_indexed WHERE kind = 'run' AND id = ?", (run_id,))


def unindex_corpus(conn: sqlite3.Connection, corpus_id: str) -> None:
    """Before a corpus is deleted: take its entries, and the outputs of its runs, out of the index."""
    if not _enabled(conn):
        return
    for (run_id,) in conn.execute("SELECT run_id FROM runs WHERE corpus_id = ?", (corpus_id,)).fetchall():
        unindex_run(conn, run_id)
    if _indexed(conn, "corpus", corpus_id):
        conn.execute("INSERT INTO entries_fts (entries_fts, rowid, source, reference) SELECT 'delete', rowid, source,"
                     " reference FROM entries WHERE corpus_id = ?", (corpus_id,))
        conn.execute("DELETE FROM fts_indexed WHERE kind = 'corpus' AND id = ?", (corpus_id,))


def ensure_indexed(ws: Workspace, corpus_id: str, run_ids: Sequence[str] = ()) -> bool:
    """Index the corpus and runs not indexed yet (one transaction); False where the index cannot be used."""
    conn = ws.conn
    if ws.read_only or not _enabled(conn):
        return False
    wanted = [("corpus", corpus_id, "corpora", "corpus_id")] + [("run", r, "runs", "run_id") for r in run_ids]
    if all(_indexed(conn, kind, key) or not _exists(conn, table, col, key) for kind, key, table, col in wanted):
        return True
    with ws.transaction() as c:
        index_corpus(c, corpus_id)
        for r in run_ids:
            index_run(c, r)
    return True


def _phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def search_positions(ws: Workspace, corpus_id: str, text: str, *, run_ids: Sequence[str] = (),
                     fields: Sequence[str] = FIELDS) -> list[int]:
    """Positions (row indices in corpus order) of the entries of ``corpus_id`` matching ``text``.

    An entry matches when one of ``fields`` contains ``text``, ignoring case: ``source``,
    ``reference`` (of the entry), ``output`` (its output in any of ``run_ids``). A blank text
    matches every entry.
    """
    needle = unicodedata.normalize("NFC", text.strip())
    unknown = [f for f in fields if f not in FIELDS]
    if unknown:
        raise ValueError(f"unknown search field(s) {', '.join(unknown)} (known: {', '.join(FIELDS)})")
    conn = ws.conn
    if not needle:
        return [r[0] for r in conn.execute("SELECT position FROM entries WHERE corpus_id = ? ORDER BY position",
                                           (corpus_id,))]
    entry_cols = [c for c in ENTRY_COLUMNS if c in fields]
    runs = list(run_ids) if "output" in fields else []
    if len(needle) < 3 or not ensure_indexed(ws, corpus_id, runs):
        return _scan(conn, corpus_id, needle.casefold(), entry_cols, runs)
    parts: list[str] = []
    params: list[Any] = []
    # driven by the index (CROSS JOIN keeps it the outer loop: as an inner loop SQLite would run
    # the full-text query once per row): the cost follows the number of hits, not the corpus size
    if entry_cols:
        match = " OR ".join(f"{c} : {_phrase(needle)}" for c in entry_cols)
        parts.append("SELECT e.position FROM entries_fts f CROSS JOIN entries e ON e.rowid = f.rowid"
                     " WHERE entries_fts MATCH ? AND e.corpus_id = ?")
        params += [match, corpus_id]
    if runs:
        marks = ",".join("?" * len(runs))
        parts.append("SELECT e.position FROM outputs_fts f CROSS JOIN outputs o ON o.rowid = f.rowid"
                     " CROSS JOIN entries e ON e.corpus_id = ? AND e.entry_id = o.entry_id"
                     f" WHERE outputs_fts MATCH ? AND o.run_id IN ({marks})")
        params += [corpus_id, _phrase(needle), *runs]
    if not parts:
        return []
    sql = " UNION ".join(parts) + " ORDER BY 1"
    return [r[0] for r in conn.execute(sql, params)]


def search_entries(ws: Workspace, corpus_id: str, text: str, *, run_ids: Sequence[str] = (),
                   fields: Sequence[str] = FIELDS) -> list[str]:
    """Entry ids (in corpus order) of the entries matching ``text``; see :func:`search_positions`."""
    positions = search_positions(ws, corpus_id, text, run_ids=run_ids, fields=fields)
    if not positions:
        return []
    ids = {
        r[0]: r[1] for r in ws.conn.execute("SELECT position, entry_id FROM entries WHERE corpus_id = ?", (corpus_id,))
    }
    return [ids[p] for p in positions]


def _scan(conn: sqlite3.Connection, corpus_id: str, needle: str, entry_cols: list[str], runs: list[str]) -> list[int]:
    hits: set[int] = set()
    if entry_cols:
        cols = ", ".join(entry_cols)
        for row in conn.execute(f"SELECT position, {cols} FROM entries WHERE corpus_id = ?", (corpus_id,)):
            if any(v is not None and needle in v.casefold() for v in row[1:]):
                hits.add(row[0])
    for run_id in runs:
        for pos, predicted in conn.execute(
            "SELECT e.position, o.predicted FROM outputs o"
            " JOIN entries e ON e.corpus_id = ? AND e.entry_id = o.entry_id WHERE o.run_id = ?",
            (corpus_id, run_id),
        ):
            if predicted and needle in predicted.casefold():
                hits.add(pos)
    return sorted(hits)
