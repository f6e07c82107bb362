"""Consent (OCAP): a reviewer's judgments withdrawn from the workspace, with an audit record.

Withdrawing deletes every version of every judgment the reviewer made, the review packs made
for them and their reviewer record (name, dialect, languages, consent scope), in one
transaction. Variants promoted from their judgments stay in the corpus (they are corpus data
now) but lose the link to the reviewer and the judgment, in the corpus versions and in the stored
run cards that list them (``dataset.speaker_variants``). What is kept is ``consent_log``:
which reviewer id, what was done, by whom and when — never what the judgments said.
"""

from __future__ import annotations

import json
from typing import Any

from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace, utcnow


def _unlinked(changes: list[dict[str, Any]], reviewer_id: str) -> list[dict[str, Any]] | None:
    """``changes`` with the reviewer's link removed; None when none of them names the reviewer."""
    if not any(isinstance(ch, dict) and ch.get("reviewer_id") == reviewer_id for ch in changes):
        return None
    return [{**ch, "reviewer_id": None, "judgment_id": None, "withdrawn": True}
            if isinstance(ch, dict) and ch.get("reviewer_id") == reviewer_id else ch for ch in changes]


def judged_runs(ws: Workspace, reviewer_id: str) -> list[str]:
    """The runs the reviewer has judgments of (any version)."""
    rows = ws.conn.execute("SELECT DISTINCT run_id FROM judgments WHERE reviewer_id = ? ORDER BY run_id",
                           (reviewer_id,))
    return [r[0] for r in rows]


def withdraw_reviewer(ws: Workspace, reviewer_id: str, done_by: str) -> dict[str, Any]:
    """Delete the reviewer's judgments and details; returns the audit record written."""
    if not done_by.strip():
        raise StoreError("say who withdraws the judgments (the audit record names them)")
    with ws.transaction() as c:
        if c.execute("SELECT 1 FROM reviewers WHERE reviewer_id = ?", (reviewer_id,)).fetchone() is None:
            raise StoreError(f"unknown reviewer {reviewer_id!r}")
        c.execute("UPDATE judgments SET superseded_by = NULL WHERE reviewer_id = ?", (reviewer_id,))
        c.execute("DELETE FROM judgments WHERE reviewer_id = ?", (reviewer_id,))
        c.execute("DELETE FROM review_packs WHERE reviewer_id = ?", (reviewer_id,))
        c.execute("DELETE FROM reviewers WHERE reviewer_id = ?", (reviewer_id,))
        for row in c.execute("SELECT corpus_id, version, changes FROM corpus_versions").fetchall():
            changes = _unlinked(json.loads(row["changes"] or "[]"), reviewer_id)
            if changes is not None:
                c.execute("UPDATE corpus_versions SET changes = ? WHERE corpus_id = ? AND version = ?",
                          (json.dumps(changes, ensure_ascii=False), row["corpus_id"], row["version"]))
        cards = c.execute("SELECT run_id, json_extract(run_card, '$.dataset.speaker_variants') AS variants "
                          "FROM runs WHERE run_card IS NOT NULL").fetchall()
        for row in cards:
            variants = _unlinked(json.loads(row["variants"] or "[]"), reviewer_id)
            if variants is not None:
                c.execute("UPDATE runs SET run_card = json_set(run_card, '$.dataset.speaker_variants', json(?)) "
                          "WHERE run_id = ?", (json.dumps(variants, ensure_ascii=False), row["run_id"]))
        record = {"reviewer_id": reviewer_id, "action": "withdraw", "done_by": done_by.strip(), "done_at": utcnow()}
        c.execute("INSERT INTO consent_log (reviewer_id, action, done_by, done_at) VALUES (?,?,?,?)",
                  (record["reviewer_id"], record["action"], record["done_by"], record["done_at"]))
    return record


def consent_log(ws: Workspace) -> list[dict[str, Any]]:
    rows = ws.conn.execute("SELECT reviewer_id, action, done_by, done_at FROM consent_log ORDER BY event_id")
    return [dict(r) for r in rows]
