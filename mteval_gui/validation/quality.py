"""Reviewer quality control from plain data: attention checks, repeated items, agreement with the others.

**Attention checks** are known-bad items inserted among a reviewer's real items: the output of
a real item, perturbed so that its meaning is lost (:func:`perturb`):

- ``shuffled``: the output's words in another order (seeded; outputs of 4 words or more);
- ``wrong_sentence``: the output of another entry of the same run (a wrong-sentence output);
- ``truncated``: the first half of the output's words (outputs of 4 words or more).

The reviewer sees the check as one more item; only the workspace knows which item is a check
and which real item it perturbs. A check's rating is recorded as a judgment of task ``check``
(never task A), so it never counts as a rating of the real entry.

A check is **decisive** when the reviewer also rated the real item and gave it adequacy 2 or
more (an item rated 1 cannot be rated lower); it is **failed** when the check's adequacy is
greater than or equal to the real item's (the known-bad output is rated at least as well as
the real one).

**Repeated items** show a real item a second time, later in the pack; the repeat's rating is
a task ``check`` judgment too. Self-consistency is the mean absolute difference, in scale
points, between the repeat's and the real item's ratings (adequacy and fluency, each rated
pair counts).

**Agreement with the others** is Kendall's τ-b between the reviewer's adequacy ratings and
the mean adequacy of the other reviewers on the items they share.

A reviewer is **flagged** (left out of sign-off evidence and calibration, with the reason)
when any of these rules holds (:data:`RULES`):

- inattentive: :data:`MAX_FAILED_CHECKS` + 1 or more failed attention checks (more than 1
  failed), and more than :data:`MAX_FAILED_SHARE` of the decisive ones;
- inconsistent: :data:`MIN_REPEATS` or more repeats with a mean absolute difference above
  :data:`MAX_REPEAT_DIFFERENCE` scale points;
- disagreeing: :data:`MIN_SHARED_ITEMS` or more shared items with τ-b below
  :data:`MIN_AGREEMENT`.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

CHECK_KINDS = ("shuffled", "wrong_sentence", "truncated")
MIN_WORDS = 4  # shuffled and truncated checks need outputs of at least this many words
MAX_FAILED_CHECKS = 1  # more failed attention checks than this (and ...)
MAX_FAILED_SHARE = 0.2  # ... more than this share of the decisive ones) flags the reviewer
MIN_REPEATS = 2
MAX_REPEAT_DIFFERENCE = 1.0
MIN_SHARED_ITEMS = 10
MIN_AGREEMENT = 0.1
RULES = (
    f"fails more than {MAX_FAILED_CHECKS} attention check and more than {MAX_FAILED_SHARE:.0%} of the decisive "
    "ones (a check fails when the known-bad item's adequacy is at least the real item's)",
    f"rates {MIN_REPEATS} or more repeated items more than {MAX_REPEAT_DIFFERENCE:g} scale point apart from "
    "the first time on average",
    f"on {MIN_SHARED_ITEMS} or more items shared with other reviewers, Kendall's τ-b with their mean adequacy "
    f"is below {MIN_AGREEMENT:g}",
)


def _words(text: str) -> list[str]:
    return text.split()


def perturb(kind: str, output: str, *, other: str | None = None, seed: str | int = 0) -> str | None:
    """The known-bad text of an attention check of ``kind`` made from ``output`` (None when it cannot be made).

    ``other`` is another entry's output of the same run (``wrong_sentence``).
    """
    words = _words(output)
    if kind == "shuffled":
        if len(words) < MIN_WORDS or len(set(words)) < 2:
            return None
        rng = random.Random(f"shuffle\x1f{seed}")
        shuffled = list(words)
        for _ in range(20):
            rng.shuffle(shuffled)
            if shuffled != words:
                return " ".join(shuffled)
        return None
    if kind == "truncated":
        if len(words) < MIN_WORDS:
            return None
        return " ".join(words[: len(words) // 2])
    if kind == "wrong_sentence":
        if other is None or not other.strip() or other.strip() == output.strip():
            return None
        return other
    raise ValueError(f"unknown attention check {kind!r} (one of {', '.join(CHECK_KINDS)})")


@dataclass(frozen=True)
class CheckAnswer:
    """A reviewer's rating of a check item (``check``: "attention" or "repeat") and of the real item."""

    reviewer: str
    check: str
    kind: str | None  # the attention check's perturbation
    item: tuple[str, str]  # the real (run_id, entry_id)
    adequacy: int | None
    fluency: int | None
    real_adequacy: int | None
    real_fluency: int | None

    @property
    def decisive(self) -> bool:
        return (self.check == "attention" and self.adequacy is not None and self.real_adequacy is not None
                and self.real_adequacy >= 2)

    @property
    def failed(self) -> bool:
        return self.decisive and self.adequacy is not None and self.real_adequacy is not None \
            and self.adequacy >= self.real_adequacy

    def differences(self) -> list[int]:
        return [abs(a - b) for a, b in ((self.adequacy, self.real_adequacy), (self.fluency, self.real_fluency))
                if a is not None and b is not None]


@dataclass
class ReviewerQuality:
    """One reviewer's quality-control record and whether it flags them."""

    reviewer: str
    checks: int = 0  # attention checks answered
    decisive: int = 0
    failed: int = 0
    repeats: int = 0  # repeated items answered with a comparable rating
    repeat_difference: float | None = None  # mean absolute difference, scale points
    shared_items: int = 0
    agreement: float | None = None  # τ-b with the others' mean adequacy
    reasons: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)

    def to_json(self) -> dict[str, Any]:
        return {"reviewer": self.reviewer, "attention_checks": self.checks, "decisive_checks": self.decisive,
                "failed_checks": self.failed, "repeats": self.repeats, "repeat_difference": self.repeat_difference,
                "shared_items": self.shared_items, "agreement": self.agreement, "flagged": self.flagged,
                "reasons": list(self.reasons)}


def tau_b_table(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's τ-b from the contingency table of the distinct values (ratings take few values: linear in the
    items, where the pairwise form is quadratic); None when undefined (fewer than 2 items or a constant side)."""
    if len(x) < 2:
        return None
    xs, xi = np.unique(np.asarray(x, dtype=float), return_inverse=True)
    ys, yi = np.unique(np.asarray(y, dtype=float), return_inverse=True)
    t = np.zeros((len(xs), len(ys)))
    np.add.at(t, (xi, yi), 1.0)
    after = t[::-1, ::-1].cumsum(0).cumsum(1)[::-1, ::-1]  # Σ t[k, l] for k >= i, l >= j
    concordant_with = np.zeros_like(t)
    concordant_with[:-1, :-1] = after[1:, 1:]
    before = t[::-1, :].cumsum(0)[::-1, :].cumsum(1)  # Σ t[k, l] for k >= i, l <= j
    discordant_with = np.zeros_like(t)
    discordant_with[:-1, 1:] = before[1:, :-1]
    n = float(len(x))
    pairs = n * (n - 1) / 2
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    den = (pairs - float((rows * (rows - 1) / 2).sum())) * (pairs - float((cols * (cols - 1) / 2).sum()))
    if den <= 0:
        return None
    tau = float((t * concordant_with).sum() - (t * discordant_with).sum()) / float(np.sqrt(den))
    return max(-1.0, min(1.0, tau))


def _flag(q: ReviewerQuality) -> None:
    if q.failed > MAX_FAILED_CHECKS and q.decisive and q.failed / q.decisive > MAX_FAILED_SHARE:
        q.reasons.append(f"inattentive: rated the known-bad item at least as high as the real one in {q.failed} of "
                         f"{q.decisive} attention checks (flagged above {MAX_FAILED_CHECKS} failed and above "
                         f"{MAX_FAILED_SHARE:.0%} of them)")
    if q.repeats >= MIN_REPEATS and q.repeat_difference is not None and q.repeat_difference > MAX_REPEAT_DIFFERENCE:
        q.reasons.append(f"inconsistent: {q.repeats} repeated items rated {q.repeat_difference:.2f} scale points "
                         f"apart on average (more than {MAX_REPEAT_DIFFERENCE:g})")
    if q.shared_items >= MIN_SHARED_ITEMS and q.agreement is not None and q.agreement < MIN_AGREEMENT:
        q.reasons.append(f"disagrees with the others: Kendall's τ-b {q.agreement:.3f} with their mean adequacy on "
                         f"{q.shared_items} shared items (below {MIN_AGREEMENT:g})")


def reviewer_quality(answers: Iterable[CheckAnswer],
                     adequacy: Mapping[tuple[str, str], Mapping[str, float]]) -> dict[str, ReviewerQuality]:
    """Each reviewer's record, from their check answers and everyone's adequacy ratings
    (``{item: {reviewer: adequacy}}``, task A only), flagged by :data:`RULES`."""
    out: dict[str, ReviewerQuality] = {}
    diffs: dict[str, list[int]] = defaultdict(list)
    for a in answers:
        q = out.setdefault(a.reviewer, ReviewerQuality(a.reviewer))
        if a.check == "attention":
            q.checks += 1
            q.decisive += int(a.decisive)
            q.failed += int(a.failed)
        elif a.check == "repeat":
            d = a.differences()
            if d:
                q.repeats += 1
                diffs[a.reviewer] += d
    for reviewer, d in diffs.items():
        out[reviewer].repeat_difference = round(sum(d) / len(d), 4)
    mine: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for _, per in sorted(adequacy.items()):
        if len(per) < 2:
            continue
        for reviewer, value in per.items():
            others = [v for r, v in per.items() if r != reviewer]
            xs, ys = mine[reviewer]
            xs.append(float(value))
            ys.append(sum(others) / len(others))
    for reviewer, (xs, ys) in mine.items():
        q = out.setdefault(reviewer, ReviewerQuality(reviewer))
        q.shared_items = len(xs)
        tau = tau_b_table(xs, ys)
        q.agreement = None if tau is None else round(tau, 4)
    for reviewer in {r for per in adequacy.values() for r in per}:
        out.setdefault(reviewer, ReviewerQuality(reviewer))
    for q in out.values():
        _flag(q)
    return dict(sorted(out.items()))


def flagged(quality: Mapping[str, ReviewerQuality]) -> dict[str, str]:
    """``{reviewer: reason}`` of the flagged reviewers."""
    return {r: q.reason for r, q in quality.items() if q.flagged}


def interleave(n_real: int, bases: Sequence[int], seed: str | int, gap: int = 3) -> list[tuple[bool, int]]:
    """The order of a queue with checks: ``(is_check, index)`` over ``n_real`` real items and one check per
    entry of ``bases`` (the index of the real item it is made from), each check placed at a seeded position
    after its real item (``gap`` items later or more when the queue allows)."""
    rng = random.Random(f"place\x1f{seed}")
    slots: dict[int, list[int]] = defaultdict(list)
    for k, base in enumerate(bases):
        lo = min(base + gap, n_real)
        slots[rng.randint(lo, n_real)].append(k)
    out: list[tuple[bool, int]] = []
    for i in range(n_real + 1):
        out += [(True, k) for k in slots.get(i, [])]
        if i < n_real:
            out.append((False, i))
    return out


def sample_checks(n_items: int, n: int, seed: str | int) -> list[int]:
    """Indexes of ``n`` of ``n_items`` items (seeded) to base checks on."""
    idx = list(range(n_items))
    random.Random(f"checks\x1f{seed}").shuffle(idx)
    return sorted(idx[:n])
