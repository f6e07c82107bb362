"""Reviewers and their judgments (SPEC §9)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ADEQUACY_LABELS = {1: "None", 2: "Little", 3: "Much", 4: "Most", 5: "All"}
FLUENCY_LABELS = {1: "Incomprehensible", 2: "Disfluent", 3: "Non-native", 4: "Good", 5: "Flawless"}

Task = Literal["A", "B", "C", "signoff"]


class Reviewer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reviewer_id: str
    name: str
    dialect: str | None = None
    languages: list[str] = Field(default_factory=list)
    consent_scope: str | None = None
    created_at: str | None = None


class Judgment(BaseModel):
    """One judgment by one reviewer on one entry of one run.

    Task A: ``adequacy``/``fluency`` 1-5, ``note``, ``flagged``.
    Task B (linter audit): ``payload = {"same_meaning": "Yes|No|Depends", "natural": "Yes|A better|B better|Neither", "classes": [...]}``.
    Task C (FST audit): ``payload = {"word": ..., "valid": "Yes|No|Unsure", "kind": "Established|Loanword|Name|Dialectal|Neologism|Other"}``.
    signoff: ``payload = {"decision": "confirm|reject", "tier": ...}`` with ``entry_id`` None.
    """

    model_config = ConfigDict(extra="forbid")

    judgment_id: int | None = None
    reviewer_id: str
    run_id: str
    entry_id: str | None = None
    task: Task = "A"
    adequacy: int | None = Field(default=None, ge=1, le=5)
    fluency: int | None = Field(default=None, ge=1, le=5)
    note: str | None = None
    flagged: bool = False
    payload: dict[str, Any] = Field(default_factory=dict)
    version: int = 1
    created_at: str | None = None
