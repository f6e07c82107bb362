"""The cluster address reaches each run's scoring: from the background job's arguments, one run
after the other (no local pool of processes)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from mteval_gui.app import scoring as app_scoring
from mteval_gui.app.scoring_config import ScoringOverrides, job_kwargs, plan_scoring
from mteval_gui.store import Workspace
from tests.cli.test_scoring_cli import toy_ws  # noqa: F401  # the fixture


def test_job_arguments_carry_the_cluster_only_when_there_is_one(tmp_path):
    assert "cluster" not in job_kwargs(tmp_path / "ws.sqlite", [], replace=False)
    assert job_kwargs(tmp_path / "ws.sqlite", [], replace=False, cluster="head:6379", cluster_workers=3) == {
        "db_path": str(tmp_path / "ws.sqlite"), "run_ids": [], "replace": False, "configurations": {},
        "cluster": "head:6379", "cluster_workers": 3}


def test_the_background_job_scores_each_run_on_the_cluster(toy_ws, monkeypatch):  # noqa: F811
    seen = []

    def score(ws, run_id, **kw):
        seen.append((run_id, kw["workers"], kw["cluster"], kw["cluster_workers"]))
        return SimpleNamespace(run_card=None)

    monkeypatch.setattr(app_scoring, "score_workspace_run", score)
    ws = Workspace(toy_ws)
    plan = plan_scoring(ws, ["good", "poor"], ScoringOverrides.of(metrics=["core.chrf"]))
    kwargs = job_kwargs(ws.path, [(p.run_id, p.configuration) for p in plan.to_score], replace=False,
                        cluster="head:6379", cluster_workers=3)
    ws.close()
    app_scoring.score_runs(**kwargs, on_progress=lambda p: None, on_partial=lambda p: None,
                           cancel_event=threading.Event())
    assert seen == [("good", 1, "head:6379", 3), ("poor", 1, "head:6379", 3)]
