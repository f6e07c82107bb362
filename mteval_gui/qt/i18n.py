"""Interface language: English (source strings) and French (``resources/translations``).

:func:`install_translators` loads the application's ``mteval_gui_<lang>.qm`` and Qt's own
``qtbase_<lang>.qm`` (standard buttons, file dialogs) into the application. The language is
the ``--lang`` option, else the saved preference, else the system locale.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from mteval_gui.paths import resources_dir

LANGUAGES = {"en": "English", "fr": "Français"}


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # noqa: N802 (the name pyside6-lupdate extracts)
    """Mark ``source`` for translation in ``context`` and return it unchanged; it is translated
    where it is shown (``QCoreApplication.translate(context, source)``). PySide6's function of this
    name does the same but is declared to return ``object``."""
    return source


def translations_dir() -> Path:
    return resources_dir() / "translations"


def qm_path(lang: str) -> Path:
    return translations_dir() / f"mteval_gui_{lang}.qm"


def resolve_language(requested: str | None, saved: str | None) -> str:
    for lang in (requested, saved):
        if lang in LANGUAGES:
            return lang
    system = QLocale.system().name().split("_")[0]
    return system if system in LANGUAGES else "en"


def install_translators(app: QCoreApplication, lang: str) -> list[QTranslator]:
    """Install the translators for ``lang``; returns them (keep references alive)."""
    installed: list[QTranslator] = []
    if lang == "en":
        return installed
    qt = QTranslator(app)
    if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        installed.append(qt)
    own = QTranslator(app)
    if own.load(str(qm_path(lang))):
        app.installTranslator(own)
        installed.append(own)
    QLocale.setDefault(QLocale(lang))
    return installed
