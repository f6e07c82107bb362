"""Language cards: loading, listing and validating the JSON card of each language.

A card lives in ``language_cards/<code>.json`` (``MTEVAL_CARDS_DIR`` points to another folder,
e.g. a user's own cards). Validation never raises: :func:`validate_all` returns every problem
of every card as ``file: message`` lines, so one broken card cannot hide the others.
Checks go beyond the pydantic model: the file name matches ``code``, orthography regexes
compile, folds and look-alikes map single characters, metric references are well formed
(checked without importing the plugin), and the analyzer declaration is coherent.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import CardError

CARDS_DIR_ENV = "MTEVAL_CARDS_DIR"
_CODE = re.compile(r"^[a-z]{3}$")
_METRIC_ID = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w-]*)+$")
_PYTHON_NAME = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
_SOURCE_FORMATS = {"hfstol", "deb"}


def cards_dir(override: str | Path | None = None) -> Path:
    """The folder cards are read from: argument, then ``$MTEVAL_CARDS_DIR``, then the bundled one."""
    if override is not None:
        return Path(override)
    env = os.environ.get(CARDS_DIR_ENV)
    if env:
        return Path(env)
    from mteval_gui.paths import language_cards_dir

    return language_cards_dir()


@dataclass(frozen=True)
class CardInfo:
    """A card as found on disk: its code, file, sha256 and (if valid) the parsed card."""

    code: str
    path: Path
    sha256: str
    card: LanguageCard | None
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.card is not None and not self.problems


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


def _semantic_problems(card: LanguageCard, stem: str) -> list[str]:
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
        try:
            re.compile(rule.pattern)
        except re.error as exc:
            problems.append(f"orthography.rules[{i}].pattern: invalid regular expression {rule.pattern!r}: {exc}")
        if not rule.message.strip():
            problems.append(f"orthography.rules[{i}].message: empty")
    for field in ("lookalikes", "folds"):
        mapping = getattr(orth, field)
        for src, dst in mapping.items():
            if not src:
                problems.append(f"orthography.{field}: empty key")
            elif src == dst:
                problems.append(f"orthography.{field}: {src!r} maps to itself")
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
            problems.append(f"evalMetrics[{i}].python_name: {ref.python_name!r} must look like 'package.module:ClassName'")
        if ref.id in seen:
            problems.append(f"evalMetrics[{i}].id: duplicate metric id {ref.id!r}")
        seen.add(ref.id)
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
    for name, rel in card.lexicon_files.items():
        if not rel or Path(rel).is_absolute() or ".." in Path(rel).parts:
            problems.append(f"lexicon_files.{name}: {rel!r} must be a relative path inside the standard's data folder")
    return problems


def read_card(path: str | Path) -> CardInfo:
    """Read and check one card file. Never raises for a bad card: problems are returned."""
    path = Path(path)
    stem = path.stem
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return CardInfo(stem, path, "", None, (f"cannot read: {exc.strerror or exc}",))
    digest = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return CardInfo(stem, path, digest, None, (f"invalid UTF-8 at byte {exc.start}",))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return CardInfo(stem, path, digest, None, (f"{_loc_of(exc)}: invalid JSON: {exc.msg}",))
    if not isinstance(data, dict):
        return CardInfo(stem, path, digest, None, ("a card must be a JSON object",))
    try:
        card = LanguageCard.model_validate(data)
    except ValidationError as exc:
        return CardInfo(stem, path, digest, None, tuple(_pydantic_problems(exc)))
    return CardInfo(card.code, path, digest, card, tuple(_semantic_problems(card, stem)))


def card_paths(directory: str | Path | None = None) -> list[Path]:
    d = cards_dir(directory)
    if not d.is_dir():
        return []
    return sorted(p for p in d.glob("*.json") if p.is_file())


def list_cards(directory: str | Path | None = None) -> list[CardInfo]:
    """Every card file of the folder, valid or not, sorted by file name."""
    return [read_card(p) for p in card_paths(directory)]


def card_codes(directory: str | Path | None = None) -> list[str]:
    """Codes of the cards that load without problems."""
    return [c.code for c in list_cards(directory) if c.ok]


def validate_all(directory: str | Path | None = None) -> list[str]:
    """Every problem of every card, as ``file: message`` lines (empty list = all good)."""
    out: list[str] = []
    for info in list_cards(directory):
        out.extend(f"{info.path.name}: {p}" for p in info.problems)
    return out


def card_info(code: str, directory: str | Path | None = None) -> CardInfo:
    path = cards_dir(directory) / f"{code}.json"
    if not path.is_file():
        raise CardError(f"no language card for {code!r} in {cards_dir(directory)}", card=code)
    return read_card(path)


def load_card(code: str, directory: str | Path | None = None) -> LanguageCard:
    """The card of ``code``. Raises :class:`CardError` listing its problems if it is broken or absent."""
    info = card_info(code, directory)
    if info.card is None or info.problems:
        raise CardError("invalid language card", card=f"{code}.json", problems=list(info.problems))
    return info.card


def try_load_card(code: str | None, directory: str | Path | None = None) -> LanguageCard | None:
    """The card of ``code`` or None when absent or broken (scoring then runs without it)."""
    if not code:
        return None
    try:
        return load_card(code, directory)
    except CardError:
        return None


def load_card_sha256(code: str, directory: str | Path | None = None) -> str:
    return card_info(code, directory).sha256
