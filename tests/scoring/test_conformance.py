"""One conformance test over every metric the application declares (built-ins and card metrics)."""

from __future__ import annotations

import json
import math

import pytest

from mteval_gui.cards import list_cards
from mteval_gui.domain.card import MetricRef
from mteval_gui.scoring.plugins import (
    AVAILABILITY_VALUES, CorpusScore, EntryScore, MetricInfo, MetricUnavailable, metrics_for, resolve,
)
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import context, item


def _declared() -> list[tuple[str, MetricRef]]:
    out = [("", r) for r in metrics_for(None)]
    for info in list_cards():
        if info.card is not None:
            out += [(info.code, r) for r in info.card.eval_metrics]
    return out


DECLARED = _declared()


@pytest.mark.parametrize("lang,ref", DECLARED, ids=[f"{lang or 'core'}:{r.id}" for lang, r in DECLARED])
def test_metric_conformance(lang, ref):
    cls = resolve(ref)
    info = cls.info
    assert isinstance(info, MetricInfo) and info.id == ref.id
    assert info.version and info.display_name and info.produces
    if info.heavy:
        return  # model-based metrics are exercised by their own tests
    metric = cls(**ref.params)
    card = next((c.card for c in list_cards() if c.code == (lang or "fra")), None)
    options = {}
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    if lang == "crk" and analyzer.is_file():
        options["analyzer_path"] = str(analyzer)
    ctx = context("eng", lang or "fra", card=card, options=options)
    items = [item(0, "I say so", "nititwân", "nititwân"), item(1, "you leave", "kisipwêhtân", "kisipwehtan"),
             item(2, "as I am", "ê-ayâyân", ""), item(3, "he arrives", None, "takohtêw"),
             item(4, "x", "nipâw", "", error="HTTP 503")]
    try:
        metric.prepare(ctx)
    except MetricUnavailable as exc:
        assert exc.reason and exc.availability in AVAILABILITY_VALUES
        return
    scores = metric.score_entries(items)
    assert len(scores) == len(items)
    for s in scores:
        assert isinstance(s, EntryScore)
        assert s.value is None or (isinstance(s.value, (int, float)) and math.isfinite(s.value))
        again = EntryScore.from_json(json.loads(json.dumps(s.to_json(), allow_nan=False)))
        assert again.value == s.value
    cs = metric.aggregate(scores, ctx)
    assert isinstance(cs, CorpusScore) and cs.availability in AVAILABILITY_VALUES
    json.dumps(cs.values, allow_nan=False)
    assert set(cs.values) & set(info.produces)
