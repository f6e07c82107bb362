"""Language cards, evaluation standards and plugin packages: listing, validating, adding.

``mteval cards …``, ``mteval plugins`` and the GUI's language choices go through these
functions. Cards come from the user cards folder, the bundled cards and installed plugin
packages (:mod:`mteval_gui.cards`); plugins are found through their entry points
(:mod:`mteval_gui.standards`).
"""

from __future__ import annotations

from pathlib import Path

from mteval_gui.cards import (
    AddedCard,
    CardInfo,
    CardReport,
    CardSource,
    add_card,
    card_report,
    card_sources,
    cards_dir,
    code_problem,
    list_cards,
    load_card,
    try_load_card,
    user_cards_dir,
    validate_all,
)
from mteval_gui.domain.card import LanguageCard
from mteval_gui.standards import InstalledPlugin, PluginProblem, Plugins, installed_plugins

__all__ = [
    "AddedCard", "CardInfo", "CardReport", "CardSource", "InstalledPlugin", "LanguageCard", "PluginProblem",
    "Plugins", "add_card", "card_report", "card_sources", "cards_dir", "code_problem", "installed_plugins",
    "language_choices", "list_cards", "load_card", "try_load_card", "user_cards_dir", "validate_all",
]


def language_choices(directory: str | Path | None = None) -> list[tuple[str, str]]:
    """(code, "Name (code)") of every valid card, for language pickers."""
    return [(info.code, f"{info.card.name} ({info.code})") for info in list_cards(directory) if info.card is not None]
