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
import re
from collections.abc import Callable, MutableMapping
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from mteval_gui import paths
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analyzer import Analyzer, AnalyzerError, load_analyzer, sha256_file

KINDS = ("strict", "descriptive", "generator")
MANIFEST = "analyzers.json"
SHARED_KEYS = {k: f"fst.{k}" for k in KINDS}
OPTION_KEYS = {"strict": "analyzer_path", "descriptive": "descriptive_analyzer_path", "generator": "generator_path"}
CACHE_OPTION = "fst_cache"
DIR_OPTION = "analyzers_dir"  # another analyzer folder than paths.analyzers_dir() for this job


LANG_CODE = re.compile(r"[a-z]{3}")  # ISO 639-3


def valid_code(lang: str | None) -> bool:
    return isinstance(lang, str) and LANG_CODE.fullmatch(lang) is not None


def safe_file_name(name: str | None) -> bool:
    """A bare file name (no folder part, not ``.``/``..``): what a card or manifest may name."""
    if not name or name in (".", ".."):
        return False
    return PurePosixPath(name).name == name and Path(name).name == name


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


class AnalyzerUnusable(AnalyzerNotFound):
    """An analyzer file is there but must not be used: damaged, or not the file its card pins."""

    def __init__(self, lang: str, kind: str, detail: str):
        self.lang = lang
        self.kind = kind
        flag = "" if kind == "strict" else f" --kind {kind}"
        MtevalError.__init__(self, f"the {kind} analyzer for {lang} cannot be used: {detail}; install it again "
                                   f"(`mteval analyzers install {lang} PATH_OR_URL{flag}`)")


class AnalyzerOfAnotherLanguage(AnalyzerNotFound):
    """An explicit analyzer file is another language's (that language's card pins its sha256)."""

    def __init__(self, lang: str, kind: str, detail: str):
        self.lang = lang
        self.kind = kind
        MtevalError.__init__(self, detail)


REFUSED_OPTION = "analyzer_refused"


def language_dir(lang: str, base: Path | None = None) -> Path:
    """The analyzer folder of one language; ``lang`` must be an ISO 639-3 code (never a path)."""
    if not valid_code(lang):
        raise AnalyzerError(f"{lang!r} is not a language code: expected three lower-case letters (ISO 639-3, "
                            "e.g. crk)")
    return (base or paths.analyzers_dir()) / lang


def card_pin(card: LanguageCard | None, name: str) -> str | None:
    """The sha256 the language card pins for an analyzer file name (lower case), if any."""
    if card is None or card.analyzers is None:
        return None
    v = card.analyzers.sha256.get(name)
    return v.lower() if v else None


def check_pin(card: LanguageCard | None, path: Path) -> str | None:
    """Why ``path`` must not be used (it differs from the card's pin for its name), or None."""
    pin = card_pin(card, path.name)
    if pin is None:
        return None
    digest = sha256_file(path)
    if digest == pin:
        return None
    return f"{path} differs from the language card's pin (sha256 {digest}, the card expects {pin})"


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

    An explicit ``path`` that does not exist (or is a folder, a FIFO, a device) raises
    :class:`AnalyzerNotFound`. A ``lang`` that is not an ISO 639-3 code has no analyzer, and
    manifest or card file names with a folder part are ignored (nothing outside the
    language's folder is ever used).
    """
    if kind not in KINDS:
        raise ValueError(f"analyzer kind must be one of {', '.join(KINDS)}, not {kind!r}")
    code = lang or (card.code if card is not None else None)
    if path is not None:
        p = Path(path).expanduser()
        if not p.is_file():
            raise AnalyzerNotFound(code or "?", kind, f"{p} is not a regular file" if p.exists()
                                   else f"{p} does not exist")
        return p
    if not valid_code(code):
        return None  # not a language code: there is no analyzer folder for it
    assert code is not None
    folder = language_dir(code, base)
    rec = read_manifest(code, base).get(kind)
    if rec and safe_file_name(rec.get("file")):
        p = folder / str(rec["file"])
        if p.is_file():
            return p
    name = declared_file(card, kind)
    if safe_file_name(name):
        p = folder / str(name)
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
    persistent cache factory). A file that differs from the card's sha256 pin for its name, or
    that fails the checks of :func:`mteval_gui.fst.analyzer.read_transducer` (damaged,
    truncated, crashing the library in a child process), is never loaded:
    :class:`AnalyzerUnusable` says why. A failure is remembered in ``context.shared`` so every
    metric gets the same :class:`AnalyzerNotFound` without searching again.
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
        refused = _option(context, REFUSED_OPTION)
        if refused:
            raise AnalyzerOfAnotherLanguage(lang, kind, str(refused))
        base = _option(context, DIR_OPTION)
        p = find_analyzer(card, kind, lang=lang, path=_option(context, OPTION_KEYS[kind]),
                          base=Path(base) if base else None)
        if p is None:
            raise AnalyzerNotFound(lang, kind)
        mismatch = check_pin(card, p)
        if mismatch is not None:
            raise AnalyzerUnusable(lang, kind, mismatch)
        try:
            analyzer = load_analyzer(p)
        except AnalyzerError as exc:
            raise AnalyzerUnusable(lang, kind, str(exc)) from exc
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
