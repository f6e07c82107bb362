"""Judgment files: lossless CSV/JSON round trip and located defects on bad input."""

from __future__ import annotations

import json

import pytest

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import InputError
from mteval_gui.io.judgments import CSV_COLUMNS, FORMAT, read_judgments, write_allowlist, write_judgments
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.store.judgment_helpers import add_corpus, add_run

ENTRIES = ["1", "2", "3", "x-4"]


def make_workspace(path) -> Workspace:
    ws = Workspace(path)
    add_corpus(ws, "crk-verbs", ENTRIES)
    add_run(ws, "oracle", "crk-verbs", tier="fluent")
    add_run(ws, "macron", "crk-verbs", tier="functional")
    return ws


@pytest.fixture
def populated(tmp_path):
    ws = make_workspace(tmp_path / "a.sqlite")
    J.add_reviewer(ws, Reviewer(reviewer_id="r-ana", name="Ana Cardinal", dialect="Plains (y-dialect)",
                                languages=["crk", "eng"], consent_scope="research; publication, anonymised"))
    J.add_reviewer(ws, Reviewer(reviewer_id="r-ben", name="Ben"))
    J.add_reviewer(ws, Reviewer(reviewer_id="r-unused", name="Nobody yet", languages=["fra"]))
    rec = lambda **kw: J.record_judgment(ws, Judgment(**kw))  # noqa: E731
    rec(reviewer_id="r-ana", run_id="oracle", entry_id="1", adequacy=5, fluency=4,
        note='Good, but "nipâw" reads oddly,\nsecond line; café ✓')
    rec(reviewer_id="r-ana", run_id="oracle", entry_id="1", adequacy=4, fluency=4, note="revised")
    rec(reviewer_id="r-ben", run_id="oracle", entry_id="2", adequacy=1, flagged=True)
    J.undo_last(ws, "r-ben")
    rec(reviewer_id="r-ben", run_id="macron", entry_id="x-4", task="B",
        payload={"same_meaning": "Depends", "natural": "A better", "classes": ["LONG_VOWEL_MACRON", "ORTHOGRAPHIC"]})
    rec(reviewer_id="r-ana", run_id="macron", entry_id="3", task="C",
        payload={"word": "namôya", "valid": "Yes", "kind": "Established"})
    rec(reviewer_id="r-ana", run_id="macron", entry_id="3", task="C", payload={"word": "kotak", "valid": "Unsure"})
    J.signoff(ws, "oracle", "r-ana", "confirm", note="checked 200 items")
    yield ws
    ws.close()


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_round_trip_is_lossless(populated, tmp_path, suffix):
    reviewers, log = J.export_log(populated)
    path = write_judgments(tmp_path / f"out.{suffix}", reviewers, log)
    read = read_judgments(path)
    assert read.defects == []
    assert [r for _, r in read.reviewers] == reviewers
    assert [j for _, j in read.judgments] == log
    other = make_workspace(tmp_path / "b.sqlite")
    summary = J.import_log(other, read.reviewers, read.judgments, file=read.name, defects=read.defects)
    assert summary["reviewers_added"] == 3 and summary["judgments_added"] == len(log) == 7
    assert J.export_log(other) == (reviewers, log)
    again = write_judgments(tmp_path / f"again.{suffix}", *J.export_log(other))
    def strip(t: str) -> list[str]:
        return [ln for ln in t.splitlines() if '"exported_at"' not in ln]

    assert strip(again.read_text(encoding="utf-8")) == strip(path.read_text(encoding="utf-8"))
    # re-import is a no-op
    assert J.import_log(other, read.reviewers, read.judgments, file=read.name)["judgments_added"] == 0
    other.close()


def test_run_scoped_export_has_only_that_run_and_its_reviewers(populated, tmp_path):
    reviewers, log = J.export_log(populated, ["macron"])
    assert {j.run_id for j in log} == {"macron"} and len(log) == 3
    assert [r.reviewer_id for r in reviewers] == ["r-ana", "r-ben"]
    path = write_judgments(tmp_path / "macron.json", reviewers, log, scope="macron")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == FORMAT and doc["scope"] == "macron"
    assert doc["judgments"][0]["payload"]["classes"] == ["LONG_VOWEL_MACRON", "ORTHOGRAPHIC"]


def test_csv_layout_and_json_layout_are_readable(populated, tmp_path):
    reviewers, log = J.export_log(populated)
    csv_text = write_judgments(tmp_path / "x.csv", reviewers, log).read_text(encoding="utf-8")
    assert csv_text.splitlines()[0] == ",".join(CSV_COLUMNS)
    assert csv_text.splitlines()[1].startswith('reviewer,r-ana,Ana Cardinal,Plains (y-dialect),"[""crk"", ""eng""]"')
    json_text = write_judgments(tmp_path / "x.json", reviewers, log).read_text(encoding="utf-8")
    assert "namôya" in json_text  # not escaped
    lines = json_text.splitlines()
    first_judgment = next(i for i, ln in enumerate(lines) if '"judgment_id": 1,' in ln)
    assert read_judgments(tmp_path / "x.json").judgments[0][0] == first_judgment + 1


def test_hand_written_sheet_with_payload_columns(populated, tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "\ufeffreviewer_id,run_id,entry_id,task,adequacy,fluency,note,word,valid,kind\r\n"
        "r-ben,oracle,3,A,3,4,ok,,,\r\n"
        "r-ben,macron,1,C,,,,nipâw,No,\r\n",
        encoding="utf-8",
    )
    read = read_judgments(sheet)
    assert read.defects == []
    assert [(ln, j.task, j.adequacy, j.payload) for ln, j in read.judgments] == [
        (2, "A", 3, {}), (3, "C", None, {"word": "nipâw", "valid": "No"})]
    J.import_log(populated, read.reviewers, read.judgments, file=read.name)
    cur = J.current_judgments(populated, reviewer_id="r-ben")
    assert [(c.run_id, c.entry_id, c.task) for c in cur][-2:] == [("oracle", "3", "A"), ("macron", "1", "C")]


def test_bad_csv_reports_every_defect_with_its_line_and_writes_nothing(populated, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "record,reviewer_id,name,run_id,entry_id,task,adequacy,fluency,payload\n"
        "reviewer,r-new,New Person,,,,,,\n"
        "judgment,r-ana,,oracle,1,A,7,3,\n"
        "judgment,r-zed,,oracle,1,A,3,3,\n"
        "judgment,r-ana,,nope,1,A,3,3,\n"
        "judgment,r-ana,,oracle,99,A,3,3,\n"
        "judgment,r-ana,,oracle,2,Q,3,3,\n"
        "judgment,r-ana,,oracle,2,A,three,3,\n"
        "judgment,r-ana,,macron,2,B,,,\"{\"\"same_meaning\"\": \"\"Perhaps\"\"}\"\n"
        "judgment,r-new,,macron,2,A,2,2,\n"
        "judgment,r-ana,,oracle,2,A,2\n",
        encoding="utf-8",
    )
    before = J.export_log(populated)
    read = read_judgments(bad)
    with pytest.raises(InputError) as err:
        J.import_log(populated, read.reviewers, read.judgments, file=read.name, defects=read.defects)
    assert [str(d) for d in err.value.defects] == [
        f"{bad}:3: adequacy 7 is out of range 1-5",
        f"{bad}:4: unknown reviewer 'r-zed'",
        f"{bad}:5: unknown run 'nope'",
        f"{bad}:6: unknown entry '99' (not in corpus 'crk-verbs' of run 'oracle')",
        f"{bad}:7: task 'Q' is not one of A, B, C, D, signoff, check",
        f"{bad}:8: adequacy 'three' is not a whole number",
        f"{bad}:9: same_meaning 'Perhaps' is not one of Yes, No, Depends",
        f"{bad}:11: 7 cells, the header has 9",
    ]
    assert J.export_log(populated) == before  # r-new and its judgment were not written either


def test_bad_json_defects_are_located(populated, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "mteval-judgments/1",\n'
        ' "reviewers": [\n'
        '   {"reviewer_id": "r-ana", "name": "Ana Cardinal", "dialect": "Plains (y-dialect)", '
        '"languages": ["crk", "eng"],'
        ' "consent_scope": "research; publication, anonymised"}\n'
        " ],\n"
        ' "judgments": [\n'
        '   {"reviewer_id": "r-ana", "run_id": "oracle", "entry_id": 1, "adequacy": 4},\n'
        '   {"reviewer_id": "r-ana", "run_id": "oracle", "entry_id": "4", "fluency": 0},\n'
        '   {"reviewer_id": "r-ana", "run_id": "oracle", "entry_id": "2", "score": 3},\n'
        '   "not an object"\n'
        " ]}\n",
        encoding="utf-8",
    )
    read = read_judgments(bad)
    assert [str(d) for d in read.defects] == [
        f"{bad}:7: fluency 0 is out of range 1-5",
        f"{bad}:8: unknown judgment field: score",
        f"{bad}:9: a judgment must be a JSON object",
    ]
    assert [(ln, j.entry_id) for ln, j in read.judgments] == [(6, "1")]
    with pytest.raises(InputError):
        J.import_log(populated, read.reviewers, read.judgments, file=read.name, defects=read.defects)

    broken = tmp_path / "broken.json"
    broken.write_text('{"judgments": [\n  {"reviewer_id": "r-ana",\n', encoding="utf-8")
    d = read_judgments(broken).defects
    assert len(d) == 1 and d[0].line == 3 and "invalid JSON" in d[0].message


def test_unknown_extension_and_empty_csv(tmp_path):
    with pytest.raises(InputError, match="use .csv or .json"):
        read_judgments(tmp_path / "x.xlsx")
    empty = tmp_path / "e.csv"
    empty.write_text("", encoding="utf-8")
    assert [str(d) for d in read_judgments(empty).defects] == [f"{empty}:1: empty file: expected a header row"]
    odd = tmp_path / "o.csv"
    odd.write_text("reviewer_id,score\n", encoding="utf-8")
    assert [str(d) for d in read_judgments(odd).defects] == [f"{odd}:1: unknown column: score"]


def test_allowlist_writers(tmp_path):
    rows = [{"word": "namôya", "kind": "Established", "occurrences": 2, "raters": 3, "run_id": "r1", "entry_id": "7"}]
    tsv = write_allowlist(tmp_path / "allow.tsv", rows)
    assert (
        tsv.read_text(encoding="utf-8")
        == "word\tkind\toccurrences\traters\trun_id\tentry_id\nnamôya\tEstablished\t2\t3\tr1\t7\n"
    )
    jl = write_allowlist(tmp_path / "cases.jsonl", rows)
    assert json.loads(jl.read_text(encoding="utf-8")) == {
        "word": "namôya", "expect": "accept", "kind": "Established", "occurrences": 2, "raters": 3,
        "run_id": "r1", "entry_id": "7"}
