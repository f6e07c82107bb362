"""The validation core works on plain data: it never imports the workspace, file readers, CLI or Qt."""

from __future__ import annotations

import ast
from pathlib import Path

import mteval_gui.validation as validation

FORBIDDEN = ("mteval_gui.store", "mteval_gui.io", "mteval_gui.cli", "mteval_gui.qt", "mteval_gui.app", "PySide6")


def test_validation_imports_only_allowed_layers():
    offenders = []
    for path in Path(validation.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert offenders == []
