"""Per-entry details that the run card and the interfaces read, as typed models.

A metric's per-entry result (``EntryScore``) carries a JSON ``detail``; three kinds of detail
are read outside the metric that wrote them:

- the word analyses of the ``fst_analysis`` metric (:class:`WordAnalysis`, in the run card's
  ``results[].fst_analysis`` and the review pane's FST panel);
- the orthography violations of the ``orthography`` metric (:class:`OrthographyDetail`);
- the verdicts of the ``equivalence_verdict`` and ``semantic_verdict`` metrics
  (:class:`Verdict`, with its classes, explanation and word pairings, in ``lint_verdict`` /
  ``semantic_verdict``).

A text field ``X`` may have a translatable message ``X_msg`` beside it (:class:`StoredMessage`,
see :mod:`mteval_gui.domain.messages`): the English text stays in ``X``.

A plugin may add fields of its own (kept as they are). A field the producer did not set is
left out of the JSON, so a detail is written back exactly as the metric stored it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import (
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from mteval_gui.domain.base import DomainModel


class Detail(DomainModel):
    """Base of the per-entry details: extra fields kept; only the fields that were set are written.

    A detail also reads like the JSON it was stored as (``verdict["classes"]``,
    ``verdict.get("unpaired_output")``, ``verdict == {"verdict": "MISS"}``), for code written
    against the stored form.
    """

    model_config = ConfigDict(extra="allow")

    def __getitem__(self, key: str) -> Any:
        data = self.model_dump()
        if key not in data:
            raise KeyError(key)
        return data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.model_dump().get(key, default)

    def __eq__(self, other: object) -> bool:
        """Equal to another detail of the same fields, or to the mapping it is stored as."""
        if isinstance(other, Mapping):
            return self.model_dump() == dict(other)
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    @model_serializer(mode="wrap")
    def _only_what_was_set(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        # (no return annotation: pydantic then documents the model's own fields in the schema)
        data = handler(self)
        if not isinstance(data, dict):
            return data
        keep = self.model_fields_set | set(self.__pydantic_extra__ or {})
        return {k: v for k, v in data.items() if k in keep}


class StoredMessage(Detail):
    """A message a text field was rendered from: its English template and arguments."""

    template: str = Field(description="English str.format template, e.g. 'missing: {words}'")
    args: dict[str, Any] = Field(default_factory=dict, description="name -> string, number, message or list of "
                                                                   "messages")


class WordAnalysis(Detail):
    """One output word as the ``fst_analysis`` metric analysed it."""

    token: str
    form: str | None = Field(default=None, description="The form looked up (after normalisation)")
    accepted: bool | None = Field(default=None, description="The strict analyzer accepts the word "
                                                             "(absent: it does when it has analyses)")
    analyses: list[str] = Field(default_factory=list, description="Every analysis, as the analyzer writes it")
    script: str | None = Field(default=None, description="The script the word is written in when it is not the "
                                                         "analyzer's (form: its transliteration)")
    folded: str | None = Field(default=None, description="The spelling looked up after the language's orthographic "
                                                         "folds, for a word accepted only after them")

    @property
    def is_accepted(self) -> bool:
        return bool(self.analyses) if self.accepted is None else self.accepted

    @field_validator("analyses", mode="before")
    @classmethod
    def _raw_strings(cls, v: Any) -> Any:
        """Analyses stored as ``{"raw": …}`` objects are read as their strings."""
        if isinstance(v, list):
            return [a.get("raw", "") if isinstance(a, dict) else a for a in v]
        return v


class Violation(Detail):
    code: str = Field(description="e.g. 'non_standard' (accepted only by the descriptive analyzer), 'alphabet'")
    message: str = ""
    analyses: list[str] = Field(default_factory=list,
                                description="non_standard: the descriptive analyzer's analyses of the word")


class FlaggedWord(Detail):
    """An output word with what the orthography check found wrong with it."""

    token: str
    violations: list[Violation] = Field(default_factory=list)


class OrthographyDetail(Detail):
    """The ``orthography`` metric's per-entry detail."""

    flagged: list[FlaggedWord] = Field(default_factory=list)
    codes: dict[str, int] = Field(default_factory=dict, description="violation code -> count")


class FstDetail(Detail):
    """The ``fst_analysis`` metric's per-entry detail (``words`` is read as ``analyses``)."""

    analyses: list[WordAnalysis] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _words(cls, data: Any) -> Any:
        if isinstance(data, dict) and "analyses" not in data and isinstance(data.get("words"), list):
            return {**data, "analyses": data["words"]}
        return data


class WordPair(Detail):
    """A reference word paired with an output word by a verdict metric (linter or semantic validator)."""

    reference: str | None = None
    output: str | None = None
    classes: list[str] = Field(default_factory=list, description="Variant classes that relate the two words")
    match: str | None = Field(default=None, description="How they were paired: 'lemma', 'gloss', 'source'…")
    note: str | None = None
    note_msg: StoredMessage | None = None


class Verdict(Detail):
    """A per-entry verdict (``EXACT``, ``EQUIVALENT``, ``MISS``, ``VALID``, ``PARTIAL``…) with what
    explains it. ``score`` is the metric's per-entry value when the verdict came with one."""

    verdict: str
    classes: list[str] = Field(default_factory=list, description="Variant classes that fired")
    explanation: str | None = None
    explanation_msg: StoredMessage | None = Field(default=None, description="The explanation as a message")
    matched: str | None = Field(default=None, description="What the output matched: 'reference', 'variant 2'…")
    matched_msg: StoredMessage | None = None
    pairs: list[WordPair] = Field(default_factory=list, description="Word pairings")
    coverage: float | None = None
    weight: float | None = None
    score: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data: Any) -> Any:
        """A verdict stored under ``label`` or ``name`` (or as a non-string) is read as ``verdict``."""
        if isinstance(data, dict):
            v = data.get("verdict")
            if v is None:
                v = data.get("label", data.get("name"))
            if v is not None and not isinstance(v, str):
                v = str(v)
            if v is not None and v is not data.get("verdict"):
                data = {**data, "verdict": v}
        return data

    def extras(self) -> dict[str, Any]:
        """Plugin-specific fields (e.g. ``missing``, ``unpaired_output``), as stored."""
        return dict(self.__pydantic_extra__ or {})
