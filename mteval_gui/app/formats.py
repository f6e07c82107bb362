"""The input formats the import commands and dialogs offer, read from the registry in ``io``.

``mteval import corpus|run|glossary --format`` takes its choices from :func:`format_choices`
and the import dialog its format list from the same function and its file filter from
:func:`file_patterns`: a format registered with :func:`mteval_gui.io.formats.register`
appears in both without further change.
"""

from __future__ import annotations

from pathlib import Path

from mteval_gui.io import formats

__all__ = ["detect_format", "file_patterns", "format_choices"]


def _kind(kind: str) -> formats.Kind | None:
    return next((k for k in formats.KINDS if k == kind), None)


def format_choices(kind: str) -> tuple[str, ...]:
    """The names of the formats that can hold ``kind`` (corpus, run, glossary), in detection order."""
    k = _kind(kind)
    return formats.names(k) if k is not None else ()


def file_patterns(kind: str) -> str:
    """The file-dialog patterns of those formats: ``*.jsonl *.ndjson *.json ...`` (empty for another kind)."""
    k = _kind(kind)
    return " ".join(f"*{s}" for s in formats.suffixes(k)) if k is not None else ""


def detect_format(path: str | Path, kind: str | None = None) -> str:
    """The format of ``path`` as the reader of ``kind`` will detect it."""
    return formats.detect_format(path, _kind(kind) if kind is not None else None)
