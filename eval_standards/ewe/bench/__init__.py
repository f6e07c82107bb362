"""ÈwéBench: the LLM benchmark suite for Ewe (entry ``ewebench`` of the bundled standards' declaration).

- :mod:`.suite`: :data:`~.suite.SUITE`, the suite the framework scores (categories, weights,
  methods, the Ewe data it uses);
- :mod:`.model`: the test record format and its checks;
- :mod:`.methods`: the six test methods, each returning ``(score, explanation)``.
"""
