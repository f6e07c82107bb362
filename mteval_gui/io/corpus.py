"""Corpus readers (SPEC §1.1): JSON, JSONL, TSV, CSV, line-aligned text, harness reports.

:func:`read_corpus` reads any of them and returns a validated
:class:`~mteval_gui.domain.corpus.Corpus`, or raises one
:class:`~mteval_gui.errors.InputError` listing every defect of the file(s).

- JSON: a list of entries, or an object with ``entries`` and corpus metadata
  (``corpus_id``, ``version``, ``language_pair``, ``license``, ``attribution``, ...).
- JSONL: one entry per line; an optional first line ``{"corpus": {...metadata}}``.
- TSV/CSV: a header row naming the fields; ``variants`` and ``phenomena`` as a JSON list or
  ``|``-separated; ``terminology``, ``expected_morphology``, ``metadata`` (and an object
  ``provenance``) as JSON. TSV cells are split on tabs without quoting rules; CSV follows
  RFC 4180 quoting.
- Text: a source file and an optional line-aligned reference file (sacrebleu style); ids are
  line numbers.
- Harness report: ``entries[]`` with ``source`` and ``expected`` (the reference).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.packed import Packed, packed_or_list
from mteval_gui.errors import Defect, InputError
from mteval_gui.io import formats
from mteval_gui.io.common import Loaded, default_name
from mteval_gui.io.formats import Parsed, Source
from mteval_gui.io.jsonparse import BAD, loads_cell, parse_document, parse_jsonl
from mteval_gui.io.langcodes import (
    code_from_extension,
    code_from_name,
    code_problem,
    language_code,
    normalise_code,
    pair_from_stem,
)
from mteval_gui.io.records import (
    ENTRY_ALIASES,
    ENTRY_FIELDS,
    entry_from_record,
    id_problem,
    make_entry,
    nfc,
    nfc_deep,
    plain_entries,
    record_id,
)
from mteval_gui.io.textfile import DefectList, TextFile, read_text

CORPUS_META_FIELDS = ("corpus_id", "version", "language_pair", "license", "attribution", "description")
_LIST_COLUMNS = {"variants", "phenomena"}
_JSON_COLUMNS = {"terminology", "expected_morphology", "metadata"}


def is_harness_report(data: Any) -> bool:
    """A harness TestReport: an object with ``entries[]`` carrying ``predicted``, and a config."""
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        return False
    if not ("config" in data or "overall" in data):
        return False
    first = next((e for e in data["entries"] if isinstance(e, dict)), None)
    return first is not None and ("predicted" in first or "expected" in first)


def _collect_entries(
    records: Sequence[tuple[int | None, Any]], dl: DefectList, warnings: list[str], plain_checked: bool = False
) -> tuple[list[Entry], dict[str, int]]:
    plain = None if plain_checked else plain_entries(list(records))
    if plain is not None:  # the whole file checked a column at a time
        return plain
    entries: list[Entry] = []
    lines: dict[str, int] = {}
    unknown: set[str] = set()
    for line, rec in records:
        e = entry_from_record(rec, dl, line, unknown)
        if e is None:
            rid = record_id(rec.get("id")) if isinstance(rec, dict) else None
            if rid is not None:
                if rid in lines:
                    dl.add(line, f"duplicate id {rid!r} (first at line {lines[rid]})")
                else:
                    lines[rid] = line or 0
            continue
        if e.id in lines:
            first = lines[e.id]
            dl.add(line, f"duplicate id {e.id!r} (first at line {first})")
            continue
        lines[e.id] = line or 0
        entries.append(e)
    if unknown:
        warnings.append(f"fields kept in each entry's metadata: {', '.join(sorted(unknown))}")
    if not entries and not dl:
        dl.add(None, "no entries found")
    return entries, lines


def _language_pair(value: Any, dl: DefectList, line: int | None) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, dict):
        src, tgt = value.get("source"), value.get("target")
        if not isinstance(src, str) or not isinstance(tgt, str) or not src or not tgt:
            dl.add(line, "language_pair must have 'source' and 'target' codes")
            return None
        extra = {k: v for k, v in value.items() if k not in ("source", "target")}
        return _checked_pair(src, tgt, extra, dl, line)
    if isinstance(value, str):
        for sep in ("-", "→", ">", "_"):
            if sep in value:
                a, _, b = value.partition(sep)
                if a.strip() and b.strip():
                    return _checked_pair(a, b, {}, dl, line)
    dl.add(line, f"language_pair must be an object {{source, target}} or 'src-tgt', got {value!r}")
    return None


def _checked_pair(src: str, tgt: str, extra: dict[str, Any], dl: DefectList, line: int | None) -> dict[str, Any] | None:
    codes = []
    for side, raw in (("source", src), ("target", tgt)):
        code, problem = language_code(raw.strip())
        if problem:
            dl.add(line, f"language_pair {side}: {problem}")
        codes.append(code)
    if None in codes:
        return None
    return {"source": codes[0], "target": codes[1], **extra}


def _split_meta(meta: dict[str, Any], dl: DefectList, line: int | None) -> dict[str, Any]:
    """Corpus-level fields of a metadata object; the rest goes to ``metadata``."""
    out: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for k, v in meta.items():
        if k == "entries":
            continue
        if k in CORPUS_META_FIELDS:
            out[k] = v
        elif k == "metadata" and isinstance(v, dict):
            extra.update(v)
        else:
            extra[k] = v
    if "language_pair" not in out and ("source_lang" in extra or "target_lang" in extra):
        out["language_pair"] = {"source": extra.pop("source_lang", ""), "target": extra.pop("target_lang", "")}
    if "language_pair" in out:
        out["language_pair"] = _language_pair(out["language_pair"], dl, line)
    for k in ("corpus_id", "version"):
        v = out.get(k)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out[k] = str(v)
        elif v is not None and not isinstance(v, str):
            dl.add(line, f"{k} must be a string")
            out.pop(k)
        if k in out and record_id(out[k]) is None:
            dl.add(line, id_problem(out[k], k))
            out.pop(k)
    for k in ("license", "attribution", "description"):
        v = out.get(k)
        if v is not None and not isinstance(v, str):
            out[k] = json.dumps(v, ensure_ascii=False)
    out["metadata"] = nfc_deep(extra)
    return out


def _finish(
    fmt: str,
    meta: dict[str, Any],
    entries: list[Entry] | Packed[Entry] | PlainColumns[Entry],
    lines: dict[str, int],
    warnings: list[str],
    dl: DefectList,
    *,
    corpus_id: str | None,
    source_lang: str | None,
    target_lang: str | None,
    version: str | None,
    default_id: str,
    guessed_pair: tuple[str | None, str | None] = (None, None),
) -> Loaded[Corpus]:
    lp = dict(meta.get("language_pair") or {})
    refused_pair = "language_pair" in meta and meta["language_pair"] is None  # already reported
    given: list[str | None] = []
    for option, raw in (("--source-lang", source_lang), ("--target-lang", target_lang)):
        code, problem = language_code(raw) if raw else (None, None)
        if problem:
            dl.add(None, f"{option}: {problem}")
            refused_pair = True
        given.append(code)
    for option, raw in (("--id", corpus_id), ("--version", version)):
        if raw is not None and record_id(raw) is None:
            dl.add(None, f"{option}: {id_problem(raw, 'the ' + option.lstrip('-'))}")
    src = given[0] or lp.get("source") or guessed_pair[0]
    tgt = given[1] or lp.get("target") or guessed_pair[1]
    for side, code in (("source", src), ("target", tgt)):
        problem = code_problem(code) if code else None
        if problem:
            dl.add(None, f"{side} language: {problem}")
    if (not src or not tgt) and not refused_pair:
        missing = " and ".join(n for n, v in (("--source-lang", src), ("--target-lang", tgt)) if not v)
        dl.add(None, f"the file does not say which languages it holds: give {missing}")
    dl.raise_if_any()
    lp.update({"source": src, "target": tgt})
    declared = meta.get("metadata", {}).get("entry_count")
    if isinstance(declared, int) and declared != len(entries):
        warnings.append(f"the file declares entry_count {declared} but holds {len(entries)} entries")
    corpus = Corpus.model_construct(
        corpus_id=corpus_id or meta.get("corpus_id") or default_id,
        version=version or meta.get("version") or "1",
        language_pair=LanguagePair(**lp),
        license=meta.get("license"),
        attribution=meta.get("attribution"),
        description=meta.get("description"),
        metadata=meta.get("metadata") or {},
        entries=entries,
    )
    return Loaded(corpus, fmt, warnings, lines)


def _read_json(
    tf: TextFile, dl: DefectList, warnings: list[str]
) -> tuple[dict[str, Any], list[Entry], dict[str, int], str]:
    parsed = parse_document(tf)
    dl.extend_defects(tf.defects)
    if parsed is None:
        dl.raise_if_any()
        raise AssertionError("unreachable")
    data = parsed.data
    meta: dict[str, Any]
    if is_harness_report(data):
        meta, entries, lines = _report_entries(data, parsed.item_lines, dl, warnings)
        return meta, entries, lines, "harness-report"
    if isinstance(data, list):
        meta = {}
        records = data
    elif isinstance(data, dict) and isinstance(data.get("entries"), list):
        corpus = data.get("corpus")
        head: dict[str, Any] = corpus if isinstance(corpus, dict) else {}
        meta = _split_meta({**{k: v for k, v in data.items() if k != "corpus"}, **head}, dl, 1)
        records = data["entries"]
    else:
        dl.add(1, "expected a list of entries or an object with an 'entries' list")
        dl.raise_if_any()
        raise AssertionError("unreachable")
    item_lines: Sequence[int | None] = parsed.item_lines or [None] * len(records)
    entries, lines = _collect_entries(list(zip(item_lines, records, strict=True)), dl, warnings)
    return meta, entries, lines, "json"


def _report_entries(data: dict[str, Any], item_lines: list[int] | None, dl: DefectList,
                    warnings: list[str]) -> tuple[dict[str, Any], list[Entry], dict[str, int]]:
    found = data.get("config")
    config: dict[str, Any] = found if isinstance(found, dict) else {}
    records = []
    for rec in data["entries"]:
        if isinstance(rec, dict):
            # difficulty 0 is the harness's "none" (its entries default to 0; tiers here are 1-5)
            rec = {k: rec[k] for k in ("id", "source", "expected", "difficulty", "domain", "segment")
                   if k in rec and rec[k] not in (None, "") and not (k == "difficulty" and rec[k] == 0)}
        records.append(rec)
    lines_of: Sequence[int | None] = item_lines or [None] * len(records)
    entries, lines = _collect_entries(list(zip(lines_of, records, strict=True)), dl, warnings)
    corpus_path = config.get("corpus_path") or ""
    meta: dict[str, Any] = {"metadata": {"harness_corpus_path": corpus_path, "harness_run_id": data.get("run_id")}}
    stem = Path(corpus_path).name
    for suffix in (".json", ".jsonl"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    if stem:
        meta["corpus_id"] = stem
    pair = pair_from_stem(stem) if stem else None
    src = pair[0] if pair else code_from_name(config.get("source_lang"))
    tgt = (
        pair[1]
        if pair
        else (normalise_code(config.get("target_lang_code")) or code_from_name(config.get("target_lang")))
    )
    refused = False
    for key, code in (("source_lang", src), ("target_lang_code", tgt)):
        problem = code_problem(code) if code else None
        if problem:
            dl.add(None, f"config {key}: {problem}")
            refused = True
    if refused:
        meta["language_pair"] = None  # reported: no second message about missing languages
    elif src or tgt:
        meta["language_pair"] = {"source": src, "target": tgt}
    return meta, entries, lines


def _read_jsonl(
    tf: TextFile, dl: DefectList, warnings: list[str], columns: bool = False
) -> tuple[dict[str, Any], list[Entry] | PlainColumns[Entry], dict[str, int]]:
    dl.extend_defects(tf.defects)
    meta: dict[str, Any] = {}
    parsed = parse_jsonl(tf, dl)
    first: Any = parsed[0][1] if parsed else BAD
    head = isinstance(first, dict) and isinstance(first.get("corpus"), dict) and "source" not in first
    if head:
        meta = _split_meta(first["corpus"], dl, parsed[0][0])
    records = [p for p in islice(parsed, 1 if head else 0, None) if p[1] is not BAD]
    if columns:
        plain = plain_entries(records, columns=True)
        if plain is not None:
            return meta, plain[0], plain[1]
    entries, lines = _collect_entries(records, dl, warnings, plain_checked=columns)
    return meta, entries, lines


def _parse_cell(col: str, value: str, dl: DefectList, line: int) -> Any:
    if value == "":
        return None
    if col in _LIST_COLUMNS:
        v = value.strip()
        if v.startswith("["):
            try:
                return loads_cell(v)
            except ValueError as exc:
                dl.add(line, f"column '{col}': invalid JSON list: {exc}")
                return None
        return [p.strip() for p in v.split("|") if p.strip()]
    if col in _JSON_COLUMNS or (col == "provenance" and value.lstrip().startswith("{")):
        try:
            return loads_cell(value)
        except ValueError as exc:
            dl.add(line, f"column '{col}': invalid JSON: {exc}")
            return None
    if col == "difficulty":
        try:
            return int(value.strip())
        except ValueError:
            try:
                f = float(value.strip())
            except ValueError:
                return value
            return int(f) if f.is_integer() else f
    return value


class _UnclosedQuote(Exception):
    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message


def _table_rows(tf: TextFile, delimiter: str) -> list[tuple[int, list[str]]]:
    if delimiter == "\t":
        return [(i, line.split("\t")) for i, line in enumerate(tf.lines(), 1)]
    # strict: a quote that is never closed, or text after a closing quote, is an error
    # (the lenient reader swallows every later row into one cell)
    reader = csv.reader(io.StringIO(tf.text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise _UnclosedQuote(start, "a quoted cell that starts on this line is never closed") from None
            raise _UnclosedQuote(reader.line_num, f"malformed CSV: {exc}") from None
        rows.append((start, row))
        start = reader.line_num + 1


def _read_table(
    tf: TextFile, delimiter: str, dl: DefectList, warnings: list[str]
) -> tuple[dict[str, Any], list[Entry], dict[str, int]]:
    dl.extend_defects(tf.defects)
    try:
        rows = _table_rows(tf, delimiter)
    except _UnclosedQuote as exc:
        dl.add(exc.line, exc.message)
        dl.raise_if_any()
        raise AssertionError("unreachable") from exc
    rows = [(i, r) for i, r in rows if any(c.strip() for c in r)]
    if not rows:
        dl.add(1, "empty file: expected a header row naming the fields")
        dl.raise_if_any()
    header_line, header = rows[0]
    columns: list[str] = []
    for j, name in enumerate(header, 1):
        key = name.strip().lstrip("\ufeff").strip()
        low = key.lower()
        if low in ENTRY_FIELDS:
            key = low
        elif low in ENTRY_ALIASES:
            key = ENTRY_ALIASES[low]
        if not key:
            dl.add(header_line, f"column {j} has no name", j)
        elif key in columns:
            dl.add(header_line, f"column {key!r} appears twice", j)
        columns.append(key)
    for required in ("id", "source"):
        if required not in columns:
            dl.add(header_line, f"missing required column '{required}' (columns: {', '.join(c for c in columns if c)})")
    if dl:
        dl.raise_if_any()
    records: list[tuple[int, Any]] = []
    width = len(columns)
    for line, cells in rows[1:]:
        if len(cells) != width:
            dl.add(
                line, f"row has {len(cells)} cell{'s' if len(cells) != 1 else ''} but the header names {width} columns"
            )
            continue
        rec: dict[str, Any] = {}
        for col, value in zip(columns, cells, strict=True):
            v = _parse_cell(col, value, dl, line)
            if v is not None:
                rec[col] = v
        records.append((line, rec))
    entries, lines = _collect_entries(records, dl, warnings)
    return {}, entries, lines


def _read_text_pair(
    tf: TextFile, ref: TextFile | None, dl: DefectList, warnings: list[str], packed: bool = False
) -> tuple[list[Entry] | Packed[Entry], dict[str, int]]:
    dl.extend_defects(tf.defects)
    src_lines = tf.lines()
    ref_lines: list[str] | None = None
    if ref is not None:
        dl.extend_defects(ref.defects)
        ref_lines = ref.lines()
        if len(ref_lines) != len(src_lines):
            first_unpaired = min(len(ref_lines), len(src_lines)) + 1
            dl.append(
                Defect(
                    ref.name,
                    first_unpaired,
                    f"line-count mismatch: {ref.name} has {len(ref_lines)} lines but {tf.name} has {len(src_lines)}",
                )
            )
    entries: list[Entry] | Packed[Entry] = packed_or_list(packed)
    lines: dict[str, int] = {}
    empty_refs = 0
    for i, s in enumerate(src_lines, 1):
        if not s.strip():
            dl.add(i, "empty source")
            continue
        r: str | None = None
        if ref_lines is not None and i <= len(ref_lines):
            r = ref_lines[i - 1]
            if not r.strip():
                r = None
                empty_refs += 1
        eid = str(i)
        lines[eid] = i
        entries.append(make_entry(eid, nfc(s), nfc(r) if r is not None else None))
    if empty_refs:
        warnings.append(f"{empty_refs} empty reference line(s) imported as reference-free entries")
    if not src_lines:
        dl.add(None, "empty file")
    return entries, lines


def read_corpus(
    path: str | Path,
    fmt: str | None = None,
    *,
    ref_path: str | Path | None = None,
    corpus_id: str | None = None,
    source_lang: str | None = None,
    target_lang: str | None = None,
    version: str | None = None,
    packed: bool = False,
    columns: bool = False,
) -> Loaded[Corpus]:
    """Read a corpus file (format detected when ``fmt`` is None). Raises InputError.

    ``packed``: the entries are a :class:`~mteval_gui.domain.packed.Packed` sequence, packed as
    they are read by the readers that can (a plain-text corpus), after reading by the others.
    ``columns``: a JSON Lines file of plain entries gives them as
    :class:`~mteval_gui.domain.columns.PlainColumns` (for the workspace's importer, which makes its
    rows from the columns); other files give a list."""
    return _read_corpus(path, fmt, ref_path=ref_path, corpus_id=corpus_id, source_lang=source_lang,
                        target_lang=target_lang, version=version, packed=packed, columns=columns)


def _read_corpus(path: str | Path, fmt: str | None, *, ref_path: str | Path | None, corpus_id: str | None,
                 source_lang: str | None, target_lang: str | None, version: str | None,
                 packed: bool = False, columns: bool = False) -> Loaded[Corpus]:
    path = Path(path)
    if ref_path is not None and fmt is None:
        fmt = "text"
    fmt = fmt or formats.detect_format(path)
    spec = formats.get(fmt)
    if spec is None or spec.corpus is None:
        choices = ", ".join(formats.names("corpus"))
        raise InputError(Defect(str(path), None, f"cannot read a corpus from format {fmt!r} (one of: {choices})"))
    tf = read_text(path)
    dl = DefectList(tf.name)
    warnings: list[str] = []
    default_id = default_name(path)
    parsed = spec.corpus(Source(path, tf, dl, warnings, ref_path=Path(ref_path) if ref_path is not None else None,
                                packed=packed, columns=columns and not packed))
    if packed and not isinstance(parsed.records, Packed):
        parsed.records = Packed.pack(parsed.records)
    guessed = parsed.guessed_pair
    if not any(guessed):
        pair = pair_from_stem(default_id)
        if pair:
            guessed = pair
    return _finish(parsed.format or fmt, parsed.meta, parsed.records, parsed.lines, warnings, dl, corpus_id=corpus_id,
                   source_lang=source_lang, target_lang=target_lang, version=version, default_id=default_id,
                   guessed_pair=guessed)


# ----- the corpus readers of the built-in formats (registered in io.builtin_formats) -----------
def json_corpus(src: Source) -> Parsed[Entry]:
    """A JSON corpus, or the entries (source, expected) of a harness report."""
    meta, entries, lines, fmt = _read_json(src.text, src.defects, src.warnings)
    return Parsed(meta, entries, lines, fmt)


def jsonl_corpus(src: Source) -> Parsed[Entry]:
    return Parsed(*_read_jsonl(src.text, src.defects, src.warnings, src.columns))


def tsv_corpus(src: Source) -> Parsed[Entry]:
    return Parsed(*_read_table(src.text, "\t", src.defects, src.warnings))


def csv_corpus(src: Source) -> Parsed[Entry]:
    return Parsed(*_read_table(src.text, ",", src.defects, src.warnings))


def text_corpus(src: Source) -> Parsed[Entry]:
    """A plain-text source file and its optional line-aligned reference file; ids are line numbers."""
    ref = read_text(src.ref_path) if src.ref_path is not None else None
    entries, lines = _read_text_pair(src.text, ref, src.defects, src.warnings, src.packed)
    guessed = (code_from_extension(src.path.suffix),
               code_from_extension(src.ref_path.suffix) if src.ref_path is not None else None)
    return Parsed({}, entries, lines, guessed_pair=guessed)
