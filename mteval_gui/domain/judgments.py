"""Reviewers and their judgments (SPEC §9)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ADEQUACY_LABELS = {1: "None", 2: "Little", 3: "Much", 4: "Most", 5: "All"}
FLUENCY_LABELS = {1: "Incomprehensible", 2: "Disfluent", 3: "Non-native", 4: "Good", 5: "Flawless"}

Task = Literal["A", "B", "C", "signoff"]
TASKS: tuple[str, ...] = ("A", "B", "C", "signoff")

# Task B (linter audit) answers
SAME_MEANING = ("Yes", "No", "Depends")
NATURAL = ("Yes", "A better", "B better", "Neither")
# Task C (FST audit) answers
WORD_VALID = ("Yes", "No", "Unsure")
WORD_KINDS = ("Established", "Loanword", "Name", "Dialectal", "Neologism", "Other")
# Review sign-off
SIGNOFF_DECISIONS = ("confirm", "reject")
QUALITY_TIERS = ("fluent", "deployable", "functional", "emerging", "baseline", "unscored")


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
    superseded_by: int | None = None
    undone: bool = False


def judgment_item(j: Judgment) -> str:
    """What a judgment is about inside its entry: the word for Task C, "" otherwise.

    Together with reviewer, run, entry and task it identifies a judgment across its versions.
    """
    if j.task == "C":
        word = j.payload.get("word")
        return word if isinstance(word, str) else ""
    return ""


def _choice(payload: dict[str, Any], key: str, allowed: tuple[str, ...], *, required: bool) -> list[str]:
    value = payload.get(key)
    if value is None:
        return [f"task needs payload {key!r} (one of {', '.join(allowed)})"] if required else []
    if value not in allowed:
        return [f"{key} {value!r} is not one of {', '.join(allowed)}"]
    return []


def judgment_problems(j: Judgment) -> list[str]:
    """Everything wrong with a judgment's content (not its references), as user-facing messages."""
    problems: list[str] = []
    for name in ("adequacy", "fluency"):
        value = getattr(j, name)
        if value is not None and not 1 <= value <= 5:
            problems.append(f"{name} {value} is out of range 1-5")
    p = j.payload
    if j.task == "signoff":
        if j.entry_id is not None:
            problems.append("a sign-off concerns a whole run: entry_id must be empty")
        problems += _choice(p, "decision", SIGNOFF_DECISIONS, required=True)
        problems += _choice(p, "tier", QUALITY_TIERS, required=False)
        return problems
    if not j.entry_id:
        problems.append(f"task {j.task} judgment needs an entry_id")
    if j.task == "B":
        problems += _choice(p, "same_meaning", SAME_MEANING, required=False)
        problems += _choice(p, "natural", NATURAL, required=False)
        classes = p.get("classes")
        if classes is not None and not (isinstance(classes, list) and all(isinstance(c, str) for c in classes)):
            problems.append("classes must be a list of variant class names")
    elif j.task == "C":
        word = p.get("word")
        if not isinstance(word, str) or not word.strip():
            problems.append("task C judgment needs payload 'word' (the rejected word)")
        problems += _choice(p, "valid", WORD_VALID, required=False)
        problems += _choice(p, "kind", WORD_KINDS, required=False)
    return problems
