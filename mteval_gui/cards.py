"""Language cards: where they come from, loading, listing, validating and adding them.

**Where cards come from** (nowhere else; a card is looked up by its code only):

1. the **user cards folder**, ``<user data folder>/language_cards/`` (:func:`user_cards_dir`;
   ``mteval cards add FILE`` copies a checked card there);
2. the **bundled cards**, ``language_cards/`` (``$MTEVAL_CARDS_DIR`` replaces this folder, for
   development and tests);
3. the cards folders of **installed plugin packages** (:mod:`mteval_gui.standards`), by plugin
   name.

For one code the first source that has ``<code>.json`` wins: a user card replaces a bundled
or plugin card (listed as a note); a plugin card never replaces a bundled card or another
plugin's card (reported as a problem, the plugin's card is not used).

**Codes.** A code is an ISO 639-3 code, three lower-case letters; anything else (``"fr"``,
``"../../evil/zzq"``) is refused with :class:`CardError` before any path is built, so a code
read from a corpus can never make the application read a card from elsewhere.

**Checks.** Validation never raises: :func:`validate_all` returns every problem of every card
of every source as ``file: message`` lines (bundled cards by file name, the others by path),
plus the problems of plugins that could not be loaded, so one broken card or plugin cannot
hide the others. Checks go beyond the pydantic model: strict JSON (no duplicate keys, NaN or
Infinity), the file name matches ``code``, orthography rules compile for linear-time matching
(:mod:`mteval_gui.linear_regex`), folds and look-alikes
map single characters, the analyzer declaration is coherent, and every metric reference names
a class of the built-in metrics or of an installed plugin package (checked without importing
anything, :func:`mteval_gui.standards.class_ref_problem`). A card that names any other module
is refused with its file and field. Per-language validation levels (``metric_validation``)
must name a built-in metric or one of the card's ``evalMetrics``, and an ``external`` level
its evidence.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.judgments import CATEGORY_ID, ERROR_CATEGORIES
from mteval_gui.domain.placeholders import problem as placeholder_problem
from mteval_gui.domain.transliteration import problems as transliteration_problems
from mteval_gui.errors import CardError
from mteval_gui.linear_regex import rule_problem
from mteval_gui.standards import Plugins, class_ref_problem, installed_plugins
from mteval_gui.standards import generation as plugins_generation

CARDS_DIR_ENV = "MTEVAL_CARDS_DIR"
MAX_CARD_BYTES = 1_000_000
_CODE = re.compile(r"^[a-z]{3}$")
_METRIC_ID = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w-]*)+$")
_PYTHON_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")
_SOURCE_FORMATS = {"hfstol", "deb"}

SourceKind = Literal["user", "bundled", "plugin", "folder"]


def code_problem(code: object) -> str | None:
    """Why ``code`` cannot name a card (None for an ISO 639-3 code)."""
    if isinstance(code, str) and _CODE.match(code):
        return None
    shown = repr(code) if not isinstance(code, str) or len(code) <= 40 else repr(code[:40] + "...")
    return f"language code {shown} is not an ISO 639-3 code (three lower-case letters, e.g. crk, ewe, fra)"


def check_code(code: object) -> str:
    """``code`` when it is an ISO 639-3 code; else :class:`CardError` saying why."""
    problem = code_problem(code)
    if problem is not None:
        raise CardError(problem)
    assert isinstance(code, str)
    return code


def cards_dir(override: str | Path | None = None) -> Path:
    """The bundled cards folder: argument, then ``$MTEVAL_CARDS_DIR``, then ``language_cards/``."""
    if override is not None:
        return Path(override)
    env = os.environ.get(CARDS_DIR_ENV)
    if env:
        return Path(env)
    from mteval_gui.paths import language_cards_dir

    return language_cards_dir()


def user_cards_dir() -> Path:
    from mteval_gui.paths import user_cards_dir as _user

    return _user()


@dataclass(frozen=True)
class CardSource:
    """One folder cards are read from."""

    kind: SourceKind
    folder: Path
    plugin: str | None = None

    @property
    def label(self) -> str:
        return f"plugin {self.plugin}" if self.kind == "plugin" else self.kind


def card_sources(directory: str | Path | None = None, plugins: Plugins | None = None) -> list[CardSource]:
    """The folders searched, first match wins: user, bundled, then each plugin's (``directory``: that one only)."""
    if directory is not None:
        return [CardSource("folder", Path(directory))]
    plugins = plugins if plugins is not None else installed_plugins()
    out = [CardSource("user", user_cards_dir()), CardSource("bundled", cards_dir())]
    out.extend(CardSource("plugin", p.cards_dir, p.name) for p in plugins.plugins if p.cards_dir is not None)
    return out


@dataclass(frozen=True)
class CardInfo:
    """A card as found on disk: its code, file, sha256, source and (if valid) the parsed card."""

    code: str
    path: Path
    sha256: str
    card: LanguageCard | None
    problems: tuple[str, ...]
    source: CardSource | None = None

    @property
    def ok(self) -> bool:
        return self.card is not None and not self.problems

    @property
    def label(self) -> str:
        """How problems name the file: bundled cards by file name, user and plugin cards by path."""
        if self.source is None or self.source.kind in ("bundled", "folder"):
            return self.path.name
        return str(self.path)


def card_sha256(path: str | Path) -> str:
    """sha256 of the card file's bytes (recorded in run cards as ``language_card_sha256``)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _loc_of(exc: json.JSONDecodeError) -> str:
    return f"line {exc.lineno} column {exc.colno}"


def _pydantic_problems(exc: ValidationError) -> list[str]:
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(card)"
        out.append(f"{loc}: {err.get('msg', 'invalid')}")
    return out


class _Refused(ValueError):
    pass


def _strict_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(f"duplicate key {k!r}")
        out[k] = v
    return out


def _refuse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _strict_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"number {text} is out of range")
    return value


_STRICT = json.JSONDecoder(object_pairs_hook=_strict_pairs, parse_constant=_refuse_constant, parse_float=_strict_float)


def _semantic_problems(card: LanguageCard, stem: str, plugins: Plugins | None) -> list[str]:
    problems: list[str] = []
    if not _CODE.match(card.code):
        problems.append(f"code: {card.code!r} is not a three-letter lower-case ISO 639-3 code")
    if card.code != stem:
        problems.append(f"code: {card.code!r} does not match the file name {stem!r}.json")
    if not card.name.strip():
        problems.append("name: empty")
    for s in card.scripts:
        if not re.match(r"^[A-Z][a-z]{3}$", s):
            problems.append(f"scripts: {s!r} is not an ISO 15924 code like 'Latn'")
    orth = card.orthography
    for i, rule in enumerate(orth.rules):
        pattern_problem = rule_problem(rule.pattern)
        if pattern_problem is not None:
            where = f"orthography.rules[{i}].pattern" if pattern_problem.startswith("invalid") \
                else f"rule orthography.rules[{i}]"
            problems.append(f"{where}: {pattern_problem}")
        if not rule.message.strip():
            problems.append(f"orthography.rules[{i}].message: empty")
    for fname in ("lookalikes", "folds"):
        mapping = getattr(orth, fname)
        for src, dst in mapping.items():
            if not src:
                problems.append(f"orthography.{fname}: empty key")
            elif src == dst:
                problems.append(f"orthography.{fname}: {src!r} maps to itself")
    if orth.alphabet is not None:
        if not orth.alphabet:
            problems.append("orthography.alphabet: empty string (use null for no alphabet check)")
        for src, dst in orth.lookalikes.items():
            if src and src in orth.alphabet:
                problems.append(f"orthography.lookalikes: {src!r} is also in the alphabet")
            for ch in dst:
                if ch.lower() not in orth.alphabet and ch not in orth.alphabet:
                    problems.append(f"orthography.lookalikes: target {dst!r} of {src!r} is not in the alphabet")
                    break
    if not card.quotes:
        problems.append("quotes: empty list")
    for name, support in card.metric_model_support.items():
        if not support.model.strip():
            problems.append(f"metricModelSupport.{name}.model: empty")
    seen: set[str] = set()
    for i, ref in enumerate(card.eval_metrics):
        if not _METRIC_ID.match(ref.id):
            problems.append(f"evalMetrics[{i}].id: {ref.id!r} must look like 'namespace.name'")
        if not _PYTHON_NAME.match(ref.python_name):
            problems.append(f"evalMetrics[{i}].python_name: {ref.python_name!r} must look like "
                            "'package.module:ClassName'")
        else:
            refused = class_ref_problem(ref.python_name, plugins)
            if refused:
                problems.append(f"evalMetrics[{i}].python_name: {refused}")
        if ref.id in seen:
            problems.append(f"evalMetrics[{i}].id: duplicate metric id {ref.id!r}")
        seen.add(ref.id)
    problems.extend(_validation_problems(card))
    problems.extend(_profile_problems(card))
    an = card.analyzers
    if an is not None:
        if not any((an.strict, an.descriptive, an.generator)):
            problems.append("analyzers: declares no analyzer file (strict, descriptive or generator)")
        for role in ("strict", "descriptive", "generator"):
            fname = getattr(an, role)
            if fname is not None and (not fname.strip() or "/" in fname or "\\" in fname):
                problems.append(f"analyzers.{role}: {fname!r} must be a plain file name")
        if an.source_format not in _SOURCE_FORMATS:
            problems.append(f"analyzers.source_format: {an.source_format!r} is not one of {sorted(_SOURCE_FORMATS)}")
        if an.source_url is not None and not re.match(r"^(https?|file)://", an.source_url):
            problems.append(f"analyzers.source_url: {an.source_url!r} is not an http(s) or file URL")
        if an.source_url and an.source_format == "deb" and not an.source_url.endswith(".deb"):
            problems.append("analyzers.source_url: source_format is 'deb' but the URL does not name a .deb file")
        for fname, digest in an.sha256.items():
            if not re.match(r"^[0-9a-f]{64}$", digest):
                problems.append(f"analyzers.sha256.{fname}: not a hex sha256 digest")
    for i, item in enumerate(card.placeholders):
        why = placeholder_problem(item)
        if why is not None:
            problems.append(f"placeholders[{i}]: {why}")
    for i, decl in enumerate(card.transliterations):
        where = f"transliterations[{i}]"
        if card.scripts and decl.from_script != card.scripts[0]:
            problems.append(f"{where}.from: {decl.from_script!r} is not the card's first script {card.scripts[0]!r} "
                            "(the script its analyzers read)")
        if decl.to_script not in card.scripts:
            problems.append(f"{where}.to: {decl.to_script!r} is not among the card's scripts")
        problems.extend(transliteration_problems(decl, where))
    seen_categories: set[str] = set()
    for i, cat in enumerate(card.error_categories):
        if not CATEGORY_ID.match(cat.id):
            problems.append(f"errorCategories[{i}].id: {cat.id!r} must be lower case letters, digits, '-' or '_' "
                            "(at most 40, starting with a letter)")
        elif cat.id in ERROR_CATEGORIES:
            problems.append(f"errorCategories[{i}].id: {cat.id!r} is already a built-in category")
        elif cat.id in seen_categories:
            problems.append(f"errorCategories[{i}].id: duplicate category {cat.id!r}")
        if cat.label is not None and not cat.label.strip():
            problems.append(f"errorCategories[{i}].label: empty (leave it out to show the id)")
        seen_categories.add(cat.id)
    for name, rel in card.lexicon_files.items():
        if not rel or Path(rel).is_absolute() or ".." in Path(rel).parts:
            problems.append(f"lexicon_files.{name}: {rel!r} must be a relative path inside the standard's data folder")
    return problems


_TIER_NAMES = ("fluent", "deployable", "functional", "emerging")


def _profile_problems(card: LanguageCard) -> list[str]:
    """Calibrated composite profiles: weights over composite inputs, non-negative, summing to 1;
    tier thresholds in [0, 1] and in the tiers' order; the default names a profile."""
    from mteval_gui.domain.score_keys import PROFILES

    inputs = {k for weights in PROFILES.values() for k in weights}
    problems: list[str] = []
    for name, p in card.composite_profiles.items():
        where = f"composite_profiles.{name}"
        unknown = sorted(set(p.weights) - inputs)
        if unknown:
            problems.append(f"{where}.weights: {', '.join(unknown)} is not a composite input")
        if any(not math.isfinite(w) or w < 0 for w in p.weights.values()):
            problems.append(f"{where}.weights: a weight is negative or not a number")
        elif abs(sum(p.weights.values()) - 1.0) > 1e-3:
            problems.append(f"{where}.weights: they sum to {sum(p.weights.values()):g}, not 1")
        bad_tiers = sorted(set(p.tiers) - set(_TIER_NAMES))
        if bad_tiers:
            problems.append(f"{where}.tiers: {', '.join(bad_tiers)} is not a tier ({', '.join(_TIER_NAMES)})")
        values = [p.tiers[t] for t in _TIER_NAMES if t in p.tiers]
        if any(not math.isfinite(v) or not 0.0 <= v <= 1.0 for v in values):
            problems.append(f"{where}.tiers: a threshold is outside [0, 1]")
        elif values != sorted(values, reverse=True):
            problems.append(f"{where}.tiers: thresholds must not rise from fluent down to emerging")
    default = card.default_composite_profile
    if default is not None and default not in card.composite_profiles:
        problems.append(f"default_composite_profile: {default!r} is not one of composite_profiles")
    return problems


def _validation_problems(card: LanguageCard) -> list[str]:
    """An ``external`` validation level names its evidence.

    Whether ``metric_validation`` names a known metric is checked by the metric discovery
    (:func:`mteval_gui.scoring.discovery.check_card_refs`), which knows the built-in metrics:
    a card file is read without importing the scoring core.
    """
    problems: list[str] = []
    for metric_id in card.metric_validation:
        decl = card.validation_of(metric_id)
        if decl is not None and decl.level == "external" and not (decl.evidence or "").strip():
            problems.append(f"metric_validation.{metric_id}: level 'external' needs its evidence "
                            '({"level": "external", "evidence": "the study or speaker data"})')
    return problems


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; OSError for what is not a regular file or is larger than a card can be."""
    if not path.is_file():
        raise OSError(f"not a regular file: {path}")
    with path.open("rb") as fh:
        raw = fh.read(MAX_CARD_BYTES + 1)
    if len(raw) > MAX_CARD_BYTES:
        raise OSError(f"larger than {MAX_CARD_BYTES:,} bytes; not a language card")
    return raw


def read_card(path: str | Path, *, source: CardSource | None = None, plugins: Plugins | None = None,
              stem: str | None = None) -> CardInfo:
    """Read and check one card file. Never raises for a bad card: problems are returned.

    ``stem`` is the file name the card will have (default: its own), checked against ``code``.
    """
    path = Path(path)
    stem = stem if stem is not None else path.stem
    try:
        raw = _read_bytes(path)
    except OSError as exc:
        return CardInfo(stem, path, "", None, (f"cannot read: {exc.strerror or exc}",), source)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return CardInfo(stem, path, digest, None, (f"invalid UTF-8 at byte {exc.start}",), source)
    try:
        data = _STRICT.decode(text)
    except json.JSONDecodeError as exc:
        return CardInfo(stem, path, digest, None, (f"{_loc_of(exc)}: invalid JSON: {exc.msg}",), source)
    except (_Refused, RecursionError) as exc:
        msg = str(exc) if isinstance(exc, _Refused) else "nested too deeply"
        return CardInfo(stem, path, digest, None, (f"invalid JSON: {msg}",), source)
    if not isinstance(data, dict):
        return CardInfo(stem, path, digest, None, ("a card must be a JSON object",), source)
    try:
        card = LanguageCard.model_validate(data)
    except ValidationError as exc:
        return CardInfo(stem, path, digest, None, tuple(_pydantic_problems(exc)), source)
    return CardInfo(card.code, path, digest, card, tuple(_semantic_problems(card, stem, plugins)), source)


@dataclass
class CardReport:
    """Every card file of every source, the card used for each code, problems and notes."""

    sources: list[CardSource]
    files: list[CardInfo] = field(default_factory=list)
    used: dict[str, CardInfo] = field(default_factory=dict)  # code -> the card looked up for it
    problems: list[str] = field(default_factory=list)  # "file: message" lines (plugins: "plugin NAME: message")
    notes: list[str] = field(default_factory=list)


def card_report(directory: str | Path | None = None, plugins: Plugins | None = None) -> CardReport:
    """Read every card of every source (see the module docstring). Never raises."""
    plugins = plugins if plugins is not None else installed_plugins()
    report = CardReport(card_sources(directory, plugins))
    if directory is None:
        report.problems.extend(str(p) for p in plugins.problems)
    for source in report.sources:
        if not source.folder.is_dir():
            continue
        for path in sorted(p for p in source.folder.glob("*.json") if p.is_file()):
            info = read_card(path, source=source, plugins=plugins)
            report.files.append(info)
            report.problems.extend(f"{info.label}: {p}" for p in info.problems)
            code = path.stem
            if code_problem(code) is not None:
                continue  # never looked up: the file-name problem is already listed
            first = report.used.get(code)
            if first is None:
                report.used[code] = info
            elif source.kind == "plugin":
                report.problems.append(f"{info.label}: the {first.source.label if first.source else ''} card "
                                       f"{first.label} has the same code; this plugin card is not used")
            elif first.source is not None and first.source.kind == "user":
                report.notes.append(f"user card {first.label} replaces the {source.label} card {info.label}")
    return report


def list_cards(directory: str | Path | None = None) -> list[CardInfo]:
    """The card of each code, valid or not, sorted by code (``directory``: every card file of that folder)."""
    if directory is not None:
        return card_report(directory).files
    return [info for _, info in sorted(card_report().used.items())]


def card_codes(directory: str | Path | None = None) -> list[str]:
    """Codes of the cards that load without problems."""
    return [c.code for c in list_cards(directory) if c.ok]


def validate_all(directory: str | Path | None = None) -> list[str]:
    """Every problem of every card and plugin, as ``file: message`` lines (empty list = all good)."""
    return card_report(directory).problems


def find_card(code: str, directory: str | Path | None = None) -> tuple[Path, CardSource]:
    """Where the card of ``code`` is (nothing is read). CardError for a bad code or when there is none."""
    code = check_code(code)
    sources = card_sources(directory)
    for source in sources:
        path = source.folder / f"{code}.json"
        if path.is_file():
            return path, source
    where = ", ".join(str(s.folder) for s in sources)
    raise CardError(f"no language card for {code!r} (looked in {where})", card=code)


_STAMP_ENV = ("MTEVAL_HOME", "XDG_DATA_HOME", "APPDATA", CARDS_DIR_ENV)


@lru_cache(maxsize=32)
def _search_folders(directory: str | None, env: tuple[str | None, ...], plugins: int) -> tuple[str, ...]:
    return tuple(str(s.folder) for s in card_sources(directory))


def card_stamp(code: str, directory: str | Path | None = None) -> tuple[str, int]:
    """(folder of the card looked up for ``code``, its modification time; -1 when there is none).

    Cheap (one or two ``stat`` calls): a cache key for data derived from a card that changes
    when the card is edited or another card takes its place.
    """
    check_code(code)
    env = tuple(os.environ.get(k) for k in _STAMP_ENV)
    folders = _search_folders(None if directory is None else str(directory), env, plugins_generation())
    name = f"{code}.json"
    for folder in folders:
        try:
            st = os.stat(os.path.join(folder, name))
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            return folder, st.st_mtime_ns
    return (folders[-1] if directory is not None else folders[1]) if folders else "", -1


def card_info(code: str, directory: str | Path | None = None) -> CardInfo:
    """The card looked up for ``code`` (raises CardError for a code that is not ISO 639-3, or no card)."""
    path, source = find_card(code, directory)
    return read_card(path, source=source)


def load_card(code: str, directory: str | Path | None = None) -> LanguageCard:
    """The card of ``code``. Raises :class:`CardError` listing its problems if it is broken or absent."""
    info = card_info(code, directory)
    if info.card is None or info.problems:
        raise CardError("invalid language card", card=info.label, problems=list(info.problems))
    return info.card


def try_load_card(code: str | None, directory: str | Path | None = None) -> LanguageCard | None:
    """The card of ``code`` or None when absent, broken or not an ISO 639-3 code (scoring then runs without it)."""
    if not code:
        return None
    try:
        return load_card(code, directory)
    except CardError:
        return None


def load_card_sha256(code: str, directory: str | Path | None = None) -> str:
    return card_info(code, directory).sha256


@dataclass(frozen=True)
class AddedCard:
    info: CardInfo
    replaced: CardInfo | None  # the card that was looked up for this code before (None: a new language)


def add_card(path: str | Path, *, replace: bool = False) -> AddedCard:
    """Check a card file and copy it to the user cards folder as ``<code>.json``.

    Refused (:class:`CardError` with every problem, nothing written) when the card has problems,
    or when a card for its code exists already (bundled, plugin or user) and ``replace`` is false.
    """
    src = Path(path)
    first = read_card(src)
    code = first.card.code if first.card is not None else src.stem
    if code_problem(code) is not None:
        raise CardError("invalid language card", card=str(src), problems=[code_problem(code) or ""])
    info = read_card(src, stem=code)
    if not info.ok:
        raise CardError("invalid language card", card=str(src), problems=list(info.problems))
    existing = None
    try:
        existing = card_info(code)
    except CardError:
        existing = None
    if existing is not None and not replace:
        kind = existing.source.label if existing.source is not None else "existing"
        raise CardError(f"a {kind} card for {code!r} exists ({existing.path}); "
                        "give --replace to use this card instead", card=str(src))
    folder = user_cards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{code}.json"
    raw = _read_bytes(src)
    fd, tmp = tempfile.mkstemp(prefix=f".{code}.", suffix=".tmp", dir=str(folder))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return AddedCard(read_card(target, source=CardSource("user", folder)), existing)


def severity_weights(card: LanguageCard | None) -> dict[str, float]:
    """The card's own weights of error-span severities (empty: the built-in ones apply)."""
    if card is None:
        return {}
    return {k: float(v) for k, v in card.error_severity_weights.items()}


def error_categories(card: LanguageCard | None) -> tuple[str, ...]:
    """The error-span categories for a language: the built-in list, then the card's own."""
    extra = tuple(c.id for c in card.error_categories) if card is not None else ()
    return ERROR_CATEGORIES + tuple(c for c in extra if c not in ERROR_CATEGORIES)
