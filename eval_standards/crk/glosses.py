"""Local Cree → English gloss dictionaries for the semantic validator.

Two file formats are read (UTF-8, the choice is by extension):

- **morphodict import JSON** (``.importjson`` or ``.json``): a JSON list of entries as the
  morphodict dictionary application imports them: ``head`` (the word), ``senses`` (list of
  ``{"definition": ..., "sources": [...]}``), optionally ``analysis`` (``[[preverbs], lemma,
  [tags]]``), ``linguistInfo`` (``wordclass``, ``pos``) and ``formOf`` (the entry glosses an
  inflected form of another lemma). Lemma entries are indexed by their head and by the lemma
  of their analysis; ``formOf`` entries only by their own head. Heads ending in ``-`` are
  preverbs (``ati-``) and are indexed separately.
- **TSV** (``.tsv``/``.txt``): ``lemma<TAB>gloss`` per line, several senses separated by
  ``;`` or given on several lines; ``#`` comments; an optional header line ``lemma<TAB>gloss``.
  A lemma ending in ``-`` is a preverb.

Keys are folded like the linter folds Cree text (NFC, lower case, ý → y, macron → circumflex)
so ``niýanân`` in a dictionary meets ``niyanân`` from the analyzer.

Which files: the user picks them in the settings (``context.options["gloss_files"]["crk"]``)
or per metric (param ``gloss_files``); a value is a path or a list of paths, and a folder
stands for every ``.importjson``/``.json``/``.tsv`` file in it. Defects raise
:class:`~mteval_gui.errors.InputError` with ``file:line[:column]: message``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.errors import Defect, InputError
from mteval_gui.text import nfc

JSON_SUFFIXES = (".importjson", ".json")
TSV_SUFFIXES = (".tsv", ".txt")


@dataclass(frozen=True)
class GlossEntry:
    """One dictionary entry (or one TSV line) for one lemma."""

    head: str
    definitions: tuple[str, ...]
    tags: tuple[str, ...] = ()  # from the entry's analysis, e.g. ("V", "AI", "Ind", "3Sg")
    wordclass: str | None = None  # e.g. "VAI", "NA", "IPC"
    source: str = ""  # file name

    def matches_class(self, tags: Iterable[str]) -> bool:
        """Whether the entry's part of speech and class agree with an analysis' tags."""
        t = tuple(tags)[:2]
        return bool(self.tags) and self.tags[: len(t)] == t


@dataclass
class GlossDictionary:
    """Gloss entries indexed by folded lemma, plus preverb glosses."""

    fold: Callable[[str], str]
    lemmas: dict[str, list[GlossEntry]] = field(default_factory=dict)
    preverbs: dict[str, list[GlossEntry]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # file name -> sha256

    def _add(self, key: str, entry: GlossEntry, preverb: bool = False) -> None:
        table = self.preverbs if preverb else self.lemmas
        lst = table.setdefault(self.fold(key), [])
        if entry not in lst:
            lst.append(entry)

    def entries(self, lemma: str, tags: Iterable[str] = ()) -> list[GlossEntry]:
        """Entries of a lemma; those agreeing with ``tags`` (part of speech, class) if any do."""
        got = self.lemmas.get(self.fold(lemma), [])
        tags = tuple(tags)
        if tags:
            fitting = [e for e in got if e.matches_class(tags)]
            if fitting:
                return fitting
        return got

    def definitions(self, lemma: str, tags: Iterable[str] = ()) -> list[str]:
        out: list[str] = []
        for e in self.entries(lemma, tags):
            for d in e.definitions:
                if d not in out:
                    out.append(d)
        return out

    def preverb_definitions(self, surface: str) -> list[str]:
        out: list[str] = []
        for e in self.preverbs.get(self.fold(surface.strip("-")), []):
            for d in e.definitions:
                if d not in out:
                    out.append(d)
        return out

    def __len__(self) -> int:
        return sum(len(v) for v in self.lemmas.values()) + sum(len(v) for v in self.preverbs.values())

    def info(self) -> dict[str, Any]:
        return {"files": dict(self.files), "entries": len(self)}


def _read_json(path: Path, text: str, gd: GlossDictionary, defects: list[Defect]) -> None:
    name = str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        defects.append(Defect(name, exc.lineno, f"invalid JSON: {exc.msg}", exc.colno))
        return
    if not isinstance(data, list):
        defects.append(Defect(name, 1, "expected a JSON list of dictionary entries"))
        return
    for i, e in enumerate(data, start=1):
        where = f"entry {i}"
        if not isinstance(e, dict):
            defects.append(Defect(name, None, f"{where}: not an object"))
            continue
        head = e.get("head")
        if not isinstance(head, str) or not head.strip():
            defects.append(Defect(name, None, f"{where}: no head"))
            continue
        senses = e.get("senses")
        if not isinstance(senses, list):
            defects.append(Defect(name, None, f"{where} ({head}): senses must be a list"))
            continue
        defs = tuple(nfc(s["definition"]).strip() for s in senses
                     if isinstance(s, dict) and isinstance(s.get("definition"), str) and s["definition"].strip())
        if not defs:
            defects.append(Defect(name, None, f"{where} ({head}): no definition"))
            continue
        head = nfc(head).strip()
        lemma: str | None = None
        tags: tuple[str, ...] = ()
        analysis = e.get("analysis")
        if isinstance(analysis, list) and len(analysis) == 3 and isinstance(analysis[1], str):
            lemma = nfc(analysis[1])
            tags = tuple(str(t).strip("+") for t in (analysis[2] or []) if str(t).strip("+"))
        found = e.get("linguistInfo")
        info: dict[str, Any] = found if isinstance(found, dict) else {}
        wordclass = info.get("wordclass") if isinstance(info.get("wordclass"), str) else None
        entry = GlossEntry(head, defs, tags, wordclass, path.name)
        if head.endswith("-") and " " not in head:
            gd._add(head.rstrip("-"), entry, preverb=True)
            continue
        gd._add(head, entry)
        if lemma and not e.get("formOf") and gd.fold(lemma) != gd.fold(head):
            gd._add(lemma, entry)


def _read_tsv(path: Path, text: str, gd: GlossDictionary, defects: list[Defect]) -> None:
    name = str(path)
    first = True
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [nfc(c.strip()) for c in line.split("\t")]
        if first:
            first = False
            if [c.casefold() for c in cells[:2]] == ["lemma", "gloss"]:
                continue
        if len(cells) < 2 or not cells[0] or not cells[1]:
            defects.append(Defect(name, lineno, "expected lemma<TAB>gloss"))
            continue
        defs = tuple(d.strip() for d in cells[1].split(";") if d.strip())
        entry = GlossEntry(cells[0], defs, (), None, path.name)
        gd._add(cells[0].rstrip("-"), entry, preverb=cells[0].endswith("-"))


def expand_paths(value: Any) -> list[Path]:
    """Gloss file setting (path, list of paths, folder) -> files, in a stable order."""
    if value is None or value == "" or value == []:
        return []
    items = value if isinstance(value, (list, tuple)) else [value]
    out: list[Path] = []
    for v in items:
        p = Path(str(v)).expanduser()
        if p.is_dir():
            out.extend(sorted(q for q in p.iterdir() if q.suffix.casefold() in JSON_SUFFIXES + TSV_SUFFIXES))
        else:
            out.append(p)
    return out


def load_glosses(paths: Iterable[str | Path], fold: Callable[[str], str]) -> GlossDictionary:
    """Read gloss files into one dictionary. Raises InputError listing every defect."""
    gd = GlossDictionary(fold=fold)
    defects: list[Defect] = []
    paths = list(paths)
    if not paths:
        raise InputError([Defect("<gloss files>", None, "no gloss file given")])
    for p in map(Path, paths):
        try:
            raw = p.read_bytes()
        except OSError as exc:
            defects.append(Defect(str(p), None, f"cannot read: {exc.strerror or exc}"))
            continue
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            defects.append(Defect(str(p), raw[: exc.start].count(b"\n") + 1, "not valid UTF-8"))
            continue
        gd.files[p.name] = hashlib.sha256(raw).hexdigest()
        if p.suffix.casefold() in TSV_SUFFIXES:
            _read_tsv(p, text, gd, defects)
        else:
            _read_json(p, text, gd, defects)
    if defects:
        raise InputError(defects)
    if len(gd) == 0:
        raise InputError([Defect(", ".join(map(str, paths)), None, "no gloss entries found")])
    return gd


_CACHE: dict[tuple[Any, ...], GlossDictionary] = {}
_LOCK = threading.Lock()


def cached_glosses(paths: list[Path], fold: Callable[[str], str], fold_id: str) -> GlossDictionary:
    """:func:`load_glosses`, memoised per file list, file state and fold."""
    key_parts = []
    for p in paths:
        try:
            st = p.stat()
            key_parts.append((str(p.resolve()), st.st_size, st.st_mtime_ns))
        except OSError:
            key_parts.append((str(p), -1, -1))
    key = (tuple(key_parts), fold_id)
    with _LOCK:
        got = _CACHE.get(key)
    if got is None:
        got = load_glosses(paths, fold)
        with _LOCK:
            _CACHE[key] = got
    return got
