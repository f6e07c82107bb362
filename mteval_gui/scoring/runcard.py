"""Run cards (SPEC §8, LYSS §9): assembling, validating and exporting.

The card is built by the runner from stored results; every LYSS §9 ``scores`` key is
present (null when unavailable). :func:`validate_run_card` checks a card against the
shipped JSON Schema (``resources/schemas/runcard.json``, generated from
:class:`mteval_gui.domain.runcard.RunCard`) when that file and ``jsonschema`` are
available, and always against the pydantic model.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mteval_gui.domain.base import build_models
from mteval_gui.domain.details import Verdict
from mteval_gui.domain.runcard import SEED_CI_PREFIXES, SEED_INTERVAL_ALIASES, SEED_SCORE_ALIASES, RunCard
from mteval_gui.domain.score_keys import SCORE_KEYS, keys_where
from mteval_gui.errors import MtevalError

# LYSS §9 scores keys, in the order of the seed's example (every one is always present): the
# declared keys marked ``lyss``, then the card's intervals, breakdowns and counts
LYSS_SCORE_KEYS: tuple[str, ...] = (
    *keys_where("lyss"), "confidence_intervals", "confidence_intervals_by_tier", "by_difficulty", "by_provenance",
    "total", "evaluated", "errors",
)

# the metric keys whose availability is always reported (beside each metric id)
AVAILABILITY_KEYS: tuple[str, ...] = keys_where("availability")

SCHEMA_FILE = "runcard.json"


def add_seed_aliases(score_values: dict[str, Any]) -> None:
    """Fill the seed's and the reference harness's names (``corpus_chrf``, ``chrf_ci_lower``,
    ``confidence_intervals.corpus_chrf``, …) from this tool's keys, in place."""
    for alias, key in SEED_SCORE_ALIASES.items():
        score_values[alias] = score_values.get(key)
    cis = score_values.get("confidence_intervals") or {}
    for prefix, key in SEED_CI_PREFIXES.items():
        ci = cis.get(key)
        lo = ci.get("ci_lower") if isinstance(ci, Mapping) else getattr(ci, "ci_lower", None)
        hi = ci.get("ci_upper") if isinstance(ci, Mapping) else getattr(ci, "ci_upper", None)
        score_values[f"{prefix}_ci_lower"], score_values[f"{prefix}_ci_upper"] = lo, hi
    for block in ("confidence_intervals", "confidence_intervals_by_tier"):
        d = score_values.get(block)
        if not isinstance(d, dict):
            continue
        targets = [d] if block == "confidence_intervals" else [v for v in d.values() if isinstance(v, dict)]
        for t in targets:
            for alias, key in SEED_INTERVAL_ALIASES.items():
                if key in t:
                    t[alias] = t[key]


class RunCardInvalid(MtevalError):
    """A run card does not conform to the schema."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("run card does not conform to its schema:\n" + "\n".join(problems))


def fingerprint(components: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of the components that determine a run card's numbers
    (the card's ``score_fingerprint``)."""
    blob = json.dumps(components, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# The reference harness's experiment fingerprint (its publish step and its run-card linter):
# these card fields, hashed as sorted JSON with the default separators (", " and ": ").
HARNESS_FINGERPRINT_KEYS: tuple[str, ...] = (
    "dataset_sha256", "model_slug", "condition", "system_prompt_sha256", "temperature", "batch_size",
    "tools_enabled", "harness_version",
)


def harness_fingerprint_components(card: Mapping[str, Any]) -> dict[str, Any]:
    """The harness's fingerprint components, read from a card's JSON form (the card fields they repeat)."""
    dataset = card.get("dataset") or {}
    return {key: (dataset.get("sha256") if key == "dataset_sha256" else card.get(key))
            for key in HARNESS_FINGERPRINT_KEYS}


def harness_fingerprint(components: Mapping[str, Any]) -> str:
    """sha256 of ``components`` as the harness hashes them: sorted keys, default separators, UTF-8."""
    blob = json.dumps(components, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any] | None:
    try:
        from mteval_gui.paths import schemas_dir

        path = schemas_dir() / SCHEMA_FILE
    except FileNotFoundError:
        return None
    if not path.is_file():
        return None
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@lru_cache(maxsize=1)
def _validator() -> Any:
    """The JSON Schema validator of run cards (None without the schema file or ``jsonschema``);
    built once per process."""
    schema = _schema()
    if schema is None:
        return None
    try:
        import jsonschema
    except ImportError:  # the pydantic model is the schema's source; enough without jsonschema
        return None
    return jsonschema.Draft202012Validator(schema)


def prepare_checks() -> None:
    """Import and build what :func:`validate_run_card` uses, ahead of the first card (the
    scoring process does this while its helper scores batches), and the run card's models."""
    from mteval_gui.domain import details, runcard

    build_models(details, runcard)
    _validator()


def validate_run_card(card: RunCard | Mapping[str, Any], *, results_sample: int | None = None) -> list[str]:
    """Problems of a run card (empty when valid): against the pydantic model, and against the
    shipped JSON Schema when that file and ``jsonschema`` are available.

    ``results_sample``: check only the first N ``results`` items (the runner does this for a
    card it has just built: every item was built, hence checked, by the pydantic model).
    """
    data = card.model_dump(mode="json") if isinstance(card, RunCard) else dict(card)
    checked = data
    if results_sample is not None and isinstance(data.get("results"), list):
        checked = {**data, "results": data["results"][:results_sample]}
    problems: list[str] = []
    try:
        RunCard.model_validate(checked)
    except ValidationError as exc:
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ())) or "(card)"
            problems.append(f"{loc}: {err.get('msg', 'invalid')}")
    missing = [k for k in LYSS_SCORE_KEYS if k not in (data.get("scores") or {})]
    if missing:
        problems.append(f"scores: missing keys {', '.join(missing)}")
    validator = _validator()
    if validator is not None:
        for err in sorted(validator.iter_errors(checked), key=lambda e: [str(p) for p in e.absolute_path]):
            loc = ".".join(str(p) for p in err.absolute_path) or "(card)"
            problems.append(f"{loc}: {err.message}")
    return problems


def ensure_valid(card: RunCard, *, results_sample: int | None = None) -> dict[str, Any]:
    """The card's JSON form, checked (:class:`RunCardInvalid` with the problems otherwise)."""
    data = card.model_dump(mode="json")
    problems = validate_run_card(data, results_sample=results_sample)
    if problems:
        raise RunCardInvalid(problems)
    return data


def save_run_card(card: RunCard, path: str | Path, *, results_sample: int | None = None) -> Path:
    """Write a run card after checking it against the schema (a card that does not conform is
    never written: :class:`RunCardInvalid`).

    ``results_sample``: check only the first N ``results`` items, as the runner does for a card
    it has just built (every item is checked by the pydantic model when it is built)."""
    return write_run_card(ensure_valid(card, results_sample=results_sample), path)


def run_card_json(card: RunCard | Mapping[str, Any]) -> str:
    """The exported form: indented UTF-8 JSON with every key present, one line per ``results``
    item (``card`` may be the card's JSON form, ``model_dump(mode="json")``, already made)."""
    return "".join(run_card_chunks(card))


def run_card_chunks(card: RunCard | Mapping[str, Any]) -> Iterator[str]:
    """:func:`run_card_json` in pieces, one per ``results`` item (a large card is written without
    its whole text in memory)."""
    data = card.model_dump(mode="json") if isinstance(card, RunCard) else card
    results = data.get("results")
    if not isinstance(results, Sequence) or isinstance(results, (str, bytes)) or not results:
        yield json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        return
    head = json.dumps({**data, "results": []}, ensure_ascii=False, indent=2)
    slot = '\n  "results": []'  # a key of the top level (deeper keys are indented further)
    before, after = head.split(slot, 1)
    yield before + '\n  "results": [\n    '
    for i, item in enumerate(results):
        yield (",\n    " if i else "") + json.dumps(item, ensure_ascii=False)
    yield "\n  ]" + after + "\n"


def write_run_card(card: RunCard | Mapping[str, Any], path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for chunk in run_card_chunks(card):
            fh.write(chunk)
    tmp.replace(p)
    return p


RESULT_CSV_COLUMNS: tuple[str, ...] = (
    "entry_id", "source", "reference", "predicted", "error", "difficulty", "provenance", "exact_match",
    "equivalence_verdict", "entry_chrf", "entry_bleu", "entry_ter", "length_ratio", "fst_accepted",
    "lint_verdict", "semantic_verdict", "code_switching", "hallucination", "terminology", "compliance",
    "comet", "latency_seconds",
)


def _verdict_text(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, Verdict):
        return f"{v.verdict} ({', '.join(v.classes)})" if v.classes else v.verdict
    if isinstance(v, Mapping):
        verdict = v.get("verdict")
        classes = v.get("classes")
        if classes:
            return f"{verdict} ({', '.join(map(str, classes))})"
        return None if verdict is None else str(verdict)
    return str(v)


# per-entry value columns of the results table: column -> (role, the scores key its metric supplies)
_VALUE_COLUMNS: dict[str, tuple[str, str]] = {
    str(k.role): (str(k.role), k.name) for k in SCORE_KEYS if k.entry_column and k.role is not None}


def _metric_for(card: RunCard, role: str, key: str) -> str | None:
    """The metric whose per-entry values fill a column: the one that supplied ``key``, else the
    first metric of ``role`` the card declares."""
    mid = card.score_sources.get(key)
    if mid is not None:
        return mid
    return next((m for m, d in card.metric_info.items() if d.role == role), None)


def results_table(card: RunCard) -> list[dict[str, Any]]:
    """One flat row per entry (columns :data:`RESULT_CSV_COLUMNS`) from a run card's ``results``."""
    value_metric = {col: _metric_for(card, role, key) for col, (role, key) in _VALUE_COLUMNS.items()}
    rows = []
    for r in card.results:
        metrics = r.metrics
        rows.append({
            "entry_id": r.entry_id, "source": r.source, "reference": r.reference, "predicted": r.predicted,
            "error": r.error, "difficulty": r.difficulty, "provenance": r.provenance,
            "exact_match": None if r.exact_match is None else int(r.exact_match),
            "equivalence_verdict": r.equivalence_verdict,
            "entry_chrf": r.entry_chrf, "entry_bleu": r.entry_bleu, "entry_ter": r.entry_ter,
            "fst_accepted": r.fst_accepted,
            "lint_verdict": _verdict_text(r.lint_verdict), "semantic_verdict": _verdict_text(r.semantic_verdict),
            **{col: metrics.get(mid) if mid is not None else None for col, mid in value_metric.items()},
            "latency_seconds": r.latency_seconds,
        })
    return rows
