"""The FTS5 full-text indexes of schema v6 are dropped by a migration (the entries filter scans in memory)."""

from __future__ import annotations

import sqlite3

from mteval_gui.store import Workspace
from mteval_gui.store.schema import SCHEMA_VERSION


def test_a_workspace_with_the_full_text_indexes_loses_them_and_keeps_its_data(tmp_path):
    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    c = sqlite3.connect(str(path), isolation_level=None)
    c.execute("INSERT INTO settings VALUES ('kept', '1')")
    # what schema v6 made (sqlite-utils' enable_fts with the trigram tokenizer)
    c.execute("CREATE VIRTUAL TABLE entries_fts USING fts5(source, reference, content=[entries], tokenize='trigram')")
    c.execute("CREATE VIRTUAL TABLE outputs_fts USING fts5(predicted, content=[outputs], tokenize='trigram')")
    c.execute("CREATE TABLE fts_indexed (kind TEXT, id TEXT, PRIMARY KEY (kind, id))")
    c.execute("PRAGMA user_version=9")  # before the migration that drops them (v10)
    c.close()
    ws = Workspace(path)
    try:
        assert ws.schema_version() == SCHEMA_VERSION
        names = [r[0] for r in ws.conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%fts%' ORDER BY 1")]
        assert names == []
        assert ws.conn.execute("SELECT value FROM settings WHERE key = 'kept'").fetchone()[0] == "1"
    finally:
        ws.close()
