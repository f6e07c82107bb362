"""The batch schedule of a job, alone: which batches are scored, how a batch's two parts join,
and that every batch is committed once."""

from __future__ import annotations

from mteval_gui.domain.card import MetricRef
from mteval_gui.scoring.job import MetricState
from mteval_gui.scoring.plugins import MetricInfo
from mteval_gui.scoring.schedule import BatchSchedule, batch_count, split_metrics


def test_batches_of_a_job():
    assert [batch_count(n, 4) for n in (0, 1, 4, 5, 40)] == [0, 1, 1, 2, 10]
    s = BatchSchedule(10, 4)
    assert (s.n_batches, s.todo, s.entries_done) == (3, [0, 1, 2], 0)
    assert [s.size(b) for b in range(3)] == [4, 4, 2]
    assert list(range(10))[s.bounds(2)] == [8, 9]


def test_stored_batches_are_skipped_and_those_to_retry_come_last():
    # 7: a batch of another batch size, stored before; 1: stored but lacking a metric's results
    s = BatchSchedule(20, 4, stored={0, 1, 3, 7}, retry={1})
    assert s.stored == {0, 3} and s.todo == [2, 4] and s.entries_done == 8
    s.commit(2)
    s.commit(2)  # once
    s.commit(1)
    assert s.committed == {1, 2} and s.entries_done == 16


def test_a_batch_in_two_parts_is_committed_when_both_are_there():
    s = BatchSchedule(12, 4)
    assert s.mine(0, ["m0"]) is None and s.waiting() == [0]
    assert s.theirs(0, ["t0"]) == ["m0", "t0"] and s.waiting() == []
    assert s.theirs(1, ["t1"]) is None  # the helper's part first
    assert s.mine(1, ["m1"]) == ["m1", "t1"]


def test_a_batch_the_helper_sent_whole_replaces_its_parts_and_is_committed_once():
    s = BatchSchedule(12, 4)
    assert s.mine(2, ["m2"]) is None
    assert s.whole(2) and s.waiting() == []  # its part from here is dropped
    s.commit(2)
    assert not s.whole(2)  # both processes took the last batch: it is not committed again


def test_a_lost_helper_leaves_its_batches_in_order():
    s = BatchSchedule(40, 4)
    s.lose([9, 7, 8])
    s.lose([5])
    assert s.lost == [7, 8, 9, 5]


class _Metric:
    def __init__(self, *, single_process: bool = False, fork_safe: bool = True) -> None:
        self.info = MetricInfo(id="test.m", version="1", display_name="m", scale="0-1", single_process=single_process,
                               fork_safe=fork_safe)


def _state(mid: str, **kw) -> MetricState:
    metric = _Metric(**kw)
    return MetricState(ref=MetricRef(id=mid, python_name="x:Y"), metric=metric, info=metric.info)


def test_which_process_scores_which_metric():
    from mteval_gui.scoring.isolation import ProcessMetric

    isolated = MetricState(ref=MetricRef(id="iso", python_name="x:Y"), metric=object.__new__(ProcessMetric))
    shared, lone, unsafe = _state("both"), _state("lone", single_process=True), _state("unsafe", fork_safe=False)
    here, alone, both = split_metrics([shared, isolated, lone, unsafe])
    assert [s.ref.id for s in here] == ["iso"]
    assert [s.ref.id for s in alone] == ["lone", "unsafe"]
    assert [s.ref.id for s in both] == ["both"]
