"""The per-entry results of run cards are stored apart from the rest of the card, in parts; a migration
moves those of cards stored whole in older workspaces."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mteval_gui.store import Workspace, schema
from mteval_gui.store.results import (
    clear_results,
    iter_run_card_results,
    load_run_card_dict,
    load_run_card_summary,
)
from mteval_gui.store.schema import SCHEMA_VERSION
from tests.app.scoring_helpers import make_workspace


def _card(n: int) -> dict:
    return {"card_version": "1", "run": {"run_id": "r", "note": "Ewe ŋdi"},
            "results": [{"entry_id": f"e{i}", "predicted": f"Nya {i} ŋdi 😀", "metrics": {"core.chrf": i / 7}}
                        for i in range(n)],
            "scores": {"composite": 0.25, "results": "-"}}


def _as_schema_13(path, cards: dict[str, str]) -> None:
    """Make the workspace at ``path`` one of schema 13: its cards stored whole, no table of parts."""
    c = sqlite3.connect(str(path), isolation_level=None)
    try:
        c.execute("PRAGMA foreign_keys=OFF")
        c.execute("DROP TABLE run_card_results")
        for run_id, text in cards.items():
            c.execute("UPDATE runs SET run_card = ?, status = 'scored' WHERE run_id = ?", (text, run_id))
        c.execute("PRAGMA user_version=13")
    finally:
        c.close()


@pytest.mark.parametrize("n", [0, 1, 700])
def test_an_older_workspace_s_cards_are_split_and_read_back_the_same(tmp_path, monkeypatch, n):
    monkeypatch.setattr(schema, "V14_PART_BYTES", 10_000)
    path = tmp_path / "ws.sqlite"
    make_workspace(path, 3)
    card = _card(n)
    _as_schema_13(path, {"r": json.dumps(card, ensure_ascii=True, separators=(",", ":"))})
    ws = Workspace(path)
    try:
        assert ws.schema_version() == SCHEMA_VERSION
        assert load_run_card_dict(ws, "r") == card
        assert load_run_card_summary(ws, "r") == {k: v for k, v in card.items() if k != "results"}
        head = ws.conn.execute("SELECT run_card FROM runs WHERE run_id = 'r'").fetchone()[0]
        assert json.loads(head)["results"] == [] and len(head) < 200
        parts = [r[0] for r in ws.conn.execute("SELECT items FROM run_card_results ORDER BY part")]
        assert len(parts) == (0 if n == 0 else 1 if n == 1 else 8)  # about 10,000 characters a part
        assert all(p.startswith('[{"entry_id":"e') and p.endswith("}]") for p in parts)
        assert list(iter_run_card_results(ws, "r") or ()) == card["results"]
    finally:
        ws.close()


def test_a_card_stored_whole_is_still_read_with_its_results(tmp_path):
    """A card written whole into ``runs.run_card`` (as by other tools or before the split) reads as it is."""
    path = tmp_path / "ws.sqlite"
    make_workspace(path, 3)
    card = _card(3)
    ws = Workspace(path)
    try:
        with ws.transaction() as c:
            c.execute("UPDATE runs SET run_card = ? WHERE run_id = 'r'", (json.dumps(card),))
        assert load_run_card_dict(ws, "r") == card
        assert list(iter_run_card_results(ws, "r") or ()) == card["results"]
        assert iter_run_card_results(ws, "r", stored_parts_only=True) is None
        assert iter_run_card_results(ws, "nope") is None
    finally:
        ws.close()


def test_the_parts_go_with_the_run_and_with_its_results(tmp_path):
    from mteval_gui.store import repo
    from mteval_gui.store.results import ResultsStore

    path = tmp_path / "ws.sqlite"
    make_workspace(path, 3)
    ws = Workspace(path)
    try:
        ResultsStore(ws).write_run("r", _card(5), [])
        assert ws.conn.execute("SELECT COUNT(*) FROM run_card_results").fetchone()[0] == 1
        ResultsStore(ws).write_run("r", _card(2), [])  # stored again: the earlier parts are replaced
        assert len(load_run_card_dict(ws, "r")["results"]) == 2
        clear_results(ws, "r")
        assert ws.conn.execute("SELECT COUNT(*) FROM run_card_results").fetchone()[0] == 0
        assert load_run_card_dict(ws, "r") is None
        ResultsStore(ws).write_run("r", _card(5), [])
        assert repo.delete_run(ws, "r")
        assert ws.conn.execute("SELECT COUNT(*) FROM run_card_results").fetchone()[0] == 0
    finally:
        ws.close()
