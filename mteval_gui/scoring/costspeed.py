"""Cost and speed (SPEC §6, LYSS §6–7). Absent inputs give null, never 0.

- Tokens: prompt, completion, reasoning, cached; ``total = prompt + completion``;
  ``tokens_per_entry`` over all entries. Null when no output carries usage.
- Cost: ``total_cost_usd`` sums each entry's ``cost_usd``, or for entries without one,
  its tokens × the run's pricing (USD per 1,000 tokens); null when no entry has either.
  ``cost_per_entry_usd`` divides by all entries, ``cost_per_1k_tokens`` by total tokens,
  ``cost_per_source_char`` by the characters of all sources.
- ``cost_adjusted = composite / max(1, log2(1 + 1000·cost_per_entry))`` — the seed formula
  with the denominator floored at 1 (below $0.001 per entry it would inflate scores).
- Speed: ``elapsed_seconds`` from the run metadata; average / median / p95 latency (numpy
  percentile, linear) over entries that report one; ``tokens_per_second`` =
  total tokens / elapsed; ``entries_per_minute`` = entries / (elapsed / 60).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mteval_gui.domain.run import Output, Pricing


def cost_adjusted(composite: float | None, cost_per_entry_usd: float | None) -> float | None:
    if composite is None or cost_per_entry_usd is None:
        return None
    denom = max(1.0, math.log2(1.0 + 1000.0 * float(cost_per_entry_usd)))
    return round(float(composite) / denom, 4)


def token_totals(outputs: Sequence[Output], n_entries: int) -> dict[str, Any]:
    keys = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens")
    sums: dict[str, int | None] = dict.fromkeys(keys)
    for o in outputs:
        if o.usage is None:
            continue
        for k in keys:
            v = getattr(o.usage, k, None)
            if v is not None:
                sums[k] = (sums[k] or 0) + int(v)
    prompt, completion = sums["prompt_tokens"], sums["completion_tokens"]
    total = None if prompt is None and completion is None else (prompt or 0) + (completion or 0)
    out: dict[str, Any] = dict(sums)
    out["total_tokens"] = total
    out["tokens_per_entry"] = (total / n_entries) if (total is not None and n_entries) else None
    return out


def _entry_cost(o: Output, pricing: Pricing | None) -> float | None:
    if o.cost_usd is not None:
        return float(o.cost_usd)
    if pricing is None or o.usage is None:
        return None
    parts = []
    if pricing.prompt_per_1k is not None and o.usage.prompt_tokens is not None:
        parts.append(o.usage.prompt_tokens * pricing.prompt_per_1k / 1000.0)
    if pricing.completion_per_1k is not None and o.usage.completion_tokens is not None:
        parts.append(o.usage.completion_tokens * pricing.completion_per_1k / 1000.0)
    return sum(parts) if parts else None


def cost_totals(outputs: Sequence[Output], *, pricing: Pricing | None, n_entries: int,
                source_chars: int, total_tokens: int | None) -> dict[str, Any]:
    costs = [c for c in (_entry_cost(o, pricing) for o in outputs) if c is not None]
    total = float(sum(costs)) if costs else None
    return {
        "total_cost_usd": total,
        "cost_per_entry_usd": (total / n_entries) if (total is not None and n_entries) else None,
        "cost_per_1k_tokens": (total / total_tokens * 1000.0) if (total is not None and total_tokens) else None,
        "cost_per_source_char": (total / source_chars) if (total is not None and source_chars) else None,
    }


def speed_scores(outputs: Sequence[Output], *, elapsed_seconds: float | None, n_entries: int,
                 total_tokens: int | None) -> dict[str, Any]:
    lat = np.array([float(o.latency_s) for o in outputs if o.latency_s is not None], dtype=np.float64)
    out: dict[str, Any] = {
        "avg_latency_seconds": float(lat.mean()) if lat.size else None,
        "median_latency_seconds": float(np.percentile(lat, 50)) if lat.size else None,
        "p95_latency_seconds": float(np.percentile(lat, 95)) if lat.size else None,
        "tokens_per_second": None,
        "entries_per_minute": None,
    }
    if elapsed_seconds is not None and elapsed_seconds > 0:
        if total_tokens is not None:
            out["tokens_per_second"] = total_tokens / elapsed_seconds
        if n_entries:
            out["entries_per_minute"] = n_entries / (elapsed_seconds / 60.0)
    return out
