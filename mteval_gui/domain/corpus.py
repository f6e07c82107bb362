"""Corpus and entry (SPEC §1.1)."""

from __future__ import annotations

import warnings
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from mteval_gui.domain.base import DomainModel


class LanguagePair(DomainModel):
    model_config = ConfigDict(extra="allow")

    source: str = Field(description="ISO 639-3 code of the source language")
    target: str = Field(description="ISO 639-3 code of the target language")

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


warnings.filterwarnings("ignore", message='Field name "register"', category=UserWarning)


class Entry(DomainModel):
    """One test item: a source, its reference(s) and annotations."""

    model_config = ConfigDict(extra="forbid")

    id: str
    source: str = Field(min_length=1)
    reference: str | None = None
    variants: list[str] = Field(default_factory=list)
    terminology: dict[str, list[str]] = Field(default_factory=dict)
    difficulty: int | None = Field(default=None, ge=1, le=5)
    domain: str | None = None
    register: str | None = None
    segment: str | None = None
    provenance: str | dict[str, Any] | None = None
    phenomena: list[str] = Field(default_factory=list)
    expected_morphology: dict[str, str] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id", mode="before")
    @classmethod
    def _stringify_id(cls, v: Any) -> Any:
        if isinstance(v, bool):
            return v
        if isinstance(v, int):
            return str(v)
        return v

    @field_validator("source")
    @classmethod
    def _non_blank_source(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("source is empty")
        return v

    @property
    def provenance_label(self) -> str | None:
        p = self.provenance
        if p is None:
            return None
        if isinstance(p, str):
            return p
        return str(p.get("source_name") or p.get("name") or p.get("source") or "unknown")

    def references(self) -> list[str]:
        """The reference followed by accepted variants (no duplicates, non-empty)."""
        out: list[str] = []
        for r in [self.reference, *self.variants]:
            if r and r not in out:
                out.append(r)
        return out


class Corpus(DomainModel):
    model_config = ConfigDict(extra="forbid")

    corpus_id: str
    version: str = "1"
    language_pair: LanguagePair
    license: str | None = None
    attribution: str | None = None
    description: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    entries: list[Entry] = Field(default_factory=list)


# the metadata keys naming an entry's document, in order of preference
DOC_KEYS = ("document", "doc_id", "document_id", "doc")


def document_of(entry: Entry) -> str | None:
    """The entry's document: the first of its ``metadata`` keys :data:`DOC_KEYS` that holds a text or a
    whole number, else its ``segment`` (None: the entry belongs to no document)."""
    meta = entry.metadata or {}
    for key in DOC_KEYS:
        value = meta.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
            return str(value)
    return entry.segment or None
