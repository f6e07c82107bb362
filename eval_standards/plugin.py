"""The declaration of the bundled evaluation standards (entry point ``eval_standards`` of ``mteval_gui.standards``).

The bundled standards register themselves exactly as an installed plugin package does: the
application finds this object through the entry point named in ``pyproject.toml`` and never
imports ``eval_standards`` by name. Their language cards are the application's bundled cards
(``language_cards/``), so no cards folder is declared here.
"""

from __future__ import annotations

from mteval_gui.domain.plugin import StandardsPlugin

PLUGIN = StandardsPlugin(
    name="eval_standards",
    packages=["eval_standards"],
    description="Plains Cree linter and semantic validator; Ewe orthography and quality heuristic",
)
