"""Glossary readers (SPEC §1.3): JSON ``{term: [targets]}`` or TSV ``term<TAB>a|b``.

A JSON target may be a single string. In TSV, blank lines and lines starting with ``#``
are skipped; a first line ``term<TAB>targets`` (any capitalisation) is taken as a header.
Terms are unique (after NFC); every problem is reported with its line.
"""

from __future__ import annotations

import json
from pathlib import Path

from mteval_gui.errors import Defect, InputError
from mteval_gui.io import formats
from mteval_gui.io.common import Loaded, default_name
from mteval_gui.io.formats import Source
from mteval_gui.io.jsonparse import parse_document
from mteval_gui.io.records import nfc
from mteval_gui.io.textfile import DefectList, LineIndex, TextFile, read_text

_HEADER_WORDS = {"term", "terms", "source", "source_term"}


def _from_json(tf: TextFile, dl: DefectList) -> dict[str, list[str]]:
    parsed = parse_document(tf)
    dl.extend_defects(tf.defects)
    if parsed is None:
        return {}
    data = parsed.data
    if isinstance(data, dict) and isinstance(data.get("terms"), dict):
        data = data["terms"]
    if not isinstance(data, dict):
        dl.add(1, "a JSON glossary is an object {term: [accepted target terms]}")
        return {}
    index = LineIndex(tf.text)
    terms: dict[str, list[str]] = {}
    for term, targets in data.items():
        pos = tf.text.find(_json_key(term))
        line = index.line_of(pos) if pos >= 0 else None
        key = nfc(term).strip()
        if not key:
            dl.add(line, "empty term")
            continue
        if isinstance(targets, str):
            targets = [targets]
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            dl.add(line, f"term {term!r}: targets must be a string or a list of strings")
            continue
        cleaned = [nfc(t).strip() for t in targets if t.strip()]
        if not cleaned:
            dl.add(line, f"term {term!r}: no target")
            continue
        if key in terms:
            dl.add(line, f"term {key!r} appears twice")
            continue
        terms[key] = cleaned
    return terms


def _json_key(term: str) -> str:
    return json.dumps(term, ensure_ascii=False)


def _from_tsv(tf: TextFile, dl: DefectList) -> dict[str, list[str]]:
    dl.extend_defects(tf.defects)
    terms: dict[str, list[str]] = {}
    lines_of: dict[str, int] = {}
    first = True
    for i, line in enumerate(tf.lines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = line.split("\t")
        if first and cells[0].strip().lower() in _HEADER_WORDS:
            first = False
            continue
        first = False
        if len(cells) < 2:
            dl.add(i, "expected 'term<TAB>target|target'")
            continue
        if len(cells) > 2 and any(c.strip() for c in cells[2:]):
            dl.add(i, f"expected 2 tab-separated cells, got {len(cells)}")
            continue
        term = nfc(cells[0]).strip()
        targets = [nfc(t).strip() for t in cells[1].split("|") if t.strip()]
        if not term:
            dl.add(i, "empty term")
            continue
        if not targets:
            dl.add(i, f"term {term!r}: no target")
            continue
        if term in terms:
            dl.add(i, f"term {term!r} appears twice (first at line {lines_of[term]})")
            continue
        terms[term] = targets
        lines_of[term] = i
    return terms


def read_glossary(path: str | Path, fmt: str | None = None) -> Loaded[dict[str, list[str]]]:
    """Read a glossary file; ``value`` is ``{term: [targets]}``. Raises InputError."""
    path = Path(path)
    fmt = fmt or formats.detect_format(path, "glossary")
    spec = formats.get(fmt)
    if spec is None or spec.glossary is None:
        raise InputError(Defect(str(path), None,
                                f"glossary format must be one of {', '.join(formats.names('glossary'))}"))
    tf = read_text(path)
    dl = DefectList(tf.name)
    terms = spec.glossary(Source(path, tf, dl))
    if not terms and not dl:
        dl.add(None, "no terms found")
    dl.raise_if_any()
    return Loaded(terms, fmt, [], {}, {"name": default_name(path)})


# ----- the glossary readers of the built-in formats (registered in io.builtin_formats) ---------
def json_glossary(src: Source) -> dict[str, list[str]]:
    return _from_json(src.text, src.defects)


def tsv_glossary(src: Source) -> dict[str, list[str]]:
    return _from_tsv(src.text, src.defects)
