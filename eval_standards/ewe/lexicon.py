"""Editable Ewe word lists (``data/*.tsv``) named by the Ewe card's ``lexicon_files``.

File format: UTF-8 TSV; lines starting with ``#`` are comments; the first other line is a
header whose first column is ``word``; every later line holds a word (or a space-separated
word sequence) and further columns (gloss or class, and a ``source`` citation that must not be
empty). Words are compared in :func:`~eval_standards.ewe.orthography.fold_key` form.

Two lists are used by the Ewe quality heuristic:

- ``common_words``: common Ewe words (+0.05 each);
- ``french_words``: French words (−0.2 above five distinct ones). A word that is also in
  ``common_words`` is dropped from the French list, so ``le``/``la``/``de``/``du`` can never
  count as French even if someone adds them.

Two more are read by ÈwéBench's heuristic format criteria (``eval_standards.ewe.bench.methods``):

- ``stance_markers``: first-person opinion phrases (Ewe, French, English) for ``neutrality``;
- ``machine_terms``: words by which a response presents itself as a machine for
  ``role_preserved``.

A card that does not name these two gets the bundled files of ``data/``.

A malformed file raises :class:`~mteval_gui.errors.InputError` listing every defect as
``file:line: message``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from eval_standards.ewe.orthography import ewe_card, word_keys
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import CardError, Defect, InputError
from mteval_gui.text import nfc

DATA_DIR = Path(__file__).resolve().parent / "data"
REQUIRED_LISTS = ("common_words", "french_words")
# lists a card may leave out: the bundled file is used then
DEFAULT_LISTS = {"stance_markers": "stance_markers.tsv", "machine_terms": "machine_terms.tsv"}


@dataclass(frozen=True)
class WordEntry:
    word: str  # as written in the file (NFC)
    key: tuple[str, ...]  # folded word keys
    note: str
    source: str
    line: int


@dataclass(frozen=True)
class WordList:
    name: str
    path: str
    sha256: str
    entries: tuple[WordEntry, ...]
    keys: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", tuple(e.key for e in self.entries))

    def word_of(self, key: tuple[str, ...]) -> str:
        for e in self.entries:
            if e.key == key:
                return e.word
        return " ".join(key)


@dataclass(frozen=True)
class EweLexicon:
    """The word lists the Ewe quality heuristic and ÈwéBench's format criteria use."""

    common: WordList
    french: WordList
    french_ignored: tuple[str, ...] = field(default=())  # French entries dropped because they are common Ewe
    stance: WordList | None = None  # None: the bundled stance_markers.tsv
    machine: WordList | None = None  # None: the bundled machine_terms.tsv
    french_keys: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        common = set(self.common.keys)
        object.__setattr__(self, "french_keys", tuple(k for k in self.french.keys if k not in common))

    def describe(self) -> dict[str, dict[str, object]]:
        """File names, sha256 and sizes (recorded with benchmark results)."""
        lists = (self.common, self.french, self.stance_list(), self.machine_list())
        return {wl.name: {"file": Path(wl.path).name, "sha256": wl.sha256, "words": len(wl.entries)} for wl in lists}

    def stance_list(self) -> WordList:
        return self.stance if self.stance is not None else bundled_list("stance_markers")

    def machine_list(self) -> WordList:
        return self.machine if self.machine is not None else bundled_list("machine_terms")


def read_word_list(path: str | Path, name: str | None = None, folds: Mapping[str, str] | None = None) -> WordList:
    """Read one TSV word list; raises InputError with every defect of the file."""
    path = Path(path)
    fname = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(Defect(fname, None, f"cannot read word list: {exc.strerror or exc}")) from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad_line = raw[: exc.start].count(b"\n") + 1
        raise InputError(Defect(fname, bad_line, f"invalid UTF-8 at byte {exc.start}")) from exc
    defects: list[Defect] = []
    entries: list[WordEntry] = []
    seen: dict[tuple[str, ...], int] = {}
    header: list[str] | None = None
    source_col = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if header is None:
            header = [c.lower() for c in cols]
            if header[0] != "word":
                defects.append(Defect(fname, lineno, "the header's first column must be 'word'"))
            if "source" not in header:
                defects.append(Defect(fname, lineno, "the header has no 'source' column"))
            else:
                source_col = header.index("source")
            continue
        word = nfc(cols[0])
        if not word:
            defects.append(Defect(fname, lineno, "empty word"))
            continue
        key = tuple(word_keys(word, folds))
        if not key:
            defects.append(Defect(fname, lineno, f"{word!r} contains no letters"))
            continue
        source = cols[source_col] if source_col is not None and source_col < len(cols) else ""
        if source_col is not None and not source:
            defects.append(Defect(fname, lineno, f"{word!r} has no source"))
        if key in seen:
            defects.append(Defect(fname, lineno, f"{word!r} repeats line {seen[key]}"))
            continue
        seen[key] = lineno
        note = cols[1] if len(cols) > 1 and source_col != 1 else ""
        entries.append(WordEntry(word, key, note, source, lineno))
    if header is None:
        defects.append(Defect(fname, None, "no header line (expected 'word<TAB>...<TAB>source')"))
    if defects:
        raise InputError(defects)
    return WordList(name or path.stem, fname, hashlib.sha256(raw).hexdigest(), tuple(entries))


def lexicon_paths(card: LanguageCard | None = None) -> dict[str, Path]:
    """The word-list files named by ``card`` (default: the Ewe card in use), resolved under ``data/``."""
    card = card or ewe_card()
    missing = [n for n in REQUIRED_LISTS if n not in card.lexicon_files]
    if missing:
        raise CardError(f"lexicon_files lacks {', '.join(missing)}", card="ewe.json")
    return {name: DATA_DIR / rel for name, rel in card.lexicon_files.items()}


def load_lexicon(common_path: str | Path, french_path: str | Path,
                 folds: Mapping[str, str] | None = None, stance_path: str | Path | None = None,
                 machine_path: str | Path | None = None) -> EweLexicon:
    """The word lists read from these files (the bundled stance and machine lists when not given)."""
    common = read_word_list(common_path, "common_words", folds)
    french = read_word_list(french_path, "french_words", folds)
    stance = read_word_list(stance_path, "stance_markers", folds) if stance_path is not None else None
    machine = read_word_list(machine_path, "machine_terms", folds) if machine_path is not None else None
    ckeys = set(common.keys)
    ignored = tuple(e.word for e in french.entries if e.key in ckeys)
    return EweLexicon(common, french, ignored, stance, machine)


def bundled_list(name: str) -> WordList:
    """One of :data:`DEFAULT_LISTS` as bundled in ``data/`` (cached per file modification time)."""
    path = DATA_DIR / DEFAULT_LISTS[name]
    return _cached_list(str(path), name, _mtime(path))


@lru_cache(maxsize=8)
def _cached_list(path: str, name: str, mtime: float) -> WordList:
    return read_word_list(path, name)


def ewe_lexicon(card: LanguageCard | None = None) -> EweLexicon:
    """The word lists ``card`` names (default: the Ewe card in use), their words folded with the card's
    folds (cached per file content and folds: editing a file or the folds takes effect on next use)."""
    card = card or ewe_card()
    paths = lexicon_paths(card)
    files = [paths["common_words"], paths["french_words"]] + [
        paths.get(name, DATA_DIR / rel) for name, rel in DEFAULT_LISTS.items()]
    return _cached_lexicon(tuple((str(p), _mtime(p)) for p in files), tuple(sorted(card.orthography.folds.items())))


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime_ns
    except OSError:
        return -1


@lru_cache(maxsize=4)
def _cached_lexicon(stamps: tuple[tuple[str, float], ...], folds: tuple[tuple[str, str], ...]) -> EweLexicon:
    return load_lexicon(stamps[0][0], stamps[1][0], dict(folds), stance_path=stamps[2][0], machine_path=stamps[3][0])
