"""The ÈwéBench tab (offscreen): models, category chart, tests, explanations, storage."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from mteval_gui.app.bench import list_benchmark_runs, read_responses, save_benchmark_run, score_suite
from mteval_gui.qt.bench_view import BenchmarkTab, BenchModelsModel, BenchTestsModel, CategoryChart
from tests.benchmarks.helpers import SMALL_RESPONSES, read_suite, write_jsonl, write_suite

FULL = SMALL_RESPONSES + [{"test_id": "tr1", "response": "Ŋdi"}]


@pytest.fixture
def suite_dir(tmp_path):
    return write_suite(tmp_path / "suite")


@pytest.fixture
def results(suite_dir, tmp_path):
    suite = read_suite(suite_dir)
    good = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite), model="good")
    best = score_suite(suite, read_responses(write_jsonl(tmp_path / "b.jsonl", FULL), suite), model="best")
    return good, best


def _cell(model, row, col):
    return model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole)


def _col(model, key):
    return [c.key for c in model.columns].index(key)


def test_models_table_and_chart_from_stored_runs(qtbot, workspace, results):
    good, best = results
    save_benchmark_run(workspace, good)
    save_benchmark_run(workspace, best)
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    m = tab.models_model
    assert m.rowCount() == 2
    # best ÈwéScore first: best = (7.5 + 9 + 12) / 0.39 = 73.08; good = 61.11
    assert [_cell(m, r, 0) for r in range(2)] == ["best", "good"]
    assert [_cell(m, r, _col(m, "score")) for r in range(2)] == ["73.1", "61.1"]
    assert _cell(m, 0, _col(m, "passed")) == "3/5"
    assert _cell(m, 1, _col(m, "cat:translation")) == "—"
    assert "not run" in m.data(m.index(1, _col(m, "cat:translation")), Qt.ItemDataRole.ToolTipRole)
    assert _cell(m, 0, _col(m, "cat:reasoning")) == "75.0"
    # chart: one bar set per model, categories of the suite, values = category scores
    chart = tab.chart
    assert chart.categories == ["linguistic_comprehension", "reasoning", "translation"]
    assert [bs.label() for bs in chart.bar_sets] == ["best (73.1)", "good (61.1)"]
    assert [chart.bar_sets[0].at(i) for i in range(3)] == [50.0, 75.0, 100.0]
    assert [chart.bar_sets[1].at(i) for i in range(3)] == [50.0, 75.0, 0.0]
    assert chart.bar_text(1, 2) == "good — Translation: not run"
    assert chart.bar_text(0, 1) == "best — Reasoning: 75.0 (passed 1/2)"


def test_tests_list_and_explanation(qtbot, workspace, results):
    save_benchmark_run(workspace, results[0])
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    assert tab.selected_result().model == "good"
    assert tab.tests_model.rowCount() == 5
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("reasoning"))
    tm = tab.tests_model
    assert [_cell(tm, r, 0) for r in range(tm.rowCount())] == ["rs1", "rs2"]
    assert _cell(tm, 1, _col(tm, "score")) == "0.500" and _cell(tm, 1, _col(tm, "passed")) == "✗"
    assert tab.select_test("rs2")
    text = tab.detail.toPlainText()
    assert "Afikae lã le?" in text  # prompt
    assert "Lã le agble me." in text  # response
    assert "keywords found 1/2: agble" in text and "missing: aƒe" in text
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("translation"))
    assert _cell(tm, 0, _col(tm, "status")) == "not run"
    notes = tab.run_notes.toPlainText()
    assert "good — ÈwéScore 61.1" in notes
    assert "Not run (left out of the ÈwéScore): Translation" in notes


def test_explanation_in_french(qtbot, workspace, results, french):
    save_benchmark_run(workspace, results[0])
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("reasoning"))
    assert tab.select_test("rs2")
    text = tab.detail.toPlainText()
    assert "mots-clés trouvés 1/2 : agble" in text and "il manque : aƒe" in text
    assert "keywords found" not in text
    tip = tab.tests_model.data(tab.tests_model.index(1, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip == "mots-clés trouvés 1/2 : agble\nil manque : aƒe"


def test_score_files_stores_and_selects(qtbot, workspace, suite_dir, tmp_path):
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    assert tab.models_model.rowCount() == 0
    assert tab.summary_label.text() == "No results: score a responses file"
    responses = write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES + [{"test_id": "tr1", "error": "HTTP 500"}])
    with qtbot.waitSignal(tab.results_changed, timeout=20000):
        tab.score_files(suite_dir, responses, "m1")
        assert tab.models_model.rowCount() == 0  # scored in the background
        assert tab.busy.isVisibleTo(tab)
    result = tab.selected_result()
    assert not tab.busy.isVisibleTo(tab)
    assert result.score == pytest.approx((7.5 + 9.0) / 0.39)
    assert [s.model for s in list_benchmark_runs(workspace)] == ["m1"]
    assert tab.selected_result().model == "m1"
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("translation"))
    assert tab.select_test("tr1")
    assert "HTTP 500" in tab.detail.toPlainText()
    assert "Provider errors (scored 0)" in tab.run_notes.toPlainText()
    # a new tab on the same workspace finds it
    other = BenchmarkTab(workspace)
    qtbot.addWidget(other)
    assert other.models_model.rowCount() == 1


def test_unreadable_responses_are_shown_and_change_nothing(qtbot, workspace, suite_dir, tmp_path, shown_errors):
    from mteval_gui.errors import InputError

    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n", encoding="utf-8")
    with qtbot.waitSignal(tab.score_task.finished, timeout=20000):
        tab.score_files(suite_dir, bad, "m")
    assert len(shown_errors) == 1 and isinstance(shown_errors[0], InputError)
    assert tab.models_model.rowCount() == 0 and list_benchmark_runs(workspace) == []


def test_without_workspace_results_stay_unsaved(qtbot, results, tmp_path):
    from mteval_gui.app.bench import write_result_json

    tab = BenchmarkTab(None)
    qtbot.addWidget(tab)
    p = tmp_path / "res.json"
    write_result_json(results[1], p)
    with qtbot.waitSignal(tab.results_changed, timeout=20000):
        tab.open_results_file(p)
    assert _cell(tab.models_model, 0, 0) == "best (not stored)"
    out = tmp_path / "out.csv"
    tab.export_selected(out)
    assert out.read_text(encoding="utf-8").splitlines()[0].startswith("model,category,test_id")
    outj = tmp_path / "out.json"
    tab.export_selected(outj)
    assert json.loads(outj.read_text(encoding="utf-8"))["model"] == "best"
    tab.delete_selected(ask=False)
    assert tab.models_model.rowCount() == 0


def test_delete_removes_from_workspace(qtbot, workspace, results):
    save_benchmark_run(workspace, results[0])
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    tab.delete_selected(ask=False)
    assert list_benchmark_runs(workspace) == []
    assert tab.models_model.rowCount() == 0 and tab.tests_model.rowCount() == 0


def test_set_workspace_switches(qtbot, workspace, results, tmp_path):
    from mteval_gui.store import Workspace

    save_benchmark_run(workspace, results[0])
    tab = BenchmarkTab(None)
    qtbot.addWidget(tab)
    assert tab.models_model.rowCount() == 0
    tab.set_workspace(workspace)
    assert tab.models_model.rowCount() == 1
    other = Workspace(tmp_path / "other.sqlite")
    try:
        tab.set_workspace(other)
        assert tab.models_model.rowCount() == 0
    finally:
        other.close()


def test_models_sort_inside_the_model(qtbot, results):
    from mteval_gui.qt.bench_view import BenchRow

    m = BenchModelsModel()
    m.set_rows([BenchRow("a", results[0], True), BenchRow("b", results[1], True)])
    m.sort(_col(m, "cat:translation"), Qt.SortOrder.DescendingOrder)
    assert [r.key for r in m.rows] == ["b", "a"]
    m.sort(0, Qt.SortOrder.AscendingOrder)
    assert [r.result.model for r in m.rows] == ["best", "good"]
    m.sort(_col(m, "cat:translation"), Qt.SortOrder.AscendingOrder)
    assert [r.key for r in m.rows] == ["b", "a"]  # an empty value stays last


def test_item_models_pass_the_model_tester(qtmodeltester, results):
    from mteval_gui.qt.bench_view import BenchRow

    m = BenchModelsModel()
    m.set_rows([BenchRow("a", results[0], True), BenchRow("b", results[1], False)])
    qtmodeltester.check(m)
    t = BenchTestsModel()
    t.set_tests(results[0].tests)
    qtmodeltester.check(t)


def test_chart_empty(qtbot):
    chart = CategoryChart()
    qtbot.addWidget(chart)
    chart.set_results([])
    assert chart.bar_sets == [] and chart.chart_.title() == "No ÈwéBench results yet"


@pytest.mark.shared_data
def test_real_suite_in_the_tab_renders(qtbot, workspace, shared_data, tmp_path):
    suite_dir = shared_data / "ewebench" / "tests"
    suite = read_suite(suite_dir)
    recs = [{"test_id": t.id, "response": "Ŋdi na wò! Mele nyuie. Ame siwo le afi sia nye Kofi kple Ama."}
            for t in suite.tests if t.category != "agentic"]
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1400, 900)
    with qtbot.waitSignal(tab.results_changed, timeout=20000):
        tab.score_files(suite_dir, write_jsonl(tmp_path / "r.jsonl", recs), "ewe-bot")
    result = tab.selected_result()
    assert result.category("agentic").active is False
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("instruction_following"))
    assert tab.select_test("if_format_01")
    assert "list_item_count = 5: failed (0 list items)" in tab.detail.toPlainText()
    assert tab.select_test("if_format_07")
    assert ("proverb_count = 3: failed (heuristic check: no Ewe quoted passage or list item)"
            in tab.detail.toPlainText())
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("robustness"))
    assert tab.select_test("rb_rolebreak_10")
    assert "role_preserved = True: passed (heuristic check: no machine term)" in tab.detail.toPlainText()
    assert tab.select_test("rb_rephrased_07")
    assert "answer_consistency = True: failed (heuristic check: no answer found)" in tab.detail.toPlainText()
    assert "unscored" not in tab.detail.toPlainText()
    tab.category_combo.setCurrentIndex(tab.category_combo.findData("reasoning"))
    assert tab.select_test("rs_logic_02")
    assert "suite defect: exact_match test has no 'expected'" in tab.detail.toPlainText()
    image = tab.grab().toImage()
    assert image.width() == 1400 and not image.isNull()


@pytest.mark.shared_data
def test_ewebench_own_results_file_opens_in_the_tab(qtbot, workspace, shared_data, shown_errors):
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    with qtbot.waitSignal(tab.score_task.finished, timeout=20000):
        tab.open_results_file(shared_data.parent / "peers" / "ewebench" / "ewebench_result_a.json")
    assert shown_errors == []
    assert _cell(tab.models_model, 0, 0) == "mock-a"
    assert [(r.model, round(r.score, 1)) for r in list_benchmark_runs(workspace)] == [("mock-a", 24.4)]


def test_the_tab_shows_the_methodology_limitations(qtbot, workspace):
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    text = tab.limitations_label.text()
    assert "What ÈwéScore cannot show:" in text and text.count("<li>") == 4
    assert "Keyword matching does not account for synonyms or paraphrases." in text


def test_the_limitations_in_french(qtbot, workspace, french):
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    text = tab.limitations_label.text()
    assert "Ce que l’ÈwéScore ne peut pas montrer\u202f:" in text
    assert "La recherche de mots-clés ne tient pas compte des synonymes ni des paraphrases." in text


def test_category_names_and_column_labels_in_french(qtbot, workspace, results, french):
    save_benchmark_run(workspace, results[0])
    tab = BenchmarkTab(workspace)
    qtbot.addWidget(tab)
    m = tab.models_model
    heads = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    assert "Rais." in heads and "Reas." not in heads
    combo = [tab.category_combo.itemText(i) for i in range(tab.category_combo.count())]
    assert any(x.startswith("Raisonnement") for x in combo) and not any(x.startswith("Reasoning") for x in combo)
