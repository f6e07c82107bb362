"""Language cards and evaluation standards: listing, validating and showing them.

``mteval cards …`` and the GUI's language choices read cards through these functions.
"""

from __future__ import annotations

from pathlib import Path

from mteval_gui.cards import CardInfo, cards_dir, list_cards, load_card, try_load_card, validate_all
from mteval_gui.domain.card import LanguageCard

__all__ = ["CardInfo", "cards_dir", "list_cards", "load_card", "try_load_card", "validate_all", "language_choices",
           "LanguageCard"]


def language_choices(directory: str | Path | None = None) -> list[tuple[str, str]]:
    """(code, "Name (code)") of every valid card, for language pickers."""
    return [(info.code, f"{info.card.name} ({info.code})") for info in list_cards(directory) if info.card is not None]
