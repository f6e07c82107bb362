"""A workspace for the exchange-format tests: one Cree corpus whose first two entries form a document,
and two runs with the given outputs."""

from __future__ import annotations

import json
from pathlib import Path

from mteval_gui.store import Workspace
from tests.store.judgment_helpers import add_corpus, add_outputs, add_run


def exchange_workspace(path: Path, outputs: dict[str, str]) -> Workspace:
    w = Workspace(path)
    add_corpus(w, "c", list(outputs), source_lang="eng", target_lang="crk")
    with w.transaction() as c:
        c.execute("UPDATE entries SET metadata = ? WHERE entry_id IN ('e1', 'e2')", (json.dumps({"document": "d1"}),))
    for run in ("sysA", "sysB"):
        add_run(w, run, "c")
        add_outputs(w, run, outputs)
    return w
