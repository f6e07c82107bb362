"""Reviewers and the versioned judgment log: record, edit, undo/redo, progress, sign-off, crash safety."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import InputError, StoreError
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.store.judgment_helpers import add_corpus, add_run


@pytest.fixture
def ws(workspace):
    add_corpus(workspace, "c1", ["e1", "e2", "e3", "e4", "e5"])
    add_run(workspace, "r1", "c1", tier="deployable")
    add_run(workspace, "r2", "c1", tier="functional")
    J.add_reviewer(workspace, Reviewer(reviewer_id="ana", name="Ana", dialect="Plains", languages=["crk", "eng"]))
    J.add_reviewer(workspace, Reviewer(reviewer_id="ben", name="Ben"))
    J.add_reviewer(workspace, Reviewer(reviewer_id="cat", name="Cat"))
    return workspace


def rate(ws, reviewer, run, entry, adequacy=None, fluency=None, **kw):
    return J.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id=run, entry_id=entry,
                                          adequacy=adequacy, fluency=fluency, **kw))


# ---------------------------------------------------------------- reviewers

def test_reviewers_add_list_get_update(ws):
    assert [r.reviewer_id for r in J.list_reviewers(ws)] == ["ana", "ben", "cat"]
    ana = J.get_reviewer(ws, "ana")
    assert ana.name == "Ana" and ana.dialect == "Plains" and ana.languages == ["crk", "eng"]
    assert ana.created_at is not None
    J.update_reviewer(ws, ana.model_copy(update={"dialect": "Woods", "consent_scope": "research only"}))
    again = J.get_reviewer(ws, "ana")
    assert again.dialect == "Woods" and again.consent_scope == "research only" and again.created_at == ana.created_at
    assert J.get_reviewer(ws, "nobody") is None


def test_reviewer_errors(ws):
    with pytest.raises(StoreError, match="already exists"):
        J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Other"))
    with pytest.raises(StoreError, match="name"):
        J.add_reviewer(ws, Reviewer(reviewer_id="dan", name="  "))
    with pytest.raises(StoreError, match="unknown reviewer"):
        J.update_reviewer(ws, Reviewer(reviewer_id="zed", name="Zed"))


# ---------------------------------------------------------------- record and versions

def test_record_returns_id_version_time(ws):
    j = rate(ws, "ana", "r1", "e1", 4, 5, note="good")
    assert j.judgment_id is not None and j.version == 1 and j.created_at
    cur = J.current_judgments(ws, run_id="r1")
    assert [(c.reviewer_id, c.entry_id, c.adequacy, c.fluency, c.note) for c in cur] == [("ana", "e1", 4, 5, "good")]


def test_edit_adds_version_and_never_overwrites(ws):
    v1 = rate(ws, "ana", "r1", "e1", 2, 3)
    v2 = rate(ws, "ana", "r1", "e1", 4, 3)
    v3 = rate(ws, "ana", "r1", "e1", 5, 5, note="changed my mind")
    assert (v1.version, v2.version, v3.version) == (1, 2, 3)
    hist = J.judgment_history(ws, "ana", "r1", "e1", "A")
    assert [(h.version, h.adequacy, h.superseded_by, h.undone) for h in hist] == [
        (1, 2, v2.judgment_id, False), (2, 4, v3.judgment_id, False), (3, 5, None, False)]
    cur = J.current_judgments(ws, run_id="r1", reviewer_id="ana")
    assert [(c.judgment_id, c.adequacy) for c in cur] == [(v3.judgment_id, 5)]
    # other reviewers, runs and tasks are separate judgments
    rate(ws, "ben", "r1", "e1", 1, 1)
    rate(ws, "ana", "r2", "e1", 3, 3)
    assert len(J.current_judgments(ws)) == 3
    assert len(J.current_judgments(ws, reviewer_id="ana")) == 2
    assert ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 5


def test_task_c_identity_includes_the_word(ws):
    a = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", task="C",
                                       payload={"word": "nipâw", "valid": "Yes", "kind": "Established"}))
    b = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", task="C",
                                       payload={"word": "kotak", "valid": "Yes"}))
    c = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", task="C",
                                       payload={"word": "nipâw", "valid": "No"}))
    assert (a.version, b.version, c.version) == (1, 1, 2)
    cur = J.current_judgments(ws, task="C")
    assert sorted((x.payload["word"], x.payload["valid"]) for x in cur) == [("kotak", "Yes"), ("nipâw", "No")]
    assert [h.version for h in J.judgment_history(ws, "ana", "r1", "e1", "C", word="nipâw")] == [1, 2]


def test_invalid_judgments_are_refused_and_nothing_written(ws):
    cases = [
        (Judgment(reviewer_id="zed", run_id="r1", entry_id="e1", adequacy=3), "unknown reviewer 'zed'"),
        (Judgment(reviewer_id="ana", run_id="nope", entry_id="e1", adequacy=3), "unknown run 'nope'"),
        (Judgment(reviewer_id="ana", run_id="r1", entry_id="e99", adequacy=3), "unknown entry 'e99'"),
        (Judgment(reviewer_id="ana", run_id="r1", entry_id=None, adequacy=3), "needs an entry_id"),
        (
            Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", task="B", payload={"same_meaning": "Maybe"}),
            "same_meaning 'Maybe' is not one of Yes, No, Depends",
        ),
        (
            Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", task="C", payload={"valid": "Yes"}),
            "needs payload 'word'",
        ),
    ]
    for j, message in cases:
        with pytest.raises(StoreError, match=message):
            J.record_judgment(ws, j)
    assert ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 0
    with pytest.raises(ValueError):
        Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", adequacy=6)


def test_blank_note_and_crlf_are_normalised(ws):
    j = rate(ws, "ana", "r1", "e1", 3, note="   ")
    assert j.note is None
    j = rate(ws, "ana", "r1", "e2", 3, note="line one\r\nline two")
    assert J.current_judgments(ws, run_id="r1")[-1].note == "line one\nline two"


# ---------------------------------------------------------------- undo / redo

def test_undo_restores_previous_version_and_first_version_disappears(ws):
    v1 = rate(ws, "ana", "r1", "e1", 2, 2)
    v2 = rate(ws, "ana", "r1", "e1", 4, 4)
    undone = J.undo_last(ws, "ana", "r1")
    assert undone.judgment_id == v2.judgment_id and undone.undone
    cur = J.current_judgments(ws, run_id="r1")
    assert [(c.judgment_id, c.adequacy, c.superseded_by) for c in cur] == [(v1.judgment_id, 2, None)]
    assert J.undo_last(ws, "ana", "r1").judgment_id == v1.judgment_id
    assert J.current_judgments(ws, run_id="r1") == []
    assert J.undo_last(ws, "ana", "r1") is None
    # the log still holds both versions, flagged undone
    assert [(h.version, h.undone) for h in J.judgment_history(ws, "ana", "r1", "e1")] == [(1, True), (2, True)]


def test_undo_is_a_stack_over_entries_and_scoped_by_reviewer_and_run(ws):
    a = rate(ws, "ana", "r1", "e1", 1)
    b = rate(ws, "ana", "r1", "e2", 2)
    rate(ws, "ben", "r1", "e1", 5)
    c = rate(ws, "ana", "r2", "e1", 3)
    a2 = rate(ws, "ana", "r1", "e1", 4)
    assert J.undo_last(ws, "ana", "r1").judgment_id == a2.judgment_id
    assert J.undo_last(ws, "ana", "r1").judgment_id == b.judgment_id
    assert {(j.reviewer_id, j.run_id, j.entry_id, j.adequacy) for j in J.current_judgments(ws)} == {
        ("ana", "r1", "e1", 1), ("ben", "r1", "e1", 5), ("ana", "r2", "e1", 3)}
    # without a run: the reviewer's newest anywhere
    assert J.undo_last(ws, "ana").judgment_id == c.judgment_id
    assert J.undo_last(ws, "ana").judgment_id == a.judgment_id
    assert [(j.reviewer_id, j.adequacy) for j in J.current_judgments(ws)] == [("ben", 5)]


def test_redo_reapplies_in_order_and_new_judgment_clears_redo(ws):
    v1 = rate(ws, "ana", "r1", "e1", 1)
    v2 = rate(ws, "ana", "r1", "e1", 2)
    w1 = rate(ws, "ana", "r1", "e2", 3)
    J.undo_last(ws, "ana", "r1")
    J.undo_last(ws, "ana", "r1")
    assert J.redo_last(ws, "ana", "r1").judgment_id == v2.judgment_id
    hist = J.judgment_history(ws, "ana", "r1", "e1")
    assert [(h.version, h.superseded_by, h.undone) for h in hist] == [(1, v2.judgment_id, False), (2, None, False)]
    assert J.redo_last(ws, "ana", "r1").judgment_id == w1.judgment_id
    assert J.redo_last(ws, "ana", "r1") is None
    J.undo_last(ws, "ana", "r1")  # w1
    rate(ws, "ana", "r1", "e3", 5)
    assert J.redo_last(ws, "ana", "r1") is None
    assert sorted((j.entry_id, j.adequacy) for j in J.current_judgments(ws)) == [("e1", 2), ("e3", 5)]
    assert v1.version == 1


def test_record_after_undo_of_first_version_starts_a_new_version(ws):
    rate(ws, "ana", "r1", "e1", 1)
    J.undo_last(ws, "ana")
    again = rate(ws, "ana", "r1", "e1", 3)
    assert again.version == 2
    hist = J.judgment_history(ws, "ana", "r1", "e1")
    assert [(h.version, h.adequacy, h.undone, h.superseded_by) for h in hist] == [
        (1, 1, True, None),
        (2, 3, False, None),
    ]
    assert J.undo_last(ws, "ana").judgment_id == again.judgment_id
    assert J.current_judgments(ws) == []


# ---------------------------------------------------------------- progress, queue, sign-off

def test_review_progress_counts_items_and_raters(ws):
    for reviewer in ("ana", "ben", "cat"):
        rate(ws, reviewer, "r1", "e1", 3, 3)
    rate(ws, "ana", "r1", "e2", 4, 4)
    rate(ws, "ben", "r1", "e2", 4, None)
    rate(ws, "cat", "r1", "e3", None, None, note="skipped: no idea")  # no rating: not counted
    rate(ws, "ana", "r1", "e4", 2, 2)
    rate(ws, "ana", "r1", "e4", 3, 3)  # edit: still one rater
    rate(ws, "ana", "r2", "e1", 5, 5)
    p = J.review_progress(ws, "r1")
    assert p["total_entries"] == 5
    assert p["items_rated"] == 3
    assert p["items_at_target"] == 1
    assert p["raters"] == 3
    assert p["judgments"] == 6
    assert p["by_rater_count"] == {1: 1, 2: 1, 3: 1}
    assert (p["target_items"], p["target_raters"], p["target_met"]) == (200, 3, False)
    everywhere = J.review_progress(ws)
    assert (everywhere["total_entries"], everywhere["items_rated"], everywhere["judgments"]) == (10, 4, 7)


def test_review_queue_is_reproducible_blind_and_skips_rated(ws):
    plain = J.review_queue(ws, ["r1", "r2"])
    assert plain[:3] == [("r1", "e1"), ("r1", "e2"), ("r1", "e3")] and len(plain) == 10
    shuffled = J.review_queue(ws, ["r1", "r2"], "ana", randomise=True, seed=7)
    assert sorted(shuffled) == sorted(plain) and shuffled != plain
    assert shuffled == J.review_queue(ws, ["r1", "r2"], "ana", randomise=True, seed=7)
    rate(ws, "ana", "r1", "e2", 3)
    assert ("r1", "e2") not in J.review_queue(ws, ["r1"], "ana", unrated_only=True)
    assert J.next_unrated(ws, "r1", "ana") == "e1"
    assert J.next_unrated(ws, "r1", "ana", after_entry="e1") == "e3"
    assert J.next_unrated(ws, "r1", "ana", after_entry="e5") == "e1"


def test_signoff_confirm_reject_and_stale_tier(ws):
    assert J.signoff_status(ws, "r1")["confirmed"] is None
    s = J.signoff(ws, "r1", "ana", "confirm")
    assert s.task == "signoff" and s.payload == {"decision": "confirm", "tier": "deployable"} and s.entry_id is None
    assert J.signoff_status(ws, "r1")["confirmed"] is True
    J.signoff(ws, "r1", "ben", "reject")
    assert J.signoff_status(ws, "r1")["confirmed"] is False
    J.signoff(ws, "r1", "ben", "confirm")  # ben changes his mind: a new version
    st = J.signoff_status(ws, "r1")
    assert st["confirmed"] is True and len(st["decisions"]) == 2
    # the run is re-scored into another tier: earlier decisions no longer confirm it
    ws.conn.execute("UPDATE runs SET quality_tier = 'fluent' WHERE run_id = 'r1'")
    st = J.signoff_status(ws, "r1")
    assert st["confirmed"] is None and len(st["stale"]) == 2
    with pytest.raises(StoreError, match="decision"):
        J.signoff(ws, "r1", "ana", "maybe")


# ---------------------------------------------------------------- export / import log

def test_export_log_then_import_into_fresh_workspace_is_identical(ws, tmp_path):
    rate(ws, "ana", "r1", "e1", 2, 3)
    rate(ws, "ana", "r1", "e1", 4, 3, note="second thoughts")
    rate(ws, "ben", "r1", "e2", 5, 5, flagged=True)
    J.undo_last(ws, "ben")
    J.record_judgment(ws, Judgment(reviewer_id="cat", run_id="r2", entry_id="e3", task="C",
                                   payload={"word": "êwako", "valid": "Yes", "kind": "Established"}))
    J.signoff(ws, "r1", "ana", "confirm")
    reviewers, log = J.export_log(ws)
    other = Workspace(tmp_path / "other.sqlite")
    add_corpus(other, "c1", ["e1", "e2", "e3", "e4", "e5"])
    add_run(other, "r1", "c1", tier="deployable")
    add_run(other, "r2", "c1")
    summary = J.import_log(other, [(i + 1, r) for i, r in enumerate(reviewers)],
                           [(i + 10, j) for i, j in enumerate(log)], file="log.json")
    assert summary == {"reviewers_added": 3, "reviewers_unchanged": 0, "judgments_added": 5, "judgments_unchanged": 0}
    assert J.export_log(other) == (reviewers, log)
    # importing again changes nothing
    again = J.import_log(other, [(1, r) for r in reviewers], [(2, j) for j in log], file="log.json")
    assert again["judgments_added"] == 0 and again["judgments_unchanged"] == 5
    assert J.export_log(other) == (reviewers, log)
    other.close()


def test_import_appends_new_versions_and_detects_divergence(ws, tmp_path):
    rate(ws, "ana", "r1", "e1", 2)
    reviewers, log_v1 = J.export_log(ws, ["r1"])
    rate(ws, "ana", "r1", "e1", 3)
    _, log_v2 = J.export_log(ws, ["r1"])
    other = Workspace(tmp_path / "other.sqlite")
    add_corpus(other, "c1", ["e1", "e2", "e3", "e4", "e5"])
    add_run(other, "r1", "c1")
    J.import_log(other, [(1, r) for r in reviewers], [(2, j) for j in log_v1], file="v1.json")
    assert [(c.version, c.adequacy) for c in J.current_judgments(other)] == [(1, 2)]
    # the longer log extends it: version 2 appended and made current
    summary = J.import_log(
        other, [(1, r) for r in reviewers], [(2 + i, j) for i, j in enumerate(log_v2)], file="v2.json"
    )
    assert (summary["judgments_added"], summary["judgments_unchanged"]) == (1, 1)
    assert [(c.version, c.adequacy) for c in J.current_judgments(other)] == [(2, 3)]
    assert J.export_log(other)[1] == J.export_log(ws)[1]
    # an older export brings nothing new: nothing changes
    assert J.import_log(other, [], [(2, j) for j in log_v1], file="v1.json")["judgments_added"] == 0
    assert [(c.version, c.adequacy) for c in J.current_judgments(other)] == [(2, 3)]
    # a different version 1 is a conflict
    bad = log_v1[0].model_copy(update={"adequacy": 5})
    with pytest.raises(InputError) as err:
        J.import_log(other, [], [(7, bad)], file="f.csv")
    assert [str(d) for d in err.value.defects] == [
        "f.csv:7: version 1 of this judgment differs from the one in the workspace (reviewer ana, run r1, entry e1)"]
    # both sides moved on: diverged
    rate(other, "ana", "r1", "e1", 4)   # version 3 in other
    J.undo_last(ws, "ana")
    rate(ws, "ana", "r1", "e1", 5)      # version 3 in ws, different
    _, log_ws = J.export_log(ws)
    with pytest.raises(InputError) as err:
        J.import_log(other, [], [(10 + i, j) for i, j in enumerate(log_ws)], file="ws.json")
    assert [str(d) for d in err.value.defects] == [
        "ws.json:12: version 3 of this judgment differs from the one in the workspace (reviewer ana, run r1, entry e1)"]
    other.close()


def test_import_plain_rows_are_recorded_as_new_versions(ws):
    rate(ws, "ana", "r1", "e1", 2)
    summary = J.import_log(
        ws,
        [],
        [
            (2, Judgment(reviewer_id="ana", run_id="r1", entry_id="e1", adequacy=4)),
            (3, Judgment(reviewer_id="ben", run_id="r1", entry_id="e2", fluency=1)),
        ],
        file="sheet.csv",
    )
    assert summary["judgments_added"] == 2
    assert sorted((c.reviewer_id, c.entry_id, c.version, c.adequacy, c.fluency) for c in J.current_judgments(ws)) == [
        ("ana", "e1", 2, 4, None), ("ben", "e2", 1, None, 1)]


def test_import_reports_every_defect_and_writes_nothing(ws):
    before = ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0]
    rows = [
        (2, Judgment(reviewer_id="zed", run_id="r1", entry_id="e1", adequacy=3)),
        (3, Judgment(reviewer_id="ana", run_id="r9", entry_id="e1", adequacy=3)),
        (4, Judgment(reviewer_id="ana", run_id="r1", entry_id="x", adequacy=3)),
        (5, Judgment(reviewer_id="ana", run_id="r1", entry_id="e2", adequacy=3)),
        (6, Judgment(reviewer_id="ana", run_id="r1", entry_id="e3", task="C", payload={"word": "a", "kind": "Slang"})),
    ]
    with pytest.raises(InputError) as err:
        J.import_log(ws, [(1, Reviewer(reviewer_id="ana", name="Anna"))], rows, file="in.csv")
    assert [str(d) for d in err.value.defects] == [
        "in.csv:1: reviewer 'ana' exists in the workspace with different details (name 'Ana', dialect 'Plains'); "
        "update the reviewer or the file",
        "in.csv:2: unknown reviewer 'zed'",
        "in.csv:3: unknown run 'r9'",
        "in.csv:4: unknown entry 'x' (not in corpus 'c1' of run 'r1')",
        "in.csv:6: kind 'Slang' is not one of Established, Loanword, Name, Dialectal, Neologism, Other",
    ]
    assert ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == before


def test_import_log_consistency_checks(ws):
    base = {"reviewer_id": "ana", "run_id": "r1", "entry_id": "e1"}
    rows = [
        (2, Judgment(judgment_id=1, version=1, superseded_by=9, created_at="t1", adequacy=1, **base)),
        (3, Judgment(judgment_id=2, version=1, created_at="t2", adequacy=2, **base)),
        (4, Judgment(judgment_id=2, version=3, created_at="t3", adequacy=3, **base)),
    ]
    with pytest.raises(InputError) as err:
        J.import_log(ws, [], rows, file="log.json")
    assert [str(d) for d in err.value.defects] == [
        "log.json:2: superseded_by 9 is not a later version of the same judgment in the file",
        "log.json:3: version 1 of this judgment appears twice (also line 2)",
        "log.json:4: judgment_id 2 appears twice in the file (first on line 3)",
    ]


# ---------------------------------------------------------------- crash safety

def test_judgment_survives_sigkill_right_after_it_is_saved(tmp_path):
    db = tmp_path / "crash.sqlite"
    ws = Workspace(db)
    add_corpus(ws, "c1", ["e1", "e2"])
    add_run(ws, "r1", "c1")
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana"))
    ws.close()
    script = textwrap.dedent(f"""
        import sys, time
        from mteval_gui.store import Workspace
        from mteval_gui.store.judgments import record_judgment
        from mteval_gui.domain.judgments import Judgment
        ws = Workspace({str(db)!r})
        j = record_judgment(
            ws, Judgment(reviewer_id="ana", run_id="r1", entry_id="e2", adequacy=4, fluency=2, note="kill me"))
        print("saved", j.judgment_id, flush=True)
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("saved"), line
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    saved_id = int(line.split()[1])
    reopened = Workspace(db)
    cur = J.current_judgments(reopened, run_id="r1")
    assert [(c.judgment_id, c.entry_id, c.adequacy, c.fluency, c.note) for c in cur] == [
        (saved_id, "e2", 4, 2, "kill me")
    ]
    reopened.close()


def test_import_refuses_a_log_that_skips_workspace_versions(ws):
    rate(ws, "ana", "r1", "e1", 2)
    rate(ws, "ana", "r1", "e1", 3)
    _, log = J.export_log(ws)
    v1 = log[0].model_copy(update={"superseded_by": 50})
    v5 = log[1].model_copy(update={"judgment_id": 50, "version": 5, "adequacy": 1})
    with pytest.raises(InputError) as err:
        J.import_log(ws, [], [(2, v1), (3, v5)], file="edited.json")
    assert [str(d) for d in err.value.defects] == [
        "edited.json:3: the workspace has version 2 of this judgment (reviewer ana, run r1, entry e1, task A) that the "
        "file lacks, and the file has version 5 that the workspace lacks: the logs have diverged"]
