"""The per-entry statistics of a scored run are stored with it (store/statistics.py) and
comparing runs reads them instead of decoding every entry's results; what they give is what
rebuilding from the stored results gives, and a workspace's bad rows are never trusted."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_gui.app import compare
from mteval_gui.app.compare import CompareOptions
from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.store import repo
from mteval_gui.store.statistics import StoredStatistics, load_run_statistics, store_run_statistics
from tests.scoring.test_results_store import FAST, _setup

METRICS = [*FAST, "core.ter"]


def _fresh(ws, run_id, *, from_store: bool):
    compare._cache.clear()
    if not from_store:
        ws.conn.execute("DELETE FROM run_statistics WHERE run_id = ?", (run_id,))
        ws.conn.commit()
    return compare.run_statistics(ws, run_id)


def _same(a, b) -> None:
    assert set(a.stats) == set(b.stats) and a.problems == b.problems
    for key, st in a.stats.items():
        other = b.stats[key]
        assert (st.kind, st.params, st.scale) == (other.kind, other.params, other.scale), key
        assert np.array_equal(st.matrix, other.matrix), key
    assert a.composite.point() == b.composite.point()


def test_scoring_stores_the_statistics_compare_would_rebuild(workspace):
    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=METRICS, n_bootstrap=50)
    stamp = repo.get_run_info(workspace, rid)["scored_at"]
    kept = load_run_statistics(workspace, rid, stamp)
    assert {"chrf_plus_plus", "bleu", "ter", "exact_match_rate", "hallucination_rate"} <= set(kept)
    assert kept["chrf_plus_plus"].kind == "chrf" and kept["chrf_plus_plus"].matrix.shape == (30, 24)
    assert dict(kept["bleu"].params)["max_ngram_order"] == 4
    stored = _fresh(workspace, rid, from_store=True)
    rebuilt = _fresh(workspace, rid, from_store=False)
    _same(stored, rebuilt)


def test_compare_reads_no_entry_results_when_the_statistics_are_stored(workspace, monkeypatch):
    ids = _setup(workspace, runs=2)
    for rid in ids:
        score_workspace_run(workspace, rid, metrics=METRICS, n_bootstrap=50)
    asked: list[list[str]] = []
    original = compare.entry_scores_many
    monkeypatch.setattr(compare, "entry_scores_many", lambda ws, run_id, mids: asked.append(list(mids))
                        or original(ws, run_id, mids))
    compare._cache.clear()
    result = compare.compare_workspace_runs(workspace, [ids[1]], ids[0], CompareOptions(trials=50))
    assert {"chrf_plus_plus", "bleu", "ter", "composite"} <= set(result.metrics)
    assert asked == [[], []]  # every key's statistics came from the store
    compare._cache.clear()
    workspace.conn.execute("DELETE FROM run_statistics")
    workspace.conn.commit()
    again = compare.compare_workspace_runs(workspace, [ids[1]], ids[0], CompareOptions(trials=50))
    assert "core.chrf" in asked[-1]  # rebuilt from the entries' results: the same tests
    for key in result.metrics:
        assert again.results[ids[1]][key].p_value == result.results[ids[1]][key].p_value
        assert again.scores[ids[1]][key] == result.scores[ids[1]][key]


def test_statistics_of_an_earlier_scoring_are_not_used(workspace):
    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=METRICS, n_bootstrap=50)
    old = repo.get_run_info(workspace, rid)["scored_at"]
    score_workspace_run(workspace, rid, metrics=["core.exact", "core.chrf"], n_bootstrap=50)
    new = repo.get_run_info(workspace, rid)["scored_at"]
    assert new != old and load_run_statistics(workspace, rid, old) == {}
    assert set(load_run_statistics(workspace, rid, new)) == {"exact_match_rate", "chrf_plus_plus"}


@pytest.mark.parametrize("damage", [
    "UPDATE run_statistics SET matrix = substr(matrix, 1, 16)",           # shorter than its shape
    "UPDATE run_statistics SET kind = 'pickle'",                          # not a kind of statistic
    "UPDATE run_statistics SET params = '{\"__reduce__\": 1}'",           # not a list of pairs
    "UPDATE run_statistics SET params = 'not json'",
    "UPDATE run_statistics SET n_cols = 0",
    "UPDATE run_statistics SET matrix = zeroblob(length(matrix))",        # not the card's values
])
def test_damaged_rows_are_rebuilt_from_the_entries_results(workspace, damage):
    (rid,) = _setup(workspace)
    score_workspace_run(workspace, rid, metrics=METRICS, n_bootstrap=50)
    rebuilt = _fresh(workspace, rid, from_store=False)
    score_workspace_run(workspace, rid, metrics=METRICS, n_bootstrap=50)
    workspace.conn.execute(damage)
    workspace.conn.commit()
    _same(_fresh(workspace, rid, from_store=True), rebuilt)


def test_a_run_without_a_run_card_stores_nothing(workspace):
    (rid,) = _setup(workspace)
    st = StoredStatistics("ratio", np.ones((29, 2)))
    assert store_run_statistics(workspace, rid, {"exact_match_rate": st}) is None
    assert workspace.conn.execute("SELECT count(*) FROM run_statistics").fetchone()[0] == 0
