"""Language cards, evaluation standards and plugin packages: listing, validating, adding.

``mteval cards …``, ``mteval plugins`` and the GUI's language choices go through these
functions. Cards come from the user cards folder, the bundled cards and installed plugin
packages (:mod:`mteval_gui.cards`); plugins are found through their entry points
(:mod:`mteval_gui.standards`); a third-party plugin is imported only after a child process
imported it within a time limit (:mod:`mteval_gui.plugin_probe`).

**Installing a plugin while the application runs.** :func:`rediscover_if_changed` compares
the installed entry points (names, values, distributions and versions: no plugin is imported)
with those of the last discovery, and discovers again when they differ, forgetting what was
derived from the old set (card folders, loaded suites, message catalogs). The GUI calls it
when its window becomes active; the runs table and scoring plans call it before they judge
whether a run's metrics are still installed.
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
from mteval_gui.standards import (
    InstalledPlugin,
    PluginProblem,
    Plugins,
    installed_plugins,
    plugins_changed,
    refresh_plugins,
)

__all__ = [
    "AddedCard", "CardInfo", "CardReport", "CardSource", "InstalledPlugin", "LanguageCard", "PluginProblem",
    "Plugins", "add_card", "check_plugins", "rediscover_if_changed",
    "card_report", "card_sources", "cards_dir", "code_problem", "installed_plugins",
    "language_choices", "list_cards", "load_card", "try_load_card", "user_cards_dir", "validate_all",
]


def language_choices(directory: str | Path | None = None) -> list[tuple[str, str]]:
    """(code, "Name (code)") of every valid card, for language pickers."""
    return [(info.code, f"{info.card.name} ({info.code})") for info in list_cards(directory) if info.card is not None]


def _forget_derived() -> None:
    import sys

    bench = sys.modules.get("mteval_gui.app.bench")
    if bench is not None:
        bench._load.cache_clear()
    messages = sys.modules.get("mteval_gui.app.messages")
    if messages is not None:
        messages.clear_catalogs()


def check_plugins() -> Plugins:
    """Discover the plugins again, checking every third-party one in a child process anew (``mteval plugins``)."""
    plugins = refresh_plugins(recheck=True)
    _forget_derived()
    return plugins


def rediscover_if_changed() -> bool:
    """Discover the plugins again when a plugin was installed, removed or upgraded since (True: it was)."""
    if not plugins_changed():
        return False
    refresh_plugins()
    _forget_derived()
    return True
