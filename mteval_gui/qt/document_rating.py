"""The document rating dialog: a speaker rates the translation of a whole document (task D).

Adequacy and fluency 1-5 and an optional note, keyboard first like the ratings panel: the digits
1-5 set adequacy, then fluency; Enter saves, Esc cancels. The entries page records the answer
(:func:`mteval_gui.app.documents.rate_document`), once per reviewer, run and document.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.qt.labels import adequacy_labels, fluency_labels


class DocumentRatingDialog(QDialog):
    def __init__(self, document: str, run_label: str, adequacy: int | None = None, fluency: int | None = None,
                 note: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentRatingDialog")
        self.setWindowTitle(self.tr("Rate the document"))
        lay = QVBoxLayout(self)
        intro = QLabel(self.tr("Rate the translation of the whole document %1 by %2 (digits 1-5: adequacy, then "
                               "fluency; Enter saves)").replace("%1", document).replace("%2", run_label))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.adequacy = self._scale(adequacy_labels(), adequacy)
        self.adequacy.setObjectName("documentAdequacy")
        self.fluency = self._scale(fluency_labels(), fluency)
        self.fluency.setObjectName("documentFluency")
        self.note = QLineEdit(note or "")
        self.note.setObjectName("documentNote")
        self.note.setPlaceholderText(self.tr("optional"))
        form.addRow(self.tr("&Adequacy"), self.adequacy)
        form.addRow(self.tr("&Fluency"), self.fluency)
        form.addRow(self.tr("&Note"), self.note)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        lay.addWidget(buttons)
        self._next_scale = self.adequacy if adequacy is None or fluency is not None else self.fluency
        self._update()
        self.adequacy.currentIndexChanged.connect(self._update)
        self.fluency.currentIndexChanged.connect(self._update)
        for combo in (self.adequacy, self.fluency):
            combo.installEventFilter(self)
        self.adequacy.setFocus()

    def _scale(self, labels: dict[int, str], value: int | None) -> QComboBox:
        combo = QComboBox()
        combo.addItem("—", None)
        for k, text in labels.items():
            combo.addItem(f"{k} – {text}", k)
        combo.setCurrentIndex(combo.findData(value) if value is not None else 0)
        return combo

    def _update(self, *_: object) -> None:
        self.save_button.setEnabled(self.values()[0] is not None or self.values()[1] is not None)

    def values(self) -> tuple[int | None, int | None, str | None]:
        """(adequacy, fluency, note) as chosen (None: not given)."""
        return self.adequacy.currentData(), self.fluency.currentData(), self.note.text().strip() or None

    def type_digit(self, digit: int) -> None:
        """A digit typed outside the note: adequacy first, then fluency."""
        scale = self._next_scale
        scale.setCurrentIndex(scale.findData(digit))
        self._next_scale = self.fluency if scale is self.adequacy else self.adequacy
        self._next_scale.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self._digit(event):
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if not self._digit(event):
            super().keyPressEvent(event)

    def _digit(self, event: QKeyEvent) -> bool:
        text = event.text()
        if self.focusWidget() is self.note or len(text) != 1 or text not in "12345" or event.modifiers() & (
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
            return False
        self.type_digit(int(text))
        return True
