"""The plugin's declaration: the object the ``mteval_gui.standards`` entry point names.

``packages`` are the modules its cards may name metric classes from; ``cards`` is the folder
of language cards it ships, relative to this file's folder.
"""

from mteval_gui.domain.plugin import StandardsPlugin

PLUGIN = StandardsPlugin(
    name="kal_standard",
    packages=["kal_standard"],
    cards="cards",
    description="Kalaallisut: card and old-orthography linter",
)
