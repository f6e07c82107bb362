"""Each stage of a scoring job on its own: progress, sink, job, batches, merge, assembly."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pytest

from mteval_gui.domain.card import MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import Cancelled, MtevalError
from mteval_gui.scoring import assembly, batches, merge
from mteval_gui.scoring.composite import MORPH_MIN_COVERAGE
from mteval_gui.scoring.job import MetricState, ScoringJob, ScoringRequest, json_safe, portable
from mteval_gui.scoring.metrics.surface import ExactMatchMetric
from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryInput, EntryScore, MetricInfo
from mteval_gui.scoring.progress import CancelToken, Progress, Throttle
from mteval_gui.scoring.sink import EntryRow, MemorySink
from mteval_gui.scoring.stats import EntryStats

T = "tests.scoring.runner_metrics"


def _corpus(n: int = 4) -> Corpus:
    return Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"cat {i}", reference=f"chat {i}", difficulty=1 + i % 2) for i in range(n)])


def _run(predicted: Sequence[str], ids: Sequence[str] | None = None) -> Run:
    ids = ids if ids is not None else [f"e{i}" for i in range(len(predicted))]
    return Run(meta=RunMeta(run_id="r", model_slug="m"), corpus_id="toy",
               outputs=[Output(id=i, predicted=p) for i, p in zip(ids, predicted, strict=True)])


def _info(mid: str, *produces: str, **kw: Any) -> MetricInfo:
    return MetricInfo(id=mid, version="1", display_name=mid, scale="0-1", produces=produces, **kw)


def _state(mid: str, *produces: str, availability: str = "ok", reason: str | None = None,
           from_card: bool = False) -> MetricState:
    return MetricState(ref=MetricRef(id=mid, python_name=f"{T}:CountingMetric"), info=_info(mid, *produces),
                       availability=availability, reason=reason, from_card=from_card, language=from_card)


# --------------------------------------------------------------------------- progress and sink


def test_throttle_forwards_stage_changes_forced_and_last_updates_only():
    seen: list[tuple[str, int]] = []
    report = Throttle(lambda p: seen.append((p.stage, p.done)), interval=3600.0)
    report(Progress(0, 10, "scoring"))  # a new stage
    report(Progress(1, 10, "scoring"))  # within the interval: dropped
    report(Progress(2, 10, "scoring"), force=True)
    report(Progress(3, 10, "scoring"))  # dropped
    report(Progress(10, 10, "scoring"))  # the last one of the stage
    report(Progress(0, 1, "aggregating"))
    assert seen == [("scoring", 0), ("scoring", 2), ("scoring", 10), ("aggregating", 0)]
    assert Progress(1, 4, "x").fraction == 0.25 and Progress(0, 0, "x").fraction == 0.0


def test_cancel_token_raises_once_cancelled():
    token = CancelToken()
    token.raise_if_cancelled()
    token.cancel()
    assert token.cancelled
    with pytest.raises(Cancelled, match="committed batches are kept"):
        token.raise_if_cancelled()


def test_memory_sink_keeps_batches_of_the_same_configuration_only():
    sink = MemorySink()
    assert sink.begin_job("r", {}, "h1", 2, 2) == set()
    sink.write_batch("r", 0, "h1", [EntryRow("e0", "m", 1.0, {"value": 1.0})])
    assert sink.begin_job("r", {}, "h1", 2, 2) == {0}
    assert sink.load_entry_scores("r", ["m", "other"]) == {"m": {"e0": {"value": 1.0}}, "other": {}}
    assert sink.begin_job("r", {}, "h2", 2, 2) == set()  # another configuration: its results are dropped
    assert sink.load_entry_scores("r", ["m"]) == {"m": {}}
    sink.mark_job("r", "done")
    assert sink.states == {"r": "done"}


# --------------------------------------------------------------------------- job


def test_job_aligns_outputs_with_the_corpus():
    job = ScoringJob.start(ScoringRequest("r", _corpus(3), _run(["chat 0", "chat 2", "x"], ["e0", "e2", "zz"])))
    assert job.n == 3 and job.entry_ids == ["e0", "e1", "e2"]
    assert [it.predicted for it in job.items] == ["chat 0", "", "chat 2"]
    assert job.missing == ["e1"] and job.unknown == ["zz"]
    assert (job.context.source_lang, job.context.target_lang) == ("eng", "fra")
    assert job.context.corpus_side is not None


def test_json_helpers():
    assert json_safe({"a": float("nan"), "b": np.int64(3), "c": (1, np.float32(0.5)), 4: {"inf": math.inf}}) == {
        "a": None, "b": 3, "c": [1, 0.5], "4": {"inf": None}}
    assert portable({"x": 1, "s": "é"}) == ({"x": 1, "s": "é"}, '{"x":1,"s":"é"}')
    assert portable({"x": float("nan")}) == ({"x": None}, '{"x":null}')


# --------------------------------------------------------------------------- batches


class _Nan(BaseMetric):
    info: ClassVar[MetricInfo] = _info("test.nan", "test_nan")

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(float("nan") if it.index == 1 else 1.0) for it in items]


class _Half(BaseMetric):
    info: ClassVar[MetricInfo] = _info("test.half", "test_half")

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(0.5, values={"test_half.num": 1, "test_half.den": 2}) for _ in items]


def _opened(metric: BaseMetric) -> MetricState:
    return MetricState(ref=MetricRef(id=metric.info.id, python_name="tests:x"), metric=metric, info=metric.info)


def test_resolve_metrics_refuses_unknown_ids_and_leaves_heavy_metrics_out_unless_asked():
    heavy = [MetricRef(id="test.heavy", python_name=f"{T}:HeavyMetric")]
    with pytest.raises(MtevalError, match=r"unknown metric id\(s\) test\.nope; available here: test\.heavy"):
        batches.resolve_metrics(ScoringRequest("r", _corpus(), _run(["a"] * 4), metrics=heavy, include=["test.nope"]))
    (st,) = batches.resolve_metrics(ScoringRequest("r", _corpus(), _run(["a"] * 4), metrics=heavy))
    assert (st.availability, st.metric) == ("unavailable", None)
    assert st.reason == "test.heavy loads a model and runs only when asked for (--heavy, or --metrics test.heavy)"
    (asked,) = batches.resolve_metrics(ScoringRequest("r", _corpus(), _run(["a"] * 4), metrics=heavy,
                                                      include=["test.heavy"]))
    assert asked.availability == "ok" and asked.running and asked.language  # not a built-in


def test_config_hash_counts_the_running_metrics_and_the_batch_size():
    req = ScoringRequest("r", _corpus(), _run(["a"] * 4), batch_size=2)
    ok, off = _state("core.a", "x"), _state("core.b", "y", availability="unavailable")
    config, h = batches.config_of(req, [ok, off])
    assert [m["id"] for m in config["metrics"]] == ["core.a"]
    assert config["entries"] == ["e0", "e1", "e2", "e3"] and config["batch_size"] == 2
    assert batches.config_of(req, [ok])[1] == h  # a metric that does not run changes nothing
    req.batch_size = 3
    assert batches.config_of(req, [ok])[1] != h


def test_score_batch_fails_a_metric_with_a_non_finite_value_and_keeps_the_others():
    job = ScoringJob.start(ScoringRequest("r", _corpus(), _run(["a", "b", "c", "d"])))
    nan, half = _opened(_Nan()), _opened(_Half())
    rows, failures = batches.score_batch([nan, half], job.items[:2], 0)
    reason = "score_entries (batch 0): entry e1: value nan is not a finite number"
    assert failures == [("test.nan", reason)]
    assert (nan.availability, nan.reason) == ("failed", reason)
    assert [(r.entry_id, r.metric_id, r.value) for r in rows] == [("e0", "test.half", 0.5), ("e1", "test.half", 0.5)]
    assert rows[0].data == {"value": 0.5, "values": {"test_half.num": 1, "test_half.den": 2}, "detail": {}}
    assert rows[0].text == json.dumps(rows[0].data, separators=(",", ":"))
    assert batches.score_batch([nan, half], job.items[2:], 1)[1] == []  # a failed metric is not asked again


def test_aggregate_fails_a_metric_whose_stored_results_are_incomplete():
    job = ScoringJob.start(ScoringRequest("r", _corpus(3), _run(["a", "b", "c"])))
    half, gap = _opened(_Half()), _opened(_Nan())
    job.states = [half, gap]
    sink = MemorySink()
    sink.begin_job("r", {}, "h", 3, 1)
    sink.write_batch("r", 0, "h", [EntryRow(f"e{i}", "test.half", 0.5, {"value": 0.5}) for i in range(3)]
                     + [EntryRow("e0", "test.nan", 1.0, {"value": 1.0})])
    batches.aggregate(job, sink)
    assert job.corpus_scores["test.half"].values == {"test_half": 0.5}
    assert half.availability == "ok"
    assert gap.availability == "failed" and "test.nan" not in job.corpus_scores
    assert gap.reason == "results for 2 entries are missing (the metric failed in an earlier attempt); rescore the run"
    assert [e.value if e else None for e in job.per_entry["test.nan"]] == [1.0, None, None]


# --------------------------------------------------------------------------- merge


def test_merge_scores_a_card_metric_wins_while_usable_then_the_first_builtin():
    builtin_a, builtin_b = _state("core.a", "equivalent_match_rate", "x"), _state("core.b", "x", "z")
    lint = _state("xx.lint", "equivalent_match_rate", "y", from_card=True)
    values = {"core.a": CorpusScore({"equivalent_match_rate": 0.5, "x": 1}),
              "core.b": CorpusScore({"x": 2, "z": np.float64(0.25)}),
              "xx.lint": CorpusScore({"equivalent_match_rate": 0.9, "y": None})}
    scores, producers = merge.merge_scores([builtin_a, builtin_b, lint], values)
    assert scores == {"equivalent_match_rate": 0.9, "x": 1, "z": 0.25}
    assert producers == {"equivalent_match_rate": "xx.lint", "x": "core.a", "z": "core.b"}
    lint.availability = "failed"
    scores, producers = merge.merge_scores([builtin_a, builtin_b, lint], values)
    assert scores["equivalent_match_rate"] == 0.5 and producers["equivalent_match_rate"] == "core.a"
    lint.availability = "below_coverage"  # reported: it still supplies the key
    assert merge.merge_scores([builtin_a, lint], values)[1]["equivalent_match_rate"] == "xx.lint"


def test_availability_by_key():
    exact = _state("core.exact", "exact_match_rate")
    chrf = _state("core.chrf", "chrf_plus_plus", availability="failed", reason="prepare: boom")
    bleu = _state("core.bleu", "bleu")
    morph = _state("core.morph", "morphological_accuracy", "morph_coverage")
    values = {"core.exact": CorpusScore({"exact_match_rate": 0.5}),
              "core.bleu": CorpusScore({"bleu": None}, extra={"reasons": {"bleu": "no reference has four words"}}),
              "core.morph": CorpusScore({"morphological_accuracy": 0.8, "morph_coverage": 0.2})}
    scores = {"exact_match_rate": 0.5, "morphological_accuracy": 0.8, "morph_coverage": 0.2}
    producers = {"exact_match_rate": "core.exact", "morphological_accuracy": "core.morph",
                 "morph_coverage": "core.morph"}
    availability, reasons = merge.availability_by_key([exact, chrf, bleu, morph], values, producers, scores,
                                                      ("core.ter",))
    assert {k: availability[k] for k in ("core.exact", "core.chrf", "exact_match_rate", "chrf_plus_plus", "bleu",
                                         "ter", "morphological_accuracy")} == {
        "core.exact": "ok", "core.chrf": "failed", "exact_match_rate": "ok", "chrf_plus_plus": "failed",
        "bleu": "not_applicable", "ter": "unavailable", "morphological_accuracy": "below_coverage"}
    assert reasons["core.chrf"] == reasons["chrf_plus_plus"] == "prepare: boom"
    assert reasons["bleu"] == "no reference has four words"
    assert reasons["ter"] == "no metric of this scoring job produces it (excluded: core.ter)"
    assert reasons["morphological_accuracy"] == (
        f"morph_coverage 0.2 < {MORPH_MIN_COVERAGE}: reported, not in the composite")
    assert "exact_match_rate" not in reasons
    assert set(availability) == {"core.exact", "core.chrf", "core.bleu", "core.morph",
                                 *merge.AVAILABILITY_KEYS}


def test_statistics_by_convention():
    per_entry = [EntryScore(1.0, {"r.num": 1, "r.den": 2}), None, EntryScore(0.0, {"r.num": 2, "r.den": 2})]
    stats = merge.default_entry_statistics(_info("m", "r", "s"), per_entry)
    assert set(stats) == {"r"} and stats["r"].point() == 0.75  # (1 + 0 + 2) / (2 + 0 + 2)
    assert merge.default_entry_statistics(_info("m", "s"), per_entry)["s"].point() == 0.5  # mean of 1.0 and 0.0


def test_producer_statistics_keep_what_reproduces_the_value_and_say_why_not():
    half = _Half()
    per_entry: list[EntryScore | None] = [EntryScore(0.5, {"test_half.num": 1, "test_half.den": 2})] * 4
    loads: list[str] = []

    def load(mid: str) -> tuple[Any, Sequence[EntryScore | None]]:
        loads.append(mid)
        if mid == "gone":
            raise merge.StatisticsUnavailable("configuration not stored")
        if mid == "broken":
            raise ValueError("cannot read")
        return half, per_entry

    producers = {"test_half": "test.half", "lost": "gone", "odd": "broken", "label": "test.half"}
    stats, problems = merge.producer_statistics(["test_half", "lost", "odd", "label"], producers,
                                                {"test_half": 0.5, "lost": 0.1, "odd": 0.2, "label": "text"}, 4, load)
    assert list(stats) == ["test_half"] and stats["test_half"].point() == 0.5
    assert problems == {"lost": "gone: configuration not stored", "odd": "broken: ValueError: cannot read"}
    assert loads == ["test.half", "gone", "broken"]  # once per metric; a key that is not a number is not asked
    stats, problems = merge.producer_statistics(["test_half"], producers, {"test_half": 0.6}, 4, load)
    assert stats == {} and problems == {"test_half": "stored per-entry statistics give 0.5, the run card says 0.6"}
    assert merge.producer_statistics(["test_half"], producers, {"test_half": 0.5}, 5, load)[0] == {}  # not n entries


def test_composite_quantity_of_per_entry_statistics_and_constants():
    used = {"exact_match_rate": 0.5, "chrf_plus_plus": 40.0}
    q = merge.composite_quantity("B", used, {"exact_match_rate": EntryStats.mean([1.0, 0.0, 1.0, 0.0])}, 4)
    assert q is not None
    assert q.point() == pytest.approx((0.10 * 0.5 + 0.25 * 0.40) / 0.35, abs=1e-12)  # profile B weights
    assert merge.composite_quantity("B", {}, {}, 4) is None and merge.composite_quantity("B", used, {}, 0) is None


# --------------------------------------------------------------------------- assembly


def _merged_job() -> ScoringJob:
    """Three entries (difficulty 1, 2, 1), exact match by core.exact: 1, 0, 1."""
    job = ScoringJob.start(ScoringRequest("toy-run", _corpus(3), _run(["chat 0", "chien", "chat 2"]),
                                          n_bootstrap=50))
    st = MetricState(ref=MetricRef(id="core.exact", python_name="mteval_gui.scoring.metrics.surface:ExactMatchMetric"),
                     metric=ExactMatchMetric(), info=ExactMatchMetric.info)
    job.states = [st]
    job.config_hash = "h"
    job.per_entry = {"core.exact": [EntryScore(1.0), EntryScore(0.0), EntryScore(1.0)]}
    job.corpus_scores = {"core.exact": CorpusScore({"exact_match_rate": 2 / 3, "exact_matches": 2})}
    job.scores = {"exact_match_rate": 2 / 3, "exact_matches": 2}
    job.producers = {"exact_match_rate": "core.exact", "exact_matches": "core.exact"}
    job.entry_stats = {"exact_match_rate": EntryStats.mean([1.0, 0.0, 1.0])}
    job.availability = {"core.exact": "ok", "exact_match_rate": "ok"}
    return job


def test_assembly_of_a_small_run_card():
    result = assembly.assemble(_merged_job())
    card = result.run_card
    assert card.run_id == "toy-run" and card.dataset.entry_count == 3 and card.dataset.language_pair == "eng-fra"
    assert card.scores.exact_match_rate == pytest.approx(2 / 3) and card.scores.exact_matches == 2
    # exact match alone carries 0.10 of profile B's weight: not enough metrics for a composite
    assert card.scores.composite is None and card.composite_profile == "B"
    assert card.scores.quality_tier == "unscored" and card.composite_breakdown == []
    assert "composite_not_enough_metrics" in [c.code for c in card.score_caveats]
    assert card.score_sources == {"exact_match_rate": "core.exact", "exact_matches": "core.exact"}
    assert [r.exact_match for r in card.results] == [True, False, True]
    assert [r.metrics for r in card.results] == [{"core.exact": 1.0}, {"core.exact": 0.0}, {"core.exact": 1.0}]
    assert card.scores.by_difficulty == {
        "1": {"entries": 2, "exact_match_rate": 1.0},
        "2": {"entries": 1, "exact_match_rate": 0.0}}
    assert set(card.scores.confidence_intervals) == {"exact_match_rate"}
    assert card.metric_validation == {"core.exact": "proxy", "exact_match_rate": "proxy", "exact_matches": "proxy"}
    assert card.composite_validation is None  # no composite to validate
    assert card.scores.total == 3 and card.scores.evaluated == 3 and card.scores.missing_outputs == 0
    (row,) = result.metric_rows
    assert (row.metric_id, row.availability, row.values) == (
        "core.exact", "ok", {"exact_match_rate": 2 / 3, "exact_matches": 2})
    assert row.extra["supplies"] == ["exact_match_rate", "exact_matches"] and row.extra["version"] == "2"


def test_groups_breakdown_and_composite_validation():
    stats = {"exact_match_rate": EntryStats.mean([1.0, 0.0, None, 1.0]), "bleu": EntryStats.mean([None] * 4)}
    assert assembly.groups_breakdown(["10", "2", "2", None], stats, None) == {
        "2": {"entries": 2, "exact_match_rate": 0.0, "bleu": None},  # numbers first, in numeric order
        "10": {"entries": 1, "exact_match_rate": 1.0, "bleu": None}}
    ok = assembly.composite_validation({"chrf_plus_plus": 40.0}, {"chrf_plus_plus": "external"}, "crk")
    assert ok is not None and not ok.engineering_estimate
    assert ok.message == "every input is validated against human judgments for crk"
    weak = assembly.composite_validation({"chrf_plus_plus": 40.0, "exact_match_rate": 0.5},
                                         {"chrf_plus_plus": "external"}, "crk")
    assert weak is not None and weak.engineering_estimate and weak.message == (
        "engineering estimate: not validated against human judgments for crk: exact_match_rate (unvalidated)")
    assert assembly.composite_validation({}, {}, "crk") is None


# --------------------------------------------------------------------------- the stages together


def test_compared_runs_rebuild_the_statistics_the_runner_kept(workspace):
    """Comparing stored runs goes through the merge stage: the same statistics, and the composite's
    inputs in the order the runner combined them, so its interval is the run card's to the last bit."""
    from mteval_gui.app.compare import run_statistics
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.scoring.stats import bootstrap_ci
    from mteval_gui.store import repo

    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"The cat {i} sits", reference=f"Le chat {i} est assis") for i in range(12)])
    repo.add_corpus(workspace, corpus)
    outs = [Output(id=f"e{i}", predicted=f"Le chat {i} est assis" if i % 3 else f"Un chat {i}") for i in range(12)]
    rid = repo.import_run(workspace, Run(meta=RunMeta(run_id="r0", model_slug="m"), corpus_id="toy",
                                         outputs=outs)).run_id
    res = score_workspace_run(workspace, rid, metrics=["core.exact", "core.equivalent", "core.chrf", "core.bleu",
                                                        "core.hallucination"], n_bootstrap=100)
    st = run_statistics(workspace, rid)
    assert set(st.stats) == {"exact_match_rate", "equivalent_match_rate", "chrf_plus_plus", "bleu",
                             "hallucination_rate"} and st.problems == {}
    assert len(res.run_card.composite_breakdown) == 4
    for key, s in st.stats.items():
        assert s.point() == res.entry_stats[key].point()
    assert st.composite is not None
    iv = bootstrap_ci(st.composite, n_bootstrap=100, seed=res.run_card.bootstrap_seed)
    ci = res.run_card.scores.confidence_intervals["composite"]
    assert (iv.ci_lower, iv.ci_upper) == (ci.ci_lower, ci.ci_upper)


@pytest.mark.shared_data
def test_compared_crk_run_has_the_run_cards_composite_interval(workspace):
    """Seven composite inputs (profile A, with the analyzer): compare combines them in the
    runner's order, so the interval is the run card's to the last bit in every process."""
    from mteval_gui.app.compare import run_statistics
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.settings import ScoringOptions
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run
    from mteval_gui.scoring.stats import bootstrap_ci
    from mteval_gui.store import repo
    from tests.conftest import SHARED_DATA

    folder = SHARED_DATA / "crk" / "verbforms"
    corpus = read_corpus(folder / "corpus.jsonl", source_lang="eng", target_lang="crk").value
    repo.add_corpus(workspace, corpus)
    run = read_run(folder / "runs" / "mixed.jsonl", entry_ids=[e.id for e in corpus.entries]).value
    run.corpus_id = corpus.corpus_id
    rid = repo.import_run(workspace, run).run_id
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    res = score_workspace_run(workspace, rid, n_bootstrap=200, options=ScoringOptions(analyzer_path=str(analyzer)))
    card = res.run_card
    assert card.composite_profile == "A" and len(card.composite_breakdown) >= 6
    st = run_statistics(workspace, rid)
    assert st.composite is not None and st.problems == {}
    iv = bootstrap_ci(st.composite, n_bootstrap=200, seed=card.bootstrap_seed)
    ci = card.scores.confidence_intervals["composite"]
    assert (iv.ci_lower, iv.ci_upper) == (ci.ci_lower, ci.ci_upper)
