"""Turning one decoded record (a JSON object, a table row) into an Entry or an Output.

The checks are explicit so every problem gets a precise message naming the field, and all
problems of a record are reported together. Text is normalised to NFC here (SPEC §2).
Fields a corpus entry does not define are kept in its ``metadata`` (and listed once as a
warning); fields an output does not define are kept as the output's extra data.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence, Set
from typing import Any, Literal, overload

from mteval_gui.domain.base import construct, constructor
from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output, Usage
from mteval_gui.io.textfile import DefectList

ENTRY_FIELDS = frozenset(Entry.model_fields)
OUTPUT_FIELDS = frozenset(Output.model_fields)
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens")

# Other names under which the fields of an entry appear in common files.
ENTRY_ALIASES = {
    "expected": "reference",
    "target": "reference",
    "ref": "reference",
    "src": "source",
    "segment_id": "id",
    "entry_id": "id",
}
OUTPUT_ALIASES = {
    "entry_id": "id",
    "hypothesis": "predicted",
    "output": "predicted",
    "prediction": "predicted",
    "translation": "predicted",
    "latency": "latency_s",
    "latency_seconds": "latency_s",
    "cost": "cost_usd",
}

_ENTRY_NAMES = tuple(Entry.model_fields)
_OUTPUT_NAMES = tuple(Output.model_fields)
_USAGE_NAMES = tuple(Usage.model_fields)


_USAGE_SET = frozenset(_USAGE_NAMES)


# OpenAI-shaped usage nests two counts (seed §6.1): field -> (the object holding it, its key there).
NESTED_USAGE = {
    "reasoning_tokens": ("completion_tokens_details", "reasoning_tokens"),
    "cached_tokens": ("prompt_tokens_details", "cached_tokens"),
}


def _lift_nested_usage(usage: dict[str, Any], dl: DefectList, line: int | None, label: str) -> dict[str, Any]:
    """``usage`` with ``reasoning_tokens`` / ``cached_tokens`` read from their nested OpenAI places
    (``completion_tokens_details.reasoning_tokens``, ``prompt_tokens_details.cached_tokens``) when
    not given flat; the nested objects are kept. Flat and nested counts that differ are a defect."""
    out = usage
    for key, (holder, inner) in NESTED_USAGE.items():
        details = usage.get(holder)
        if details is None:
            continue
        if not isinstance(details, dict):
            dl.add(line, f"{label}usage.{holder} must be an object, got {_type_name(details)}")
            continue
        nested = details.get(inner)
        if nested is None:
            continue
        if isinstance(nested, float) and nested.is_integer():
            nested = int(nested)
        if isinstance(nested, bool) or not isinstance(nested, int) or not 0 <= nested <= _INT64_MAX:
            dl.add(line, f"{label}usage.{holder}.{inner} must be a count from 0 to 2^63-1, got {_shown(nested)}")
            continue
        flat = usage.get(key)
        if flat is None:
            out = {**out, key: nested}
        elif flat != nested:
            dl.add(line, f"{label}usage.{key} ({_shown(flat)}) differs from usage.{holder}.{inner} "
                         f"({_shown(nested)})")
    return out


def make_usage(d: dict[str, Any]) -> Usage:
    """A Usage from a checked dict (unknown keys kept as extra, like the model does)."""
    get = d.get
    values = {k: get(k) for k in _USAGE_NAMES}
    extra = {} if d.keys() <= _USAGE_SET else {k: v for k, v in d.items() if k not in _USAGE_SET}
    return construct(Usage, values, extra)


def make_output(id: str, predicted: str = "", *, raw_predicted: str | None = None, latency_s: float | None = None,
                cost_usd: float | None = None, cached: bool | None = None, usage: Usage | None = None,
                error: str | None = None, extra: dict[str, Any] | None = None) -> Output:
    """An Output from checked values."""
    return construct(Output, {"id": id, "predicted": predicted, "raw_predicted": raw_predicted, "latency_s": latency_s,
                              "cost_usd": cost_usd, "cached": cached, "usage": usage, "error": error}, extra or {})


def make_entry(id: str, source: str, reference: str | None = None, *, variants: list[str] | None = None,
               terminology: dict[str, list[str]] | None = None, difficulty: int | None = None,
               domain: str | None = None, register: str | None = None, segment: str | None = None,
               provenance: str | dict[str, Any] | None = None, phenomena: list[str] | None = None,
               expected_morphology: dict[str, str] | None = None, metadata: dict[str, Any] | None = None) -> Entry:
    """An Entry from checked values."""
    return construct(Entry, {
        "id": id, "source": source, "reference": reference, "variants": variants or [],
        "terminology": terminology or {}, "difficulty": difficulty, "domain": domain, "register": register,
        "segment": segment, "provenance": provenance, "phenomena": phenomena or [],
        "expected_morphology": expected_morphology or {}, "metadata": metadata or {},
    })


_normalize = unicodedata.normalize
_is_nfc = unicodedata.is_normalized


def nfc(s: str) -> str:
    return s if _is_nfc("NFC", s) else _normalize("NFC", s)


def nfc_deep(v: Any) -> Any:
    """NFC on every string of a JSON value (keys included)."""
    if isinstance(v, str):
        return nfc(v)
    if isinstance(v, list):
        return [nfc_deep(x) for x in v]
    if isinstance(v, dict):
        return {nfc(k) if isinstance(k, str) else k: nfc_deep(x) for k, x in v.items()}
    return v


def _type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


MAX_ID_LENGTH = 256
_INT64_MAX = 2**63 - 1


def _shown(v: Any, n: int = 40) -> str:
    r = repr(v)
    return r if len(r) <= n else f"{r[:n]}... ({len(r)} characters)"


def record_id(v: Any) -> str | None:
    """An id as a string (ints are stringified); None if it is not usable as an id."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        s = str(v)
        return s if len(s) <= MAX_ID_LENGTH else None
    if isinstance(v, str) and v.strip():
        s = nfc(v.strip())
        return s if len(s) <= MAX_ID_LENGTH and not _has_control(s) else None
    return None


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _has_control(s: str) -> bool:
    return _CONTROL.search(s) is not None


def id_problem(v: Any, what: str = "id") -> str:
    """Why ``v`` is not usable as an id (for a value :func:`record_id` refused)."""
    if isinstance(v, (int, str)) and not isinstance(v, bool):
        s = str(v).strip()
        if len(s) > MAX_ID_LENGTH:
            return f"{what} is {len(s)} characters long (at most {MAX_ID_LENGTH})"
        if s and _has_control(s):
            return f"{what} {s!r} holds a control character (tab, newline...)"
    shown = repr(v) if len(repr(v)) <= 60 else repr(v)[:60] + "..."
    return f"{what} must be a non-empty string or an integer, got {shown}"


def _str_list(v: Any) -> list[str] | None:
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return [nfc(x) for x in v]
    return None


def split_fields(
    rec: dict[str, Any], known: Set[str], aliases: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(known fields, the rest) of a record; an alias names its field unless the field itself is given first."""
    if rec.keys() <= known:
        return rec, {}
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in rec.items():
        k = key if key in known else aliases.get(key, key)
        if k in known and k not in fields:
            fields[k] = value
        else:
            extra[key] = value
    return fields, extra


# the fields of a plain entry record (of most big corpora): checked by :func:`_plain_entry`
_PLAIN_ENTRY_KEYS = frozenset({"id", "source", "reference", "difficulty", "domain", "register", "segment"})


def _plain_entry(rec: dict[str, Any]) -> Entry | None:
    """The entry of a record that holds only :data:`_PLAIN_ENTRY_KEYS` with values of their usual
    types, all valid; None for any other record (the general checks then read it). The entry is
    the one the general checks make of the same record."""
    get = rec.get
    src, ref, diff = get("source"), get("reference"), get("difficulty")
    domain, register, segment = get("domain"), get("register"), get("segment")
    if (type(src) is not str or not src.strip() or (ref is not None and type(ref) is not str)
            or (diff is not None and (type(diff) is not int or not 1 <= diff <= 5))
            or (domain is not None and type(domain) is not str) or (register is not None and type(register) is not str)
            or (segment is not None and type(segment) is not str)):
        return None
    raw = get("id")
    eid = record_id(raw) if type(raw) is str or type(raw) is int else None
    if eid is None:
        return None
    return construct(Entry, {
        "id": eid, "source": nfc(src), "reference": None if ref is None else nfc(ref), "variants": [],
        "terminology": {}, "difficulty": diff, "domain": domain, "register": register, "segment": segment,
        "provenance": None, "phenomena": [], "expected_morphology": {}, "metadata": {},
    })


def entry_from_record(rec: Any, dl: DefectList, line: int | None, unknown: set[str]) -> Entry | None:
    """Validate one entry record. Problems go to ``dl``; returns None if the entry is unusable."""
    if type(rec) is dict and rec.keys() <= _PLAIN_ENTRY_KEYS:
        plain = _plain_entry(rec)
        if plain is not None:
            return plain
    if not isinstance(rec, dict):
        dl.add(line, f"an entry must be an object with 'id' and 'source', got {_type_name(rec)}")
        return None
    n_before = len(dl) + dl.dropped
    fields, extra = split_fields(rec, ENTRY_FIELDS, ENTRY_ALIASES)
    unknown.update(extra)

    eid = record_id(fields.get("id"))
    if "id" not in fields or fields["id"] is None:
        dl.add(line, "missing id")
    elif eid is None:
        dl.add(line, id_problem(fields["id"]))

    src = fields.get("source")
    label = f"entry {eid!r}: " if eid else ""
    if src is None:
        dl.add(line, f"{label}missing source")
    elif not isinstance(src, str):
        dl.add(line, f"{label}source must be a string, got {_type_name(src)}")
    elif not src.strip():
        dl.add(line, f"{label}empty source")

    ref = fields.get("reference")
    if ref is not None and not isinstance(ref, str):
        dl.add(line, f"{label}reference must be a string or null, got {_type_name(ref)}")
    variants = fields.get("variants")
    if variants is None:
        variants = []
    elif _str_list(variants) is None:
        dl.add(line, f"{label}variants must be a list of strings")
    terminology = fields.get("terminology") or {}
    if not isinstance(terminology, dict):
        dl.add(line, f"{label}terminology must be an object {{source term: [accepted target terms]}}")
        terminology = {}
    else:
        fixed: dict[str, list[str]] = {}
        for term, targets in terminology.items():
            if isinstance(targets, str):
                targets = [targets]
            if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
                dl.add(line, f"{label}terminology[{term!r}] must be a string or a list of strings")
                continue
            fixed[term] = targets
        terminology = fixed
    diff = fields.get("difficulty")
    if diff is not None:
        if isinstance(diff, float) and diff.is_integer():
            diff = int(diff)
        if isinstance(diff, bool) or not isinstance(diff, int):
            dl.add(line, f"{label}difficulty must be an integer 1-5, got {_shown(diff)}")
        elif not 1 <= diff <= 5:
            dl.add(line, f"{label}difficulty {_shown(diff)} out of range 1-5")
    for key in ("domain", "register", "segment"):
        v = fields.get(key)
        if v is not None and not isinstance(v, str):
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                fields[key] = str(v)
            else:
                dl.add(line, f"{label}{key} must be a string, got {_type_name(v)}")
    prov = fields.get("provenance")
    if prov is not None and not isinstance(prov, (str, dict)):
        dl.add(line, f"{label}provenance must be a string or an object, got {_type_name(prov)}")
    phen = fields.get("phenomena")
    if phen is None:
        phen = []
    elif _str_list(phen) is None:
        dl.add(line, f"{label}phenomena must be a list of strings")
    morph = fields.get("expected_morphology") or {}
    if not isinstance(morph, dict) or not all(isinstance(v, str) for v in morph.values()):
        dl.add(line, f"{label}expected_morphology must be an object {{word: \"lemma+Tag+Tag\"}}")
    meta = fields.get("metadata") or {}
    if not isinstance(meta, dict):
        dl.add(line, f"{label}metadata must be an object, got {_type_name(meta)}")
        meta = {}
    if len(dl) + dl.dropped > n_before or eid is None or not isinstance(src, str):  # each reported above
        return None
    if extra:
        meta = {**nfc_deep(extra), **meta}
    return make_entry(
        eid,
        nfc(src),
        nfc(ref) if isinstance(ref, str) else None,
        variants=[nfc(v) for v in variants],
        terminology=nfc_deep(terminology),
        difficulty=diff,
        domain=fields.get("domain"),
        register=fields.get("register"),
        segment=fields.get("segment"),
        provenance=nfc_deep(prov),
        phenomena=[nfc(p) for p in phen],
        expected_morphology=nfc_deep(morph),
        metadata=nfc_deep(meta) if meta else {},
    )


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_PLAIN_OUTPUT_KEYS = frozenset({"id", "predicted"})


def output_from_record(rec: Any, dl: DefectList, line: int | None) -> Output | None:
    """Validate one output record of a run."""
    if type(rec) is dict and rec.keys() <= _PLAIN_OUTPUT_KEYS:  # an id and a text (most big runs)
        pred, raw = rec.get("predicted"), rec.get("id")
        if pred is None or type(pred) is str:
            oid = record_id(raw) if type(raw) is str or type(raw) is int else None
            if oid is not None:
                return construct(Output, {"id": oid, "predicted": nfc(pred) if pred else "", "raw_predicted": None,
                                          "latency_s": None, "cost_usd": None, "cached": None, "usage": None,
                                          "error": None}, {})
    if not isinstance(rec, dict):
        dl.add(line, f"an output must be an object with 'id' and 'predicted', got {_type_name(rec)}")
        return None
    n_before = len(dl) + dl.dropped
    fields, extra = split_fields(rec, OUTPUT_FIELDS, OUTPUT_ALIASES)
    oid = record_id(fields.get("id"))
    if fields.get("id") is None:
        dl.add(line, "missing id")
    elif oid is None:
        dl.add(line, id_problem(fields["id"]))
    label = f"output {oid!r}: " if oid else ""
    pred = fields.get("predicted")
    if pred is not None and not isinstance(pred, str):
        dl.add(line, f"{label}predicted must be a string or null, got {_type_name(pred)}")
    raw = fields.get("raw_predicted")
    if raw is not None and not isinstance(raw, str):
        dl.add(line, f"{label}raw_predicted must be a string or null, got {_type_name(raw)}")
    for key in ("latency_s", "cost_usd"):
        v = fields.get(key)
        if v is not None and not _number(v):
            dl.add(line, f"{label}{key} must be a number, got {_shown(v)}")
        elif v is not None and v < 0:
            dl.add(line, f"{label}{key} must not be negative, got {_shown(v)}")
        elif isinstance(v, int) and v > _INT64_MAX:
            dl.add(line, f"{label}{key} is out of range, got {_shown(v)}")
    cached = fields.get("cached")
    if cached is not None:
        if cached in (0, 1) and not isinstance(cached, float):
            cached = bool(cached)
        else:
            dl.add(line, f"{label}cached must be true or false, got {cached!r}")
    usage = fields.get("usage")
    usage_obj = None
    if usage is not None:
        if not isinstance(usage, dict):
            dl.add(line, f"{label}usage must be an object, got {_type_name(usage)}")
        else:
            usage = _lift_nested_usage(usage, dl, line, label)
            for key in USAGE_FIELDS:
                v = usage.get(key)
                if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                    if isinstance(v, float) and v.is_integer() and 0 <= v <= _INT64_MAX:
                        usage = {**usage, key: int(v)}
                    else:
                        dl.add(line, f"{label}usage.{key} must be an integer, got {_shown(v)}")
                elif v is not None and not 0 <= v <= _INT64_MAX:
                    dl.add(line, f"{label}usage.{key} must be a count from 0 to 2^63-1, got {_shown(v)}")
            usage_obj = make_usage(usage)
    err = fields.get("error")
    if err is not None and not isinstance(err, str):
        err = json.dumps(err, ensure_ascii=False)
    if isinstance(err, str) and not err.strip():
        err = None
    if len(dl) + dl.dropped > n_before or oid is None:  # a missing or bad id is reported above
        return None
    return make_output(
        oid,
        nfc(pred) if pred else "",
        raw_predicted=nfc(raw) if isinstance(raw, str) else None,
        latency_s=fields.get("latency_s"),
        cost_usd=fields.get("cost_usd"),
        cached=cached,
        usage=usage_obj,
        error=nfc(err) if err else None,
        extra=nfc_deep(extra) if extra else {},
    )


# ----- whole files of plain records ----------------------------------------------------------
# A big corpus or run file usually holds records of one plain shape (an id and texts). The
# checks of :func:`entry_from_record` and :func:`output_from_record` are then made once per
# column over the whole file (types, blank and over-long ids, control characters, NFC, duplicate
# ids) instead of once per record; any record outside the plain shape, any defect and any text
# to normalise sends the whole file back to the per-record checks, which report it. The models
# made are those the per-record checks make of the same records.

_ENTRY_NAMES_ORDER = ("id", "source", "reference", "variants", "terminology", "difficulty", "domain", "register",
                      "segment", "provenance", "phenomena", "expected_morphology", "metadata")
_OUTPUT_NAMES_ORDER = ("id", "predicted", "raw_predicted", "latency_s", "cost_usd", "cached", "usage", "error")
_make_entry = constructor(Entry, _ENTRY_NAMES_ORDER)
_make_output = constructor(Output, _OUTPUT_NAMES_ORDER)
_NFC_JOIN = "\n"  # a character no composition involves: the joined texts are NFC exactly when each text is


def _plain_ids(ids: list[Any]) -> bool:
    """Every id a string that :func:`record_id` keeps as it is (stripped, short, no control
    character, NFC), and no id twice."""
    if not all(type(v) is str for v in ids):
        return False
    return (all(ids) and [v.strip() for v in ids] == ids and max(map(len, ids)) <= MAX_ID_LENGTH
            and not _has_control("".join(ids)) and _all_nfc(ids) and len(set(ids)) == len(ids))


def _all_nfc(texts: list[str]) -> bool:
    return _is_nfc("NFC", _NFC_JOIN.join(texts))


@overload
def plain_entries(records: Sequence[tuple[int | None, Any]]) -> tuple[list[Entry], dict[str, int]] | None: ...


@overload
def plain_entries(records: Sequence[tuple[int | None, Any]], columns: Literal[True]
                  ) -> tuple[PlainColumns[Entry], dict[str, int]] | None: ...


def plain_entries(records: Sequence[tuple[int | None, Any]], columns: bool = False
                  ) -> tuple[list[Entry] | PlainColumns[Entry], dict[str, int]] | None:
    """(entries, line of each id) of ``records`` (line, decoded record) when every record is a
    plain valid entry needing no normalisation (see above); None otherwise. ``columns``: the
    entries as :class:`~mteval_gui.domain.columns.PlainColumns` (made when asked for)."""
    recs = [r for _, r in records]
    if not recs or not all(type(r) is dict and r.keys() <= _PLAIN_ENTRY_KEYS for r in recs):
        return None
    ids = [r.get("id") for r in recs]
    srcs = [r.get("source") for r in recs]
    refs = [r.get("reference") for r in recs]
    diffs = [r.get("difficulty") for r in recs]
    optional = [[r.get(k) for r in recs] for k in ("domain", "register", "segment")]
    if not (_plain_ids(ids) and all(type(s) is str for s in srcs) and all(s.strip() for s in srcs)
            and all(v is None or type(v) is str for v in refs)
            and all(d is None or (type(d) is int and 1 <= d <= 5) for d in diffs)
            and all(v is None or type(v) is str for col in optional for v in col)
            and _all_nfc(srcs) and _all_nfc([v for v in refs if v is not None])):
        return None
    lines = dict(zip(ids, [line or 0 for line, _ in records], strict=True))
    if columns:
        return PlainColumns("entry", {"id": ids, "source": srcs, "reference": refs, "difficulty": diffs,
                                      "domain": optional[0], "register": optional[1], "segment": optional[2]},
                            _plain_entry_model), lines
    entries = list(map(_plain_entry_model, ids, srcs, refs, diffs, *optional))
    return entries, lines


def _plain_entry_model(i: str, s: str, ref: str | None, d: int | None, dom: str | None, reg: str | None,
                       seg: str | None) -> Entry:
    return _make_entry({"id": i, "source": s, "reference": ref, "variants": [], "terminology": {}, "difficulty": d,
                        "domain": dom, "register": reg, "segment": seg, "provenance": None, "phenomena": [],
                        "expected_morphology": {}, "metadata": {}}, None)


def _plain_output_model(i: str, p: str | None) -> Output:
    return _make_output({"id": i, "predicted": p or "", "raw_predicted": None, "latency_s": None, "cost_usd": None,
                         "cached": None, "usage": None, "error": None}, {})


@overload
def plain_outputs(records: Sequence[tuple[int | None, Any]]) -> tuple[list[Output], dict[str, int]] | None: ...


@overload
def plain_outputs(records: Sequence[tuple[int | None, Any]], columns: Literal[True]
                  ) -> tuple[PlainColumns[Output], dict[str, int]] | None: ...


def plain_outputs(records: Sequence[tuple[int | None, Any]], columns: bool = False
                  ) -> tuple[list[Output] | PlainColumns[Output], dict[str, int]] | None:
    """(outputs, line of each id) of ``records`` when every record is a plain valid output (an id
    and a text or null) needing no normalisation; None otherwise. ``columns``: the outputs as
    :class:`~mteval_gui.domain.columns.PlainColumns` (made when asked for; ``predicted`` as read,
    null included)."""
    recs = [r for _, r in records]
    if not recs or not all(type(r) is dict and r.keys() <= _PLAIN_OUTPUT_KEYS for r in recs):
        return None
    ids = [r.get("id") for r in recs]
    preds = [r.get("predicted") for r in recs]
    if not (_plain_ids(ids) and all(p is None or type(p) is str for p in preds)
            and _all_nfc([p for p in preds if p])):
        return None
    if columns:
        return PlainColumns("output", {"id": ids, "predicted": preds}, _plain_output_model), \
            dict(zip(ids, [line or 0 for line, _ in records], strict=True))
    outputs = list(map(_plain_output_model, ids, preds))
    return outputs, dict(zip(ids, [line or 0 for line, _ in records], strict=True))
