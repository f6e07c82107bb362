"""Small shared pieces of the readers: the result type and default names."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
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


def csv_message(exc: csv.Error) -> str:
    """A csv module error as a reader of the file understands it."""
    if "unexpected end of data" in str(exc):
        return "a quoted cell that starts on this line is never closed"
    return str(exc)


def csv_rows(reader: Any, name: str, defects: list[Any]) -> Iterator[tuple[int, list[str]]]:
    """``(line, cells)`` of each row of ``reader`` (a ``csv.reader``) that has a non-blank cell, ``line``
    the file line the row starts on (a quoted cell may span lines); a malformed row ends the reading
    with the defect ``name:line: malformed CSV: …`` appended to ``defects``."""
    from mteval_gui.errors import Defect

    previous_end = reader.line_num
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            defects.append(Defect(name, previous_end + 1, f"malformed CSV: {csv_message(exc)}"))
            return
        line = previous_end + 1
        previous_end = reader.line_num
        if cells and any(c.strip() for c in cells):
            yield line, cells
