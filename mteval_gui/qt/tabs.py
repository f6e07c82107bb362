"""Tabs beyond runs and entries: compare, charts, validation and one tab per benchmark suite.

Each tab is added when its module imports; every benchmark suite an installed plugin provides
(ÈwéBench is the bundled one) gets a ``bench_view.BenchmarkTab`` titled by the suite, under the
key ``bench`` for the first suite and ``bench:<name>`` for the others.
"""

from __future__ import annotations

import importlib

from PySide6.QtCore import QCoreApplication

TABS = (
    ("compare", "mteval_gui.qt.compare_view", "CompareView", "Compare"),
    ("charts", "mteval_gui.qt.charts", "ChartsView", "Charts"),
    ("validation", "mteval_gui.qt.validation_view", "ValidationView", "Validation"),
)


def add_optional_tabs(window, *, suites: bool = True) -> None:
    titles = {"compare": QCoreApplication.translate("MainWindow", "Compare"),
              "charts": QCoreApplication.translate("MainWindow", "Charts"),
              "validation": QCoreApplication.translate("MainWindow", "Validation")}
    for key, module_name, cls_name, _ in TABS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        window.add_tab(key, getattr(module, cls_name)(), titles[key])
    if suites:
        add_suite_tabs(window)


def add_suite_tabs(window) -> None:
    """One tab per installed benchmark suite; a suite that cannot be loaded is left out (``mteval plugins``)."""
    from mteval_gui.app.bench import SuiteError, open_suite, suite_infos
    from mteval_gui.qt.bench_view import BenchmarkTab

    for i, info in enumerate(suite_infos()):
        try:
            open_suite(info.name)
        except SuiteError:
            continue
        window.add_tab("bench" if i == 0 else f"bench:{info.name}", BenchmarkTab(window.ws, suite=info.name),
                       info.title)
