"""Per-entry values are looked up by entry through an index that a migration adds to older workspaces."""

from __future__ import annotations

import sqlite3

from mteval_gui.store import Workspace
from mteval_gui.store.results import entry_details, metric_ids_with_values
from mteval_gui.store.schema import SCHEMA_VERSION


def _plan(conn, sql: str, args: tuple) -> str:
    return " ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args))


def test_an_older_workspace_gains_the_index_and_keeps_its_values(tmp_path):
    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    c = sqlite3.connect(str(path), isolation_level=None)
    c.execute("PRAGMA foreign_keys=OFF")
    c.execute("DROP INDEX idx_entry_metrics_entry")  # as a workspace of schema 12 was
    c.executemany("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
                  [("r1", "e1", "core.chrf", 71.5, '{"value": 71.5}'), ("r1", "e2", "core.chrf", None, "{}"),
                   ("r1", "e1", "core.bleu", 12.0, '{"value": 12.0}'), ("r2", "e1", "x.fst", None, "{}")])
    c.execute("PRAGMA user_version=12")
    c.close()
    ws = Workspace(path)
    try:
        assert ws.schema_version() == SCHEMA_VERSION
        assert [r[0] for r in ws.conn.execute(
            "SELECT name FROM sqlite_master WHERE tbl_name = 'entry_metrics' AND type = 'index'"
            " AND name NOT LIKE 'sqlite_autoindex%'")] == ["idx_entry_metrics_entry"]
        sql = "SELECT metric_id, data FROM entry_metrics WHERE run_id = ? AND entry_id = ?"
        assert "idx_entry_metrics_entry" in _plan(ws.conn, sql, ("r1", "e1"))
        assert entry_details(ws, "r1", "e1") == {"core.bleu": {"value": 12.0}, "core.chrf": {"value": 71.5}}
        assert ws.conn.execute("SELECT COUNT(*) FROM entry_metrics").fetchone()[0] == 4
    finally:
        ws.close()


def test_metric_ids_with_values_per_run_and_with_like(tmp_path):
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        ws.conn.execute("PRAGMA foreign_keys=OFF")
        ws.conn.executemany(
            "INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
            [("r1", f"e{i}", "core.chrf", float(i), "{}") for i in range(50)]
            + [("r1", f"e{i}", "a.none", None, "{}") for i in range(50)]
            + [("r1", "e3", "z.last", 1.0, "{}"), ("r2", "e1", "core.bleu", 3.0, "{}"),
               ("r2", "e1", "core.chrf", None, "{}"), ("r3", "e1", "q.x", 1.0, "{}")])
        assert metric_ids_with_values(ws, ["r1"]) == ["core.chrf", "z.last"]
        assert metric_ids_with_values(ws, ["r1"], like="%") == ["a.none", "core.chrf", "z.last"]
        assert metric_ids_with_values(ws, ["r2", "r1"]) == ["core.bleu", "core.chrf", "z.last"]
        assert metric_ids_with_values(ws, ["r1", "r2"], like="core.%") == ["core.bleu", "core.chrf"]
        assert metric_ids_with_values(ws, ["nope"]) == []
        assert metric_ids_with_values(ws, []) == []
    finally:
        ws.close()
