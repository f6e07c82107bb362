"""The base of the domain's pydantic models.

pydantic builds a model's validation and serialisation code when the class is created, which
made importing :mod:`mteval_gui.domain` cost ≈ 0.2 s of every command's start-up, for models a
command may never use. :class:`DomainModel` defers that to the model's first use (validation,
construction, dump or schema); :func:`build_models` builds a module's models ahead of time
where a process has a moment to spare (the scoring process builds the run card's models while
its helper scores).
"""

from __future__ import annotations

from types import ModuleType

from pydantic import BaseModel, ConfigDict


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
