"""The import-linter layers name every top-level module, and the card files stay apart from the core and the plugins.

``lint-imports`` enforces the contracts; these tests check what the contracts cover and the
edges DESIGN §3 forbids (a language plugin or the scoring core reading card files, card files
importing the scoring core), so that a module added outside the layers is noticed.
"""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

import grimp

import mteval_gui

REPO = Path(__file__).resolve().parent.parent


def _contracts() -> list[dict]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_the_layers_name_every_top_level_module():
    layers = next(c for c in _contracts() if c["type"] == "layers")["layers"]
    named = {m.strip() for layer in layers for part in layer.split("|") for m in part.split(":")}
    top = {f"mteval_gui.{m.name}" for m in pkgutil.iter_modules(mteval_gui.__path__)}
    assert sorted(top - named) == []
    assert {"mteval_gui.cards", "mteval_gui.standards", "mteval_gui.__main__"} <= named


def _importers(graph: grimp.ImportGraph, target: str, prefix: str) -> list[str]:
    return sorted(m for m in graph.find_modules_that_directly_import(target) if m.split(".")[:len(prefix.split("."))]
                  == prefix.split("."))


def test_cards_are_read_by_the_application_not_by_the_core_or_the_plugins():
    graph = grimp.build_graph("mteval_gui", "eval_standards")
    assert _importers(graph, "mteval_gui.cards", "eval_standards") == []
    assert _importers(graph, "mteval_gui.cards", "mteval_gui.scoring") == []
    assert sorted(m for m in graph.find_modules_directly_imported_by("mteval_gui.cards")
                  if m.startswith("mteval_gui.scoring")) == []
