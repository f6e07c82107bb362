"""``mteval ewebench score | compare | validate | list``."""

from __future__ import annotations

import csv
import json

import pytest

from mteval_gui.cli import main
from tests.benchmarks.helpers import SMALL_RESPONSES, write_jsonl, write_suite


@pytest.fixture
def files(tmp_path):
    suite = write_suite(tmp_path / "suite")
    records = SMALL_RESPONSES + [{"test_id": "zz", "response": "?"}]
    return suite, write_jsonl(tmp_path / "r.jsonl", records)


def test_score_prints_table_and_ewe_score(files, tmp_path, capsys):
    suite, responses = files
    out_json = tmp_path / "res.json"
    out_csv = tmp_path / "res.csv"
    rc = main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "--model", "m1",
               "-o", str(out_json), "--csv", str(out_csv)])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.splitlines()
    table = [line.split() for line in lines[3:7]]
    assert table == [
        ["category", "score", "passed", "weight", "active"],
        ["linguistic_comprehension", "50.0", "1/2", "0.15", "yes"],
        ["reasoning", "75.0", "1/2", "0.12", "yes"],
        ["translation", "—", "–/1", "0.12", "no", "(no", "responses)"],
    ]
    assert "ÈwéScore: 61.1 / 100   tests passed: 2/4   active weight 0.27 of 0.39" in lines
    assert "inactive categories (partial run, left out of the ÈwéScore): translation" in lines
    assert f"  warning: {responses}:5: zz: the suite has no test with this id; ignored" in lines
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["score"] == pytest.approx(550 / 9)
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert [r["test_id"] for r in rows] == ["lc1", "lc2", "rs1", "rs2", "tr1"]


def test_score_details_and_provider_errors(tmp_path, capsys):
    suite = write_suite(tmp_path / "suite")
    responses = write_jsonl(tmp_path / "r.jsonl", [{"test_id": "lc1", "error": "HTTP 503"},
                                                   {"test_id": "rs2", "response": "Lã le agble me."}])
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "--details"]) == 0
    out = capsys.readouterr().out
    assert "Provider errors (1, scored 0):\n  lc1: HTTP 503\n" in out
    assert "Missing responses (2, scored 0): lc2, rs1" in out
    assert "      keywords found 1/2: agble" in out
    assert "ÈwéBench — model: r" in out  # model name from the responses file name


@pytest.mark.shared_data
def test_score_real_suite_with_empty_responses(shared_data, tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    rc = main(["ewebench", "score", "--suite", str(shared_data / "ewebench" / "tests"), "--responses", str(empty)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "ÈwéScore: — / 100  (no category has a response)" in out
    for tid in (
        "rs_logic_02",
        "rs_logic_04",
        "rs_logic_05",
        "rs_logic_07",
        "rs_logic_10",
        "rs_logic_11",
        "rs_logic_12",
    ):
        assert "  error: reasoning.json:" in out and f": {tid}: exact_match test has no 'expected'" in out
    assert "Suite defects (7 errors, 1 warning, 40 notes):" in out  # a repeated keyword


@pytest.mark.shared_data
def test_validate_real_suite(shared_data, capsys):
    rc = main(["ewebench", "validate", "--suite", str(shared_data / "ewebench" / "tests")])
    out = capsys.readouterr().out
    assert rc == 1
    assert out.splitlines()[0].startswith("suite ") and ": 107 tests (linguistic_comprehension 15," in out
    assert out.count("  error: reasoning.json:") == 7
    assert "if_format_01" not in out  # list_item_count is checked
    assert "if_format_07" not in out and "rb_rolebreak_10" not in out  # their criteria are all checked
    assert "proverb_count" not in out and "neutrality" not in out
    assert "note:" not in out
    main(["ewebench", "validate", "--all", "--suite", str(shared_data / "ewebench" / "tests")])
    assert capsys.readouterr().out.count("  note: ") == 40


def test_validate_clean_suite(files, capsys):
    suite, _ = files
    assert main(["ewebench", "validate", "--suite", str(suite)]) == 0
    assert "no defects" in capsys.readouterr().out


def test_bad_responses_exit_2_and_store_nothing(files, tmp_path, capsys):
    suite, _ = files
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"test_id": "lc1", "response": "Ama"}\n{"test_id": "lc1"}\n', encoding="utf-8")
    db = tmp_path / "ws.sqlite"
    rc = main(["--db", str(db), "ewebench", "score", "--suite", str(suite), "--responses", str(bad), "--save"])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"{bad}:2: lc1: record has neither response nor error" in err
    assert not db.exists()


def test_save_list_and_compare(files, tmp_path, capsys):
    suite, responses = files
    db = tmp_path / "ws.sqlite"
    assert main(["--db", str(db), "ewebench", "score", "--suite", str(suite), "--responses", str(responses),
                 "--model", "good", "--save"]) == 0
    out = capsys.readouterr().out
    run_id = out.strip().splitlines()[-1].split(" as ")[-1]
    assert run_id.startswith("ewb-")
    full = write_jsonl(tmp_path / "full.jsonl", SMALL_RESPONSES + [{"test_id": "tr1", "response": "Ŋdi"}])
    best_json = tmp_path / "best.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(full), "--model", "best",
                 "-o", str(best_json)]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "ewebench", "list"]) == 0
    listing = capsys.readouterr().out
    assert run_id in listing and "good" in listing and "61.1" in listing
    rank_csv = tmp_path / "rank.csv"
    assert main(["--db", str(db), "ewebench", "compare", str(best_json), run_id, "--csv", str(rank_csv)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["#", "model", "ÈwéScore", "passed", "ling", "reas", "trans"]
    assert lines[1].split() == ["1", "best", "73.1", "3/5", "50.0", "75.0", "100.0"]
    assert lines[2].split() == ["2", "good", "61.1", "2/4", "50.0", "75.0", "—"]
    assert "coverage_differs" in out
    rows = list(csv.DictReader(rank_csv.open(encoding="utf-8")))
    assert [r["model"] for r in rows] == ["best", "good"]
    assert main(["--db", str(db), "ewebench", "compare", "--stored"]) == 0
    assert "good" in capsys.readouterr().out


def test_compare_unknown_item(tmp_path, capsys):
    db = tmp_path / "ws.sqlite"
    assert main(["--db", str(db), "ewebench", "compare", "ewb-nothing"]) == 2
    assert "ewb-nothing: neither a results file nor a stored ÈwéBench run id" in capsys.readouterr().err


def test_score_never_writes_over_its_responses_or_a_suite_file(files, tmp_path, capsys):
    suite, responses = files
    before = responses.read_bytes()
    suite_file = sorted(suite.iterdir())[0]
    for flag, target in (("-o", responses), ("--csv", suite_file)):
        kept = target.read_bytes()
        rc = main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), flag, str(target)])
        assert rc == 2
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith(f"{target}: refused: it is an input of this command (")
        assert target.read_bytes() == kept
    assert responses.read_bytes() == before


LIMITATIONS = [
    "Known limitations of ÈwéBench's scoring:",
    "  1. The Ewe quality heuristic is rule-based, not learned: it can miss valid Ewe or reward superficial "
    "patterns.",
    "  2. Keyword matching does not account for synonyms or paraphrases.",
    "  3. No human evaluation takes part in an automated run: ÈwéScore is an approximation.",
    "  4. Tonal accuracy cannot be checked in written text (Ewe is tonal but rarely written with tone marks).",
]


def test_results_and_rankings_end_with_the_methodology_limitations(files, tmp_path, capsys):
    suite, responses = files
    out_json = tmp_path / "res.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "-o", str(out_json)]) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index(LIMITATIONS[0])
    assert out[start:start + 5] == LIMITATIONS
    assert main(["ewebench", "compare", str(out_json)]) == 0
    assert capsys.readouterr().out.splitlines()[-5:] == LIMITATIONS
