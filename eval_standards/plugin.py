"""The declaration of the bundled evaluation standards (entry point ``eval_standards`` of ``mteval_gui.standards``).

The bundled standards register themselves exactly as an installed plugin package does: the
application finds this object through the entry point named in ``pyproject.toml`` and never
imports ``eval_standards`` by name. ÈwéBench is the suite they provide. Their language cards
are the application's bundled cards (``language_cards/``), so no cards folder is declared here.
The translations of the explanations the linter, the semantic validator and ÈwéBench write
are in ``messages/`` (``fr.json``).
"""

from __future__ import annotations

from mteval_gui.domain.plugin import StandardsPlugin, SuiteDecl

PLUGIN = StandardsPlugin(
    name="eval_standards",
    packages=["eval_standards"],
    suites=[SuiteDecl(name="ewebench", title="ÈwéBench", python_name="eval_standards.ewe.bench.suite:SUITE",
                      description="score ÈwéBench LLM suites for Ewe (ÈwéScore)")],
    messages="messages",
    description="Plains Cree linter and semantic validator; Ewe orthography, quality heuristic and ÈwéBench",
)
