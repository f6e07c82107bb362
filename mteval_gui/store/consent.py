"""Consent (OCAP): a reviewer's judgments withdrawn from the workspace, with an audit record.

Withdrawing deletes every version of every judgment the reviewer made, the review packs made
for them and their reviewer record (name, dialect, languages, consent scope), in one
transaction. Variants promoted from their judgments stay in the corpus (they are corpus data
now) but lose the link to the reviewer and the judgment. What is kept is ``consent_log``:
which reviewer id, what was done, by whom and when — never what the judgments said.
"""

from __future__ import annotations

import json
from typing import Any

from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace, utcnow


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
            changes = json.loads(row["changes"] or "[]")
            if any(ch.get("reviewer_id") == reviewer_id for ch in changes):
                changes = [{**ch, "reviewer_id": None, "judgment_id": None, "withdrawn": True}
                           if ch.get("reviewer_id") == reviewer_id else ch for ch in changes]
                c.execute("UPDATE corpus_versions SET changes = ? WHERE corpus_id = ? AND version = ?",
                          (json.dumps(changes, ensure_ascii=False), row["corpus_id"], row["version"]))
        record = {"reviewer_id": reviewer_id, "action": "withdraw", "done_by": done_by.strip(), "done_at": utcnow()}
        c.execute("INSERT INTO consent_log (reviewer_id, action, done_by, done_at) VALUES (?,?,?,?)",
                  (record["reviewer_id"], record["action"], record["done_by"], record["done_at"]))
    return record


def consent_log(ws: Workspace) -> list[dict[str, Any]]:
    rows = ws.conn.execute("SELECT reviewer_id, action, done_by, done_at FROM consent_log ORDER BY event_id")
    return [dict(r) for r in rows]
