"""The typed plugin contract: a corpus result's signature, analyzer files, caveats, reasons and
coverage are typed fields the run card reads; per-entry statistics come through the
``EntryStatistics`` protocol. An older plugin's ``extra`` keys are still understood."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from mteval_gui.domain.card import MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.domain.runcard import Caveat, FstInfo
from mteval_gui.scoring import merge
from mteval_gui.scoring.job import ScoringRequest
from mteval_gui.scoring.metrics.structural import (
    FstAcceptanceMetric,
    MorphologicalAccuracyMetric,
    OrthographicAccuracyMetric,
)
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    EntryStatistics,
    MetricInfo,
    ScoringContext,
    statistics_of,
)
from mteval_gui.scoring.runner import score_run
from mteval_gui.scoring.stats import EntryStats

M = "tests.scoring.test_typed_contract"


class TypedMetric(BaseMetric):
    """A language's metric of role fst_analysis that reports its details through the typed fields."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="zzx.typed", version="1", display_name="Typed", scale="0-1", role="fst_analysis",
        produces=("bleu", "zzx_raw"))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(float(len(it.predicted) % 3), values={"hits": len(it.predicted) % 3, "n": 2})
                for it in items]

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"bleu": EntryStats.ratio([float(e.values["hits"]) for e in per_entry],
                                         [float(e.values["n"]) for e in per_entry], scale=100.0)}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        value = self.entry_statistics(per_entry)["bleu"].point()
        return CorpusScore(
            {"bleu": value, "zzx_raw": None}, signature="zzx-bleu|v1",
            analyzer=FstInfo(file="zzx.hfstol", sha256="ab" * 32, backend="pyhfst"),
            caveats=[Caveat(code="zzx_typed", message="typed caveat", detail={"n": len(per_entry)}),
                     Caveat(code="", message="a caveat without a code")],
            reasons={"zzx_raw": "the raw outputs are not kept"}, extra={"hits": 3})


class LateExtraMetric(BaseMetric):
    """An older plugin that adds its caveats to ``extra`` after making the result."""

    info: ClassVar[MetricInfo] = MetricInfo(id="zzx.late", version="1", display_name="Late", scale="0-1",
                                            produces=("zzx_late",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(1.0) for _ in items]

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        cs = super().aggregate(per_entry, context)
        cs.extra["caveats"] = [{"code": "zzx_late", "message": "added after the result was made"}]
        return cs


def _request(*python_names: tuple[str, str]) -> ScoringRequest:
    entries = [Entry(id=f"e{i}", source=f"cat {i}", reference=f"chat {i}") for i in range(6)]
    corpus = Corpus(corpus_id="zz", language_pair=LanguagePair(source="eng", target="zzx"), entries=entries)
    run = Run(meta=RunMeta(run_id="r", model_slug="m"), corpus_id="zz",
              outputs=[Output(id=e.id, predicted="chat" + "!" * i) for i, e in enumerate(entries)])
    return ScoringRequest(run_id="r", corpus=corpus, run=run, isolation="none", n_bootstrap=50,
                          metrics=[MetricRef(id=mid, python_name=f"{M}:{cls}") for mid, cls in python_names])


def test_typed_details_reach_the_run_card_and_the_stored_row():
    res = score_run(_request(("zzx.typed", "TypedMetric")))
    card = res.run_card
    assert card.scores.bleu == 50.0  # hits 1, 2, 0, 1, 2, 0 of 2 each
    assert card.sacrebleu_signatures == {"bleu": "zzx-bleu|v1"}
    assert card.fst.model_dump() == {"file": "zzx.hfstol", "sha256": "ab" * 32, "descriptive_file": None,
                                     "descriptive_sha256": None, "backend": "pyhfst", "backend_version": None}
    assert [(c.code, c.message) for c in card.score_caveats if c.code.startswith("zzx")] == [
        ("zzx_typed", "typed caveat"), ("zzx.typed", "a caveat without a code")]
    assert card.metric_reasons.get("zzx_raw") is None  # not a declared key: no availability entry
    assert card.scores.confidence_intervals["bleu"].n_entries == 6  # the protocol's statistics
    row = next(r for r in res.metric_rows if r.metric_id == "zzx.typed")
    assert row.extra["hits"] == 3 and row.extra["signature"] == "zzx-bleu|v1"
    assert row.extra["reasons"] == {"zzx_raw": "the raw outputs are not kept"}
    assert row.extra["caveats"][0] == {"code": "zzx_typed", "message": "typed caveat", "detail": {"n": 6}}
    assert row.extra["fst"]["file"] == "zzx.hfstol"


def test_an_older_plugin_that_fills_extra_late_still_gets_its_caveat_shown():
    card = score_run(_request(("zzx.late", "LateExtraMetric"))).run_card
    assert [c.code for c in card.score_caveats if c.code.startswith("zzx")] == ["zzx_late"]


def test_extra_keys_of_an_older_plugin_fill_the_typed_fields_left_empty():
    cs = CorpusScore({"x": 1.0}, extra={
        "signature": "s|1", "fst": {"file": "a.hfstol", "sha256": "cd", "unknown": 1},
        "caveats": [{"code": "c", "message": "m", "detail": {"k": 1}}, "only text"],
        "covered": False, "reasons": {"y": "why"}, "other": 2})
    assert cs.signature == "s|1"
    assert cs.analyzer == FstInfo(file="a.hfstol", sha256="cd")
    assert cs.caveats == [Caveat(code="c", message="m", detail={"k": 1}), Caveat(code="", message="only text")]
    assert cs.covered is False and cs.reasons == {"y": "why"}
    assert cs.stored_extra() == cs.extra  # stored as the plugin gave it
    typed = CorpusScore({}, signature="t", caveats=[Caveat(code="a", message="b")], extra={"signature": "old"})
    assert typed.signature == "t"
    assert typed.stored_extra() == {"signature": "old", "caveats": [{"code": "a", "message": "b", "detail": {}}]}
    # a count named "covered" is not a coverage answer
    assert CorpusScore({}, extra={"covered": 12}).covered is None


class _Proxy:
    """What a metric run in a process of its own looks like when its class has no statistics."""

    info = TypedMetric.info
    entry_statistics = None


def test_statistics_come_through_the_protocol():
    per_entry = [EntryScore(1.0, values={"hits": 1, "n": 2}), EntryScore(0.0, values={"hits": 0, "n": 2})]
    metric = TypedMetric()
    assert isinstance(metric, EntryStatistics)
    assert statistics_of(metric) is not None
    assert statistics_of(_Proxy()) is None
    assert statistics_of(LateExtraMetric()) is None
    own = merge.metric_statistics(metric, per_entry)
    assert own["bleu"].kind == "ratio" and own["bleu"].scale == 100.0
    assert own["bleu"].matrix.tolist() == [[1.0, 2.0], [0.0, 2.0]]
    # without the protocol: the mean of the per-entry values
    assert merge.metric_statistics(_Proxy(), per_entry)["bleu"].matrix.tolist() == [[1.0, 1.0], [0.0, 1.0]]


def _old_form(values: dict[str, Any], value: float | None) -> EntryScore:
    return EntryScore(value, values=values)


def test_the_structural_metrics_statistics_equal_those_of_their_stored_results_by_convention():
    """The structural metrics give their statistics themselves; on results stored by earlier versions
    (with ``<key>.num`` / ``<key>.den`` values) they equal what the convention made of them."""
    fst = [_old_form({"accepted": a, "tokens": n, "fst_acceptance_rate_micro.num": a,
                      "fst_acceptance_rate_micro.den": n}, a / n if n else 0.0) for a, n in ((2, 3), (0, 4), (0, 0))]
    morph = [_old_form({"correct": c, "covered": v, "analysable": a, "morphological_accuracy.num": c,
                        "morphological_accuracy.den": v, "morph_coverage.num": v, "morph_coverage.den": a},
                       c / v if v else None) for c, v, a in ((1, 2, 3), (0, 0, 2), (2, 2, 2))]
    ortho = [_old_form({"ok": o, "words": n, "orthographic_accuracy.num": o, "orthographic_accuracy.den": n},
                       o / n if n else None) for o, n in ((3, 4), (0, 0), (2, 2))]
    for cls, per_entry in ((FstAcceptanceMetric, fst), (MorphologicalAccuracyMetric, morph),
                           (OrthographicAccuracyMetric, ortho)):
        own = cls.__new__(cls).entry_statistics(per_entry)
        convention = merge.default_entry_statistics(cls.info, per_entry)
        assert list(own) == list(convention), cls.__name__
        for key in own:
            assert own[key].kind == convention[key].kind
            assert np.array_equal(own[key].matrix, convention[key].matrix), key
    assert FstAcceptanceMetric.__new__(FstAcceptanceMetric).entry_statistics(fst)[
        "fst_acceptance_rate_micro"].matrix.tolist() == [[2.0, 3.0], [0.0, 4.0], [0.0, 0.0]]
