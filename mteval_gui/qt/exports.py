"""File > Export: run cards, the entries table, judgments and charts.

Each action asks for a file name and calls the writer of the core: run cards through
:func:`mteval_gui.scoring.runcard.write_run_card`, tables through
:func:`mteval_gui.io.writers.write_table`, judgments through
:func:`mteval_gui.io.judgments.write_judgments` (lossless, re-importable).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from mteval_gui.qt.dialogs import show_error


def _ask(window: Any, title: str, name: str, filters: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(window, title, str(Path.home() / name), filters)
    return path or None


def _run_for_export(window: Any) -> str | None:
    ids = window.runs_view.selected_run_ids()
    if ids:
        return ids[0]
    frame = window.entries_page.model.frame
    return frame.runs[0].run_id if frame is not None and frame.runs else None


def write_run_card_file(ws: Any, run_id: str, path: str | Path) -> Path:
    from mteval_gui.errors import MtevalError
    from mteval_gui.app.scoring import refresh_review_status
    from mteval_gui.scoring.runcard import write_run_card

    card = refresh_review_status(ws, run_id)  # the speaker-review block as of now
    if card is None:
        raise MtevalError(f"run {run_id!r} has not been scored yet: score it first")
    return write_run_card(card, path)


def export_run_card(window: Any) -> None:
    run_id = _run_for_export(window)
    if window.ws is None or run_id is None:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Select a run first."), 5000)
        return
    path = _ask(window, QCoreApplication.translate("MainWindow", "Export run card"), f"{run_id}.runcard.json", QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    if path:
        try:
            write_run_card_file(window.ws, run_id, path)
        except Exception as exc:  # shown to the user
            show_error(window, exc)
            return
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Run card written to {0}").format(path), 8000)


def export_entries_csv(window: Any) -> None:
    from mteval_gui.io.writers import write_table

    model = window.entries_page.model
    if model.frame is None:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Open the entries of a run first."), 5000)
        return
    path = _ask(window, QCoreApplication.translate("MainWindow", "Export entries"), "entries.csv",
                QCoreApplication.translate("MainWindow", "CSV (*.csv);;TSV (*.tsv);;JSON lines (*.jsonl)"))
    if path:
        try:
            columns, rows = model.export_rows()
            n = write_table(rows, path, columns=columns)
        except Exception as exc:  # shown to the user
            show_error(window, exc)
            return
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "{0} entries written to {1}").format(n, path), 8000)


def export_judgments(window: Any, fmt: str) -> None:
    from mteval_gui.io.judgments import write_judgments
    from mteval_gui.store import judgments as jstore

    if window.ws is None:
        return
    path = _ask(window, QCoreApplication.translate("MainWindow", "Export judgments"), f"judgments.{fmt}",
                QCoreApplication.translate("MainWindow", "CSV (*.csv)") if fmt == "csv" else QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    if path:
        try:
            reviewers, judgments = jstore.export_log(window.ws)
            write_judgments(path, reviewers, judgments, fmt=fmt)
        except Exception as exc:  # shown to the user
            show_error(window, exc)
            return
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "{0} judgments written to {1}").format(len(judgments), path), 8000)


def export_chart(window: Any) -> None:
    charts = window.extra_tabs.get("charts")
    if charts is None:
        return
    window.tabs.setCurrentWidget(charts)
    charts.export_dialog()
