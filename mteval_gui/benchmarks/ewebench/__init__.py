"""ÈwéBench: score LLM benchmark suites for Ewe and compute the ÈwéScore (SPEC §10).

- :mod:`.methods`: the six test methods (exact_match, keywords, multiple_choice, format,
  ewe_quality, composite), each returning ``(score, explanation)``.
- :mod:`.scorer`: :func:`score_test`, :func:`score_suite` (tests → categories → ÈwéScore) and
  :func:`rank_results` (several models).

Suite and responses are read by :mod:`mteval_gui.io.ewebench`; results are written by
:mod:`mteval_gui.io.ewebench_export` and stored by :mod:`mteval_gui.store.benchmarks`. The Ewe
knowledge (letters, look-alike folds, word lists, the quality heuristic) comes from the Ewe
evaluation standard, :mod:`eval_standards.ewe`.
"""

from mteval_gui.benchmarks.ewebench.scorer import Ranking, ewe_score, rank_results, score_suite, score_test

__all__ = ["Ranking", "ewe_score", "rank_results", "score_suite", "score_test"]
