"""LLM benchmark suites (ÈwéBench)."""
