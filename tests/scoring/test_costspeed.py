"""Cost and speed (SPEC §6): check value, floor, nulls never zeros."""

from __future__ import annotations

import pytest

from mteval_gui.domain.run import Output, Pricing, Usage
from mteval_gui.scoring.costspeed import cost_adjusted, cost_totals, speed_scores, token_totals


def test_cost_adjusted_check_value():
    assert cost_adjusted(0.75, 0.01) == 0.2168


def test_cost_adjusted_floor_and_nulls():
    assert cost_adjusted(0.75, 0.0005) == 0.75  # log2(1.5) < 1: floored, not inflated
    assert cost_adjusted(0.75, 0.0) == 0.75
    assert cost_adjusted(None, 0.01) is None
    assert cost_adjusted(0.75, None) is None


def _outs():
    return [
        Output(id="1", predicted="a", latency_s=1.0, cost_usd=0.002,
               usage=Usage(prompt_tokens=100, completion_tokens=20, reasoning_tokens=5, cached_tokens=0)),
        Output(id="2", predicted="b", latency_s=3.0, usage=Usage(prompt_tokens=50, completion_tokens=10)),
        Output(id="3", predicted="", error="HTTP 503"),
        Output(id="4", predicted="d", latency_s=2.0),
    ]


def test_token_totals():
    t = token_totals(_outs(), 4)
    assert t == {"prompt_tokens": 150, "completion_tokens": 30, "reasoning_tokens": 5, "cached_tokens": 0,
                 "total_tokens": 180, "tokens_per_entry": 45.0}


def test_tokens_absent_are_null():
    t = token_totals([Output(id="1", predicted="x")], 1)
    assert all(v is None for v in t.values())


def test_cost_from_entry_costs_and_pricing():
    pricing = Pricing(prompt_per_1k=0.01, completion_per_1k=0.03)
    c = cost_totals(_outs(), pricing=pricing, n_entries=4, source_chars=40, total_tokens=180)
    # entry 1: its own cost 0.002; entry 2: 50*0.01/1000 + 10*0.03/1000 = 0.0008
    assert c["total_cost_usd"] == pytest.approx(0.0028)
    assert c["cost_per_entry_usd"] == pytest.approx(0.0007)
    assert c["cost_per_1k_tokens"] == pytest.approx(0.0028 / 180 * 1000)
    assert c["cost_per_source_char"] == pytest.approx(0.00007)


def test_cost_absent_is_null_not_zero():
    c = cost_totals([Output(id="1", predicted="x")], pricing=None, n_entries=1, source_chars=10, total_tokens=None)
    assert c == {"total_cost_usd": None, "cost_per_entry_usd": None, "cost_per_1k_tokens": None,
                 "cost_per_source_char": None}


def test_speed_scores():
    s = speed_scores(_outs(), elapsed_seconds=120.0, n_entries=4, total_tokens=180)
    assert s["avg_latency_seconds"] == pytest.approx(2.0)
    assert s["median_latency_seconds"] == pytest.approx(2.0)
    assert s["p95_latency_seconds"] == pytest.approx(2.9)  # numpy linear: 2 + 0.9*(3-2)
    assert s["tokens_per_second"] == pytest.approx(1.5)
    assert s["entries_per_minute"] == pytest.approx(2.0)


def test_speed_without_inputs_is_null():
    s = speed_scores([Output(id="1", predicted="x")], elapsed_seconds=None, n_entries=1, total_tokens=None)
    assert all(v is None for v in s.values())
