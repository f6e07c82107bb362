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
        assert QCoreApplication.translate("labels", "pending speaker review") == "en attente de validation par des locuteurs"
        assert QCoreApplication.translate("RatingsPanel", "Adequacy") == "Adéquation"
    finally:
        QCoreApplication.removeTranslator(t)
