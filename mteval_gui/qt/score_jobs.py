"""Scoring as a background job in a child process (no Qt; imported by the child).

:func:`score_runs` scores several runs one after the other with
:func:`mteval_gui.jobs.score_workspace_run`, which commits every batch to the
workspace. The child reports:

- progress: :class:`RunProgress` (which run, and the scorer's ``Progress``);
- partial: ``{"run_id", "done", "total"}`` after each committed batch, and
  ``{"run_id", "finished": True, "composite", "tier"}`` when a run's card is stored;

so the window can refresh the runs table and the entries of a run while scoring goes on.
Cancelling sets a ``multiprocessing.Event`` wrapped in the scorer's ``CancelToken``: the
scorer stops between batches, the batches already stored are kept (a later run resumes).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from mteval_gui.qt.jobs import Cancelled

SCORING_STAGE = "scoring"


@dataclass(frozen=True)
class RunProgress:
    run_id: str
    index: int  # 0-based position of the run in the job
    count: int
    done: int
    total: int
    stage: str
    message: str = ""


def score_runs(db_path: str, run_ids: list[str], options: dict[str, Any] | None = None, *,
               env: dict[str, str] | None = None, on_progress, on_partial, cancel_event) -> list[dict[str, Any]]:
    from mteval_gui.scoring.runner import CancelToken, ScoringCancelled
    from mteval_gui.store import Workspace
    from mteval_gui.jobs import score_workspace_run

    os.environ.update(env or {})
    token = CancelToken(cancel_event)
    ws = Workspace(db_path)
    summaries: list[dict[str, Any]] = []
    try:
        for index, run_id in enumerate(run_ids):
            def progress(p: Any, run_id: str = run_id, index: int = index) -> None:
                on_progress(RunProgress(run_id, index, len(run_ids), int(p.done), int(p.total), str(p.stage),
                                        str(getattr(p, "message", "") or "")))
                if p.stage == SCORING_STAGE and p.done > 0:
                    on_partial({"run_id": run_id, "done": int(p.done), "total": int(p.total)})

            try:
                result = score_workspace_run(ws, run_id, options=dict(options or {}), on_progress=progress, cancel=token)
            except ScoringCancelled as exc:
                raise Cancelled(str(exc)) from exc
            card = result.run_card
            summary = {"run_id": run_id, "finished": True, "composite": card.scores.composite,
                       "tier": card.scores.quality_tier}
            on_partial(summary)
            summaries.append(summary)
    finally:
        ws.close()
    return summaries
