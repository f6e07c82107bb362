"""Fonts that render the scripts the workbench shows: Cree syllabics, Cree SRO and Ewe.

:func:`choose_ui_font` picks the first installed family that has every sample character
(checked glyph by glyph, not by name); Qt's own fallback covers anything else. CI installs
``fonts-dejavu-core`` and ``fonts-noto-core``; DejaVu Sans covers all three scripts.
A bundle carries DejaVu Sans in ``resources/fonts``: :func:`register_bundled_fonts` adds those
files to the application's fonts, so the choice works on a machine without them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QRawFont

from mteval_gui.paths import bundled_fonts_dir

SAMPLES = {
    "Cree syllabics": "ᓀᐦᐃᔭᐍᐏᐣ ᐊᒋᒧᓯᐢ",
    "Cree SRO": "âêîô āēīō nêhiyawêwin",
    "Ewe": "ɖɛƒɣŋɔʋ ƉƐƑƔŊƆƲ",
}
PREFERRED = ("Noto Sans", "DejaVu Sans", "Noto Sans Canadian Aboriginal", "FreeSans", "Segoe UI", "Arial Unicode MS")


def register_bundled_fonts(folder: Path | None = None) -> list[str]:
    """Add the font files of ``folder`` (default: the bundle's fonts) to the application; the families added."""
    folder = bundled_fonts_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    families: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in (".ttf", ".otf"):
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id >= 0:
                families.extend(f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in families)
    return families


def missing_glyphs(family: str, text: str) -> list[str]:
    """Characters of ``text`` the family has no glyph for."""
    raw = QRawFont.fromFont(QFont(family, 11))
    return [ch for ch in dict.fromkeys(text) if not ch.isspace() and not raw.supportsCharacter(ord(ch))]


def covers_all(family: str) -> bool:
    return not any(missing_glyphs(family, s) for s in SAMPLES.values())


def choose_ui_font() -> str | None:
    """The first preferred installed family covering every sample, else any installed one that does."""
    families = QFontDatabase.families()
    for family in PREFERRED:
        if family in families and covers_all(family):
            return family
    for family in families:
        if covers_all(family):
            return family
    return None
