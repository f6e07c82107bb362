"""The one way the GUI reports errors, plus small shared dialog helpers.

:func:`show_error` turns any exception into a message box: the short message first, the
complete detail (every ``file:line: message`` defect of an :class:`InputError`, the hint of a
:class:`DependencyMissing`, or a traceback for unexpected errors) under "Show Details".
:func:`describe_error` builds that text without Qt so it can be tested directly.

:func:`reporting_errors` is how an action uses it::

    with reporting_errors(self) as report:
        do_something(self.ws)
    if report.failed:
        return

An error raised inside the block is shown (``show_error``) and swallowed; ``report.error``
holds it. :class:`~mteval_gui.errors.Cancelled` is not an error: it is swallowed silently.
``busy=True`` shows the wait cursor for the duration of the block.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from mteval_gui.errors import Cancelled, Defect, DependencyMissing, InputError, MtevalError

_OPTION = re.compile(r"(--[a-z][a-z-]*)(?: and (--[a-z][a-z-]*))?")


def _option_fields() -> dict[str, str]:
    """The fields of the GUI's import dialog that the command line's options stand for."""
    translate = QCoreApplication.translate
    return {"--source-lang": translate("dialogs", "Source language"),
            "--target-lang": translate("dialogs", "Target language"),
            "--id": translate("dialogs", "Corpus id"), "--run-id": translate("dialogs", "Run id"),
            "--corpus": translate("dialogs", "Corpus"), "--model-slug": translate("dialogs", "Model"),
            "--format": translate("dialogs", "Format"), "--ref-file": translate("dialogs", "Reference file")}


def defect_message(message: str) -> str:
    """A defect's message as the window says it: in the interface language (the application's
    message catalog), the command line's options named by the dialog fields they stand for
    (``give --source-lang`` becomes ``give “Source language”``)."""
    from mteval_gui.app.messages import localized_text
    from mteval_gui.qt.labels import interface_language

    fields = _option_fields()
    quoted = lambda o: QCoreApplication.translate("dialogs", "“{0}”").format(fields[o])  # noqa: E731

    def named(m: re.Match[str]) -> str:
        first, second = m.group(1), m.group(2)
        if first not in fields or (second is not None and second not in fields):
            return m.group(0)
        if second is None:
            return quoted(first)
        return QCoreApplication.translate("dialogs", "{0} and {1}").format(quoted(first), quoted(second))

    return _OPTION.sub(named, localized_text(message, interface_language()))


def defect_text(defect: Defect) -> str:
    """``file:line: message`` with the message as :func:`defect_message` says it."""
    where = str(defect)[: len(str(defect)) - len(defect.message)]
    return where + defect_message(defect.message)


@dataclass(frozen=True)
class ErrorText:
    title: str
    message: str
    detail: str


def describe_error(exc: BaseException) -> ErrorText:
    """Title, one-paragraph message and full detail of an exception, for a user."""
    if isinstance(exc, InputError):
        n = len(exc.defects)
        first = exc.defects[0].file if exc.defects else ""
        message = QCoreApplication.translate(
            "dialogs", "The file {0} was rejected: {1} problem(s) found. Nothing was written.").format(first, n)
        detail = "\n".join(defect_text(d) for d in exc.defects)
        return ErrorText(QCoreApplication.translate("dialogs", "Input rejected"), message, detail)
    detail_of = getattr(exc, "detail", "")
    if isinstance(exc, DependencyMissing):
        return ErrorText(QCoreApplication.translate("dialogs", "Not available"), str(exc), exc.hint)
    if isinstance(exc, MtevalError):
        detail = detail_of if isinstance(detail_of, str) else ""
        return ErrorText(QCoreApplication.translate("dialogs", "Error"), str(exc), detail)
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return ErrorText(QCoreApplication.translate("dialogs", "Unexpected error"), f"{type(exc).__name__}: {exc}", tb)


def error_box(parent: QWidget | None, exc: BaseException) -> QMessageBox:
    """The message box :func:`show_error` shows (not yet executed)."""
    text = describe_error(exc)
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(text.title)
    box.setText(text.message)
    if text.detail:
        box.setDetailedText(text.detail)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setObjectName("errorBox")
    return box


def _exec(box: QMessageBox) -> int:
    return box.exec()


def show_error(parent: QWidget | None, exc: BaseException) -> None:
    """Show ``exc`` to the user (modal). The single error path of the GUI."""
    _exec(error_box(parent, exc))


@dataclass
class ErrorReport:
    """What :func:`reporting_errors` caught (``failed`` is True once an error was shown)."""

    error: BaseException | None = None
    cancelled: bool = False

    @property
    def failed(self) -> bool:
        return self.error is not None or self.cancelled


@contextmanager
def reporting_errors(parent: QWidget | None, *, busy: bool = False) -> Iterator[ErrorReport]:
    """Show any error raised in the block to the user (see the module docstring)."""
    report = ErrorReport()
    if busy:
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield report
    except Cancelled:
        report.cancelled = True
    except Exception as exc:  # noqa: BLE001 (the GUI's one error path: every error is shown)
        report.error = exc
        if busy:
            QApplication.restoreOverrideCursor()
            busy = False
        show_error(parent, exc)
    finally:
        if busy:
            QApplication.restoreOverrideCursor()


def inform(parent: QWidget | None, title: str, text: str) -> None:
    """A modal notice (something was done differently from what the user may expect, not an error)."""
    box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("noticeBox")
    _exec(box)


def confirm(parent: QWidget | None, title: str, question: str) -> bool:
    box = QMessageBox(QMessageBox.Icon.Question, title, question,
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return _exec(box) == QMessageBox.StandardButton.Yes
