"""Translatable messages in per-entry details: an English template and its arguments.

A plugin's metric or suite writes its English text as before (``"explanation": "..."``) and,
beside it, the message that text was rendered from (``"explanation_msg"``), so an interface
can show the text in another language::

    {"explanation": "reference words without counterpart: atim",
     "explanation_msg": {"template": "reference words without counterpart: {words}",
                         "args": {"words": "atim"}}}

A field ``X`` holding a list of lines has ``X_msg`` holding a list of messages, one a line.
An argument is a string or number (formatted with the template's format spec, e.g.
``{score:.2f}``), another message (rendered in the same language) or a list of messages
(rendered and joined with ``"; "``, itself translated by the catalog entry ``"; "``).

A catalog maps English templates to translated templates (``{template: translation}``); a
template the catalog lacks, or a translation that cannot be formatted with the arguments, is
rendered in English. :meth:`Message.text` (no catalog) is the English text the plugin stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

Arg: TypeAlias = "str | int | float | Message | Sequence[Message]"
Catalog = Mapping[str, str]
LIST_SEPARATOR = "; "
MSG_SUFFIX = "_msg"


@dataclass(frozen=True)
class Message:
    """An English ``template`` (``str.format`` fields) and its ``args``."""

    template: str
    args: Mapping[str, Arg] = field(default_factory=dict)

    def text(self, catalog: Catalog | None = None) -> str:
        """The message in the catalog's language (English without a catalog)."""
        return render(self.to_json(), catalog)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message a stored form (:meth:`to_json`) was written from."""
        def arg(v: Any) -> Arg:
            if is_message(v):
                return cls.from_json(v)
            if isinstance(v, list):
                return [cls.from_json(x) for x in v if is_message(x)]
            return v if isinstance(v, (str, int, float)) else str(v)

        raw = data.get("args") or {}
        return cls(str(data.get("template", "")), {k: arg(v) for k, v in raw.items()})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"template": self.template}
        if self.args:
            out["args"] = {k: _arg_json(v) for k, v in self.args.items()}
        return out


def msg(template: str, **args: Arg) -> Message:
    return Message(template, args)


def _arg_json(v: Arg) -> Any:
    if isinstance(v, Message):
        return v.to_json()
    if isinstance(v, (str, int, float)):
        return v
    return [_arg_json(x) for x in v]


def is_message(data: Any) -> bool:
    """Whether ``data`` is a stored message (``{"template": str, "args"?: {...}}``)."""
    return (isinstance(data, Mapping) and isinstance(data.get("template"), str)
            and isinstance(data.get("args", {}), Mapping) and set(data) <= {"template", "args"})


def _render_arg(v: Any, catalog: Catalog | None) -> Any:
    if is_message(v):
        return render(v, catalog)
    if isinstance(v, list):
        sep = (catalog or {}).get(LIST_SEPARATOR, LIST_SEPARATOR)
        return sep.join(str(_render_arg(x, catalog)) for x in v)
    return v


def render(data: Mapping[str, Any], catalog: Catalog | None = None) -> str:
    """A stored message as text: its template translated by ``catalog`` when it has it, else English."""
    template = str(data.get("template", ""))
    raw = data.get("args") or {}
    args = {k: _render_arg(v, catalog) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
    translated = (catalog or {}).get(template)
    if translated:
        try:
            return translated.format_map(args)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            pass  # a translation that does not fit the arguments: the English text
    try:
        return template.format_map(args)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return template


def localized(value: Any, catalog: Catalog | None) -> Any:
    """``value`` (a detail, or any JSON in it) with every field ``X`` that has an ``X_msg`` beside it
    replaced by that message rendered with ``catalog``, and the ``X_msg`` fields left out."""
    if isinstance(value, list):
        return [localized(x, catalog) for x in value]
    if not isinstance(value, Mapping):
        return value
    out: dict[str, Any] = {}
    for key, v in value.items():
        if key.endswith(MSG_SUFFIX) and key[: -len(MSG_SUFFIX)] in value:
            continue
        m = value.get(key + MSG_SUFFIX)
        if m is not None and is_message(m):
            out[key] = render(m, catalog)
        elif m is not None and isinstance(m, list) and isinstance(v, list) and len(m) == len(v) \
                and all(is_message(x) for x in m):
            out[key] = [render(x, catalog) for x in m]
        else:
            out[key] = localized(v, catalog)
    return out
