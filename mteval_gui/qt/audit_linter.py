"""Linter audit (SPEC §9, Task B): do speakers agree with the pairs the linter called EQUIVALENT?

The queue (:func:`mteval_gui.app.audits.linter_audit_queue`) lists every entry of the chosen
runs whose language linter verdict is EQUIVALENT. For each, the view shows the reference (or
the accepted variant the linter matched) as A and the system output as B side by side, the
characters that differ highlighted on both sides, the variant classes that fired and the
linter's explanation, and asks two questions:

- Same meaning? Yes / No / Depends (keys Y, N, D)
- Both natural? Yes / A better / B better / Neither (keys 1–4)

Every answer is saved at once as a Task B judgment (payload ``same_meaning``, ``natural``,
``classes``); answering the second question records a new version holding both answers.
Ctrl+Z undoes the reviewer's latest Task B answer (Ctrl+Shift+Z redoes it), Return goes to
the next unanswered pair (see :class:`~mteval_gui.qt.audit_common.AuditView`).

Below, the per-class linter precision over every reviewer's current answers
(:func:`mteval_gui.app.audits.linter_audit`): a pair is confirmed when more than half of its
answers are Yes; precision = confirmed / pairs, lenient precision = pairs not refuted /
pairs, each with a 95 % Wilson interval.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from mteval_gui.app import workspace
from mteval_gui.app.audits import linter_detail
from mteval_gui.app.messages import detail_text
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.judgments import Judgment
from mteval_gui.qt.audit_common import AuditView, ChoiceRow, format_proportion, side_by_side_html
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP
from mteval_gui.qt.labels import interface_language, variant_class_description

TEXT_STYLE = "font-size: 15pt;"
CLASS_CHIP = "background-color:#e4ecf7;"


SAME_MEANING = (("Yes", QT_TRANSLATE_NOOP("LinterAuditView", "Yes"), "Y"),
                ("No", QT_TRANSLATE_NOOP("LinterAuditView", "No"), "N"),
                ("Depends", QT_TRANSLATE_NOOP("LinterAuditView", "Depends"), "D"))
NATURAL = (("Yes", QT_TRANSLATE_NOOP("LinterAuditView", "Yes"), "1"),
           ("A better", QT_TRANSLATE_NOOP("LinterAuditView", "A better"), "2"),
           ("B better", QT_TRANSLATE_NOOP("LinterAuditView", "B better"), "3"),
           ("Neither", QT_TRANSLATE_NOOP("LinterAuditView", "Neither"), "4"))


def _options(options: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
    """(stored value, translated label, key) of each answer."""
    return [(value, QCoreApplication.translate("LinterAuditView", label), key) for value, label, key in options]


def same_meaning_options() -> list[tuple[str, str, str]]:
    return _options(SAME_MEANING)


def natural_options() -> list[tuple[str, str, str]]:
    return _options(NATURAL)


def text_box(name: str) -> QLabel:
    """A framed label for one side of the pair (rich text, selectable, wraps)."""
    lab = QLabel()
    lab.setObjectName(name)
    lab.setWordWrap(True)
    lab.setTextFormat(Qt.TextFormat.RichText)
    lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    lab.setFrameShape(QFrame.Shape.StyledPanel)
    lab.setMargin(8)
    lab.setMinimumHeight(70)
    lab.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    return lab


class LinterAuditView(AuditView):
    """Task B: the pairs the linter called EQUIVALENT, judged by speakers."""

    TASK = "B"

    def __init__(self, parent: QWidget | None = None):
        self._sm_labels: dict[str | None, str] = {v: lab for v, lab, _ in same_meaning_options()}
        self._nat_labels: dict[str | None, str] = {v: lab for v, lab, _ in natural_options()}
        super().__init__(parent)
        self.setObjectName("linterAuditView")
        self.table.setObjectName("linterAuditQueue")
        self.results_box.setTitle(self.tr("Linter precision per variant class (all reviewers, 95 % Wilson interval)"))
        self.clear_details()

    # ----- building ------------------------------------------------------------------------
    def queue_headers(self) -> list[str]:
        return [self.tr("Run"), self.tr("Entry"), self.tr("Classes")]

    def build_card(self, layout: QVBoxLayout) -> None:
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.source.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.source)
        pair = QGridLayout()
        self.a_title = QLabel()
        self.b_title = QLabel(self.tr("<b>B</b> · Output"))
        self.a_text = text_box("auditTextA")
        self.b_text = text_box("auditTextB")
        pair.addWidget(self.a_title, 0, 0)
        pair.addWidget(self.b_title, 0, 1)
        pair.addWidget(self.a_text, 1, 0)
        pair.addWidget(self.b_text, 1, 1)
        pair.setColumnStretch(0, 1)
        pair.setColumnStretch(1, 1)
        layout.addLayout(pair)
        self.classes = QLabel()
        self.classes.setObjectName("auditClasses")
        self.classes.setWordWrap(True)
        layout.addWidget(self.classes)
        self.explanation = QLabel()
        self.explanation.setObjectName("auditExplanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.explanation)

    def build_questions(self) -> list[tuple[str, ChoiceRow]]:
        return [("same_meaning", ChoiceRow(self.tr("Same meaning?"), same_meaning_options(), "sameMeaning")),
                ("natural", ChoiceRow(self.tr("Both natural?"), natural_options(), "natural"))]

    def build_results(self, layout: QVBoxLayout) -> None:
        self.results = QTableWidget()
        self.results.setObjectName("linterPrecision")
        self.results.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.results.verticalHeader().setVisible(False)
        self.results.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        layout.addWidget(self.results)
        self.results_note = QLabel()
        self.results_note.setWordWrap(True)
        layout.addWidget(self.results_note)

    # ----- items ---------------------------------------------------------------------------
    def queue_loader(self, run_ids: list[str]) -> Callable[[Workspace], list[dict[str, Any]]]:
        from mteval_gui.app.audits import linter_audit_queue

        return lambda ws: linter_audit_queue(ws, run_ids)

    def item_key(self, item: dict[str, Any]) -> tuple:
        return item["run_id"], item["entry_id"]

    def judgment_key(self, j: Judgment) -> tuple:
        return j.run_id, j.entry_id or ""

    def queue_cells(self, item: dict[str, Any]) -> list[str]:
        return [item["run_id"], item["entry_id"], ", ".join(item["classes"])]

    def make_judgment(self, item: dict[str, Any], answers: dict[str, Any], reviewer: str) -> Judgment:
        payload = {"same_meaning": answers.get("same_meaning"), "natural": answers.get("natural"),
                   "classes": list(item["classes"])}
        return Judgment(reviewer_id=reviewer, run_id=item["run_id"], entry_id=item["entry_id"],
                        task="B", payload=payload)

    def is_complete(self, payload: dict[str, Any] | None) -> bool:
        return payload is not None and payload.get("same_meaning") is not None and payload.get("natural") is not None

    def answer_text(self, payload: dict[str, Any]) -> str:
        if payload.get("same_meaning") is None and payload.get("natural") is None:
            return ""
        return " / ".join((self._sm_labels.get(payload.get("same_meaning"), "–"),
                           self._nat_labels.get(payload.get("natural"), "–")))

    def position_text(self, row: int, total: int, done: int, item: dict[str, Any]) -> str:
        return self.tr("Pair {0} of {1} · {2} answered by you · run {3}, entry {4}").format(
            row + 1, total, done, item["run_id"], item["entry_id"])

    def empty_queue_message(self) -> str:
        return self.tr("No pair to audit: the linter called no output EQUIVALENT in these runs "
                       "(score them with the language's linter first).")

    def clear_details(self) -> None:
        self.source.setText("")
        self.a_title.setText(self.tr("<b>A</b> · Reference"))
        for lab in (self.a_text, self.b_text, self.classes, self.explanation):
            lab.setText("")

    def show_details(self, item: dict[str, Any]) -> None:
        a_label, a, b, source, pairs = self._texts(item)
        self.source.setText(self.tr("<span style='color:#555'>Source:</span> {0}").format(html.escape(source)))
        self.a_title.setText(self.tr("<b>A</b> · {0}").format(html.escape(a_label)))
        a_html, b_html = side_by_side_html(a, b)
        self.a_text.setText(f"<div style='{TEXT_STYLE}'>{a_html}</div>")
        self.b_text.setText(f"<div style='{TEXT_STYLE}'>{b_html}</div>")
        chips = " ".join(f"<span style='{CLASS_CHIP}'>&nbsp;{html.escape(c)}&nbsp;</span>" for c in item["classes"])
        self.classes.setText(self.tr("Variant classes: {0}").format(chips or self.tr("(none reported)")))
        self.classes.setToolTip("\n".join(f"{c}: {variant_class_description(c)}" for c in item["classes"]))
        text = html.escape(str(detail_text(item, "explanation", interface_language()) or ""))
        differing = [p for p in pairs if p.get("reference") != p.get("output")]
        if differing:
            words = "; ".join(html.escape(f"{p.get('reference', '')} ↔ {p.get('output', '')}") for p in differing)
            text += "<br/>" + self.tr("<i>Word pairs:</i> {0}").format(words)
        self.explanation.setText(self.tr("<i>Linter:</i> {0}").format(text))

    def _texts(self, item: dict[str, Any]) -> tuple[str, str, str, str, list[dict[str, Any]]]:
        """(label of A, A, B, source, the linter's word pairs) of a queue item."""
        assert self.ws is not None
        corpus_id = self.scope.corpus_id()
        assert corpus_id is not None  # an item is shown: its corpus is chosen
        entry = workspace.get_entry(self.ws, corpus_id, item["entry_id"])
        output = workspace.get_output(self.ws, item["run_id"], item["entry_id"])
        verdict = linter_detail(self.ws, item["run_id"], item["entry_id"])
        a_label, a = self.tr("Reference"), entry.reference or ""
        matched = (verdict.matched if verdict is not None else None) or ""
        if matched.startswith("variant "):
            n = int(matched.split()[1]) if matched.split()[1].isdigit() else 0
            if 1 <= n <= len(entry.variants):
                a_label, a = self.tr("Accepted variant {0}").format(n), entry.variants[n - 1]
        pairs = [p.model_dump() for p in verdict.pairs] if verdict is not None else []
        return a_label, a, output.predicted or "", entry.source, pairs

    # ----- results -------------------------------------------------------------------------
    def refresh_results(self) -> None:
        from mteval_gui.app.audits import ALL_CLASSES, UNCLASSIFIED, linter_audit

        runs = self.scope.run_ids()
        rows = []
        if self.ws is not None and runs:
            with reporting_errors(self):
                rows = linter_audit(self.ws, runs)
        headers = [self.tr("Variant class"), self.tr("Pairs"), self.tr("Answers"), self.tr("Confirmed"),
                   self.tr("Refuted"), self.tr("Undecided"), self.tr("Precision [95 % CI]"),
                   self.tr("Lenient precision [95 % CI]"), self.tr("Both natural?")]
        self.results.clear()
        self.results.setColumnCount(len(headers))
        self.results.setHorizontalHeaderLabels(headers)
        self.results.setRowCount(len(rows))
        names = {ALL_CLASSES: self.tr("All classes"), UNCLASSIFIED: self.tr("(no class)")}
        for r, cp in enumerate(rows):
            natural = ", ".join(f"{self._nat_labels.get(k, k)} {v}" for k, v in cp.natural.items())
            cells = [names.get(cp.variant_class, cp.variant_class), str(cp.pairs), str(cp.answers), str(cp.confirmed),
                     str(cp.refuted), str(cp.undecided), format_proportion(cp.strict), format_proportion(cp.lenient),
                     natural]
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if c == 0 and cp.variant_class not in names:
                    cell.setToolTip(variant_class_description(cp.variant_class))
                if cp.variant_class == ALL_CLASSES:
                    f = cell.font()
                    f.setBold(True)
                    cell.setFont(f)
                self.results.setItem(r, c, cell)
        self.results.resizeColumnsToContents()
        self.results_note.setText(self.tr(
            "A pair is confirmed when more than half of its answers say the same meaning, refuted when more than "
            "half say not; precision = confirmed / pairs, lenient precision = pairs not refuted / pairs.")
            if rows else self.tr("No answers yet."))
