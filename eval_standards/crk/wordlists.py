"""The word lists of the Plains Cree standard (``data/*.tsv``), loaded and validated.

Every list is a tab-separated file with a header row and a ``citation`` column; lines that
start with ``#`` and blank lines are ignored (see ``data/README.md``). Values are read as
UTF-8 and normalised to NFC and lower case; Cree keys are also written with circumflex long
vowels, so a linguist may type either spelling.

A folder given as ``wordlists_dir`` (metric parameter) replaces the bundled files one by one:
a file present there is used instead of the bundled file of the same name, the others stay.
A defective file raises :class:`~mteval_gui.errors.InputError` listing every defect as
``file:line: message``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.errors import Defect, InputError
from mteval_gui.text import nfc

DATA_DIR = Path(__file__).resolve().parent / "data"

FILES = (
    "preverbs.tsv", "fused_preverbs.tsv", "optional_particles.tsv", "synonyms.tsv", "clusivity.tsv",
    "long_vowels.tsv", "spelling_folds.tsv", "english_stopwords.tsv", "english_irregular.tsv",
)


@dataclass(frozen=True)
class Preverb:
    surface: str
    fst_tag: str
    kind: str  # "grammatical" | "lexical"
    gloss: str
    citation: str


@dataclass(frozen=True)
class OptionalParticle:
    particle: str
    gloss: str
    condition: str
    citation: str


@dataclass
class WordLists:
    """All lists of the standard, ready for lookups (keys folded as described above)."""

    preverbs: dict[str, Preverb] = field(default_factory=dict)  # surface -> preverb
    fused_preverbs: dict[str, str] = field(default_factory=dict)  # fused surface -> hyphenated chain
    optional_particles: dict[str, OptionalParticle] = field(default_factory=dict)
    synonym_set: dict[str, str] = field(default_factory=dict)  # lemma -> set name
    synonym_pos: dict[str, str] = field(default_factory=dict)  # lemma -> pos as listed
    clusivity_tags: dict[str, str] = field(default_factory=dict)  # inclusive tag -> exclusive tag
    clusivity_words: dict[str, str] = field(default_factory=dict)  # word -> its counterpart (both ways)
    long_vowels: dict[str, str] = field(default_factory=dict)  # macron -> circumflex
    spelling_folds: dict[str, str] = field(default_factory=dict)
    stopwords: frozenset[str] = frozenset()
    irregular: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # file name -> sha256 of the file used

    # -- folding ---------------------------------------------------------------------------
    def fold_chars(self, s: str) -> str:
        """Spelling folds then long-vowel folds (NFC, lower case)."""
        s = nfc(s).casefold()
        for a, b in self.spelling_folds.items():
            s = s.replace(a, b)
        for a, b in self.long_vowels.items():
            s = s.replace(a, b)
        return nfc(s)

    def fold_long_vowels(self, s: str) -> str:
        """Only the long-vowel folds (macron to circumflex), NFC, lower case."""
        s = nfc(s).casefold()
        for a, b in self.long_vowels.items():
            s = s.replace(a, b)
        return nfc(s)

    def preverbs_with_tag(self, tag: str) -> list[Preverb]:
        return [p for p in self.preverbs.values() if p.fst_tag == tag]

    def synonyms(self, a: str, b: str) -> bool:
        sa = self.synonym_set.get(self.fold_chars(a))
        return sa is not None and sa == self.synonym_set.get(self.fold_chars(b))

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(f"{name}={self.files[name]}\n".encode())
        return h.hexdigest()


# -- reading ---------------------------------------------------------------------------------

def read_tsv(path: Path, required: Sequence[str], defects: list[Defect]) -> list[tuple[int, dict[str, str]]]:
    """Rows of one list as ``(line number, {column: value})``; problems go to ``defects``."""
    name = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        defects.append(Defect(name, None, f"cannot read: {exc.strerror or exc}"))
        return []
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        defects.append(Defect(name, raw[: exc.start].count(b"\n") + 1, "not valid UTF-8"))
        return []
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [nfc(c.strip()) for c in line.split("\t")]
        if header is None:
            header = [c.casefold() for c in cells]
            missing = [c for c in (*required, "citation") if c not in header]
            if missing:
                defects.append(Defect(name, lineno, f"header lacks column(s): {', '.join(missing)}"))
                return []
            continue
        if len(cells) > len(header):
            defects.append(Defect(name, lineno, f"{len(cells)} columns, the header has {len(header)}"))
            continue
        row = dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True))
        empty = [c for c in (*required, "citation") if not row.get(c)]
        if empty:
            defects.append(Defect(name, lineno, f"empty {', '.join(empty)}"))
            continue
        rows.append((lineno, row))
    if header is None:
        defects.append(Defect(name, None, "no header row"))
    return rows


def _resolve(name: str, override: Path | None) -> Path:
    if override is not None and (override / name).is_file():
        return override / name
    return DATA_DIR / name


def _sha(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _build(override: Path | None) -> WordLists:
    defects: list[Defect] = []
    wl = WordLists()
    paths = {n: _resolve(n, override) for n in FILES}
    wl.files = {n: _sha(p) for n, p in paths.items()}

    for _, r in read_tsv(paths["long_vowels.tsv"], ("macron", "circumflex"), defects):
        wl.long_vowels[r["macron"].casefold()] = r["circumflex"].casefold()
    for _, r in read_tsv(paths["spelling_folds.tsv"], ("variant", "standard"), defects):
        wl.spelling_folds[r["variant"].casefold()] = r["standard"].casefold()
    fold = wl.fold_chars

    for ln, r in read_tsv(paths["preverbs.tsv"], ("surface", "fst_tag", "kind"), defects):
        kind = r["kind"].casefold()
        if kind not in ("grammatical", "lexical"):
            defects.append(
                Defect(str(paths["preverbs.tsv"]), ln, f"kind must be grammatical or lexical, not {r['kind']!r}")
            )
            continue
        s = fold(r["surface"]).strip("-")
        wl.preverbs[s] = Preverb(s, r["fst_tag"], kind, r.get("gloss", ""), r["citation"])
    for ln, r in read_tsv(paths["fused_preverbs.tsv"], ("surface", "expansion"), defects):
        exp = fold(r["expansion"]).strip("-")
        unknown = [seg for seg in exp.split("-") if seg not in wl.preverbs]
        if unknown:
            defects.append(
                Defect(
                    str(paths["fused_preverbs.tsv"]),
                    ln,
                    f"expansion {r['expansion']!r} uses preverb(s) not in preverbs.tsv: {', '.join(unknown)}",
                )
            )
            continue
        wl.fused_preverbs[fold(r["surface"])] = exp
    for _, r in read_tsv(paths["optional_particles.tsv"], ("particle",), defects):
        p = fold(r["particle"])
        wl.optional_particles[p] = OptionalParticle(p, r.get("gloss", ""), r.get("condition", ""), r["citation"])
    for _, r in read_tsv(paths["synonyms.tsv"], ("set", "lemma"), defects):
        lemma = fold(r["lemma"])
        wl.synonym_set[lemma] = r["set"].casefold()
        wl.synonym_pos[lemma] = r.get("pos", "")
    for ln, r in read_tsv(paths["clusivity.tsv"], ("kind", "exclusive", "inclusive"), defects):
        kind = r["kind"].casefold()
        if kind == "tag":
            wl.clusivity_tags[r["inclusive"]] = r["exclusive"]
        elif kind == "word":
            a, b = fold(r["exclusive"]), fold(r["inclusive"])
            wl.clusivity_words[a] = b
            wl.clusivity_words[b] = a
        else:
            defects.append(Defect(str(paths["clusivity.tsv"]), ln, f"kind must be tag or word, not {r['kind']!r}"))
    wl.stopwords = frozenset(
        r["word"].casefold() for _, r in read_tsv(paths["english_stopwords.tsv"], ("word",), defects)
    )
    for _, r in read_tsv(paths["english_irregular.tsv"], ("form", "base"), defects):
        wl.irregular[r["form"].casefold()] = r["base"].casefold()
    if defects:
        raise InputError(defects)
    return wl


_CACHE: dict[tuple[Any, ...], WordLists] = {}
_LOCK = threading.Lock()


def load_wordlists(override: str | Path | None = None) -> WordLists:
    """The word lists (bundled, or replaced file by file from ``override``), cached per file state."""
    folder = Path(override).expanduser() if override else None
    if folder is not None and not folder.is_dir():
        raise InputError([Defect(str(folder), None, "word-list folder not found")])
    paths = [_resolve(n, folder) for n in FILES]
    key = tuple((str(p), p.stat().st_mtime_ns if p.exists() else 0) for p in paths)
    with _LOCK:
        got = _CACHE.get(key)
        if got is None:
            got = _build(folder)
            _CACHE[key] = got
        return got
