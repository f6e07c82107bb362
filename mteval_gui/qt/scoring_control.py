"""Scoring from the window: the plan, the child process, cancel and the progress of several runs.

:class:`ScoringController` is the window's one owner of scoring. :meth:`~ScoringController.score`
follows the rule of ``mteval score`` (:func:`mteval_gui.app.scoring_config.plan_scoring`):
unscored, interrupted and stale runs are scored, a run that is up to date only when the user says
so. The job runs in a child process through one :class:`~mteval_gui.qt.workers.JobManager`;
Runs ▸ Cancel scoring (Esc) and the progress panel's button cancel it, and closing the window
cancels it and waits (:meth:`~ScoringController.shutdown`). With the workspace setting ``cluster``
(Settings ▸ Ray cluster) the job's batches are scored on that Ray cluster; without Ray installed
nothing starts and a dialog says how to install it.

Several runs scored side by side share one progress bar: the entries scored so far against the
entries of the runs, a run not started yet counted at the mean size of those seen. The controller
says when a run stored partial results (:attr:`~ScoringController.run_progressed`) or finished
(:attr:`~ScoringController.run_finished`); what to reread is the window's and the pages' business.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox

from mteval_gui.app.tasks import JobOutcome, ProcessJob
from mteval_gui.app.workspace import Workspace
from mteval_gui.errors import MtevalError
from mteval_gui.qt.dialogs import show_error
from mteval_gui.qt.progress import ProgressPanel
from mteval_gui.qt.workers import JobManager, Worker


class ScoringController(QObject):
    started = Signal()
    finished = Signal(object)  # JobOutcome, after the window's state is updated
    run_progressed = Signal(str)  # run id: a batch of its results is stored
    run_finished = Signal(str)  # run id: its results are all stored

    def __init__(self, window: QMainWindow, progress: ProgressPanel):
        super().__init__(window)
        self.window = window
        self.progress = progress
        self.jobs = JobManager(self)
        self.worker: Worker | None = None
        self.kwargs: dict[str, Any] = {}  # the arguments of the last job started
        self.seen: dict[str, tuple[int, int]] = {}  # run id -> (entries scored, entries)
        self.done = 0  # runs finished (or failed) so far
        progress.cancel_requested.connect(self.cancel)

    def rescore_question(self, n: int) -> str:
        """The question asked before ``n`` up-to-date runs are scored again."""
        if n == 1:
            return self.tr("%n of the selected runs is up to date: its inputs have not changed since it was scored. "
                           "Score it again with its stored configuration?", "", n)
        return self.tr("%n of the selected runs are up to date: their inputs have not changed since they were "
                       "scored. Score them again with their stored configuration?", "", n)

    @property
    def running(self) -> bool:
        return self.worker is not None

    def _status(self, text: str, ms: int) -> None:
        self.window.statusBar().showMessage(text, ms)

    def score(self, ws: Workspace, run_ids: list[str]) -> None:
        if self.worker is not None:
            self._status(self.tr("Scoring is already running."), 4000)
            return
        from mteval_gui.app.scoring import require_cluster
        from mteval_gui.app.scoring_config import plan_scoring
        from mteval_gui.app.settings import load_settings

        try:
            cluster = load_settings(ws).cluster  # the workspace setting: where the batches are scored
            require_cluster(cluster)
            plan = plan_scoring(ws, run_ids)
            current = plan.skipped
            if current and self._confirm_rescore([p.message for p in current]):
                plan = plan_scoring(ws, run_ids, replace=True)
        except MtevalError as exc:
            show_error(self.window, exc)
            return
        if not plan.to_score:
            self._status(self.tr("Nothing to score: the selected runs are up to date."), 8000)
            return
        notes = [p.message for p in plan.to_score if p.message]
        if notes:
            self._status("  ·  ".join(notes), 15000)
        from mteval_gui.app.scoring import SCORE_RUNS_TARGET  # the scoring modules load when first needed

        self.kwargs = plan.job_kwargs(ws.path, cluster=cluster)
        worker = Worker(ProcessJob(SCORE_RUNS_TARGET, self.kwargs), name="scoring")
        worker.progress.connect(self.show_progress)
        worker.partial.connect(self.take_partial)
        worker.error.connect(self._error)  # a bound slot: runs in the GUI thread
        worker.finished.connect(self._finished)
        self.worker = worker
        self.seen, self.done = {}, 0
        self.progress.start(self.tr("Scoring {0} run(s)").format(len(plan.to_score)))
        self.jobs.start(worker)
        self.started.emit()

    def _confirm_rescore(self, messages: list[str]) -> bool:
        """Ask whether runs that are up to date are scored again (with their stored configuration)."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Score again?"), self.rescore_question(len(messages)),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.window)
        box.setDetailedText("\n".join(messages))
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _error(self, exc: BaseException) -> None:
        show_error(self.window, exc)

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def shutdown(self) -> None:
        """Cancel the job and wait for its thread (the window closes or opens another workspace)."""
        self.jobs.shutdown()

    def show_progress(self, p: Any) -> None:
        if p.count <= 1:
            title = self.tr("Run {0}/{1} {2}").format(p.index + 1, p.count, p.run_id)
            self.progress.update_progress(title, p.done, p.total, p.stage, p.message)
            return
        # several runs side by side: one bar for all of them
        if p.stage == "scoring" and p.total > 0:
            self.seen[p.run_id] = (p.done, p.total)
        done = sum(d for d, _ in self.seen.values())
        total = sum(t for _, t in self.seen.values())
        if self.seen:
            total += round(total / len(self.seen)) * max(0, p.count - len(self.seen))
        title = self.tr("Scoring {0} runs").format(p.count)
        finished = self.tr("{0} of {1} runs finished").format(self.done, p.count)
        # until a run scores its first batch, what the runs are doing (loading analyzers, models);
        # then a steady text: the ETA is keyed by it
        stage = self.tr("side by side") if self.seen else p.stage
        self.progress.update_progress(title, done, total, stage, finished)

    def take_partial(self, info: dict[str, Any]) -> None:
        run_id = info.get("run_id")
        if not run_id:
            return
        if "error" in info or info.get("finished"):  # a failed run is reported again when the job ends
            self.done += 1
            if run_id in self.seen:
                total = self.seen[run_id][1]
                self.seen[run_id] = (total, total)
        if "error" in info:
            return
        (self.run_finished if info.get("finished") else self.run_progressed).emit(run_id)

    def _finished(self, outcome: JobOutcome) -> None:
        self.worker = None
        self.progress.finish()
        messages = {"done": self.tr("Scoring finished."),
                    "cancelled": self.tr("Scoring cancelled; stored batches are kept."),
                    "failed": self.tr("Scoring failed.")}
        self._status(messages.get(outcome.status, ""), 8000)
        self.finished.emit(outcome)
