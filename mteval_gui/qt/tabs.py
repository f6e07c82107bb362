"""Tabs beyond runs and entries: compare, charts, validation and ÈwéBench.

Each tab is added when its module imports; the ÈwéBench tab (``bench_view.BenchmarkTab``)
is written separately and appears once it is installed.
"""

from __future__ import annotations

import importlib

from PySide6.QtCore import QCoreApplication


TABS = (
    ("compare", "mteval_gui.qt.compare_view", "CompareView", "Compare"),
    ("charts", "mteval_gui.qt.charts", "ChartsView", "Charts"),
    ("validation", "mteval_gui.qt.validation_view", "ValidationView", "Validation"),
    ("bench", "mteval_gui.qt.bench_view", "BenchmarkTab", "ÈwéBench"),
)


def add_optional_tabs(window) -> None:
    titles = {"compare": QCoreApplication.translate("MainWindow", "Compare"), "charts": QCoreApplication.translate("MainWindow", "Charts"),
              "validation": QCoreApplication.translate("MainWindow", "Validation"), "bench": QCoreApplication.translate("MainWindow", "ÈwéBench")}
    for key, module_name, cls_name, _ in TABS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        cls = getattr(module, cls_name)
        widget = cls(window.ws) if key == "bench" else cls()
        window.add_tab(key, widget, titles[key])
