"""Generator-assisted correction: the forms a speaker may pick to correct an output word.

For an output word that the strict analyzer rejects, or accepts only with analyses other than
the entry's gold analysis (``expected_morphology``: a wrong person or number), the language's
generator (``analyzers.generator`` in its card, found, pinned and loaded like the analyzers)
gives:

1. the forms of the **gold analysis** (the inflection the entry asks for);
2. the forms of the **nearest paradigm cells**: the gold analysis with one feature changed —
   one tag replaced by another of the same set of the card's ``analyzers.paradigm_features``
   (Cree: the person/number of the actor, of the goal, the order).

Gold forms come first, then the other cells; within each group forms are ranked by closeness
to what was written (edit distance), so the form a speaker most likely meant is at hand. A form
equal to the word as written is left out (it is no correction). :func:`corrected_output` writes
a chosen form in place of the word in the output: the speaker's correction, which the variant
promotion (:mod:`mteval_gui.app.variants`) turns into an accepted variant.

Which gold analysis belongs to an output word: the gold analysis of the same lemma when the
analyzer accepts the word; for a rejected word, the gold analysis of the reference word nearest
to it (edit distance) — the only one in a one-word entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mteval_gui.cards import try_load_card
from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.fst import AnalyzerNotFound, parse_analysis, shared_analyzer
from mteval_gui.fst.analyzer import Analyzer
from mteval_gui.text import fst_form, nfc, word_tokens

MAX_FORMS = 9  # one key each (Alt+1 … Alt+9)


@dataclass(frozen=True)
class Suggestion:
    form: str
    analysis: str
    gold: bool  # a form of the gold analysis (else: a neighbouring cell)
    distance: int  # edit distance to the word as written
    changed: str | None = None  # the feature changed from the gold analysis ("1Sg → 3Sg")

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class WordSuggestions:
    token: str  # the output word as written
    reason: str  # "rejected" | "other_analysis"
    gold: str  # the gold analysis the forms come from
    forms: tuple[Suggestion, ...] = ()
    analyses: tuple[str, ...] = ()  # what the analyzer made of the word as written

    def to_json(self) -> dict[str, Any]:
        return {"token": self.token, "reason": self.reason, "gold": self.gold, "analyses": list(self.analyses),
                "forms": [s.to_json() for s in self.forms]}


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (characters, NFC)."""
    a, b = nfc(a), nfc(b)
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def neighbour_analyses(gold: str, features: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """``(analysis, "old → new")`` for every analysis that differs from ``gold`` by one tag of one feature set."""
    parts = gold.split("+")
    out: list[tuple[str, str]] = []
    seen = {gold}
    for i, tag in enumerate(parts):
        for group in features:
            if tag not in group:
                continue
            for other in group:
                if other == tag:
                    continue
                cand = "+".join([*parts[:i], other, *parts[i + 1:]])
                if cand not in seen:
                    seen.add(cand)
                    out.append((cand, f"{tag} → {other}"))
    return out


def _forms(generator: Analyzer, analysis: str) -> tuple[str, ...]:
    return generator.lookup_strings(analysis)


def suggest_for_word(token: str, gold: str, generator: Analyzer, features: Sequence[Sequence[str]], *,
                     reason: str, analyses: Iterable[str] = (), written: str | None = None,
                     limit: int = MAX_FORMS) -> WordSuggestions:
    """The ranked forms of ``gold`` and of its neighbouring cells for one output word (``written``:
    the word as the analyzer reads it, e.g. its SRO transliteration, for the distances)."""
    target = fst_form(written or token)
    seen = {target, fst_form(token)}
    gold_forms: list[Suggestion] = []
    for form in _forms(generator, gold):
        if form not in seen:
            seen.add(form)
            gold_forms.append(Suggestion(form, gold, True, edit_distance(form, target)))
    others: list[Suggestion] = []
    for analysis, changed in neighbour_analyses(gold, features):
        for form in _forms(generator, analysis):
            if form not in seen:
                seen.add(form)
                others.append(Suggestion(form, analysis, False, edit_distance(form, target), changed))
    gold_forms.sort(key=lambda s: (s.distance, s.form))
    others.sort(key=lambda s: (s.distance, s.form))
    return WordSuggestions(token, reason, gold, tuple((gold_forms + others)[:limit]), tuple(analyses))


def _gold_for(token: str, word_lemmas: set[str], gold: Mapping[str, str]) -> str | None:
    """The gold analysis an output word stands for (see the module docstring)."""
    if word_lemmas:
        for analysis in gold.values():
            if parse_analysis(analysis).lemma in word_lemmas:
                return analysis
        return None
    if not gold:
        return None
    return min(gold.items(), key=lambda kv: (edit_distance(kv[0], token), kv[0]))[1]


def entry_suggestions(entry: Entry, predicted: str | None, analyzer: Analyzer, generator: Analyzer,
                      card: LanguageCard | None) -> list[WordSuggestions]:
    """Suggestions for every output word of an entry that needs one (none without gold analyses)."""
    gold = {k: v for k, v in (entry.expected_morphology or {}).items() if isinstance(v, str) and v}
    if not gold or not predicted:
        return []
    features = card.analyzers.paradigm_features if card is not None and card.analyzers is not None else []
    folds = dict(card.orthography.folds) if card is not None else {}
    scripts = Scripts.of(card)
    gold_set = set(gold.values())
    out: list[WordSuggestions] = []
    for token in word_tokens(predicted):
        w = analyzer.analyse_in_script(token, folds, scripts)
        raws = [a.raw for a in w.analyses]
        if raws and gold_set.intersection(raws):
            continue  # the gold inflection: nothing to correct
        target = _gold_for(token, {a.lemma for a in w.analyses}, gold)
        if target is None:
            continue  # accepted, but not a word the gold analyses speak of
        reason = "other_analysis" if raws else "rejected"
        sugg = suggest_for_word(token, target, generator, features, reason=reason, analyses=raws, written=w.form)
        if sugg.forms:
            out.append(sugg)
    return out


def corrected_output(predicted: str, token: str, form: str) -> str:
    """``predicted`` with the first occurrence of the word ``token`` written as ``form`` (its edge
    punctuation kept); the whole text when the word is not found as written."""
    text = nfc(predicted).strip()
    words = text.split(" ")
    for i, raw in enumerate(words):
        if token and token in raw and word_tokens(raw) == [token]:
            words[i] = raw.replace(token, form, 1)
            return " ".join(words)
    return text


@dataclass
class CorrectionHelper:
    """Loads a language's strict analyzer and generator once (pinned like the scorer's) and gives
    the suggestions of an entry's output. ``base``: the analyzer folder (default: the user's)."""

    base: Path | None = None
    _loaded: dict[str, tuple[Analyzer, Analyzer] | None] = field(default_factory=dict)
    _cards: dict[str, LanguageCard | None] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)  # lang -> why its analyzers cannot be used

    def analyzers(self, lang: str, card: LanguageCard | None) -> tuple[Analyzer, Analyzer] | None:
        """(strict analyzer, generator) of ``lang``, or None when either is not installed (or not the pinned file)."""
        if lang not in self._loaded:
            ctx = SimpleNamespace(shared={}, target_card=card, target_lang=lang,
                                  options={"analyzers_dir": str(self.base)} if self.base is not None else {})
            try:
                self._loaded[lang] = (shared_analyzer(ctx, "strict"), shared_analyzer(ctx, "generator"))
            except AnalyzerNotFound as exc:  # not installed, damaged, or not the file the card pins
                self._loaded[lang] = None
                self.problems[lang] = str(exc)
        return self._loaded[lang]

    def suggestions(self, lang: str, entry: Entry, predicted: str | None,
                    card: LanguageCard | None = None) -> list[WordSuggestions] | None:
        """None when the language has no generator installed; else the words' suggestions
        (``card``: the language's card, default the installed one)."""
        if card is None:
            card = self._cards.setdefault(lang, try_load_card(lang))
        pair = self.analyzers(lang, card)
        if pair is None:
            return None
        return entry_suggestions(entry, predicted, pair[0], pair[1], card)
