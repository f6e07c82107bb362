"""The analyzer-gap report: the words a strict analyzer rejects, ranked, classified and exported.

Works on plain data (no workspace): word occurrences (where each rejected word was written),
the descriptive analyzer's analyses of each word, the speakers' Task C answers and the words
the strict analyzer accepted in the same texts.

**Ranking.** Words are ranked by their number of occurrences over the references and the
outputs (most frequent first, then alphabetically); the count on each side is kept.

**Kind** of a word, the first rule that applies:

1. ``speakers``: speakers judged the word valid (Task C: Yes answers outnumber No answers over
   its judged occurrences) and their most frequent kind is Loanword, Name or Dialectal;
2. ``loanword``: the word (case-folded) is in the language card's ``allowed_loanwords``;
3. ``name``: the descriptive analyzer gives it a proper-noun analysis (tag ``Prop``);
4. ``dialectal``: the descriptive analyzer gives it a dialect tag (a tag starting with
   ``Dial`` or ``Err/Dial``: GiellaLT's convention);
5. ``typo``: the descriptive analyzer reads it only as a misspelling (every analysis carries
   an ``Err/`` tag, e.g. ``Err/Orth``);
6. ``name``: it is capitalised where it is not the first word of a sentence (at least once);
7. ``typo``: it is a word the strict analyzer accepted in the same texts written with other
   diacritics (``asiskawihkan`` for ``asiskawîhkan``; case ignored), or
8. ``typo``: it is one edit (insertion, deletion or substitution of one letter, case
   ignored) from such a word;
9. ``unknown`` otherwise.

Each word carries the rule that decided its kind (``GapWord.rule``, :data:`RULES`) and its
explanation (``GapWord.reason``).

**Exports** (GiellaLT forms, for the analyzer's maintainers): a *missing-words list* (one word
a line preceded by its count, as ``sort | uniq -c | sort -nr`` writes it, most frequent first)
and *morph-test YAML* (``Config: {hfst: {Gen, Morph}}``, ``Tests: {section: {analysis: [forms]}}``)
with the words speakers confirmed, under the descriptive analyzer's analyses (without ``Err/``
tags) where it has some; confirmed words without an analysis are listed as comments.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from mteval_gui.validation.audits import Proportion, WordAnswer, word_verdict

KINDS = ("loanword", "name", "dialectal", "typo", "unknown")
SPEAKER_KINDS = {"Loanword": "loanword", "Name": "name", "Dialectal": "dialectal"}
MAX_EXAMPLES = 3


@dataclass(frozen=True)
class Occurrence:
    """One rejected word where it was written: a reference (``run_id`` None) or a run's output."""

    word: str
    corpus_id: str
    entry_id: str
    run_id: str | None
    text: str
    initial: bool  # the first word of its text

    @property
    def side(self) -> str:
        return "reference" if self.run_id is None else "output"


@dataclass
class Verdicts:
    """The speakers' Task C answers on one word: judged occurrences by verdict, kinds of Yes answers."""

    valid: int = 0
    invalid: int = 0
    unresolved: int = 0
    kinds: Counter = field(default_factory=Counter)
    raters: set = field(default_factory=set)

    @property
    def judged(self) -> int:
        return self.valid + self.invalid + self.unresolved

    @property
    def confirmed(self) -> bool:
        """Speakers say it is a word: more occurrences judged valid than invalid."""
        return self.valid > self.invalid

    @property
    def kind(self) -> str | None:
        """The speakers' most frequent kind (ties: alphabetical), None without one."""
        if not self.kinds:
            return None
        best = max(self.kinds.values())
        return sorted(k for k, v in self.kinds.items() if v == best)[0]

    def to_json(self) -> dict[str, object]:
        return {"valid": self.valid, "invalid": self.invalid, "unresolved": self.unresolved,
                "kind": self.kind, "raters": len(self.raters)}


@dataclass
class GapWord:
    word: str
    references: int
    outputs: int
    descriptive: tuple[str, ...]
    verdicts: Verdicts
    kind: str
    rule: str  # a key of RULES: what decided the kind
    detail: str | None
    examples: list[Occurrence]

    @property
    def reason(self) -> str:
        """Why the word has its kind, in English (:data:`RULES`)."""
        return RULES[self.rule].format(self.detail)

    @property
    def count(self) -> int:
        return self.references + self.outputs

    def to_json(self) -> dict[str, object]:
        return {"word": self.word, "count": self.count, "references": self.references, "outputs": self.outputs,
                "descriptive": list(self.descriptive), "speakers": self.verdicts.to_json(), "kind": self.kind,
                "rule": self.rule, "reason": self.reason,
                "examples": [{"corpus_id": o.corpus_id, "entry_id": o.entry_id, "run_id": o.run_id, "side": o.side,
                              "text": o.text} for o in self.examples]}


def speaker_verdicts(answers: Iterable[WordAnswer]) -> dict[str, Verdicts]:
    """``{word: Verdicts}`` from Task C answers (one verdict per judged occurrence, as the FST audit)."""
    by_occ: dict[object, list[WordAnswer]] = defaultdict(list)
    for a in answers:
        if a.valid is not None:
            by_occ[a.occurrence].append(a)
    out: dict[str, Verdicts] = {}
    for items in by_occ.values():
        v = out.setdefault(items[0].word, Verdicts())
        verdict = word_verdict(a.valid for a in items)
        setattr(v, verdict, getattr(v, verdict) + 1)
        for a in items:
            if a.valid == "Yes":
                v.raters.add(a.rater)
                if a.kind:
                    v.kinds[a.kind] += 1
    return out


def _tags(analysis: str) -> list[str]:
    return analysis.split("+")[1:]


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by exactly one inserted, deleted or substituted character."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return short in _deletions(long_)


def bare(word: str) -> str:
    """``word`` case-folded without its diacritics (``êwâkw`` -> ``ewakw``)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


class NearWords:
    """The accepted words, indexed by their one-letter deletions and their bare forms, to find
    a word's neighbours: the same letters with other diacritics, or one edit away."""

    def __init__(self, words: Iterable[str]):
        self._index: dict[str, set[str]] = defaultdict(set)
        self._bare: dict[str, set[str]] = defaultdict(set)
        for w in {w.casefold() for w in words}:
            self._index[w].add(w)
            self._bare[bare(w)].add(w)
            for d in _deletions(w):
                self._index[d].add(w)

    def respelt(self, word: str) -> str | None:
        """An accepted word that differs from ``word`` only in diacritics (and case), or None."""
        w = word.casefold()
        found = sorted(c for c in self._bare.get(bare(w), ()) if c != w)
        return found[0] if found else None

    def neighbour(self, word: str) -> str | None:
        """An accepted word one edit from ``word`` (case ignored; the first alphabetically), or None."""
        w = word.casefold()
        found: set[str] = set()
        for key in {w} | _deletions(w):
            found |= self._index.get(key, set())
        near = sorted(c for c in found if one_edit(w, c))
        return near[0] if near else None


# the rule that decided a word's kind -> its explanation ({0}: the speakers' kind, the tag or the near word)
RULES = {
    "speakers": "speakers: {0}",
    "loanword_list": "the language card's loanword list",
    "proper_noun": "descriptive analyzer: proper noun (+Prop)",
    "dialect_tag": "descriptive analyzer: +{0}",
    "error_tag": "descriptive analyzer: +{0}",
    "capitalised": "capitalised inside a sentence",
    "diacritics": "the accepted word {0} with other diacritics",
    "one_edit": "one edit from the accepted word {0}",
    "none": "no rule applies",
}


def classify(word: str, occurrences: Sequence[Occurrence], descriptive: Sequence[str], verdicts: Verdicts,
             loanwords: Iterable[str], near: NearWords) -> tuple[str, str, str | None]:
    """(kind, rule, detail) of a rejected word: the rules of the module docstring, in order
    (``rule`` a key of :data:`RULES`; ``detail`` the speakers' kind, the tag or the near word)."""
    if verdicts.confirmed and verdicts.kind in SPEAKER_KINDS:
        return SPEAKER_KINDS[verdicts.kind], "speakers", verdicts.kind
    if word.casefold() in {w.casefold() for w in loanwords}:
        return "loanword", "loanword_list", None
    tag_lists = [_tags(a) for a in descriptive]
    if any("Prop" in tags for tags in tag_lists):
        return "name", "proper_noun", None
    dial = sorted({t for tags in tag_lists for t in tags if t.startswith(("Dial", "Err/Dial"))})
    if dial:
        return "dialectal", "dialect_tag", dial[0]
    if tag_lists and all(any(t.startswith("Err/") for t in tags) for tags in tag_lists):
        err = sorted({t for tags in tag_lists for t in tags if t.startswith("Err/")})
        return "typo", "error_tag", err[0]
    if word[:1].isupper() and any(not o.initial for o in occurrences):
        return "name", "capitalised", None
    respelt = near.respelt(word)
    if respelt is not None:
        return "typo", "diacritics", respelt
    neighbour = near.neighbour(word)
    if neighbour is not None:
        return "typo", "one_edit", neighbour
    return "unknown", "none", None


def gap_report(occurrences: Iterable[Occurrence], descriptive: Mapping[str, Sequence[str]],
               verdicts: Mapping[str, Verdicts], *, loanwords: Iterable[str] = (),
               accepted: Iterable[str] = (), max_examples: int = MAX_EXAMPLES) -> list[GapWord]:
    """The rejected words ranked by occurrences (then alphabetically), each classified, with examples.

    ``descriptive``: the descriptive analyzer's analyses per word (absent or empty: none);
    ``verdicts``: :func:`speaker_verdicts`; ``accepted``: words the strict analyzer accepted in
    the same texts (for the one-edit rule)."""
    by_word: dict[str, list[Occurrence]] = defaultdict(list)
    for o in occurrences:
        by_word[o.word].append(o)
    near = NearWords(accepted)
    loans = list(loanwords)
    out = []
    for word, occs in by_word.items():
        v = verdicts.get(word) or Verdicts()
        desc = tuple(descriptive.get(word) or ())
        kind, rule, detail = classify(word, occs, desc, v, loans, near)
        examples: list[Occurrence] = []
        seen_texts: set[str] = set()
        for o in sorted(occs, key=lambda o: (o.run_id is not None, o.run_id or "", o.corpus_id, o.entry_id)):
            if o.text not in seen_texts and len(examples) < max_examples:
                seen_texts.add(o.text)
                examples.append(o)
        refs = sum(1 for o in occs if o.run_id is None)
        out.append(GapWord(word, refs, len(occs) - refs, desc, v, kind, rule, detail, examples))
    out.sort(key=lambda g: (-g.count, g.word))
    return out


# --------------------------------------------------------------------------- before / after


@dataclass(frozen=True)
class RateComparison:
    """The false-rejection rate over the same judged occurrences with two analyzers.

    ``old``/``new``: valid occurrences among the judged occurrences that analyzer rejects (the
    Task C false-rejection rate, with Wilson intervals); ``fixed``: valid occurrences the new
    analyzer accepts; ``newly_accepted_invalid``: occurrences speakers judged invalid that it
    accepts."""

    old: Proportion
    new: Proportion
    fixed: int
    newly_accepted_invalid: int

    def to_json(self) -> dict[str, object]:
        return {"old": self.old.to_json(), "new": self.new.to_json(), "fixed": self.fixed,
                "newly_accepted_invalid": self.newly_accepted_invalid}


def compare_rates(judged: Iterable[tuple[str, str]], old_accepts: Mapping[str, bool],
                  new_accepts: Mapping[str, bool], confidence: float = 0.95) -> RateComparison:
    """``judged``: (word, verdict) per judged occurrence (``valid``/``invalid``/``unresolved``);
    ``old_accepts``/``new_accepts``: whether each analyzer accepts each word."""
    counts: dict[str, Counter[str]] = {"old": Counter(), "new": Counter()}
    fixed = bad = 0
    for word, verdict in judged:
        if verdict not in ("valid", "invalid"):
            continue
        for side, accepts in (("old", old_accepts), ("new", new_accepts)):
            if not accepts.get(word, False):
                counts[side][verdict] += 1
        if not old_accepts.get(word, False) and new_accepts.get(word, False):
            if verdict == "valid":
                fixed += 1
            else:
                bad += 1
    old, new = (Proportion.of(c["valid"], c["valid"] + c["invalid"], confidence) for c in counts.values())
    return RateComparison(old, new, fixed, bad)


# --------------------------------------------------------------------------- GiellaLT exports

_YAML_WORDS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "y", "n", "~"})
_NUMBER = re.compile(r"^[-+]?(\.?[0-9]|\.(inf|nan)\b)", re.IGNORECASE)
_PLAIN = re.compile(r"^[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#\[\]{},]*$")


def yaml_scalar(s: str) -> str:
    """``s`` as a YAML scalar: plain when that reads back as the same string, else double-quoted."""
    if _PLAIN.match(s) and s.isprintable() and s == s.strip() and s.lower() not in _YAML_WORDS and not _NUMBER.match(s):
        return s
    return json.dumps(s, ensure_ascii=False)


def missing_list(words: Sequence[GapWord], *, exclude: Iterable[str] = ("typo",)) -> str:
    """The GiellaLT missing-words list: ``count word`` lines, most frequent first (``uniq -c`` layout)."""
    skip = set(exclude)
    return "".join(f"{g.count:7d} {g.word}\n" for g in words if g.kind not in skip)


def clean_analyses(analyses: Sequence[str]) -> list[str]:
    """The analyses without ``Err/`` tags (an analysis of a misspelling is no test of the norm)."""
    return [a for a in analyses if not any(t.startswith("Err/") for t in _tags(a))]


def morph_test_yaml(words: Sequence[GapWord], *, section: str, gen: str = "../../../src/generator-gt-norm.hfst",
                    morph: str = "../../../src/analyser-gt-norm.hfst", header: Sequence[str] = ()) -> str:
    """Morph-test YAML (GiellaLT layout) for the confirmed words: ``analysis: [form, …]`` under one section."""
    tests: dict[str, list[str]] = {}
    unanalysed: list[GapWord] = []
    for g in words:
        if not g.verdicts.confirmed:
            continue
        analyses = clean_analyses(g.descriptive)
        if not analyses:
            unanalysed.append(g)
        for a in analyses:
            forms = tests.setdefault(a, [])
            if g.word not in forms:
                forms.append(g.word)
    lines = [f"# {h}" for h in header]
    lines += ["Config:", "  hfst:", f"    Gen: {yaml_scalar(gen)}", f"    Morph: {yaml_scalar(morph)}", "",
              "Tests:", f"  {yaml_scalar(section)}:"]
    if not tests:
        lines[-1] += " {}"
    for analysis, forms in tests.items():
        lines.append(f"    {yaml_scalar(analysis)}: [{', '.join(yaml_scalar(f) for f in forms)}]")
    for g in unanalysed:
        lines.append(f"    # {g.word}: confirmed by {len(g.verdicts.raters)} speaker(s), no analysis known")
    return "\n".join(lines) + "\n"
