"""Compliance (SPEC §3, LYSS §2.5): a quality gate on structure, never in the composite.

``compliance_index = 0.6·variable integrity + 0.2·quote compliance + 0.2·casing compliance``,
computed on the final output and on the raw output (before post-processing).

- *Variable integrity*: the multiset of placeholders in the output equals the source's.
  Placeholders: ``{name}`` / ``{0}``, ``{{name}}``, ``%s``/``%d``/``%i``/``%f`` (also
  positional ``%1$s``), ``%(name)s``, ``$1``, ICU arguments ``{n, plural, …}`` (compared by
  name and type; their nested messages are translated text) and XML-like tags.
- *Quote compliance*: every double-quote-like character in the output is one of the target
  card's ``quotes`` (without a card the check does not apply and scores 1).
- *Casing compliance*: for a language without case (card ``hasCase: false``) the output has
  no cased (e.g. Latin) letters; languages with case always comply.

``repair_effectiveness`` = violations present in the raw output and gone from the final one,
over violations in the raw output (null when the raw output has none).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryInput, EntryScore, MetricInfo, ScoringContext
from mteval_gui.scoring.stats import EntryStats
from mteval_gui.text import TEXT_MEMO, nfc

WEIGHTS = {"variables": 0.6, "quotes": 0.2, "casing": 0.2}
QUOTE_LIKE = "\"“”„‟«»‹›「」『』〝〞＂"
_QUOTE_SET = frozenset(QUOTE_LIKE)

_ICU_HEAD = re.compile(
    r"\{\s*([A-Za-z_][\w]*|\d+)\s*,\s*(plural|select|selectordinal|number|date|time|spellout|ordinal|duration)\b"
)
_SIMPLE = [
    ("double_brace", re.compile(r"\{\{\s*[^{}\s][^{}]*?\s*\}\}")),
    ("printf_named", re.compile(r"%\([A-Za-z_][\w]*\)[sdifrx]")),
    ("printf_positional", re.compile(r"%\d+\$[sdif]")),
    ("printf", re.compile(r"%[sdif]")),
    ("dollar", re.compile(r"\$\d+")),
    ("tag", re.compile(r"</?[A-Za-z][\w:.-]*(?:\s+[^<>]*?)?\s*/?>")),
    ("brace", re.compile(r"\{\s*[A-Za-z_0-9][\w.]*\s*\}")),
]


def _icu_spans(text: str) -> list[tuple[int, int, str]]:
    """ICU argument blocks with balanced braces: (start, end, 'name,type')."""
    spans = []
    pos = 0
    while True:
        m = _ICU_HEAD.search(text, pos)
        if not m:
            break
        depth, i = 0, m.start()
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        end = min(i + 1, len(text))
        spans.append((m.start(), end, f"{{{m.group(1)}, {m.group(2)}}}"))
        pos = end
    return spans


def placeholders(text: str | None) -> Counter[str]:
    """Multiset of placeholders in a text (ICU blocks count once, by name and type)."""
    if not text:
        return Counter()
    return Counter(dict(_placeholders(text)))


_PLACEHOLDER_CHARS = frozenset("{%$<")  # every placeholder pattern starts with one of these


@lru_cache(maxsize=TEXT_MEMO)
def _placeholders(text: str) -> tuple[tuple[str, int], ...]:
    # memoised: a source is checked again for every run, an output twice (final and raw)
    if _PLACEHOLDER_CHARS.isdisjoint(text):
        return ()
    text = nfc(text)
    found: Counter[str] = Counter()
    masked = list(text)
    for start, end, key in _icu_spans(text):
        found[key] += 1
        for i in range(start, end):
            masked[i] = " "
    rest = "".join(masked)
    for _kind, rx in _SIMPLE:
        def take(m: re.Match[str]) -> str:
            found[re.sub(r"\s+", "", m.group(0))] += 1
            return " " * len(m.group(0))

        rest = rx.sub(take, rest)
    return tuple(found.items())


def check(text: str, source: str, *, quotes: Sequence[str] | None, has_case: bool | None) -> dict[str, Any]:
    """The three checks on one output: 1.0 complies, 0.0 violates, plus what was found."""
    text = nfc(text or "")
    src_ph, out_ph = placeholders(source), placeholders(text)
    variables = 1.0 if src_ph == out_ph else 0.0
    bad_quotes: list[str] = []
    if quotes is not None:
        bad_quotes = sorted(_QUOTE_SET.intersection(text).difference(quotes))
    cased: list[str] = []
    if has_case is False:
        cased = sorted({c for c in text if c.isalpha() and (c.isupper() or c.islower()) and c.upper() != c.lower()})
    result: dict[str, Any] = {
        "variables": variables,
        "quotes": 0.0 if bad_quotes else 1.0,
        "casing": 0.0 if cased else 1.0,
    }
    result["index"] = sum(WEIGHTS[k] * result[k] for k in WEIGHTS)
    missing = src_ph - out_ph
    extra = out_ph - src_ph
    result["detail"] = {
        "missing_placeholders": sorted(missing.elements()),
        "extra_placeholders": sorted(extra.elements()),
        "bad_quotes": bad_quotes,
        "cased_letters": cased[:20],
    }
    return result


class ComplianceMetric(BaseMetric):
    """Compliance index on final and raw output, and repair effectiveness."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.compliance",
        version="1",
        display_name="Compliance index",
        scale="0-1",
        role="compliance",
        label="Compliance",
        validation="heuristic",
        produces=("compliance_index", "compliance_index_raw", "repair_effectiveness"),
        card_parts=("quotes", "has_case"),
        description="0.6 placeholder integrity + 0.2 quote compliance + 0.2 casing compliance; "
                    "a gate, not in the composite.",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        card = context.target_card
        self.quotes = list(card.quotes) if card is not None else None
        self.has_case = card.has_case if card is not None else None

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            final = check(it.predicted, it.entry.source, quotes=self.quotes, has_case=self.has_case)
            if it.raw_predicted == it.predicted:  # no post-processing: the same checks
                raw = {**final, "detail": {k: list(v) for k, v in final["detail"].items()}}
            else:
                raw = check(it.raw_predicted, it.entry.source, quotes=self.quotes, has_case=self.has_case)
            raw_v = [k for k in WEIGHTS if raw[k] < 1.0]
            fixed = [k for k in raw_v if final[k] == 1.0]
            out.append(EntryScore(
                final["index"],
                values={"compliance_index_raw": raw["index"], "variables": final["variables"],
                        "quotes": final["quotes"], "casing": final["casing"],
                        "repair_effectiveness.num": len(fixed), "repair_effectiveness.den": len(raw_v)},
                detail={"final": final["detail"], "raw": raw["detail"], "raw_violations": raw_v, "fixed": fixed},
            ))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {
            "compliance_index": EntryStats.mean([e.value for e in per_entry]),
            "compliance_index_raw": EntryStats.mean([e.values.get("compliance_index_raw") for e in per_entry]),
            "repair_effectiveness": EntryStats.ratio(
                [float(e.values.get("repair_effectiveness.num", 0)) for e in per_entry],
                [float(e.values.get("repair_effectiveness.den", 0)) for e in per_entry]),
        }

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)
        values = {k: s.point() for k, s in st.items()}
        extra: dict[str, Any] = {"raw_violations": int(st["repair_effectiveness"].matrix[:, 1].sum()),
                                 "fixed": int(st["repair_effectiveness"].matrix[:, 0].sum())}
        reasons = {} if values["repair_effectiveness"] is not None else {
            "repair_effectiveness": "the raw outputs have no compliance violation to repair"}
        return CorpusScore(values, extra=extra, reasons=reasons)
