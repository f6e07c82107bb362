"""Reading responses in every supported shape; writing and reading results (JSON, CSV); storing runs."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mteval_gui.app.bench import (
    BenchmarkRunNotFound,
    delete_benchmark_run,
    get_benchmark_run,
    list_benchmark_runs,
    read_responses,
    read_result_json,
    save_benchmark_run,
    score_suite,
    write_result_json,
    write_results_csv,
)
from mteval_gui.domain.benchmark import Responses
from mteval_gui.errors import InputError
from mteval_gui.io.benchmark_export import TEST_COLUMNS, categories_csv, results_csv
from tests.benchmarks.helpers import SMALL_EWE_SCORE, SMALL_RESPONSES, read_suite, write_jsonl, write_suite


@pytest.fixture
def suite(tmp_path):
    return read_suite(write_suite(tmp_path / "suite"))


def _scores(result):
    return {t.test_id: t.score for t in result.tests}


def test_jsonl_with_run_metadata_line(tmp_path, suite):
    p = tmp_path / "r.jsonl"
    write_jsonl(p, [{"run": {"model": "gpt-x", "temperature": 0.3}}] + SMALL_RESPONSES)
    r = read_responses(p, suite)
    assert r.model == "gpt-x" and set(r.records) == {"lc1", "lc2", "rs1", "rs2"}
    assert r.records["lc2"].line == 3
    result = score_suite(suite, r)
    assert result.model == "gpt-x" and result.score == pytest.approx(SMALL_EWE_SCORE)


def test_json_list_object_and_mapping_shapes_give_the_same_scores(tmp_path, suite):
    base = score_suite(suite, read_responses(write_jsonl(tmp_path / "a.jsonl", SMALL_RESPONSES), suite))
    as_list = tmp_path / "b.json"
    as_list.write_text(json.dumps(SMALL_RESPONSES, ensure_ascii=False, indent=1), encoding="utf-8")
    as_obj = tmp_path / "c.json"
    as_obj.write_text(json.dumps({"model": "m", "responses": SMALL_RESPONSES}, ensure_ascii=False), encoding="utf-8")
    as_map = tmp_path / "d.json"
    as_map.write_text(
        json.dumps({r["test_id"]: r["response"] for r in SMALL_RESPONSES}, ensure_ascii=False), encoding="utf-8"
    )
    jsonl_in_json = tmp_path / "e.json"
    jsonl_in_json.write_text("".join(json.dumps(r) + "\n" for r in SMALL_RESPONSES), encoding="utf-8")
    for p in (as_list, as_obj, as_map, jsonl_in_json):
        assert _scores(score_suite(suite, read_responses(p, suite))) == _scores(base), p.name
    assert read_responses(as_list, suite).records["lc2"].line == 6  # item start lines in a JSON list


def test_folder_of_category_files_with_id_key(tmp_path, suite):
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "linguistic_comprehension.json").write_text(json.dumps([
        {"id": "lc1", "response": "Ama."}, {"id": "lc2", "response": "Yao"}]), encoding="utf-8")
    write_jsonl(folder / "reasoning.jsonl", [{"id": "rs1", "response": "Afɔ nye ame."},
                                             {"id": "rs2", "response": "Lã le agble me."}])
    (folder / "notes.txt").write_text("ignored", encoding="utf-8")
    result = score_suite(suite, read_responses(folder, suite), model="m")
    assert result.score == pytest.approx(SMALL_EWE_SCORE)


def test_folder_duplicate_across_files_is_an_error(tmp_path, suite):
    folder = tmp_path / "results"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", [{"test_id": "lc1", "response": "Ama"}])
    write_jsonl(folder / "b.jsonl", [{"test_id": "lc1", "response": "Kofi"}])
    with pytest.raises(InputError) as ei:
        read_responses(folder, suite)
    assert "lc1: answered twice" in str(ei.value)


def test_reference_report_shape_is_read_with_a_warning(tmp_path, suite):
    report = {"benchmark": "ÈwéBench", "model": "ref-model", "ewe_score": 12.0, "categories": {
        "linguistic_comprehension": {"score": 50.0, "details": [
            {"test_id": "lc1", "score": 1.0, "response_preview": "Ama"},
            {"test_id": "lc2", "score": 0.0, "response_preview": "[ERROR] 401 Unauthorized"}]},
        "reasoning": {"skipped": True, "details": []}}}
    p = tmp_path / "ewebench_ref.json"
    p.write_text(json.dumps(report), encoding="utf-8")
    r = read_responses(p, suite)
    assert r.model == "ref-model"
    assert r.records["lc2"].error == "[ERROR] 401 Unauthorized" and r.records["lc2"].response is None
    assert [w.kind for w in r.warnings] == ["truncated_responses"]
    result = score_suite(suite, r)
    assert result.category("linguistic_comprehension").score == 50.0
    assert [t.test_id for t in result.provider_errors] == ["lc2"]


def test_error_prefix_unknown_ids_and_tool_calls(tmp_path, suite):
    p = write_jsonl(tmp_path / "r.jsonl", [
        {"test_id": "lc1", "response": "  [ERROR] timeout"},
        {"test_id": "zz9", "response": "?"},
        {"test_id": "rs1", "response": "", "tool_calls": [{"name": "search_web"}]},
        {"test_id": "rs2", "response": "Lã le agble me.", "error": ""},
        {"test_id": 7, "response": "numeric id"},
    ])
    r = read_responses(p, suite)
    assert r.records["lc1"].error == "[ERROR] timeout" and r.records["lc1"].response is None
    assert r.records["rs1"].tool_calls == [{"name": "search_web"}]
    assert r.records["rs2"].error is None  # an empty error string is no error
    assert "7" in r.records
    assert [(w.test_id, w.kind, w.line) for w in r.warnings] == [("zz9", "unknown_test", 2), ("7", "unknown_test", 5)]


def test_unreadable_inputs(tmp_path):
    with pytest.raises(InputError):
        read_responses(tmp_path / "absent.jsonl")
    with pytest.raises(InputError):
        read_suite(tmp_path / "absent")
    (tmp_path / "empty_suite").mkdir()
    with pytest.raises(InputError) as ei:
        read_suite(tmp_path / "empty_suite")
    assert "no <category>.json" in str(ei.value)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'[{"test_id": "a", "response": "\xff"}]')
    with pytest.raises(InputError) as ei:
        read_responses(bad)
    assert ei.value.defects[0].line == 1 and "invalid UTF-8" in ei.value.defects[0].message


# --------------------------------------------------------------------------------- export

@pytest.fixture
def result(tmp_path, suite):
    records = SMALL_RESPONSES + [{"test_id": "tr1", "error": "HTTP 500"}]
    return score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite), model="m1")


def test_json_round_trip(tmp_path, result):
    p = tmp_path / "out" / "results.json"
    write_result_json(result, p)
    back = read_result_json(p)
    assert back == result
    data = json.loads(p.read_text(encoding="utf-8"))
    assert data["benchmark"] == "ÈwéBench" and data["model"] == "m1"
    assert data["score"] == pytest.approx((7.5 + 9.0) / 0.39)


def test_read_result_json_rejects_other_files(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"model": "m"}', encoding="utf-8")
    with pytest.raises(InputError):
        read_result_json(p)
    p.write_text('{"benchmark": "ÈwéBench", "model": 3}', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        read_result_json(p)
    assert any("model" in d.message for d in ei.value.defects)


def test_csv_exports(tmp_path, result):
    rows = list(csv.DictReader(io.StringIO(results_csv(result))))
    assert list(rows[0]) == TEST_COLUMNS
    assert len(rows) == 5
    by_id = {r["test_id"]: r for r in rows}
    assert by_id["lc1"]["score"] == "1.0000" and by_id["lc1"]["passed"] == "1"
    assert by_id["tr1"]["status"] == "error" and by_id["tr1"]["error"] == "HTTP 500"
    assert by_id["rs2"]["explanation"].startswith("keywords found 1/2: agble")
    p = tmp_path / "r.csv"
    write_results_csv(result, p)
    assert p.read_text(encoding="utf-8") == results_csv(result)
    cats = list(csv.DictReader(io.StringIO(categories_csv([result]))))
    assert [(c["category"], c["score"], c["active"]) for c in cats] == [
        ("linguistic_comprehension", "50.00", "1"), ("reasoning", "75.00", "1"), ("translation", "0.00", "1")]


# ---------------------------------------------------------------------------------- store

def test_store_round_trip(workspace, result, suite):
    run_id = save_benchmark_run(workspace, result)
    assert run_id.startswith("ewb-")
    back = get_benchmark_run(workspace, run_id)
    assert back == result
    runs = list_benchmark_runs(workspace)
    assert len(runs) == 1
    s = runs[0]
    assert s.model == "m1" and s.score == pytest.approx(result.score)
    assert s.categories == {"linguistic_comprehension": 50.0, "reasoning": 75.0, "translation": 0.0}
    # saving the same scoring again replaces it
    assert save_benchmark_run(workspace, result) == run_id
    assert len(list_benchmark_runs(workspace)) == 1
    n = workspace.conn.execute("SELECT COUNT(*) FROM benchmark_results").fetchone()[0]
    assert n == 5
    other = score_suite(suite, Responses(), model="m2")
    other_id = save_benchmark_run(workspace, other)
    assert other_id != run_id
    assert get_benchmark_run(workspace, other_id).score is None
    assert {r.model for r in list_benchmark_runs(workspace)} == {"m1", "m2"}
    delete_benchmark_run(workspace, run_id)
    assert workspace.conn.execute("SELECT COUNT(*) FROM benchmark_results WHERE bench_run_id = ?",
                                  (run_id,)).fetchone()[0] == 0
    with pytest.raises(BenchmarkRunNotFound):
        get_benchmark_run(workspace, run_id)
    with pytest.raises(BenchmarkRunNotFound):
        delete_benchmark_run(workspace, run_id)


@pytest.mark.shared_data
def test_store_real_suite_result(workspace, shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    records = [{"test_id": t.id, "response": "Ŋdi na wò. Mele nyuie!"} for t in suite.tests]
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite), model="real")
    back = get_benchmark_run(workspace, save_benchmark_run(workspace, result))
    assert back == result
    assert len(back.suite_defects) == len(suite.defects)
