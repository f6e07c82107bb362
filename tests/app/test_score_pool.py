"""Several workspace runs scored side by side in worker processes: the same stored results as
scoring them one after the other; per-run locks and resuming still hold."""

from __future__ import annotations

import shutil

import pytest

from mteval_gui.app.scoring import score_workspace_runs
from mteval_gui.app.scoring_config import ScoringOverrides, plan_scoring
from mteval_gui.scoring import parallel
from mteval_gui.store import Workspace
from mteval_gui.store.locks import run_lock
from mteval_gui.store.results import ResultsStore, load_run_card_dict, scoring_job
from tests.cli.test_scoring_cli import toy_ws  # noqa: F401  # the fixture

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs os.fork")
METRICS = ["core.exact", "core.chrf", "core.bleu", "core.ter"]


def _jobs(ws, runs=("good", "poor")):
    plan = plan_scoring(ws, list(runs), ScoringOverrides.of(metrics=METRICS, n_bootstrap=50, batch_size=10))
    return [(p.run_id, p.configuration) for p in plan.to_score]


def _stored(db) -> dict:
    ws = Workspace(db)
    try:
        out = {}
        for run_id in ("good", "poor"):
            card = load_run_card_dict(ws, run_id)
            card.pop("timestamp")
            card["scores"].pop("entries_per_second", None)
            out[run_id] = (card, ResultsStore(ws).load_entry_scores(run_id, METRICS))
        return out
    finally:
        ws.close()


def test_two_workers_store_what_one_after_the_other_stores(toy_ws, tmp_path):  # noqa: F811
    serial_db = tmp_path / "serial.sqlite"
    shutil.copy(toy_ws, serial_db)
    ws = Workspace(toy_ws)
    outcomes = score_workspace_runs(ws, _jobs(ws), workers=2)
    assert [(o.run_id, o.error, o.cancelled) for o in outcomes] == [("good", None, False), ("poor", None, False)]
    assert outcomes[0].card is not None and outcomes[0].card.scores.exact_matches == 18
    ws.close()
    serial_ws = Workspace(serial_db)
    serial = score_workspace_runs(serial_ws, _jobs(serial_ws), workers=1)
    serial_ws.close()
    assert [o.card.scores.chrf_plus_plus for o in serial] == [o.card.scores.chrf_plus_plus for o in outcomes]
    assert _stored(toy_ws) == _stored(serial_db)


def test_a_busy_run_is_reported_and_the_others_are_scored_then_a_rerun_resumes(toy_ws):  # noqa: F811
    ws = Workspace(toy_ws)
    with run_lock(ws, "good", purpose="scored"):
        outcomes = score_workspace_runs(ws, _jobs(ws), workers=2)
    assert outcomes[0].card is None and "being scored by another job" in outcomes[0].error
    assert outcomes[1].error is None and outcomes[1].card is not None
    assert scoring_job(ws, "poor")["state"] == "done"
    again = score_workspace_runs(ws, _jobs(ws), workers=2)
    assert [o.run_id for o in again] == ["good"] and again[0].error is None  # poor is up to date
    assert scoring_job(ws, "good")["state"] == "done"
    ws.close()
