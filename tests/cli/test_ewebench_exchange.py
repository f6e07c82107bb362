"""EweBench's own results files: ``mteval ewebench compare`` reads them, ``--format ewebench`` writes them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui.app.bench import rank_results, read_result_json
from mteval_gui.cli import main
from tests.benchmarks.helpers import SMALL_RESPONSES, write_jsonl, write_suite


def _peer(shared_data: Path) -> Path:
    """EweBench's own repository as the shared data hold it (its result files and scripts)."""
    return shared_data.parent / "peers" / "ewebench"


def _reference(model: str, score: float, cats: dict[str, tuple[float, list[tuple[str, float, str]]]]) -> dict:
    """A results file in the shape EweBench's run_benchmark.py writes."""
    out = {}
    for cat, (cscore, details) in cats.items():
        out[cat] = {"score": cscore, "total": len(details), "passed": sum(1 for _, s, _ in details if s >= 0.7),
                    "details": [{"test_id": t, "score": s, "response_preview": r} for t, s, r in details],
                    "skipped": False}
    return {"benchmark": "ÈwéBench", "version": "1.0.0", "run_id": "20261202_022501", "model": model,
            "endpoint": "http://127.0.0.1:1/v1/chat/completions", "timestamp": "2026-12-02T02:25:01.482354",
            "ewe_score": score, "categories": out,
            "summary": {"total_tests": sum(len(d) for _, d in cats.values()), "total_passed": 0,
                        "categories_evaluated": len(cats), "categories_skipped": 0}}


def _write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def test_compare_reads_ewebench_result_files(tmp_path, capsys):
    long = "Ŋdi na wò! " * 30  # a verbose file holds whole responses
    a = _write(tmp_path / "a.json", _reference("mock-a", 45.0, {
        "linguistic_comprehension": (50.0, [("lc1", 1.0, "Ama"), ("lc2", 0.0, long)]),
        "reasoning": (40.0, [("rs1", 0.4, "B")])}))
    b = _write(tmp_path / "b.json", _reference("mock-b", 80.0, {
        "linguistic_comprehension": (80.0, [("lc1", 0.8, "x" * 200), ("lc2", 0.8, "Kofi")])}))
    rc = main(["ewebench", "compare", str(a), str(b)])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[1].split() == ["1", "mock-b", "80.0", "2/2", "80.0", "—"]
    assert out[2].split() == ["2", "mock-a", "45.0", "1/3", "50.0", "40.0"]
    ra = read_result_json(a)
    assert (ra.suite, ra.score_name, ra.active_weight) == ("ewebench", "ÈwéScore", pytest.approx(0.27))
    assert ra.result("lc2").response == long and ra.result("lc2").passed is False
    assert ra.normalisation == {"scored_by": "ÈwéBench reference harness", "harness_version": "1.0.0",
                                "run_id": "20261202_022501"}
    rb = read_result_json(b)
    assert [w.message for w in rb.response_warnings] == [
        "1 responses are 200 characters long: the ÈwéBench reference harness cuts 'response_preview' there "
        "unless run verbose"]


def test_ewebench_result_file_with_a_bad_score_is_refused(tmp_path, capsys):
    data = _reference("m", 10.0, {"reasoning": (10.0, [("rs1", 0.1, "B")])})
    data["categories"]["reasoning"]["details"][0]["score"] = "high"
    bad = _write(tmp_path / "bad.json", data)
    assert main(["ewebench", "compare", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{bad}: categories.reasoning.details[0].score: must be a number from 0 to 1")


def test_ewebench_result_file_with_a_repeated_test_id_is_refused(tmp_path, capsys):
    data = _reference("m", 10.0, {"reasoning": (10.0, [("rs1", 0.1, "B")]),
                                  "translation": (0.0, [("rs1", 0.0, "x")])})
    bad = _write(tmp_path / "bad.json", data)
    assert main(["ewebench", "compare", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{bad}: categories.translation.details[0].test_id: 'rs1' repeats categories.reasoning.details[0]")


def test_format_ewebench_without_an_output_file_is_refused(tmp_path, capsys):
    suite = write_suite(tmp_path / "suite")
    responses = write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES)
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses),
                 "--format", "ewebench"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        "--format: --format ewebench applies to the results file: give -o FILE")


def test_export_ewebench_format_holds_the_ewe_score_and_reads_back(tmp_path, capsys):
    suite = write_suite(tmp_path / "suite")
    responses = write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES)
    out = tmp_path / "ewebench_m1.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "--model", "m1",
                 "-o", str(out), "--format", "ewebench"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    # what EweBench's leaderboard and --compare read
    assert (data["model"], data["ewe_score"], data["timestamp"][:4].isdigit()) == ("m1", 61.1, True)
    assert data["summary"] == {"total_tests": 4, "total_passed": 2, "categories_evaluated": 2,
                               "categories_skipped": 1}
    assert {c: (b["score"], b["total"], b["passed"], b["skipped"]) for c, b in data["categories"].items()} == {
        "linguistic_comprehension": (50.0, 2, 1, False), "reasoning": (75.0, 2, 1, False),
        "translation": (0.0, 0, 0, True)}
    assert data["categories"]["reasoning"]["details"][1] == {"test_id": "rs2", "score": 0.5,
                                                              "response_preview": "Lã le agble me."}
    # EweBench's own suite score from the exported category scores equals the exported one
    w = {"linguistic_comprehension": 0.15, "reasoning": 0.12}
    assert round(sum(data["categories"][c]["score"] * x for c, x in w.items()) / sum(w.values()), 1) == 61.1
    back = read_result_json(out)
    assert (back.model, back.score, back.passed, back.total) == ("m1", 61.1, 2, 4)
    # a stored-format result exports the same way
    full = tmp_path / "full.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "--model", "m1",
                 "-o", str(full)]) == 0
    again = tmp_path / "again.json"
    capsys.readouterr()
    assert main(["ewebench", "export", str(full), "-o", str(again)]) == 0
    assert capsys.readouterr().out == (
        "note: ÈwéBench's leaderboard lists only results/ewebench_*.json files (e.g. ewebench_m1.json)\n"
        f"m1: ÈwéScore 61.1; written to {again} (ewebench format)\n")
    assert json.loads(again.read_text(encoding="utf-8"))["categories"] == data["categories"]


def test_unscorable_tests_leave_the_exported_totals(tmp_path):
    suite = write_suite(tmp_path / "suite", {"reasoning": [
        {"id": "ok", "prompt": "?", "eval_method": "keywords", "expected_keywords": ["ame"]},
        {"id": "noexp", "prompt": "?", "eval_method": "exact_match"}]})
    responses = write_jsonl(tmp_path / "r.jsonl", [{"test_id": "ok", "response": "ame"},
                                                   {"test_id": "noexp", "response": "ame"}])
    out = tmp_path / "e.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses", str(responses), "-o", str(out),
                 "--format", "ewebench"]) == 0
    block = json.loads(out.read_text(encoding="utf-8"))["categories"]["reasoning"]
    assert (block["score"], block["total"], block["passed"], block["unscorable"]) == (100.0, 1, 1, ["noexp"])


@pytest.mark.shared_data
def test_real_ewebench_result_files_compare(shared_data, capsys):
    a, b = _peer(shared_data) / "ewebench_result_a.json", _peer(shared_data) / "ewebench_result_b.json"
    assert main(["ewebench", "compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:4] == ["1", "mock-a", "24.4", "10/100"]
    assert out[2].split()[:4] == ["2", "mock-b", "23.2", "12/100"]
    ranking = rank_results([read_result_json(a), read_result_json(b)])
    assert ranking.caveats == []


def _ewebench(peer: Path, results: Path, code: str, *args: str) -> str:
    """Run ``code`` in a child Python with EweBench's folder first on the path and its ``RESULTS_DIR``
    (a module constant, ``results/`` beside its scripts) pointed at ``results``; its code is unchanged."""
    prelude = (f"import sys; from pathlib import Path; sys.path.insert(0, {str(peer)!r})\n"
               f"import ewe_bench; ewe_bench.RESULTS_DIR = Path({str(results)!r})\n")
    done = subprocess.run([sys.executable, "-c", prelude + code, *args], cwd=peer, capture_output=True, text=True,
                          encoding="utf-8", env={"PYTHONIOENCODING": "utf-8", "PATH": ""}, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.shared_data
def test_real_ewebench_leaderboard_and_compare_show_the_export(shared_data, tmp_path, capsys):
    pytest.importorskip("requests")
    pytest.importorskip("dotenv")
    peer = _peer(shared_data)
    results = tmp_path / "results"
    results.mkdir()
    export = results / "ewebench_mine.json"
    assert main(["ewebench", "score", "--suite", str(shared_data / "ewebench" / "tests"),
                 "--responses", str(peer / "ewebench_result_b.json"), "--model", "mine",
                 "-o", str(export), "--format", "ewebench"]) == 0
    # a stored run exported with `ewebench export` is listed the same way
    db = str(tmp_path / "ws.sqlite")
    assert main(["--db", db, "ewebench", "score", "--suite", str(shared_data / "ewebench" / "tests"),
                 "--responses", str(peer / "ewebench_result_a.json"), "--model", "stored", "--save"]) == 0
    run_id = capsys.readouterr().out.splitlines()[-1].rsplit(" as ", 1)[1]
    assert main(["--db", db, "ewebench", "export", run_id, "-o", str(results / "ewebench_stored.json")]) == 0
    (results / "ewebench_mock-a.json").write_bytes((peer / "ewebench_result_a.json").read_bytes())
    ours = {name: read_result_json(results / f"ewebench_{name}.json") for name in ("mine", "stored")}

    # its leaderboard (`run_benchmark.py --leaderboard`): rank, model, ÈwéScore, passed/tests, date
    out = _ewebench(peer, results, "import run_benchmark\nsys.argv = ['run_benchmark.py', '--leaderboard']\n"
                                   "run_benchmark.main()")
    rows = [line.split()[1:5] for line in out.splitlines() if "/100 " in line]
    today = json.loads(export.read_text(encoding="utf-8"))["timestamp"][:10]
    assert rows == [["mock-a", "24.4", "10/100", "2026-12-02"], ["stored", "22.0", "9/100", today],
                    ["mine", "20.8", "12/100", today]]
    assert [f"{ours[m].score:.1f}" for m in ("stored", "mine")] == ["22.0", "20.8"]
    assert (ours["mine"].passed, ours["mine"].total) == (12, 100)

    # its own ÈwéScore (run_full_benchmark's weighted mean over its CATEGORIES weights) of the exported
    # category blocks equals the exported ÈwéScore
    code = """import json
data = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
bench = ewe_bench.EweBench("http://127.0.0.1:9/unused", "recount")
bench.run_category = lambda cat, verbose=False: data["categories"][cat]
report = bench.run_full_benchmark(verbose=False)
print(json.dumps({"ewe_score": report["ewe_score"], "summary": report["summary"]}))
"""
    for name in ("mine", "stored"):
        path = results / f"ewebench_{name}.json"
        recount = json.loads(_ewebench(peer, tmp_path / "recount", code, str(path)).splitlines()[-1])
        data = json.loads(path.read_text(encoding="utf-8"))
        assert recount == {"ewe_score": data["ewe_score"], "summary": data["summary"]}
    assert recount["ewe_score"] == 22.0

    # its --compare: every category score of the export beside EweBench's own file for the same responses
    out = _ewebench(peer, results, "import run_benchmark\nsys.argv = ['run_benchmark.py', '--compare', *sys.argv[1:]]\n"
                                   "run_benchmark.main()", str(export), str(peer / "ewebench_result_b.json"))
    shown = {line[:32].strip(): line[32:].split()[:2] for line in out.splitlines()
             if line.startswith("  ") and len(line[32:].split()) >= 3}
    data = json.loads(export.read_text(encoding="utf-8"))
    for cat, block in data["categories"].items():
        assert shown[cat.replace("_", " ").title()][0] == f"{block['score']:.1f}"
    assert shown["Agentic"] == ["55.0", "30.0"] and shown["ÈwéScore GLOBAL"] == ["20.8", "23.2"]


def test_comparing_with_an_ewebench_file_flags_the_other_scorer(tmp_path, capsys):
    suite = write_suite(tmp_path / "suite")
    ours = tmp_path / "ours.json"
    assert main(["ewebench", "score", "--suite", str(suite), "--responses",
                 str(write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES)), "--model", "m1", "-o", str(ours)]) == 0
    theirs = _write(tmp_path / "theirs.json", _reference("mock-a", 45.0, {
        "linguistic_comprehension": (50.0, [("lc1", 1.0, "Ama"), ("lc2", 0.0, "Yao")]),
        "reasoning": (40.0, [("rs1", 0.4, "B"), ("rs2", 0.4, "B")])}))
    caveats = rank_results([read_result_json(ours), read_result_json(theirs)]).caveats
    assert caveats == [
        "suite_differs: the results were scored on different suite files",
        "scorer_differs: some results were scored by another program (mock-a: ÈwéBench reference harness), "
        "whose methods differ"]


def test_export_a_stored_run_for_ewebench(tmp_path, capsys):
    db = tmp_path / "ws.sqlite"
    suite = write_suite(tmp_path / "suite")
    responses = write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES)
    assert main(["--db", str(db), "ewebench", "score", "--suite", str(suite), "--responses", str(responses),
                 "--model", "m1", "--save"]) == 0
    run_id = capsys.readouterr().out.splitlines()[-1].rsplit(" as ", 1)[1]
    out = tmp_path / "ewebench_m1.json"
    assert main(["--db", str(db), "ewebench", "export", run_id, "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"m1: ÈwéScore 61.1; written to {out} (ewebench format)\n"
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["model"], data["ewe_score"], data["summary"]["total_passed"]) == ("m1", 61.1, 2)
