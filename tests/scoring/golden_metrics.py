"""Metrics of the run-card golden test: a language plugin that still reports its signature,
caveats, reasons and coverage in ``CorpusScore.extra`` (the form of older plugins), and a
statistic read from ``<key>.num`` / ``<key>.den`` values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryInput, EntryScore, MetricInfo, ScoringContext


class LegacyExtraMetric(BaseMetric):
    """Share of output characters that are letters, as a ratio of sums, with extra-dict details."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="zzx.letters", version="1", display_name="Letters", scale="0-1",
        produces=("letter_share", "letter_share_raw"), validation="heuristic")

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            text = it.predicted
            letters = sum(ch.isalpha() for ch in text)
            out.append(EntryScore(letters / len(text) if text else None,
                                  values={"letter_share.num": letters, "letter_share.den": len(text)}))
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        num = sum(int(e.values["letter_share.num"]) for e in per_entry)
        den = sum(int(e.values["letter_share.den"]) for e in per_entry)
        extra: dict[str, Any] = {
            "signature": "letters|v1",
            "caveats": [{"code": "zzx_letters", "message": "letters are counted with str.isalpha",
                         "detail": {"characters": den}},
                        "a caveat that is only text"],
            "reasons": {"letter_share_raw": "the raw outputs are not kept by this metric"},
            "covered": True,
            "characters": den,
        }
        return CorpusScore({"letter_share": num / den if den else None, "letter_share_raw": None}, extra=extra)
