"""Task A ratings panel: adequacy and fluency 1–5, note and flag, driven by the keyboard.

Every change is recorded at once through :func:`mteval_gui.store.judgments.record_judgment`
(committed before the call returns), so a crash right after a keystroke loses nothing.
Changing a rating records a new version; Ctrl+Z undoes the reviewer's latest judgment in
this run and Ctrl+Shift+Z redoes it (the store keeps the history).

Keys (active while the review page has focus, except inside the note field) come from the key
map shared with the offline review pack (:mod:`mteval_gui.domain.review_keys`): 1–5 rate the
highlighted aspect and move the highlight on to the next one (adequacy, then fluency); Tab moves
it on without rating, Shift+Tab back. So "3 4" and "3 Tab 4" both record adequacy 3 and
fluency 4 (after the last aspect the highlight stays there). F toggles the flag. An entry opens
on its first aspect without a rating. Enter or Esc in the note or the correction keeps the text
(saved if it changed) and gives the keyboard back to the host's list (:attr:`RatingsPanel.field_left`),
so the next "1 1 Enter" rates and moves on instead of being typed into the note.

Error spans and a correction (:mod:`mteval_gui.qt.spans`) belong to the same judgment: S puts the
cursor in the output, Shift+arrows select, M / Shift+M mark minor / major, C picks the category,
Delete removes the span in hand, 0 records "no errors". Each change is a new version of the
judgment, recorded at once like a rating (and undone by Ctrl+Z like one).

An attention check or repeated item of the desktop queue (:mod:`mteval_gui.app.desktop_checks`)
is rated with the same keys and looks the same; its rating is recorded at once as the check's
answer (task ``check``), never as a rating of the real entry.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.desktop_checks import CheckSlot, DesktopQueue, check_history, check_judgment
from mteval_gui.app.review import (
    SpanTarget,
    entry_esa,
    judgment_esa,
    judgment_history,
    list_reviewers,
    record_judgment,
    redo_last,
    span_target,
    undo_last,
)
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.judgments import Judgment, judgment_correction, judgment_spans
from mteval_gui.domain.review_keys import FIELD_KEYS, RATING_KEYS, RATING_SCALES, KeyBinding, move_scale
from mteval_gui.errors import StoreError
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP
from mteval_gui.qt.labels import adequacy_labels, fluency_labels
from mteval_gui.qt.spans import SpanEditor

SPAN_KEYS = ("spans", "correction", "esa_score")  # the payload keys the span editor owns

DIMENSIONS = RATING_SCALES

# the error-span keys (the desktop's own): key, RatingsPanel method, what the shortcuts help says
SPAN_SHORTCUTS: tuple[tuple[str, str, str], ...] = (
    ("S", "focus_spans", QT_TRANSLATE_NOOP("RatingsPanel", "put the cursor in the output; Shift+arrows (or the mouse) "
                                                           "select")),
    ("M", "mark_minor", QT_TRANSLATE_NOOP("RatingsPanel", "mark the selection minor (nothing selected: the word under "
                                                          "the cursor; inside a marked span: change its severity)")),
    ("Shift+M", "mark_major", QT_TRANSLATE_NOOP("RatingsPanel", "mark the selection major")),
    ("Ctrl+M", "mark_critical", QT_TRANSLATE_NOOP("RatingsPanel", "mark the selection critical")),
    ("O", "mark_missing", QT_TRANSLATE_NOOP("RatingsPanel", "add a span marking missing content (M, Shift+M, Ctrl+M "
                                                            "then set its severity)")),
    ("E", "esa_score", QT_TRANSLATE_NOOP("RatingsPanel", "type your ESA score of the output, 0-100 (Enter keeps it)")),
    ("C", "span_category", QT_TRANSLATE_NOOP("RatingsPanel", "choose the category")),
    ("Del", "remove_span", QT_TRANSLATE_NOOP("RatingsPanel", "remove the span in hand")),
    ("0", "no_errors", QT_TRANSLATE_NOOP("RatingsPanel", "no errors found (Esc: back to the entries; each change is "
                                                         "saved at once and undone by Ctrl+Z)")),
)

_QT_KEY_NAMES = {"Enter": ("Return", "Enter"), "Escape": ("Esc",)}  # KeyboardEvent.key name -> Qt key names


def key_sequences(binding: KeyBinding) -> list[QKeySequence]:
    """The Qt key sequences of a binding of the shared key map (Enter is Return and the keypad's Enter)."""
    prefix = ("Ctrl+" if binding.ctrl else "") + ("Shift+" if binding.shift else "")
    names = _QT_KEY_NAMES.get(binding.key, (binding.key.upper() if len(binding.key) == 1 else binding.key,))
    return [QKeySequence(prefix + name) for name in names]


def rating_sequences(action: str) -> list[QKeySequence]:
    """The Qt key sequences of an action of the shared key map; redo also takes the platform's other
    Redo keys (Ctrl+Y on Windows)."""
    seqs = [seq for b in RATING_KEYS if b.action == action for seq in key_sequences(b)]
    if action == "redo":
        seqs += [seq for seq in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
                 if seq.toString() not in ("Ctrl+Shift+Z", "")]
    return seqs


def binding_of(event: QKeyEvent, bindings: tuple[KeyBinding, ...]) -> KeyBinding | None:
    """The binding of the shared key map a key press matches (None if none does)."""
    key = Qt.Key(event.key())
    mods = event.modifiers()
    shift = bool(mods & Qt.KeyboardModifier.ShiftModifier) or key == Qt.Key.Key_Backtab
    ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
    special = {Qt.Key.Key_Return: "Enter", Qt.Key.Key_Enter: "Enter", Qt.Key.Key_Escape: "Escape",
               Qt.Key.Key_Tab: "Tab", Qt.Key.Key_Backtab: "Tab"}
    name = special.get(key) or (event.text().lower() if len(event.text()) == 1 else "")
    for b in bindings:
        if b.key == name and b.shift == shift and b.ctrl == ctrl:
            return b
    return None


class RatingsPanel(QWidget):
    """Rates the current (run, entry) for the current reviewer."""

    judgment_changed = Signal(str, str)  # run_id, entry_id (recorded, undone or redone)
    reviewers_requested = Signal()
    reviewer_changed = Signal()  # another reviewer rates (not emitted when the list is only read again)
    spans_left = Signal()  # Esc in the output: the host gives the focus back to its list
    field_left = Signal()  # Enter or Esc in the note or the correction: the host gives the focus back to its list

    def __init__(self, ws: Workspace | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("ratingsPanel")
        self.ws = ws
        self.run_id: str | None = None
        self.entry_id: str | None = None
        self.reviewer_id: str | None = None
        self.check: tuple[DesktopQueue, CheckSlot] | None = None  # the queue's check the panel rates
        self.values: dict[str, int | None] = {"adequacy": None, "fluency": None}
        self.note = ""
        self.flagged = False
        self.payload: dict[str, object] = {}  # the current judgment's payload (spans, correction, ...)
        self.target: SpanTarget | None = None
        self.active = "adequacy"
        self._loading = False
        self._shortcuts: list[QShortcut] = []
        self._build()
        self._refresh()

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Reviewer:")))
        self.reviewer_combo = QComboBox()
        self.reviewer_combo.setObjectName("reviewerCombo")
        self.reviewer_combo.setMinimumContentsLength(14)
        self.reviewer_combo.currentIndexChanged.connect(self._reviewer_picked)
        top.addWidget(self.reviewer_combo, 1)
        manage = QPushButton(self.tr("Reviewers…"))
        manage.clicked.connect(self.reviewers_requested)
        top.addWidget(manage)
        outer.addLayout(top)

        grid = QGridLayout()
        self.dimension_labels: dict[str, QLabel] = {}
        self.groups: dict[str, QButtonGroup] = {}
        names = {"adequacy": self.tr("Adequacy"), "fluency": self.tr("Fluency")}
        self._dim_names = names
        labels = {"adequacy": adequacy_labels(), "fluency": fluency_labels()}
        for row, dim in enumerate(DIMENSIONS):
            lab = QLabel(names[dim])
            self.dimension_labels[dim] = lab
            grid.addWidget(lab, row, 0)
            group = QButtonGroup(self)
            group.setExclusive(False)
            for value in range(1, 6):
                b = QPushButton(f"{value} {labels[dim][value]}")
                b.setCheckable(True)
                b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                b.setObjectName(f"{dim}{value}")
                b.setMinimumWidth(checked_label_width(b))  # a chosen (bold) label never clips
                group.addButton(b, value)
                grid.addWidget(b, row, value)
            group.idClicked.connect(lambda value, d=dim: self.rate(d, value))
            self.groups[dim] = group
        outer.addLayout(grid)

        self.span_editor = SpanEditor()
        self.span_editor.changed.connect(self._spans_changed)
        self.span_editor.text.leave.connect(self.leave_spans)
        outer.addWidget(self.span_editor)

        bottom = QHBoxLayout()
        self.note_edit = QLineEdit()
        self.note_edit.setObjectName("noteEdit")
        self.note_edit.setPlaceholderText(self.tr("Note (Enter saves)"))
        self.note_edit.editingFinished.connect(self._note_finished)
        bottom.addWidget(self.note_edit, 1)
        for field in (self.note_edit, self.span_editor.correction_edit):
            field.installEventFilter(self)
        self.flag_box = QCheckBox(self.tr("Flag (F)"))
        self.flag_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.flag_box.clicked.connect(lambda checked: self.set_flag(bool(checked)))
        bottom.addWidget(self.flag_box)
        outer.addLayout(bottom)
        self.status = QLabel()
        self.status.setObjectName("ratingStatus")
        outer.addWidget(self.status)

    def install_shortcuts(self, host: QWidget) -> None:
        """Keys 1–5, Tab, F, Ctrl+Z and Ctrl+Shift+Z, active anywhere inside ``host``."""
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut

        def add(seq: QKeySequence | str, slot) -> None:
            sc = QShortcut(QKeySequence(seq), host)
            sc.setContext(ctx)
            sc.activated.connect(slot)
            self._shortcuts.append(sc)

        actions = {"next_scale": self.next_aspect, "previous_scale": self.previous_aspect,
                   "flag": lambda: self.set_flag(not self.flagged), "undo": self.undo, "redo": self.redo}
        for b in RATING_KEYS:  # the shared key map; next_unrated is the host's (its list moves)
            if b.action == "rate":
                for seq in key_sequences(b):
                    add(seq, lambda v=b.value: self.rate(self.active, v))
        for action, slot in actions.items():
            for seq in rating_sequences(action):  # "Shift+Tab" also matches Backtab, what Shift+Tab sends
                add(seq, slot)
        ed = self.span_editor
        spans = {"focus_spans": ed.focus_text, "mark_minor": lambda: ed.mark("minor"),
                 "mark_major": lambda: ed.mark("major"), "mark_critical": lambda: ed.mark("critical"),
                 "mark_missing": ed.add_missing, "esa_score": ed.focus_score, "span_category": ed.open_categories,
                 "remove_span": ed.remove_current, "no_errors": ed.no_errors}
        for key, name, _ in SPAN_SHORTCUTS:
            add(key, spans[name])

    # ----- state ---------------------------------------------------------------------------
    def set_workspace(self, ws: Workspace | None) -> None:
        self.ws = ws
        self.run_id = self.entry_id = None
        self.reload_reviewers()
        self._load()

    def reload_current(self) -> None:
        """Reread the reviewers and the current judgment (another program may have changed them);
        the panel changes only if what is stored differs from what it shows."""
        if self.ws is None:
            return
        self.reload_reviewers()
        j = self.current_judgment()
        stored = (j.adequacy, j.fluency, j.note or "", bool(j.flagged), j.payload) if j else (None, None, "", False, {})
        if stored != (self.values["adequacy"], self.values["fluency"], self.note, self.flagged, self.payload):
            self._load()

    def reload_reviewers(self, select: str | None = None) -> None:
        """Reread the reviewers; the one rating stays chosen (a reviewer just added is chosen only
        when nobody was: adding a colleague must not turn one's next ratings into theirs)."""
        current = self.reviewer_id or select
        self._loading = True
        self.reviewer_combo.clear()
        reviewers = list_reviewers(self.ws) if self.ws is not None else []
        for r in reviewers:
            label = r.name if r.name == r.reviewer_id else f"{r.name} ({r.reviewer_id})"
            self.reviewer_combo.addItem(label, r.reviewer_id)
        ids = [r.reviewer_id for r in reviewers]
        self._loading = False
        if current in ids:
            self.reviewer_combo.setCurrentIndex(ids.index(current))
        elif ids:
            self.reviewer_combo.setCurrentIndex(0)
        self._reviewer_picked()

    def _reviewer_picked(self, *_: object) -> None:
        if self._loading:
            return
        rid = self.reviewer_combo.currentData()
        if rid != self.reviewer_id:
            self.reviewer_id = rid
            self._load()
            self.reviewer_changed.emit()

    def set_reviewer(self, reviewer_id: str | None) -> None:
        idx = self.reviewer_combo.findData(reviewer_id)
        if idx >= 0:
            self.reviewer_combo.setCurrentIndex(idx)

    def set_item(self, run_id: str | None, entry_id: str | None,
                 check: tuple[DesktopQueue, CheckSlot] | None = None) -> None:
        """Rate ``entry_id`` of ``run_id``, or the queue's ``check`` made from it (its answer is recorded)."""
        if (run_id, entry_id, check) == (self.run_id, self.entry_id, self.check):
            return
        self._commit_note()
        self.span_editor.commit_correction()
        self.run_id, self.entry_id, self.check = run_id, entry_id, check
        self._load()

    def first_unrated(self) -> str:
        """The first aspect without a rating (the first aspect when both are rated)."""
        return next((d for d in DIMENSIONS if self.values[d] is None), DIMENSIONS[0])

    def current_judgment(self) -> Judgment | None:
        item = self._item()
        if item is None:
            return None
        history = check_history(item[0], *self.check) if self.check is not None else judgment_history(*item, "A")
        current = [j for j in history if not j.undone and j.superseded_by is None]
        return current[-1] if current else None

    def _load(self) -> None:
        j = self.current_judgment()
        self.values = {"adequacy": j.adequacy if j else None, "fluency": j.fluency if j else None}
        self.note = (j.note or "") if j else ""
        self.flagged = bool(j.flagged) if j else False
        self.payload = dict(j.payload) if j else {}
        self.active = self.first_unrated()  # a half-rated entry reopens on the aspect still to rate
        self._loading = True
        self.note_edit.setText(self.note)
        self._loading = False
        self._load_target(j)
        self._refresh(j)

    def _load_target(self, j: Judgment | None) -> None:
        """The output to mark spans on, with the reviewer's stored spans and correction."""
        target = None
        item = self._item()
        if item is not None:
            ws, _, run_id, entry_id = item
            shown = self.check[1].output if self.check is not None else None
            shown = unicodedata.normalize("NFC", shown) if shown is not None else None
            key = (run_id, entry_id)
            target = self.target if self.target is not None and (self.target.run_id, self.target.entry_id) == key \
                and (shown is None or self.target.text == shown) else None
            if target is None:
                try:
                    target = span_target(ws, run_id, entry_id)
                except StoreError:  # no output stored for this entry: nothing to mark
                    target = None
            if target is not None and shown is not None:  # an attention check: its known-bad output
                target = dataclasses.replace(target, text=shown)
        self.target = target
        self.span_editor.set_content(target.text if target else "", target.categories if target else (),
                                     judgment_spans(j) if j else None, (judgment_correction(j) or "") if j else "",
                                     enabled=target is not None, esa_score=judgment_esa(j),
                                     weights=target.weights if target else None)

    def _ready(self) -> bool:
        return self._item() is not None

    def _item(self) -> tuple[Workspace, str, str, str] | None:
        """(workspace, reviewer, run, entry) when the panel rates something, else None."""
        if self.ws is None or not self.reviewer_id or not self.run_id or not self.entry_id:
            return None
        if self.check is not None and self.check[0].reviewer_id != self.reviewer_id:
            return None  # another reviewer's check (the reviewer just changed): nothing of theirs to rate
        return self.ws, self.reviewer_id, self.run_id, self.entry_id

    def _refresh(self, j: Judgment | None = None) -> None:
        ready = self._ready()
        for dim, group in self.groups.items():
            for value in range(1, 6):
                b = group.button(value)
                b.setEnabled(ready)
                b.setChecked(self.values[dim] == value)
            lab = self.dimension_labels[dim]
            lab.setProperty("active", dim == self.active)
            lab.setText(("▶ " if dim == self.active else "   ") + self._dim_names[dim])
            lab.style().unpolish(lab)
            lab.style().polish(lab)
        self.note_edit.setEnabled(ready)
        self.flag_box.setEnabled(ready)
        self.flag_box.setChecked(self.flagged)
        if self.ws is None:
            self.status.setText("")
        elif not self.reviewer_id:
            self.status.setText(self.tr("Create a reviewer to start rating."))
        elif not (self.run_id and self.entry_id):
            self.status.setText(self.tr("Select an entry of one run to rate it."))
        elif j is not None:
            self.status.setText(self.tr("Saved {0} (version {1})").format(_clock(j.created_at), j.version))
        else:
            self.status.setText(self.tr("Not rated yet"))
        self._show_entry_esa()

    def _show_entry_esa(self) -> None:
        """The editor's ESA line, with the mean over every reviewer who marked this output."""
        own = self.span_editor.esa_text()
        item = self._item()
        if item is not None and self.target is not None:
            mean, n = entry_esa(item[0], item[2], item[3])
            if mean is not None and n > 1:
                own = self.tr("{0} · entry ESA {1:g} over {2} reviewers").format(own, round(mean, 1), n)
        self.span_editor.esa_label.setText(own)

    # ----- actions -------------------------------------------------------------------------
    def next_aspect(self) -> None:
        """Tab: highlight the next aspect without rating (stays on the last one)."""
        self._move(+1)

    def previous_aspect(self) -> None:
        """Shift+Tab: highlight the previous aspect (stays on the first one)."""
        self._move(-1)

    def _move(self, step: int) -> None:
        self.active = move_scale(self.active, step)
        self._refresh(self.current_judgment())

    def rate(self, dimension: str, value: int) -> None:
        """Record ``value`` for ``dimension`` and move the highlight on to the next aspect."""
        if not self._ready():
            return
        self.values[dimension] = value
        self.active = move_scale(dimension, +1)
        self._save()

    def set_flag(self, flagged: bool) -> None:
        if not self._ready():
            self.flag_box.setChecked(False)
            return
        self.flagged = flagged
        self._save()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Enter or Esc in the note or the correction: keep the text and leave the field."""
        if (event.type() == QEvent.Type.KeyPress and watched in (self.note_edit, self.span_editor.correction_edit)
                and isinstance(event, QKeyEvent) and (b := binding_of(event, FIELD_KEYS)) is not None
                and b.action == "leave_field"):
            if watched is self.note_edit:
                self._commit_note()
            else:
                self.span_editor.commit_correction()
            self.field_left.emit()
            if watched.hasFocus():  # no host took the focus: leave the field all the same
                watched.clearFocus()
            return True
        return super().eventFilter(watched, event)

    def _note_finished(self) -> None:
        if not self._loading:
            self._commit_note()

    def _commit_note(self) -> None:
        text = self.note_edit.text().strip()
        if self._ready() and text != self.note:
            self.note = text
            self._save()

    def use_correction(self, run_id: str, entry_id: str, text: str) -> bool:
        """Record ``text`` as this reviewer's correction of ``(run_id, entry_id)`` when the panel rates it."""
        if (run_id, entry_id) != (self.run_id, self.entry_id) or not self._ready():
            return False
        return self.span_editor.use_correction(text)

    def _spans_changed(self) -> None:
        if self._ready():
            self._save()

    def leave_spans(self) -> None:
        self.spans_left.emit()

    def _save(self) -> None:
        item = self._item()
        assert item is not None  # every caller checks that the panel rates something
        ws, reviewer, run_id, entry_id = item
        payload = {k: v for k, v in self.payload.items() if k not in SPAN_KEYS} | self.span_editor.payload()
        if self.check is not None:  # the check's answer, never a rating of the real entry
            j = check_judgment(*self.check, adequacy=self.values["adequacy"], fluency=self.values["fluency"],
                               note=self.note or None, flagged=self.flagged, payload=payload)
        else:
            j = Judgment(reviewer_id=reviewer, run_id=run_id, entry_id=entry_id, task="A",
                         adequacy=self.values["adequacy"], fluency=self.values["fluency"],
                         note=self.note or None, flagged=self.flagged, payload=payload)
        with reporting_errors(self) as report:
            saved = record_judgment(ws, j)
        if report.failed:
            self._load()  # the panel shows what is really stored
            return
        self.payload = dict(saved.payload)
        self._refresh(saved)
        self.judgment_changed.emit(self.run_id, self.entry_id)

    def undo(self) -> None:
        self._step(undo_last, self.tr("Undone"))

    def redo(self) -> None:
        self._step(redo_last, self.tr("Redone"))

    def _step(self, fn, verb: str) -> None:
        if self.ws is None or not self.reviewer_id or not self.run_id:
            return
        with reporting_errors(self) as report:
            j = fn(self.ws, self.reviewer_id, self.run_id)
        if report.failed:
            return
        if j is None:
            self.status.setText(self.tr("Nothing to undo") if fn is undo_last else self.tr("Nothing to redo"))
            return
        if j.entry_id == self.entry_id:
            self._load()
        self.status.setText(self.tr("{0}: entry {1}").format(verb, j.entry_id))
        self.judgment_changed.emit(j.run_id, j.entry_id or "")


def checked_label_width(button: QPushButton) -> int:
    """Width a rating button needs to show its label in bold (the stylesheet's checked state)."""
    bold = QFont(button.font())
    bold.setBold(True)
    text = QFontMetrics(bold).horizontalAdvance(button.text())
    return text + 2 * 6 + 2 * 4  # the stylesheet's horizontal padding, frame and margin on each side


def _clock(ts: str | None) -> str:
    if not ts:
        return ""
    return ts[11:19] if len(ts) >= 19 else ts
