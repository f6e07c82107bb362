"""A system run and its per-entry outputs (SPEC §1.2)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, field_validator

from mteval_gui.domain.base import DomainModel


class Usage(DomainModel):
    model_config = ConfigDict(extra="allow")

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None

    @property
    def total_tokens(self) -> int | None:
        parts = [self.prompt_tokens, self.completion_tokens]
        if all(p is None for p in parts):
            return None
        return sum(p or 0 for p in parts)


class Pricing(DomainModel):
    """USD per 1,000 tokens."""

    prompt_per_1k: float | None = None
    completion_per_1k: float | None = None


class RunMeta(DomainModel):
    model_config = ConfigDict(extra="allow")

    run_id: str
    model_slug: str | None = None
    model_id: str | None = None
    condition: str | None = None
    temperature: float | None = None
    system_prompt: str | None = None
    system_prompt_sha256: str | None = None
    started_at: str | None = None
    elapsed_seconds: float | None = None
    pricing: Pricing | None = None


class Output(DomainModel):
    model_config = ConfigDict(extra="allow")

    id: str
    predicted: str = ""
    raw_predicted: str | None = None
    latency_s: float | None = None
    cost_usd: float | None = None
    cached: bool | None = None
    usage: Usage | None = None
    error: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _stringify_id(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("predicted", mode="before")
    @classmethod
    def _none_is_empty(cls, v: Any) -> Any:
        return "" if v is None else v

    @property
    def is_empty(self) -> bool:
        return bool(self.error) or not self.predicted.strip()


class Run(DomainModel):
    meta: RunMeta
    corpus_id: str
    outputs: list[Output] = Field(default_factory=list)
    content_sha256: str | None = None
