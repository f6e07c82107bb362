"""Review campaigns: which speaker rates which output, planned before anyone starts.

A campaign names the runs whose outputs are rated (task A), the entries chosen (by a stated
rule, fixed when the campaign is made), its reviewers and an overlap ``k``: every entry is
rated by ``k`` reviewers. :func:`assign` deals the entries out: entry ``i`` goes to reviewers
``i, i+1, …, i+k-1`` (modulo the number of reviewers), so every reviewer gets ⌈n·k/m⌉ or
⌊n·k/m⌋ entries and every pair of reviewers shares entries as evenly as the numbers allow.
A reviewer's queue is their entries × the campaign's runs, entry after entry.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field, model_validator

SELECT_RULES = ("first", "random", "stratified", "informative")


class Campaign(BaseModel):
    campaign_id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
    run_ids: list[str] = Field(min_length=1)
    entry_ids: list[str] = Field(min_length=1, description="the chosen entries, in queue order")
    reviewers: list[str] = Field(min_length=1)
    overlap: int = Field(ge=1, description="how many reviewers rate each entry")
    select: str = "first"
    seed: int = 0
    created_at: str = ""
    created_by: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Campaign:
        if self.overlap > len(self.reviewers):
            raise ValueError(f"overlap {self.overlap} needs at least {self.overlap} reviewers, "
                             f"the campaign has {len(self.reviewers)}")
        for name, values in (("runs", self.run_ids), ("entries", self.entry_ids), ("reviewers", self.reviewers)):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ValueError(f"{name} listed twice: {', '.join(twice)}")
        if self.select not in SELECT_RULES:
            raise ValueError(f"select {self.select!r} is not one of {', '.join(SELECT_RULES)}")
        return self

    def assignment(self) -> dict[str, list[str]]:
        return assign(self.entry_ids, self.reviewers, self.overlap)

    def queue(self, reviewer_id: str) -> list[tuple[str, str]]:
        """The (run, entry) items of one reviewer, entry after entry, runs in the campaign's order."""
        entries = self.assignment().get(reviewer_id, [])
        return [(run_id, entry_id) for entry_id in entries for run_id in self.run_ids]


def assign(entry_ids: Sequence[str], reviewers: Sequence[str], overlap: int) -> dict[str, list[str]]:
    """Each reviewer's entries (in the given order): entry ``i`` to reviewers ``i … i+overlap-1`` mod m."""
    m = len(reviewers)
    if not 1 <= overlap <= m:
        raise ValueError(f"overlap must be between 1 and the number of reviewers ({m})")
    out: dict[str, list[str]] = {r: [] for r in reviewers}
    for i, entry_id in enumerate(entry_ids):
        for j in range(overlap):
            out[reviewers[(i + j) % m]].append(entry_id)
    return out
