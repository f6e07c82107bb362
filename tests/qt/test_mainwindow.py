"""The main window on a real workspace: runs, entries with review pane, ratings, blind mode,
background scoring with partial results and cancellation, exports."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from mteval_gui.app.preferences import AppSettings
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.errors import InputError
from mteval_gui.qt.main import build_window
from mteval_gui.store import judgments as jstore


def test_open_workspace_lists_runs(window, scored_ws):
    assert window.open_workspace(scored_ws.path)
    model = window.runs_view.model
    assert sorted(r.run_id for r in model.rows) == ["good", "poor"]
    assert model.rows[0].run_id == "good"  # sorted by composite, best first
    assert AppSettings.load().last_workspace == str(scored_ws.path)


def test_entries_review_and_rating_keys(window, scored_ws, qtbot):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    assert window.tabs.currentWidget() is page
    assert page.model.rowCount() == 5
    assert page.count_label.text() == "5 of 5 entries"
    assert page.select_entry("e3")
    html = page.review.text.toHtml()
    assert "we eat" in html and "mîcisoyâhk" in html and "timeout" in html
    assert page.ratings.run_id == "poor" and page.ratings.entry_id == "e3"
    page.table.setFocus()
    QTest.keyClick(page.table, Qt.Key.Key_2)
    (j,) = jstore.current_judgments(scored_ws, run_id="poor", reviewer_id="amy", task="A")
    assert (j.entry_id, j.adequacy) == ("e3", 2)
    review_col = [c.key for c in page.model.visible_columns()].index("poor:review")
    assert page.model.index(page.current_view_row(), review_col).data() == "half rated"  # adequacy only so far
    QTest.keyClick(page.table, Qt.Key.Key_Return)  # next unreviewed
    assert page.current_entry_id() == "e4"
    QTest.keyClick(page.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert page.current_entry_id() == "e3"


def test_blind_mode_hides_reference_and_metrics(window, scored_ws):
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    page.select_entry("e1")
    assert "wâpamêw atim" in page.review.text.toPlainText()
    window.menu_actions["blindMode"].trigger()
    text = page.review.text.toPlainText()
    assert "I see the dog" in text and "wapamew atim" in text
    assert "wâpamêw atim" not in text and "chrF++" not in text
    assert not page.review.fst_box.isVisible()
    ref_col = [c.key for c in page.model.visible_columns()].index("reference")
    assert page.model.index(0, ref_col).data() == "—"


def test_side_by_side_and_filters(window, scored_ws):
    window.open_workspace(scored_ws.path)
    window.open_entries(["good", "poor"])
    page = window.entries_page
    headers = [page.model.headerData(i, Qt.Orientation.Horizontal) for i in range(page.model.columnCount())]
    assert "model-good: Output" in headers and "model-poor: Output" in headers
    page.run_combo.setCurrentIndex(page.run_combo.findData("poor"))
    page.search.setText("dog")
    page.apply_filter()
    assert page.count_label.text() == "2 of 5 entries"
    page.review_combo.setCurrentIndex(page.review_combo.findData("flagged"))
    assert page.model.rowCount() == 0


def test_background_scoring_updates_runs(window, small_ws, qtbot):
    window.open_workspace(small_ws.path)
    assert not any(r.scored for r in window.runs_view.model.rows)
    window.open_entries(["good"])
    assert not any(c.field == "metric" for c in window.entries_page.model.all_columns())
    partial = []
    window.scoring.worker = None
    with qtbot.waitSignal(window.scoring.finished, timeout=180000) as blocker:
        window.score_runs(["good", "poor"])
        window.scoring.worker.partial.connect(partial.append)
        assert window.progress.isVisible()
    assert blocker.args[0].status == "done"
    assert {p["run_id"] for p in partial if p.get("finished")} == {"good", "poor"}
    # the runs table is reloaded in the background once scoring has finished
    qtbot.waitUntil(lambda: all(r.scored for r in window.runs_view.model.rows), timeout=20000)
    rows = {r.run_id: r for r in window.runs_view.model.rows}
    assert rows["good"].composite == 1.0 and rows["poor"].tier == "baseline"
    # the open entries table received the run's values without being reopened
    keys = lambda: [c.key for c in window.entries_page.model.all_columns()]  # noqa: E731
    qtbot.waitUntil(lambda: "good:metric:core.chrf" in keys(), timeout=20000)
    assert not window.progress.isVisible()
    qtbot.waitUntil(lambda: window.scoring.jobs.active == 0, timeout=10000)


def test_runs_scored_side_by_side_share_one_progress_bar(window):
    from mteval_gui.app.scoring import RunProgress

    window.scoring.seen, window.scoring.done = {}, 0
    window.progress.start("Scoring 3 run(s)")
    window.scoring.show_progress(RunProgress("good", 0, 3, 0, 0, "preparing"))
    assert window.progress.stage.text() == "Scoring 3 runs — preparing: 0 of 3 runs finished"
    window.scoring.show_progress(RunProgress("good", 0, 3, 10, 40, "scoring"))
    window.scoring.show_progress(RunProgress("poor", 1, 3, 30, 60, "scoring"))
    # 40 of 100 entries seen so far, the third run counted at the mean size (50)
    assert (window.progress.bar.value(), window.progress.bar.maximum()) == (40, 150)
    assert window.progress.stage.text() == "Scoring 3 runs — side by side: 0 of 3 runs finished"
    window.scoring.take_partial({"run_id": "good", "finished": True})
    window.scoring.show_progress(RunProgress("poor", 1, 3, 45, 60, "scoring"))
    assert (window.progress.bar.value(), window.progress.bar.maximum()) == (85, 150)
    assert window.progress.stage.text() == "Scoring 3 runs — side by side: 1 of 3 runs finished"
    window.progress.finish()


def test_closing_the_window_cancels_scoring(qtbot, small_ws):
    w = build_window(AppSettings())
    qtbot.addWidget(w)
    w.show()
    w.open_workspace(small_ws.path)
    w.score_runs(["good", "poor"])
    thread_count = w.scoring.jobs.active
    assert thread_count == 1
    w.close()  # cancels and waits: the thread-leak fixture checks nothing is left running
    assert w.scoring.jobs.active == 0


def test_export_run_card_and_entries(window, scored_ws, tmp_path):
    from mteval_gui.app.exports import export_run_card

    window.open_workspace(scored_ws.path)
    card_path = export_run_card(scored_ws, "good", tmp_path / "good.json")
    card = json.loads(card_path.read_text(encoding="utf-8"))
    assert card["run_id"] == "good" and card["scores"]["composite"] == 1.0
    window.open_entries(["poor"])
    columns, rows = window.entries_page.model.export_rows()
    assert columns[0] == "id" and [r["id"] for r in rows] == ["e1", "e2", "e3", "e4", "e5"]
    assert rows[0]["poor:core.chrf"] is not None and isinstance(rows[0]["poor:core.chrf"], float)


def test_compare_tab(window, scored_ws, qtbot, qtmodeltester):
    window.open_workspace(scored_ws.path)
    compare = window.extra_tabs["compare"]
    with qtbot.waitSignal(compare.compute_task.finished, timeout=20000):
        window.compare_runs(["good", "poor"])
        assert compare.comparison is None and compare.busy.isVisible()  # computed in the background
    assert window.tabs.currentWidget() is compare
    m = compare.model
    # systems as rows, the baseline first; metrics as groups of value [CI], Δ, p
    assert [m.index(r, 0).data() for r in range(m.rowCount())] == ["model-good (baseline)", "model-poor"]
    keys = m.column_keys()
    assert keys[:4] == ["system", "chrf_plus_plus:value", "chrf_plus_plus:delta", "chrf_plus_plus:p"]
    assert "composite:value" in keys
    assert m.headerData(1, Qt.Orientation.Horizontal) == "chrF++ [95 % CI]"
    chrf = compare.comparison.scores["poor"]["chrf_plus_plus"][0]
    assert m.index(1, 1).data().startswith(f"{chrf:.2f} [")
    delta = compare.comparison.results["poor"]["chrf_plus_plus"].delta
    assert m.index(1, 2).data() == f"{delta:+.2f}" and m.index(0, 2).data() == ""
    p = compare.comparison.results["poor"]["chrf_plus_plus"].p_value
    assert 0 < p <= 1 and m.index(1, 3).data() in (f"{p:.3f}", "< 0.001")
    m.sort(keys.index("chrf_plus_plus:value"), Qt.SortOrder.AscendingOrder)
    assert m.index(0, 0).data() == "model-good (baseline)"  # the baseline stays on top
    qtmodeltester.check(m, force_py=True)


def test_compare_tab_says_why_bleu_is_left_out_on_short_segments(window, scored_ws, qtbot):
    window.open_workspace(scored_ws.path)
    compare = window.extra_tabs["compare"]
    with qtbot.waitSignal(compare.compute_task.finished, timeout=20000):
        window.compare_runs(["good", "poor"])
    assert "bleu" not in compare.comparison.metrics
    assert not any(k.startswith("bleu:") for k in compare.model.column_keys())
    assert "Not compared: BLEU: short segments: the median reference of" in compare.note.text()
    compare.short_bleu.setChecked(True)
    with qtbot.waitSignal(compare.compute_task.finished, timeout=20000):
        compare.compute()
    assert "bleu" in compare.comparison.metrics and "bleu:value" in compare.model.column_keys()
    assert "short segments" not in compare.note.text()


def test_charts_export_png_and_svg(window, scored_ws, tmp_path, qtbot):
    window.open_workspace(scored_ws.path)
    charts = window.extra_tabs["charts"]
    window.tabs.setCurrentWidget(charts)
    charts.set_corpus("mini")
    for kind in ("chrf", "composite"):
        with qtbot.waitSignal(charts.drawn, timeout=20000):
            charts.set_kind(kind)
        png = charts.export(tmp_path / f"{kind}.png")
        svg = charts.export(tmp_path / f"{kind}.svg")
        assert png.stat().st_size > 1000
        assert "<svg" in svg.read_text(encoding="utf-8")
    assert len(charts.view.chart().series()) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_gui_exports_onto_a_fifo_or_the_workspace_are_refused_in_a_dialog(window, scored_ws, tmp_path, qtbot,
                                                                          shown_errors):
    from mteval_gui.qt import exports

    window.open_workspace(scored_ws.path)
    fifo = tmp_path / "card.fifo"
    os.mkfifo(fifo)
    window.runs_view.select_runs(["good"])
    exports.export_run_card(window, str(fifo))
    exports.export_judgments(window, "json", str(Path(scored_ws.path).with_name(Path(scored_ws.path).name + "-wal")))
    charts = window.extra_tabs["charts"]
    window.tabs.setCurrentWidget(charts)
    charts.set_corpus("mini")
    with qtbot.waitSignal(charts.drawn, timeout=20000):
        charts.set_kind("chrf")
    folder = tmp_path / "chart.svg"  # (not a FIFO: opening one for writing would wait for a reader)
    folder.mkdir()
    with pytest.raises(InputError, match="refused: it is a folder"):
        charts.export(folder)
    assert [str(e) for e in shown_errors] == [
        f"{fifo}: refused: it is a FIFO (named pipe), not a regular file",
        f"{scored_ws.path}-wal: refused: it is the workspace database {scored_ws.path} (its wal file)"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and list(folder.iterdir()) == []


def test_randomised_order_is_fixed_per_reviewer(window, scored_ws):
    from mteval_gui.qt.entries_model import ENTRY_ID_ROLE

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    ids = lambda: [page.model.index(r, 0).data(ENTRY_ID_ROLE) for r in range(page.model.rowCount())]  # noqa: E731
    window.menu_actions["randomOrder"].trigger()
    shuffled = ids()
    expected = [e for _, e in jstore.review_queue(scored_ws, ["poor"], "amy", randomise=True)]
    assert shuffled == expected and sorted(shuffled) == ["e1", "e2", "e3", "e4", "e5"]
    page.search.setText("dog")
    page.apply_filter()
    assert ids() == [e for e in expected if e in ("e1", "e4")]
    window.menu_actions["randomOrder"].trigger()
    page.search.setText("")
    page.apply_filter()
    assert ids() == ["e1", "e2", "e3", "e4", "e5"]


def _rate_by_two(ws, run_id: str) -> None:
    from mteval_gui.domain.judgments import Judgment

    if jstore.get_reviewer(ws, "bo") is None:
        jstore.add_reviewer(ws, Reviewer(reviewer_id="bo", name="Bo", languages=["crk"]))
    for rid in ("amy", "bo"):  # speakers of Cree agree: medians 5, α 1.0
        for eid, a in zip(("e1", "e2", "e3", "e4", "e5"), (5, 4, 5, 5, 4), strict=True):
            jstore.record_judgment(ws, Judgment(reviewer_id=rid, run_id=run_id, entry_id=eid, adequacy=a, fluency=a))


def test_signoff_confirms_tier_in_runs_table(window, scored_ws):
    from mteval_gui.app.review_status import read_run_card
    from mteval_gui.store.results import load_run_card

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    window.open_workspace(scored_ws.path)
    model = window.runs_view.model
    tier = lambda: model.index(model.row_of("good"), model.column_index("tier")).data()  # noqa: E731
    assert tier() == "fluent · pending speaker review"
    validation = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(validation)
    validation.corpus.setCurrentIndex(validation.corpus.findData("mini"))
    assert window.entries_page.ratings.reviewer_id == "amy"  # the only reviewer is preselected
    _rate_by_two(scored_ws, "good")  # a fluent tier is confirmed on ratings of two reviewers
    validation.refresh()
    validation.signoff_run.setCurrentIndex(validation.signoff_run.findData("good"))
    validation.sign("confirm")
    assert validation.signoff_state.text() == "Tier fluent: confirmed (1 decision(s))"
    assert tier() == "fluent ✓"
    read = read_run_card(scored_ws, "good")
    assert read is not None and read.card.human_review.confirmed is True
    assert load_run_card(scored_ws, "good").human_review.confirmed is None  # the stored card is the scoring result



def test_signoff_lists_only_runs_whose_tier_can_be_confirmed(window, scored_ws):
    """The sign-off offered every scored run, a fluent one without a single rating included; it lists
    only the runs whose tier the speakers' ratings support, and says what the others' ratings show."""
    from mteval_gui.domain.judgments import Judgment

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    window.open_workspace(scored_ws.path)
    validation = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(validation)
    validation.corpus.setCurrentIndex(validation.corpus.findData("mini"))
    listed = lambda: [validation.signoff_run.itemData(i) for i in range(validation.signoff_run.count())]  # noqa: E731
    assert listed() == []  # "good" is fluent, "poor" below deployable: nothing to confirm yet
    assert not validation.confirm_button.isEnabled() and not validation.reject_button.isEnabled()
    assert validation.signoff_waiting.text() == (
        "Not confirmable yet (what each tier needs is in the tooltip):\n"
        "good (fluent): 0 of 5 entries rated by 2+ speakers of crk, 0 speaker(s); median adequacy none, fluency none\n"
        "poor (baseline): 0 of 5 entries rated by 2+ speakers of crk, 0 speaker(s); median adequacy none, "
        "fluency none")
    tip = validation.signoff_waiting.parentWidget().toolTip()
    assert ("<tr><td>fluent</td><td>≥ 4</td><td>≥ 4</td><td>min(30, entries)</td><td>≥ 2</td><td>≥ 0.667</td></tr>"
            in tip)
    for eid in ("e1", "e2", "e3", "e4", "e5"):
        jstore.record_judgment(scored_ws, Judgment(reviewer_id="amy", run_id="good", entry_id=eid, adequacy=5))
    validation.refresh()
    assert listed() == [] and validation.signoff_waiting.text().splitlines()[1] == (
        "good (fluent): 0 of 5 entries rated by 2+ speakers of crk, 1 speaker(s); median adequacy 5.0, fluency none")
    _rate_by_two(scored_ws, "good")
    validation.refresh()
    assert listed() == ["good"] and validation.signoff_run.currentData() == "good"
    assert validation.confirm_button.isEnabled() and validation.signoff_waiting.text() == (
        "Not confirmable yet (what each tier needs is in the tooltip):\n"
        "poor (baseline): 0 of 5 entries rated by 2+ speakers of crk, 0 speaker(s); median adequacy none, "
        "fluency none")
    validation.sign("confirm")
    assert validation.signoff_state.text() == "Tier fluent: confirmed (1 decision(s))"


def test_the_chosen_corpus_survives_a_refresh_and_chooses_the_signoff_runs(window, scored_ws):
    """A refresh (F5, or a change another program made) put the Validation tab back on the first
    corpus, and choosing another corpus left the sign-off list of the previous one."""
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.store import repo

    repo.add_corpus(scored_ws, Corpus(corpus_id="aaa", language_pair=LanguagePair(source="eng", target="crk"),
                                      entries=[Entry(id="x1", source="hi", reference="tânisi")]))
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    _rate_by_two(scored_ws, "good")
    window.open_workspace(scored_ws.path)
    validation = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(validation)
    validation.refresh()
    assert [validation.corpus.itemData(i) for i in range(validation.corpus.count())] == ["mini", "aaa"]
    assert validation.signoff_run.currentData() == "good"
    validation.corpus.setCurrentIndex(validation.corpus.findData("aaa"))
    assert validation.signoff_run.count() == 0  # corpus aaa has no run
    validation.refresh()
    assert validation.corpus.currentData() == "aaa" and validation.signoff_run.count() == 0
    validation.corpus.setCurrentIndex(validation.corpus.findData("mini"))
    assert validation.signoff_run.currentData() == "good"

def test_validation_study_with_ratings(window, scored_ws, qtbot):
    from mteval_gui.domain.judgments import Judgment

    for rid, name in (("amy", "Amy"), ("ben", "Ben"), ("cy", "Cy")):
        jstore.add_reviewer(scored_ws, Reviewer(reviewer_id=rid, name=name))
    for run, base in (("good", 5), ("poor", 2)):
        for k, eid in enumerate(["e1", "e2", "e3", "e4", "e5"]):
            for r, rid in enumerate(("amy", "ben", "cy")):
                jstore.record_judgment(scored_ws, Judgment(reviewer_id=rid, run_id=run, entry_id=eid,
                                                           adequacy=max(1, min(5, base - (k + r) % 2)), fluency=4))
    window.open_workspace(scored_ws.path)
    v = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(v)
    v.corpus.setCurrentIndex(v.corpus.findData("mini"))
    # Shift held while the result arrives: QTableView.selectRow would extend from a stale
    # anchor and select nothing, leaving the scatter plot empty.
    QTest.keyPress(v.table, Qt.Key.Key_Shift, Qt.KeyboardModifier.ShiftModifier)
    try:
        with qtbot.waitSignal(v.study_task.finished, timeout=30000):
            v.compute()
    finally:
        QTest.keyRelease(v.table, Qt.Key.Key_Shift, Qt.KeyboardModifier.NoModifier)
    assert v.items_bar.value() == 10  # 10 items, each rated by 3 raters
    assert v.alpha_adequacy.text() != "—"
    metrics = [v.table.item(r, 0).text() for r in range(v.table.rowCount())]
    assert "chrF++" in metrics
    chrf = metrics.index("chrF++")
    assert float(v.table.item(chrf, 1).text().split()[0]) > 0  # chrF++ agrees with the speakers here
    assert len(v.chart_view.chart().series()) == 1
    assert [i.row() for i in v.table.selectionModel().selectedRows()] == [0]


def test_large_corpora_open_in_the_background(window, scored_ws, qtbot, monkeypatch):
    from mteval_gui.qt import entries_page

    monkeypatch.setattr(entries_page, "BACKGROUND_ROWS", 1)
    window.open_workspace(scored_ws.path)
    with qtbot.waitSignal(window.entries_page.frame_shown, timeout=20000):
        window.open_entries(["good"])
        assert window.entries_page.model.frame is None  # not loaded in the GUI thread
    assert window.entries_page.model.rowCount() == 5
    assert window.tabs.currentWidget() is window.entries_page


@pytest.mark.parametrize("typed", [["3", "4"], ["3", Qt.Key.Key_Tab, "4"]], ids=["3 4", "3 Tab 4"])
def test_rating_keys_as_a_reviewer_types_them(window, scored_ws, qtbot, typed):
    """Both documented sequences record adequacy 3 and fluency 4, typed on the entries table."""
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    assert page.select_entry("e2")
    page.table.setFocus()
    for key in typed:
        if isinstance(key, str):
            qtbot.keyClicks(page.table, key)
        else:
            qtbot.keyClick(page.table, key)
    (j,) = jstore.current_judgments(scored_ws, run_id="poor", reviewer_id="amy", task="A")
    assert (j.entry_id, j.adequacy, j.fluency) == ("e2", 3, 4)


def test_review_status_beside_the_output_with_the_rated_count(window, scored_ws, qtbot):
    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    page = window.entries_page
    keys = [c.key for c in page.model.visible_columns()]
    assert keys.index("poor:review") == keys.index("poor:predicted") + 1
    header = lambda: page.model.headerData(keys.index("poor:review"), Qt.Orientation.Horizontal)  # noqa: E731
    assert header() == "Review (0 of 5 rated)"
    page.select_entry("e1")
    page.table.setFocus()
    qtbot.keyClicks(page.table, "5")
    assert header() == "Review (0 of 5 rated)"  # adequacy only: half rated
    assert page.model.index(page.current_view_row(), keys.index("poor:review")).data() == "half rated"
    qtbot.keyClicks(page.table, "4")
    assert header() == "Review (1 of 5 rated)"
    assert page.model.index(page.current_view_row(), keys.index("poor:review")).data() == "rated"
    window.open_entries(["good", "poor"])  # side by side: each output has its review status next to it
    keys = [c.key for c in page.model.visible_columns()]
    assert keys[keys.index("good:predicted") + 1] == "good:review"
    assert keys[keys.index("poor:predicted") + 1] == "poor:review"


def test_selected_rating_buttons_never_clip_at_the_minimum_window_size(window, scored_ws, qtbot, tmp_path):
    from PySide6.QtGui import QFont, QFontMetrics

    jstore.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["poor"])
    window.resize(window.minimumSizeHint())
    page = window.entries_page
    page.select_entry("e2")
    ratings = page.ratings
    for dim in ("adequacy", "fluency"):
        for value in range(1, 6):
            ratings.rate(dim, value)  # every button, checked in turn
            qtbot.wait(0)
            b = ratings.groups[dim].button(value)
            bold = QFont(b.font())
            bold.setBold(True)
            assert b.isChecked() and b.width() >= QFontMetrics(bold).horizontalAdvance(b.text()) + 12, b.text()
    assert window.grab().save(str(tmp_path / "minimum.png"))


def test_an_empty_workspace_shows_the_first_steps(window, tmp_path, small_ws):
    view = window.runs_view
    assert view.showing_empty and view.empty_view.title.text() == "No workspace open"
    assert [b.text() for b in view.empty_view.buttons] == [
        "New workspace…",
        "Open workspace…",
        "Open the demo workspace",
    ]
    window.open_workspace(tmp_path / "new.sqlite")
    assert view.showing_empty and view.empty_view.title.text() == "First steps"
    assert "Import a corpus" in view.empty_view.text.text() and "Score" in view.empty_view.text.text()
    assert [b.text() for b in view.empty_view.buttons] == ["Import corpus…", "Open the demo workspace"]
    children = [b.text() for b in view.empty_view.findChildren(QPushButton)]
    assert children == ["Import corpus…", "Open the demo workspace"]  # the previous state's buttons are gone at once
    opened = []
    window.import_file = lambda kind, path=None: opened.append(kind)
    view.empty_view.buttons[0].click()
    assert opened == ["corpus"]
    window.open_workspace(small_ws.path)  # corpora and runs: the table, with what to do next
    assert not view.showing_empty
    assert view.summary.text() == "2 runs, none scored yet: select them (Ctrl+A) and press Score (Ctrl+R)."
    # while the window scores (the demo starts scoring at once) the summary does not ask for it
    window.scoring.started.emit()
    assert view.summary.text() == ("2 runs, 0 scored; scoring in the background: each run's results appear as "
                                   "they are stored.")
    window.scoring.finished.emit(None)
    assert view.summary.text().startswith("2 runs, none scored yet")


def test_rescore_question_agrees_with_the_number_of_runs(window):
    question = window.scoring.rescore_question
    assert question(1) == ("1 of the selected runs is up to date: its inputs have not changed since "
                                          "it was scored. Score it again with its stored configuration?")
    assert question(3).startswith("3 of the selected runs are up to date: their inputs")


def test_rescore_question_in_french(window, french):
    question = window.scoring.rescore_question
    assert question(1) == ("1 exécution sélectionnée est à jour\u202f: ses entrées n’ont pas changé depuis "
                           "son évaluation. L’évaluer à nouveau avec sa configuration enregistrée\u202f?")
    assert question(2) == ("2 des exécutions sélectionnées sont à jour\u202f: leurs entrées n’ont pas "
                                          "changé depuis leur évaluation. Les évaluer à nouveau avec leur "
                                          "configuration enregistrée\u202f?")
