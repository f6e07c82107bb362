"""One bad judgment row never blocks the next ones; judgments are strict JSON in and out."""

from __future__ import annotations

import json
import sqlite3

import pytest

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import InputError, StoreError
from mteval_gui.io.judgments import read_judgments, write_judgments
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.store.schema import SCHEMA_VERSION
from tests.store.judgment_helpers import add_corpus, add_run

NAN_PAYLOAD = '{"kind": "Name", "score": NaN, "valid": "Yes", "word": "namôya"}'


def _workspace(path) -> Workspace:
    ws = Workspace(path)
    add_corpus(ws, "c", ["1", "2"])
    add_run(ws, "r", "c")
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana"))
    return ws


def _insert_raw(ws: Workspace, payload: str, task: str = "C") -> None:
    with ws.transaction() as c:
        c.execute("INSERT INTO judgments (reviewer_id, run_id, entry_id, task, payload, version, created_at)"
                  " VALUES ('ana', 'r', '1', ?, ?, 1, '2024-01-01T00:00:00.000+00:00')", (task, payload))


def test_a_row_sqlite_cannot_read_does_not_block_new_task_c_judgments(tmp_path):
    ws = _workspace(tmp_path / "w.sqlite")
    _insert_raw(ws, NAN_PAYLOAD)
    # before: "malformed JSON" from json_extract over the bad row
    j = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="C",
                                       payload={"word": "kotak", "valid": "No"}))
    assert j.version == 1
    again = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="C",
                                           payload={"word": "kotak", "valid": "Yes"}))
    assert again.version == 2
    current = J.current_judgments(ws, run_id="r", task="C")
    assert [(c.payload.get("word"), c.payload.get("score", "absent")) for c in current] == [
        ("namôya", None),
        ("kotak", "absent"),
    ]
    ws.close()


def test_an_old_workspace_with_nan_is_repaired_and_its_export_imports_back(tmp_path):
    path = tmp_path / "old.sqlite"
    ws = _workspace(path)
    _insert_raw(ws, NAN_PAYLOAD)
    ws.conn.execute("DROP TABLE run_locks")  # back to schema 3: without the later tables
    ws.conn.execute("PRAGMA user_version = 3")
    ws.close()
    ws = Workspace(path)
    assert ws.schema_version() == SCHEMA_VERSION
    stored = ws.conn.execute("SELECT payload FROM judgments").fetchone()[0]
    assert json.loads(stored) == {"kind": "Name", "score": None, "valid": "Yes", "word": "namôya"}
    J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="C",
                                   payload={"word": "namôya", "valid": "No"}))
    out = write_judgments(tmp_path / "export.json", J.list_reviewers(ws), J.export_log(ws)[1])
    text = out.read_text(encoding="utf-8")
    assert "NaN" not in text
    read = read_judgments(out)
    assert read.defects == []
    summary = J.import_log(ws, read.reviewers, read.judgments, file=read.name)
    assert summary == {"reviewers_added": 0, "reviewers_unchanged": 1, "judgments_added": 0, "judgments_unchanged": 2}
    ws.close()


def test_nan_and_infinity_are_refused_when_recording(tmp_path):
    ws = _workspace(tmp_path / "w.sqlite")
    for bad in (float("nan"), float("inf")):
        with pytest.raises(StoreError, match="is not a JSON number"):
            J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="B",
                                           payload={"same_meaning": "Yes", "confidence": bad}))
    deep: dict = {}
    node = deep
    for _ in range(50):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(StoreError, match="nested deeper than"):
        J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="B", payload=deep))
    assert ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 0
    ws.close()


def test_an_import_with_nan_in_a_payload_is_located_and_writes_nothing(tmp_path):
    ws = _workspace(tmp_path / "w.sqlite")
    p = tmp_path / "j.json"
    p.write_text(
        '{"reviewers": [], "judgments": [\n {"reviewer_id": "ana", "run_id": "r", "entry_id": "1", "task": "C",'
        ' "payload": {"word": "a", "n": NaN}}\n]}',
        encoding="utf-8",
    )
    read = read_judgments(p)
    assert [str(d) for d in read.defects] == [f"{p}:2:100: invalid JSON: NaN is not JSON (use a number or null)"]
    with pytest.raises(InputError):
        J.import_log(ws, read.reviewers, read.judgments, file=read.name, defects=read.defects)
    assert ws.conn.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 0
    ws.close()


def test_a_historic_unreadable_payload_is_kept_as_text(tmp_path):
    ws = _workspace(tmp_path / "w.sqlite")
    _insert_raw(ws, "{not json", task="B")
    [j] = J.current_judgments(ws)
    assert j.payload == {"unreadable_payload": "{not json"}
    ws.close()


def test_sqlite_itself_cannot_read_the_old_payload():
    # why the repair exists: SQLite's JSON functions refuse what Python's json module wrote
    c = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError, match="malformed JSON"):
        c.execute("SELECT json_extract(?, '$.word')", (NAN_PAYLOAD,)).fetchone()


def test_a_row_sqlite_cannot_read_is_superseded_by_the_next_version_of_its_judgment(tmp_path):
    """The unreadable row judges the same word: the new judgment is its next version, and the export imports back."""
    ws = _workspace(tmp_path / "w.sqlite")
    _insert_raw(ws, NAN_PAYLOAD)
    j = J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="C",
                                       payload={"word": "namôya", "valid": "No"}))
    assert j.version == 2  # before: version 1 beside the old row, both current
    current = J.current_judgments(ws, run_id="r", task="C")
    assert [(c.payload["word"], c.payload["valid"], c.version) for c in current] == [("namôya", "No", 2)]
    out = write_judgments(tmp_path / "export.json", J.list_reviewers(ws), J.export_log(ws)[1])
    read = read_judgments(out)
    assert read.defects == []
    # before: "version 1 of this judgment appears twice", "more than one current version"
    assert J.import_log(ws, read.reviewers, read.judgments, file=read.name) == {
        "reviewers_added": 0, "reviewers_unchanged": 1, "judgments_added": 0, "judgments_unchanged": 2}
    ws.close()


def test_an_import_meets_a_row_sqlite_cannot_read_as_a_version_of_its_judgment(tmp_path):
    ws = _workspace(tmp_path / "w.sqlite")
    _insert_raw(ws, NAN_PAYLOAD)
    other = _workspace(tmp_path / "other.sqlite")
    _insert_raw(other, NAN_PAYLOAD.replace("NaN", "null"))
    J.record_judgment(other, Judgment(reviewer_id="ana", run_id="r", entry_id="1", task="C",
                                      payload={"word": "namôya", "valid": "No"}))
    out = write_judgments(tmp_path / "export.json", J.list_reviewers(other), J.export_log(other)[1])
    other.close()
    read = read_judgments(out)
    assert J.import_log(ws, read.reviewers, read.judgments, file=read.name) == {
        "reviewers_added": 0, "reviewers_unchanged": 1, "judgments_added": 1, "judgments_unchanged": 1}
    current = J.current_judgments(ws, run_id="r", task="C")
    assert [(c.payload["word"], c.payload["valid"], c.version) for c in current] == [("namôya", "No", 2)]
    ws.close()
