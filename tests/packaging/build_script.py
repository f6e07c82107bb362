"""``packaging/build.py`` loaded as a module (it is a script, not part of the package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def load_build_script(module_name: str = "mteval_packaging_build") -> ModuleType:
    """A fresh copy of ``packaging/build.py`` under ``module_name`` (tests patch its globals)."""
    spec = importlib.util.spec_from_file_location(module_name, REPO / "packaging" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
