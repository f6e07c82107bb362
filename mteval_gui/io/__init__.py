"""Readers and writers of every input format (SPEC §1).

- :func:`read_corpus`, :func:`read_run`, :func:`read_glossary` read and check one file and
  raise one :class:`~mteval_gui.errors.InputError` listing every defect;
- :func:`detect_format` and :func:`preview` serve the import dialogs; both, like the readers,
  ask the registry of input formats (:mod:`mteval_gui.io.formats`);
- :mod:`mteval_gui.io.writers` exports corpora, runs and entry tables.
"""

from mteval_gui.io.corpus import read_corpus
from mteval_gui.io.detect import Preview, detect_format, preview
from mteval_gui.io.glossary import read_glossary
from mteval_gui.io.runs import read_run

__all__ = ["Preview", "detect_format", "preview", "read_corpus", "read_glossary", "read_run"]
