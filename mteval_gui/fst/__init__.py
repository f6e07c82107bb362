"""HFST analyzers: loading, tokenisation, cached lookup, analysis parsing, installation.

``hfst`` itself is imported only when an analyzer file is read.
"""

from mteval_gui.fst.analysis import Analysis, WordAnalysis, parse_analysis, strip_flags
from mteval_gui.fst.analyzer import Analyzer, AnalyzerError, load_analyzer, sha256_file
from mteval_gui.fst.registry import (
    KINDS,
    SHARED_KEYS,
    AnalyzerNotFound,
    find_analyzer,
    installed,
    optional_shared_analyzer,
    shared_analyzer,
)

__all__ = [
    "Analysis", "WordAnalysis", "parse_analysis", "strip_flags",
    "Analyzer", "AnalyzerError", "load_analyzer", "sha256_file",
    "KINDS", "SHARED_KEYS", "AnalyzerNotFound", "find_analyzer", "installed",
    "optional_shared_analyzer", "shared_analyzer",
]
