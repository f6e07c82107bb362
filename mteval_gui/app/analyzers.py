"""Morphological analyzers: what each language declares, what is installed, installing one.

``mteval analyzers list|install`` and the GUI's *Install analyzer* dialog go through these
functions. The analyzer folder is the workspace's ``analyzer_dir`` setting when a workspace is
given, else the user data folder's (``MTEVAL_ANALYZERS`` overrides that default) — the folder
scoring looks in for the same workspace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.cards import list_cards, try_load_card
from mteval_gui.fst.analyzer import sha256_file
from mteval_gui.fst.install import CancelToken, InstallCancelled, Limits, install_analyzer, is_url
from mteval_gui.fst.olformat import FormatError, check_tables, read_layout
from mteval_gui.fst.registry import KINDS, declared_file, find_analyzer, read_manifest, valid_code
from mteval_gui.store.db import Workspace

__all__ = ["AnalyzerFile", "InstallCancelled", "LanguageAnalyzers", "analyzer_root", "analyzer_report", "install",
           "is_url"]


@dataclass(frozen=True)
class AnalyzerFile:
    kind: str
    path: Path | None  # None: declared by the card but not installed
    declared: str | None
    sha256: str | None = None
    pin: str | None = None
    source: str | None = None
    damage: str | None = None  # why the file is not a complete transducer (scoring will not load it)

    @property
    def pin_state(self) -> str:
        """``no pin``, ``matches card pin`` or ``DIFFERS from card pin …`` (and ``; DAMAGED: …``)."""
        if self.pin is None:
            state = "no pin"
        elif self.sha256 is not None and self.pin.lower() == self.sha256:
            state = "matches card pin"
        else:
            state = f"DIFFERS from card pin {self.pin}"
        return state + (f"; DAMAGED: {self.damage}" if self.damage else "")


@dataclass
class LanguageAnalyzers:
    lang: str
    name: str | None
    files: list[AnalyzerFile] = field(default_factory=list)
    source_url: str | None = None
    source_format: str | None = None


def analyzer_root(ws: Workspace | None = None) -> Path:
    """The analyzer folder of ``ws`` (its setting), else the default one."""
    if ws is not None:
        from mteval_gui.app.settings import analyzer_folder

        return analyzer_folder(ws)
    from mteval_gui.paths import analyzers_dir

    return analyzers_dir()


def analyzer_report(root: Path) -> list[LanguageAnalyzers]:
    """Every language that declares analyzers or has some installed under ``root`` (the staging
    folders of installs that were killed are removed first)."""
    from mteval_gui.fst.install import remove_abandoned_staging

    remove_abandoned_staging(root)
    cards = {c.code: c.card for c in list_cards() if c.card is not None}
    langs = {code for code, card in cards.items() if card.analyzers is not None}
    if root.is_dir():
        langs |= {p.name for p in root.iterdir() if p.is_dir() and valid_code(p.name)}
    out = []
    for lang in sorted(langs):
        card = cards.get(lang)
        entry = LanguageAnalyzers(lang, card.name if card is not None else None)
        manifest = read_manifest(lang, root)
        for kind in KINDS:
            declared = declared_file(card, kind)
            path = find_analyzer(card, kind, lang=lang, base=root)
            if path is None and declared is None:
                continue
            if path is None:
                entry.files.append(AnalyzerFile(kind, None, declared))
                continue
            pin = card.analyzers.sha256.get(path.name) if card is not None and card.analyzers is not None else None
            try:
                check_tables(path, read_layout(path))
                damage = None
            except (FormatError, OSError) as exc:
                damage = str(exc)
            entry.files.append(AnalyzerFile(kind, path, declared, sha256_file(path), pin,
                                            manifest.get(kind, {}).get("source"), damage))
        if card is not None and card.analyzers is not None and card.analyzers.source_url:
            entry.source_url, entry.source_format = card.analyzers.source_url, card.analyzers.source_format
        out.append(entry)
    return out


@dataclass(frozen=True)
class InstallOptions:
    """Where and how an analyzer is installed: the analyzers folder (default: the user's), the
    analyzer kind (default: from the file), the expected sha256, the timeout of each network read
    and the limit of the whole download (seconds; None: no limit)."""

    root: Path | None = None
    kind: str | None = None
    sha256: str | None = None
    timeout: float = 60.0
    max_seconds: float | None = None


def install(lang: str, source: str | Path | None, options: InstallOptions | None = None, *,
            on_progress: Callable[[int, int | None], None] | None = None,
            cancel: CancelToken | None = None) -> Any:
    """Install an analyzer of ``lang`` from a file or URL (default: the card's ``source_url``).

    ``cancel`` (e.g. a ``threading.Event``) stops it with :class:`InstallCancelled`, leaving
    nothing behind.
    """
    from mteval_gui.errors import MtevalError

    card = try_load_card(lang)
    if source is None:
        if card is None or card.analyzers is None or not card.analyzers.source_url:
            raise MtevalError(f"no PATH_OR_URL given and the {lang} card declares no analyzers.source_url")
        source = card.analyzers.source_url
    o = options or InstallOptions()
    limits = Limits() if o.max_seconds is None else Limits(download_seconds=o.max_seconds)
    return install_analyzer(lang, source, card=card, kind=o.kind, sha256=o.sha256, timeout=o.timeout,
                            on_progress=on_progress, base=o.root, cancel=cancel, limits=limits)

