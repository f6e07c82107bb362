"""HFST analyzers: loading, tokenisation, cached lookup, analysis parsing, installation.

The lookup libraries (``hfst``, ``pyhfst``) are imported only when an analyzer file is read.
The names below are loaded on first access, so a child process that only checks a file
(:mod:`mteval_gui.fst.probe`) does not import the card models.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Analysis": "analysis", "WordAnalysis": "analysis", "parse_analysis": "analysis", "strip_flags": "analysis",
    "Analyzer": "analyzer", "AnalyzerError": "analyzer", "load_analyzer": "analyzer", "sha256_file": "analyzer",
    "KINDS": "registry", "SHARED_KEYS": "registry", "AnalyzerNotFound": "registry", "AnalyzerUnusable": "registry",
    "find_analyzer": "registry", "installed": "registry", "optional_shared_analyzer": "registry",
    "shared_analyzer": "registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
