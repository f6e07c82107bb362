"""The bundle smoke test builds the Linux bundle (minutes): it runs only when asked for.

``python -m pytest -m bundle tests/packaging`` (what ``.ci/run`` does after the suite) or
``MTEVAL_BUNDLE_TESTS=1`` selects it; otherwise its tests are skipped with that hint, so the
suite's own run time does not include a PyInstaller build.
"""

from __future__ import annotations

import os

import pytest


def bundle_tests_requested(config: pytest.Config) -> bool:
    return "bundle" in (config.getoption("markexpr", "") or "") or os.environ.get("MTEVAL_BUNDLE_TESTS") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if bundle_tests_requested(config):
        return
    skip = pytest.mark.skip(reason="builds the Linux bundle: run python -m pytest -m bundle tests/packaging")
    for item in items:
        if "bundle" in item.keywords:
            item.add_marker(skip)
