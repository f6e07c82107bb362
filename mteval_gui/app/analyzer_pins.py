"""Whose analyzer a file is: the language cards that pin its sha256.

Kept apart from :mod:`mteval_gui.app.analyzers` so that a one-shot ``mteval evaluate`` checks
an ``--analyzer`` file without loading the workspace code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mteval_gui.cards import list_cards
from mteval_gui.fst.analyzer import sha256_file
from mteval_gui.fst.registry import KINDS


def pinned_by(path: str | Path) -> dict[str, str]:
    """``{language code: analyzer kind}`` of the language cards that pin the sha256 of the file at ``path``."""
    try:
        digest = sha256_file(Path(path).expanduser())
    except OSError:
        return {}
    out: dict[str, str] = {}
    for info in list_cards():
        card = info.card
        if card is None or card.analyzers is None:
            continue
        for name, pin in card.analyzers.sha256.items():
            if pin and pin.lower() == digest:
                kind = next((k for k in KINDS if getattr(card.analyzers, k, None) == name), "strict")
                out[card.code] = kind
    return out


def foreign_analyzer(options: Any, target: str) -> tuple[str, str] | None:
    """(file, why) when an explicit analyzer file of ``options`` must not score a run of ``target``:
    the language card of another language pins its sha256 (and ``target``'s does not); else None."""
    for key, what in (("analyzer_path", "analyzer"), ("descriptive_analyzer_path", "descriptive analyzer"),
                      ("generator_path", "generator")):
        path = getattr(options, key, None)
        if not path:
            continue
        owners = pinned_by(path)
        if owners and target not in owners:
            langs = ", ".join(sorted(owners))
            return str(path), (f"the {what} given is the {langs} analyzer (the {langs} language card pins its "
                               f"sha256), not one for {target}; the FST metrics need an analyzer of {target}")
    return None
