"""A linter for Kalaallisut: outputs in the orthography before 1973 are EQUIVALENT to a modern reference.

Verdict of each entry, in ``EntryScore.detail`` (the shape every equivalence linter gives):

- ``EXACT``: the output equals the reference (or a variant) after NFC, trimming, collapsing
  white space and casefolding;
- ``EQUIVALENT``: it does once written in today's orthography, with the classes of the
  changes that made it match: ``OLD_SPELLING`` (a whole word of ``data/old_spellings.tsv``),
  ``KRA`` (ĸ → q), ``LONG_VOWEL`` (â ê î ô û → aa ee ii oo uu);
- ``MISS`` otherwise; ``NO_OUTPUT`` for an empty output (or a provider error).

The metric declares the role ``equivalence_verdict``, so the application shows its verdicts in
the entries view and the review pane, writes them to the run card's ``results[].lint_verdict``,
and lets its ``equivalent_match_rate`` win over the generic rule while it can run
(``score_sources``) — all without knowing this metric's id.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from mteval_gui.domain.runcard import Caveat
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
)
from mteval_gui.scoring.stats import EntryStats

DATA_DIR = Path(__file__).resolve().parent / "data"
LONG_VOWELS = {"â": "aa", "ê": "ee", "î": "ii", "ô": "oo", "û": "uu"}


def key(text: str) -> str:
    """NFC, trimmed, white space collapsed, casefolded."""
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def read_old_spellings(path: Path) -> dict[str, str]:
    """old spelling -> modern spelling, from a TSV word list (``#`` comments, a header row)."""
    out: dict[str, str] = {}
    header = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if header is None:
            header = cols
            continue
        out[key(cols[0])] = key(cols[1])
    return out


def modernise(text: str, old_spellings: dict[str, str]) -> tuple[str, list[str]]:
    """The text in today's orthography and the classes of the changes made."""
    classes: list[str] = []
    words = key(text).split(" ")
    # word sequences first (longest first), then single words
    joined = " ".join(words)
    for old in sorted(old_spellings, key=len, reverse=True):
        if f" {old} " in f" {joined} ":
            joined = f" {joined} ".replace(f" {old} ", f" {old_spellings[old]} ").strip()
            if "OLD_SPELLING" not in classes:
                classes.append("OLD_SPELLING")
    if "ĸ" in joined:
        joined = joined.replace("ĸ", "q")
        classes.append("KRA")
    if any(v in joined for v in LONG_VOWELS):
        for old, new in LONG_VOWELS.items():
            joined = joined.replace(old, new)
        classes.append("LONG_VOWEL")
    return joined, classes


class KalLinterMetric(BaseMetric):
    info: ClassVar[MetricInfo] = MetricInfo(
        id="kal.lint",
        version="0.1.0",
        display_name="Kalaallisut linter (equivalent match)",
        scale="0-1",
        needs_reference=True,
        produces=("equivalent_match_rate", "equivalent_matches"),
        role="equivalence_verdict",
        label="Kalaallisut linter",
        labels={"fr": "Correcteur kalaallisut"},
        validation="heuristic",
        card_parts=("lexicon_files",),  # what it reads of the card (stored results are reused while it is unchanged)
        data_files=("data",),  # its word lists
        description="EXACT / EQUIVALENT (orthography before 1973) / MISS / NO_OUTPUT",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        card = context.target_card
        name = card.lexicon_files.get("old_spellings") if card is not None else None
        path = DATA_DIR / (name or "old_spellings.tsv")
        if not path.is_file():
            raise MetricUnavailable(f"word list {path} not found")
        self.old_spellings = read_old_spellings(path)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            refs = [r for r in [it.entry.reference, *it.entry.variants] if r]
            if not it.predicted.strip():
                out.append(EntryScore(0.0, detail={"verdict": "NO_OUTPUT", "classes": []}))
                continue
            targets = {key(r) for r in refs}
            if key(it.predicted) in targets:
                out.append(EntryScore(1.0, detail={"verdict": "EXACT", "classes": []}))
                continue
            modern, classes = modernise(it.predicted, self.old_spellings)
            if classes and modern in targets:
                detail: dict[str, Any] = {"verdict": "EQUIVALENT", "classes": classes, "modernised": modern}
                out.append(EntryScore(1.0, detail=detail))
            else:
                out.append(EntryScore(0.0, detail={"verdict": "MISS", "classes": []}))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """The share of equivalent entries, entry by entry (intervals, paired tests, breakdowns)."""
        return {"equivalent_match_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        if not per_entry:
            return CorpusScore({"equivalent_match_rate": None}, availability="not_applicable", reason="no entries")
        hits = sum(1 for e in per_entry if e.value == 1.0)
        old = sum(1 for e in per_entry if e.detail.get("modernised"))
        caveats = [Caveat(code="kal_old_orthography",
                          message=f"{old} outputs are accepted only in their modern spelling (pre-1973 orthography)",
                          detail={"entries": old})] if old else []
        return CorpusScore({"equivalent_match_rate": hits / len(per_entry), "equivalent_matches": hits},
                           caveats=caveats)
