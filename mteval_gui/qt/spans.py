"""Error spans (ESA) and a correction for one output, marked in the review pane.

The output is shown read-only with a text cursor: select a span with the mouse or with
Shift+arrows (S puts the cursor in the output), then M marks it a minor error, Shift+M a
major one and Ctrl+M a critical one; with nothing selected the word under the cursor is marked,
and a cursor inside a marked span (or a missing-content span picked in the list) changes that
span's severity. O adds a span that marks missing content (no offsets: what is missing has no
place in the output). The category list (the built-in MQM-style one and what the run's language
card adds; C opens it) sets the category of the span in hand and of the next ones marked.
Delete removes the span in hand; 0 records "no errors found" (an empty span list). E puts the
cursor in the ESA score, the annotator's own 0-100 rating of the output (Enter keeps it). The
correction is typed below (Enter saves). The line above the output shows the ESA score and,
apart, the MQM-style penalty of the spans.

The editor holds no judgment of its own: every change is emitted (:attr:`SpanEditor.changed`)
and the ratings panel records it at once with the ratings, as one judgment version. Offsets
are Python character offsets into the NFC output (Qt counts UTF-16 units; converted here).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.entry_review import SEVERITY_COLOURS
from mteval_gui.app.review import spans_penalty
from mteval_gui.qt.labels import error_category_label

Span = dict[str, Any]


def qt_to_index(text: str, position: int) -> int:
    """The Python character offset of a Qt (UTF-16) position in ``text``."""
    units = 0
    for i, ch in enumerate(text):
        if units >= position:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def index_to_qt(text: str, index: int) -> int:
    """The Qt (UTF-16) position of a Python character offset in ``text``."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text[:index])


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """``start``/``end`` without the whitespace at either end of the span."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


class SpanText(QTextEdit):
    """The output, read-only, with a cursor that selects by mouse and by keyboard."""

    leave = Signal()  # Esc: back to the entries

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("spanText")
        self.setReadOnly(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        font = QFont(self.font())
        font.setPointSizeF(max(font.pointSizeF(), 9.0) * 1.4)
        self.setFont(font)
        lines = 2
        self.setFixedHeight(self.fontMetrics().lineSpacing() * lines + 2 * int(self.document().documentMargin()) + 6)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape:
            self.leave.emit()
            return
        super().keyPressEvent(event)


class SpanEditor(QWidget):
    """Marks error spans on one output and takes a correction (see the module docstring)."""

    changed = Signal()  # spans or correction changed: record them now

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("spanEditor")
        self.output = ""
        self.categories: tuple[str, ...] = ()
        self.spans: list[Span] | None = None  # None: not marked; []: no errors found
        self.correction = ""
        self.esa_score: float | None = None  # the annotator's direct 0-100 score (None: not given)
        self.weights: dict[str, float] = {}  # the card's severity weights (empty: the built-in ones)
        self.current: int | None = None  # index in self.spans of the span in hand
        self._enabled = False
        self._build()
        self.set_content("", (), None, "", enabled=False)

    # ----- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(3)
        head = QHBoxLayout()
        self.title = QLabel(self.tr("Error spans"))
        self.title.setObjectName("sectionTitle")
        head.addWidget(self.title)
        head.addStretch(1)
        self.esa_caption = QLabel(self.tr("ESA score (E)"))
        head.addWidget(self.esa_caption)
        self.esa_spin = QSpinBox()
        self.esa_spin.setObjectName("esaScore")
        self.esa_spin.setRange(-1, 100)
        self.esa_spin.setSpecialValueText("—")
        self.esa_spin.setToolTip(self.tr("Your own rating of the output from 0 (nothing right) to 100 (perfect), "
                                         "given after marking the errors; Enter keeps it"))
        self.esa_spin.setKeyboardTracking(False)
        self.esa_spin.editingFinished.connect(self._esa_finished)
        self.esa_caption.setBuddy(self.esa_spin)
        head.addWidget(self.esa_spin)
        self.esa_label = QLabel()
        self.esa_label.setObjectName("esaLabel")
        head.addWidget(self.esa_label)
        outer.addLayout(head)

        self.text = SpanText()
        self.text.cursorPositionChanged.connect(self._cursor_moved)
        outer.addWidget(self.text)

        row = QHBoxLayout()
        self.minor_button = self._button("minorButton", self.tr("Minor (M)"), lambda: self.mark("minor"))
        self.major_button = self._button("majorButton", self.tr("Major (Shift+M)"), lambda: self.mark("major"))
        self.critical_button = self._button("criticalButton", self.tr("Critical (Ctrl+M)"),
                                            lambda: self.mark("critical"))
        self.missing_button = self._button("missingButton", self.tr("Missing content (O)"), self.add_missing)
        self.missing_button.setToolTip(self.tr("Something of the source is missing from the output: add a span "
                                               "without place (category omission)"))
        row.addWidget(self.minor_button)
        row.addWidget(self.major_button)
        row.addWidget(self.critical_button)
        row.addWidget(self.missing_button)
        self.category_combo = QComboBox()
        self.category_combo.setObjectName("spanCategory")
        self.category_combo.setToolTip(self.tr("Category of the span in hand and of the next ones (C)"))
        self.category_combo.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.category_combo.activated.connect(lambda _i: self.set_category(self.category_combo.currentData()))
        row.addWidget(self.category_combo, 1)
        self.remove_button = self._button("removeSpanButton", self.tr("Remove (Del)"), self.remove_current)
        row.addWidget(self.remove_button)
        self.none_button = self._button("noErrorsButton", self.tr("No errors (0)"), self.no_errors)
        self.none_button.setToolTip(self.tr("Record that you looked for errors and found none"))
        row.addWidget(self.none_button)
        outer.addLayout(row)

        self.span_list = QListWidget()
        self.span_list.setObjectName("spanList")
        self.span_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.span_list.setMaximumHeight(self.fontMetrics().lineSpacing() * 3 + 10)
        self.span_list.currentRowChanged.connect(self._row_picked)
        outer.addWidget(self.span_list)

        corr = QHBoxLayout()
        self.correction_edit = QLineEdit()
        self.correction_edit.setObjectName("correctionEdit")
        self.correction_edit.setPlaceholderText(self.tr("Corrected translation (Enter saves)"))
        self.correction_edit.editingFinished.connect(self._correction_finished)
        corr.addWidget(self.correction_edit, 1)
        self.copy_button = self._button("copyOutputButton", self.tr("Start from the output"), self.start_correction)
        corr.addWidget(self.copy_button)
        outer.addLayout(corr)

    def _button(self, name: str, label: str, slot: Any) -> QPushButton:
        b = QPushButton(label)
        b.setObjectName(name)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.clicked.connect(lambda _=False: slot())
        return b

    # ----- content -------------------------------------------------------------------------
    def set_content(self, output: str, categories: tuple[str, ...], spans: list[Span] | None, correction: str,
                    *, enabled: bool, esa_score: float | None = None, weights: dict[str, float] | None = None
                    ) -> None:
        """Show one output with the reviewer's stored spans, correction and ESA score."""
        self.output = output
        self.esa_score = esa_score
        self.weights = dict(weights or {})
        self.esa_spin.blockSignals(True)
        self.esa_spin.setValue(-1 if esa_score is None else round(esa_score))
        self.esa_spin.blockSignals(False)
        self.esa_spin.setEnabled(enabled and bool(output))
        self.categories = categories
        self.spans = sorted((dict(s) for s in spans), key=_order) if spans is not None else None
        self.correction = correction
        self.current = None
        self._enabled = enabled
        keep = self.category_combo.currentData()
        self.category_combo.clear()
        self.category_combo.addItem(self.tr("(no category)"), None)
        for c in categories:
            self.category_combo.addItem(error_category_label(c), c)
        idx = self.category_combo.findData(keep)
        self.category_combo.setCurrentIndex(max(idx, 0))
        self.text.blockSignals(True)
        self.text.setPlainText(output)
        self.text.moveCursor(QTextCursor.MoveOperation.Start)
        self.text.blockSignals(False)
        self.correction_edit.blockSignals(True)
        self.correction_edit.setText(correction)
        self.correction_edit.blockSignals(False)
        for w in (self.text, self.category_combo, self.correction_edit, self.copy_button):
            w.setEnabled(enabled)
        self._show()

    def payload(self) -> dict[str, Any]:
        """The judgment payload keys this editor owns (absent keys: nothing recorded)."""
        out: dict[str, Any] = {}
        if self.spans is not None:
            out["spans"] = [dict(s) for s in self.spans]
        if self.correction.strip():
            out["correction"] = self.correction.strip()
        if self.esa_score is not None:
            out["esa_score"] = int(self.esa_score) if float(self.esa_score).is_integer() else self.esa_score
        return out

    def span_text(self, span: Span) -> str:
        if span.get("missing") is True:
            return self.tr("[missing content]")
        return self.output[span["start"]:span["end"]]

    # ----- actions -------------------------------------------------------------------------
    def focus_text(self) -> None:
        if self._enabled and self.output:
            self.text.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def selection(self) -> tuple[int, int] | None:
        """The selected characters (trimmed of spaces), else the word under the cursor."""
        cur = self.text.textCursor()
        if not cur.hasSelection():
            cur.select(QTextCursor.SelectionType.WordUnderCursor)
        start = qt_to_index(self.output, cur.selectionStart())
        end = qt_to_index(self.output, cur.selectionEnd())
        start, end = trimmed(self.output, start, end)
        return (start, end) if start < end else None

    def _span_at_cursor(self) -> int | None:
        pos = qt_to_index(self.output, self.text.textCursor().position())
        spans = self.spans or []
        found = [i for i, s in enumerate(spans) if not _missing(s)
                 and (s["start"] <= pos < s["end"] or (pos == s["end"] and pos > s["start"]))]
        return min(found, key=lambda i: spans[i]["end"] - spans[i]["start"]) if found else None

    def mark(self, severity: str) -> None:
        """Mark the selection (or the word under the cursor) as a ``severity`` error."""
        if not (self._enabled and self.output):
            return
        has_selection = self.text.textCursor().hasSelection()
        spans = list(self.spans or [])
        if not has_selection and self.current is not None and self.current < len(spans) \
                and _missing(spans[self.current]):  # a missing-content span in hand (just added or picked)
            spans[self.current] = {**spans[self.current], "severity": severity}
            self.spans = spans
            self._show()
            self.changed.emit()
            return
        at = None if has_selection else self._span_at_cursor()
        if at is not None:  # the cursor is in a marked span: change its severity
            spans[at] = {**spans[at], "severity": severity}
            key = (spans[at]["start"], spans[at]["end"])
        else:
            sel = self.selection()
            if sel is None:
                return
            key = sel
            same = next((i for i, s in enumerate(spans) if (s["start"], s["end"]) == sel), None)
            span = {"start": sel[0], "end": sel[1], "severity": severity,
                    "category": self.category_combo.currentData()}
            if same is None:
                spans.append(span)
            else:
                spans[same] = span
        self.spans = sorted(spans, key=_order)
        self.current = next(i for i, s in enumerate(self.spans) if not _missing(s) and (s["start"], s["end"]) == key)
        cur = self.text.textCursor()
        cur.setPosition(index_to_qt(self.output, key[1]))
        self.text.blockSignals(True)
        self.text.setTextCursor(cur)
        self.text.blockSignals(False)
        self._show()
        self.changed.emit()

    def add_missing(self) -> None:
        """Add a span that marks missing content (minor; M, Shift+M and Ctrl+M change its severity)."""
        if not (self._enabled and self.output):
            return
        category = "omission" if "omission" in self.categories else self.category_combo.currentData()
        spans = list(self.spans or []) + [{"missing": True, "severity": "minor", "category": category}]
        self.spans = sorted(spans, key=_order)
        self.current = len(self.spans) - 1
        self._show()
        self.changed.emit()

    def focus_score(self) -> None:
        """Put the cursor in the ESA score (typing a number and Enter keeps it)."""
        if self._enabled and self.output:
            self.esa_spin.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.esa_spin.selectAll()

    def set_esa_score(self, value: float | None) -> None:
        """The annotator's direct 0-100 score (None: not given)."""
        if value is not None and not 0 <= value <= 100:
            return
        if self._enabled and self.output and value != self.esa_score:
            self.esa_score = value
            self.esa_spin.blockSignals(True)
            self.esa_spin.setValue(-1 if value is None else round(value))
            self.esa_spin.blockSignals(False)
            self._show()
            self.changed.emit()

    def _esa_finished(self) -> None:
        value = self.esa_spin.value()
        self.set_esa_score(None if value < 0 else float(value))

    def set_category(self, category: str | None) -> None:
        """The category of the span in hand (and of the next spans marked)."""
        idx = self.category_combo.findData(category)
        self.category_combo.setCurrentIndex(max(idx, 0))
        if self.spans and self.current is not None and self.spans[self.current].get("category") != category:
            self.spans[self.current] = {**self.spans[self.current], "category": category}
            self._show()
            self.changed.emit()

    def open_categories(self) -> None:
        if self._enabled and self.output:
            self.category_combo.showPopup()

    def remove_current(self) -> None:
        """Remove the span in hand (the last one left: the output is no longer marked)."""
        if not self.spans or self.current is None:
            return
        del self.spans[self.current]
        if not self.spans:
            self.spans = None
        self.current = None
        self._show()
        self.changed.emit()

    def no_errors(self) -> None:
        """Record that the output has no error (an empty span list); not while spans are marked."""
        if not (self._enabled and self.output) or self.spans:
            return
        self.spans = []
        self._show()
        self.changed.emit()

    def start_correction(self) -> None:
        if not self._enabled:
            return
        if not self.correction_edit.text().strip():
            self.correction_edit.setText(self.output)
        self.correction_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def use_correction(self, text: str) -> bool:
        """Record ``text`` as the correction (a generator form picked in the review pane)."""
        if not (self._enabled and text.strip()):
            return False
        self.correction_edit.setText(text.strip())
        self._correction_finished()
        return True

    def _correction_finished(self) -> None:
        text = self.correction_edit.text().strip()
        if self._enabled and text != self.correction.strip():
            self.correction = text
            self.changed.emit()

    def commit_correction(self) -> None:
        """Record a correction still being typed (the entry changes)."""
        self._correction_finished()

    # ----- display -------------------------------------------------------------------------
    def _cursor_moved(self) -> None:
        if self.text.textCursor().hasSelection():
            return
        at = self._span_at_cursor()
        if at is not None and at != self.current:
            self.current = at
            self._show()

    def _row_picked(self, row: int) -> None:
        if self.spans and 0 <= row < len(self.spans) and row != self.current:
            self.current = row
            self._show()

    def _show(self) -> None:
        spans = self.spans or []
        if self.current is not None and self.current >= len(spans):
            self.current = None
        selections = []
        for i, s in enumerate(spans):
            if _missing(s):
                continue
            sel = QTextEdit.ExtraSelection()
            cur = QTextCursor(self.text.document())
            cur.setPosition(index_to_qt(self.output, s["start"]))
            cur.setPosition(index_to_qt(self.output, s["end"]), QTextCursor.MoveMode.KeepAnchor)
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(SEVERITY_COLOURS.get(s["severity"], SEVERITY_COLOURS["major"])))
            if i == self.current:
                fmt.setFontUnderline(True)
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            sel.cursor = cur
            sel.format = fmt
            selections.append(sel)
        self.text.setExtraSelections(selections)

        self.span_list.blockSignals(True)
        self.span_list.clear()
        names = {"minor": self.tr("minor"), "major": self.tr("major"), "critical": self.tr("critical")}
        for s in spans:
            severity = names.get(s["severity"], names["major"])
            category = s.get("category")
            label = f"{severity} · {error_category_label(category)}" if category else severity
            item = QListWidgetItem(f"«{self.span_text(s)}»  {label}")
            item.setBackground(QColor(SEVERITY_COLOURS.get(s["severity"], SEVERITY_COLOURS["major"])))
            self.span_list.addItem(item)
        if self.current is not None:
            self.span_list.setCurrentRow(self.current)
            cat = spans[self.current].get("category")
            self.category_combo.setCurrentIndex(max(self.category_combo.findData(cat), 0))
        self.span_list.blockSignals(False)
        self.span_list.setVisible(bool(spans))

        ready = self._enabled and bool(self.output)
        self.minor_button.setEnabled(ready)
        self.major_button.setEnabled(ready)
        self.critical_button.setEnabled(ready)
        self.missing_button.setEnabled(ready)
        self.remove_button.setEnabled(ready and self.current is not None)
        self.none_button.setEnabled(ready and not spans)
        self.esa_label.setText(self.esa_text())

    def esa_text(self) -> str:
        """The ESA score given and, apart, the MQM-style penalty of the spans."""
        if not (self._enabled and self.output):
            return ""
        score = self.tr("ESA: not scored") if self.esa_score is None else self.tr("ESA {0}").format(
            f"{self.esa_score:g}")
        if self.spans is None:
            return self.tr("{0} · spans not marked").format(score)
        if not self.spans:
            return self.tr("{0} · no errors found").format(score)
        count = {k: sum(1 for s in self.spans if s["severity"] == k) for k in ("minor", "major", "critical")}
        missing = sum(1 for s in self.spans if _missing(s))
        return self.tr("{0} · MQM penalty {1}: {2} minor, {3} major, {4} critical, {5} missing").format(
            score, f"{spans_penalty(self.spans, self.weights):g}", count["minor"], count["major"], count["critical"],
            missing)


def _missing(span: Span) -> bool:
    return span.get("missing") is True


def _order(span: Span) -> tuple[int, int, int, str]:
    """Spans in the order of the output; missing-content spans after them."""
    if _missing(span):
        return (1, 0, 0, "")
    return (0, span["start"], span["end"], str(span.get("severity")))
