"""MkDocs build hook of the user manual (``hooks:`` in ``mkdocs.yml``).

Adds the page ``reference/metric-glossary.md``, written while the manual builds from the
declarations of every built-in metric and installed language standard
(:func:`mteval_gui.app.manual.glossary_markdown`). The user's own cards folder is left out: the
build reads a fresh, empty per-user folder, so the manual describes what the application ships.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from mkdocs.structure.files import File, Files

GLOSSARY = "reference/metric-glossary.md"
ROOT = Path(__file__).resolve().parent.parent


def on_files(files: Files, config) -> Files:  # noqa: ANN001  (mkdocs' config object)
    # the checkout's own package first (so that a build in a work tree documents that work tree)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="mteval-manual-") as home:
        saved = os.environ.get("MTEVAL_HOME")
        os.environ["MTEVAL_HOME"] = home
        try:
            from mteval_gui.app.manual import glossary_markdown

            text = glossary_markdown()
        finally:
            if saved is None:
                os.environ.pop("MTEVAL_HOME", None)
            else:
                os.environ["MTEVAL_HOME"] = saved
    files.append(File.generated(config, GLOSSARY, content=text))
    return files
