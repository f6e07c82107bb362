"""The entries table reads its texts from the workspace for the rows shown, and its values by entry."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_gui.app import entry_frame
from mteval_gui.app.entries import WorkspaceTexts, load_entry_frame, open_entry_frame, refresh_entry_frame
from mteval_gui.app.entry_frame import EntryFilter, LazyColumn, view_order
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.store import repo, results

N = 40


def _id(i: int) -> str:
    return f"x{(i * 7) % N:02d}"  # not in key order: x00, x07, x14, ...


def _source(i: int) -> str:
    return f"source {i} ᓃᐹᐤ" if i % 3 == 0 else f"Straße {i}"


def _fill(ws) -> None:
    entries = [Entry(id=_id(i), source=_source(i), reference=None if i % 4 == 0 else f"ref {i}",
                     difficulty=None if i % 5 == 0 else 1 + i % 3) for i in range(N)]
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"),
                               entries=entries))
    # run a: every entry, one with an error; run b: every other entry
    repo.add_run(ws, Run(meta=RunMeta(run_id="a", model_slug="A"), corpus_id="c", outputs=[
        Output(id=_id(i), predicted=f"out a {i}", error="timeout" if i == 9 else None) for i in range(N)]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="b", model_slug="B"), corpus_id="c", outputs=[
        Output(id=_id(i), predicted=f"out b {i}") for i in range(0, N, 2)]))
    with ws.transaction() as conn:  # run a: a value for every entry; run b: for a few
        conn.executemany("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
                         [("a", _id(i), "core.chrf", float(i % 6) * 10, "{}") for i in range(N)]
                         + [("b", _id(i), "core.chrf", 100.0 - i, "{}") for i in (3, 8, 20)])


@pytest.fixture
def ws(workspace):
    _fill(workspace)
    return workspace


def test_the_texts_are_read_for_the_rows_asked(ws, monkeypatch):
    monkeypatch.setattr(entry_frame, "ROWS_READ_AT_ONCE", 8)
    frame = load_entry_frame(ws, ["a", "b"])
    assert isinstance(frame.source, LazyColumn) and frame.texts is not None
    assert frame.entry_ids.tolist() == [_id(i) for i in range(N)]
    assert not any(frame.texts.cached(r) for r in range(N))
    assert frame.source[12] == "source 12 ᓃᐹᐤ"
    assert [r for r in range(N) if frame.texts.cached(r)] == list(range(12, 20))
    a, b = frame.runs
    assert [frame.reference[i] for i in (0, 1, 39)] == [None, "ref 1", "ref 39"]
    assert [a.predicted[i] for i in (9, 10)] == ["out a 9", "out a 10"]
    assert [a.error[i] for i in (8, 9)] == [None, "timeout"]
    assert [b.predicted[i] for i in (2, 3)] == ["out b 2", ""]  # no output: empty
    assert b.error[3] is None
    assert frame.difficulty[[1, 2]].tolist() == [2.0, 3.0] and np.isnan(frame.difficulty[5])
    # whole columns, as the text search and a sort by a text read them
    assert frame.source.tolist() == [_source(i) for i in range(N)]
    assert b.predicted.tolist() == [f"out b {i}" if i % 2 == 0 else "" for i in range(N)]
    assert a.error.tolist() == [None] * 9 + ["timeout"] + [None] * 30


def test_only_the_rows_shown_last_are_kept(ws, monkeypatch):
    monkeypatch.setattr(entry_frame, "ROWS_READ_AT_ONCE", 4)
    frame = load_entry_frame(ws, ["a"])
    assert frame.texts is not None
    frame.texts._cached_rows = 6
    assert frame.source[0] == "source 0 ᓃᐹᐤ"
    assert frame.source[30] == "source 30 ᓃᐹᐤ"
    assert [r for r in range(N) if frame.texts.cached(r)] == [2, 3, 30, 31, 32, 33]
    assert frame.source[1] == "Straße 1"  # read again


def test_values_follow_the_entries_whatever_the_order_of_their_ids(ws):
    ids = [_id(i) for i in range(N)]
    cols = results.entry_value_columns(ws, "a", ids)
    assert cols["core.chrf"].tolist() == [float(i % 6) * 10 for i in range(N)]
    partial = results.entry_value_columns(ws, "b", ids)["core.chrf"]
    assert {i: partial[i] for i in np.flatnonzero(~np.isnan(partial))} == {3: 97.0, 8: 92.0, 20: 80.0}
    in_order = sorted(ids)
    assert results.entry_value_columns(ws, "a", in_order)["core.chrf"].tolist() == [
        float(int(e[1:]) * 23 % N % 6) * 10 for e in in_order]  # x{7i mod 40}: i = 23 * id mod 40


def test_rows_are_found_by_position_across_a_gap(ws, monkeypatch):
    monkeypatch.setattr(entry_frame, "ROWS_READ_AT_ONCE", 3)
    with ws.transaction() as conn:
        conn.execute("DELETE FROM entries WHERE corpus_id = 'c' AND entry_id = ?", (_id(5),))
    frame = load_entry_frame(ws, ["a"])
    assert len(frame) == N - 1
    expected = [_source(i) for i in range(N) if i != 5]
    assert [frame.source[r] for r in range(N - 1)] == expected
    assert frame.row_of(_id(6)) == 5
    texts = WorkspaceTexts(ws, "c", ["a"])
    assert texts.find("entry_id", _id(39)) == N - 2 and texts.find("entry_id", "nope") is None
    assert texts.find("source", "Straße 7") == 6 and texts.find("source", "Straße 5") is None


def test_the_first_rows_come_before_the_values(ws):
    first = open_entry_frame(ws, ["a", "b"], rows=5)
    assert not first.complete and first.texts is not None
    assert [r for r in range(N) if first.texts.cached(r)] == [0, 1, 2, 3, 4]
    assert first.entry_ids[3] == _id(3) and first.row_of(_id(7)) == 7
    assert list(first.runs[0].metrics) == ["core.chrf"] and np.isnan(first.runs[0].metrics["core.chrf"]).all()
    assert first.runs[0].review is None
    full = refresh_entry_frame(ws, first)  # a reload of a frame still to complete reads it all
    assert full.complete and full.texts is first.texts and full.source is first.source
    assert full.runs[0].metrics["core.chrf"][:7].tolist() == [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 0.0]
    assert full.runs[1].metrics["core.chrf"][3] == 97.0


def test_a_sort_by_values_keeps_its_order_for_both_directions():
    rng = np.random.default_rng(5)
    n = 3000
    values = rng.integers(0, 9, n).astype(float)
    values[rng.random(n) < 0.1] = np.nan
    values[:4] = [-0.0, 0.0, -0.0, np.nan]
    frame = entry_frame.EntryFrame("c", np.array([f"e{i}" for i in range(n)], dtype=object),
                                   np.array([""] * n, dtype=object), np.array([""] * n, dtype=object),
                                   (np.arange(n) % 4).astype(float))
    known = [i for i in range(n) if not np.isnan(values[i])]
    missing = [i for i in range(n) if np.isnan(values[i])]
    ascending = sorted(known, key=lambda i: values[i]) + missing
    descending = sorted(known, key=lambda i: -values[i]) + missing
    assert view_order(frame, EntryFilter(), values).tolist() == ascending
    assert view_order(frame, EntryFilter(), values, descending=True).tolist() == descending
    assert frame.sorted_rows(values) is frame.sorted_rows(values)  # kept
    shown = EntryFilter(difficulties=frozenset({1, 3}))
    keep = {i for i in range(n) if i % 4 in (1, 3)}
    assert view_order(frame, shown, values, descending=True).tolist() == [i for i in descending if i in keep]
    frame.prepare_sorts([values[::-1].copy()]).join()


def test_an_entrys_results_are_looked_up_by_the_run_and_entry_index(ws):
    statements: list[str] = []
    ws.conn.set_trace_callback(statements.append)
    try:
        assert results.entry_details(ws, "a", _id(4)) == {"core.chrf": {}}
    finally:
        ws.conn.set_trace_callback(None)
    sql = next(s for s in statements if "FROM entry_metrics" in s)
    plan = " ".join(str(row[-1]) for row in ws.conn.execute("EXPLAIN QUERY PLAN " + sql))
    assert "idx_entry_metrics_entry" in plan
