"""The scoring job: batches, progress, cancel/resume, failure isolation, precedence, run card."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest
from sacrebleu.metrics import CHRF

from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import Cancelled
from mteval_gui.scoring.composite import compute_composite
from mteval_gui.scoring.plugins import metrics_for
from mteval_gui.scoring.runcard import LYSS_SCORE_KEYS, validate_run_card
from mteval_gui.scoring.runner import (
    CancelToken,
    MemorySink,
    Progress,
    ScoringRequest,
    score_run,
)
from tests.scoring import runner_metrics

T = "tests.scoring.runner_metrics"
SURFACE = ["core.exact", "core.equivalent", "core.chrf", "core.length_ratio", "core.hallucination"]


def _corpus(n: int = 40) -> Corpus:
    return Corpus(
        corpus_id="toy",
        language_pair=LanguagePair(source="eng", target="fra"),
        entries=[
            Entry(
                id=f"e{i}",
                source=f"The cat number {i} sits on the mat",
                reference=f"Le chat numéro {i} est sur le tapis",
                difficulty=1 + i % 2,
                provenance="tatoeba" if i % 3 else "news",
            )
            for i in range(n)
        ],
    )


def _run(n: int = 40, *, errors: int = 0, drop: int = 0) -> Run:
    outs = []
    for i in range(n - drop):
        if i < errors:
            outs.append(Output(id=f"e{i}", predicted="", error="HTTP 503 from provider"))
        elif i % 5 == 0:
            outs.append(Output(id=f"e{i}", predicted=f"Le chat numéro {i} est sur le tapis", latency_s=1.0))
        else:
            outs.append(Output(id=f"e{i}", predicted=f"Un chat {i} assis sur le tapis", latency_s=2.0))
    return Run(meta=RunMeta(run_id="toy-run", model_slug="toy", elapsed_seconds=60.0), corpus_id="toy", outputs=outs)


def _request(**kw) -> ScoringRequest:
    base: dict[str, Any] = {"run_id": "toy-run", "corpus": _corpus(), "run": _run(), "include": SURFACE,
                            "batch_size": 8, "n_bootstrap": 200}
    base.update(kw)
    return ScoringRequest(**base)


def test_scores_match_sacrebleu_and_card_is_valid():
    res = score_run(_request())
    card = res.run_card
    assert validate_run_card(card) == []
    scores = card.model_dump()["scores"]
    assert all(k in scores for k in LYSS_SCORE_KEYS)
    hyps = [o.predicted for o in _run().outputs]
    refs = [e.reference for e in _corpus().entries]
    assert card.scores.chrf_plus_plus == pytest.approx(CHRF(word_order=2).corpus_score(hyps, [refs]).score, abs=1e-9)
    assert card.scores.exact_matches == 8 and card.scores.exact_match_rate == pytest.approx(0.2)
    assert card.scores.total == 40 and card.scores.errors == 0 and card.scores.evaluated == 40
    assert card.scores.bleu is None and card.metric_availability["bleu"] == "unavailable"
    expected = compute_composite(card.scores.model_dump())
    assert card.scores.composite == expected.value and card.composite_profile == "B"
    assert card.scores.quality_tier in ("baseline", "emerging", "functional", "deployable", "fluent")
    assert card.score_sources["chrf_plus_plus"] == "core.chrf"


def test_bootstrap_point_estimates_equal_corpus_values():
    card = score_run(_request()).run_card
    ci = card.scores.confidence_intervals
    assert ci["chrf_plus_plus"].score == card.scores.chrf_plus_plus
    assert ci["exact_match_rate"].score == card.scores.exact_match_rate
    assert ci["composite"].score == card.scores.composite
    assert ci["chrf_plus_plus"].ci_lower <= card.scores.chrf_plus_plus <= ci["chrf_plus_plus"].ci_upper
    assert ci["chrf_plus_plus"].n_bootstrap == 200 and ci["chrf_plus_plus"].seed == 12345
    tiers = card.scores.confidence_intervals_by_tier
    assert set(tiers) == {"1", "2"} and tiers["1"]["chrf_plus_plus"].n_entries == 20
    assert tiers["1"]["chrf_plus_plus"].unreliable is True
    assert card.scores.by_difficulty["1"]["entries"] == 20
    assert set(card.scores.by_provenance) == {"news", "tatoeba"}


def test_same_seed_same_intervals_other_seed_differs():
    a = score_run(_request(seed=1)).run_card.scores.confidence_intervals["chrf_plus_plus"]
    b = score_run(_request(seed=1)).run_card.scores.confidence_intervals["chrf_plus_plus"]
    c = score_run(_request(seed=2)).run_card.scores.confidence_intervals["chrf_plus_plus"]
    assert (a.ci_lower, a.ci_upper) == (b.ci_lower, b.ci_upper)
    assert (a.ci_lower, a.ci_upper) != (c.ci_lower, c.ci_upper)


def test_errors_and_missing_outputs_are_empty_hypotheses():
    res = score_run(_request(run=_run(errors=3, drop=2)))
    s = res.run_card.scores
    assert s.errors == 5 and s.evaluated == 35 and s.total == 40
    results = {r.entry_id: r for r in res.run_card.results}
    assert results["e0"].error == "HTTP 503 from provider" and results["e0"].predicted == ""
    assert results["e39"].predicted == "" and results["e39"].exact_match is False
    hyps = [
        "" if i < 3 or i >= 38 else o
        for i, o in enumerate(
            [
                f"Le chat numéro {i} est sur le tapis" if i % 5 == 0 else f"Un chat {i} assis sur le tapis"
                for i in range(40)
            ]
        )
    ]
    refs = [e.reference for e in _corpus().entries]
    assert s.chrf_plus_plus == pytest.approx(CHRF(word_order=2).corpus_score(hyps, [refs]).score, abs=1e-9)
    assert any(c.code == "errors_scored_empty" for c in res.run_card.score_caveats)


def test_progress_is_a_frozen_dataclass_and_ends_done():
    seen: list[Progress] = []
    score_run(_request(), on_progress=seen.append)
    assert dataclasses.is_dataclass(seen[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen[0].done = 3  # type: ignore[misc]
    stages = [p.stage for p in seen]
    assert stages[0] == "preparing" and stages[-1] == "done"
    assert "scoring" in stages
    scoring = [p for p in seen if p.stage == "scoring"]
    assert scoring[-1].done == scoring[-1].total == 40


def test_cancel_then_resume_does_not_rescore_committed_batches():
    sink = MemorySink()
    token = CancelToken()
    runner_metrics.CALLS.clear()
    metrics = [MetricRef(id="test.count", python_name=f"{T}:CountingMetric"),
               MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")]

    runner_metrics.CANCEL.update(token=token, after=16)  # cancel requested while batch 2 is scored
    with pytest.raises(Cancelled):
        score_run(_request(metrics=metrics, include=None), cancel=token, sink=sink)
    assert runner_metrics.CALLS["test.count"] == 16
    assert sink.states["toy-run"] == "cancelled"
    assert len(sink.done_batches("toy-run", sink.jobs["toy-run"]["config_hash"])) == 2
    res = score_run(_request(metrics=metrics, include=None), sink=sink)
    assert runner_metrics.CALLS["test.count"] == 40  # only the remaining 24 entries were scored
    assert res.batches_reused == 2 and res.batches_scored == 3
    fresh = score_run(_request(metrics=metrics, include=None))
    assert res.run_card.scores.chrf_plus_plus == fresh.run_card.scores.chrf_plus_plus
    # a different configuration starts again from scratch
    score_run(_request(metrics=metrics, include=None, batch_size=10), sink=sink)
    assert runner_metrics.CALLS["test.count"] == 40 + 40 + 40


def test_cancel_before_start():
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        score_run(_request(), cancel=token)


def test_failing_metrics_never_sink_the_run():
    metrics = [MetricRef(id="test.prepare_fails", python_name=f"{T}:FailingPrepareMetric"),
               MetricRef(id="test.unavailable", python_name=f"{T}:UnavailableMetric"),
               MetricRef(id="test.score_fails", python_name=f"{T}:FailingScoreMetric"),
               MetricRef(id="test.missing", python_name=f"{T}:NoSuchMetric"),
               MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")]
    card = score_run(_request(metrics=metrics, include=None, batch_size=4)).run_card
    av, why = card.metric_availability, card.metric_reasons
    assert av["test.prepare_fails"] == "failed" and "model file is corrupt" in why["test.prepare_fails"]
    assert av["test.unavailable"] == "unavailable" and why["test.unavailable"] == "no glosses for this language"
    assert av["semantic_score"] == "unavailable"
    assert av["test.score_fails"] == "failed" and "cannot score entry 4" in why["test.score_fails"]
    assert av["test.missing"] == "failed" and "NoSuchMetric" in why["test.missing"]
    assert av["core.chrf"] == "ok" and card.scores.chrf_plus_plus is not None
    assert "test_score" not in card.scores.model_dump()


def test_heavy_metrics_are_opt_in():
    heavy = MetricRef(id="test.heavy", python_name=f"{T}:HeavyMetric")
    card = score_run(_request(metrics=[heavy, MetricRef(id="core.exact", python_name=
                                       "mteval_gui.scoring.metrics.surface:ExactMatchMetric")], include=None)).run_card
    assert card.metric_availability["test.heavy"] == "unavailable"
    assert card.scores.comet_score is None
    card = score_run(_request(metrics=[heavy], include=["test.heavy"])).run_card
    assert card.scores.comet_score == 0.5 and card.scores.comet_model == "test/heavy"
    assert any(c.code == "comet_language_not_covered" for c in card.score_caveats)


def test_card_metric_takes_precedence_for_equivalence():
    lint = MetricRef(id="xx.lint", python_name=f"{T}:CardEquivalentMetric")
    card_lang = LanguageCard(code="fra", name="French", evalMetrics=[lint])
    res = score_run(_request(target_card=card_lang, include=["core.equivalent", "xx.lint", "core.exact"]))
    c = res.run_card
    assert c.scores.equivalent_match_rate == 1.0 and c.scores.equivalent_matches == 40
    assert c.score_sources["equivalent_match_rate"] == "xx.lint"
    generic = next(m for m in res.metric_rows if m.metric_id == "core.equivalent")
    assert generic.values["equivalent_match_rate"] == pytest.approx(0.2)
    assert c.results[1].lint_verdict == {"verdict": "EQUIVALENT", "classes": ["TEST"], "score": 1.0}
    # when the language's linter is unavailable the generic rule supplies the value
    lint_off = MetricRef(id="xx.lint", python_name=f"{T}:CardEquivalentMetric", params={"unavailable": True})
    card_off = LanguageCard(code="fra", name="French", evalMetrics=[lint_off])
    c2 = score_run(_request(target_card=card_off, include=["core.equivalent", "xx.lint"])).run_card
    assert c2.scores.equivalent_match_rate == pytest.approx(0.2)
    assert c2.score_sources["equivalent_match_rate"] == "core.equivalent"
    assert c2.metric_availability["xx.lint"] == "unavailable"


def test_constant_and_source_copy_runs_get_caveats():
    corpus = _corpus()
    const = Run(meta=RunMeta(run_id="const"), corpus_id="toy",
                outputs=[Output(id=e.id, predicted="Je ne sais pas.") for e in corpus.entries])
    codes = [c.code for c in score_run(_request(run=const)).run_card.score_caveats]
    assert "near_constant_output" in codes
    copy = Run(meta=RunMeta(run_id="copy"), corpus_id="toy",
               outputs=[Output(id=e.id, predicted=e.source) for e in corpus.entries])
    card = score_run(_request(run=copy)).run_card
    assert "source_copy" in [c.code for c in card.score_caveats]
    assert card.scores.hallucination_rate == pytest.approx(0.1)  # echo of the source on every entry


def test_small_sample_caveat():
    card = score_run(_request(corpus=_corpus(10), run=_run(10))).run_card
    assert "small_sample" in [c.code for c in card.score_caveats]


def test_request_pickles_for_a_worker_process():
    req = _request()
    again = pickle.loads(pickle.dumps(req))
    assert again.corpus == req.corpus and again.run == req.run


def test_builtins_are_registered_lazily():
    ids = [r.id for r in metrics_for(None)]
    for mid in ("core.exact", "core.equivalent", "core.chrf", "core.bleu", "core.ter", "core.length_ratio",
                "core.code_switching", "core.hallucination", "core.terminology", "core.consistency", "core.compliance"):
        assert mid in ids
    assert ids.index("core.fst") < ids.index("core.code_switching")


def test_unknown_metric_ids_are_reported():
    from mteval_gui.errors import MtevalError

    with pytest.raises(MtevalError, match="unknown metric id.*core.chrff.*available here: .*core.chrf"):
        score_run(_request(include=["core.chrff"]))
