"""Review packs exported to speakers: what each pack asked, so its answers can be checked on import.

``answers_key`` is the pack's secret key (64 hex digits): the pack signs the answers it exports
with it (HMAC-SHA256), and only this workspace and the pack page hold it. Packs made before
schema 9 have none (their answers carry a plain sha256).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mteval_gui.store.db import Workspace


@dataclass(frozen=True)
class PackRecord:
    pack_id: str
    reviewer_id: str
    task: str
    content_sha256: str
    items: list[tuple[str, str, str | None]]
    meta: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    answers_key: str | None = None


def record_pack(ws: Workspace, pack: PackRecord) -> None:
    with ws.transaction() as c:
        c.execute(
            "INSERT INTO review_packs (pack_id, reviewer_id, task, content_sha256, items, meta, created_at, "
            "answers_key) VALUES (?,?,?,?,?,?,?,?)",
            (pack.pack_id, pack.reviewer_id, pack.task, pack.content_sha256,
             json.dumps([list(i) for i in pack.items], ensure_ascii=False),
             json.dumps(pack.meta, ensure_ascii=False, sort_keys=True), pack.created_at, pack.answers_key),
        )


def get_pack(ws: Workspace, pack_id: str) -> PackRecord | None:
    row = ws.conn.execute("SELECT * FROM review_packs WHERE pack_id = ?", (pack_id,)).fetchone()
    if row is None:
        return None
    items = [(str(i[0]), str(i[1]), None if i[2] is None else str(i[2])) for i in json.loads(row["items"])]
    return PackRecord(row["pack_id"], row["reviewer_id"], row["task"], row["content_sha256"], items,
                      json.loads(row["meta"] or "{}"), row["created_at"], row["answers_key"])


def list_packs(ws: Workspace, reviewer_id: str | None = None) -> list[PackRecord]:
    sql, params = "SELECT pack_id FROM review_packs", []
    if reviewer_id is not None:
        sql += " WHERE reviewer_id = ?"
        params.append(reviewer_id)
    ids = [r[0] for r in ws.conn.execute(sql + " ORDER BY created_at, pack_id", params)]
    return [p for p in (get_pack(ws, i) for i in ids) if p is not None]
