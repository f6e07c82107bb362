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

import dataclasses
from pathlib import Path

from mteval_gui import cards
from mteval_gui.cards import (
    AddedCard,
    CardInfo,
    CardReport,
    CardSource,
    card_sources,
    cards_dir,
    code_problem,
    list_cards,
    load_card,
    try_load_card,
    user_cards_dir,
)
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import CardError
from mteval_gui.scoring.discovery import Discovery, discover, validation_problems
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
    "Plugins", "add_card", "check_plugins", "discover_metrics", "rediscover_if_changed",
    "card_report", "card_sources", "cards_dir", "code_problem", "installed_plugins",
    "language_choices", "list_cards", "load_card", "try_load_card", "user_cards_dir", "validate_all",
]


def _with_metric_problems(info: CardInfo) -> CardInfo:
    extra = validation_problems(info.card) if info.card is not None else []
    return dataclasses.replace(info, problems=info.problems + tuple(extra)) if extra else info


def card_report(directory: str | Path | None = None, plugins: Plugins | None = None) -> CardReport:
    """Every card of every source with its problems, including those only the metric discovery sees
    (a ``metric_validation`` entry naming no metric): what ``mteval cards validate|list`` print."""
    report = cards.card_report(directory, plugins)
    checked = {id(info): _with_metric_problems(info) for info in report.files}
    for info in report.files:
        new = checked[id(info)]
        report.problems.extend(f"{new.label}: {p}" for p in new.problems[len(info.problems):])
    report.used = {code: checked.get(id(info), info) for code, info in report.used.items()}
    report.files = [checked[id(info)] for info in report.files]
    return report


def validate_all(directory: str | Path | None = None) -> list[str]:
    """Every problem of every card and plugin, as ``file: message`` lines (empty list = all good)."""
    return card_report(directory).problems


def add_card(path: str | Path, *, replace: bool = False) -> AddedCard:
    """Check a card file (its metric references too) and copy it to the user cards folder (:func:`cards.add_card`)."""
    first = cards.read_card(path)
    extra = validation_problems(first.card) if first.card is not None else []
    if extra:
        raise CardError("invalid language card", card=str(path), problems=list(first.problems) + extra)
    return cards.add_card(path, replace=replace)


def discover_metrics() -> Discovery:
    """The metric references of every bundled, user and plugin card, checked without importing a plugin."""
    infos = list_cards()
    return discover([i.card for i in infos if i.card is not None],
                    broken={i.code: [f"{i.path.name}: {p}" for p in i.problems] for i in infos if i.card is None})


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
