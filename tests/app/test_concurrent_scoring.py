"""Two jobs on one run, two commands on one new workspace.

The rule for one run scored twice at once: the run's lock lets one job score it; a second job
started meanwhile is refused with a message naming the first, and writes nothing. A job that
was planned while the first one ran (the run had no results yet) and gets the lock after it
finished is refused too, instead of wiping the results it did not see. Scoring the run with
another metric set afterwards needs ``--replace``, and then the run holds the later job's
results only — never a mix of the two.
"""

from __future__ import annotations

import io
import multiprocessing
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.errors import MtevalError
from mteval_gui.store import Workspace
from tests.app.scoring_helpers import FAST, make_workspace, stored_results

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork")
CTX = multiprocessing.get_context("fork")


def _wait_for(path: Path, proc, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not path.exists():
        assert proc.exitcode is None, f"the first job ended early (exit {proc.exitcode})"
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


def _first_job(db: str, paused: str, go: str) -> None:
    """Score the run with chrF++ and exact match, and stop (holding the run) once batches are stored."""
    from mteval_gui.app.scoring import score_workspace_run

    def progress(p) -> None:
        if p.stage == "scoring" and p.done > 0 and not Path(paused).exists():
            Path(paused).touch()
            while not Path(go).exists():
                time.sleep(0.02)

    ws = Workspace(db)
    score_workspace_run(ws, "r", metrics=["core.exact", "core.chrf"], batch_size=2, on_progress=progress, **FAST)
    ws.close()


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_the_same_run_scored_twice_at_once_with_different_metric_sets(tmp_path):
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.app.scoring_config import ScoringOverrides, plan_scoring

    db = tmp_path / "ws.sqlite"
    make_workspace(db)
    _cli("--db", str(tmp_path / "warm.sqlite"), "score", "--all")  # imports done once, before the fork
    paused, go = tmp_path / "paused", tmp_path / "go"
    first = CTX.Process(target=_first_job, args=(str(db), str(paused), str(go)))
    first.start()
    try:
        _wait_for(paused, first)
        # a second command while the first job holds the run: refused at once, naming the first
        code, _, err = _cli("--db", str(db), "score", "r", "--metrics", "core.bleu", "--bootstrap", "30")
        assert code == 1
        assert f"run 'r' is being scored by another job (process {first.pid}, since " in err
        assert "wait for it to finish, or cancel it, and try again" in err
        # a job planned now (the run has no results yet) ...
        ws = Workspace(db)
        plan = plan_scoring(ws, ["r"], ScoringOverrides.of(metrics=["core.bleu"], n_bootstrap=30))
        assert [p.action for p in plan.runs] == ["score"]
        go.touch()
    finally:
        first.join(120)
    assert first.exitcode == 0
    firsts = stored_results(db)
    assert {m for _, m, _, _ in firsts["entry_metrics"]} == {"core.exact", "core.chrf"}
    assert len(firsts["entry_metrics"]) == 2 * 12 and firsts["scores"]["chrf_plus_plus"] is not None
    # ... and carried out once the first one has finished is refused: it does not wipe what it did not see
    with pytest.raises(MtevalError, match=r"r: another job scored it meanwhile with another configuration; this "
                                          r"would change: metrics: core.chrf, core.exact → core.bleu \(drops "
                                          r"core.chrf, core.exact\)\nnothing was scored: add --replace"):
        score_workspace_run(ws, "r", configuration=plan.to_score[0].configuration, replace=False)
    ws.close()
    assert stored_results(db) == firsts
    # afterwards: another metric set needs --replace, and then the run holds the later job's results only
    code, _, err = _cli("--db", str(db), "score", "r", "--metrics", "core.bleu", "--bootstrap", "30")
    assert code == 1 and "r: already scored with another configuration" in err
    assert stored_results(db) == firsts
    code, out, _ = _cli("--db", str(db), "score", "r", "--metrics", "core.bleu", "--bootstrap", "30", "--replace")
    assert code == 0 and "r: scoring it again with its stored configuration, changed: metrics:" in out
    later = stored_results(db)
    assert {m for _, m, _, _ in later["entry_metrics"]} == {"core.bleu"}
    assert later["scores"]["bleu"] is not None and later["scores"]["chrf_plus_plus"] is None


def _command(db: str, n: int, barrier) -> tuple[int, str]:
    barrier.wait()
    corpus = Path(db).parent / f"corpus{n}.jsonl"
    code, _, err = _cli("--db", db, "import", "corpus", str(corpus), "--id", f"c{n}", "--source-lang", "eng",
                        "--target-lang", "fra")
    return code, err


def test_two_commands_creating_one_new_workspace(tmp_path):
    """Eight trials of two `mteval import corpus` commands, in two processes, on one --db path
    that does not exist yet: both succeed, both corpora are there."""
    for n in range(2):
        (tmp_path / f"corpus{n}.jsonl").write_text(
            "".join(f'{{"id": "e{i}", "source": "s{i}", "reference": "r{i}"}}\n' for i in range(3)), encoding="utf-8")
    _cli("--db", str(tmp_path / "warm.sqlite"), "list", "corpora")  # imports done once, before the fork
    barrier = CTX.Manager().Barrier(2)
    outcomes = []
    with CTX.Pool(2) as pool:
        for trial in range(8):
            db = tmp_path / f"new{trial}.sqlite"
            outcomes.append(pool.starmap(_command, [(str(db), n, barrier) for n in range(2)], chunksize=1))
            ws = Workspace(db)
            assert sorted(r[0] for r in ws.conn.execute("SELECT corpus_id FROM corpora")) == ["c0", "c1"]
            ws.close()
    assert outcomes == [[(0, ""), (0, "")]] * 8
