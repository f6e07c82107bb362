"""Kills lose nothing: a scoring process killed (SIGKILL) five times at random points resumes
without scoring a stored batch again and ends with the scores of an uninterrupted job; a
process recording judgments through the application layer, killed, keeps every judgment it
acknowledged.

Nothing here depends on how fast the processes run: a killed scoring process stops after the
batch that follows its kill point (it waits there for the kill), so however long this process
is kept off the CPU it always kills a process that has not finished the job."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from mteval_gui.store import Workspace
from tests.app.scoring_helpers import FAST, make_workspace, stored_results

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and fork are POSIX")
CTX = multiprocessing.get_context("fork")
N_ENTRIES, BATCH = 60, 1
N_BATCHES = N_ENTRIES // BATCH
METRICS = ["core.exact", "core.chrf"]


def _score(db: str, first: bool, batches: int | None = None) -> None:
    """What `mteval score r` does: the first time with the metric set asked for, then (no options)
    the plan resumes the interrupted job with its stored configuration. With ``batches`` the
    process waits (for its kill) once it has committed that many batches."""
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.app.scoring_config import ScoringOverrides, plan_scoring

    if batches is not None:  # this is a forked process: the class is patched here only
        from mteval_gui.store.results import ResultsStore

        write = ResultsStore.write_batch
        written = 0

        def write_then_wait(self, *args, **kwargs):
            nonlocal written
            write(self, *args, **kwargs)
            written += 1
            if written >= batches:
                threading.Event().wait()

        ResultsStore.write_batch = write_then_wait  # type: ignore[method-assign]

    ws = Workspace(db)
    overrides = ScoringOverrides.of(metrics=METRICS, batch_size=BATCH, **FAST) if first else None
    (p,) = plan_scoring(ws, ["r"], overrides).runs
    assert p.action == ("score" if first else "resume"), p
    score_workspace_run(ws, "r", configuration=p.configuration, replace=False)
    ws.close()


def _log_batches(db: Path) -> None:
    """Every committed write of a batch leaves a row in batch_log (a rewrite would leave a second)."""
    ws = Workspace(db)
    with ws.transaction() as c:
        c.execute("CREATE TABLE batch_log (run_id TEXT, batch_index INTEGER, config_hash TEXT)")
        c.execute("CREATE TRIGGER log_batch AFTER INSERT ON scoring_batches BEGIN "
                  "INSERT INTO batch_log VALUES (new.run_id, new.batch_index, new.config_hash); END")
    ws.close()


def _count(conn, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


def test_scoring_killed_five_times_at_random_points_resumes_to_the_same_scores(tmp_path):
    rng = random.Random(20261201)
    reference, db = tmp_path / "reference.sqlite", tmp_path / "killed.sqlite"
    for path in (reference, db):
        make_workspace(path, N_ENTRIES)
    _score(str(reference), True)  # uninterrupted, here: the forked processes find everything imported
    _log_batches(db)
    watcher = Workspace(db)
    # five kill points: after a random number of newly stored batches, a random moment later
    targets = sorted(rng.sample(range(1, N_BATCHES - 10), 5))
    kills, first = 0, True
    try:
        for target in targets:
            # at most one batch past the target: the kill comes between it and the next commit
            stored = _count(watcher.conn, "SELECT COUNT(*) FROM batch_log")
            child = CTX.Process(target=_score, args=(str(db), first, max(1, target - stored + 1)))
            child.start()
            first = False
            deadline = time.monotonic() + 600  # a guard against a hang, not a speed requirement
            while _count(watcher.conn, "SELECT COUNT(*) FROM batch_log") < target and child.exitcode is None:
                assert time.monotonic() < deadline, "the scoring process stopped making progress"
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.01))
            assert child.exitcode is None, f"the scoring process ended ({child.exitcode}) before its kill"
            os.kill(child.pid, signal.SIGKILL)
            kills += 1
            child.join(60)
            assert child.exitcode == -signal.SIGKILL
        assert kills == 5
        assert watcher.conn.execute("SELECT status FROM runs").fetchone()[0] == "scoring"  # its job died ...
        from mteval_gui.app.runs import load_run_row

        row = load_run_row(watcher, "r")  # ... which the runs table says
        assert (row.status, row.freshness, row.scored) == ("interrupted", "incomplete", False)
        child = CTX.Process(target=_score, args=(str(db), False))
        child.start()
        child.join(300)
        assert child.exitcode == 0
        # every batch was written exactly once, over six processes
        assert _count(watcher.conn, "SELECT COUNT(*) FROM batch_log") == N_BATCHES
        assert _count(watcher.conn, "SELECT COUNT(DISTINCT batch_index) FROM batch_log") == N_BATCHES
        assert watcher.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert _count(watcher.conn, "SELECT COUNT(*) FROM run_locks") == 0
    finally:
        watcher.close()
    assert stored_results(db) == stored_results(reference)
    assert len(stored_results(db)["entry_metrics"]) == N_ENTRIES * len(METRICS)


# ----------------------------------------------------------------------------- judgments

def _rate(db: str, start: int, conn) -> None:
    """Record Task A judgments through the application layer, acknowledging each once it returned."""
    from mteval_gui.app.review import record_judgment
    from mteval_gui.domain.judgments import Judgment

    ws = Workspace(db)
    i = start
    while True:
        entry = f"e{i % N_ENTRIES:03d}"
        j = record_judgment(ws, Judgment(reviewer_id=f"rev{i % 2}", run_id="r", entry_id=entry, task="A",
                                         adequacy=i % 5 + 1, fluency=(i + 2) % 5 + 1, note=f"n{i}"))
        conn.send((j.judgment_id, j.reviewer_id, entry, j.adequacy, j.fluency, f"n{i}", j.version))
        i += 1


def test_recording_judgments_killed_keeps_every_acknowledged_one(tmp_path):
    import mteval_gui.app.review  # noqa: F401 - imported once, before the processes are forked
    from mteval_gui.domain.judgments import Reviewer
    from mteval_gui.store import judgments as jstore

    rng = random.Random(7)
    db = tmp_path / "ws.sqlite"
    make_workspace(db, N_ENTRIES)
    ws = Workspace(db)
    for n in range(2):
        jstore.add_reviewer(ws, Reviewer(reviewer_id=f"rev{n}", name=f"Reviewer {n}"))
    ws.close()
    acked: list[tuple] = []
    for _ in range(5):
        parent, child_end = CTX.Pipe(duplex=False)
        child = CTX.Process(target=_rate, args=(str(db), len(acked), child_end))
        child.start()
        child_end.close()
        wanted = len(acked) + rng.randint(5, 60)
        while len(acked) < wanted:
            assert parent.poll(120), "the rating process stopped"
            acked.append(parent.recv())
        time.sleep(rng.uniform(0, 0.005))  # a random moment later, maybe inside the next transaction
        os.kill(child.pid, signal.SIGKILL)
        child.join(60)
        assert child.exitcode == -signal.SIGKILL
        while parent.poll(0):  # acknowledged before it died
            try:
                acked.append(parent.recv())
            except EOFError:
                break
        parent.close()
    ws = Workspace(db)
    try:
        assert ws.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for judgment_id, reviewer, entry, adequacy, fluency, note, version in acked:
            j = next((h for h in jstore.judgment_history(ws, reviewer, "r", entry)
                      if h.judgment_id == judgment_id), None)
            assert j is not None, f"acknowledged judgment {judgment_id} is lost"
            assert (j.reviewer_id, j.entry_id, j.adequacy, j.fluency, j.note, j.version) == (
                reviewer, entry, adequacy, fluency, note, version)
        # one current judgment per reviewer and entry, the latest acknowledged or a later one
        current = {(j.reviewer_id, j.entry_id): j for j in jstore.current_judgments(ws, run_id="r", task="A")}
        latest: dict[tuple[str, str], int] = {}
        for _, reviewer, entry, *_, version in acked:
            latest[(reviewer, entry)] = version
        assert all(current[key].version >= v for key, v in latest.items())
        assert len(current) == len(jstore.current_judgments(ws, run_id="r", task="A"))
    finally:
        ws.close()
    assert len(acked) >= 25
