"""File > Export: run cards, the entries table, judgments and charts.

Each action asks for a file name and calls the export of the application layer that
``mteval export …`` calls too (:mod:`mteval_gui.app.exports`): run cards are checked against
the schema before they are written, judgments are lossless and re-importable.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from mteval_gui.qt import file_dialogs
from mteval_gui.qt.dialogs import reporting_errors


def _ask(window: Any, title: str, name: str, filters: str) -> str | None:
    path, _ = file_dialogs.save_file_name(window, title, name, filters)
    return path or None


def _run_for_export(window: Any) -> str | None:
    ids = window.runs_view.selected_run_ids()
    if ids:
        return ids[0]
    frame = window.entries_page.model.frame
    return frame.runs[0].run_id if frame is not None and frame.runs else None


def _written(window: Any, message: str, refreshed: bool) -> None:
    """Say what was written, and that the window was reread first when another program had changed
    the workspace (an export writes what the window shows)."""
    if refreshed:
        message += " " + QCoreApplication.translate(
            "MainWindow", "(the workspace had been changed by another program: the window was refreshed first)")
    window.statusBar().showMessage(message, 8000)


def export_run_card(window: Any, path: str | None = None) -> None:
    run_id = _run_for_export(window)
    if window.ws is None or run_id is None:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Select a run first."), 5000)
        return
    path = path or _ask(window, QCoreApplication.translate("MainWindow", "Export run card"), f"{run_id}.runcard.json",
                        QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    if path:
        refreshed = window.refresh_now()
        with reporting_errors(window) as report:
            from mteval_gui.app.exports import export_run_card

            export_run_card(window.ws, run_id, path)
        if report.failed:
            return
        _written(window, QCoreApplication.translate("MainWindow", "Run card written to {0}").format(path), refreshed)


def export_entries_csv(window: Any, path: str | None = None) -> None:
    from mteval_gui.app.exports import export_table

    model = window.entries_page.model
    if model.frame is None:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Open the entries of a run first."),
                                       5000)
        return
    path = path or _ask(window, QCoreApplication.translate("MainWindow", "Export entries"), "entries.csv",
                        QCoreApplication.translate("MainWindow", "CSV (*.csv);;TSV (*.tsv);;JSON lines (*.jsonl)"))
    if path:
        refreshed = window.refresh_now()
        with reporting_errors(window) as report:
            columns, rows = model.export_rows()
            n = export_table(rows, path, columns=columns)
        if report.failed:
            return
        _written(window, QCoreApplication.translate("MainWindow", "{0} entries written to {1}").format(n, path),
                 refreshed)


def export_judgments(window: Any, fmt: str, path: str | None = None) -> None:
    from mteval_gui.app.exports import export_judgments

    if window.ws is None:
        return
    filters = (QCoreApplication.translate("MainWindow", "CSV (*.csv)") if fmt == "csv"
               else QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    path = path or _ask(window, QCoreApplication.translate("MainWindow", "Export judgments"), f"judgments.{fmt}",
                        filters)
    if path:
        with reporting_errors(window) as report:
            _, n, _ = export_judgments(window.ws, path, fmt)
        if report.failed:
            return
        window.statusBar().showMessage(
            QCoreApplication.translate("MainWindow", "{0} judgments written to {1}").format(n, path), 8000)


def export_chart(window: Any) -> None:
    charts = window.extra_tabs.get("charts")
    if charts is None:
        return
    window.tabs.setCurrentWidget(charts)
    charts.export_dialog()
