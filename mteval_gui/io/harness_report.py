"""A scored run as the reference harness's TestReport (``run_*_report.json``).

The harness's dashboard, run-card renderer and report linter read this shape: ``run_id``,
``config``, ``overall``, ``by_segment``, ``by_difficulty``, ``by_domain`` and ``entries[]``.
Written from a run card (the numbers) with the run's outputs and the corpus entries (the texts,
costs and groups), it holds the same numbers as the card under the harness's names:

- ``overall.corpus_chrf``/``corpus_bleu``/``corpus_ter`` are the card's ``chrf_plus_plus``/``bleu``/
  ``ter``, rounded to 2 decimals as the harness writes them (errored outputs are scored as empty
  text here, where the harness leaves them out: caveat ``errors_scored_empty``); the interval of
  each is under ``overall.confidence_intervals``;
- ``avg_chrf``/``avg_bleu``/``exact_match_*``/``miss_*``/latency and cost aggregates are computed
  over the entries without an error, as the harness computes them (its linter recomputes them);
- per entry: ``chrf_score``/``ter_score`` are the sentence values of the card; ``bleu_score`` is the
  harness's: sacrebleu's BLEU of the one line as a corpus (no effective order; 0.0 for an error or
  an empty text), where the card's sentence BLEU uses the effective order (they differ on short
  lines, and so would the harness's ``avg_bleu``);
- groups: ``by_difficulty`` keys are the difficulty (``"0"`` when none), ``by_segment`` the segment
  (``"unknown"`` when none), ``by_domain`` the domain (``""`` when none), as the harness groups.

The card's other scores (composite, FST acceptance, the language's own metrics) have no place
in the TestReport; they are kept, with both fingerprints, under ``overall.mteval`` (the harness's
readers ignore it). A run read from a harness report keeps that report's ``config``; any other
run gets one made from its metadata (model, condition, temperature, languages, corpus id as
``corpus_path`` so that re-importing finds or recreates the corpus).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output

# card key -> (harness overall key, harness interval key)
_CORPUS_KEYS: tuple[tuple[str, str, str], ...] = (
    ("chrf_plus_plus", "corpus_chrf", "corpus_chrf"),
    ("bleu", "corpus_bleu", "corpus_bleu"),
    ("ter", "corpus_ter", "corpus_ter"),
)
_INTERVALS: tuple[tuple[str, str], ...] = (
    ("chrf_plus_plus", "corpus_chrf"), ("bleu", "corpus_bleu"), ("exact_match_rate", "exact_match_rate"),
    ("composite", "composite_score"),
)


def _r(v: Any, digits: int) -> float | None:
    return None if v is None else round(float(v), digits)


def _config(card: Mapping[str, Any], meta: Mapping[str, Any], source: str, target: str) -> dict[str, Any]:
    found = meta.get("harness_config")
    if isinstance(found, Mapping):
        return dict(found)
    dataset = card.get("dataset") or {}
    return {
        "dataset": dataset.get("id"), "dataset_id": dataset.get("id"),
        "corpus_path": f"{dataset.get('id')}.json",
        "source_lang": source, "target_lang": target, "target_lang_code": target,
        "model": card.get("model_slug") or card.get("run_id"), "_model_id": card.get("model_id"),
        "prompt_version": card.get("condition"), "temperature": card.get("temperature"),
        "_effective_temperature": card.get("temperature"), "batch_size": card.get("batch_size"),
        "tools_enabled": card.get("tools_enabled"), "run_name": card.get("run_id"),
    }


def _line_bleu(bleu: Any, predicted: str, expected: str, error: Any) -> float:
    """The harness's per-entry BLEU: ``BLEU().corpus_score([predicted], [[expected]]).score`` for an
    entry without error whose texts are both non-empty, else 0.0 (its default)."""
    if error or not predicted or not expected:
        return 0.0
    return float(bleu.corpus_score([predicted], [[expected]]).score)


def _entry(res: Mapping[str, Any], entry: Entry | None, out: Output | None, length_metric: str | None,
           bleu: Any) -> dict:
    metrics = res.get("metrics") or {}
    ratio = metrics.get(length_metric) if length_metric else None
    tool_calls = (out.model_extra or {}).get("tool_call_count") if out is not None else None
    latency = out.latency_s if out is not None and out.latency_s is not None else res.get("latency_seconds")
    usage = out.usage.model_dump(mode="json", exclude_none=True) if out is not None and out.usage else None
    return {
        "id": res.get("entry_id"), "source": res.get("source") or "", "expected": res.get("reference") or "",
        "raw_predicted": (out.raw_predicted if out is not None and out.raw_predicted is not None
                          else res.get("predicted") or ""),
        "predicted": res.get("predicted") or "",
        "segment": (entry.segment if entry is not None else None) or "",
        "difficulty": res.get("difficulty") or 0,
        "domain": (entry.domain if entry is not None else None) or "",
        "exact_match": bool(res.get("exact_match")),
        "chrf_score": res.get("entry_chrf"),
        "bleu_score": _line_bleu(bleu, res.get("predicted") or "", res.get("reference") or "", res.get("error")),
        "ter_score": res.get("entry_ter"),
        "length_ratio": ratio if ratio is not None else 0.0,
        "latency_s": latency,
        "cost_usd": (out.cost_usd if out is not None and out.cost_usd is not None else 0.0),
        "cached": bool(out.cached) if out is not None and out.cached is not None else False,
        "tool_call_count": tool_calls if isinstance(tool_calls, int) else 0,
        "error": res.get("error") or None,
        "plugin_metrics": {},
        **({"usage": usage} if usage else {}),
    }


def _latency(items: Sequence[dict[str, Any]]) -> float:
    """Mean latency of the entries that have one (3 decimals, as the harness writes it)."""
    known = [e["latency_s"] for e in items if e["latency_s"] is not None]
    return round(sum(known) / len(known), 3) if known else 0.0


def _group(name: str, items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    ok = [e for e in items if not e["error"]]
    exact = sum(1 for e in ok if e["exact_match"])
    n = len(ok)
    return {
        "name": name, "count": len(items), "exact_match_count": exact, "miss_count": n - exact,
        "error_count": len(items) - n,
        "avg_chrf": round(sum(e["chrf_score"] or 0.0 for e in ok) / n, 2) if n else 0.0,
        "avg_bleu": round(sum(e["bleu_score"] or 0.0 for e in ok) / n, 2) if n else 0.0,
        "avg_latency_s": _latency(ok),
        "total_cost_usd": round(sum(e["cost_usd"] for e in ok), 4),
        "plugin_aggregates": {},
    }


def _interval(ci: Mapping[str, Any], name: str) -> dict[str, Any]:
    lo, hi = ci.get("ci_lower"), ci.get("ci_upper")
    return {
        "metric_name": name, "score": ci.get("score"), "ci_lower": lo, "ci_upper": hi,
        "ci_width": None if lo is None or hi is None else round(hi - lo, 4),
        "n_bootstrap": ci.get("n_bootstrap"), "confidence_level": ci.get("confidence_level"),
        "n_entries": ci.get("n_entries"), "seed": ci.get("seed"),
    }


def _overall(card: Mapping[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    scores = card.get("scores") or {}
    ok = [e for e in entries if not e["error"]]
    n = len(ok)
    exact = sum(1 for e in ok if e["exact_match"])
    overall: dict[str, Any] = {
        "total_entries": len(entries), "error_count": len(entries) - n, "evaluated": n,
        "exact_match_count": exact, "exact_match_rate": round(exact / n, 4) if n else 0.0,
        "miss_count": n - exact, "miss_rate": round((n - exact) / n, 4) if n else 0.0,
    }
    if n:
        chrf = [e["chrf_score"] for e in ok if e["chrf_score"] is not None]
        bleu = [e["bleu_score"] for e in ok if e["bleu_score"] is not None]
        overall.update({
            "avg_chrf": round(sum(chrf) / len(chrf), 2) if chrf else 0.0,
            "avg_bleu": round(sum(bleu) / len(bleu), 2) if bleu else 0.0,
            "avg_latency_s": _latency(ok),
            "total_cost_usd": round(sum(e["cost_usd"] for e in ok if not e["cached"]), 4),
            "cached_cost_usd": round(sum(e["cost_usd"] for e in ok if e["cached"]), 4),
            "cached_entries": sum(1 for e in ok if e["cached"]),
            "total_tool_calls": sum(e["tool_call_count"] for e in ok),
        })
    for key, name, _ in _CORPUS_KEYS:
        overall[name] = _r(scores.get(key), 2)
    if scores.get("length_ratio") is not None:
        overall["avg_length_ratio"] = _r(scores["length_ratio"], 4)
    overall["comet_score"] = scores.get("comet_score")
    if scores.get("comet_score") is not None:
        overall["comet_model"] = scores.get("comet_model") or ""
    cis = scores.get("confidence_intervals") or {}
    intervals = {name: _interval(cis[key], name) for key, name in _INTERVALS if isinstance(cis.get(key), Mapping)}
    if intervals:
        overall["confidence_intervals"] = intervals
    by_tier = scores.get("confidence_intervals_by_tier") or {}
    tiers = {tier: {name: _interval(block[key], name) for key, name in _INTERVALS
                    if isinstance(block.get(key), Mapping)}
             for tier, block in by_tier.items() if isinstance(block, Mapping)}
    if any(tiers.values()):
        overall["confidence_intervals_by_tier"] = {t: v for t, v in tiers.items() if v}
    overall["mteval"] = {
        "scores": {k: v for k, v in scores.items() if not isinstance(v, (dict, list))},
        "composite_profile": card.get("composite_profile"),
        "fingerprint": (card.get("fingerprint") or {}).get("hash"),
        "score_fingerprint": (card.get("score_fingerprint") or {}).get("hash"),
        "condition": card.get("condition"),
    }
    return overall


def harness_report(card: Mapping[str, Any], *, entries: Mapping[str, Entry], outputs: Mapping[str, Output],
                   meta: Mapping[str, Any], source_lang: str, target_lang: str) -> dict[str, Any]:
    """The TestReport of a run card's JSON form (``entries``/``outputs`` by entry id; ``meta``: the
    run's metadata as stored)."""
    from sacrebleu.metrics import BLEU

    length_metric = (card.get("score_sources") or {}).get("length_ratio")
    bleu = BLEU()  # the harness's settings (tester.py): sacrebleu's defaults
    rows = [_entry(res, entries.get(str(res.get("entry_id"))), outputs.get(str(res.get("entry_id"))), length_metric,
                   bleu)
            for res in card.get("results") or []]
    by_segment: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_difficulty: dict[int, list[dict[str, Any]]] = defaultdict(list)
    by_domain: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_segment[row["segment"] or "unknown"].append(row)
        by_difficulty[row["difficulty"]].append(row)
        by_domain[row["domain"]].append(row)
    return {
        "run_id": card.get("run_id"),
        "config": _config(card, meta, source_lang, target_lang),
        "source_log": None,
        # the run log's names (the harness keeps them beside the report); read back by the importer
        "timestamp_start": meta.get("started_at"),
        "elapsed_s": card.get("elapsed_seconds"),
        "system_prompt_sha256": card.get("system_prompt_sha256"),
        "overall": _overall(card, rows),
        "by_segment": {k: _group(k, v) for k, v in by_segment.items()},
        "by_difficulty": {str(k): _group(f"difficulty_{k}", v) for k, v in sorted(by_difficulty.items())},
        "by_domain": {k: _group(k or "(no domain)", v) for k, v in sorted(by_domain.items())},
        "entries": rows,
    }
