"""The scoring choices a caller sets explicitly: one parameter object for every scoring entry point.

A workspace scoring (:mod:`mteval_gui.app.scoring_config`) keeps, for what is left unset, the
stored choice of a scored run or the workspace setting; a one-shot evaluation
(:func:`mteval_gui.app.evaluate.evaluate_files`) the defaults. This module imports no workspace
code, so ``mteval evaluate`` can use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.settings import ScoringOptions


@dataclass(frozen=True)
class ScoringOverrides:
    """What a caller sets explicitly; ``None`` (and, in ``options``, a field not set) keeps the
    stored value for a scored run, the workspace setting or default for an unscored one."""

    metrics: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    options: ScoringOptions | None = None  # only the fields in ``options.model_fields_set`` count
    glossary: str | None = None
    seed: int | None = None
    n_bootstrap: int | None = None
    batch_size: int | None = None
    params: Mapping[str, Any] | None = None
    composite_profile: str | None = None  # a calibrated profile of the language card, by name

    @classmethod
    def of(cls, *, metrics: Sequence[str] | None = None, exclude: Sequence[str] | None = None,
           options: ScoringOptions | None = None, glossary: str | None = None, seed: int | None = None,
           n_bootstrap: int | None = None, batch_size: int | None = None,
           params: Mapping[str, Any] | None = None, composite_profile: str | None = None) -> ScoringOverrides:
        return cls(tuple(metrics) if metrics else None, tuple(exclude) if exclude else None, options, glossary,
                   seed, n_bootstrap, batch_size, dict(params) if params else None, composite_profile)

    @property
    def empty(self) -> bool:
        """Nothing is set (a request that keeps every stored choice)."""
        options_set = self.options is not None and bool(self.options.model_fields_set)
        return not options_set and all(getattr(self, f) is None for f in (
            "metrics", "exclude", "glossary", "seed", "n_bootstrap", "batch_size", "params", "composite_profile"))
