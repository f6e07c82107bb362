"""Export a scored run as the reference harness's TestReport (``mteval export harness-report``).

The numbers come from the run's current card (:func:`mteval_gui.app.exports.current_run_card`);
the texts, costs and groups from its outputs and the corpus entries. The shape and what is kept
or lost are described in :mod:`mteval_gui.io.harness_report`; ``mteval import run`` reads the file
back (format ``harness-report``) to the same outputs and numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

from mteval_gui.app.exports import current_run_card
from mteval_gui.io.harness_report import harness_report
from mteval_gui.io.outputs import write_output
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace


def export_harness_report(ws: Workspace, run_id: str, path: str | Path) -> Path:
    """Write the TestReport of ``run_id`` (which must be scored) to ``path``."""
    card = current_run_card(ws, run_id).model_dump(mode="json")
    run = repo.get_run(ws, run_id)
    corpus = repo.get_corpus(ws, run.corpus_id)
    report = harness_report(
        card, entries={e.id: e for e in corpus.entries}, outputs={o.id: o for o in run.outputs},
        meta=run.meta.model_dump(mode="json"), source_lang=corpus.language_pair.source,
        target_lang=corpus.language_pair.target)
    return write_output(path, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
