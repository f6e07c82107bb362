"""Where a language's analyzers are, and sharing them within one scoring job.

Analyzers live in the per-user folder ``paths.analyzers_dir()/<lang>/`` (``MTEVAL_ANALYZERS``
overrides it). A language card declares the file names it expects (``analyzers.strict``,
``.descriptive``, ``.generator``); ``mteval analyzers install`` copies files there and records
what it installed in ``analyzers.json`` (kind -> file, sha256, source). Lookup order for one
kind: an explicit path (``--analyzer``), the installed manifest, the file name the card declares.

Within a scoring job, metrics share one loaded analyzer per kind through
``context.shared["fst.strict"]`` / ``["fst.descriptive"]`` / ``["fst.generator"]``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mteval_gui import paths
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analyzer import Analyzer, AnalyzerError, load_analyzer

KINDS = ("strict", "descriptive", "generator")
MANIFEST = "analyzers.json"
SHARED_KEYS = {k: f"fst.{k}" for k in KINDS}
OPTION_KEYS = {"strict": "analyzer_path", "descriptive": "descriptive_analyzer_path", "generator": "generator_path"}
CACHE_OPTION = "fst_cache"
DIR_OPTION = "analyzers_dir"  # another analyzer folder than paths.analyzers_dir() for this job


class AnalyzerNotFound(MtevalError):
    """No analyzer of the requested kind is installed for a language."""

    def __init__(self, lang: str, kind: str = "strict", detail: str | None = None):
        self.lang = lang
        self.kind = kind
        msg = f"no analyzer for {lang}: run `mteval analyzers install {lang} PATH_OR_URL`"
        if kind != "strict":
            msg = (f"no {kind} analyzer for {lang}: run "
                   f"`mteval analyzers install {lang} PATH_OR_URL --kind {kind}`")
        if detail:
            msg += f" ({detail})"
        super().__init__(msg)


def language_dir(lang: str, base: Path | None = None) -> Path:
    return (base or paths.analyzers_dir()) / lang


def read_manifest(lang: str, base: Path | None = None) -> dict[str, dict[str, Any]]:
    """The installed-analyzer manifest of a language (empty when absent or unreadable)."""
    p = language_dir(lang, base) / MANIFEST
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict) and k in KINDS}


def write_manifest(lang: str, manifest: dict[str, dict[str, Any]], base: Path | None = None) -> Path:
    folder = language_dir(lang, base)
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / MANIFEST
    tmp = p.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(p)
    return p


def manifest_record(file: str, sha256: str, source: str | None) -> dict[str, Any]:
    return {
        "file": file,
        "sha256": sha256,
        "source": source,
        "installed_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def declared_file(card: LanguageCard | None, kind: str) -> str | None:
    if card is None or card.analyzers is None:
        return None
    return getattr(card.analyzers, kind, None)


def find_analyzer(card: LanguageCard | None, kind: str = "strict", *, lang: str | None = None,
                  path: str | Path | None = None, base: Path | None = None) -> Path | None:
    """The analyzer file of one kind for a language, or None when none is installed.

    An explicit ``path`` that does not exist raises :class:`AnalyzerNotFound`.
    """
    if kind not in KINDS:
        raise ValueError(f"analyzer kind must be one of {', '.join(KINDS)}, not {kind!r}")
    code = lang or (card.code if card is not None else None)
    if path is not None:
        p = Path(path).expanduser()
        if not p.is_file():
            raise AnalyzerNotFound(code or "?", kind, f"{p} does not exist")
        return p
    if not code:
        return None
    folder = language_dir(code, base)
    rec = read_manifest(code, base).get(kind)
    if rec and rec.get("file"):
        p = folder / rec["file"]
        if p.is_file():
            return p
    name = declared_file(card, kind)
    if name:
        p = folder / name
        if p.is_file():
            return p
    return None


def _option(context: Any, key: str) -> Any:
    opts = getattr(context, "options", None) or {}
    return opts.get(key)


def shared_analyzer(context: Any, kind: str = "strict") -> Analyzer:
    """The job's analyzer of one kind for the target language, loaded once per job.

    ``context`` is a ScoringContext (duck-typed: ``shared``, ``target_card``, ``target_lang``,
    ``options``: ``analyzer_path`` / ``descriptive_analyzer_path`` / ``generator_path`` for
    explicit files, ``analyzers_dir`` for another analyzer folder, ``fst_cache`` for a
    persistent cache factory). A failure is remembered in ``context.shared`` so every metric gets the same
    :class:`AnalyzerNotFound` without searching again.
    """
    shared: MutableMapping[str, Any] = context.shared
    key = SHARED_KEYS[kind]
    got = shared.get(key)
    if isinstance(got, Analyzer):
        return got
    if isinstance(got, AnalyzerNotFound):
        raise got
    card = getattr(context, "target_card", None)
    lang = getattr(context, "target_lang", None) or (card.code if card is not None else "?")
    try:
        base = _option(context, DIR_OPTION)
        p = find_analyzer(card, kind, lang=lang, path=_option(context, OPTION_KEYS[kind]),
                          base=Path(base) if base else None)
        if p is None:
            raise AnalyzerNotFound(lang, kind)
        try:
            analyzer = load_analyzer(p)
        except AnalyzerError as exc:
            raise AnalyzerNotFound(lang, kind, str(exc)) from exc
    except AnalyzerNotFound as exc:
        shared[key] = exc
        raise
    factory: Callable[[str], Any] | None = _option(context, CACHE_OPTION)
    if factory is not None and analyzer.sha256:
        analyzer.persistent_cache = factory(analyzer.sha256)
    shared[key] = analyzer
    return analyzer


def optional_shared_analyzer(context: Any, kind: str) -> Analyzer | None:
    """Like :func:`shared_analyzer` but None when the analyzer is not installed."""
    try:
        return shared_analyzer(context, kind)
    except AnalyzerNotFound:
        return None


def installed(lang: str, card: LanguageCard | None = None, base: Path | None = None) -> dict[str, Path]:
    """Installed analyzer files of a language by kind."""
    out = {}
    for kind in KINDS:
        p = find_analyzer(card, kind, lang=lang, base=base)
        if p is not None:
            out[kind] = p
    return out
