"""Several workspace runs scored side by side in worker processes: the same stored results as
scoring them one after the other; per-run locks and resuming still hold."""

from __future__ import annotations

import contextlib
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


def _job_kwargs(db) -> dict:
    ws = Workspace(db)
    try:
        plan = plan_scoring(ws, ["good", "poor"], ScoringOverrides.of(metrics=METRICS, n_bootstrap=50, batch_size=10))
        return plan.job_kwargs(ws.path)
    finally:
        ws.close()


def test_the_background_job_scores_two_runs_in_two_processes(toy_ws, tmp_path, monkeypatch):  # noqa: F811
    """The GUI's Score action (``score_runs`` in its child process) used one core for several runs."""
    import os
    import time

    from mteval_gui.app import scoring

    seen = tmp_path / "pids"
    seen.mkdir()
    original = scoring.score_workspace_run

    def recording(ws, run_id, **kwargs):
        (seen / f"{run_id}-{os.getpid()}").touch()
        # a worker that starts late finds no run left when the first finished both (a loaded
        # machine): each waits a while for the other run to start
        deadline = time.monotonic() + 30
        while len(os.listdir(seen)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        return original(ws, run_id, **kwargs)

    monkeypatch.setattr(scoring, "score_workspace_run", recording)
    partial: list[dict] = []
    summaries = scoring.score_runs(**_job_kwargs(toy_ws), workers=2, on_progress=lambda p: None,
                                   on_partial=partial.append, cancel_event=None)
    assert sorted(s["run_id"] for s in summaries) == ["good", "poor"] and all(s["finished"] for s in summaries)
    pids = {name.split("-")[1] for name in os.listdir(seen)}
    assert len(pids) == 2 and str(os.getpid()) not in pids
    assert {p["run_id"] for p in partial if "done" in p} == {"good", "poor"}


def test_the_background_job_reports_a_busy_run_and_scores_the_other(toy_ws):  # noqa: F811
    from mteval_gui.app.scoring import score_runs
    from mteval_gui.errors import MtevalError

    partial: list[dict] = []
    ws = Workspace(toy_ws)
    with run_lock(ws, "good", purpose="scored"), pytest.raises(MtevalError, match="^good: .*another job"):
        score_runs(**_job_kwargs(toy_ws), workers=2, on_progress=lambda p: None, on_partial=partial.append,
                   cancel_event=None)
    assert [p for p in partial if "error" in p][0]["run_id"] == "good"
    assert [p["run_id"] for p in partial if p.get("finished")] == ["poor"]
    assert scoring_job(ws, "poor")["state"] == "done"
    ws.close()


def test_score_process_scores_the_runs_side_by_side_in_a_child_process(toy_ws, tmp_path, capsys):  # noqa: F811
    from mteval_gui.cli import main

    serial_db = tmp_path / "serial.sqlite"
    shutil.copy(toy_ws, serial_db)
    args = ["score", "--all", "--metrics", *METRICS, "--bootstrap", "50", "--batch-size", "10"]
    assert main(["--db", str(toy_ws), *args, "--process"]) == 0
    out = capsys.readouterr().out
    assert out.index("good: composite") < out.index("poor: composite")
    assert main(["--db", str(serial_db), *args, "--workers", "1"]) == 0
    assert _stored(toy_ws) == _stored(serial_db)


def test_score_process_names_the_busy_run_and_stores_the_other(toy_ws, capsys):  # noqa: F811
    from mteval_gui.cli import main

    ws = Workspace(toy_ws)
    with run_lock(ws, "poor", purpose="scored"):
        code = main(["--db", str(toy_ws), "score", "--all", "--metrics", *METRICS, "--bootstrap", "50", "--process"])
    captured = capsys.readouterr()
    assert code != 0 and "poor: " in captured.err and "another job" in captured.err
    assert "good: composite" in captured.out
    assert scoring_job(ws, "good")["state"] == "done"
    ws.close()


def _job_kwargs_of(db, runs) -> dict:
    ws = Workspace(db)
    try:
        overrides = ScoringOverrides.of(metrics=METRICS, n_bootstrap=50, batch_size=10)
        return plan_scoring(ws, list(runs), overrides).job_kwargs(ws.path)
    finally:
        ws.close()


@pytest.mark.parametrize("kind", ["input", "busy"])
@pytest.mark.parametrize("runs", [("good",), ("good", "poor")])
def test_a_failing_run_keeps_its_error_type_with_one_and_with_several_runs(toy_ws, monkeypatch, kind, runs):  # noqa: F811
    """With two runs the pool turned a run's InputError or RunBusy into a plain MtevalError
    carrying its text; with one run it kept its type."""
    from mteval_gui.app import scoring
    from mteval_gui.errors import Defect, InputError
    from mteval_gui.store.locks import RunBusy

    real = scoring.score_workspace_run

    def bad_glossary(ws, run_id, **kwargs):  # inherited by the forked workers
        if run_id == "good":
            raise InputError([Defect("glossary.tsv", 4, "no target term"), Defect("glossary.tsv", 9, "empty")])
        return real(ws, run_id, **kwargs)

    if kind == "input":
        monkeypatch.setattr(scoring, "score_workspace_run", bad_glossary)
    kwargs = _job_kwargs_of(toy_ws, runs)
    ws = Workspace(toy_ws)
    partial: list[dict] = []
    lock = run_lock(ws, "good", purpose="scored") if kind == "busy" else contextlib.nullcontext()
    with lock, pytest.raises(InputError if kind == "input" else RunBusy) as caught:
        scoring.score_runs(**kwargs, workers=2, on_progress=lambda p: None, on_partial=partial.append,
                           cancel_event=None)
    ws.close()
    error = caught.value
    prefix = "good: " if len(runs) > 1 else ""
    if kind == "input":
        assert error.defects == [Defect("glossary.tsv", 4, "no target term"), Defect("glossary.tsv", 9, "empty")]
        assert str(error) == f"{prefix}glossary.tsv:4: no target term\nglossary.tsv:9: empty"
    else:
        assert error.run_id == "good" and str(error).startswith(f"{prefix}run 'good' is being scored by another job")
    assert [p["run_id"] for p in partial if p.get("finished")] == list(runs[1:])


def test_mteval_score_exits_as_for_bad_input_when_one_of_two_runs_has_bad_input(toy_ws, monkeypatch, capsys):  # noqa: F811
    """The CLI printed ``mteval: error: good: …`` and exited 1 (a plain error), not 2 (bad input)."""
    from mteval_gui.app import scoring
    from mteval_gui.cli import EXIT_INPUT, main
    from mteval_gui.errors import Defect, InputError

    real = scoring.score_workspace_run

    def bad_glossary(ws, run_id, **kwargs):  # inherited by the forked workers
        if run_id == "good":
            raise InputError(Defect("glossary.tsv", 4, "no target term"))
        return real(ws, run_id, **kwargs)

    monkeypatch.setattr(scoring, "score_workspace_run", bad_glossary)
    code = main(["--db", str(toy_ws), "score", "--all", "--metrics", *METRICS, "--bootstrap", "50", "--workers", "2"])
    captured = capsys.readouterr()
    assert code == EXIT_INPUT
    assert captured.err.splitlines()[-1] == "mteval: error: good: glossary.tsv:4: no target term"
    assert "poor: composite" in captured.out
