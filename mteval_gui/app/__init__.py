"""The application layer: every use case once, shared by the CLI and the GUI.

``mteval_gui.cli`` and ``mteval_gui.qt`` import this package (and ``mteval_gui.domain``), never
the store or the core directly; this package joins the workspace (``store``) to the core
(``scoring``, ``fst``, ``validation``, ``benchmarks``, ``io``). One module per use case:

- ``workspace``: open a workspace, read what it holds; ``settings``: typed workspace settings.
- ``imports``: corpora, runs, glossaries; ``analyzers``: list and install analyzers.
- ``scoring``: scoring requests, jobs and the one background runner; ``scoring_config``: what
  to score and with which configuration (stored with each run, reused, stale runs found);
  ``evaluate``: one-shot scoring of files; ``compare``: paired tests between scored runs.
- ``runs``: the runs table (with the tier display); ``entries`` / ``entry_frame``: the entries
  table; ``entry_review``: what the review pane shows; ``diff``: character diffs.
- ``review``: reviewers, judgments, sign-off, metric validation and audits.
- ``exports``: run cards (one validated writer), results, entries, judgments, allowlists.
- ``bench``: LLM benchmark suites; ``standards``: language cards; ``models``: optional models.
- ``tasks``: background jobs in a thread or a child process, one cancellation type;
  ``demo``, ``startup``, ``preferences``: the demo workspace and what the GUI opens at start.
"""
