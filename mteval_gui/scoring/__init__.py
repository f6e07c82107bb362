"""The pure scoring core: no Qt, no store. numpy and sacrebleu; heavy libraries inside functions.

- metrics: :mod:`~mteval_gui.scoring.plugins` (the metric protocol, discovery and resolution),
  :mod:`~mteval_gui.scoring.builtins` and ``metrics/`` (the built-in metrics),
  :mod:`~mteval_gui.scoring.isolation` (a metric in a process of its own);
- numbers: :mod:`~mteval_gui.scoring.composite`, :mod:`~mteval_gui.scoring.stats` (sufficient
  statistics, bootstrap, paired tests), :mod:`~mteval_gui.scoring.costspeed`,
  :mod:`~mteval_gui.scoring.corpus_side` (reference-side statistics per corpus version);
- scoring one run: :func:`mteval_gui.scoring.runner.score_run` runs the stages in order, passing
  one :class:`~mteval_gui.scoring.job.ScoringJob` — :mod:`~mteval_gui.scoring.batches` (resolve,
  prepare, score in batches, with :mod:`~mteval_gui.scoring.parallel`'s forked helper, aggregate),
  :mod:`~mteval_gui.scoring.merge` (precedence, statistics, availability by key),
  :mod:`~mteval_gui.scoring.assembly` (the run card, :mod:`~mteval_gui.scoring.runcard`), with
  :mod:`~mteval_gui.scoring.progress` and :mod:`~mteval_gui.scoring.sink`.
"""
