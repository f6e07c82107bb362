"""mteval-gui: a workbench for evaluating MT and LLM output in low-resource languages.

Importing this package is cheap: no Qt, hfst, torch or COMET is imported here.
"""

__version__ = "0.1.0"
