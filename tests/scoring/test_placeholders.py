"""Placeholders declared by the card or the corpus are not words for leakage and orthography checks."""

from __future__ import annotations

import dataclasses

import pytest

from mteval_gui.domain.card import LanguageCard, OrthographyProfile
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.placeholders import declared, mask, problem
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.batches import config_of
from mteval_gui.scoring.job import ScoringJob, ScoringRequest
from mteval_gui.scoring.metrics.behavioural import CodeSwitchingMetric
from mteval_gui.scoring.metrics.structural import OrthographicAccuracyMetric
from tests.scoring.metric_helpers import context, item, run_metric

ENG = LanguageCard(code="eng", name="English", scripts=["Latn"])


def _amharic(placeholders: list[str]) -> LanguageCard:
    return LanguageCard(code="amh", name="Amharic", scripts=["Ethi"], hasCase=False, placeholders=placeholders)


def test_presets_blank_out_each_kind_and_keep_the_length():
    text = "ሰላም {name} {{user}} {0} %s %(n)d $1 <b>ጤና</b> <br/> 50% {not closed"
    masked = mask(text, ["braces", "printf", "dollar", "tags"])
    assert len(masked) == len(text)
    assert masked.split() == ["ሰላም", "ጤና", "50%", "{not", "closed"]
    assert mask(text, []) == text


def test_a_regular_expression_is_a_declaration_too():
    assert mask("ሰላም @@user@@ ጤና", [r"@@\w+@@"]).split() == ["ሰላም", "ጤና"]


def test_declarations_are_checked():
    assert problem("braces") is None
    assert problem(r"\[\w+\]") is None
    assert problem("a*") == "'a*' matches an empty text"
    assert problem("(a").startswith("invalid regular expression '(a'")
    assert "backreference" in problem(r"(a)\1")  # cannot be matched in linear time


def test_card_and_corpus_declarations_are_merged():
    assert declared(["braces"], {"placeholders": ["tags", "braces"]}) == ("braces", "tags")
    assert declared([], {"placeholders": "printf"}) == ("printf",)
    assert declared([], {}) == ()


def test_code_switching_ignores_declared_placeholders_in_a_caseless_language():
    it = [item(0, "Hello {name}, see <b>you</b>", "ሰላም {name}፣ <b>ጤና</b>", "ሰላም {name}፣ <b>ጤና</b>")]
    ctx = context("eng", "amh", card=_amharic([]), source_card=ENG)
    per, _ = run_metric(CodeSwitchingMetric(detect_language=False), it, ctx)
    assert per[0].detail["switched"] == ["name", "b>ጤና</b"]
    assert per[0].value == pytest.approx(2 / 3)
    ctx = dataclasses.replace(ctx, placeholders=("braces", "tags"))
    per, _ = run_metric(CodeSwitchingMetric(detect_language=False), it, ctx)
    assert per[0].detail == {"tokens": 2, "switched": [], "script": 0, "lexical": 0}
    assert per[0].value == 0.0


def test_orthography_ignores_declared_placeholders():
    card = LanguageCard(code="crk", name="Plains Cree", orthography=OrthographyProfile(alphabet="achikmnopstwyâêîô"),
                        placeholders=["braces", "printf"])
    it = [item(0, "he sleeps", "nipâw", "{name} nipâw %s")]
    per, corpus = run_metric(OrthographicAccuracyMetric(), it, context("eng", "crk", card=card))
    assert per[0].value == pytest.approx(2 / 3)  # without the job's declarations: {name} is flagged
    assert [f["token"] for f in per[0].detail["flagged"]] == ["name"]
    ctx = dataclasses.replace(context("eng", "crk", card=card), placeholders=("braces", "printf"))
    per, corpus = run_metric(OrthographicAccuracyMetric(), it, ctx)
    assert per[0].value == 1.0
    assert corpus.values["orthographic_accuracy"] == 1.0


def _request(card: LanguageCard, metadata: dict[str, object]) -> ScoringRequest:
    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="amh"), metadata=metadata,
                    entries=[Entry(id="e0", source="Hello {name}", reference="ሰላም {name}")])
    run = Run(meta=RunMeta(run_id="r", model_slug="m"), corpus_id="toy",
              outputs=[Output(id="e0", predicted="ሰላም {name}")])
    return ScoringRequest("r", corpus, run, target_card=card)


def test_the_job_reads_the_card_and_the_corpus_declarations():
    job = ScoringJob.start(_request(_amharic(["braces"]), {"placeholders": ["tags"]}))
    assert job.context.placeholders == ("braces", "tags")
    assert job.context.without_placeholders("ሰላም {name} <i>").split() == ["ሰላም"]
    # stored results are not reused once a corpus declares other placeholders
    _, plain = config_of(_request(_amharic([]), {}), [])
    _, declaring = config_of(_request(_amharic([]), {"placeholders": ["braces"]}), [])
    assert plain != declaring
