"""LLM benchmark suites (ÈwéBench): read a suite and a model's responses, score, store, export.

The CLI (``mteval ewebench``) and the GUI's ÈwéBench tab go through these functions.
"""

from __future__ import annotations

from mteval_gui.benchmarks.ewebench import rank_results, score_suite
from mteval_gui.io.ewebench import read_responses, read_suite
from mteval_gui.io.ewebench_export import (
    read_result_json, write_categories_csv, write_ranking_csv, write_result_json, write_results_csv,
)
from mteval_gui.store.benchmarks import (
    BenchmarkRunNotFound, delete_benchmark_run, get_benchmark_run, list_benchmark_runs, save_benchmark_run,
)

__all__ = [
    "rank_results", "score_suite", "read_responses", "read_suite", "read_result_json", "write_categories_csv",
    "write_ranking_csv", "write_result_json", "write_results_csv", "BenchmarkRunNotFound", "delete_benchmark_run",
    "get_benchmark_run", "list_benchmark_runs", "save_benchmark_run",
]
