"""File > Export: run cards, the entries table, judgments, charts and human-evaluation campaigns.

Each action asks for a file name and calls the export of the application layer that
``mteval export …`` calls too (:mod:`mteval_gui.app.exports`): run cards are checked against
the schema before they are written, judgments are lossless and re-importable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from mteval_gui.qt import file_dialogs
from mteval_gui.qt.dialogs import inform, reporting_errors


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


def export_campaign(window: Any, tool: str, protocol: str = "esa", path: str | None = None) -> None:
    """The selected runs as an Appraise campaign (a folder: manifest and batches) or a Pearmut one (a file),
    as ``mteval export appraise|pearmut`` writes them; a warning (a language Appraise does not know) is shown."""
    ids = list(window.runs_view.selected_run_ids()) if window.ws is not None else []
    if not ids and (one := _run_for_export(window)) is not None:
        ids = [one]
    if window.ws is None or not ids:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Select a run first."), 5000)
        return
    if tool == "appraise":
        path = path or file_dialogs.existing_directory(window, QCoreApplication.translate(
            "MainWindow", "Folder for the Appraise campaign (manifest.json, batches.json)"), "")
    else:
        path = path or _ask(window, QCoreApplication.translate("MainWindow", "Export Pearmut campaign"),
                            "pearmut-campaign.json", QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    if not path:
        return
    refreshed = window.refresh_now()
    with reporting_errors(window) as report:
        from mteval_gui.app.exchange import export_appraise, export_pearmut

        done = (export_appraise(window.ws, ids, path, task=protocol) if tool == "appraise"
                else export_pearmut(window.ws, ids, path, protocol=protocol))
    if report.failed:
        return
    _written(window, QCoreApplication.translate("MainWindow", "{0} outputs written to {1}").format(
        done.items, ", ".join(str(p) for p in done.paths)), refreshed)
    if done.warnings:
        inform(window, QCoreApplication.translate("MainWindow", "Campaign written, with warnings"),
               "\n".join(done.warnings))


def import_annotations(window: Any, path: str | None = None, source: str | None = None) -> None:
    """Annotations of an exported campaign back as judgments: Appraise's score CSV or Pearmut's log."""
    if window.ws is None:
        return
    appraise_filter = QCoreApplication.translate("MainWindow", "Appraise scores (*.csv)")
    pearmut_filter = QCoreApplication.translate("MainWindow", "Pearmut annotations (*.jsonl *.json)")
    if path is None:
        path, chosen = file_dialogs.open_file_name(window, QCoreApplication.translate(
            "MainWindow", "Import Appraise or Pearmut annotations"), "",
            f"{appraise_filter};;{pearmut_filter}")
        if not path:
            return
        source = source or ("pearmut" if chosen == pearmut_filter else "appraise")
    source = source or ("appraise" if Path(path).suffix.lower() == ".csv" else "pearmut")
    with reporting_errors(window) as report:
        from mteval_gui.app.exchange import import_appraise, import_pearmut

        summary = import_appraise(window.ws, path) if source == "appraise" else import_pearmut(window.ws, path)
    if report.failed:
        return
    window.statusBar().showMessage(QCoreApplication.translate(
        "MainWindow", "Imported {0} judgments ({1} already present)").format(
        summary["judgments_added"], summary["judgments_unchanged"]), 10000)
    window.refresh_runs()
