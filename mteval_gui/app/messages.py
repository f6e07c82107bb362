"""Plugin messages in the interface's language: the translated text of a per-entry detail.

A plugin's metrics and suites store their English text and, beside it, the message it was
rendered from (``explanation`` / ``explanation_msg``, ``lines`` / ``lines_msg``: see
:mod:`mteval_gui.domain.messages`). Each plugin ships its own catalogs (the ``messages``
folder of its declaration, one ``LOCALE.json`` mapping English templates to translations);
the catalogs of every installed plugin are merged (the first plugin, by name, wins a template
two plugins translate), after the application's own (``resources/messages``: the lines the
core writes itself, such as ÈwéBench's status lines). English, an unknown language, a
template no catalog has and a detail without messages all give the stored English text.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from mteval_gui.domain.messages import MSG_SUFFIX, Catalog, is_message, localized, render
from mteval_gui.paths import resources_dir
from mteval_gui.standards import installed_plugins

_LOCALE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


def _read_catalog(path: Path, out: dict[str, str]) -> None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return  # no catalog for this language (or an unreadable one): English
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str) and isinstance(v, str) and v:
                out.setdefault(k, v)


@lru_cache(maxsize=8)
def _catalog(locale: str) -> dict[str, str]:
    out: dict[str, str] = {}
    with contextlib.suppress(FileNotFoundError):  # the application's own messages, then each plugin's
        _read_catalog(resources_dir() / "messages" / f"{locale}.json", out)
    for plugin in installed_plugins().plugins:
        if plugin.messages_dir is not None:
            _read_catalog(plugin.messages_dir / f"{locale}.json", out)
    return out


def message_catalog(locale: str | None) -> Catalog:
    """Every installed plugin's translations for ``locale`` ("fr", "fr_CA" falls back to "fr")."""
    if not locale or not _LOCALE.match(locale) or locale.split("_")[0] == "en":
        return {}
    merged = dict(_catalog(locale.split("_")[0]))
    if "_" in locale:
        merged.update(_catalog(locale))
    return merged


def clear_catalogs() -> None:
    """Forget the catalogs read (after installing a plugin in a running process)."""
    _catalog.cache_clear()
    _patterns.cache_clear()


def detail_text(detail: Mapping[str, Any], key: str, locale: str | None) -> Any:
    """The field ``key`` of a detail in ``locale``: its message (``key_msg``) rendered with the
    plugins' catalog (a list of lines for a list of messages), else the stored value."""
    value = detail.get(key)
    m = detail.get(key + MSG_SUFFIX)
    catalog = message_catalog(locale)
    if m is not None and is_message(m):
        return render(m, catalog)
    if isinstance(m, list) and isinstance(value, list) and len(m) == len(value) and all(is_message(x) for x in m):
        return [render(x, catalog) for x in m]
    return value


def localized_detail(detail: Any, locale: str | None) -> Any:
    """A detail (or any JSON in it) with every field that has a message rendered in ``locale``
    and the ``*_msg`` fields left out."""
    return localized(detail, message_catalog(locale))


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=8)
def _patterns(locale: str) -> list[tuple[re.Pattern[str], str]]:
    """The catalog's templates as patterns that match a text rendered from them (a placeholder
    matches any text), the longest literal first so that the most specific template wins."""
    out: list[tuple[int, re.Pattern[str], str]] = []
    for template, translation in message_catalog(locale).items():
        parts = _PLACEHOLDER.split(template)
        literal = "".join(parts[0::2])
        rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        try:
            out.append((len(literal), re.compile(rx, re.DOTALL), translation))
        except re.error:  # a placeholder named twice: the template is only matched literally
            out.append((len(literal), re.compile(re.escape(template)), translation))
    return [(rx, tr) for _, rx, tr in sorted(out, key=lambda x: -x[0])]


def _fill(template: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda p: values.get(p.group(1), p.group(0)), template)


def localized_text(text: str, locale: str | None) -> str:
    """A message the core wrote in English (an import defect, say), in ``locale`` when a catalog
    template renders it: ``duplicate id 'a' (first at line 2)`` matches the template
    ``duplicate id {id} (first at line {line})`` and is written again from its translation with
    the same values. A text no template renders is returned unchanged."""
    if not message_catalog(locale):
        return text
    for rx, translation in _patterns(str(locale)):
        m = rx.fullmatch(text)
        if m is not None:
            return _fill(translation, m.groupdict())
    return text
