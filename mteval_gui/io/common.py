"""Small shared pieces of the readers: the result type and default names."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# Stems too generic to name a corpus or run on their own ("corpus.jsonl", "test.fr").
GENERIC_STEMS = frozenset({
    "corpus", "test", "dev", "devtest", "train", "valid", "data", "entries", "input", "source",
    "src", "output", "outputs", "hyp", "hypothesis", "predictions", "run", "report",
})
_SAFE = re.compile(r"[^\w.\-]+", re.UNICODE)


@dataclass
class Loaded(Generic[T]):
    """What a reader returns: the value, warnings for the user, and where each record was.

    ``lines`` maps a record id to the line it starts on (for later ``file:line`` messages);
    ``hints`` carries facts found in the file that the caller may use (e.g. the corpus a
    run belongs to).
    """

    value: T
    format: str
    warnings: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    hints: dict[str, Any] = field(default_factory=dict)


def slug(text: str) -> str:
    s = _SAFE.sub("-", text.strip()).strip("-.")
    return s or "unnamed"


def default_name(path: Path) -> str:
    """A readable id from a file name; generic stems are prefixed with the folder name."""
    stem = path.name
    for suffix in (".jsonl", ".ndjson", ".json", ".tsv", ".csv", ".txt"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    else:
        stem = path.stem
    if stem.lower() in GENERIC_STEMS and path.parent.name:
        stem = f"{path.parent.name}-{stem}"
    return slug(stem)
