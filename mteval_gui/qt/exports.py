"""File > Export: run cards, harness reports, the entries, runs and comparison tables, judgments,
benchmark results, charts and human-evaluation campaigns.

Each action asks for a file name and calls the export of the application layer that
``mteval export …`` calls too (:mod:`mteval_gui.app.exports`): run cards are checked against
the schema before they are written, judgments are lossless and re-importable.
"""

from __future__ import annotations

from pathlib import Path, PurePath
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


TABLE_SUFFIXES = (".tex", ".md", ".csv")  # the table dialogs' filters, in this order


def table_filters() -> list[str]:
    return [QCoreApplication.translate("MainWindow", "LaTeX table, booktabs (*.tex)"),
            QCoreApplication.translate("MainWindow", "Markdown table (*.md)"),
            QCoreApplication.translate("MainWindow", "CSV, numbers in full (*.csv)")]


def ask_table_path(parent: Any, title: str, name: str) -> str | None:
    """Ask where to write a table; a name without a table suffix gets the chosen filter's."""
    filters = table_filters()
    path, chosen = file_dialogs.save_file_name(parent, title, name, ";;".join(filters))  # in the last folder
    if not path:
        return None
    return with_table_suffix(path, filters.index(chosen) if chosen in filters else 0)


def with_table_suffix(path: str, filter_index: int) -> str:
    if PurePath(path).suffix.lower() in (*TABLE_SUFFIXES, ".latex", ".markdown"):
        return path
    return path + TABLE_SUFFIXES[filter_index]


def export_comparison_table(window: Any, path: str | None = None) -> None:
    """The Compare tab's table (File ▸ Export ▸ Comparison table)."""
    page = window.extra_tabs.get("compare")
    if page is None or page.comparison is None:
        window.statusBar().showMessage(QCoreApplication.translate(
            "MainWindow", "Compare runs first (select them in the Runs tab and press Compare)."), 5000)
        return
    window.tabs.setCurrentWidget(page)
    if path is None:
        page.export_dialog()
        return
    with reporting_errors(window) as report:
        page.export(path)
    if not report.failed:
        _written(window, QCoreApplication.translate("MainWindow", "Comparison table written to {0}").format(path),
                 False)


def export_runs_table(window: Any, path: str | None = None) -> None:
    """The runs table as shown (its corpus filter and order), with intervals (File ▸ Export ▸ Runs table)."""
    from mteval_gui.app.tables import export_runs

    if window.ws is None:
        return
    path = path or ask_table_path(window, QCoreApplication.translate("MainWindow", "Export runs table"), "runs.tex")
    if path:
        refreshed = window.refresh_now()
        rows = list(window.runs_view.model.rows)
        with reporting_errors(window) as report:
            export_runs(rows, path)
        if report.failed:
            return
        _written(window, QCoreApplication.translate("MainWindow", "{0} runs written to {1}").format(len(rows), path),
                 refreshed)


def export_harness_report(window: Any, path: str | None = None) -> None:
    """The selected run as the reference harness's TestReport (``mteval export harness-report``)."""
    run_id = _run_for_export(window)
    if window.ws is None or run_id is None:
        window.statusBar().showMessage(QCoreApplication.translate("MainWindow", "Select a run first."), 5000)
        return
    path = path or _ask(window, QCoreApplication.translate("MainWindow", "Export harness report"),
                        f"{run_id}.report.json", QCoreApplication.translate("MainWindow", "JSON (*.json)"))
    if path:
        refreshed = window.refresh_now()
        with reporting_errors(window) as report:
            from mteval_gui.app.harness_export import export_harness_report

            export_harness_report(window.ws, run_id, path)
        if report.failed:
            return
        _written(window, QCoreApplication.translate("MainWindow", "Harness report of {0} written to {1}").format(
            run_id, path), refreshed)


def export_benchmark_results(window: Any) -> None:
    """The selected model's results of the first benchmark suite's tab (ÈwéBench), in one of its formats."""
    page = window.extra_tabs.get("bench")
    if page is None:
        return
    window.tabs.setCurrentWidget(page)
    if page.selected_result() is None:
        window.statusBar().showMessage(QCoreApplication.translate(
            "MainWindow", "Select a model's results in the {0} tab first.").format(page.suite.title), 5000)
        return
    page.choose_and_export()
