"""The benchmark-suite framework knows no suite: a plugin's own suite gets the commands, storage and
results ÈwéBench gets; data written before suites were plugins is still read."""

from __future__ import annotations

import importlib.metadata
import json
import textwrap

import pytest

from mteval_gui.app import bench
from mteval_gui.cli import main
from mteval_gui.standards import ENTRY_POINT_GROUP, Plugins, discover_plugins, installed_plugins
from tests.benchmarks.helpers import SMALL_RESPONSES, read_suite, write_jsonl, write_suite

TOY_SUITE = '''
from mteval_gui.benchmarks.suite import BenchmarkSuite, SuiteCategory
from mteval_gui.domain.benchmark import BenchTest, SuiteDefect


class ToyTest(BenchTest):
    answer: str = ""


class ToyBench(BenchmarkSuite):
    name = "toybench"
    title = "ToyBench"
    score_name = "ToyScore"
    run_id_prefix = "toy"
    categories = (SuiteCategory("easy", "Easy questions", 0.75, "Easy"),
                  SuiteCategory("hard", "Hard questions", 0.25, "Hard"))
    scoring_rules = "a response equal to the answer scores 1"

    def check_test(self, raw, *, category, file, line, index):
        if "answer" not in raw:
            return ToyTest(id=str(raw["id"]), category=category, unscorable="no answer"), [
                SuiteDefect(file=file, line=line, test_id=str(raw["id"]), kind="no_answer", message="no answer")]
        return ToyTest(id=str(raw["id"]), category=category, method="equal", prompt=raw.get("q"),
                       answer=raw["answer"]), []

    def score_test(self, test, response, tool_calls, resources):
        ok = response.strip() == test.answer
        return float(ok), {"method": "equal", "score": float(ok), "lines": [f"expected {test.answer!r}"]}


SUITE = ToyBench()
'''


@pytest.fixture
def toy_plugin(tmp_path, monkeypatch):
    """A plugin package providing a suite of its own, found through an entry point."""
    pkg = tmp_path / "toy_std"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "suite.py").write_text(textwrap.dedent(TOY_SUITE), encoding="utf-8")
    (pkg / "plugin.py").write_text(
        'PLUGIN = {"name": "toy_std", "packages": ["toy_std"], "suites": [{"name": "toybench", "title": "ToyBench", '
        '"python_name": "toy_std.suite:SUITE", "description": "score toy suites"}]}\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = importlib.metadata.EntryPoint("toy_std", "toy_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    extra = discover_plugins([(ep, "toy-std", "1.0", False)])
    assert extra.problems == ()
    both = Plugins(installed_plugins().plugins + extra.plugins)
    monkeypatch.setattr(bench, "installed_plugins", lambda: both)
    bench._load.cache_clear()
    yield tmp_path
    bench._load.cache_clear()


def test_a_plugin_suite_gets_the_commands_storage_and_results_of_any_suite(toy_plugin, tmp_path, capsys):
    assert [s.name for s in bench.suite_infos()] == ["ewebench", "toybench"]
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "easy.json").write_text(json.dumps([{"id": "e1", "q": "1+1", "answer": "2"},
                                                  {"id": "e2", "q": "2+2", "answer": "4"}]), encoding="utf-8")
    (folder / "hard.json").write_text(json.dumps([{"id": "h1", "q": "?"}]), encoding="utf-8")
    (folder / "odd.json").write_text(json.dumps([{"id": "o1", "answer": "x"}]), encoding="utf-8")
    responses = write_jsonl(tmp_path / "r.jsonl", [{"test_id": "e1", "response": "2"},
                                                   {"test_id": "e2", "response": "5"},
                                                   {"test_id": "h1", "response": "?"}])
    db = tmp_path / "ws.sqlite"
    out_json = tmp_path / "toy.json"
    assert main(["--db", str(db), "toybench", "score", "--suite", str(folder), "--responses", str(responses),
                 "--model", "m", "-o", str(out_json), "--save"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ToyBench — model: m"
    assert [line.split() for line in out[3:7]] == [
        ["category", "score", "passed", "weight", "active"],
        ["easy", "50.0", "1/2", "0.75", "yes"],
        ["hard", "—", "0/1", "0.25", "yes"],  # its one test is unscorable: no score, left out
        ["odd", "—", "–/1", "0.00", "no", "(no", "responses)"],
    ]
    assert "ToyScore: 50.0 / 100   tests passed: 1/3   active weight 0.75 of 1.00" in out
    assert "  warning: odd.json: 'odd' is not a category of ToyBench; its tests are scored with weight 0" in out
    assert "  error: hard.json:1: h1: no answer" in out
    run_id = out[-1].split(" as ")[-1]
    assert run_id.startswith("toy-")
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert (data["suite"], data["benchmark"], data["score_name"], data["score"]) == ("toybench", "ToyBench",
                                                                                      "ToyScore", 50.0)
    # the same commands under `mteval bench`; stored runs are listed per suite
    assert main(["--db", str(db), "bench", "toybench", "list"]) == 0
    listing = capsys.readouterr().out
    assert run_id in listing and "ToyScore" in listing
    assert main(["--db", str(db), "ewebench", "list"]) == 0
    assert capsys.readouterr().out == "no ÈwéBench runs stored\n"
    assert main(["--db", str(db), "bench", "toybench", "compare", str(out_json), run_id]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "model", "ToyScore", "passed", "easy", "hard", "odd"]
    # results of two suites compared are flagged
    ewb = bench.open_suite("ewebench")
    suite = ewb.read_suite(write_suite(tmp_path / "ewb"))
    ewe_result = ewb.score_suite(suite, ewb.read_responses(write_jsonl(tmp_path / "e.jsonl", SMALL_RESPONSES), suite))
    toy_result = bench.read_result_json(out_json)
    assert bench.rank_results([ewe_result, toy_result]).caveats[0] == (
        "suite_differs: the results come from different benchmark suites")


def test_a_broken_suite_plugin_is_reported_not_raised(tmp_path, monkeypatch, capsys):
    pkg = tmp_path / "bad_std"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "suite.py").write_text("SUITE = 'not a suite'\n", encoding="utf-8")
    (pkg / "plugin.py").write_text('PLUGIN = {"name": "bad_std", "packages": ["bad_std"], "suites": [{"name": '
                                   '"badbench", "title": "Bad", "python_name": "bad_std.suite:SUITE"}]}\n',
                                   encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = importlib.metadata.EntryPoint("bad_std", "bad_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    both = Plugins(installed_plugins().plugins + discover_plugins([(ep, None, None, False)]).plugins)
    monkeypatch.setattr(bench, "installed_plugins", lambda: both)
    bench._load.cache_clear()
    try:
        with pytest.raises(bench.SuiteError) as err:
            bench.open_suite("badbench")
        assert str(err.value) == ("suite badbench of plugin bad_std: bad_std.suite:SUITE is a str, "
                                  "not a BenchmarkSuite")
        assert main(["badbench", "list"]) == 1
        assert "not a BenchmarkSuite" in capsys.readouterr().err
        with pytest.raises(bench.SuiteError, match="no installed benchmark suite 'nobench'"):
            bench.open_suite("nobench")
    finally:
        bench._load.cache_clear()


def test_results_and_runs_written_before_suites_were_plugins_are_still_read(tmp_path, workspace):
    ewb = bench.open_suite("ewebench")
    suite = read_suite(write_suite(tmp_path / "suite"))
    result = ewb.score_suite(suite, ewb.read_responses(write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES), suite),
                             model="m1")
    # a version-1 results file: no suite, the score under ewe_score, word lists under lexicon
    old = result.model_dump(mode="json")
    for key in ("suite", "score_name"):
        old.pop(key)
    old["ewe_score"] = old.pop("score")
    old["lexicon"] = old.pop("resources")
    old["format_version"] = 1
    p = tmp_path / "old.json"
    p.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    assert bench.read_result_json(p) == result
    # a run stored before: meta names only the benchmark's title
    run_id = bench.save_benchmark_run(workspace, result)
    meta = json.loads(workspace.conn.execute("SELECT meta FROM benchmark_runs").fetchone()[0])
    for key in ("suite", "score_name"):
        meta.pop(key)
    meta["lexicon"] = meta.pop("resources")
    with workspace.transaction() as c:
        c.execute("UPDATE benchmark_runs SET meta = ?", (json.dumps(meta, ensure_ascii=False),))
    assert bench.get_benchmark_run(workspace, run_id) == result
    assert [s.suite_name for s in bench.list_benchmark_runs(workspace, suite="ewebench")] == ["ewebench"]


def test_the_folder_setting_of_earlier_versions_becomes_suite_folders(workspace):
    from mteval_gui.app.settings import load_settings, remember_suite_folder, save_settings
    from mteval_gui.store import repo

    repo.set_setting(workspace, "ewebench_suite", "/data/ewebench/tests")
    settings = load_settings(workspace)
    assert settings.suite_folders == {"ewebench": "/data/ewebench/tests"}
    remember_suite_folder(workspace, "toybench", "/data/toy")
    assert load_settings(workspace).suite_folders == {"ewebench": "/data/ewebench/tests", "toybench": "/data/toy"}
    assert "ewebench_suite" not in repo.all_settings(workspace)
    save_settings(workspace, load_settings(workspace))
    assert load_settings(workspace).suite_folders["ewebench"] == "/data/ewebench/tests"
