"""``packaging/build.py`` builds the user manual before the bundle, and stops when it cannot."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.packaging.build_script import load_build_script

REPO = Path(__file__).resolve().parents[2]


def _build_module():
    return load_build_script("mteval_packaging_build_manual")


def test_a_bundle_is_not_built_without_its_manual(monkeypatch):
    build = _build_module()
    real = importlib.util.find_spec
    monkeypatch.setattr(build.importlib.util, "find_spec",
                        lambda name, *a: None if name == "mkdocs" else real(name, *a))
    with pytest.raises(build.BuildError) as exc:
        build.build_manual()
    assert str(exc.value) == 'the user manual needs MkDocs and its Material theme: pip install -e ".[docs]"'


def test_the_spec_ships_the_resources_folder_the_manual_is_built_into():
    spec = (REPO / "packaging" / "mteval-gui.spec").read_text(encoding="utf-8")
    assert '(str(ROOT / "resources"), "resources")' in spec
    assert "site_dir: resources/manual" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")
