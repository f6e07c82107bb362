"""Placeholders that word checks ignore: ``{name}``, ``%s``, ``<x>``...

A language card (``placeholders``) or a corpus (``metadata.placeholders``) declares which
placeholders its texts carry, as preset names or regular expressions. Leakage/code-switching,
language identification and orthography checks read a text with its placeholders blanked out,
so ``{name}`` in an Amharic output is not a Latin word. (Variable integrity in compliance
counts placeholders itself, with its own fixed list.)

Presets:

- ``braces``: ``{name}``, ``{{name}}``, ``{0}``;
- ``printf``: ``%s``, ``%d``, ``%i``, ``%f``, ``%(name)s``;
- ``dollar``: ``$1``, ``$name``;
- ``tags``: ``<x>``, ``</x>``, ``<x/>``, ``<x attr="v">``.

Any other string is a regular expression in Python syntax, matched in linear time (the rules of
:mod:`mteval_gui.linear_regex`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mteval_gui.linear_regex import UnsupportedPattern, compile_masker, compile_rule

PRESETS: dict[str, str] = {
    "braces": r"\{\{[^{}\s]+\}\}|\{[^{}\s]+\}",
    "printf": r"%(?:\([^()\s]+\))?[sdif]",
    "dollar": r"\$(?:[0-9]+|[A-Za-z_][A-Za-z0-9_]*)",
    "tags": r"</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>",
}

Masker = Callable[[str], str]


def pattern_of(item: str) -> str:
    """The regular expression of a declared placeholder (a preset name or a pattern)."""
    return PRESETS.get(item, item)


def problem(item: str) -> str | None:
    """Why ``item`` cannot be a placeholder declaration (None when it can)."""
    if not item:
        return "empty pattern"
    try:
        compile_masker(pattern_of(item))
        matches_empty = compile_rule(pattern_of(item))("")
    except re.error as exc:
        return f"invalid regular expression {item!r}: {exc}"
    except UnsupportedPattern as exc:
        return str(exc)
    if matches_empty:
        return f"{item!r} matches an empty text"
    return None


def declared(card_items: Iterable[str] = (), corpus_metadata: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The placeholders a card and a corpus declare (card first, without repeats)."""
    items: list[str] = list(card_items)
    meta = (corpus_metadata or {}).get("placeholders")
    if isinstance(meta, str):
        items.append(meta)
    elif isinstance(meta, list):
        items.extend(x for x in meta if isinstance(x, str))
    return tuple(dict.fromkeys(x for x in items if x))


def masker(items: Sequence[str]) -> Masker | None:
    """A function blanking out the declared placeholders of a text (None when none is declared;
    a declaration that cannot be compiled is skipped: the card check reports it)."""
    fns: list[Masker] = []
    for item in items:
        try:
            fns.append(compile_masker(pattern_of(item)))
        except (re.error, UnsupportedPattern):
            continue
    if not fns:
        return None

    def mask(text: str) -> str:
        for fn in fns:
            text = fn(text)
        return text

    return mask


def mask(text: str | None, items: Sequence[str]) -> str:
    """``text`` with the placeholders of ``items`` written as spaces."""
    fn = masker(items)
    return fn(text or "") if fn is not None else (text or "")
