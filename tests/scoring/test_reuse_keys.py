"""A stored per-entry result is reused only when everything it was computed from is unchanged.

The job's hash covers what every metric reads (options, files, glossary, params, corpus, run);
each metric's key what its own results depend on besides: version, params, the parts of the
language cards it declares it reads (``MetricInfo.card_parts``, default the whole cards) and its
data files (``MetricInfo.data_files``). A job rescored after a change scores again exactly the
metrics whose inputs changed, and ends with the run card a fresh job gives.
"""

from __future__ import annotations

import dataclasses

import pytest

from mteval_gui.domain.card import CARD_PARTS, LanguageCard, MetricRef, OrthographyProfile, card_part
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring import batches
from mteval_gui.scoring.plugins import MetricInfo
from mteval_gui.scoring.runner import EntryRow, MemorySink, ScoringRequest, score_run
from mteval_gui.store.results import ResultsStore
from tests.scoring import reuse_metrics
from tests.scoring.test_results_store import _setup

T = "tests.scoring.reuse_metrics"
OUTPUTS = ["«le chat dort»", "le chien", "lë chät", "un «oiseau»", "le chat", "zèbre", "la maison", "«»"]


def _card(**changes) -> LanguageCard:
    data = {"code": "qaa", "name": "Test", "quotes": ['"'],
            "orthography": {"alphabet": "abcdefghijklmnopqrstuvwxyzè"}}
    for key, value in changes.items():
        if key == "alphabet":
            data["orthography"] = {"alphabet": value}
        else:
            data[key] = value
    return LanguageCard.model_validate(data)


def _request(card: LanguageCard, words: str, **kw) -> ScoringRequest:
    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="qaa"), entries=[
        Entry(id=f"e{i}", source=f"the cat {i}", reference="le chat dort") for i in range(len(OUTPUTS))])
    run = Run(meta=RunMeta(run_id="r", model_slug="m"), corpus_id="toy",
              outputs=[Output(id=f"e{i}", predicted=p) for i, p in enumerate(OUTPUTS)])
    metrics = [MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric"),
               MetricRef(id="reuse.letters", python_name=f"{T}:LettersMetric"),
               MetricRef(id="reuse.quotes", python_name=f"{T}:QuotesMetric"),
               MetricRef(id="reuse.length", python_name=f"{T}:LengthMetric"),
               MetricRef(id="reuse.words", python_name=f"{T}:WordListMetric", params={"words": words})]
    return ScoringRequest(run_id="r", corpus=corpus, run=run, target_card=card, metrics=metrics, batch_size=4,
                          n_bootstrap=20, **kw)


def _comparable(card) -> dict:
    d = card.model_dump(mode="json")
    d.pop("timestamp")
    return d


@pytest.fixture
def words(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("le chat\n", encoding="utf-8")
    return path


def test_a_changed_input_rescores_exactly_the_metrics_that_read_it(words):
    sink = MemorySink()
    reuse_metrics.CALLS.clear()
    first = score_run(_request(_card(), str(words)), sink=sink)
    assert reuse_metrics.CALLS == {"reuse.letters": 8, "reuse.quotes": 8, "reuse.length": 8, "reuse.words": 8}
    assert first.run_card.scores.model_dump()["reuse_letters"] == pytest.approx((6 + 4 / 6) / 7)  # ë, ä

    def rescore(card: LanguageCard) -> dict:
        reuse_metrics.CALLS.clear()
        again = score_run(_request(card, str(words)), sink=sink)
        scored = dict(reuse_metrics.CALLS)
        fresh = score_run(_request(card, str(words)), sink=MemorySink())
        assert _comparable(again.run_card) == _comparable(fresh.run_card)
        return scored

    assert rescore(_card()) == {}  # nothing changed: every result reused
    # the quotes: the metric that reads the whole card, not the one that declared the alphabet only
    assert rescore(_card(quotes=['"', "«", "»"])) == {"reuse.quotes": 8}
    assert sink.cards["r"]["scores"]["reuse_quotes"] == pytest.approx(6 / 8)
    # the alphabet: both card readers, never chrF++ nor the length (card_parts=())
    assert rescore(_card(quotes=['"', "«", "»"], alphabet="abcdefghijklmnopqrstuvwxyz")) == {
        "reuse.letters": 8, "reuse.quotes": 8}
    assert sink.cards["r"]["scores"]["reuse_letters"] == pytest.approx((5 + 4 / 6 + 4 / 5) / 7)  # and è
    # loanwords and folds are parts of the card the quotes metric reads with the rest
    assert rescore(_card(quotes=['"', "«", "»"], alphabet="abcdefghijklmnopqrstuvwxyz",
                         allowed_loanwords=["zèbre"])) == {"reuse.quotes": 8}
    # a data file the metric reads (its parameter names it): only that metric
    words.write_text("le chat chien maison\n", encoding="utf-8")
    assert rescore(_card(quotes=['"', "«", "»"], alphabet="abcdefghijklmnopqrstuvwxyz",
                         allowed_loanwords=["zèbre"])) == {"reuse.words": 8}
    assert sink.cards["r"]["scores"]["reuse_words"] == pytest.approx((1 / 3 + 1 + 0 + 0 + 1 + 0 + 1 / 2 + 0) / 8)


def test_params_options_and_the_metric_version_are_part_of_the_key(words, monkeypatch):
    sink = MemorySink()
    score_run(_request(_card(), str(words)), sink=sink)
    reuse_metrics.CALLS.clear()
    other = words.with_name("other.txt")
    other.write_text("chien\n", encoding="utf-8")
    again = score_run(_request(_card(), str(other)), sink=sink)  # the metric's params name another file
    assert reuse_metrics.CALLS == {"reuse.words": 8}
    assert again.run_card.scores.model_dump()["reuse_words"] == pytest.approx(1 / 2 / 8)
    reuse_metrics.CALLS.clear()
    score_run(_request(_card(), str(other), params={"reuse.length": {"unused": 1}}), sink=sink)
    assert reuse_metrics.CALLS == {"reuse.letters": 8, "reuse.quotes": 8, "reuse.length": 8, "reuse.words": 8}
    reuse_metrics.CALLS.clear()
    info = dataclasses.replace(reuse_metrics.LengthMetric.info, version="2")
    monkeypatch.setattr(reuse_metrics.LengthMetric, "info", info)
    score_run(_request(_card(), str(other), params={"reuse.length": {"unused": 1}}), sink=sink)
    assert reuse_metrics.CALLS == {"reuse.length": 8}


def test_the_keys_are_computed_once_per_job_from_the_declared_parts(words):
    card = _card(allowed_loanwords=["zèbre"])
    request = _request(card, str(words))
    letters = batches.card_key(request, ("alphabet",))
    assert letters == batches.card_key(_request(_card(quotes=["«"]), str(words)), ("alphabet",))
    assert letters != batches.card_key(_request(_card(alphabet="abc"), str(words)), ("alphabet",))
    assert batches.card_key(request, None) != batches.card_key(_request(_card(), str(words)), None)
    assert batches.card_key(request, ()) == batches.card_key(_request(_card(alphabet="abc"), str(words)), ())
    assert card_part(card, "loanwords") == ["zèbre"] and card_part(card, "alphabet") == "abcdefghijklmnopqrstuvwxyzè"
    assert card_part(card, "folds") == {} and card_part(card, "has_case") is True


def test_every_card_field_is_a_card_part():
    named = {"allowed_loanwords": "loanwords", "metric_model_support": "model_support"}
    assert {named.get(f, f) for f in LanguageCard.model_fields} <= set(CARD_PARTS)
    assert set(OrthographyProfile.model_fields) <= set(CARD_PARTS)


@pytest.mark.parametrize(("kw", "message"), [
    ({"card_parts": ("alphabet", "vowels")}, "metric t.x: card_parts 'vowels' not among code, name"),
    ({"data_files": ("../secrets",)}, "metric t.x: data_files entry '../secrets' must be a relative path"),
    ({"data_files": ("/etc/passwd",)}, "metric t.x: data_files entry '/etc/passwd' must be a relative path"),
])
def test_a_declaration_naming_an_unknown_part_or_a_path_outside_is_refused(kw, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("(", r"\(")):
        MetricInfo(id="t.x", version="1", display_name="x", scale="0-1", **kw)
    assert MetricInfo(id="t.x", version="1", display_name="x", scale="0-1", card_parts=["folds"],  # type: ignore[arg-type]
                      data_files=["data", "{lexicon}"]).card_parts == ("folds",)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["memory", "workspace"])
def test_a_sink_keeps_the_results_of_the_metrics_whose_key_is_unchanged(kind, workspace):
    if kind == "memory":
        sink, run_id = MemorySink(), "r"
    else:
        (run_id,) = _setup(workspace, 4)
        sink = ResultsStore(workspace)
    rows = [EntryRow(f"e{i}", m, 1.0, {"value": 1.0}) for m in ("a", "b", "c") for i in range(2)]
    assert sink.begin_job(run_id, {"metric_keys": {"a": "ka", "b": "kb", "c": "kc"}}, "h", 2, 2) == set()
    sink.write_batch(run_id, 0, "h", rows)
    assert sink.entry_counts(run_id, ["a", "b", "c", "d"]) == {"a": 2, "b": 2, "c": 2, "d": 0}
    # b's key changed and c is not run: their results go, a's stay, and the batch stays committed
    assert sink.begin_job(run_id, {"metric_keys": {"a": "ka", "b": "kb2", "d": "kd"}}, "h", 2, 2) == {0}
    assert sink.stored_entry_ids(run_id, ["a", "b", "c", "d"]) == {"a": {"e0", "e1"}, "b": set(), "c": set(),
                                                                  "d": set()}
    assert sink.load_entry_scores(run_id, ["a"]) == {"a": {"e0": {"value": 1.0}, "e1": {"value": 1.0}}}
    assert sink.begin_job(run_id, {"metric_keys": {"a": "ka"}}, "h2", 2, 2) == set()  # other inputs for all
    assert sink.entry_counts(run_id, ["a"]) == {"a": 0}
