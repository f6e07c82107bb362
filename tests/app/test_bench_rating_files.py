"""Speakers' ratings of benchmark responses in judgment files: export, import, withdrawal."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.bench import rate_response, read_responses, save_benchmark_run, score_suite
from mteval_gui.app.consent import export_reviewer_judgments, withdraw_reviewer
from mteval_gui.app.exports import export_judgments
from mteval_gui.app.judgment_files import import_judgments_file
from mteval_gui.domain.judgments import BenchmarkJudgment, Reviewer
from mteval_gui.errors import InputError
from mteval_gui.io.judgments import read_judgments, write_judgments
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.store.benchmarks import export_ratings
from tests.benchmarks.helpers import SMALL_RESPONSES, read_suite, write_jsonl, write_suite

RATINGS = [
    BenchmarkJudgment(judgment_id=7, reviewer_id="kofi", suite="ewebench", bench_run_id="ewb-1", test_id="lc1",
                      adequacy=4, fluency=5, note="clair, « bien »", version=1, created_at="2026-01-02T10:00:00+00:00",
                      superseded_by=9),
    BenchmarkJudgment(judgment_id=9, reviewer_id="kofi", suite="ewebench", bench_run_id="ewb-1", test_id="lc1",
                      adequacy=2, fluency=None, note=None, version=2, created_at="2026-01-02T10:05:00+00:00"),
]


@pytest.mark.parametrize("suffix", ["json", "csv"])
def test_ratings_round_trip_unchanged_beside_the_judgments(tmp_path, suffix):
    path = write_judgments(tmp_path / f"log.{suffix}", [Reviewer(reviewer_id="kofi", name="Kofi")], [],
                           benchmark=RATINGS)
    read = read_judgments(path)
    assert read.defects == [] and read.judgments == []
    assert [b for _, b in read.benchmark] == RATINGS
    assert [line for line, _ in read.benchmark] == ([8, 9] if suffix == "json" else [3, 4])
    if suffix == "json":
        item = json.loads(path.read_text(encoding="utf-8"))["judgments"][0]
        assert (item["kind"], item["suite"], item["bench_run_id"], item["test_id"]) == ("benchmark", "ewebench",
                                                                                       "ewb-1", "lc1")
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].endswith(",suite,bench_run_id,test_id")
        assert lines[3] == ("benchmark,kofi,,,,,9,,,,2,,,,,2,2026-01-02T10:05:00+00:00,,,ewebench,ewb-1,lc1")


def test_a_file_without_ratings_keeps_its_columns(tmp_path):
    path = write_judgments(tmp_path / "log.csv", [Reviewer(reviewer_id="kofi", name="Kofi")], [])
    assert path.read_text(encoding="utf-8").splitlines()[0] == (
        "record,reviewer_id,name,dialect,languages,consent_scope,judgment_id,run_id,entry_id,task,adequacy,fluency,"
        "note,flagged,payload,version,created_at,superseded_by,undone")


def test_bad_rating_records_are_named_by_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"judgments": [
        {"kind": "benchmark", "reviewer_id": "kofi", "bench_run_id": "ewb-1", "test_id": "lc1", "adequacy": 6},
        {"kind": "benchmark", "reviewer_id": "kofi", "bench_run_id": "ewb-1", "test_id": "lc1"},
        {"kind": "bench", "reviewer_id": "kofi"},
    ]}, indent=1), encoding="utf-8")
    read = read_judgments(path)
    assert [(d.line, d.message) for d in read.defects] == [
        (3, "adequacy 6 is out of range 1-5"),
        (10, "a benchmark rating needs adequacy or fluency (1-5)"),
        (16, "kind 'bench' is not 'judgment' or 'benchmark'"),
    ]


@pytest.fixture
def stored(tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite),
                         model="good")

    def make(name: str) -> tuple[Workspace, str]:
        ws = Workspace(tmp_path / f"{name}.sqlite")
        return ws, save_benchmark_run(ws, result)

    a, run_id = make("a")
    J.add_reviewer(a, Reviewer(reviewer_id="kofi", name="Kofi", languages=["ewe"]))
    J.add_reviewer(a, Reviewer(reviewer_id="ama", name="Ama", languages=["ewe"]))
    rate_response(a, run_id, "lc1", "kofi", 4, 5, "clear")
    rate_response(a, run_id, "lc1", "kofi", 2, 5)
    rate_response(a, run_id, "rs1", "ama", 5, 3)
    b, _ = make("b")
    yield a, b, run_id
    a.close()
    b.close()


def _ratings(ws):
    return [(r.reviewer_id, r.test_id, r.adequacy, r.fluency, r.note, r.version, r.superseded_by is None)
            for r in export_ratings(ws)]


@pytest.mark.parametrize("suffix", ["json", "csv"])
def test_export_and_import_carry_every_version_into_another_workspace(stored, tmp_path, suffix):
    a, b, run_id = stored
    path, n, reviewers = export_judgments(a, tmp_path / f"all.{suffix}")
    assert (n, reviewers) == (0, 2)
    summary = import_judgments_file(b, path)
    assert (summary["reviewers_added"], summary["benchmark_ratings_added"],
            summary["benchmark_ratings_unchanged"]) == (2, 3, 0)
    expected = [("kofi", "lc1", 4, 5, "clear", 1, False), ("kofi", "lc1", 2, 5, None, 2, True),
                ("ama", "rs1", 5, 3, None, 1, True)]
    assert _ratings(b) == _ratings(a) == expected
    assert {r.suite for r in export_ratings(b)} == {"ewebench"} and {r.bench_run_id for r in export_ratings(b)} == {
        run_id}
    # again: nothing new
    again = import_judgments_file(b, path)
    assert (again["benchmark_ratings_added"], again["benchmark_ratings_unchanged"]) == (0, 3)
    assert _ratings(b) == expected


def test_a_reviewers_own_export_holds_her_ratings(stored, tmp_path):
    a, _, run_id = stored
    path, n = export_reviewer_judgments(a, "kofi", tmp_path / "kofi.json")
    items = json.loads(path.read_text(encoding="utf-8"))["judgments"]
    assert n == 2
    assert [(i["kind"], i["reviewer_id"], i["test_id"], i["adequacy"], i["version"]) for i in items] == [
        ("benchmark", "kofi", "lc1", 4, 1), ("benchmark", "kofi", "lc1", 2, 2)]


def test_a_bad_rating_refuses_the_whole_file(stored, tmp_path):
    a, b, run_id = stored
    path, _, _ = export_judgments(a, tmp_path / "all.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["judgments"][2]["test_id"] = "zz9"
    doc["judgments"][1]["suite"] = "otherbench"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_judgments_file(b, path)
    text = str(err.value)
    assert f"no response to test 'zz9' in stored benchmark run '{run_id}'" in text
    assert f"benchmark run '{run_id}' is of suite 'ewebench', not 'otherbench'" in text
    assert J.list_reviewers(b) == [] and _ratings(b) == []


def test_ratings_of_a_withdrawn_reviewer_are_refused_on_import(stored, tmp_path):
    a, _, run_id = stored
    own, _ = export_reviewer_judgments(a, "kofi", tmp_path / "kofi.csv")
    everything, _, _ = export_judgments(a, tmp_path / "all.json")
    withdraw_reviewer(a, "kofi", "community lead")
    assert _ratings(a) == [("ama", "rs1", 5, 3, None, 1, True)]
    day = next(r["done_at"] for r in J.consent.consent_log(a) if r["action"] == "withdraw")[:10]
    for path in (own, everything):
        summary = import_judgments_file(a, path)
        assert summary["judgments_withdrawn"] == 2
        assert summary["notices"] == [f"{path}: 2 judgments of reviewer 'kofi' and their reviewer record skipped: "
                                      f"kofi withdrew consent on {day}"]
        assert J.get_reviewer(a, "kofi") is None
        assert _ratings(a) == [("ama", "rs1", 5, 3, None, 1, True)]
    # a new rating without an id or time, once she is readmitted, counts as made now
    J.add_reviewer(a, Reviewer(reviewer_id="kofi", name="Kofi", languages=["ewe"], consent_scope="research"),
                   readmit=True, done_by="lead")
    fresh = tmp_path / "fresh.json"
    fresh.write_text(json.dumps({"judgments": [{"kind": "benchmark", "reviewer_id": "kofi", "bench_run_id": run_id,
                                                "test_id": "lc2", "adequacy": 3, "fluency": 4}]}), encoding="utf-8")
    assert import_judgments_file(a, fresh)["benchmark_ratings_added"] == 1
    # her old export stays out even now
    summary = import_judgments_file(a, everything)
    assert summary["judgments_withdrawn"] == 2 and summary["benchmark_ratings_added"] == 0
    assert _ratings(a) == [("ama", "rs1", 5, 3, None, 1, True), ("kofi", "lc2", 3, 4, None, 1, True)]


def test_the_command_line_exports_and_imports_them(stored, tmp_path, capsys):
    from mteval_gui.cli import main

    a, b, _ = stored
    path = tmp_path / "all.json"
    assert main(["--db", str(a.path), "judgments", "export", "--all", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["--db", str(b.path), "judgments", "import", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "imported 0 judgments (0 already present), 2 new reviewers (0 already present)",
        "imported 3 ratings of benchmark responses (0 already present)"]
    assert _ratings(b) == _ratings(a)
