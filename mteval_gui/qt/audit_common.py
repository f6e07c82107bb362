"""Parts shared by the two speaker audits (linter audit, FST audit; SPEC §9 tasks B and C).

- :class:`AuditScope`: which corpus, which of its runs and which reviewer are audited.
- :class:`ChoiceRow`: one question with its answer buttons, each bound to a key.
- :class:`AuditQueueTable`: the items to audit, with the reviewer's answer per item.
- :func:`side_by_side_html`: two texts with the characters that differ highlighted on both
  sides, in a neutral colour (the audit asks whether they mean the same; colours must not
  suggest which one is right).
- :func:`format_proportion`: a proportion with its Wilson interval and counts.
- :class:`AuditView`: what both audit views share: scope, queue, answer keys, saving each
  answer at once as a judgment, undo/redo, navigation, the results box.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.diff import char_diff
from mteval_gui.app.review import (
    current_judgments,
    judgment_history,
    list_reviewers,
    record_judgment,
    redo_last,
    undo_task,
)
from mteval_gui.app.settings import load_settings
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.judgments import Judgment
from mteval_gui.qt.dialogs import reporting_errors, show_error
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP
from mteval_gui.qt.page import Page
from mteval_gui.qt.table_model import Column, ColumnTableModel

DIFF_STYLE = "background-color:#ffe38a;"
COMPLETE_BG = "#e3f1e3"
PARTIAL_BG = "#fbf1d0"


def _esc(s: str) -> str:
    return html.escape(s).replace("  ", "&nbsp; ").replace("\n", "<br/>")


def side_by_side_html(a: str, b: str) -> tuple[str, str]:
    """HTML of ``a`` and of ``b``, each with the characters the other lacks highlighted."""
    left: list[str] = []
    right: list[str] = []
    for op in char_diff(a or "", b or ""):
        if op.kind == "equal":
            left.append(_esc(op.reference))
            right.append(_esc(op.output))
            continue
        if op.reference:
            left.append(f'<span style="{DIFF_STYLE}">{_esc(op.reference)}</span>')
        if op.output:
            right.append(f'<span style="{DIFF_STYLE}">{_esc(op.output)}</span>')
    return "".join(left), "".join(right)


def format_proportion(p: Any) -> str:
    """``0.667 [0.208, 0.939] (2/3)`` for a :class:`~mteval_gui.validation.audits.Proportion`; ``—`` when n = 0."""
    if p is None or p.value is None:
        return "—"
    return f"{p.value:.3f} [{p.ci_lower:.3f}, {p.ci_upper:.3f}] ({p.successes}/{p.n})"


def clock(ts: str | None) -> str:
    """The time of day of an ISO time stamp (``12:03:41``)."""
    if not ts:
        return ""
    return ts[11:19] if len(ts) >= 19 else ts


def _missing_hook(page: object, name: str) -> TypeError:
    """An audit view subclass must define every hook of :class:`AuditView` it uses."""
    return TypeError(f"{type(page).__name__} does not define the audit-page hook {name}()")


# the keys both audits share (besides their answer keys): keys, AuditView method, what the shortcuts help says
AUDIT_KEYS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("Return", "Enter"), "next_unanswered", QT_TRANSLATE_NOOP("AuditView", "next unanswered item")),
    (("Ctrl+Z",), "undo", QT_TRANSLATE_NOOP("AuditView", "undo your last answer")),
    (("Ctrl+Shift+Z",), "redo", QT_TRANSLATE_NOOP("AuditView", "redo your last answer")),
)


class AuditScope(QWidget):
    """Corpus, run (one or all of the corpus) and reviewer of an audit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws: Workspace | None = None
        self.reviewer_provider: Callable[[], str | None] = lambda: None
        self._loading = False
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(self.tr("Corpus:")))
        self.corpus = QComboBox()
        self.corpus.setObjectName("auditCorpus")
        lay.addWidget(self.corpus)
        lay.addWidget(QLabel(self.tr("Run:")))
        self.run = QComboBox()
        self.run.setObjectName("auditRun")
        self.run.setMinimumContentsLength(16)
        lay.addWidget(self.run)
        lay.addWidget(QLabel(self.tr("Reviewer:")))
        self.reviewer = QComboBox()
        self.reviewer.setObjectName("auditReviewer")
        self.reviewer.setMinimumContentsLength(14)
        lay.addWidget(self.reviewer)
        for combo in (self.corpus, self.run, self.reviewer):
            combo.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.corpus.currentIndexChanged.connect(self._corpus_changed)
        self.run.currentIndexChanged.connect(self._emit)
        self.reviewer.currentIndexChanged.connect(self._emit)

    def set_workspace(self, ws: Workspace | None) -> None:
        self.ws = ws
        self.reload()

    def reload(self) -> None:
        """Refill the lists from the workspace, keeping the current choices when they still exist."""
        corpus, run, reviewer = self.corpus.currentData(), self.run.currentData(), self.reviewer_id()
        self._loading = True
        try:
            self.corpus.clear()
            for c in (workspace.list_corpora(self.ws) if self.ws is not None else []):
                self.corpus.addItem(c["corpus_id"], c["corpus_id"])
            self.corpus.setCurrentIndex(max(self.corpus.findData(corpus), 0))
            self._fill_runs(run)
            self.reviewer.clear()
            for r in (list_reviewers(self.ws) if self.ws is not None else []):
                label = r.name if r.name == r.reviewer_id else f"{r.name} ({r.reviewer_id})"
                self.reviewer.addItem(label, r.reviewer_id)
            wanted = reviewer or self.reviewer_provider() or (
                load_settings(self.ws).default_reviewer if self.ws is not None else None)
            self.reviewer.setCurrentIndex(max(self.reviewer.findData(wanted), 0))
        finally:
            self._loading = False
        self.changed.emit()

    def _fill_runs(self, keep: str | None) -> None:
        self.run.clear()
        corpus = self.corpus.currentData()
        if self.ws is None or corpus is None:
            return
        self.run.addItem(self.tr("All runs of the corpus"), "")
        for r in workspace.list_runs(self.ws, corpus):
            self.run.addItem(r["run_id"], r["run_id"])
        self.run.setCurrentIndex(max(self.run.findData(keep), 0) if keep else 0)

    def _corpus_changed(self, *_: object) -> None:
        if self._loading:
            return
        self._loading = True
        try:
            self._fill_runs(None)
        finally:
            self._loading = False
        self.changed.emit()

    def _emit(self, *_: object) -> None:
        if not self._loading:
            self.changed.emit()

    def select(self, corpus_id: str | None = None, run_id: str | None = None, reviewer_id: str | None = None) -> None:
        """Choose the corpus, run ("" = all runs) and reviewer (for scripts and tests)."""
        if corpus_id is not None:
            self.corpus.setCurrentIndex(self.corpus.findData(corpus_id))
        if run_id is not None:
            self.run.setCurrentIndex(self.run.findData(run_id))
        if reviewer_id is not None:
            self.reviewer.setCurrentIndex(self.reviewer.findData(reviewer_id))

    def corpus_id(self) -> str | None:
        return self.corpus.currentData()

    def run_ids(self) -> list[str]:
        chosen = self.run.currentData()
        if chosen:
            return [chosen]
        return [self.run.itemData(i) for i in range(self.run.count()) if self.run.itemData(i)]

    def reviewer_id(self) -> str | None:
        return self.reviewer.currentData()


class ChoiceRow(QWidget):
    """A question and its answers as checkable buttons; ``chosen(value)`` when one is picked."""

    chosen = Signal(str)

    def __init__(self, title: str, options: Sequence[tuple[str, str, str]], name: str, parent: QWidget | None = None):
        """``options``: (stored value, shown label, key)."""
        super().__init__(parent)
        self.options = list(options)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(title)
        self.title.setMinimumWidth(130)
        lay.addWidget(self.title)
        self.group = QButtonGroup(self)
        self.group.setExclusive(False)
        self.buttons: dict[str, QPushButton] = {}
        for value, label, key in self.options:
            b = QPushButton(f"{key}  {label}")
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setObjectName(f"{name}_{value.replace(' ', '_')}")
            b.setToolTip(QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText))
            b.clicked.connect(lambda _=False, v=value: self.chosen.emit(v))
            self.group.addButton(b)
            self.buttons[value] = b
            lay.addWidget(b)
        lay.addStretch(1)

    def install_shortcuts(self, host: QWidget) -> list[QShortcut]:
        """The answer keys, active while the focus is anywhere inside ``host``."""
        out = []
        for value, _, key in self.options:
            sc = QShortcut(QKeySequence(key), host)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(lambda v=value: self._key(v))
            out.append(sc)
        return out

    def _key(self, value: str) -> None:
        if self.isEnabled():
            self.chosen.emit(value)

    def set_value(self, value: str | None) -> None:
        for v, b in self.buttons.items():
            b.setChecked(v == value)

    def value(self) -> str | None:
        return next((v for v, b in self.buttons.items() if b.isChecked()), None)


class AuditQueueModel(ColumnTableModel[int]):
    """Rows of the audit queue (text cells) plus the reviewer's answer and its state per row.

    The rows of the shared column model are row numbers into ``cells``/``answers``/``states``;
    cells are produced when the view asks for them, so a queue of tens of thousands of items
    costs lists, not widgets.
    """

    def __init__(self, headers: Sequence[str], parent: QObject | None = None):
        super().__init__(key=lambda i: i, parent=parent)
        self.headers = list(headers)
        self.cells: list[Sequence[str]] = []
        self.answers: list[str] = []
        self.states: list[str] = []
        colours = {"complete": COMPLETE_BG, "partial": PARTIAL_BG}

        def background(i: int) -> str | None:
            return colours.get(self.states[i])

        def cell(c: int) -> Callable[[int], str]:
            return lambda i: self.cells[i][c]

        last = len(self.headers) - 1
        columns = [Column(str(c), h, cell(c), tooltip=cell(c), background=background)
                   for c, h in enumerate(self.headers[:last])]
        columns.append(Column("answer", self.headers[last], lambda i: self.answers[i] or None,
                              tooltip=lambda i: self.answers[i] or None, background=background))
        self.set_columns(columns)

    def set_cells(self, rows: Sequence[Sequence[str]], answers: Sequence[str], states: Sequence[str]) -> None:
        self.cells, self.answers, self.states = list(rows), list(answers), list(states)
        self.set_rows(range(len(self.cells)))

    def set_answer(self, row: int, text: str, state: str) -> None:
        i = self.rows[row]
        self.answers[i], self.states[i] = text, state
        self.row_changed(row)


class AuditQueueTable(QTableView):
    """The audit items, one per row; the last column shows the reviewer's answer.

    ``current_changed`` is emitted when the selected row changes.
    """

    current_changed = Signal()

    def __init__(self, headers: Sequence[str], parent: QWidget | None = None):
        super().__init__(parent)
        self.queue_model = AuditQueueModel(headers, self)
        self.setModel(self.queue_model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        self.horizontalHeader().setResizeContentsPrecision(200)
        self.selectionModel().currentRowChanged.connect(lambda *_: self.current_changed.emit())

    def fill(self, rows: Sequence[Sequence[str]], answers: Sequence[str], states: Sequence[str]) -> None:
        """Show ``rows`` (cells before the answer column) with each row's answer text and state."""
        self.queue_model.set_cells(rows, answers, states)
        self.resizeColumnsToContents()

    def set_answer(self, row: int, text: str, state: str) -> None:
        """Show the answer of ``row``; ``state`` is ``complete``, ``partial`` or ``""``."""
        self.queue_model.set_answer(row, text, state)

    def cell(self, row: int, column: int) -> str:
        return str(self.queue_model.data(self.queue_model.index(row, column)) or "")

    def rowCount(self) -> int:  # noqa: N802 (QTableWidget-like)
        return self.queue_model.rowCount()

    def current(self) -> int:
        index = self.selectionModel().currentIndex()
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else (index.row() if index.isValid() else -1)

    def go(self, row: int) -> None:
        if 0 <= row < self.rowCount():
            index = self.queue_model.index(row, 0)
            self.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)


class AuditView(Page):
    """One speaker audit: scope bar, queue, the current item, answer keys and the results.

    Subclasses set :attr:`TASK`, build the item card (:meth:`build_card`), the questions
    (:meth:`build_questions`) and the results (:meth:`build_results`), and say how items,
    answers and payloads look (:meth:`queue_loader`, :meth:`item_key`, :meth:`judgment_key`,
    :meth:`queue_cells`, :meth:`make_judgment`, :meth:`is_complete`, :meth:`answer_text`,
    :meth:`show_details`, :meth:`refresh_results`).

    Every answer is saved at once (:func:`mteval_gui.store.judgments.record_judgment`, committed
    before the call returns); answering another question of the same item records a new
    version holding all of the item's answers. Ctrl+Z undoes the reviewer's newest judgment of
    this task in the audited runs, Ctrl+Shift+Z redoes it, Return goes to the next unanswered item.
    """

    TASK = ""
    judgment_changed = Signal(str, str)  # run_id, entry_id
    queue_loaded = Signal()  # the queue read in the background is shown

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws: Workspace | None = None
        self.queue: list[Any] = []
        self.answers: dict[tuple, dict[str, Any]] = {}
        self.item: Any = None
        self._last_undo_run: str | None = None
        self._shortcuts: list[QShortcut] = []
        self.questions: dict[str, ChoiceRow] = {}
        self._rows: dict[tuple, int] = {}
        self.queue_task = self.task("queue", self.tr("Reading the audit queue"))

        lay = self.body_layout()
        top = QHBoxLayout()
        self.scope = AuditScope()
        self.scope.changed.connect(self.reload)
        top.addWidget(self.scope)
        self.build_toolbar(top)
        top.addStretch(1)
        self.auto_next = QCheckBox(self.tr("Next item once answered"))
        self.auto_next.setChecked(True)
        self.auto_next.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        top.addWidget(self.auto_next)
        lay.addLayout(top)

        vsplit = QSplitter(Qt.Orientation.Vertical)
        hsplit = QSplitter(Qt.Orientation.Horizontal)
        self.table = AuditQueueTable([*self.queue_headers(), self.tr("Your answer")])
        self.table.current_changed.connect(self._row_selected)
        hsplit.addWidget(self.table)
        card = QWidget()
        cl = QVBoxLayout(card)
        cl.setContentsMargins(6, 0, 0, 0)
        self.position = QLabel()
        self.position.setObjectName("auditPosition")
        cl.addWidget(self.position)
        self.build_card(cl)
        cl.addSpacing(8)
        for field, row in self.build_questions():
            row.chosen.connect(lambda v, f=field: self.answer(f, v))
            self.questions[field] = row
            cl.addWidget(row)
        nav = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("auditStatus")
        self.status.setWordWrap(True)
        nav.addWidget(self.status, 1)
        for text, slot, name in ((self.tr("◀ Previous"), self.previous, "auditPrevious"),
                                 (self.tr("Next ▶"), self.next, "auditNext"),
                                 (self.tr("Next unanswered (Return)"), self.next_unanswered, "auditNextOpen"),
                                 (self.tr("Undo (Ctrl+Z)"), self.undo, "auditUndo")):
            b = QPushButton(text)
            b.setObjectName(name)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(slot)
            nav.addWidget(b)
        cl.addLayout(nav)
        cl.addStretch(1)
        hsplit.addWidget(card)
        hsplit.setStretchFactor(0, 2)
        hsplit.setStretchFactor(1, 5)
        hsplit.setSizes([330, 900])
        vsplit.addWidget(hsplit)
        box = QGroupBox()
        self.results_box = box
        self.build_results(QVBoxLayout(box))
        vsplit.addWidget(box)
        vsplit.setStretchFactor(0, 3)
        vsplit.setStretchFactor(1, 2)
        vsplit.setSizes([600, 280])
        lay.addWidget(vsplit, 1)
        self._install_shortcuts()

    # ----- hooks ---------------------------------------------------------------------------
    def queue_headers(self) -> list[str]:
        """Titles of the queue columns before "Your answer"."""
        raise _missing_hook(self, "queue_headers")

    def build_toolbar(self, layout: QHBoxLayout) -> None:
        """Extra controls next to the scope bar."""

    def build_card(self, layout: QVBoxLayout) -> None:
        raise _missing_hook(self, "build_card")

    def build_questions(self) -> list[tuple[str, ChoiceRow]]:
        raise _missing_hook(self, "build_questions")

    def build_results(self, layout: QVBoxLayout) -> None:
        raise _missing_hook(self, "build_results")

    def queue_loader(self, run_ids: list[str]) -> Callable[[Workspace], list[Any]]:
        """A function that reads the queue of ``run_ids`` from a workspace; it runs in a worker
        thread, so it reads the view's options now and touches no widget."""
        raise _missing_hook(self, "queue_loader")

    def item_key(self, item: Any) -> tuple:
        raise _missing_hook(self, "item_key")

    def judgment_key(self, j: Judgment) -> tuple:
        raise _missing_hook(self, "judgment_key")

    def queue_cells(self, item: Any) -> list[str]:
        raise _missing_hook(self, "queue_cells")

    def make_judgment(self, item: Any, answers: dict[str, Any], reviewer: str) -> Judgment:
        raise _missing_hook(self, "make_judgment")

    def is_complete(self, payload: dict[str, Any] | None) -> bool:
        raise _missing_hook(self, "is_complete")

    def answer_text(self, payload: dict[str, Any]) -> str:
        raise _missing_hook(self, "answer_text")

    def position_text(self, row: int, total: int, done: int, item: Any) -> str:
        raise _missing_hook(self, "position_text")

    def show_details(self, item: Any) -> None:
        raise _missing_hook(self, "show_details")

    def clear_details(self) -> None:
        raise _missing_hook(self, "clear_details")

    def empty_queue_message(self) -> str:
        raise _missing_hook(self, "empty_queue_message")

    def refresh_results(self) -> None:
        raise _missing_hook(self, "refresh_results")

    def history(self, j: Judgment) -> list[Judgment]:
        """Every version of the judgment ``j`` belongs to."""
        assert self.ws is not None
        return judgment_history(self.ws, j.reviewer_id, j.run_id, j.entry_id, self.TASK)

    # ----- shortcuts -----------------------------------------------------------------------
    def _install_shortcuts(self) -> None:
        for row in self.questions.values():
            self._shortcuts += row.install_shortcuts(self)
        slots = {"undo": self.undo, "redo": self.redo, "next_unanswered": self.next_unanswered}
        for keys, name, _ in AUDIT_KEYS:
            for key in keys:
                sc = QShortcut(QKeySequence(key), self)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(slots[name])
                self._shortcuts.append(sc)

    # ----- workspace and queue -------------------------------------------------------------
    @property
    def reviewer_provider(self) -> Callable[[], str | None]:
        return self.scope.reviewer_provider

    @reviewer_provider.setter
    def reviewer_provider(self, fn: Callable[[], str | None]) -> None:
        self.scope.reviewer_provider = fn

    def set_workspace(self, ws: Workspace | None) -> None:
        self.item = None
        self.ws = ws
        for t in self._tasks.values():
            t.cancel()
        self._stale = True
        self.scope.set_workspace(ws)  # emits changed -> reload (now if shown, else when shown)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.table.setFocus()  # the answer keys work while the focus is inside the view

    def refresh(self) -> None:
        """Reread corpora, runs, reviewers, the queue and the results (keeps the current item)."""
        self.scope.reload()  # emits changed -> reload

    def reviewer_id(self) -> str | None:
        return self.scope.reviewer_id()

    def reload(self) -> None:
        """Reread the queue, the reviewer's answers and the results in the background; deferred while
        the view is hidden (reading a large run's stored results takes a moment: only the page in
        view pays for it)."""
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        keep = self.item_key(self.item) if self.item is not None else None
        runs = self.scope.run_ids()
        if self.ws is None or not runs:
            self.queue_task.cancel()
            self._apply_queue(keep, ([], {}))
            return
        ws, reviewer, task = self.ws, self.reviewer_id(), self.TASK
        loader = self.queue_loader(runs)  # reads its options here, in the GUI thread
        judgment_key = self.judgment_key

        def work(ctx: Any) -> tuple[list[Any], dict[tuple, dict[str, Any]]]:
            queue = loader(ws)
            answers: dict[tuple, dict[str, Any]] = {}
            for run_id in runs if reviewer else []:
                ctx.check()
                for j in current_judgments(ws, run_id=run_id, reviewer_id=reviewer, task=task):
                    answers[judgment_key(j)] = dict(j.payload)
            return queue, answers

        def failed(exc: BaseException) -> None:
            show_error(self, exc)
            self._apply_queue(keep, ([], {}))

        self.queue_task.start(work, on_done=lambda result: self._apply_queue(keep, result), on_error=failed,
                              workspace=ws)

    def _apply_queue(self, keep: tuple | None, result: tuple[list[Any], dict[tuple, dict[str, Any]]]) -> None:
        self.queue, self.answers = result
        self._rows = {self.item_key(q): i for i, q in enumerate(self.queue)}
        answers = [self._answer_cell(self.answers.get(self.item_key(q))) for q in self.queue]
        self.table.blockSignals(True)
        self.table.fill([self.queue_cells(q) for q in self.queue], [a for a, _ in answers], [st for _, st in answers])
        self.table.blockSignals(False)
        self.item = None
        if keep in self._rows:
            self.table.go(self._rows[keep])
        elif self.queue:
            first = self._next_open(-1)
            self.table.go(first if first >= 0 else 0)
        self._row_selected()
        self.refresh_results()
        self.queue_loaded.emit()

    def _answer_cell(self, p: dict[str, Any] | None) -> tuple[str, str]:
        """(answer text, ``complete``/``partial``/``""``) of a payload."""
        text = self.answer_text(p) if p else ""
        return text, ("complete" if self.is_complete(p) else "partial") if text else ""

    def _show_answer(self, row: int) -> None:
        self.table.set_answer(row, *self._answer_cell(self.answers.get(self.item_key(self.queue[row]))))

    def _next_open(self, after: int) -> int:
        n = len(self.queue)
        for row in [*range(after + 1, n), *range(0, max(after, 0))]:
            if not self.is_complete(self.answers.get(self.item_key(self.queue[row]))):
                return row
        return -1

    def answered_count(self) -> int:
        return sum(1 for key, p in self.answers.items() if key in self._rows and self.is_complete(p))

    # ----- the current item ----------------------------------------------------------------
    def _row_selected(self) -> None:
        row = self.table.current()
        self.item = self.queue[row] if 0 <= row < len(self.queue) else None
        self._show_item()

    def _ready(self) -> bool:
        return bool(self.ws is not None and self.item is not None and self.reviewer_id())

    def _show_item(self, saved: Judgment | None = None) -> None:
        ready = self._ready()
        for row in self.questions.values():
            row.setEnabled(ready)
        if self.item is None or self.ws is None:
            self.position.setText("")
            self.clear_details()
            for row in self.questions.values():
                row.set_value(None)
            self.status.setText(self._empty_message())
            return
        self.position.setText(self.position_text(self.table.current(), len(self.queue), self.answered_count(),
                                                 self.item))
        with reporting_errors(self):
            self.show_details(self.item)
        p = self.answers.get(self.item_key(self.item)) or {}
        for field, row in self.questions.items():
            row.set_value(p.get(field))
        if not self.reviewer_id():
            self.status.setText(self.tr("Create a reviewer (Review ▸ Reviewers…) to start the audit."))
        elif saved is not None:
            self.status.setText(self.tr("Saved {0} (version {1})").format(clock(saved.created_at), saved.version))
        elif any(v is not None for k, v in p.items() if k in self.questions):
            self.status.setText(self.tr("Answered"))
        else:
            self.status.setText(self.tr("Not answered yet"))

    def _empty_message(self) -> str:
        if self.ws is None:
            return ""
        if not self.reviewer_id():
            return self.tr("Create a reviewer (Review ▸ Reviewers…) to start the audit.")
        if not self.queue:
            return self.empty_queue_message()
        return ""

    # ----- answers -------------------------------------------------------------------------
    def answer(self, field: str, value: str) -> None:
        """Record ``field`` = ``value`` for the current item, now (with the item's other answers)."""
        reviewer = self.reviewer_id()
        if not self._ready() or reviewer is None:
            return
        assert self.ws is not None
        item = self.item
        key = self.item_key(item)
        answers = {f: v for f, v in (self.answers.get(key) or {}).items() if f in self.questions}
        answers[field] = value
        with reporting_errors(self) as report:
            saved = record_judgment(self.ws, self.make_judgment(item, answers, reviewer))
        if report.failed:
            return
        self.answers[key] = dict(saved.payload)
        row = self.table.current()
        self._show_answer(row)
        self._last_undo_run = None
        self.judgment_changed.emit(saved.run_id, saved.entry_id or "")
        self.refresh_results()
        if self.auto_next.isChecked() and self.is_complete(saved.payload):
            nxt = self._next_open(row)
            if nxt >= 0 and nxt != row:
                self.table.go(nxt)
                self.status.setText(self.tr("Saved {0} (version {1}); next item").format(
                    clock(saved.created_at), saved.version))
                return
        self._show_item(saved)

    def undo(self) -> None:
        reviewer = self.reviewer_id()
        if self.ws is None or not reviewer:
            return
        with reporting_errors(self) as report:
            what, j = undo_task(self.ws, reviewer, self.scope.run_ids(), self.TASK)
        if report.failed:
            return
        if what == "none" or j is None:
            self.status.setText(self.tr("Nothing to undo"))
        elif what == "other":
            self.status.setText(self.tr("Your latest judgment in these runs (task {0}, entry {1}) was not made in this "
                                    "audit: undo it where you made it.").format(j.task, j.entry_id or "—"))
        else:
            self._last_undo_run = j.run_id
            self._after_step(j, self.tr("Undone: entry {0}"))

    def redo(self) -> None:
        reviewer = self.reviewer_id()
        if self.ws is None or not reviewer or not self._last_undo_run:
            self.status.setText(self.tr("Nothing to redo"))
            return
        with reporting_errors(self) as report:
            j = redo_last(self.ws, reviewer, self._last_undo_run)
        if report.failed:
            return
        if j is None:
            self.status.setText(self.tr("Nothing to redo"))
            return
        self._after_step(j, self.tr("Redone: entry {0}"))

    def _after_step(self, j: Judgment, message: str) -> None:
        key = self.judgment_key(j)
        current = [h for h in self.history(j) if not h.undone and h.superseded_by is None]
        if current:
            self.answers[key] = dict(current[-1].payload)
        else:
            self.answers.pop(key, None)
        if key in self._rows:
            row = self._rows[key]
            self._show_answer(row)
            if row != self.table.current():
                self.table.go(row)
            else:
                self._show_item()
        self.status.setText(message.format(j.entry_id))
        self.judgment_changed.emit(j.run_id, j.entry_id or "")
        self.refresh_results()

    # ----- navigation ----------------------------------------------------------------------
    def next(self) -> None:
        self.table.go(self.table.current() + 1)

    def previous(self) -> None:
        self.table.go(self.table.current() - 1)

    def next_unanswered(self) -> None:
        current = self.table.current()
        row = self._next_open(current)
        if row >= 0:
            self.table.go(row)
        elif self.item is not None and not self.is_complete(self.answers.get(self.item_key(self.item))):
            self.status.setText(self.tr("This is the last unanswered item."))
        else:
            self.status.setText(self.tr("Every item is answered."))

    def select_item(self, key: tuple) -> bool:
        """Show the queue item with this key; False when it is not in the queue."""
        if key not in self._rows:
            return False
        self.table.go(self._rows[key])
        return True
