"""Both cores for one run: a forked helper scores half the batches; results are serial scoring's."""

from __future__ import annotations

import os
import time

import pytest

from mteval_gui.domain.card import MetricRef
from mteval_gui.errors import Cancelled
from mteval_gui.scoring import parallel
from mteval_gui.scoring.runner import CancelToken, MemorySink, score_run
from tests.scoring import runner_metrics
from tests.scoring.test_runner import SURFACE, T, _request

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs os.fork")

METRICS = [*SURFACE, "core.bleu", "core.ter", "core.code_switching"]
CHRF = MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")


def _comparable(result) -> dict:
    card = result.run_card.model_dump(mode="json")
    card.pop("timestamp")
    card["scores"].pop("entries_per_second", None)
    return card


def test_a_helper_takes_part_only_when_worth_it():
    assert parallel.use_helper(list(range(10)), 2)
    assert not parallel.use_helper(list(range(10)), 1)
    assert not parallel.use_helper([0, 1, 2], 2)  # fewer than MIN_BATCHES


def test_the_parent_takes_batches_from_the_front_and_the_helper_from_the_back():
    claims = parallel.Claims([1, 4, 6, 7, 9])
    assert [claims.front(), claims.back(), claims.back(), claims.front()] == [1, 9, 7, 4]
    assert claims.taken_from_back() == [7, 9]
    assert claims.front() == 6 and claims.front() is None and claims.back() is None


def test_a_slow_parent_leaves_more_batches_to_the_helper():
    """Halves made the faster process wait for the other (0.4 s of 3.3 s in ``mteval evaluate``)."""
    slow = MetricRef(id="test.slow_parent", python_name=f"{T}:SlowInParentMetric")
    sink = MemorySink()
    res = score_run(_request(metrics=[slow], include=None, batch_size=4, workers=2), sink=sink)
    pids = [r.data["detail"]["pid"] for r in sink.rows["toy-run"].values()]
    assert sorted(sink.batches["toy-run"]) == list(range(10)) and res.batches_scored == 10
    assert pids.count(os.getpid()) < len(pids) // 2  # the helper scored most of them


def test_two_workers_give_the_serial_run_card_and_rows():
    serial_sink, parallel_sink = MemorySink(), MemorySink()
    serial = score_run(_request(include=METRICS, batch_size=4), sink=serial_sink)
    both = score_run(_request(include=METRICS, batch_size=4, workers=2), sink=parallel_sink)
    assert _comparable(both) == _comparable(serial)
    assert parallel_sink.rows == serial_sink.rows
    assert sorted(parallel_sink.batches["toy-run"]) == list(range(10))
    assert both.batches_scored == 10
    assert both.run_card.scores.ter is not None and both.run_card.scores.chrf_plus_plus is not None


def test_the_helper_scores_in_another_process():
    pids = set()

    class Sink(MemorySink):
        def write_batch(self, run_id, batch_index, config_hash, rows):
            pids.update(r.data["detail"]["pid"] for r in rows if r.metric_id == "test.pid")
            super().write_batch(run_id, batch_index, config_hash, rows)

    # slow in the parent, so that the helper takes batches however loaded the machine is (the
    # parent may even find none left: it builds the run-card checks while the helper starts)
    metrics = [MetricRef(id="test.pid", python_name=f"{T}:SlowInParentMetric")]
    score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), sink=Sink())
    assert len(pids - {os.getpid()}) == 1


def test_resume_with_two_workers_scores_only_the_missing_batches():
    sink = MemorySink()
    token = CancelToken()
    runner_metrics.CALLS.clear()
    metrics = [MetricRef(id="test.count", python_name=f"{T}:CountingMetric"),
               MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")]
    runner_metrics.CANCEL.update(token=token, after=8)  # cancelled in the parent's second batch
    with pytest.raises(Cancelled):
        score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), cancel=token, sink=sink)
    runner_metrics.CANCEL.clear()
    assert sink.states["toy-run"] == "cancelled"
    committed = sink.done_batches("toy-run", sink.jobs["toy-run"]["config_hash"])
    assert {0, 1} <= committed and len(committed) < 10
    res = score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), sink=sink)
    assert res.batches_reused == len(committed) and res.batches_scored == 10 - len(committed)
    fresh = score_run(_request(metrics=metrics, include=None, batch_size=4))
    assert res.run_card.scores.chrf_plus_plus == fresh.run_card.scores.chrf_plus_plus
    assert res.run_card.metric_availability["test.count"] == "ok"


def test_a_metric_failing_in_the_helper_is_failed_with_its_reason():
    metrics = [MetricRef(id="test.late_fails", python_name=f"{T}:LateFailingMetric"),
               MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")]
    card = score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2)).run_card
    assert card.metric_availability["test.late_fails"] == "failed"
    assert "cannot score entry 36" in card.metric_reasons["test.late_fails"]
    assert card.metric_availability["core.chrf"] == "ok"
    serial = score_run(_request(metrics=metrics, include=None, batch_size=4)).run_card
    assert card.scores.chrf_plus_plus == serial.scores.chrf_plus_plus


def test_a_lost_helper_leaves_its_batches_to_the_parent(monkeypatch):
    real = parallel.BatchHelper.__init__

    def dying(self, claims, score_batch, **kw):
        real(self, claims, lambda b: os._exit(3), **kw)  # the child dies on its first batch

    monkeypatch.setattr(parallel.BatchHelper, "__init__", dying)
    sink = MemorySink()
    res = score_run(_request(include=METRICS, batch_size=4, workers=2), sink=sink)
    assert sorted(sink.batches["toy-run"]) == list(range(10))
    assert _comparable(res) == _comparable(score_run(_request(include=METRICS, batch_size=4)))



def _lone_pids(sink: MemorySink) -> dict[str, int]:
    return {eid: r.data["detail"]["pid"] for (mid, eid), r in sink.rows["toy-run"].items() if mid == "test.lone"}


def test_a_single_process_metric_is_scored_by_the_helper_alone_for_every_batch():
    """A metric that loads large data on first use (the language models of code-switching:
    ≈ 1.1 s of CPU) loaded them in the first batch, before the fork, while the second core
    waited; now the helper loads them while the parent scores the other metrics."""
    lone = MetricRef(id="test.lone", python_name=f"{T}:LoneMetric")
    pid = MetricRef(id="test.pid", python_name=f"{T}:PidMetric")
    metrics = [lone, pid, CHRF]
    sink = MemorySink()
    res = score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), sink=sink)
    assert sorted(sink.batches["toy-run"]) == list(range(10)) and res.batches_scored == 10
    lone_pids = _lone_pids(sink)
    assert len(lone_pids) == 40 and len(set(lone_pids.values())) == 1
    assert os.getpid() not in lone_pids.values()
    # the other metrics of the first batch were scored here, before the fork
    first = {r.data["detail"]["pid"] for (mid, eid), r in sink.rows["toy-run"].items()
             if mid == "test.pid" and int(eid[1:]) < 4}
    assert first == {os.getpid()}
    serial_sink = MemorySink()
    serial = score_run(_request(metrics=metrics, include=None, batch_size=4), sink=serial_sink)
    assert set(_lone_pids(serial_sink).values()) == {os.getpid()}
    card, serial_card = _comparable(res), _comparable(serial)
    assert card == serial_card
    assert {k: r.value for k, r in sink.rows["toy-run"].items()} == \
        {k: r.value for k, r in serial_sink.rows["toy-run"].items()}


def test_a_single_process_metric_failing_in_the_helper_is_failed_with_its_reason():
    metrics = [MetricRef(id="test.lone_fails", python_name=f"{T}:LoneFailingMetric"),
               MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")]
    sink = MemorySink()
    card = score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), sink=sink).run_card
    assert card.metric_availability["test.lone_fails"] == "failed"
    assert "cannot score entry 21" in card.metric_reasons["test.lone_fails"]
    assert card.metric_availability["core.chrf"] == "ok"
    assert sorted(sink.batches["toy-run"]) == list(range(10))
    serial = score_run(_request(metrics=metrics, include=None, batch_size=4)).run_card
    assert card.scores.chrf_plus_plus == serial.scores.chrf_plus_plus


def test_without_the_helper_the_parent_scores_the_single_process_metric(monkeypatch):
    real = parallel.BatchHelper.__init__

    def dying(self, claims, score_batch, **kw):
        real(self, claims, lambda b: os._exit(3), lone=lambda b: os._exit(3))  # dies on its first batch

    monkeypatch.setattr(parallel.BatchHelper, "__init__", dying)
    metrics = [MetricRef(id="test.lone", python_name=f"{T}:LoneMetric"), CHRF]
    sink = MemorySink()
    res = score_run(_request(metrics=metrics, include=None, batch_size=4, workers=2), sink=sink)
    assert sorted(sink.batches["toy-run"]) == list(range(10))
    assert set(_lone_pids(sink).values()) == {os.getpid()} and len(_lone_pids(sink)) == 40
    serial = score_run(_request(metrics=metrics, include=None, batch_size=4))
    assert _comparable(res) == _comparable(serial)


def test_code_switching_is_declared_single_process():
    from mteval_gui.scoring.metrics.behavioural import CodeSwitchingMetric

    assert CodeSwitchingMetric.info.single_process


def test_the_helper_scores_on_while_the_parent_does_not_read(tmp_path):
    """Each batch's rows went through the pipe before the next batch was scored: a parent busy
    elsewhere (loading language models) left the helper blocked on a full pipe buffer."""
    log = tmp_path / "scored"
    big = "x" * 200_000  # one batch's rows fill the pipe's buffer

    def score(b: int):
        with log.open("a", encoding="utf-8") as f:
            f.write(f"{b}\n")
        return [big], []

    claims = parallel.Claims(list(range(8)))
    assert claims.front() == 0
    helper = parallel.BatchHelper(claims, score)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # nothing is read from the pipe meanwhile
            if log.exists() and len(log.read_text(encoding="utf-8").split()) == 7:
                break
            time.sleep(0.05)
        assert sorted(map(int, log.read_text(encoding="utf-8").split())) == list(range(1, 8))
        got = []
        while not helper.finished:
            got.extend(b for b, _rows, _failures, whole in helper.outcomes(wait=True) if whole)
        assert sorted(got) == list(range(1, 8))
    finally:
        helper.close()


def test_a_fork_unsafe_metric_is_scored_by_the_helper_alone_and_never_forked_after_the_parent_ran_it(monkeypatch):
    """An OpenMP engine hangs in a process forked after the parent ran it: the helper alone scores
    such a metric, and once the parent has scored it itself (one worker) no helper is forked for it."""
    monkeypatch.setattr(parallel, "_RAN_HERE", set())
    monkeypatch.setattr(runner_metrics.ForkUnsafeMetric, "used_in", set())
    unsafe = MetricRef(id="test.fork_unsafe", python_name=f"{T}:ForkUnsafeMetric")
    sink = MemorySink()
    score_run(_request(metrics=[unsafe, CHRF], include=None, batch_size=4, workers=2), sink=sink)
    pids = {r.data["detail"]["pid"] for r in sink.rows["toy-run"].values() if r.metric_id == "test.fork_unsafe"}
    assert len(pids) == 1 and os.getpid() not in pids  # the helper alone ran it
    assert parallel.use_helper(list(range(10)), 2, ["x.other"])  # jobs without it still fork
    # the parent runs it itself (one worker), then a job with two workers forks no helper for it
    runner_metrics.ForkUnsafeMetric.used_in.clear()
    score_run(_request(metrics=[unsafe], include=None, batch_size=4, workers=1), sink=MemorySink())
    assert not parallel.use_helper(list(range(10)), 2, ["test.fork_unsafe"])
    sink = MemorySink()
    res = score_run(_request(metrics=[unsafe, CHRF], include=None, batch_size=4, workers=2), sink=sink)
    assert res.batches_scored == 10
    assert {r.data["detail"]["pid"] for r in sink.rows["toy-run"].values()
            if r.metric_id == "test.fork_unsafe"} == {os.getpid()}


def test_a_helper_that_sends_nothing_is_stopped_and_its_batches_are_scored_here(monkeypatch):
    monkeypatch.setenv(parallel.STALL_ENV, "2")
    stuck = MetricRef(id="test.stuck_in_helper", python_name=f"{T}:StuckInHelperMetric")
    messages: list[str] = []
    sink = MemorySink()
    res = score_run(_request(metrics=[stuck, CHRF], include=None, batch_size=4, workers=2), sink=sink,
                    on_progress=lambda p: messages.append(p.message))
    assert res.batches_scored == 10 and sorted(sink.batches["toy-run"]) == list(range(10))
    assert {r.data["detail"]["pid"] for r in sink.rows["toy-run"].values()
            if r.metric_id == "test.stuck_in_helper"} == {os.getpid()}
    assert any(m.startswith("the scoring helper sent nothing for ") and
               m.endswith(" s: it was stopped and this process scores its batches") for m in messages)
    assert res.run_card.metric_availability["test.stuck_in_helper"] == "ok"
