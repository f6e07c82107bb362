"""A read-only workspace exports what it holds: the run card and the per-entry results of a scored
run (bringing its speaker-review block up to date in the exported copy only)."""

from __future__ import annotations

import hashlib
import json

from mteval_gui.app.exports import export_results, export_run_card
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as jstore
from tests.app.scoring_helpers import FAST, make_workspace


def _digest(ws: Workspace) -> str:
    return hashlib.sha256("\n".join(ws.conn.iterdump()).encode("utf-8")).hexdigest()


def test_a_read_only_workspace_exports_the_run_card_and_results(tmp_path):
    from mteval_gui.app.scoring import score_workspace_run

    db = tmp_path / "ws.sqlite"
    make_workspace(db, 6)
    ws = Workspace(db)
    score_workspace_run(ws, "r", metrics=["core.exact", "core.chrf"], **FAST)
    jstore.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana"))
    jstore.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id="e001", adequacy=4, fluency=5))
    ws.close()
    ro = Workspace(db, read_only=True)
    try:
        before = _digest(ro)
        card = export_run_card(ro, "r", tmp_path / "card.json")
        assert export_results(ro, "r", tmp_path / "results.csv") == 6
        assert _digest(ro) == before
    finally:
        ro.close()
    written = json.loads(card.read_text(encoding="utf-8"))
    assert written["run_id"] == "r"
    assert written["scores"]["exact_match_rate"] == 4 / 6
    assert (written["human_review"]["reviewers"], written["human_review"]["judgments"]) == (1, 1)
    lines = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and lines[1].startswith("e000,")
