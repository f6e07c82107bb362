"""Speakers rate ÈwéBench responses (adequacy and fluency, task A on LLM responses); means beside ÈwéScore."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mteval_gui.app.bench import (
    rate_response,
    read_responses,
    response_rating,
    response_rating_means,
    save_benchmark_run,
    score_suite,
)
from mteval_gui.app.consent import withdraw_reviewer
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.errors import StoreError
from mteval_gui.qt.bench_view import BenchmarkTab
from mteval_gui.store import judgments as J
from mteval_gui.store.benchmarks import delete_benchmark_run
from tests.benchmarks.helpers import SMALL_RESPONSES, read_suite, write_jsonl, write_suite


@pytest.fixture
def stored(workspace, tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    good = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite), model="good")
    J.add_reviewer(workspace, Reviewer(reviewer_id="kofi", name="Kofi", languages=["ewe"]))
    J.add_reviewer(workspace, Reviewer(reviewer_id="ama", name="Ama", languages=["ewe"]))
    return workspace, save_benchmark_run(workspace, good), good


def test_ratings_version_and_average_per_response(stored):
    ws, run_id, result = stored
    first = rate_response(ws, run_id, "lc1", "kofi", 4, 5, " clear ")
    assert (first.version, first.adequacy, first.fluency, first.note) == (1, 4, 5, "clear")
    second = rate_response(ws, run_id, "lc1", "kofi", 2, 5)
    assert second.version == 2 and response_rating(ws, run_id, "lc1", "kofi").adequacy == 2
    rate_response(ws, run_id, "lc1", "ama", 4, None)
    rate_response(ws, run_id, "rs1", "ama", 5, 3)
    means = response_rating_means(ws, [run_id])[run_id]
    # lc1: adequacy (2 + 4) / 2 = 3, fluency 5; rs1: 5 and 3 -> adequacy (3 + 5) / 2, fluency (5 + 3) / 2
    assert (means.adequacy, means.fluency, means.responses, means.ratings) == (4.0, 4.0, 2, 3)
    # storing the same scoring again keeps the ratings of its responses
    assert save_benchmark_run(ws, result) == run_id
    assert response_rating_means(ws, [run_id])[run_id].ratings == 3


def test_bad_ratings_are_refused_and_leave_nothing(stored):
    ws, run_id, _ = stored
    with pytest.raises(StoreError, match="no response to test 'zz9'"):
        rate_response(ws, run_id, "zz9", "kofi", 3, 3)
    with pytest.raises(StoreError, match="unknown reviewer 'nobody'"):
        rate_response(ws, run_id, "lc1", "nobody", 3, 3)
    with pytest.raises(StoreError, match="adequacy 6 is out of range 1-5"):
        rate_response(ws, run_id, "lc1", "kofi", 6, 3)
    with pytest.raises(StoreError, match="needs adequacy or fluency"):
        rate_response(ws, run_id, "lc1", "kofi", None, None)
    assert response_rating_means(ws, [run_id])[run_id].ratings == 0


def test_withdrawal_and_deletion_remove_the_ratings(stored):
    ws, run_id, _ = stored
    rate_response(ws, run_id, "lc1", "kofi", 4, 4)
    rate_response(ws, run_id, "lc1", "kofi", 3, 4)
    rate_response(ws, run_id, "lc2", "ama", 2, 2)
    withdraw_reviewer(ws, "kofi", "community lead")
    assert response_rating(ws, run_id, "lc1", "kofi") is None
    assert response_rating_means(ws, [run_id])[run_id].ratings == 1
    delete_benchmark_run(ws, run_id)
    assert response_rating(ws, run_id, "lc2", "ama") is None


def test_digits_in_the_tests_table_rate_and_the_mean_shows_beside_the_score(qtbot, stored):
    ws, run_id, _ = stored
    tab = BenchmarkTab(ws)
    qtbot.addWidget(tab)
    m = tab.models_model
    col = [c.key for c in m.columns].index("speakers")
    assert col == [c.key for c in m.columns].index("score") + 1
    assert m.data(m.index(0, col), Qt.ItemDataRole.DisplayRole) == "—"
    tab.rating_reviewer.setCurrentIndex(tab.rating_reviewer.findData("kofi"))
    assert tab.select_test("lc1")
    qtbot.keyClick(tab.tests_view, Qt.Key.Key_4)
    qtbot.keyClick(tab.tests_view, Qt.Key.Key_3)
    got = response_rating(ws, run_id, "lc1", "kofi")
    assert (got.adequacy, got.fluency, got.version) == (4, 3, 2)
    assert m.data(m.index(0, col), Qt.ItemDataRole.DisplayRole) == "4.0 / 3.0"
    assert m.data(m.index(0, col), Qt.ItemDataRole.ToolTipRole) == \
        "Mean adequacy 4.00, fluency 3.00 over 1 rated response(s), 1 rating(s)"
    assert tab.rating_status.text() == "Saved"
    # another test: the combos show its own (no) rating; back on lc1 they show the rating in force
    assert tab.select_test("lc2")
    assert tab.rating_adequacy.currentData() is None and tab.rating_fluency.currentData() is None
    assert tab.select_test("lc1")
    assert (tab.rating_adequacy.currentData(), tab.rating_fluency.currentData()) == (4, 3)
    tab.rating_note.setText("natural Ewe")
    tab.rating_note.editingFinished.emit()
    assert response_rating(ws, run_id, "lc1", "kofi").note == "natural Ewe"


def test_results_not_stored_cannot_be_rated(qtbot, workspace, tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    good = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite), model="good")
    tab = BenchmarkTab(None)
    qtbot.addWidget(tab)
    tab.add_result(good)
    assert tab.select_test("lc1")
    assert not tab.rating_adequacy.isEnabled() and tab.rate_digit(4) is False
    assert tab.rating_status.text() == "Store the results in a workspace to rate them"
    save_benchmark_run(workspace, good)
    stored_tab = BenchmarkTab(workspace)  # stored, with no reviewer yet
    qtbot.addWidget(stored_tab)
    assert stored_tab.select_test("lc1") and not stored_tab.rating_adequacy.isEnabled()
    assert stored_tab.rating_status.text() == "Add a reviewer to rate the responses"


def test_the_rating_strip_in_french(qtbot, stored, french):
    ws, _, _ = stored
    tab = BenchmarkTab(ws)
    qtbot.addWidget(tab)
    m = tab.models_model
    col = [c.key for c in m.columns].index("speakers")
    assert m.headerData(col, Qt.Orientation.Horizontal) == "Locuteurs"
    assert tab.rating_title.text() == "Note des locuteurs\u202f:"
    assert tab.rating_adequacy.itemText(1) == "1 – Rien"


def test_file_import_brings_benchmark_ratings_and_says_how_many(qtbot, stored, tmp_path, monkeypatch):
    from mteval_gui.app.exports import export_judgments
    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.qt import review_pack_dialog
    from mteval_gui.qt.main import build_window
    from mteval_gui.store import Workspace

    ws, run_id, result = stored
    rate_response(ws, run_id, "lc1", "kofi", 4, 5)
    rate_response(ws, run_id, "rs1", "ama", 2, None)
    path, _, _ = export_judgments(ws, tmp_path / "all.csv")
    other = Workspace(tmp_path / "other.sqlite")
    assert save_benchmark_run(other, result) == run_id
    other.close()
    w = build_window(AppSettings())
    qtbot.addWidget(w)
    assert w.open_workspace(tmp_path / "other.sqlite")
    monkeypatch.setattr(review_pack_dialog.file_dialogs, "open_file_name", lambda *a, **k: (str(path), ""))
    w.import_judgments()
    assert w.statusBar().currentMessage() == (
        "Imported 0 judgments (0 already present); 2 ratings of benchmark responses (0 already present)")
    assert (response_rating(w.ws, run_id, "lc1", "kofi").adequacy, response_rating(w.ws, run_id, "rs1", "ama").adequacy
            ) == (4, 2)
    w.close()
