"""LLM benchmark suites: the framework that scores any suite a plugin package provides.

- :mod:`.suite`: :class:`~.suite.BenchmarkSuite`, what a suite plugin declares and implements
  (categories and weights, its test format and methods, the data it scores with);
- :mod:`.scoring`: test statuses, category scores, the weighted suite score and rankings.

Suites are found through the entry-point group ``mteval_gui.standards``
(:mod:`mteval_gui.standards`); ÈwéBench, the bundled one, is ``eval_standards.ewe.bench``.
Suite folders and responses are read by :mod:`mteval_gui.io.benchmark`, results written by
:mod:`mteval_gui.io.benchmark_export` and stored by :mod:`mteval_gui.store.benchmarks`.
"""
