"""Review pane: the current entry's texts, character diff, verdicts and FST analyses.

The upper part is rich text built by :func:`mteval_gui.app.entry_review.review_html`; the
lower part lists each output word with all its analyses, accepted words green, rejected
red, non-standard spellings (accepted only by the descriptive analyzer) and words accepted
only after the card's orthographic folds (the respelling in the tooltip) orange. Reference
words can be analysed on demand with the language's installed analyzer. Blind mode hides
the reference, verdicts, metric values and the FST panel.

Below the analyses, the language's generator lists forms for the output words that the
analyzer rejects or reads with another inflection than the entry's gold analysis (the gold
form first, then the nearest paradigm cells; :mod:`mteval_gui.app.generator`): Alt+1 … Alt+9
(or Enter on a form) records the output with that form in place as the reviewer's
correction, and Alt+0 makes the entry's corrections accepted variants. The reference can be
shown in another script of the language (the card's transliteration), remembered per language.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app.entry_review import FstWord, OutputView, ReviewData, document_html, fst_words, review_html
from mteval_gui.app.generator import WordSuggestions, corrected_output
from mteval_gui.app.preferences import AppSettings
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP
from mteval_gui.qt.labels import VERDICT_COLOURS, interface_language, metric_label, span_term_labels, validation_labels

# the generator-form keys (Review ▸ Keyboard shortcuts lists them from here)
_USE_FORM = QT_TRANSLATE_NOOP("ReviewPane", "use this generator form as your correction")
GENERATOR_SHORTCUTS: tuple[tuple[str, str], ...] = (
    *((f"Alt+{n}", _USE_FORM) for n in range(1, 10)),
    ("Alt+0", QT_TRANSLATE_NOOP("ReviewPane", "accept the entry's corrections as variants")),
)

ACCEPTED_BG = "#d9f2d9"
REJECTED_BG = "#f8d0d0"
NON_STANDARD_BG = "#fde3c0"

STYLE = """
h3 { margin: 8px 0 2px 0; font-size: 11pt; color: #444; }
p.text { font-size: 14pt; margin: 2px 0 4px 0; }
p.meta { color: #555; }
p.error { color: #a00000; font-style: italic; }
p.metrics { color: #333; }
span.validation { color: #777; font-size: 9pt; }
table.pairs { border-color: #bbb; }
p.ctx { font-size: 12pt; margin: 4px 0 0 0; }
p.ctxref { color: #444; margin: 0 0 0 24px; }
span.offset { color: #777; font-size: 9pt; }
"""


class ReviewPane(QWidget):
    # run_id, entry_id: make this entry's speaker corrections (and approved outputs) accepted variants
    promote_requested = Signal(str, str)
    # run_id, entry_id, the output with a generator form in place of a word: the reviewer's correction
    correction_chosen = Signal(str, str, str)
    # the reviewer asks to rate the document of the entry shown (Rate the document…)
    document_rating_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reviewPane")
        self.data: ReviewData | None = None
        self.blind = False
        self._reference_words: list[FstWord] | None = None
        self.reference_analyser: Callable[[str], list[FstWord] | None] | None = None  # set by the entries page
        self.preferred_run: str | None = None  # the run whose FST analyses are listed first
        # (data, view) -> the generator's forms for the output's words; None: no generator installed;
        # a text: why the language's generator cannot be used
        self.correction_suggester: Callable[[ReviewData, OutputView], list[WordSuggestions] | str | None] | None \
            = None
        self._forms: list[tuple[str, str, str]] = []  # (run_id, token, form) in key order
        self._shortcuts: list[QShortcut] = []

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.promote_button = QPushButton(self.tr("Accept speakers' corrections as variants"))
        self.promote_button.setObjectName("promoteButton")
        self.promote_button.setToolTip(self.tr("Add this entry's speaker corrections, and outputs speakers rated "
                                               "adequacy 5 or judged equivalent and natural, to the corpus as "
                                               "accepted variants (a new corpus version)"))
        self.promote_button.clicked.connect(self._promote)
        top = QHBoxLayout()
        top.addWidget(self.promote_button)
        top.addStretch(1)
        self.script_label = QLabel(self.tr("Reference in:"))
        top.addWidget(self.script_label)
        self.script_combo = QComboBox()
        self.script_combo.setObjectName("referenceScriptCombo")
        self.script_combo.setToolTip(self.tr("Show the reference in another script of the language (the card's "
                                             "transliteration); remembered per language"))
        self.script_combo.currentIndexChanged.connect(self._script_changed)
        top.addWidget(self.script_combo)
        lay.addLayout(top)
        doc_bar = QHBoxLayout()
        self.document_toggle = QToolButton()
        self.document_toggle.setObjectName("documentToggle")
        self.document_toggle.setCheckable(True)
        self.document_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.document_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.document_toggle.setToolTip(self.tr("Show or hide the neighbouring segments of the same document"))
        self.document_toggle.toggled.connect(self._document_toggled)
        doc_bar.addWidget(self.document_toggle)
        doc_bar.addStretch(1)
        self.document_rate_button = QPushButton(self.tr("Rate the document…"))
        self.document_rate_button.setObjectName("rateDocumentButton")
        self.document_rate_button.setToolTip(self.tr("Rate the translation of the whole document: adequacy and "
                                                     "fluency 1-5 (Ctrl+Shift+D)"))
        self.document_rate_button.clicked.connect(self.document_rating_requested)
        doc_bar.addWidget(self.document_rate_button)
        lay.addLayout(doc_bar)
        self.document_text = QTextBrowser()
        self.document_text.setObjectName("documentText")
        self.document_text.setOpenLinks(False)
        self.document_text.document().setDefaultStyleSheet(STYLE)
        self.document_text.setMaximumHeight(180)
        self.document_text.setVisible(False)
        lay.addWidget(self.document_text)
        split = QSplitter(Qt.Orientation.Vertical)
        self.text = QTextBrowser()
        self.text.setObjectName("reviewText")
        self.text.setOpenLinks(False)
        self.text.document().setDefaultStyleSheet(STYLE)
        split.addWidget(self.text)

        fst_box = QWidget()
        fl = QVBoxLayout(fst_box)
        fl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.fst_title = QLabel(self.tr("FST analyses"))
        self.fst_title.setObjectName("sectionTitle")
        head.addWidget(self.fst_title)
        head.addStretch(1)
        self.run_combo = QComboBox()
        self.run_combo.setObjectName("fstRunCombo")
        self.run_combo.currentIndexChanged.connect(self._fill_fst)
        head.addWidget(self.run_combo)
        self.reference_box = QCheckBox(self.tr("Reference words"))
        self.reference_box.setToolTip(self.tr("Also analyse the reference's words with the installed analyzer"))
        self.reference_box.toggled.connect(self._fill_fst)
        head.addWidget(self.reference_box)
        fl.addLayout(head)
        self.fst = QTreeWidget()
        self.fst.setObjectName("fstTree")
        self.fst.setColumnCount(3)
        self.fst.setHeaderLabels([self.tr("Word"), self.tr("Status"), self.tr("Analyses")])
        self.fst.setRootIsDecorated(True)
        self.fst.setAlternatingRowColors(False)
        fl.addWidget(self.fst)
        self.forms_title = QLabel(self.tr("Generator forms (Alt+1…9: use as the correction; Alt+0: accept the "
                                          "corrections as variants)"))
        self.forms_title.setObjectName("sectionTitle")
        fl.addWidget(self.forms_title)
        self.forms = QTreeWidget()
        self.forms.setObjectName("generatorTree")
        self.forms.setColumnCount(3)
        self.forms.setHeaderLabels([self.tr("Key"), self.tr("Form"), self.tr("Analysis")])
        self.forms.itemActivated.connect(self._form_activated)
        fl.addWidget(self.forms)
        split.addWidget(fst_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.fst_box = fst_box
        lay.addWidget(split)
        self.show_data(None)

    def _labels(self) -> dict[str, str]:
        return {
            "source": self.tr("Source"), "reference": self.tr("Reference"), "variants": self.tr("Accepted variants"),
            "output": self.tr("Output"), "error": self.tr("System error"), "no_output": self.tr("(no output)"),
            "metrics": self.tr("Metrics"), "difficulty": self.tr("Difficulty"), "terminology": self.tr("Terminology"),
            "phenomena": self.tr("Phenomena"), "spans": self.tr("Error spans"), "correction": self.tr("Correction"),
            # between a label and its value ("Difficulty: 1"); French puts a no-break space before the colon
            "colon": self.tr(": ", "between a label and its value"),
            **span_term_labels(),
        }

    def _field_names(self) -> dict[str, str]:
        """The labels of the fields a verdict carries (and of its tables' columns)."""
        return {
            "explanation": self.tr("explanation"), "matched": self.tr("matched"), "pairs": self.tr("pairs"),
            "closest": self.tr("compared with"),
            "pairing": self.tr("pairing"), "coverage": self.tr("coverage"), "weight": self.tr("weight"),
            "score": self.tr("score"), "findings": self.tr("findings"),
            "unpaired_reference": self.tr("unpaired reference"), "unpaired_output": self.tr("unpaired output"),
            "missing": self.tr("missing"), "extraneous": self.tr("extraneous"),
            "undetermined": self.tr("undetermined"), "grammar": self.tr("form issues"), "mode": self.tr("mode"),
            "glossed": self.tr("glossed"), "reference": self.tr("reference"), "output": self.tr("output"),
            "classes": self.tr("classes"), "class": self.tr("class"), "acceptable": self.tr("acceptable"),
            "match": self.tr("match"), "note": self.tr("note"), "lemmas": self.tr("lemmas"),
            "gloss": self.tr("gloss"), "source_words": self.tr("source words"),
        }

    def set_blind(self, blind: bool) -> None:
        self.blind = blind
        self.show_data(self.data)

    def show_data(self, data: ReviewData | None) -> None:
        self.data = data
        self._reference_words = None
        if data is None:
            self.text.setHtml(f"<p style='color:#777'>{self.tr('Select an entry to review it.')}</p>")
        else:
            names: dict[str, str] = {}
            for view in data.outputs:
                for mid in view.details:
                    names.setdefault(mid, metric_label(view.metrics.descriptor(mid)))
            self._fill_scripts(data)
            self.text.setHtml(review_html(data, blind=self.blind, labels=self._labels(), metric_names=names,
                                          verdict_colours=VERDICT_COLOURS, validation_names=validation_labels(),
                                          locale=interface_language(), field_names=self._field_names(),
                                          reference_script=self.script_combo.currentData()))
        self._fill_document()
        scripts_shown = bool(data is not None and data.written_in and not self.blind)
        self.script_combo.setVisible(scripts_shown)
        self.script_label.setVisible(scripts_shown)
        self.fst_box.setVisible(not self.blind)
        self.promote_button.setVisible(bool(not self.blind and data is not None and any(
            m.get("correction") for v in data.outputs for m in v.speaker_marks)))
        self.run_combo.blockSignals(True)
        current = self.preferred_run or self.run_combo.currentData()
        self.run_combo.clear()
        for view in (data.outputs if data else []):
            self.run_combo.addItem(view.label, view.run_id)
        idx = self.run_combo.findData(current)
        self.run_combo.setCurrentIndex(idx if idx >= 0 else 0)
        self.run_combo.setVisible(self.run_combo.count() > 1)
        self.run_combo.blockSignals(False)
        self._fill_fst()

    def _fill_document(self) -> None:
        """The "Same document" section: shown only when the entry belongs to a document with neighbours."""
        data = self.data
        context = data.document if data is not None else None
        has = context is not None and bool(context.before or context.after)
        self.document_toggle.setVisible(context is not None)
        self.document_rate_button.setVisible(context is not None)
        if context is None or data is None:
            self.document_text.setVisible(False)
            self.document_text.clear()
            return
        n = len(context.before) + len(context.after)
        self.document_toggle.setText(self.tr("Same document: %1 (%n neighbouring segment(s))", "", n)
                                     .replace("%1", context.document))
        self.document_toggle.setEnabled(has)
        output = self.tr("Output") if len(data.outputs) < 2 else f"{self.tr('Output')} — {data.outputs[0].label}"
        labels = {"reference": self.tr("Reference"), "output": output,
                  "this_entry": self.tr("This segment"), "colon": self.tr(": ", "between a label and its value")}
        self.document_text.setHtml(document_html(context, blind=self.blind, labels=labels, current=data.entry.source))
        self.document_text.setVisible(has and self.document_toggle.isChecked())

    def _document_toggled(self, on: bool) -> None:
        self.document_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        data = self.data
        self.document_text.setVisible(bool(on and data is not None and data.document is not None
                                           and (data.document.before or data.document.after)))

    def script_name(self, code: str) -> str:
        names = {"Latn": self.tr("Latin"), "Cans": self.tr("Canadian syllabics"), "Cyrl": self.tr("Cyrillic"),
                 "Arab": self.tr("Arabic"), "Ethi": self.tr("Ethiopic"), "Cher": self.tr("Cherokee")}
        return names.get(code, code)

    def _fill_scripts(self, data: ReviewData) -> None:
        combo = self.script_combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(self.tr("as written"), None)
        for script in data.written_in:
            combo.addItem(self.script_name(script), script)
        wanted = AppSettings.load().reference_scripts.get(data.target_lang or "")
        idx = combo.findData(wanted) if wanted else 0
        combo.setCurrentIndex(idx if idx >= 0 else 0)
        combo.blockSignals(False)

    def _script_changed(self, *_: object) -> None:
        data = self.data
        if data is None or not data.target_lang:
            return
        settings = AppSettings.load()
        script = self.script_combo.currentData()
        if script:
            settings.reference_scripts[data.target_lang] = script
        else:
            settings.reference_scripts.pop(data.target_lang, None)
        settings.save()
        self.show_data(data)

    def _promote(self) -> None:
        data = self.data
        if data is None:
            return
        for view in data.outputs:
            if any(m.get("correction") for m in view.speaker_marks):
                self.promote_requested.emit(view.run_id, data.entry.id)

    def install_shortcuts(self, host: QWidget) -> None:
        """Alt+1 … Alt+9 (use a generator form as the correction) and Alt+0 (accept the corrections as
        variants), active anywhere inside ``host``."""
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for i, (key, _) in enumerate(GENERATOR_SHORTCUTS):
            sc = QShortcut(QKeySequence(key), host)
            sc.setContext(ctx)
            sc.activated.connect(self._promote if key == "Alt+0" else (lambda i=i: self.use_form(i)))
            self._shortcuts.append(sc)

    def use_form(self, index: int) -> bool:
        """Emit the output with generator form ``index`` in place of its word (the reviewer's correction)."""
        data = self.data
        if data is None or self.blind or not 0 <= index < len(self._forms):
            return False
        run_id, token, form = self._forms[index]
        view = next((v for v in data.outputs if v.run_id == run_id), None)
        if view is None:
            return False
        self.correction_chosen.emit(run_id, data.entry.id, corrected_output(view.output.predicted, token, form))
        return True

    def _form_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        index = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(index, int):
            self.use_form(index)

    def current_view(self) -> OutputView | None:
        data = self.data
        if data is None:
            return None
        run_id = self.run_combo.currentData()
        return next((v for v in data.outputs if v.run_id == run_id), data.outputs[0] if data.outputs else None)

    def _fill_forms(self, view: OutputView | None) -> None:
        self.forms.clear()
        self._forms = []
        data = self.data
        words = None
        if data is not None and view is not None and self.correction_suggester is not None and not view.output.error:
            words = self.correction_suggester(data, view)
        self.forms_title.setText(self.tr("Generator forms (Alt+1…9: use as the correction; Alt+0: accept the "
                                         "corrections as variants)"))
        if isinstance(words, str):  # a generator that cannot be used (damaged, not the pinned file)
            self.forms_title.setText(self.tr("Generator forms: %1").replace("%1", words))
            self.forms_title.setVisible(True)
            self.forms.setVisible(False)
            return
        self.forms.setVisible(bool(words))
        self.forms_title.setVisible(bool(words))
        if not words or view is None:
            return
        reasons = {"rejected": self.tr("rejected by the analyzer"),
                   "other_analysis": self.tr("another inflection than the gold one")}
        for w in words:
            head = QTreeWidgetItem(["", w.token, self.tr("%1; gold: %2").replace("%1", reasons.get(w.reason, w.reason))
                                    .replace("%2", w.gold)])
            self.forms.addTopLevelItem(head)
            for s in w.forms:
                index = len(self._forms)
                key = f"Alt+{index + 1}" if index < 9 else ""
                note = self.tr("gold") if s.gold else s.changed or ""
                child = QTreeWidgetItem([key, s.form, f"{s.analysis}  ({note})"])
                child.setData(0, Qt.ItemDataRole.UserRole, index)
                if s.gold:
                    for col in range(3):
                        child.setBackground(col, QBrush(QColor(ACCEPTED_BG)))
                head.addChild(child)
                self._forms.append((view.run_id, w.token, s.form))
            head.setExpanded(True)
        for col in range(2):
            self.forms.resizeColumnToContents(col)

    def _fill_fst(self, *_: object) -> None:
        self.fst.clear()
        data = self.data
        if data is None or self.blind:
            self._fill_forms(None)
            return
        view = self.current_view()
        self._fill_forms(view)
        words = fst_words(view) if view is not None else None
        if words is None:
            item = QTreeWidgetItem(
                [self.tr("No FST analyses stored for this run (score it with an analyzer installed)."), "", ""]
            )
            item.setForeground(0, QBrush(QColor("#777777")))
            self.fst.addTopLevelItem(item)
        else:
            parent = self._group(self.tr("Output words")) if self.reference_box.isChecked() else None
            self._add_words(words, parent)
        if self.reference_box.isChecked() and data.entry.reference:
            if self._reference_words is None and self.reference_analyser is not None:
                self._reference_words = self.reference_analyser(data.entry.reference)
            group = self._group(self.tr("Reference words"))
            if self._reference_words is None:
                group.addChild(QTreeWidgetItem([self.tr("No analyzer installed for this language."), "", ""]))
            else:
                self._add_words(self._reference_words, group)
        self.fst.expandToDepth(0 if self.reference_box.isChecked() else -1)
        for col in range(2):
            self.fst.resizeColumnToContents(col)

    def _group(self, title: str) -> QTreeWidgetItem:
        g = QTreeWidgetItem([title, "", ""])
        f = g.font(0)
        f.setBold(True)
        g.setFont(0, f)
        self.fst.addTopLevelItem(g)
        g.setExpanded(True)
        return g

    def _add_words(self, words: list[FstWord], parent: QTreeWidgetItem | None) -> None:
        for w in words:
            if w.non_standard:
                status, bg = self.tr("non-standard spelling"), NON_STANDARD_BG
            elif w.accepted and w.folded:
                status, bg = self.tr("accepted after fold"), NON_STANDARD_BG
            elif w.accepted:
                status, bg = self.tr("accepted"), ACCEPTED_BG
            else:
                status, bg = self.tr("rejected"), REJECTED_BG
            # a non-standard spelling has no analysis of the strict analyzer: the descriptive one's is shown
            shown = w.analyses or w.descriptive
            first = shown[0] if shown else (w.non_standard or "")
            more = f"  (+{len(shown) - 1})" if len(shown) > 1 else ""
            item = QTreeWidgetItem([w.token, status, first + more])
            for col in range(3):
                item.setBackground(col, QBrush(QColor(bg)))
            tips = [*w.analyses]
            folded = self.tr("accepted as %1 after the orthographic folds").replace("%1", w.folded) if w.folded else ""
            if w.non_standard:
                tips.append(w.non_standard)
            if folded:
                tips.append(folded)
            tips += list(w.violations)
            item.setToolTip(2, "\n".join(tips))
            item.setToolTip(1, "\n".join([w.non_standard or "", folded, *w.violations]).strip())
            for a in w.analyses:
                item.addChild(QTreeWidgetItem(["", "", a]))
            for a in () if w.analyses else w.descriptive:
                item.addChild(QTreeWidgetItem(["", self.tr("descriptive"), a]))
            if parent is None:
                self.fst.addTopLevelItem(item)
            else:
                parent.addChild(item)
