"""Helpers for metric tests: build entries and run one metric over them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.scoring.plugins import CorpusScore, EntryInput, EntryScore, ScoringContext


def item(i: int, source: str, reference: str | None, predicted: str, **kw: Any) -> EntryInput:
    raw = kw.pop("raw_predicted", None)
    error = kw.pop("error", None)
    return EntryInput(i, Entry(id=str(i), source=source, reference=reference, **kw),
                      Output(id=str(i), predicted=predicted, raw_predicted=raw, error=error))


def context(src: str = "eng", tgt: str = "fra", *, card: LanguageCard | None = None,
            source_card: LanguageCard | None = None, glossary: dict[str, list[str]] | None = None,
            options: dict[str, Any] | None = None, shared: dict[str, Any] | None = None) -> ScoringContext:
    return ScoringContext(source_lang=src, target_lang=tgt, target_card=card, source_card=source_card,
                          glossary=glossary or {}, options=options or {}, shared=shared or {})


def run_metric(metric: Any, items: Sequence[EntryInput], ctx: ScoringContext | None = None,
               batch: int = 3) -> tuple[list[EntryScore], CorpusScore]:
    """prepare, score in batches of ``batch`` (JSON round trip, as stored), aggregate."""
    ctx = ctx or context()
    if not ctx.entries:  # the corpus of these items, as the runner's context has it
        ctx = dataclasses.replace(ctx, entries=[it.entry for it in items])
    metric.prepare(ctx)
    per: list[EntryScore] = []
    for k in range(0, len(items), batch):
        for s in metric.score_entries(items[k:k + batch]):
            per.append(EntryScore.from_json(__import__("json").loads(__import__("json").dumps(s.to_json()))))
    return per, metric.aggregate(per, ctx)
