"""Reviewers and speaker judgments in the workspace (SPEC §9).

The ``judgments`` table is an append-only log. A judgment is identified across its versions
by (reviewer, run, entry, task, item), the item being the word for Task C and empty
otherwise. Recording a judgment whose identity already has a current version adds version
n+1 and points the previous one at it (``superseded_by``); nothing is overwritten. Undo marks
the newest current judgment ``undone`` and makes the version it replaced current again (or
removes the judgment from the current set when it was a first version); redo reverses the
most recent undo as long as nothing new was recorded since.

Current judgments are exactly the rows with ``undone = 0`` and ``superseded_by IS NULL``.

Every write is one ``BEGIN IMMEDIATE .. COMMIT`` finished before the function returns. The
workspace runs in WAL mode with ``synchronous=NORMAL``: a committed judgment survives the
process being killed at any later moment (only a power cut can lose the last commits).
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from mteval_gui.domain.corpus import Entry, document_of
from mteval_gui.domain.judgments import (
    QUALITY_TIERS,
    SIGNOFF_DECISIONS,
    BenchmarkJudgment,
    Judgment,
    Reviewer,
    judgment_item,
    judgment_problems,
    span_problems,
)
from mteval_gui.errors import Defect, InputError, StoreError
from mteval_gui.store import consent
from mteval_gui.store.benchmarks import merge_ratings
from mteval_gui.store.db import Workspace
from mteval_gui.store.schema import finite_json, repair_payload
from mteval_gui.text import nfc

TARGET_ITEMS = 200
TARGET_RATERS = 3

_COLUMNS = (
    "judgment_id, reviewer_id, run_id, entry_id, task, adequacy, fluency, note, flagged, "
    "payload, version, created_at, superseded_by, undone"
)
_CURRENT = "undone = 0 AND superseded_by IS NULL"
# json_valid guards the query against a payload SQLite cannot read (one bad row must not make
# every query of its reviewer, run and entry fail with "malformed JSON")
_ITEM_SQL = ("(CASE WHEN task = 'C' AND json_valid(payload) THEN COALESCE(json_extract(payload, '$.word'), '') "
             "WHEN task = 'check' AND json_valid(payload) THEN COALESCE(json_extract(payload, '$.check_id'), '') "
             "WHEN task = 'D' AND json_valid(payload) THEN COALESCE(json_extract(payload, '$.document'), '') "
             "ELSE '' END)")
MAX_PAYLOAD_DEPTH = 20


def now_iso() -> str:
    """UTC time stamp with milliseconds, the time of a judgment."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _blank_to_none(value: str | None) -> str | None:
    if value is None:
        return None
    value = nfc(value).replace("\r\n", "\n").replace("\r", "\n")
    return value if value.strip() else None


# --------------------------------------------------------------------------- reviewers


def _row_to_reviewer(row: sqlite3.Row) -> Reviewer:
    return Reviewer(
        reviewer_id=row["reviewer_id"],
        name=row["name"],
        dialect=row["dialect"],
        languages=json.loads(row["languages"] or "[]"),
        consent_scope=row["consent_scope"],
        created_at=row["created_at"],
    )


def normalise_reviewer(r: Reviewer) -> Reviewer:
    """The reviewer as stored: NFC text, blank optional fields as None, trimmed language codes."""
    return Reviewer(
        reviewer_id=nfc(r.reviewer_id).strip(),
        name=nfc(r.name).strip(),
        dialect=_blank_to_none(r.dialect),
        languages=[nfc(x).strip() for x in r.languages if x and x.strip()],
        consent_scope=_blank_to_none(r.consent_scope),
        created_at=r.created_at,
    )


def reviewer_problems(r: Reviewer) -> list[str]:
    problems = []
    if not r.reviewer_id.strip():
        problems.append("reviewer id is empty")
    if not r.name.strip():
        problems.append("reviewer name (or pseudonym) is empty")
    return problems


def add_reviewer(ws: Workspace, reviewer: Reviewer, *, readmit: bool = False, done_by: str | None = None) -> Reviewer:
    """Add a reviewer (name or pseudonym, dialect, languages, consent scope).

    A reviewer who withdrew consent is added again only with ``readmit`` (a new consent scope and
    who re-adds them, logged as ``readmit``; see :mod:`mteval_gui.store.consent`).
    """
    r = normalise_reviewer(reviewer)
    problems = reviewer_problems(r)
    if problems:
        raise StoreError("; ".join(problems))
    r = r.model_copy(update={"created_at": now_iso() if readmit else r.created_at or now_iso()})
    with ws.transaction() as c:
        if c.execute("SELECT 1 FROM reviewers WHERE reviewer_id = ?", (r.reviewer_id,)).fetchone():
            raise StoreError(f"reviewer {r.reviewer_id!r} already exists")
        gone = consent.withdrawal(c, r.reviewer_id)
        if readmit:
            consent.readmit_reviewer(c, r.reviewer_id, r.consent_scope, done_by)
        elif gone is not None and not gone.readmitted:
            raise StoreError(f"reviewer {r.reviewer_id!r} withdrew consent on {gone.date}: adding them again is "
                             "an explicit act with their new consent "
                             "(`mteval reviewers add ID --readmit --consent TEXT --by NAME`); "
                             "their judgments of before the withdrawal never return")
        _insert_reviewer(c, r)
    return r


def _insert_reviewer(c: sqlite3.Connection, r: Reviewer) -> None:
    c.execute(
        "INSERT INTO reviewers (reviewer_id, name, dialect, languages, consent_scope, created_at) VALUES (?,?,?,?,?,?)",
        (r.reviewer_id, r.name, r.dialect, json.dumps(r.languages, ensure_ascii=False), r.consent_scope, r.created_at),
    )


def get_reviewer(ws: Workspace, reviewer_id: str) -> Reviewer | None:
    row = ws.conn.execute("SELECT * FROM reviewers WHERE reviewer_id = ?", (reviewer_id,)).fetchone()
    return _row_to_reviewer(row) if row else None


def list_reviewers(ws: Workspace) -> list[Reviewer]:
    rows = ws.conn.execute("SELECT * FROM reviewers ORDER BY created_at, reviewer_id").fetchall()
    return [_row_to_reviewer(r) for r in rows]


def update_reviewer(ws: Workspace, reviewer: Reviewer) -> Reviewer:
    """Change a reviewer's name, dialect, languages or consent scope (the id and creation time stay)."""
    r = normalise_reviewer(reviewer)
    problems = reviewer_problems(r)
    if problems:
        raise StoreError("; ".join(problems))
    with ws.transaction() as c:
        cur = c.execute(
            "UPDATE reviewers SET name = ?, dialect = ?, languages = ?, consent_scope = ? WHERE reviewer_id = ?",
            (r.name, r.dialect, json.dumps(r.languages, ensure_ascii=False), r.consent_scope, r.reviewer_id),
        )
        if cur.rowcount == 0:
            raise StoreError(f"unknown reviewer {r.reviewer_id!r}")
    stored = get_reviewer(ws, r.reviewer_id)
    assert stored is not None
    return stored


# --------------------------------------------------------------------------- judgments


def _load_payload(raw: str | None) -> dict[str, Any]:
    """A stored payload; NaN or infinities written by older versions come back as None."""
    try:
        value = json.loads(raw or "{}", parse_constant=lambda _: None)
    except (ValueError, RecursionError):
        return {"unreadable_payload": raw}
    if not isinstance(value, dict):
        return {"unreadable_payload": raw}
    return finite_json(value)


def payload_problems(payload: Any) -> list[str]:
    """Why a payload cannot be stored as strict JSON (NaN, infinities, deep nesting, non-JSON values)."""
    stack: list[tuple[Any, int]] = [(payload, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return [f"payload holds {v!r}, which is not a JSON number"]
        if isinstance(v, bool) or v is None or isinstance(v, (str, int, float)):
            if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v < 2**63:
                return ["payload holds an integer beyond 64 bits"]
            continue
        if depth > MAX_PAYLOAD_DEPTH:
            return [f"payload is nested deeper than {MAX_PAYLOAD_DEPTH} levels"]
        if isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                return ["payload keys must be text"]
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend((x, depth + 1) for x in v)
        else:
            return [f"payload holds a {type(v).__name__}, which is not a JSON value"]
    return []


def _row_to_judgment(row: sqlite3.Row) -> Judgment:
    return Judgment(
        judgment_id=row["judgment_id"],
        reviewer_id=row["reviewer_id"],
        run_id=row["run_id"],
        entry_id=row["entry_id"],
        task=row["task"],
        adequacy=row["adequacy"],
        fluency=row["fluency"],
        note=row["note"],
        flagged=bool(row["flagged"]),
        payload=_load_payload(row["payload"]),
        version=row["version"],
        created_at=row["created_at"],
        superseded_by=row["superseded_by"],
        undone=bool(row["undone"]),
    )


def normalise_judgment(j: Judgment) -> Judgment:
    """The judgment as stored: NFC text, a blank note as None, the Task C word trimmed."""
    payload = dict(j.payload)
    if j.task == "C" and isinstance(payload.get("word"), str):
        payload["word"] = nfc(payload["word"]).strip()
    if isinstance(payload.get("correction"), str):
        correction = _blank_to_none(payload["correction"])
        if correction is None:
            del payload["correction"]
        else:
            payload["correction"] = correction.strip()
    spans = payload.get("spans")
    if isinstance(spans, list) and all(isinstance(s, dict) and (
        s.get("missing") is True or (type(s.get("start")) is int and type(s.get("end")) is int)) for s in spans
    ):  # in the order of the output, spans marking missing content (no place) last
        payload["spans"] = sorted(
            spans, key=lambda s: (1, 0, 0) if s.get("missing") is True else (0, s["start"], s["end"]))
    return j.model_copy(update={
        "note": _blank_to_none(j.note),
        "payload": payload,
        "entry_id": None if j.entry_id is None else str(j.entry_id),
    })


def _key_where(j: Judgment) -> tuple[str, tuple[Any, ...]]:
    return (
        f"reviewer_id = ? AND run_id = ? AND entry_id IS ? AND task = ? AND {_ITEM_SQL} = ?",
        (j.reviewer_id, j.run_id, j.entry_id, j.task, judgment_item(j)),
    )


def _reference_problems(c: sqlite3.Connection, j: Judgment, known_reviewers: Iterable[str] = ()) -> list[str]:
    problems = []
    if j.reviewer_id not in known_reviewers and not c.execute(
        "SELECT 1 FROM reviewers WHERE reviewer_id = ?", (j.reviewer_id,)
    ).fetchone():
        problems.append(f"unknown reviewer {j.reviewer_id!r}")
    run = c.execute("SELECT corpus_id FROM runs WHERE run_id = ?", (j.run_id,)).fetchone()
    if run is None:
        problems.append(f"unknown run {j.run_id!r}")
    elif j.entry_id is not None and not c.execute(
        "SELECT 1 FROM entries WHERE corpus_id = ? AND entry_id = ?", (run["corpus_id"], j.entry_id)
    ).fetchone():
        problems.append(f"unknown entry {j.entry_id!r} (not in corpus {run['corpus_id']!r} of run {j.run_id!r})")
    elif j.task == "D" and j.entry_id is not None:
        document = j.payload.get("document")
        row = c.execute("SELECT metadata, segment FROM entries WHERE corpus_id = ? AND entry_id = ?",
                        (run["corpus_id"], j.entry_id)).fetchone()
        entry = Entry.model_construct(id=j.entry_id, source="", metadata=_load_payload(row["metadata"]),
                                      segment=row["segment"])
        if document_of(entry) != document:
            problems.append(f"entry {j.entry_id!r} is not in document {document!r}")
    elif isinstance(j.payload.get("spans"), list) and j.payload["spans"]:
        out = c.execute(
            "SELECT predicted FROM outputs WHERE run_id = ? AND entry_id = ?", (j.run_id, j.entry_id)
        ).fetchone()
        problems += span_problems(j.payload["spans"], len(nfc(out["predicted"] if out else "")))
    return problems


def _insert_judgment(c: sqlite3.Connection, j: Judgment) -> int:
    cur = c.execute(
        "INSERT INTO judgments (reviewer_id, run_id, entry_id, task, adequacy, fluency, note, flagged, payload, "
        "version, created_at, superseded_by, undone) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            j.reviewer_id, j.run_id, j.entry_id, j.task, j.adequacy, j.fluency, j.note, int(j.flagged),
            json.dumps(j.payload, ensure_ascii=False, sort_keys=True, allow_nan=False), j.version, j.created_at,
            j.superseded_by, int(j.undone),
        ),
    )
    if cur.lastrowid is None:
        raise StoreError("the judgment was not inserted")
    return cur.lastrowid


def _repair_unreadable(c: sqlite3.Connection, where: str = "", params: tuple[Any, ...] = ()) -> None:
    """Inside a transaction: payloads SQLite cannot read as JSON (NaN or infinities written after the
    schema-4 repair, by another program) made strict the way that repair does. Otherwise such a Task C
    row would belong to no word for the queries and to its word once read, and a new judgment of that
    word would be a second version 1 beside it (an export that does not import back)."""
    sql = "SELECT judgment_id, payload FROM judgments WHERE NOT json_valid(payload)"
    if where:
        sql += f" AND {where}"
    for jid, raw in c.execute(sql, params).fetchall():
        c.execute("UPDATE judgments SET payload = ? WHERE judgment_id = ?", (repair_payload(raw), jid))


def _append_version(c: sqlite3.Connection, j: Judgment) -> Judgment:
    """Inside a transaction: add ``j`` as the newest version of its identity."""
    _repair_unreadable(c, "reviewer_id = ? AND run_id = ? AND entry_id IS ? AND task = ?",
                       (j.reviewer_id, j.run_id, j.entry_id, j.task))
    where, params = _key_where(j)
    last = c.execute(f"SELECT MAX(version) FROM judgments WHERE {where}", params).fetchone()[0]
    current = c.execute(f"SELECT judgment_id FROM judgments WHERE {where} AND {_CURRENT}", params).fetchall()
    new = j.model_copy(update={
        "judgment_id": None,
        "version": (last or 0) + 1,
        "created_at": j.created_at or now_iso(),
        "superseded_by": None,
        "undone": False,
    })
    new_id = _insert_judgment(c, new)
    for row in current:
        c.execute("UPDATE judgments SET superseded_by = ? WHERE judgment_id = ?", (new_id, row["judgment_id"]))
    return new.model_copy(update={"judgment_id": new_id})


def record_judgment(ws: Workspace, judgment: Judgment) -> Judgment:
    """Save a judgment now (committed before returning) and return it with id, version and time.

    The judgment's own ``judgment_id``, ``version``, ``superseded_by`` and ``undone`` are
    ignored: the store assigns them. ``created_at`` is kept when given (imports), else now.
    """
    j = normalise_judgment(judgment)
    problems = payload_problems(j.payload) or judgment_problems(j)
    if problems:
        raise StoreError("judgment not saved: " + "; ".join(problems))
    with ws.transaction() as c:
        problems = _reference_problems(c, j)
        if problems:
            raise StoreError("judgment not saved: " + "; ".join(problems))
        return _append_version(c, j)


def current_judgments(
    ws: Workspace, run_id: str | None = None, reviewer_id: str | None = None, task: str | None = None,
    entry_id: str | None = None,
) -> list[Judgment]:
    """The judgments in force (latest, not undone), oldest first."""
    sql = f"SELECT {_COLUMNS} FROM judgments WHERE {_CURRENT}"
    params: list[Any] = []
    for column, value in (("run_id", run_id), ("reviewer_id", reviewer_id), ("task", task), ("entry_id", entry_id)):
        if value is not None:
            sql += f" AND {column} = ?"
            params.append(value)
    rows = ws.conn.execute(sql + " ORDER BY judgment_id", params).fetchall()
    return [_row_to_judgment(r) for r in rows]


def rating_rows(ws: Workspace, run_ids: Sequence[str] | None = None) -> list[tuple[str, str, str, str, int | None,
                                                                            int | None, dict[str, Any]]]:
    """(reviewer, run, entry, task, adequacy, fluency, payload) of the current task A and check judgments with a
    rating (every run, or ``run_ids``), read without building judgment models (quality control reads them all)."""
    sql = (f"SELECT reviewer_id, run_id, entry_id, task, adequacy, fluency, payload FROM judgments WHERE {_CURRENT} "
           "AND task IN ('A', 'check') AND entry_id IS NOT NULL AND (adequacy IS NOT NULL OR fluency IS NOT NULL)")
    params: list[Any] = []
    if run_ids is not None:
        sql += f" AND run_id IN ({','.join('?' * len(run_ids))})"
        params += list(run_ids)
    return [(r[0], r[1], r[2], r[3], r[4], r[5], _load_payload(r[6]) if r[3] == "check" else {})
            for r in ws.conn.execute(sql + " ORDER BY judgment_id", params)]


def rating_signature(ws: Workspace) -> tuple[Any, ...]:
    """What changes whenever the current task A and check judgments change (the log is append-only: new
    versions add rows, undo and redo flip ``undone``, a withdrawal deletes rows)."""
    row = ws.conn.execute("SELECT COUNT(*), MAX(judgment_id), SUM(undone), COUNT(superseded_by) FROM judgments "
                          "WHERE task IN ('A', 'check')").fetchone()
    return tuple(row)


def judgment_history(
    ws: Workspace, reviewer_id: str, run_id: str, entry_id: str | None, task: str = "A", word: str | None = None
) -> list[Judgment]:
    """Every version of one judgment, oldest first, including undone ones."""
    probe = Judgment(reviewer_id=reviewer_id, run_id=run_id, entry_id=entry_id, task=task,  # type: ignore[arg-type]
                     payload={"word": nfc(word).strip()} if word is not None else {})
    where, params = _key_where(probe)
    rows = ws.conn.execute(f"SELECT {_COLUMNS} FROM judgments WHERE {where} ORDER BY version", params).fetchall()
    return [_row_to_judgment(r) for r in rows]


def judgment_versions(ws: Workspace, probe: Judgment) -> list[Judgment]:
    """Every version of the judgment ``probe`` identifies (reviewer, run, entry, task, item), oldest first."""
    where, params = _key_where(probe)
    rows = ws.conn.execute(f"SELECT {_COLUMNS} FROM judgments WHERE {where} ORDER BY version", params).fetchall()
    return [_row_to_judgment(r) for r in rows]


def get_judgment(ws: Workspace, judgment_id: int) -> Judgment | None:
    row = ws.conn.execute(f"SELECT {_COLUMNS} FROM judgments WHERE judgment_id = ?", (judgment_id,)).fetchone()
    return _row_to_judgment(row) if row else None


def _scope(reviewer_id: str, run_id: str | None) -> tuple[str, list[Any]]:
    where, params = "reviewer_id = ?", [reviewer_id]
    if run_id is not None:
        where += " AND run_id = ?"
        params.append(run_id)
    return where, params


def undo_last(ws: Workspace, reviewer_id: str, run_id: str | None = None) -> Judgment | None:
    """Undo the reviewer's most recent judgment (in one run, or anywhere). Returns it, marked undone.

    The version it replaced becomes current again; a first version simply leaves the current
    set. Returns None when there is nothing to undo.
    """
    where, params = _scope(reviewer_id, run_id)
    with ws.transaction() as c:
        row = c.execute(
            f"SELECT {_COLUMNS} FROM judgments WHERE {where} AND {_CURRENT} ORDER BY judgment_id DESC LIMIT 1", params
        ).fetchone()
        if row is None:
            return None
        jid = row["judgment_id"]
        c.execute("UPDATE judgments SET undone = 1 WHERE judgment_id = ?", (jid,))
        c.execute("UPDATE judgments SET superseded_by = NULL WHERE superseded_by = ?", (jid,))
    return _row_to_judgment(row).model_copy(update={"undone": True})


def redo_last(ws: Workspace, reviewer_id: str, run_id: str | None = None) -> Judgment | None:
    """Reapply the most recently undone judgment, if nothing was recorded in the scope since."""
    where, params = _scope(reviewer_id, run_id)
    with ws.transaction() as c:
        newest_kept = c.execute(
            f"SELECT MAX(judgment_id) FROM judgments WHERE {where} AND undone = 0", params
        ).fetchone()[0]
        row = c.execute(
            f"SELECT {_COLUMNS} FROM judgments WHERE {where} AND undone = 1 AND judgment_id > ? "
            "ORDER BY judgment_id LIMIT 1",
            [*params, newest_kept or 0],
        ).fetchone()
        if row is None:
            return None
        j = _row_to_judgment(row)
        key_where, key_params = _key_where(j)
        jid = row["judgment_id"]
        c.execute(
            f"UPDATE judgments SET superseded_by = ? WHERE {key_where} AND {_CURRENT} AND version < ?",
            (jid, *key_params, j.version),
        )
        c.execute("UPDATE judgments SET undone = 0 WHERE judgment_id = ?", (jid,))
    return j.model_copy(update={"undone": False})


# --------------------------------------------------------------------------- progress and queues


def _run_corpus(c: sqlite3.Connection, run_id: str) -> str:
    row = c.execute("SELECT corpus_id FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        raise StoreError(f"unknown run {run_id!r}")
    return row["corpus_id"]


def rated_counts(ws: Workspace, run_id: str | None = None) -> dict[tuple[str, str], int]:
    """(run, entry) -> number of distinct reviewers with a current Task A rating."""
    sql = (
        "SELECT run_id, entry_id, COUNT(DISTINCT reviewer_id) AS n FROM judgments "
        f"WHERE task = 'A' AND {_CURRENT} AND (adequacy IS NOT NULL OR fluency IS NOT NULL)"
    )
    params: list[Any] = []
    if run_id is not None:
        sql += " AND run_id = ?"
        params.append(run_id)
    rows = ws.conn.execute(sql + " GROUP BY run_id, entry_id", params).fetchall()
    return {(r["run_id"], r["entry_id"]): r["n"] for r in rows}


def review_progress(ws: Workspace, run_id: str | None = None) -> dict[str, Any]:
    """Progress of the Task A study toward its targets (200+ items rated by 3+ reviewers).

    ``items_rated``: entries with at least one rating; ``items_at_target``: entries rated by
    ``target_raters`` or more reviewers; ``raters``: distinct reviewers; ``by_rater_count``:
    {number of reviewers: number of entries}. With ``run_id`` None, items are (run, entry) pairs
    over the whole workspace.
    """
    c = ws.conn
    counts = rated_counts(ws, run_id)
    if run_id is not None:
        corpus_id = _run_corpus(c, run_id)
        total = c.execute("SELECT COUNT(*) FROM entries WHERE corpus_id = ?", (corpus_id,)).fetchone()[0]
    else:
        total = c.execute("SELECT COUNT(*) FROM runs JOIN entries USING (corpus_id)").fetchone()[0]
    sql = (
        f"SELECT COUNT(*) AS n, COUNT(DISTINCT reviewer_id) AS raters FROM judgments WHERE task = 'A' AND {_CURRENT} "
        "AND (adequacy IS NOT NULL OR fluency IS NOT NULL)"
    )
    params: list[Any] = []
    if run_id is not None:
        sql += " AND run_id = ?"
        params.append(run_id)
    row = c.execute(sql, params).fetchone()
    at_target = sum(1 for n in counts.values() if n >= TARGET_RATERS)
    return {
        "run_id": run_id,
        "total_entries": total,
        "items_rated": len(counts),
        "items_at_target": at_target,
        "raters": row["raters"],
        "judgments": row["n"],
        "by_rater_count": dict(sorted(Counter(counts.values()).items())),
        "target_items": TARGET_ITEMS,
        "target_raters": TARGET_RATERS,
        "target_met": at_target >= TARGET_ITEMS,
    }


def review_queue(
    ws: Workspace, run_ids: Sequence[str], reviewer_id: str | None = None, *,
    randomise: bool = False, seed: int = 0, unrated_only: bool = False,
) -> list[tuple[str, str]]:
    """The (run, entry) items to review, in corpus order or shuffled.

    The shuffled order is reproducible for a given reviewer and seed and mixes runs, so a blind
    reviewer cannot tell which system produced an output from its position. ``unrated_only``
    drops items this reviewer already rated (Task A).
    """
    c = ws.conn
    items: list[tuple[str, str]] = []
    for run_id in run_ids:
        corpus_id = _run_corpus(c, run_id)
        rows = c.execute("SELECT entry_id FROM entries WHERE corpus_id = ? ORDER BY position", (corpus_id,)).fetchall()
        items += [(run_id, r["entry_id"]) for r in rows]
    if unrated_only and reviewer_id is not None:
        done = {
            (r["run_id"], r["entry_id"])
            for r in c.execute(
                f"SELECT run_id, entry_id FROM judgments WHERE reviewer_id = ? AND task = 'A' AND {_CURRENT} "
                "AND (adequacy IS NOT NULL OR fluency IS NOT NULL)", (reviewer_id,),
            )
        }
        items = [it for it in items if it not in done]
    if randomise:
        random.Random(f"{reviewer_id or ''}\x1f{seed}").shuffle(items)
    return items


def next_unrated(ws: Workspace, run_id: str, reviewer_id: str, after_entry: str | None = None) -> str | None:
    """The next entry (corpus order, wrapping around after ``after_entry``) the reviewer has not rated."""
    queue = [e for _, e in review_queue(ws, [run_id], reviewer_id)]
    pending = {e for _, e in review_queue(ws, [run_id], reviewer_id, unrated_only=True)}
    if not pending:
        return None
    start = queue.index(after_entry) + 1 if after_entry in queue else 0
    for entry_id in queue[start:] + queue[:start]:
        if entry_id in pending:
            return entry_id
    return None


# --------------------------------------------------------------------------- sign-off


def signoff(
    ws: Workspace, run_id: str, reviewer_id: str, decision: str, tier: str | None = None, note: str | None = None
) -> Judgment:
    """Record a reviewer's decision on the run's tier claim (confirm or reject).

    ``tier`` defaults to the run's current quality tier; the decision applies to that tier only.
    """
    if decision not in SIGNOFF_DECISIONS:
        raise StoreError(f"sign-off decision {decision!r} is not one of {', '.join(SIGNOFF_DECISIONS)}")
    if tier is None:
        row = ws.conn.execute("SELECT quality_tier FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"unknown run {run_id!r}")
        tier = row["quality_tier"]
    payload: dict[str, Any] = {"decision": decision}
    if tier is not None:
        if tier not in QUALITY_TIERS:
            raise StoreError(f"tier {tier!r} is not one of {', '.join(QUALITY_TIERS)}")
        payload["tier"] = tier
    return record_judgment(
        ws, Judgment(reviewer_id=reviewer_id, run_id=run_id, task="signoff", payload=payload, note=note)
    )


def signoff_status(ws: Workspace, run_id: str) -> dict[str, Any]:
    """Current sign-off decisions for a run and whether they confirm its present tier.

    ``confirmed`` is None without a decision on the present tier, False if any reviewer rejects
    it, True if at least one confirms and none rejects. Decisions made on another tier (the run
    was re-scored since) are listed as ``stale``.
    """
    row = ws.conn.execute("SELECT quality_tier FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        raise StoreError(f"unknown run {run_id!r}")
    return signoff_decisions(row["quality_tier"], current_judgments(ws, run_id=run_id, task="signoff"))


def signoff_decisions(tier: str | None, judgments: Iterable[Judgment]) -> dict[str, Any]:
    """:func:`signoff_status` of a run of tier ``tier`` from its current judgments (other tasks are skipped)."""
    decisions: list[dict[str, Any]] = []
    stale: list[dict[str, Any]] = []
    for j in judgments:
        if j.task != "signoff":
            continue
        item = {"reviewer_id": j.reviewer_id, "decision": j.payload.get("decision"),
                "tier": j.payload.get("tier"), "created_at": j.created_at, "note": j.note}
        (decisions if item["tier"] == tier else stale).append(item)
    confirmed: bool | None = None
    if decisions:
        confirmed = all(d["decision"] == "confirm" for d in decisions)
    return {"tier": tier, "confirmed": confirmed, "decisions": decisions, "stale": stale}


# --------------------------------------------------------------------------- export / import


def export_log(ws: Workspace, run_ids: Sequence[str] | None = None) -> tuple[list[Reviewer], list[Judgment]]:
    """The complete judgment log (every version, undone ones too) and its reviewers.

    With ``run_ids`` None: every reviewer and every judgment of the workspace; otherwise the
    judgments of those runs and the reviewers who made them.
    """
    c = ws.conn
    if run_ids is None:
        rows = c.execute(f"SELECT {_COLUMNS} FROM judgments ORDER BY judgment_id").fetchall()
        return list_reviewers(ws), [_row_to_judgment(r) for r in rows]
    for run_id in run_ids:
        _run_corpus(c, run_id)
    marks = ",".join("?" * len(run_ids))
    rows = c.execute(
        f"SELECT {_COLUMNS} FROM judgments WHERE run_id IN ({marks}) ORDER BY judgment_id", list(run_ids)
    ).fetchall()
    judgments = [_row_to_judgment(r) for r in rows]
    used = {j.reviewer_id for j in judgments}
    return [r for r in list_reviewers(ws) if r.reviewer_id in used], judgments


def _identity(j: Judgment) -> tuple[Any, ...]:
    return (j.reviewer_id, j.run_id, j.entry_id, j.task, judgment_item(j))


def _content(j: Judgment) -> tuple[Any, ...]:
    return (j.adequacy, j.fluency, j.note, j.flagged, json.dumps(j.payload, sort_keys=True, ensure_ascii=False),
            j.version, j.created_at)


def import_log(
    ws: Workspace,
    reviewers: Sequence[tuple[int | None, Reviewer]],
    judgments: Sequence[tuple[int | None, Judgment]],
    *,
    file: str,
    defects: Sequence[Defect] = (),
    local_ids: bool = False,
    benchmark: Sequence[tuple[int | None, BenchmarkJudgment]] = (),
) -> dict[str, Any]:
    """Merge a judgment log read from ``file`` (items paired with their line numbers) into the workspace.

    Judgments carrying a ``judgment_id`` are log rows. Per identity, versions present on both
    sides must be identical. When the file brings new versions, the workspace's versions must
    all be in the file (otherwise the logs have diverged); the new versions are appended and the
    file's superseded/undone state is applied. A file with nothing new changes nothing, so
    re-importing the same file, or an older export, is harmless.
    Judgments without ``judgment_id`` are new judgments recorded in file order, as if made now.
    Every defect (including ``defects`` found while parsing) is reported as ``file:line:
    message`` in one :class:`InputError` and nothing is written.

    The judgments and reviewer records of a reviewer who withdrew consent are skipped (see
    :mod:`mteval_gui.store.consent`; ``local_ids``: the file numbers its own log, as a pack's
    answers do, so its ids say nothing of the workspace's) and ``notices`` says so, one message
    per reviewer naming the withdrawal (``notices`` and ``judgments_withdrawn`` are in the summary
    only when something was skipped).

    ``benchmark``: the file's ratings of benchmark responses, merged in the same transaction by
    the same rules (:func:`mteval_gui.store.benchmarks.merge_ratings`; ``benchmark_ratings_added``
    and ``benchmark_ratings_unchanged`` are in the summary when the file has some).
    """
    found: list[Defect] = list(defects)

    def defect(line: int | None, message: str) -> None:
        found.append(Defect(file, line, message))

    summary: dict[str, Any] = {"reviewers_added": 0, "reviewers_unchanged": 0, "judgments_added": 0,
                               "judgments_unchanged": 0}
    with ws.transaction() as c:
        _repair_unreadable(c)  # rolled back with the rest if the file is refused
        gone = consent.withdrawals(c)
        skipped: dict[str, list[int]] = {}  # reviewer -> [judgments, reviewer records] skipped
        # reviewers
        file_reviewers: dict[str, Reviewer] = {}
        for line, raw in reviewers:
            r = normalise_reviewer(raw)
            problems = reviewer_problems(r)
            for p in problems:
                defect(line, p)
            if problems:
                continue
            w = gone.get(r.reviewer_id)
            if w is not None and w.covers(r.created_at, by_id=False):
                skipped.setdefault(r.reviewer_id, [0, 0])[1] += 1
                continue
            if r.reviewer_id in file_reviewers:
                defect(line, f"reviewer {r.reviewer_id!r} appears twice in the file")
                continue
            file_reviewers[r.reviewer_id] = r
            row = c.execute("SELECT * FROM reviewers WHERE reviewer_id = ?", (r.reviewer_id,)).fetchone()
            if row is None:
                _insert_reviewer(c, r.model_copy(update={"created_at": r.created_at or now_iso()}))
                summary["reviewers_added"] += 1
                continue
            have = _row_to_reviewer(row)
            if (have.name, have.dialect, have.languages, have.consent_scope) != (
                r.name,
                r.dialect,
                r.languages,
                r.consent_scope,
            ):
                defect(line, f"reviewer {r.reviewer_id!r} exists in the workspace with different details "
                             f"(name {have.name!r}, dialect {have.dialect!r}); update the reviewer or the file")
            else:
                summary["reviewers_unchanged"] += 1

        # judgments: content and references
        log_rows: list[tuple[int | None, Judgment]] = []
        new_rows: list[tuple[int | None, Judgment]] = []
        known_reviewers = set(file_reviewers)
        for line, raw_j in judgments:
            j = normalise_judgment(raw_j)
            w = gone.get(j.reviewer_id)
            if w is not None and w.covers(j.created_at, j.judgment_id, by_id=not local_ids,
                                          new=j.judgment_id is None):
                skipped.setdefault(j.reviewer_id, [0, 0])[0] += 1
                continue
            problems = payload_problems(j.payload) or (
                judgment_problems(j) + _reference_problems(c, j, known_reviewers)
            )
            for p in problems:
                defect(line, p)
            if not problems:
                (log_rows if j.judgment_id is not None else new_rows).append((line, j))

        # log rows: consistency inside the file
        by_id: dict[int, tuple[int | None, Judgment]] = {}
        groups: dict[tuple[Any, ...], list[tuple[int | None, Judgment]]] = defaultdict(list)
        for line, j in log_rows:
            assert j.judgment_id is not None
            if j.judgment_id in by_id:
                defect(
                    line,
                    f"judgment_id {j.judgment_id} appears twice in the file (first on line {by_id[j.judgment_id][0]})",
                )
                continue
            by_id[j.judgment_id] = (line, j)
            groups[_identity(j)].append((line, j))
        consistent_groups = []
        for key, items in groups.items():
            ok = True
            versions: dict[int, int | None] = {}
            for line, j in items:
                if j.version in versions:
                    defect(
                        line, f"version {j.version} of this judgment appears twice (also line {versions[j.version]})"
                    )
                    ok = False
                versions[j.version] = line
                if j.superseded_by is not None:
                    target = by_id.get(j.superseded_by)
                    if target is None or _identity(target[1]) != key or target[1].version <= j.version:
                        defect(
                            line,
                            f"superseded_by {j.superseded_by} is not a later version of the same judgment in the file",
                        )
                        ok = False
            current = [(line, j) for line, j in items if not j.undone and j.superseded_by is None]
            if len(current) > 1:
                defect(
                    current[1][0],
                    f"more than one current version of the same judgment (lines {current[0][0]} and {current[1][0]})",
                )
                ok = False
            if ok:
                consistent_groups.append((key, sorted(items, key=lambda it: it[1].version)))

        # log rows: merge with the workspace
        for _, items in consistent_groups:
            probe = items[0][1]
            where, params = _key_where(probe)
            stored = {
                r["version"]: _row_to_judgment(r)
                for r in c.execute(f"SELECT {_COLUMNS} FROM judgments WHERE {where}", params)
            }
            file_versions = {j.version: (line, j) for line, j in items}
            diverged = False
            for version, (line, fj) in file_versions.items():
                if version in stored and _content(fj) != _content(stored[version]):
                    defect(line, f"version {version} of this judgment differs from the one in the workspace "
                                 f"(reviewer {probe.reviewer_id}, run {probe.run_id}, entry {probe.entry_id})")
                    diverged = True
            fresh = [(line, j) for line, j in items if j.version not in stored]
            missing = sorted(set(stored) - set(file_versions))
            if fresh and missing:
                defect(
                    fresh[0][0],
                    f"the workspace has version {missing[0]} of this judgment (reviewer {probe.reviewer_id}, "
                    f"run {probe.run_id}, entry {probe.entry_id}, task {probe.task}) that the file lacks, "
                    f"and the file has version {fresh[0][1].version} that the workspace lacks: "
                    "the logs have diverged",
                )
                diverged = True
            if diverged:
                continue
            summary["judgments_unchanged"] += len(items) - len(fresh)
            if not fresh:
                continue
            id_map = {fj.judgment_id: stored[fj.version].judgment_id for _, fj in items if fj.version in stored}
            for _, j in fresh:
                id_map[j.judgment_id] = _insert_judgment(
                    c,
                    j.model_copy(
                        update={"superseded_by": None, "undone": False, "created_at": j.created_at or now_iso()}
                    ),
                )
                summary["judgments_added"] += 1
            for _, j in items:
                c.execute("UPDATE judgments SET superseded_by = ?, undone = ? WHERE judgment_id = ?",
                          (id_map.get(j.superseded_by) if j.superseded_by is not None else None, int(j.undone),
                           id_map[j.judgment_id]))

        # plain rows: recorded as new judgments
        for _, j in new_rows:
            _append_version(c, j)
            summary["judgments_added"] += 1

        if benchmark:
            def rating_withdrawn(b: BenchmarkJudgment) -> bool:
                w = gone.get(b.reviewer_id)
                return w is not None and w.covers_rating(b.created_at, b.judgment_id, by_id=not local_ids)

            added, same, skipped_ratings = merge_ratings(c, benchmark, reviewers=set(file_reviewers),
                                                         withdrawn=rating_withdrawn, defect=defect, now=now_iso())
            summary["benchmark_ratings_added"], summary["benchmark_ratings_unchanged"] = added, same
            for rid, n in skipped_ratings.items():
                skipped.setdefault(rid, [0, 0])[0] += n

        if found:
            raise InputError(sorted(found, key=lambda d: (d.line is None, d.line or 0)))
    if skipped:
        summary["judgments_withdrawn"] = sum(n for n, _ in skipped.values())
        summary["notices"] = [gone[rid].notice(file, n_judgments, n_records > 0)
                              for rid, (n_judgments, n_records) in sorted(skipped.items())]
    return summary
