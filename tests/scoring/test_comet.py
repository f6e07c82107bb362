"""core.comet: model choice, coverage flags, offline loading and the real COMET predict path.

The model tests build a tiny COMET regression checkpoint in a temporary folder
(tests/scoring/tiny_comet.py) and score through COMET's own ``load_from_checkpoint`` and
``predict``. The network is switched off: Hugging Face offline variables are set and any
socket connection attempt fails the test.
"""

from __future__ import annotations

import math
import socket
import sys

import pytest

from mteval_gui.domain.card import LanguageCard, ModelSupport
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.errors import PluginError
from mteval_gui.scoring.metrics import comet as cm
from mteval_gui.scoring.plugins import EntryInput, EntryScore, MetricUnavailable, ScoringContext


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Hugging Face offline, and every attempt to open a network connection is an error."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[1:] if len(args) > 1 else args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def card(code: str, **support: ModelSupport) -> LanguageCard:
    return LanguageCard(code=code, name=code, metricModelSupport=support)


def ctx(target: LanguageCard | None = None, source: LanguageCard | None = None, **options) -> ScoringContext:
    return ScoringContext(source_lang=source.code if source else "eng", target_lang=target.code if target else "xxx",
                          target_card=target, source_card=source, options=options)


def item(i: int, source: str, predicted: str, reference: str | None, *, error: str | None = None) -> EntryInput:
    return EntryInput(i, Entry(id=str(i), source=source, reference=reference),
                      Output(id=str(i), predicted=predicted, error=error))


# ----------------------------------------------------------------------------- model choice

CRK = card("crk", comet=ModelSupport(model=cm.DEFAULT_COMET_MODEL, covered=False, note="not in XLM-R"))
EWE = card("ewe", comet=ModelSupport(model=cm.AFRICOMET_MODEL, covered=True, note="AfriCOMET covers Ewe"))
ENG = card("eng", comet=ModelSupport(model=cm.DEFAULT_COMET_MODEL, covered=True))


def test_model_choice_explicit_then_card_then_default():
    assert cm.resolve_comet_model(EWE, "my/model").name == "my/model"
    assert cm.resolve_comet_model(EWE, "my/model").source == "explicit"
    assert cm.resolve_comet_model(EWE) == cm.CometModelChoice(
        cm.AFRICOMET_MODEL, "card", True, "AfriCOMET covers Ewe", ())
    assert cm.resolve_comet_model(card("fra")) == cm.CometModelChoice("Unbabel/wmt22-comet-da", "default", None)
    assert cm.resolve_comet_model(None).name == "Unbabel/wmt22-comet-da"


def test_coverage_flags_from_target_and_source_cards():
    crk = cm.resolve_comet_model(CRK, source_card=ENG)
    assert (crk.name, crk.covered, crk.uncovered_languages, crk.note) == (
        "Unbabel/wmt22-comet-da", False, ("crk",), "not in XLM-R")
    # Ewe card says nothing about wmt22-comet-da: coverage is unknown, not assumed
    assert cm.resolve_comet_model(EWE, "Unbabel/wmt22-comet-da").covered is None
    # an uncovered source language is flagged too
    assert cm.resolve_comet_model(ENG, source_card=CRK).uncovered_languages == ("crk",)
    assert cm.resolve_comet_model(ENG, source_card=CRK).covered is False
    assert cm.resolve_comet_model(ENG, source_card=EWE).covered is True


def test_bundled_cards_pick_africomet_for_ewe_and_flag_cree():
    from mteval_gui.cards import load_card

    assert cm.resolve_comet_model(load_card("ewe")).name == "masakhane/africomet-mtl"
    assert cm.resolve_comet_model(load_card("sna")).name == "masakhane/africomet-mtl"
    choice = cm.resolve_comet_model(load_card("crk"), source_card=load_card("eng"))
    assert (choice.name, choice.covered, choice.uncovered_languages) == ("Unbabel/wmt22-comet-da", False, ("crk",))


def test_paths_and_model_ids_are_told_apart():
    assert not cm.looks_like_path("Unbabel/wmt22-comet-da")
    assert not cm.looks_like_path("wmt22-comet-da")
    for p in ("/models/comet", "./comet", "~/comet", "models/x/checkpoints/model.ckpt", "C:\\models\\comet",
              "model.ckpt"):
        assert cm.looks_like_path(p), p


# ----------------------------------------------------------------------------- unavailable paths


def test_missing_extra_makes_the_metric_unavailable_with_the_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "comet", None)  # import comet -> ImportError
    with pytest.raises(MetricUnavailable) as err:
        cm.CometMetric().prepare(ctx(CRK))
    assert err.value.reason == ("COMET needs the optional extra: pip install 'mteval-gui[comet]' "
                                "(install torch==2.13.0 first)")
    assert err.value.availability == "unavailable"


def test_model_not_in_the_local_cache_is_unavailable_with_the_download_command(monkeypatch, tmp_path):
    pytest.importorskip("comet")
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(MetricUnavailable) as err:
        cm.CometMetric().prepare(ctx(EWE))
    assert err.value.reason == ("COMET model masakhane/africomet-mtl not downloaded: "
                                "run `mteval models download masakhane/africomet-mtl` once online "
                                "(or `mteval models add FOLDER` for a model folder copied by hand)")


def test_missing_local_checkpoint_paths(tmp_path):
    with pytest.raises(MetricUnavailable, match="does not exist"):
        cm.locate_comet_model(str(tmp_path / "nothing" / "model.ckpt"))
    (tmp_path / "folder").mkdir()
    with pytest.raises(MetricUnavailable, match="has no checkpoints/model.ckpt"):
        cm.locate_comet_model(str(tmp_path / "folder"))
    (tmp_path / "folder" / "checkpoints").mkdir()
    (tmp_path / "folder" / "checkpoints" / "model.ckpt").write_bytes(b"")
    with pytest.raises(MetricUnavailable, match="has no hparams.yaml"):
        cm.locate_comet_model(str(tmp_path / "folder"))


# ----------------------------------------------------------------------------- the real model path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    pytest.importorskip("comet")
    from tests.scoring.tiny_comet import build_tiny_comet

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TRANSFORMERS_OFFLINE", "1")
        return build_tiny_comet(tmp_path_factory.mktemp("comet"))


ITEMS = [
    item(0, "the cat sees the dog", "the cat sees the dog", "the cat sees the dog"),
    item(1, "the cat sees the dog", "a big river near the school", "the cat sees the dog"),
    item(2, "the cat sees the dog", "", "the cat sees the dog"),
    item(3, "the cat sees the dog", "ignored", "the cat sees the dog", error="timeout"),
    item(4, "the cat sees the dog", "the cat sees the dog", "the cat sees the dog"),
    item(5, "old man walks", "old man walks", None),
]


def run_metric(context: ScoringContext, items=ITEMS, batches=(slice(0, 4), slice(4, None))):
    metric = cm.CometMetric()
    metric.prepare(context)
    per_entry: list[EntryScore] = []
    for b in batches:
        per_entry.extend(metric.score_entries(items[b]))
    return metric, per_entry, metric.aggregate(per_entry, context)


def test_tiny_model_scores_through_comet_predict(tiny):
    cm.clear_model_cache()
    metric, per_entry, corpus = run_metric(ctx(CRK, ENG, comet_model=str(tiny.folder)))
    assert metric.info.heavy and metric.info.id == "core.comet" and metric.in_composite is False
    vals = [e.value for e in per_entry]
    assert vals[5] is None and per_entry[5].detail == {"skipped": "no reference"}
    scored = vals[:5]
    assert all(isinstance(v, float) and 0.0 < v < 1.0 for v in scored)  # sigmoid head
    assert vals[0] == pytest.approx(vals[4], abs=1e-6)  # same input, different batches
    assert vals[2] == pytest.approx(vals[3], abs=1e-6)  # error output == empty hypothesis
    assert vals[0] != pytest.approx(vals[1], abs=1e-6)  # different outputs, different scores
    assert per_entry[2].detail == {"empty_output": True} and per_entry[3].detail == {"empty_output": True}
    assert per_entry[0].values == {"comet_score": vals[0]}
    for e in per_entry:  # JSON-serialisable round trip
        assert EntryScore.from_json(e.to_json()) == e
    assert corpus.availability == "ok"
    assert corpus.values["comet_score"] == pytest.approx(sum(scored) / 5)
    assert corpus.values["comet_model"] == str(tiny.folder)
    assert corpus.extra["model_source"] == "explicit"
    assert corpus.covered is None  # no card speaks about this checkpoint
    assert corpus.caveats[0].code == "comet_coverage_unknown"
    assert corpus.extra["in_composite"] is False
    assert (corpus.extra["scored_entries"], corpus.extra["skipped_entries"]) == (5, 1)

    # a second job (model reloaded from disk) gives the same scores
    cm.clear_model_cache()
    _, again, _ = run_metric(ctx(CRK, ENG, comet_model=str(tiny.checkpoint)), batches=(slice(None),))
    assert [e.value for e in again] == pytest.approx(vals, abs=1e-6)


def test_card_model_not_covering_the_language_is_flagged(tiny):
    target = card("crk", comet=ModelSupport(model=str(tiny.folder), covered=False, note="Cree is not covered"))
    _, per_entry, corpus = run_metric(ctx(target, ENG), items=ITEMS[:2], batches=(slice(None),))
    assert corpus.extra["model_source"] == "card" and corpus.covered is False
    assert corpus.caveats[0].code == "comet_language_not_covered"
    assert corpus.caveats[0].detail["languages"] == ["crk"]
    assert corpus.caveats[0].message.startswith(f"COMET model {tiny.folder} does not cover crk")
    covered = card("crk", comet=ModelSupport(model=str(tiny.folder), covered=True))
    _, _, ok = run_metric(ctx(covered, ENG), items=ITEMS[:2], batches=(slice(None),))
    assert ok.covered is True and ok.caveats == []


def test_checkpoint_weights_are_the_ones_used(tmp_path):
    pytest.importorskip("comet")
    from tests.scoring.tiny_comet import build_tiny_comet

    built = build_tiny_comet(tmp_path, constant_bias=math.log(3.0))  # sigmoid(ln 3) = 0.75
    _, per_entry, corpus = run_metric(ctx(comet_model=str(built.folder)), items=ITEMS[:4], batches=(slice(None),))
    assert [e.value for e in per_entry] == pytest.approx([0.75, 0.75, 0.75, 0.75], abs=1e-6)
    assert corpus.values["comet_score"] == pytest.approx(0.75, abs=1e-6)


def test_checkpoint_missing_parameters_is_refused(tmp_path):
    pytest.importorskip("comet")
    from tests.scoring.tiny_comet import build_tiny_comet

    built = build_tiny_comet(tmp_path, drop_keys=("estimator.",))
    with pytest.raises(PluginError, match="does not match its hparams.yaml"):
        cm.CometMetric().prepare(ctx(comet_model=str(built.checkpoint)))


def test_all_entries_without_reference_is_not_applicable(tiny):
    _, per_entry, corpus = run_metric(ctx(comet_model=str(tiny.folder)), items=ITEMS[5:], batches=(slice(None),))
    assert [e.value for e in per_entry] == [None]
    assert corpus.availability == "not_applicable"
    assert corpus.values == {"comet_score": None, "comet_model": str(tiny.folder)}


# ----------------------------------------------------------------------------- inside a scoring run


def _request(include: list[str], target: LanguageCard | None = None, **options):
    from mteval_gui.domain.corpus import Corpus, LanguagePair
    from mteval_gui.domain.run import Run, RunMeta
    from mteval_gui.scoring.runner import ScoringRequest

    entries = [Entry(id=str(i), source=s, reference=r) for i, (s, r) in enumerate([
        ("the cat sees the dog", "the cat sees the dog"),
        ("old man walks", "old man walks"),
        ("big river", "big river"),
    ])]
    outputs = [Output(id="0", predicted="the cat sees the dog"), Output(id="1", predicted="old woman walks"),
               Output(id="2", predicted="", error="timeout")]
    corpus = Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target=target.code if target else "xxx"),
                    entries=entries)
    run = Run(meta=RunMeta(run_id="r"), corpus_id="c", outputs=outputs)
    return ScoringRequest(run_id="r", corpus=corpus, run=run, target_card=target, include=include,
                          options=options, n_bootstrap=200)


def test_run_completes_when_the_comet_model_is_not_downloaded(monkeypatch, tmp_path):
    pytest.importorskip("comet")
    import huggingface_hub.constants

    from mteval_gui.scoring.runner import score_run

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    result = score_run(_request(["core.exact", "core.comet"], CRK))
    card = result.run_card
    assert card.metric_availability["core.comet"] == "unavailable"
    assert card.metric_reasons["core.comet"] == ("COMET model Unbabel/wmt22-comet-da not downloaded: "
                                                 "run `mteval models download Unbabel/wmt22-comet-da` once online "
                                                 "(or `mteval models add FOLDER` for a model folder copied by hand)")
    assert card.scores.comet_score is None
    assert card.scores.exact_match_rate == pytest.approx(1 / 3)


def test_comet_in_a_run_is_reported_flagged_and_kept_out_of_the_composite(tiny):
    from mteval_gui.scoring.runner import score_run

    target = card("crk", comet=ModelSupport(model=str(tiny.folder), covered=False))
    without = score_run(_request(["core.exact", "core.chrf"], target)).run_card
    result = score_run(_request(["core.exact", "core.chrf", "core.comet"], target))
    card_ = result.run_card
    per_entry = [e.value for e in result.per_entry["core.comet"]]
    assert card_.metric_availability["core.comet"] == "ok"
    assert card_.scores.comet_score == pytest.approx(sum(per_entry) / 3)
    assert card_.scores.comet_model == str(tiny.folder)
    ci = card_.scores.confidence_intervals["comet_score"]  # bootstrapped from the stored segment scores
    assert ci.score == pytest.approx(card_.scores.comet_score) and ci.ci_lower <= ci.score <= ci.ci_upper
    assert card_.scores.composite == without.scores.composite
    assert "comet_score" not in {item.metric for item in card_.composite_breakdown}
    assert {item.metric for item in card_.composite_breakdown} == {"exact_match_rate", "chrf_plus_plus"}
    assert [c.code for c in card_.score_caveats if c.code.startswith("comet")] == ["comet_language_not_covered"]
