"""What confirming a quality tier needs: the sign-off rule table (LYSS §5).

A tier is a heuristic label on automatic scores; only speakers can confirm that the output is
usable. Confirming a tier therefore needs task A ratings (1-5 adequacy and fluency, SPEC §9)
that *support* it, not merely a number of them:

- the ratings count only when the reviewer's record lists the run's target language (a
  speaker); ratings by other reviewers are ignored for every tier;
- at least ``min(min_entries, entries of the run)`` entries each rated by ``min_speakers`` or
  more speakers;
- the median of the speakers' adequacy ratings and the median of their fluency ratings (every
  rating of the run by a speaker, pooled) at or above the tier's levels;
- Krippendorff's α (ordinal) of adequacy and of fluency at least ``min_alpha``. α is not
  computable when no entry has two ratings or when every rating is the same value: then the
  ratings cannot show that speakers agree, and the tier is not confirmed (the refusal says so);
- the reviewer who confirms lists the target language and has rated entries of the run (the
  sign-off is a speaker's statement about output they read).

The levels follow the LYSS §5 descriptions on the scales' labels: *fluent* "errors are rare and
minor" = adequacy Most and fluency Good (4); *deployable* "draft translation with human review"
= Much / Non-native (3); *functional* "recognisable to a speaker" = Little / Disfluent (2);
*emerging* and *baseline* claim nothing about the output beyond what speakers saw (1). The α
threshold 0.667 is Krippendorff's lowest limit for tentative conclusions (2004, §11.3).

Rejecting a tier needs no ratings. ``unscored`` has no rule: there is nothing to confirm.
This table is the single source: the application layer applies it, the command line prints it
(``mteval signoff --help``), the GUI shows it on the sign-off controls, the README repeats it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mteval_gui.domain.judgments import ADEQUACY_LABELS, FLUENCY_LABELS


@dataclass(frozen=True)
class SignoffRule:
    """What confirming one tier needs (see the module docstring)."""

    tier: str
    min_adequacy: float  # median of the speakers' adequacy ratings, 1-5
    min_fluency: float  # median of the speakers' fluency ratings, 1-5
    min_entries: int  # entries rated by min_speakers speakers or more (at most the run's size)
    min_speakers: int
    min_alpha: float  # Krippendorff's α (ordinal) of adequacy and of fluency

    def required_entries(self, entries: int) -> int:
        """Entries that must be rated, for a run of ``entries`` entries."""
        return max(1, min(self.min_entries, entries))


ALPHA_MIN = 0.667

SIGNOFF_RULES: dict[str, SignoffRule] = {r.tier: r for r in (
    SignoffRule("fluent", 4, 4, 30, 2, ALPHA_MIN),
    SignoffRule("deployable", 3, 3, 30, 2, ALPHA_MIN),
    SignoffRule("functional", 2, 2, 20, 2, ALPHA_MIN),
    SignoffRule("emerging", 1, 1, 20, 2, ALPHA_MIN),
    SignoffRule("baseline", 1, 1, 20, 2, ALPHA_MIN),
)}


def level(value: float) -> str:
    """A median or threshold as shown in messages: ``4``, ``3.5``."""
    return f"{value:g}"


def rules_table() -> str:
    """The rule table as plain text (command-line help, README)."""
    head = ("tier", "median adequacy", "median fluency", "rated entries", "speakers per entry", "α")
    rows = [head] + [(r.tier, f"≥ {level(r.min_adequacy)} ({ADEQUACY_LABELS[int(r.min_adequacy)]})",
                      f"≥ {level(r.min_fluency)} ({FLUENCY_LABELS[int(r.min_fluency)]})",
                      f"min({r.min_entries}, entries)", f"≥ {r.min_speakers}", f"≥ {r.min_alpha}")
                     for r in SIGNOFF_RULES.values()]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)
