"""Consent (OCAP): a reviewer's judgments withdrawn from the workspace, with an audit record.

Withdrawing deletes every version of every judgment the reviewer made, the review packs made
for them and their reviewer record (name, dialect, languages, consent scope), in one
transaction. Variants promoted from their judgments stay in the corpus (they are corpus data
now) but lose the link to the reviewer and the judgment, in the corpus versions and in the stored
run cards that list them (``dataset.speaker_variants``). What is kept is ``consent_log``:
which reviewer id, what was done, by whom and when — never what the judgments said — and, in
its ``detail``, the ids of the judgments and packs the withdrawal deleted (numbers only).

**A withdrawal is permanent.** Every import (judgment files in JSON or CSV, review-pack
answers, the GUI's import) skips a withdrawn reviewer's judgments and reviewer record, and says
so (:func:`Withdrawal.notice`). Adding the reviewer again is a separate, explicit act,
:func:`readmit_reviewer`, with a new consent text logged as ``readmit``; from then on their new
judgments import, but never those of before the withdrawal: a judgment of a readmitted reviewer
is still skipped when it was made at or before their latest withdrawal (``created_at``; a time
that cannot be read counts as before), when it carries the id of a judgment a withdrawal deleted
(files exported by this workspace keep those ids; a pack numbers its own log, so this rule does
not apply to pack answers), or when it comes from a pack a withdrawal deleted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace


def _now() -> str:
    """UTC time with milliseconds: a judgment made just before a withdrawal is dated before it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _instant(stamp: Any) -> datetime | None:
    """An ISO 8601 time as an aware datetime (UTC when it names no zone); None when unreadable."""
    if not isinstance(stamp, str) or not stamp.strip():
        return None
    try:
        t = datetime.fromisoformat(stamp.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@dataclass
class Withdrawal:
    """What the workspace remembers of a reviewer's withdrawals (no content)."""

    reviewer_id: str
    withdrawn_at: str  # the latest withdrawal
    readmitted: bool  # added again (with a new consent) after the latest withdrawal
    judgment_ids: set[int] = field(default_factory=set)
    pack_ids: set[str] = field(default_factory=set)
    benchmark_ids: set[int] = field(default_factory=set)  # ratings of benchmark responses

    @property
    def date(self) -> str:
        return self.withdrawn_at[:10]

    def covers(self, created_at: str | None, judgment_id: int | None = None, *, by_id: bool = True,
               new: bool = False) -> bool:
        """Whether a judgment (its time, its id in a file exported by this workspace) falls under the withdrawal.

        ``new``: a judgment without a time or id, recorded as made now.
        """
        if not self.readmitted:
            return True
        if by_id and judgment_id is not None and judgment_id in self.judgment_ids:
            return True
        if new and created_at is None:
            return False
        made, gone = _instant(created_at), _instant(self.withdrawn_at)
        return made is None or gone is None or made <= gone

    def covers_rating(self, created_at: str | None, judgment_id: int | None = None, *, by_id: bool = True) -> bool:
        """:meth:`covers` for a rating of a benchmark response (its id is one of ``benchmark_judgments``)."""
        if by_id and self.readmitted and judgment_id is not None and judgment_id in self.benchmark_ids:
            return True
        return self.covers(created_at, None, by_id=False, new=judgment_id is None)

    def notice(self, file: str, judgments: int, reviewer_record: bool = False) -> str:
        """The message an import gives for what it skipped."""
        what = f"{judgments} judgment{'s' if judgments != 1 else ''} of reviewer {self.reviewer_id!r}"
        if reviewer_record:
            what = (f"the record of reviewer {self.reviewer_id!r}" if not judgments
                    else what + " and their reviewer record")
        when = f"{self.reviewer_id} withdrew consent on {self.date}"
        if self.readmitted:
            when += " (judgments made before that stay withdrawn)"
        return f"{file}: {what} skipped: {when}"


def withdrawals(conn: Any) -> dict[str, Withdrawal]:
    """Every reviewer who ever withdrew, from ``consent_log`` (``conn``: a connection or a transaction's cursor)."""
    out: dict[str, Withdrawal] = {}
    rows = conn.execute("SELECT reviewer_id, action, done_at, detail FROM consent_log "
                        "WHERE action IN ('withdraw', 'readmit') ORDER BY event_id").fetchall()
    for rid, action, done_at, raw in rows:
        try:
            detail = json.loads(raw or "{}")
        except ValueError:
            detail = {}
        if not isinstance(detail, dict):
            detail = {}
        if action == "withdraw":
            w = out.setdefault(rid, Withdrawal(rid, done_at, False))
            w.withdrawn_at, w.readmitted = done_at, False
            w.judgment_ids.update(i for i in detail.get("judgment_ids") or [] if isinstance(i, int))
            w.pack_ids.update(p for p in detail.get("pack_ids") or [] if isinstance(p, str))
            w.benchmark_ids.update(i for i in detail.get("benchmark_judgment_ids") or [] if isinstance(i, int))
        elif rid in out:
            out[rid].readmitted = True
    return out


def withdrawal(conn: Any, reviewer_id: str) -> Withdrawal | None:
    return withdrawals(conn).get(reviewer_id)


def _unlinked(changes: list[dict[str, Any]], reviewer_id: str) -> list[dict[str, Any]] | None:
    """``changes`` with the reviewer's link removed (their dialect too, which came from their
    reviewer record); None when none of them names the reviewer."""
    if not any(isinstance(ch, dict) and ch.get("reviewer_id") == reviewer_id for ch in changes):
        return None
    return [{**ch, "reviewer_id": None, "judgment_id": None, **({"dialect": None} if "dialect" in ch else {}),
             "withdrawn": True}
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
        judgment_ids = [r[0] for r in c.execute("SELECT judgment_id FROM judgments WHERE reviewer_id = ? "
                                                "ORDER BY judgment_id", (reviewer_id,))]
        pack_ids = [r[0] for r in c.execute("SELECT pack_id FROM review_packs WHERE reviewer_id = ? ORDER BY pack_id",
                                            (reviewer_id,))]
        c.execute("UPDATE judgments SET superseded_by = NULL WHERE reviewer_id = ?", (reviewer_id,))
        c.execute("DELETE FROM judgments WHERE reviewer_id = ?", (reviewer_id,))
        bench_ids = [r[0] for r in c.execute("SELECT judgment_id FROM benchmark_judgments WHERE reviewer_id = ? "
                                             "ORDER BY judgment_id", (reviewer_id,))]
        c.execute("UPDATE benchmark_judgments SET superseded_by = NULL WHERE reviewer_id = ?", (reviewer_id,))
        c.execute("DELETE FROM benchmark_judgments WHERE reviewer_id = ?", (reviewer_id,))
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
        record = {"reviewer_id": reviewer_id, "action": "withdraw", "done_by": done_by.strip(), "done_at": _now()}
        detail = {"judgment_ids": judgment_ids, "pack_ids": pack_ids,
                  **({"benchmark_judgment_ids": bench_ids} if bench_ids else {})}
        c.execute("INSERT INTO consent_log (reviewer_id, action, done_by, done_at, detail) VALUES (?,?,?,?,?)",
                  (record["reviewer_id"], record["action"], record["done_by"], record["done_at"],
                   json.dumps(detail, sort_keys=True)))
    return record


def readmit_reviewer(c: Any, reviewer_id: str, consent_scope: str | None, done_by: str | None) -> dict[str, Any]:
    """Inside a transaction: log that a reviewer who withdrew is added again with a new consent.

    The caller inserts the reviewer record in the same transaction.
    """
    w = withdrawal(c, reviewer_id)
    if w is None or w.readmitted:
        raise StoreError(f"reviewer {reviewer_id!r} has not withdrawn consent: add them without --readmit")
    if not (consent_scope or "").strip():
        raise StoreError(f"re-adding reviewer {reviewer_id!r} after their withdrawal on {w.date} needs their new "
                         "consent (what they consented to, --consent TEXT)")
    if not (done_by or "").strip():
        raise StoreError("say who re-adds the reviewer (the audit record names them)")
    assert consent_scope is not None and done_by is not None
    record = {"reviewer_id": reviewer_id, "action": "readmit", "done_by": done_by.strip(), "done_at": _now()}
    c.execute("INSERT INTO consent_log (reviewer_id, action, done_by, done_at, detail) VALUES (?,?,?,?,?)",
              (reviewer_id, "readmit", record["done_by"], record["done_at"],
               json.dumps({"consent_scope": consent_scope.strip()}, ensure_ascii=False)))
    return record


def consent_log(ws: Workspace) -> list[dict[str, Any]]:
    rows = ws.conn.execute("SELECT reviewer_id, action, done_by, done_at FROM consent_log ORDER BY event_id")
    return [dict(r) for r in rows]
