"""Small metric plugins used by the runner tests (resolved through ``tests.scoring.runner_metrics:Name``)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
)

CALLS: dict[str, int] = {}
CANCEL: dict[str, Any] = {}  # {"token": CancelToken, "after": n}: cancel once n entries were scored


class CountingMetric(BaseMetric):
    """Output length per entry; counts how many entries it was asked to score."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.count", version="1", display_name="Counting", scale="count",
                                            produces=("test_length",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        CALLS["test.count"] = CALLS.get("test.count", 0) + len(items)
        if CANCEL and CALLS["test.count"] >= CANCEL["after"]:
            CANCEL.pop("token").cancel()
            CANCEL.clear()
        return [EntryScore(float(len(it.predicted))) for it in items]


class FailingPrepareMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(id="test.prepare_fails", version="1", display_name="x", scale="0-1",
                                            produces=("test_prepare",))

    def prepare(self, context: ScoringContext) -> None:
        raise RuntimeError("model file is corrupt")


class UnavailableMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(id="test.unavailable", version="1", display_name="x", scale="0-1",
                                            produces=("semantic_score",))

    def prepare(self, context: ScoringContext) -> None:
        raise MetricUnavailable("no glosses for this language")


class FailingScoreMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(id="test.score_fails", version="1", display_name="x", scale="0-1",
                                            produces=("test_score",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if any(it.index >= 4 for it in items):
            raise ValueError("cannot score entry 4")
        return [EntryScore(1.0) for _ in items]


class HeavyMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(id="test.heavy", version="1", display_name="x", scale="0-1", heavy=True,
                                            produces=("comet_score",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(0.5) for _ in items]

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        return CorpusScore({"comet_score": 0.5, "comet_model": "test/heavy"}, extra={"covered": False})


class CardEquivalentMetric(BaseMetric):
    """A language standard that accepts every non-empty output as equivalent."""

    info: ClassVar[MetricInfo] = MetricInfo(id="xx.lint", version="1", display_name="Linter", scale="0-1",
                                            needs_reference=True,
                                            produces=("equivalent_match_rate", "equivalent_matches"))

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.unavailable = bool(params.get("unavailable"))

    def prepare(self, context: ScoringContext) -> None:
        if self.unavailable:
            raise MetricUnavailable("linter word lists missing")

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            ok = bool(it.predicted.strip())
            out.append(EntryScore(1.0 if ok else 0.0,
                                  detail={"verdict": "EQUIVALENT" if ok else "NO_OUTPUT", "classes": ["TEST"]}))
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        n = sum(e.value or 0 for e in per_entry)
        return CorpusScore({"equivalent_match_rate": n / len(per_entry), "equivalent_matches": int(n)})




class PidMetric(BaseMetric):
    """Records which process scored each entry (parallel scoring tests)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.pid", version="1", display_name="x", scale="0-1",
                                            produces=("test_pid",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(1.0, detail={"pid": os.getpid()}) for _ in items]


class SleepyMetric(BaseMetric):
    """0.05 s a batch wherever it runs (a batch still being scored when a test acts)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.sleepy", version="1", display_name="x", scale="0-1",
                                            produces=("test_sleepy",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        time.sleep(0.05)
        return [EntryScore(1.0) for _ in items]


class GpuMetric(BaseMetric):
    """Declares a GPU; records the ``comet_gpus`` option it was given (1 on a cluster's GPU worker)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.gpu", version="1", display_name="x", scale="0-1",
                                            produces=("test_gpu",), gpu=True)

    def prepare(self, context: Any) -> None:
        super().prepare(context)
        self.gpus = int(context.options.get("comet_gpus") or 0)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(0.5, detail={"gpus": self.gpus}) for _ in items]


class SlowInParentMetric(PidMetric):
    """Slow in the process that made it (the parent), quick in a forked helper."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.slow_parent", version="1", display_name="x", scale="0-1",
                                            produces=("test_slow",))

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.made_in = os.getpid()

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if os.getpid() == self.made_in:
            time.sleep(0.3)
        return super().score_entries(items)


class LoneMetric(PidMetric):
    """Declared single_process: with two workers only the forked helper scores it."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.lone", version="1", display_name="x", scale="0-1",
                                            produces=("test_lone",), single_process=True)


class LoneFailingMetric(BaseMetric):
    """single_process and failing on entry 21 (a batch the parent takes)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.lone_fails", version="1", display_name="x", scale="0-1",
                                            produces=("test_lone_fails",), single_process=True)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if any(it.index == 21 for it in items):
            raise ValueError("cannot score entry 21")
        return [EntryScore(1.0) for _ in items]


class LateFailingMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(id="test.late_fails", version="1", display_name="x", scale="0-1",
                                            produces=("test_late",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if any(it.index >= 36 for it in items):
            raise ValueError("cannot score entry 36")
        return [EntryScore(1.0) for _ in items]



class ForkUnsafeMetric(PidMetric):
    """Declared fork-unsafe (like an OpenMP engine): a process forked after the parent ran it hangs.

    It hangs in a forked helper of a parent that has scored it ("the parent's threads are gone"),
    as such an engine does, and scores everywhere else."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.fork_unsafe", version="1", display_name="x", scale="0-1",
                                            produces=("test_fork_unsafe",), single_process=True, fork_safe=False)
    used_in: ClassVar[set[int]] = set()

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if ForkUnsafeMetric.used_in and os.getpid() not in ForkUnsafeMetric.used_in:
            time.sleep(3600)  # the first parallel region of a forked process never returns
        ForkUnsafeMetric.used_in.add(os.getpid())
        return super().score_entries(items)


class StuckInHelperMetric(PidMetric):
    """Never returns in a forked helper (a library stuck on a lock the fork copied held)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="test.stuck_in_helper", version="1", display_name="x", scale="0-1",
                                            produces=("test_stuck",), single_process=True)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.made_in = os.getpid()

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if os.getpid() != self.made_in:
            time.sleep(3600)
        return super().score_entries(items)
