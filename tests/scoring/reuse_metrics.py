"""Metrics of the reuse tests (resolved through ``tests.scoring.reuse_metrics:Name``): each reads
one kind of input and counts the entries it was asked to score (``CALLS``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from mteval_gui.scoring.plugins import BaseMetric, EntryInput, EntryScore, MetricInfo, ScoringContext

CALLS: dict[str, int] = {}


def _count(metric_id: str, items: Sequence[EntryInput]) -> None:
    CALLS[metric_id] = CALLS.get(metric_id, 0) + len(items)


class LettersMetric(BaseMetric):
    """Share of the output's letters that are in the target card's alphabet (reads that part only)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="reuse.letters", version="1", display_name="Letters", scale="0-1",
                                            produces=("reuse_letters",), card_parts=("alphabet",))

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        card = context.target_card
        self.alphabet = set(card.orthography.alphabet or "") if card is not None else set()

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        _count(self.info.id, items)
        out = []
        for it in items:
            letters = [c for c in it.predicted.lower() if c.isalpha()]
            out.append(EntryScore(sum(c in self.alphabet for c in letters) / len(letters) if letters else None))
        return out


class QuotesMetric(BaseMetric):
    """Quote marks of the card in the output (declares nothing: depends on the whole cards)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="reuse.quotes", version="1", display_name="Quotes", scale="count",
                                            produces=("reuse_quotes",))

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.quotes = set(context.target_card.quotes) if context.target_card is not None else set()

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        _count(self.info.id, items)
        return [EntryScore(float(sum(c in self.quotes for c in it.predicted))) for it in items]


class LengthMetric(BaseMetric):
    """Output length in characters (reads no card)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="reuse.length", version="1", display_name="Length", scale="count",
                                            produces=("reuse_length",), card_parts=())

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        _count(self.info.id, items)
        return [EntryScore(float(len(it.predicted))) for it in items]


class WordListMetric(BaseMetric):
    """Share of output words in the word list its parameter ``words`` names (a data file)."""

    info: ClassVar[MetricInfo] = MetricInfo(id="reuse.words", version="1", display_name="Words", scale="0-1",
                                            produces=("reuse_words",), card_parts=(), data_files=("{words}",))

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.words = set(Path(self.params["words"]).read_text(encoding="utf-8").split())

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        _count(self.info.id, items)
        out = []
        for it in items:
            words = it.predicted.lower().split()
            out.append(EntryScore(sum(w in self.words for w in words) / len(words) if words else None))
        return out
