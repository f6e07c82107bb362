"""Speaker audits of the language tools (SPEC §9, tasks B and C).

**Linter audit (Task B).** Speakers see pairs the linter called EQUIVALENT (reference or variant
vs output) and answer "same meaning?" (Yes / No / Depends) and "both natural?" (Yes / A better /
B better / Neither). The unit is the pair (one linter decision): a pair is *confirmed* when
more than half of its answers are Yes, *refuted* when more than half are No, and undecided
otherwise. Per variant class that fired on the pair: strict precision = confirmed / pairs,
lenient precision = (pairs not refuted) / pairs, each with a Wilson interval.

**FST audit (Task C).** Speakers see words the analyzer rejected, in context, and answer
"valid word?" (Yes / No / Unsure) and its kind. The unit is the word occurrence (run, entry,
word): *valid* when Yes answers outnumber No answers, *invalid* when No outnumber Yes,
unresolved on a tie or Unsure only. FST false-rejection rate = valid / (valid + invalid) with a
Wilson interval. Valid words are the analyzer's gaps: exportable as an allowlist and as test
cases for the analyzer's maintainers.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from statistics import NormalDist

UNCLASSIFIED = "(unclassified)"
ALL_CLASSES = "(all)"


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float | None, float | None]:
    """Wilson score interval for a binomial proportion; (None, None) when n = 0."""
    if n <= 0:
        return None, None
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    z = NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    denom = 1 + z2 / n
    lower = 0.0 if successes == 0 else max(0.0, (centre - margin) / denom)
    upper = 1.0 if successes == n else min(1.0, (centre + margin) / denom)
    return lower, upper


@dataclass(frozen=True)
class Proportion:
    successes: int
    n: int
    value: float | None
    ci_lower: float | None
    ci_upper: float | None

    @classmethod
    def of(cls, successes: int, n: int, confidence: float = 0.95) -> Proportion:
        lo, hi = wilson_interval(successes, n, confidence)
        return cls(successes, n, successes / n if n else None, lo, hi)

    def to_json(self) -> dict[str, object]:
        return {"successes": self.successes, "n": self.n, "value": self.value,
                "ci_lower": self.ci_lower, "ci_upper": self.ci_upper}


# --------------------------------------------------------------------------- Task B


@dataclass(frozen=True)
class LinterAnswer:
    """One speaker's answer on one linter EQUIVALENT pair."""

    pair: Hashable                # e.g. (run_id, entry_id)
    rater: str
    classes: tuple[str, ...]      # variant classes the linter reported for the pair
    same_meaning: str | None      # Yes / No / Depends
    natural: str | None = None    # Yes / A better / B better / Neither


@dataclass
class ClassPrecision:
    variant_class: str
    pairs: int
    answers: int
    confirmed: int
    refuted: int
    undecided: int
    strict: Proportion
    lenient: Proportion
    natural: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "class": self.variant_class, "pairs": self.pairs, "answers": self.answers,
            "confirmed": self.confirmed, "refuted": self.refuted, "undecided": self.undecided,
            "precision": self.strict.to_json(), "precision_lenient": self.lenient.to_json(),
            "natural": dict(self.natural),
        }


def pair_verdict(answers: Iterable[str | None]) -> str:
    """confirmed / refuted / undecided from one pair's same-meaning answers."""
    given = [a for a in answers if a is not None]
    if not given:
        return "undecided"
    c = Counter(given)
    if c["Yes"] * 2 > len(given):
        return "confirmed"
    if c["No"] * 2 > len(given):
        return "refuted"
    return "undecided"


def linter_precision(answers: Iterable[LinterAnswer], confidence: float = 0.95) -> list[ClassPrecision]:
    """Per-class linter precision, classes sorted by name, then the row for all pairs."""
    by_pair: dict[Hashable, list[LinterAnswer]] = defaultdict(list)
    for a in answers:
        if a.same_meaning is not None or a.natural is not None:
            by_pair[a.pair].append(a)
    per_class: dict[str, list[tuple[str, list[LinterAnswer]]]] = defaultdict(list)
    for items in by_pair.values():
        verdict = pair_verdict(a.same_meaning for a in items)
        classes = sorted({c for a in items for c in a.classes}) or [UNCLASSIFIED]
        for cls in classes:
            per_class[cls].append((verdict, items))
        per_class[ALL_CLASSES].append((verdict, items))
    rows = []
    for cls in sorted(k for k in per_class if k != ALL_CLASSES) + ([ALL_CLASSES] if per_class else []):
        entries = per_class[cls]
        verdicts = Counter(v for v, _ in entries)
        n = len(entries)
        natural = Counter(a.natural for _, items in entries for a in items if a.natural is not None)
        rows.append(ClassPrecision(
            variant_class=cls, pairs=n, answers=sum(len(items) for _, items in entries),
            confirmed=verdicts["confirmed"], refuted=verdicts["refuted"], undecided=verdicts["undecided"],
            strict=Proportion.of(verdicts["confirmed"], n, confidence),
            lenient=Proportion.of(n - verdicts["refuted"], n, confidence),
            natural=dict(sorted(natural.items())),
        ))
    return rows


# --------------------------------------------------------------------------- Task C


@dataclass(frozen=True)
class WordAnswer:
    """One speaker's answer on one word the analyzer rejected."""

    occurrence: Hashable          # e.g. (run_id, entry_id, word)
    word: str
    rater: str
    valid: str | None             # Yes / No / Unsure
    kind: str | None = None       # Established / Loanword / Name / Dialectal / Neologism / Other


@dataclass
class FstAudit:
    occurrences: int
    valid: int
    invalid: int
    unresolved: int
    false_rejection: Proportion
    by_kind: dict[str, int]
    allowlist: list[dict[str, object]]

    def to_json(self) -> dict[str, object]:
        return {
            "occurrences": self.occurrences, "valid": self.valid, "invalid": self.invalid,
            "unresolved": self.unresolved, "false_rejection_rate": self.false_rejection.to_json(),
            "by_kind": dict(self.by_kind), "allowlist": list(self.allowlist),
        }


def word_verdict(answers: Iterable[str | None]) -> str:
    c = Counter(a for a in answers if a is not None)
    if c["Yes"] > c["No"]:
        return "valid"
    if c["No"] > c["Yes"]:
        return "invalid"
    return "unresolved"


def _modal_kind(kinds: list[str]) -> str:
    if not kinds:
        return "Other"
    counts = Counter(kinds)
    best = max(counts.values())
    return sorted(k for k, v in counts.items() if v == best)[0]


@dataclass
class _WordTally:
    kinds: Counter = field(default_factory=Counter)
    occurrences: int = 0
    raters: set = field(default_factory=set)
    examples: list = field(default_factory=list)


def fst_audit(answers: Iterable[WordAnswer], confidence: float = 0.95) -> FstAudit:
    """False-rejection rate of the analyzer and the allowlist of words speakers accept.

    Allowlist rows: ``word``, ``kind`` (modal kind), ``occurrences`` judged valid, ``raters``
    who said Yes, ``example`` (the first valid occurrence key).
    """
    by_occ: dict[Hashable, list[WordAnswer]] = defaultdict(list)
    for a in answers:
        if a.valid is not None:
            by_occ[a.occurrence].append(a)
    verdicts: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    tallies: dict[str, _WordTally] = {}
    for occ, items in by_occ.items():
        verdict = word_verdict(a.valid for a in items)
        verdicts[verdict] += 1
        if verdict != "valid":
            continue
        kind = _modal_kind([a.kind for a in items if a.valid == "Yes" and a.kind])
        by_kind[kind] += 1
        tally = tallies.setdefault(items[0].word, _WordTally())
        tally.kinds[kind] += 1
        tally.occurrences += 1
        tally.raters.update(a.rater for a in items if a.valid == "Yes")
        tally.examples.append(occ)
    allowlist: list[dict[str, object]] = [
        {"word": word, "kind": _modal_kind(list(t.kinds.elements())), "occurrences": t.occurrences,
         "raters": len(t.raters), "example": t.examples[0]}
        for word, t in sorted(tallies.items())
    ]
    decided = verdicts["valid"] + verdicts["invalid"]
    return FstAudit(
        occurrences=len(by_occ), valid=verdicts["valid"], invalid=verdicts["invalid"],
        unresolved=verdicts["unresolved"], false_rejection=Proportion.of(verdicts["valid"], decided, confidence),
        by_kind=dict(sorted(by_kind.items())), allowlist=allowlist,
    )
