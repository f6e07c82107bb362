"""The entries table shows texts read from the workspace for the rows shown; a large table shows its
first rows at once and its values when they are read."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from mteval_gui.app.entries import load_entry_frame
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.qt import entries_model, entries_page
from mteval_gui.qt.entries_model import ENTRY_ID_ROLE, EntriesModel
from mteval_gui.store import repo
from tests.qt.conftest import count_review_loads

N = 30


def _fill(ws) -> None:
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=[
        Entry(id=f"e{i:02d}", source=f"Source {i} ᓃᐹᐤ", reference=f"réf {i}") for i in range(N)]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="a", model_slug="A"), corpus_id="c", outputs=[
        Output(id=f"e{i:02d}", predicted=f"out {i}", error="timeout" if i == 4 else None) for i in range(N)]))
    with ws.transaction() as conn:  # values 0, 10, 20, 0, 10, 20, ... and none for e07
        conn.executemany("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
                         [("a", f"e{i:02d}", "core.chrf", None if i == 7 else float(i % 3) * 10, "{}")
                          for i in range(N)])


def _col(model: EntriesModel, key: str) -> int:
    return [c.key for c in model.visible_columns()].index(key)


def test_the_model_shows_the_texts_read_for_the_rows_shown(qtbot, workspace, monkeypatch):
    monkeypatch.setattr(entries_model, "READ_BEFORE", 2)
    monkeypatch.setattr(entries_model, "READ_AFTER", 5)
    _fill(workspace)
    frame = load_entry_frame(workspace, ["a"])
    model = EntriesModel(frame)
    model.sort(_col(model, "a:metric:core.chrf"), Qt.SortOrder.DescendingOrder)
    order = [model.frame_row(r) for r in range(model.rowCount())]
    twenties, tens, zeros = ([i for i in range(N) if i % 3 == k and i != 7] for k in (2, 1, 0))
    assert order == twenties + tens + zeros + [7]  # ties in row order, the missing value last
    assert frame.texts is not None and not any(frame.texts.cached(r) for r in range(N))
    source = _col(model, "source")
    assert model.index(10, source).data() == "Source 1 ᓃᐹᐤ"
    # the rows around view row 10 in the view's order were read with it, and only those
    assert sorted(r for r in range(N) if frame.texts.cached(r)) == sorted(order[8:15])
    for row, fr in enumerate(order):
        assert model.index(row, source).data() == f"Source {fr} ᓃᐹᐤ"
        assert model.index(row, _col(model, "reference")).data() == f"réf {fr}"
        assert model.index(row, 0).data(ENTRY_ID_ROLE) == f"e{fr:02d}"
    out = _col(model, "a:predicted")
    assert model.index(order.index(4), out).data() == "[error]"
    assert model.index(order.index(4), out).data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(order.index(5), out).data() == "out 5"
    assert model.index(order.index(5), out).data(Qt.ItemDataRole.ForegroundRole) is None
    model.sort(source, Qt.SortOrder.AscendingOrder)  # a sort by a text reads the whole column
    assert [model.frame_row(r) for r in range(4)] == [0, 1, 10, 11]


def test_a_large_table_shows_its_first_rows_then_its_values(window, workspace, monkeypatch, qtbot):
    monkeypatch.setattr(entries_page, "BACKGROUND_ROWS", 10)
    _fill(workspace)
    path = workspace.path
    workspace.close()
    window.open_workspace(path)
    page = window.entries_page
    shown: list[tuple[bool, str, str]] = []
    real = page.set_frame

    def recording(frame, keep_entry=False):
        real(frame, keep_entry)
        m = page.model
        row = m.view_row_of(3)
        if frame is None or row is None:  # the window closing
            return
        shown.append((frame.complete, m.index(row, _col(m, "source")).data(),
                      m.index(row, _col(m, "a:metric:core.chrf")).data()))

    monkeypatch.setattr(page, "set_frame", recording)
    loads = count_review_loads(monkeypatch)
    window.open_entries(["a"])
    qtbot.waitUntil(lambda: page.model.frame is not None and page.model.frame.complete, timeout=20_000)
    assert shown[0] == (False, "Source 3 ᓃᐹᐤ", "")  # the values are not read yet: empty
    assert shown[-1] == (True, "Source 3 ᓃᐹᐤ", "0.0")
    assert loads == ["e00"]  # the review pane of the first row, not read again when the values come
    frame = page.model.frame
    assert np.isnan(frame.runs[0].metrics["core.chrf"][7]) and frame.runs[0].metrics["core.chrf"][5] == 20.0
    assert page.count_label.text() == "30 of 30 entries"
    page.search.setText("source 2")
    page.apply_filter()
    assert [page.model.entry_id(r) for r in range(page.model.rowCount())] == [
        "e02", "e20", "e21", "e22", "e23", "e24", "e25", "e26", "e27", "e28", "e29"]


def _two_reviewers(ws) -> None:
    from mteval_gui.domain.judgments import Judgment, Reviewer
    from mteval_gui.store import judgments as jstore

    for rid in ("amy", "bea"):
        jstore.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title(), languages=["crk"]))
    jstore.record_judgment(ws, Judgment(reviewer_id="bea", run_id="a", entry_id="e00", adequacy=4, fluency=4))


def _main_thread_loads(monkeypatch) -> list[str | None]:
    """The reviewers the whole table was read for on the window's thread."""
    import threading

    from mteval_gui.app import entries

    calls: list[str | None] = []
    real = entries.load_entry_frame

    def spy(ws, run_ids, reviewer=None, **kw):
        if threading.current_thread() is threading.main_thread():
            calls.append(reviewer)
        return real(ws, run_ids, reviewer, **kw)

    monkeypatch.setattr(entries, "load_entry_frame", spy)
    return calls


def _open_with_reviewers(window, workspace, qtbot):
    """Run "a" of the filled workspace, rated by amy and bea, open in the Entries tab with its values."""
    _fill(workspace)
    _two_reviewers(workspace)
    path = workspace.path
    workspace.close()
    window.open_workspace(path)
    page = window.entries_page
    window.open_entries(["a"])
    qtbot.waitUntil(lambda: page.model.frame is not None and page.model.frame.complete, timeout=20_000)
    return page


def test_the_table_is_not_read_again_when_the_reviewers_are_read_again(window, workspace, monkeypatch, qtbot):
    page = _open_with_reviewers(window, workspace, qtbot)
    calls = _main_thread_loads(monkeypatch)
    reviewer = page.ratings.reviewer_id
    page.refresh()  # the tab shown again, another program may have changed the reviewers: the same one rates
    page.ratings.reload_reviewers()
    assert page.ratings.reviewer_id == reviewer and calls == []
    other = "bea" if reviewer == "amy" else "amy"
    page.ratings.set_reviewer(other)  # a small table is read again at once for the reviewer who now rates
    assert calls == [other]


def test_a_large_table_reads_another_reviewer_s_status_in_the_background(window, workspace, monkeypatch, qtbot):
    monkeypatch.setattr(entries_page, "BACKGROUND_ROWS", 10)
    page = _open_with_reviewers(window, workspace, qtbot)
    page.ratings.set_reviewer("amy")
    qtbot.waitUntil(lambda: page.model.frame.complete and page.ratings.reviewer_id == "amy", timeout=20_000)
    calls = _main_thread_loads(monkeypatch)
    model = page.model
    review = next(i for i, c in enumerate(model.visible_columns()) if c.field == "review")
    row = model.view_row_of(0)
    unrated = model.index(row, review).data()
    page.ratings.set_reviewer("bea")  # bea rated e00
    qtbot.waitUntil(lambda: page.model.index(page.model.view_row_of(0), review).data() != unrated, timeout=20_000)
    assert calls == []  # read in a worker thread: the window never stopped for it
