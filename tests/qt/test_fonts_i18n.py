"""Fonts for Cree syllabics, SRO and Ewe; translation files."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTranslator

from mteval_gui.qt.fonts import SAMPLES, choose_ui_font, missing_glyphs
from mteval_gui.qt.i18n import qm_path, resolve_language


def test_a_font_covers_every_script(qapp):
    family = choose_ui_font()
    assert family is not None
    for text in SAMPLES.values():
        assert missing_glyphs(family, text) == []


def test_language_resolution():
    assert resolve_language("fr", "en") == "fr"
    assert resolve_language(None, "fr") == "fr"
    assert resolve_language("xx", None) in ("en", "fr")


def test_french_translation_loads(qapp):
    t = QTranslator()
    assert t.load(str(qm_path("fr")))
    QCoreApplication.installTranslator(t)
    try:
        assert (
            QCoreApplication.translate("labels", "pending speaker review")
            == "en attente de validation par des locuteurs"
        )
        assert QCoreApplication.translate("RatingsPanel", "Adequacy") == "Adéquation"
    finally:
        QCoreApplication.removeTranslator(t)


def test_every_string_is_translated(tmp_path):
    """Extract the strings of the current sources into a copy of the .ts: none may lack a translation."""
    import importlib.util
    import shutil
    import subprocess
    from pathlib import Path

    import pytest

    repo = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("update_translations", repo / "scripts" / "update_translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.untranslated() == []
    lupdate = shutil.which("pyside6-lupdate")
    if lupdate is None:
        pytest.skip("pyside6-lupdate not on PATH")
    ts = tmp_path / "fr.ts"
    shutil.copy2(module.TS, ts)
    sources = sorted(str(p) for p in (repo / "mteval_gui" / "qt").glob("*.py"))
    subprocess.run([lupdate, *sources, "-no-obsolete", "-locations", "none", "-ts", str(ts)], check=True,
                   capture_output=True)
    assert module.untranslated(ts) == []


def test_bundled_fonts_are_registered(qapp, tmp_path):
    import shutil
    from pathlib import Path

    import pytest

    from mteval_gui.qt.fonts import register_bundled_fonts

    dejavu = next(Path("/usr/share/fonts").rglob("DejaVuSans.ttf"), None)
    if dejavu is None:
        pytest.skip("DejaVu Sans is not installed")
    shutil.copy2(dejavu, tmp_path / "DejaVuSans.ttf")
    (tmp_path / "LICENCE.txt").write_text("not a font", encoding="utf-8")
    assert register_bundled_fonts(tmp_path) == ["DejaVu Sans"]
    assert register_bundled_fonts(tmp_path / "absent") == []


def test_the_french_catalogue_names_the_linter_one_way():
    """The metric is the « Vérificateur cri »; its audit was the « linter » in French."""
    import xml.etree.ElementTree as ET

    root = ET.parse(qm_path("fr").with_suffix(".ts")).getroot()
    french = [m.findtext("translation") or "" for m in root.iter("message")]
    assert not [t for t in french if "linter" in t.casefold()]
    assert any("vérificateur" in t.casefold() for t in french)


def test_qt_s_own_dialog_strings_are_french(qapp):
    """The file dialogs' and standard buttons' labels are Qt's own: its French catalogue is loaded too."""
    from PySide6.QtCore import QLocale

    from mteval_gui.qt.i18n import install_translators

    previous = QLocale()
    installed = install_translators(qapp, "fr")
    try:
        assert len(installed) == 2
        assert QCoreApplication.translate("QFileDialog", "Look in:") != "Look in:"
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Annuler"
    finally:
        for t in installed:
            QCoreApplication.removeTranslator(t)
        QLocale.setDefault(previous)
