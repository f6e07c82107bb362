"""One conformance test over every metric: the built-ins and every metric every card declares.

The list is built by discovery at collection time, so a metric added to a card or to the
built-ins later is tested automatically. Each metric must: resolve; carry a well-formed
MetricInfo that declares what it produces; prepare on a tiny context (MetricUnavailable is an
acceptable answer); score five tiny items (a missing reference, a provider error, an empty
output among them) into five JSON-serialisable EntryScores that survive a JSON round trip;
aggregate them — and the same stored scores after a JSON round trip — into the same
CorpusScore with a valid availability and keys from the run card's ``scores`` block or the
metric's declared ``produces`` (at least one of the latter). The Plains Cree metrics are
checked once more with the real analyzers of the shared data.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from mteval_gui.app.standards import discover_metrics
from mteval_gui.cards import load_card
from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output, Usage
from mteval_gui.domain.runcard import Scores
from mteval_gui.scoring.discovery import discover
from mteval_gui.scoring.plugins import (
    AVAILABILITY_VALUES,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
    instantiate,
    resolve,
)
from tests.conftest import SHARED_DATA
from tests.fst._support import build_tiny_hfstol

SCALES = {"0-1", "0-100", "0-inf", "count"}
SCORE_KEYS = set(Scores.model_fields)
BUILTIN_CARD = "crk"  # built-ins are exercised against the richest card (orthography, analyzers, COMET support)

_DISCOVERY = discover_metrics()


def _cases() -> list:
    params = []
    for code, ref in _DISCOVERY.all_refs():
        params.append(pytest.param(code or BUILTIN_CARD, ref, code is None,
                                   id=f"{ref.id}@{code or 'builtin'}"))
    for code, cm in sorted(_DISCOVERY.cards.items()):
        for ref in cm.refs:
            if ref.id in cm.missing:
                params.append(pytest.param(code, ref, False, id=f"{ref.id}@{code}",
                                           marks=pytest.mark.skip(reason=f"module of {ref.python_name} not present")))
    return params


def _items() -> list[EntryInput]:
    e1 = Entry(id="e1", source="The dog sleeps.", reference="nipâw atim", variants=["atim nipâw"],
               terminology={"dog": ["atim"]}, difficulty=2, provenance="test",
               expected_morphology={"nipâw": "nipâw+V+AI+Ind+3Sg"})
    e2 = Entry(id="e2", source="As he sleeps, {name}!", reference="ê-nipât, {name}!", difficulty=4)
    e3 = Entry(id="e3", source="Hello", reference=None)
    e4 = Entry(id="e4", source="he arrives", reference=None)
    e5 = Entry(id="e5", source="as I am", reference="ê-ayâyân")
    return [
        EntryInput(0, e1, Output(id="e1", predicted="nipâw atim", latency_s=1.2,
                                 usage=Usage(prompt_tokens=10, completion_tokens=3))),
        EntryInput(1, e2, Output(id="e2", predicted="Ê-nipât kotak {name}", raw_predicted="« Ê-nipât kotak {name} »")),
        EntryInput(2, e3, Output(id="e3", error="HTTP 503 from provider")),
        EntryInput(3, e4, Output(id="e4", predicted="takohtêw")),
        EntryInput(4, e5, Output(id="e5", predicted="")),
    ]


@pytest.fixture(scope="module")
def tiny_analyzer(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("conformance") / "tiny.hfstol")


def _json_ok(obj, what: str) -> None:
    try:
        json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as exc:
        pytest.fail(f"{what} is not JSON-serialisable: {exc}")


def _context(card: LanguageCard, analyzer: Path) -> ScoringContext:
    return ScoringContext(
        source_lang="eng", target_lang=card.code, target_card=card, source_card=load_card("eng"),
        glossary={"sleeps": ["nipâw"]}, options={"analyzer_path": str(analyzer)},
    )


def test_discovery_of_bundled_cards_is_clean():
    assert _DISCOVERY.builtins, "no built-in metric registered"
    for code, cm in _DISCOVERY.cards.items():
        malformed = [e for e in cm.errors if not e.endswith("not found")]
        assert malformed == [], f"{code}: {malformed}"


def test_discovery_reports_per_card_errors_without_raising():
    bad = LanguageCard(code="bad", name="Bad", evalMetrics=[
        MetricRef(id="nodot", python_name="x:Y"),
        MetricRef(id="bad.missing", python_name="eval_standards.bad.nothing_here:Metric"),
        MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric"),
    ])
    good = LanguageCard(code="ok", name="Ok")
    d = discover([bad, good])
    assert d.cards["ok"].ok
    errs = d.cards["bad"].errors
    assert "metric id 'nodot' must look like 'namespace.name'" in errs
    assert "metric bad.missing: module eval_standards.bad.nothing_here not found" in errs
    assert "metric core.chrf: id clashes with a built-in metric" in errs
    assert [r.id for r in d.cards["bad"].refs] == ["bad.missing"] and d.cards["bad"].missing == ["bad.missing"]
    assert [r.id for c, r in d.all_refs() if c == "bad"] == []  # only locatable, well-formed refs are run


@pytest.mark.parametrize(("card_code", "ref", "is_builtin"), _cases())
def test_metric_conformance(card_code, ref, is_builtin, tiny_analyzer, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "no-installed-analyzers"))
    cls = resolve(ref)
    info = cls.info
    assert isinstance(info, MetricInfo)
    assert info.id == ref.id
    namespace = info.id.split(".")[0]
    assert namespace == ("core" if is_builtin else card_code)
    assert info.version and info.display_name and info.scale in SCALES
    assert isinstance(info.produces, tuple) and all(isinstance(k, str) and k for k in info.produces)
    assert info.produces, "a metric declares the keys it produces"
    _check_scoring(ref, info, _context(load_card(card_code), tiny_analyzer))


def _crk_refs() -> list:
    cm = _DISCOVERY.cards.get("crk")
    if cm is None:
        return []
    return [pytest.param(ref, id=ref.id) for ref in cm.refs if ref.id not in cm.missing]


@pytest.mark.shared_data
@pytest.mark.parametrize("ref", _crk_refs())
def test_crk_metric_conformance_with_the_real_analyzers(ref, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "no-installed-analyzers"))
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    _check_scoring(ref, resolve(ref).info, _context(load_card("crk"), analyzer))


def _check_scoring(ref: MetricRef, info: MetricInfo, ctx: ScoringContext) -> None:
    metric = instantiate(ref)
    try:
        metric.prepare(ctx)
    except MetricUnavailable as exc:
        assert exc.availability in AVAILABILITY_VALUES
        assert isinstance(exc.reason, str) and exc.reason.strip()
        return

    items = _items()
    per = metric.score_entries(items)
    assert isinstance(per, list) and len(per) == len(items)
    for e in per:
        assert isinstance(e, EntryScore)
        _json_ok(e.to_json(), f"{ref.id} EntryScore")
        assert e.value is None or (isinstance(e.value, (int, float)) and math.isfinite(e.value))
        assert EntryScore.from_json(json.loads(json.dumps(e.to_json()))).value == e.value

    cs = metric.aggregate(per, ctx)
    assert isinstance(cs, CorpusScore)
    assert cs.availability in AVAILABILITY_VALUES
    if cs.availability != "ok":
        assert isinstance(cs.reason, str) and cs.reason.strip()
    allowed = SCORE_KEYS | set(info.produces)
    assert set(cs.values) <= allowed, f"keys outside the run card scores and produces: {set(cs.values) - allowed}"
    assert set(cs.values) & set(info.produces), f"none of the declared keys {info.produces} in {set(cs.values)}"
    _json_ok(cs.values, f"{ref.id} CorpusScore.values")
    _json_ok(cs.extra, f"{ref.id} CorpusScore.extra")
    for k, v in cs.values.items():
        if isinstance(v, float):
            assert math.isfinite(v), f"{k} = {v}"

    # a resumed job aggregates stored (JSON round-tripped) entry scores: same result
    stored = [EntryScore.from_json(json.loads(json.dumps(e.to_json()))) for e in per]
    again = metric.aggregate(stored, ctx)
    assert again.values == cs.values and again.availability == cs.availability
