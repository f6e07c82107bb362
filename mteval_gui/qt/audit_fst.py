"""FST audit (SPEC §9, Task C): are the words the analyzer rejected really not words?

The queue (:func:`mteval_gui.app.audits.fst_audit_queue`) lists every word occurrence the
analyzer rejected in the chosen runs' outputs (optionally a seeded random sample). For each,
the view shows the word in its output sentence with the source and the reference, and asks:

- Valid word? Yes / No / Unsure (keys Y, N, U)
- Kind: Established / Loanword / Name / Dialectal / Neologism / Other (keys 1–6)

Every answer is saved at once as a Task C judgment (payload ``word``, ``valid``, ``kind``);
Ctrl+Z undoes the reviewer's latest Task C answer (see
:class:`~mteval_gui.qt.audit_common.AuditView`).

Below, the analyzer's false-rejection rate over every reviewer's current answers
(:func:`mteval_gui.app.audits.fst_audit`: valid / (valid + invalid) occurrences, 95 % Wilson
interval), the valid words by kind, and the allowlist of words speakers accept, which
"Export allowlist…" writes as a TSV allowlist or as JSON Lines test cases for the analyzer's
maintainers (:func:`mteval_gui.io.judgments.write_allowlist`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.workspace import Workspace
from mteval_gui.domain.judgments import Judgment
from mteval_gui.qt import file_dialogs
from mteval_gui.qt.audit_common import AuditView, ChoiceRow, format_proportion
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP

WORD_STYLE = "background-color:#f8d0d0; font-weight:bold;"
TEXT_STYLE = "font-size: 15pt;"


VALID = (("Yes", QT_TRANSLATE_NOOP("FstAuditView", "Yes"), "Y"),
         ("No", QT_TRANSLATE_NOOP("FstAuditView", "No"), "N"),
         ("Unsure", QT_TRANSLATE_NOOP("FstAuditView", "Unsure"), "U"))
KINDS = (("Established", QT_TRANSLATE_NOOP("FstAuditView", "Established"), "1"),
         ("Loanword", QT_TRANSLATE_NOOP("FstAuditView", "Loanword"), "2"),
         ("Name", QT_TRANSLATE_NOOP("FstAuditView", "Name"), "3"),
         ("Dialectal", QT_TRANSLATE_NOOP("FstAuditView", "Dialectal"), "4"),
         ("Neologism", QT_TRANSLATE_NOOP("FstAuditView", "Neologism"), "5"),
         ("Other", QT_TRANSLATE_NOOP("FstAuditView", "Other"), "6"))


def _options(options: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
    """(stored value, translated label, key) of each answer."""
    return [(value, QCoreApplication.translate("FstAuditView", label), key) for value, label, key in options]


def valid_options() -> list[tuple[str, str, str]]:
    return _options(VALID)


def kind_options() -> list[tuple[str, str, str]]:
    return _options(KINDS)


def highlight_word(text: str, word: str) -> str:
    """HTML of ``text`` with every whole-word occurrence of ``word`` marked."""
    if not word:
        return html.escape(text)
    pattern = re.compile(rf"(?<![\w\-']){re.escape(word)}(?![\w\-'])")
    out, pos = [], 0
    for m in pattern.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        out.append(f"<span style='{WORD_STYLE}'>{html.escape(m.group(0))}</span>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


class FstAuditView(AuditView):
    """Task C: words the analyzer rejected, judged by speakers."""

    TASK = "C"

    def __init__(self, parent: QWidget | None = None):
        self._valid_labels: dict[str | None, str] = {v: lab for v, lab, _ in valid_options()}
        self._kind_labels = {v: lab for v, lab, _ in kind_options()}
        self.audit: Any = None
        super().__init__(parent)
        self.setObjectName("fstAuditView")
        self.table.setObjectName("fstAuditQueue")
        self.results_box.setTitle(self.tr("Analyzer false rejections (all reviewers, 95 % Wilson interval)"))
        self.clear_details()

    # ----- building ------------------------------------------------------------------------
    def queue_headers(self) -> list[str]:
        return [self.tr("Run"), self.tr("Entry"), self.tr("Word")]

    def build_toolbar(self, layout: QHBoxLayout) -> None:
        layout.addWidget(QLabel(self.tr("Sample:")))
        self.sample = QSpinBox()
        self.sample.setObjectName("fstAuditSample")
        self.sample.setRange(0, 100000)
        self.sample.setSingleStep(50)
        self.sample.setSpecialValueText(self.tr("every word"))
        self.sample.setSuffix(self.tr(" words"))
        self.sample.setToolTip(self.tr("Audit a random sample (seed 0) of the rejected words; 0 = every word"))
        self.sample.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.sample.editingFinished.connect(self.reload)
        layout.addWidget(self.sample)

    def build_card(self, layout: QVBoxLayout) -> None:
        self.word = QLabel()
        self.word.setObjectName("auditWord")
        self.word.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.word)
        form = QFormLayout()
        self.output_text = self._label("auditOutput")
        self.source_text = self._label("auditSource")
        self.reference_text = self._label("auditReference")
        form.addRow(self.tr("Output:"), self.output_text)
        form.addRow(self.tr("Source:"), self.source_text)
        form.addRow(self.tr("Reference:"), self.reference_text)
        layout.addLayout(form)
        self.occurrences = QLabel()
        self.occurrences.setObjectName("auditOccurrences")
        self.occurrences.setWordWrap(True)
        layout.addWidget(self.occurrences)

    @staticmethod
    def _label(name: str) -> QLabel:
        lab = QLabel()
        lab.setObjectName(name)
        lab.setWordWrap(True)
        lab.setTextFormat(Qt.TextFormat.RichText)
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return lab

    def build_questions(self) -> list[tuple[str, ChoiceRow]]:
        return [("valid", ChoiceRow(self.tr("Valid word?"), valid_options(), "valid")),
                ("kind", ChoiceRow(self.tr("Kind:"), kind_options(), "kind"))]

    def build_results(self, layout: QVBoxLayout) -> None:
        row = QHBoxLayout()
        left = QVBoxLayout()
        form = QFormLayout()
        self.rate = QLabel("—")
        self.rate.setObjectName("fstFalseRejection")
        self.rate.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        f = self.rate.font()
        f.setBold(True)
        self.rate.setFont(f)
        self.counts = QLabel("—")
        self.counts.setObjectName("fstAuditCounts")
        self.counts.setWordWrap(True)
        self.kinds = QLabel("—")
        self.kinds.setObjectName("fstAuditKinds")
        self.kinds.setWordWrap(True)
        form.addRow(self.tr("False-rejection rate:"), self.rate)
        form.addRow(self.tr("Occurrences judged:"), self.counts)
        form.addRow(self.tr("Valid words by kind:"), self.kinds)
        left.addLayout(form)
        note = QLabel(self.tr("An occurrence is valid when more reviewers say Yes than No, invalid when more say No; "
                              "rate = valid / (valid + invalid)."))
        note.setWordWrap(True)
        left.addWidget(note)
        left.addStretch(1)
        self.export_button = QPushButton(self.tr("Export allowlist…"))
        self.export_button.setObjectName("exportAllowlist")
        self.export_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.export_button.clicked.connect(self.choose_export)
        left.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignLeft)
        row.addLayout(left, 2)
        self.allowlist = QTableWidget()
        self.allowlist.setObjectName("allowlistTable")
        self.allowlist.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.allowlist.verticalHeader().setVisible(False)
        self.allowlist.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        row.addWidget(self.allowlist, 3)
        layout.addLayout(row)

    # ----- items ---------------------------------------------------------------------------
    def queue_loader(self, run_ids: list[str]) -> Callable[[Workspace], list[tuple[str, str, str]]]:
        from mteval_gui.app.audits import fst_audit_queue

        limit = self.sample.value() or None
        return lambda ws: fst_audit_queue(ws, run_ids, limit=limit, seed=0)

    def item_key(self, item: tuple[str, str, str]) -> tuple:
        return tuple(item)

    def judgment_key(self, j: Judgment) -> tuple:
        return j.run_id, j.entry_id or "", j.payload.get("word") or ""

    def history(self, j: Judgment) -> list[Judgment]:
        from mteval_gui.app.review import judgment_history

        assert self.ws is not None
        return judgment_history(self.ws, j.reviewer_id, j.run_id, j.entry_id, "C", word=j.payload.get("word"))

    def queue_cells(self, item: tuple[str, str, str]) -> list[str]:
        return list(item)

    def make_judgment(self, item: tuple[str, str, str], answers: dict[str, Any], reviewer: str) -> Judgment:
        run_id, entry_id, word = item
        return Judgment(reviewer_id=reviewer, run_id=run_id, entry_id=entry_id, task="C",
                        payload={"word": word, "valid": answers.get("valid"), "kind": answers.get("kind")})

    def is_complete(self, payload: dict[str, Any] | None) -> bool:
        if not payload:
            return False
        valid = payload.get("valid")
        return valid in ("No", "Unsure") or (valid == "Yes" and payload.get("kind") is not None)

    def answer_text(self, payload: dict[str, Any]) -> str:
        valid, kind = payload.get("valid"), payload.get("kind")
        if valid is None and kind is None:
            return ""
        text = self._valid_labels.get(valid, "–")
        return f"{text} / {self._kind_labels.get(kind, kind)}" if kind else text

    def position_text(self, row: int, total: int, done: int, item: tuple[str, str, str]) -> str:
        return self.tr("Word {0} of {1} · {2} answered by you · run {3}, entry {4}").format(
            row + 1, total, done, item[0], item[1])

    def empty_queue_message(self) -> str:
        return self.tr("No rejected word to audit in these runs (score them with an analyzer installed: "
                       "the FST acceptance metric lists the words it rejects).")

    def clear_details(self) -> None:
        for lab in (self.word, self.output_text, self.source_text, self.reference_text, self.occurrences):
            lab.setText("")

    def show_details(self, item: tuple[str, str, str]) -> None:
        assert self.ws is not None
        run_id, entry_id, word = item
        corpus_id = self.scope.corpus_id()
        assert corpus_id is not None  # an item is shown: its corpus is chosen
        entry = workspace.get_entry(self.ws, corpus_id, entry_id)
        output = workspace.get_output(self.ws, run_id, entry_id)
        self.word.setText(f"<span style='font-size:20pt; font-weight:bold'>{html.escape(word)}</span>")
        self.output_text.setText(f"<span style='{TEXT_STYLE}'>{highlight_word(output.predicted or '', word)}</span>")
        self.source_text.setText(html.escape(entry.source))
        self.reference_text.setText(html.escape(entry.reference or "") or self.tr("(no reference)"))
        same = [q for q in self.queue if q[2] == word]
        entries = sorted({q[1] for q in same})
        if len(same) > 1:
            self.occurrences.setText(self.tr("Rejected {0} times in this queue (entries {1}). Each occurrence is "
                                             "judged in its context.").format(len(same), ", ".join(entries[:12]) +
                                                                             (" …" if len(entries) > 12 else "")))
        else:
            self.occurrences.setText(self.tr("Rejected once in this queue."))

    # ----- results -------------------------------------------------------------------------
    def refresh_results(self) -> None:
        from mteval_gui.app.audits import allowlist_rows, fst_audit

        runs = self.scope.run_ids()
        self.audit = None
        if self.ws is not None and runs:
            with reporting_errors(self):
                self.audit = fst_audit(self.ws, runs)
        a = self.audit
        rows = allowlist_rows(a) if a is not None else []
        if a is None or a.occurrences == 0:
            self.rate.setText("—")
            self.counts.setText(self.tr("none yet"))
            self.kinds.setText("—")
        else:
            self.rate.setText(format_proportion(a.false_rejection))
            self.counts.setText(self.tr("{0} ({1} valid, {2} invalid, {3} unresolved)").format(
                a.occurrences, a.valid, a.invalid, a.unresolved))
            self.kinds.setText(", ".join(f"{self._kind_labels.get(k, k)} {n}" for k, n in a.by_kind.items()) or "—")
        headers = [self.tr("Allowlist word"), self.tr("Kind"), self.tr("Occurrences"), self.tr("Reviewers"),
                   self.tr("Example")]
        self.allowlist.clear()
        self.allowlist.setColumnCount(len(headers))
        self.allowlist.setHorizontalHeaderLabels(headers)
        self.allowlist.setRowCount(len(rows))
        for r, row in enumerate(rows):
            cells = [row["word"], self._kind_labels.get(row["kind"], row["kind"]), str(row["occurrences"]),
                     str(row["raters"]), f"{row['run_id']} / {row['entry_id']}"]
            for c, text in enumerate(cells):
                self.allowlist.setItem(r, c, QTableWidgetItem(text))
        self.allowlist.resizeColumnsToContents()
        self.export_button.setEnabled(bool(rows))

    # ----- export --------------------------------------------------------------------------
    def choose_export(self) -> None:
        default = f"{self.scope.corpus_id() or 'fst'}-allowlist.tsv"
        tsv, jsonl = self.tr("Allowlist (*.tsv)"), self.tr("Analyzer test cases (*.jsonl)")
        path, chosen = file_dialogs.save_file_name(self, self.tr("Export allowlist"), default,
                                                   f"{tsv};;{jsonl}")
        if not path:
            return
        p = Path(path)
        if p.suffix.lower() not in (".tsv", ".jsonl"):
            p = p.with_suffix(".jsonl" if chosen == jsonl else ".tsv")
        self.export_allowlist(p)

    def export_allowlist(self, path: str | Path) -> Path | None:
        """Write the allowlist of the audited runs (``.tsv`` allowlist or ``.jsonl`` test cases)."""
        from mteval_gui.app.audits import allowlist_rows, fst_audit
        from mteval_gui.app.exports import export_allowlist

        if self.ws is None:
            return None
        with reporting_errors(self) as report:
            rows = allowlist_rows(fst_audit(self.ws, self.scope.run_ids()))
            written = export_allowlist(rows, path)
        if report.failed:
            return None
        self.status.setText(self.tr("Wrote {0} word(s) to {1}").format(len(rows), written))
        return written
