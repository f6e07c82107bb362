"""Attention checks and repeated items in the desktop's rating queue.

When the workspace asks for them (settings ``attention_checks`` and ``repeated_items``, 0 by
default), a reviewer rating a run on the desktop meets, among the run's entries, the known-bad
outputs and repeated items a review pack would insert: the one generator is
:func:`mteval_gui.app.review_pack.insert_checks`, applied to the run's entries in corpus order
and seeded by the reviewer, so two reviewers meet different checks.

The schedule is made once per (reviewer, run, number of checks, number of repeats) and recorded
in the workspace beside the review packs (``review_packs``, id ``dq-`` and a hash of those four,
``meta["desktop"]``; its items are the checks' entries): the checks' known-bad texts and, for each
check, the real entry it follows in the queue. Opening the runs again, after a restart too, shows
the same checks after the same entries, whatever order the entries are shown in; a reviewer's
withdrawal deletes the record with their judgments.

A check's rating is recorded at once as a judgment of task ``check`` whose payload is that of a
pack's check answer (``{"check": "attention"|"repeat", "check_id": "dq-…/N", "kind": …}``; error
spans, a correction and an ESA score are not kept, as on pack import: a check judgment has none):
it is never a rating of the real entry, and :mod:`mteval_gui.app.reviewer_qc` counts it like a
pack's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from mteval_gui.app.entry_frame import REVIEW_FLAGGED, REVIEW_NONE, REVIEW_PARTIAL, REVIEW_RATED
from mteval_gui.app.review_pack import QueueItem, insert_checks
from mteval_gui.domain.judgments import CHECK_DROPPED_KEYS, Judgment
from mteval_gui.errors import MtevalError, StoreError
from mteval_gui.io.review_pack import new_answers_key
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.packs import PackRecord, get_pack, record_pack

QUEUE_PREFIX = "dq-"
MAX_CHECKS = 100  # attention checks or repeats a desktop queue takes at most (each)
SEED = 0  # the schedule's seed beside the reviewer's id


@dataclass(frozen=True)
class CheckSlot:
    """One check of a desktop queue."""

    number: int  # its place in the queue with checks (the check id's suffix)
    run_id: str
    entry_id: str  # the real entry the check is made from (its judgment's entry)
    check: str  # "attention" or "repeat"
    kind: str | None  # the attention check's perturbation
    output: str | None  # the known-bad output shown (None: a repeat, the real output)
    after: str | None  # the real entry the check comes after in the queue (None: it opens the queue)


@dataclass(frozen=True)
class DesktopQueue:
    """The checks one reviewer meets while rating one run on the desktop."""

    queue_id: str
    reviewer_id: str
    run_id: str
    checks: int
    repeats: int
    slots: tuple[CheckSlot, ...]

    def check_id(self, slot: CheckSlot) -> str:
        return f"{self.queue_id}/{slot.number}"

    def payload(self, slot: CheckSlot, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The payload of ``slot``'s answer: ``extra`` (the rating's own payload) without error spans,
        correction and ESA score, and which check it answers."""
        out = {k: v for k, v in (extra or {}).items() if k not in CHECK_DROPPED_KEYS}
        out.update({"check": slot.check, "check_id": self.check_id(slot)})
        if slot.kind:
            out["kind"] = slot.kind
        return out


def queue_id(reviewer_id: str, run_id: str, checks: int, repeats: int) -> str:
    """The id of the desktop queue of (reviewer, run, checks, repeats): the same every time it is asked."""
    key = "\x1f".join(("desktop", reviewer_id, run_id, str(checks), str(repeats)))
    return QUEUE_PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


def recorded_queue(ws: Workspace, run_id: str, reviewer_id: str, checks: int, repeats: int) -> DesktopQueue | None:
    """The schedule of these checks already recorded for ``reviewer_id`` rating ``run_id`` (None: not made yet);
    nothing is made or written."""
    return _from_record(get_pack(ws, queue_id(reviewer_id, run_id, checks, repeats)))


def desktop_queue(ws: Workspace, run_id: str, reviewer_id: str, checks: int, repeats: int) -> DesktopQueue | None:
    """The checks ``reviewer_id`` meets rating ``run_id`` (None when neither checks nor repeats are asked):
    the recorded schedule, else a new one, recorded before it is returned."""
    if not 0 <= checks <= MAX_CHECKS or not 0 <= repeats <= MAX_CHECKS:
        raise MtevalError(f"attention checks and repeated items must be 0 to {MAX_CHECKS}")
    if not checks and not repeats:
        return None
    if jstore.get_reviewer(ws, reviewer_id) is None:
        raise StoreError(f"unknown reviewer {reviewer_id!r}")
    if not repo.run_exists(ws, run_id):
        raise StoreError(f"unknown run {run_id!r}")
    found = recorded_queue(ws, run_id, reviewer_id, checks, repeats)
    if found is not None:
        return found
    qid = queue_id(reviewer_id, run_id, checks, repeats)
    queue: list[QueueItem] = [(r, e, None, {}) for r, e in jstore.review_queue(ws, [run_id], reviewer_id)]
    items, placed = insert_checks(ws, queue, checks, repeats, SEED, reviewer_id) if queue else ([], {})
    described: dict[str, dict[str, Any]] = {}
    after: str | None = None
    for n, (_, entry_id, _, _) in enumerate(items):
        check = placed.get(n)
        if check is None:
            after = entry_id
            continue
        described[str(n)] = {"check": check["check"], "kind": check["kind"], "output": check["output"],
                             "after": after, "entry": entry_id}
    meta = {"desktop": True, "runs": [run_id], "checks": described, "attention_checks": checks,
            "repeated_items": repeats, "seed": SEED}
    content = json.dumps(meta, ensure_ascii=False, sort_keys=True)
    # the items asked are the checks (the real entries are the run's, in whatever order the table shows)
    record = PackRecord(qid, reviewer_id, "A", hashlib.sha256(content.encode("utf-8")).hexdigest(),
                        [(run_id, c["entry"], None) for _, c in sorted(described.items(), key=lambda kv: int(kv[0]))],
                        meta, jstore.now_iso(), new_answers_key())
    try:
        record_pack(ws, record)
    except StoreError:
        kept = _from_record(get_pack(ws, qid))  # another window recorded it first: theirs is the queue
        if kept is None:
            raise
        return kept
    found = _from_record(record)
    assert found is not None  # a record just made is a desktop queue
    return found


def _from_record(pack: PackRecord | None) -> DesktopQueue | None:
    if pack is None or not pack.meta.get("desktop"):
        return None
    run_id = (pack.meta.get("runs") or [""])[0]
    checks = sorted((pack.meta.get("checks") or {}).items(), key=lambda kv: int(kv[0]))
    slots = [CheckSlot(int(key), run_id, str(c["entry"]), str(c["check"]), c.get("kind"), c.get("output"),
                       c.get("after")) for key, c in checks]
    return DesktopQueue(pack.pack_id, pack.reviewer_id, run_id, int(pack.meta.get("attention_checks", 0)),
                        int(pack.meta.get("repeated_items", 0)), tuple(slots))


def check_probe(queue: DesktopQueue, slot: CheckSlot) -> Judgment:
    """A judgment identifying the answer to ``slot`` (its versions share reviewer, run, entry and check id)."""
    return Judgment(reviewer_id=queue.reviewer_id, run_id=slot.run_id, entry_id=slot.entry_id, task="check",
                    payload=queue.payload(slot))


def check_history(ws: Workspace, queue: DesktopQueue, slot: CheckSlot) -> list[Judgment]:
    """Every version of the reviewer's answer to ``slot``, oldest first, undone ones included."""
    return jstore.judgment_versions(ws, check_probe(queue, slot))


def check_judgment(queue: DesktopQueue, slot: CheckSlot, *, adequacy: int | None, fluency: int | None,
                   note: str | None, flagged: bool, payload: dict[str, Any] | None = None) -> Judgment:
    """The judgment recording a rating of ``slot`` (task ``check``, never a rating of the real entry)."""
    return Judgment(reviewer_id=queue.reviewer_id, run_id=slot.run_id, entry_id=slot.entry_id, task="check",
                    adequacy=adequacy, fluency=fluency, note=note, flagged=flagged,
                    payload=queue.payload(slot, payload))


def check_statuses(ws: Workspace, queue: DesktopQueue) -> list[int]:
    """The review status of each check of the queue, as the entries table shows a real entry's
    (none, partial, rated, flagged: :mod:`mteval_gui.app.entry_frame`)."""
    answers = {str(j.payload.get("check_id")): j
               for j in jstore.current_judgments(ws, run_id=queue.run_id, reviewer_id=queue.reviewer_id,
                                                 task="check")}
    out = []
    for slot in queue.slots:
        j = answers.get(queue.check_id(slot))
        if j is None:
            out.append(REVIEW_NONE)
        elif j.flagged:
            out.append(REVIEW_FLAGGED)
        elif j.adequacy is not None and j.fluency is not None:
            out.append(REVIEW_RATED)
        elif j.adequacy is not None or j.fluency is not None:
            out.append(REVIEW_PARTIAL)
        else:
            out.append(REVIEW_NONE)
    return out
