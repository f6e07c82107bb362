"""The base of the domain's pydantic models.

pydantic builds a model's validation and serialisation code when the class is created, which
made importing :mod:`mteval_gui.domain` cost ≈ 0.2 s of every command's start-up, for models a
command may never use. :class:`DomainModel` defers that to the model's first use (validation,
construction, dump or schema); :func:`build_models` builds a module's models ahead of time
where a process has a moment to spare (the scoring process builds the run card's models while
its helper scores).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

_Model = TypeVar("_Model", bound=BaseModel)
_setattr = object.__setattr__


class DomainModel(BaseModel):
    """A pydantic model whose validation code is built on first use."""

    model_config = ConfigDict(defer_build=True)


def build_models(*modules: ModuleType) -> None:
    """Build now the deferred models defined in ``modules``."""
    for module in modules:
        for obj in vars(module).values():
            if (isinstance(obj, type) and issubclass(obj, BaseModel) and obj.__module__ == module.__name__
                    and not obj.__pydantic_complete__):
                obj.model_rebuild()


_FIELD_SETS: dict[tuple[type, tuple[str, ...]], set[str]] = {}


def fields_set(cls: type, values: dict[str, Any]) -> set[str]:
    """The ``__pydantic_fields_set__`` of a model built with ``values``: one set shared by every
    instance of ``cls`` built with the same names (a set of 8–13 names takes 728 bytes: a kilobyte
    and a half per corpus entry and output, 300 MB at 200,000 entries, for a set no code of this
    application changes — pydantic adds a name to it only when an extra field is assigned)."""
    key = (cls, tuple(values))
    shared = _FIELD_SETS.get(key)
    if shared is None:
        shared = _FIELD_SETS.setdefault(key, set(values))
    return shared


def constructor(cls: type[_Model], names: tuple[str, ...]) -> Callable[[dict[str, Any], dict[str, Any] | None], _Model]:
    """:func:`construct` for value dicts that always hold ``names`` in this order (a reader's
    fast path building a million models): the shared fields set is looked up once."""
    shared = fields_set(cls, dict.fromkeys(names))
    new = cls.__new__

    def make(values: dict[str, Any], extra: dict[str, Any] | None = None) -> _Model:
        m = new(cls)
        _setattr(m, "__dict__", values)
        _setattr(m, "__pydantic_fields_set__", shared)
        _setattr(m, "__pydantic_extra__", extra)
        _setattr(m, "__pydantic_private__", None)
        return m

    return make


def construct(cls: type[_Model], values: dict[str, Any], extra: dict[str, Any] | None = None) -> _Model:
    """A model instance from already-checked values holding every field (no re-validation).

    Equivalent to ``cls.model_construct`` without its per-field default resolution, which
    dominated import time: the readers (``io.records``) build entries and outputs they checked
    themselves, the store (``store.repo``) those it reads back from the workspace.
    """
    m = cls.__new__(cls)
    _setattr(m, "__dict__", values)
    _setattr(m, "__pydantic_fields_set__", fields_set(cls, values))
    _setattr(m, "__pydantic_extra__", extra)
    _setattr(m, "__pydantic_private__", None)
    return m
