"""What the application does differently inside the bundle (no bundle built here)."""

from __future__ import annotations

import sys

from mteval_gui import paths


def test_extra_hint_outside_a_bundle_is_the_pip_command(monkeypatch):
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert not paths.is_frozen()
    assert paths.extra_install_hint("comet") == "pip install 'mteval-gui[comet]'"


def test_extra_hint_in_a_bundle_says_the_bundle_lacks_it(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert paths.is_frozen()
    assert paths.extra_install_hint("semantic") == (
        "this bundle does not include it; install mteval-gui with pip instead: pip install 'mteval-gui[semantic]'")


def test_bundled_fonts_folder_is_under_the_resources():
    assert paths.bundled_fonts_dir() == paths.resources_dir() / "fonts"


def test_review_packs_also_take_the_bundled_fonts(monkeypatch):
    from mteval_gui.io import review_pack

    monkeypatch.delenv(review_pack.FONT_DIRS_ENV, raising=False)
    assert paths.bundled_fonts_dir() in review_pack.font_dirs()
