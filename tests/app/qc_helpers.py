"""A small two-system study for reviewer quality control and selection tests (SQL-inserted)."""

from __future__ import annotations

from mteval_gui.domain.judgments import Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.store.judgment_helpers import add_corpus, add_entry_metric, add_outputs, add_run

ENTRIES = [f"e{i}" for i in range(8)]
WORDS = ["ama", "kofi", "yaa", "esi", "kwame", "afua", "kojo", "abena", "yaw", "akosua"]


def output(run: int, i: int) -> str:
    return " ".join(WORDS[(i + k + run) % len(WORDS)] for k in range(4 + i % 3))


def make_study(ws: Workspace) -> Workspace:
    add_corpus(ws, "c", ENTRIES, target_lang="ewe")
    for r, run_id in enumerate(("s1", "s2")):
        add_run(ws, run_id, "c", tier="functional")
        add_outputs(ws, run_id, {e: output(r, i) for i, e in enumerate(ENTRIES)})
    # chrF: s1 is good on the even entries, s2 flat; TER (lower is better) disagrees with chrF on e3 and e5
    add_entry_metric(ws, "s1", "core.chrf", {e: (80.0 if i % 2 == 0 else 30.0) + i for i, e in enumerate(ENTRIES)})
    add_entry_metric(ws, "s2", "core.chrf", {e: 50.0 + i for i, e in enumerate(ENTRIES)})
    add_entry_metric(ws, "s1", "core.ter", {e: (20.0 if i % 2 == 0 else 70.0) - i for i, e in enumerate(ENTRIES)})
    add_entry_metric(ws, "s2", "core.ter", {e: (10.0 if i in (3, 5) else 50.0 - i) for i, e in enumerate(ENTRIES)})
    for rid, name in (("ama", "Ama"), ("kofi", "Kofi"), ("yaw", "Yaw")):
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=name, languages=["ewe"]))
    return ws
