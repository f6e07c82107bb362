"""The registry of input formats: one entry per format says everything the application knows of it.

An :class:`InputFormat` holds a format's ``name`` (the ``--format`` choice and the name in
messages), a ``label`` and the file-name ``suffixes`` (the import dialog's file filter and the
suffix detection), a ``sniff`` test on the first 64 KiB of text, a ``preview`` and one reader per
kind of thing the format can hold (``corpus``, ``run``, ``glossary``). Everything else derives
from the registry: :func:`detect_format`, the formats :func:`read_corpus`, :func:`read_run` and
:func:`read_glossary` accept, the CLI's ``--format`` choices and the dialog filters
(:func:`names`, :func:`suffixes`). Adding a format (an exchange format of another evaluation
tool, a harness's table) is one :func:`register` call; the built-in ones are registered by
:mod:`mteval_gui.io.builtin_formats` when the registry is first used.

Detection, in order:

1. a suffix claimed by formats that may hold the wanted kind decides among them: the first whose
   ``sniff`` accepts the text, else the last of them (``.json``: a harness report if it looks like
   one, else JSON); a format with ``claims_suffix=False`` (plain text: a ``.txt`` file may hold
   JSON or a table) lists its suffixes for the file filter only;
2. otherwise the first format, in registration order, whose ``sniff`` accepts the text;
3. otherwise the last ``fallback`` format (plain text; TSV for a glossary).

Corpora and runs are detected among every format, so that a table given as a run is refused by
its name ("cannot read a run from format 'tsv'") rather than read as hypothesis lines; a
glossary is detected among the formats that hold glossaries.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.packed import Packed
from mteval_gui.io.textfile import DefectList, TextFile, decode, read_bytes

if TYPE_CHECKING:
    from mteval_gui.domain.corpus import Entry
    from mteval_gui.domain.run import Output
    from mteval_gui.io.detect import Preview

Kind = Literal["corpus", "run", "glossary"]
KINDS: tuple[Kind, ...] = ("corpus", "run", "glossary")
SNIFF_BYTES = 65536
T = TypeVar("T")


@dataclass
class Source:
    """What a reader gets: the decoded file, the defect list to fill and what the caller knows."""

    path: Path
    text: TextFile
    defects: DefectList
    warnings: list[str] = field(default_factory=list)
    hints: dict[str, Any] = field(default_factory=dict)
    ref_path: Path | None = None  # line-aligned reference file of a plain-text corpus
    entry_ids: Sequence[str] | None = None  # the corpus order a hypothesis text file is aligned with
    packed: bool = False  # records wanted packed (:class:`~mteval_gui.domain.packed.Packed`) as they are read
    columns: bool = False  # plain records wanted as :class:`~mteval_gui.domain.columns.PlainColumns`


@dataclass
class Parsed(Generic[T]):
    """A reader's records before the corpus or run is assembled.

    ``format`` is set when reading found a more precise format (a ``.json`` file that is a
    harness report); ``guessed_pair`` is the language pair the file name suggests.
    """

    meta: dict[str, Any]
    records: list[T] | Packed[T] | PlainColumns[T]
    lines: dict[str, int]
    format: str | None = None
    guessed_pair: tuple[str | None, str | None] = (None, None)


CorpusReader = Callable[[Source], "Parsed[Entry]"]
RunReader = Callable[[Source], "Parsed[Output]"]
GlossaryReader = Callable[[Source], dict[str, list[str]]]
PreviewReader = Callable[[Path, int], "Preview"]
Sniff = Callable[[str], bool]


@dataclass(frozen=True)
class InputFormat:
    """One input format. Readers left None mean the format cannot hold that kind."""

    name: str
    label: str
    suffixes: tuple[str, ...] = ()
    sniff: Sniff | None = None
    preview: PreviewReader | None = None
    corpus: CorpusReader | None = None
    run: RunReader | None = None
    glossary: GlossaryReader | None = None
    claims_suffix: bool = True
    fallback: bool = False
    aligned: bool = False  # a run's records follow the corpus order (the reader gets ``entry_ids``)
    # a run file of this format also holds its entries (a harness report): imported without a
    # corpus, the run goes to the corpus its ``corpus_path`` hint names, else to one made from it
    carries_corpus: bool = False

    def __post_init__(self) -> None:
        if not self.name or any(not s.startswith(".") or s != s.lower() for s in self.suffixes):
            raise ValueError(f"input format {self.name!r}: suffixes are lower-case and start with '.'")

    def holds(self, kind: Kind | None) -> bool:
        return kind is None or getattr(self, kind) is not None


_FORMATS: list[InputFormat] = []
_LOCK = threading.RLock()  # re-entrant: reading the built-in formats may ask the registry
_loaded = False


def _ensure_builtins() -> None:
    global _loaded
    if _loaded:
        return
    with _LOCK:
        if not _loaded:
            from mteval_gui.io import builtin_formats

            for fmt in builtin_formats.FORMATS:
                _put(fmt, None)
            _loaded = True


def _put(fmt: InputFormat, before: str | None) -> None:
    if any(f.name == fmt.name for f in _FORMATS):
        raise ValueError(f"input format {fmt.name!r} is already registered")
    at = next((i for i, f in enumerate(_FORMATS) if f.name == before), len(_FORMATS)) if before else len(_FORMATS)
    _FORMATS.insert(at, fmt)


def register(fmt: InputFormat, *, before: str | None = None) -> InputFormat:
    """Add a format (sniffed before ``before``, default: after every registered one)."""
    _ensure_builtins()
    with _LOCK:
        _put(fmt, before)
    return fmt


def unregister(name: str) -> None:
    """Remove a format (a test's toy format)."""
    _ensure_builtins()
    with _LOCK:
        _FORMATS[:] = [f for f in _FORMATS if f.name != name]


def formats(kind: Kind | None = None) -> tuple[InputFormat, ...]:
    """The registered formats, in detection order, that can hold ``kind`` (None: all)."""
    _ensure_builtins()
    return tuple(f for f in _FORMATS if f.holds(kind))


def names(kind: Kind | None = None) -> tuple[str, ...]:
    """The format names for ``kind``: the CLI's ``--format`` choices and the dialog's format list."""
    return tuple(f.name for f in formats(kind))


def suffixes(kind: Kind | None = None) -> tuple[str, ...]:
    """The file-name suffixes of the formats for ``kind``, each once, in registration order."""
    out: list[str] = []
    for f in formats(kind):
        out.extend(s for s in f.suffixes if s not in out)
    return tuple(out)


def get(name: str) -> InputFormat | None:
    return next((f for f in formats() if f.name == name), None)


def head_text(path: Path) -> str:
    """The first 64 KiB of ``path``, decoded the way the readers decode it."""
    text, _, _ = decode(read_bytes(path, limit=SNIFF_BYTES), str(path))
    return text


def detect_format(path: str | Path, kind: Kind | None = None) -> str:
    """The name of the format of ``path`` (see the module docstring for the order)."""
    path = Path(path)
    candidates = formats(kind if kind == "glossary" else None)
    suffix = path.suffix.lower()
    owners = [f for f in candidates if f.claims_suffix and suffix in f.suffixes]
    if len(owners) == 1:  # decided without reading (a FIFO is read once, by the reader)
        return owners[0].name
    head = head_text(path)
    if owners:
        return next((f.name for f in owners if f.sniff is not None and f.sniff(head)), owners[-1].name)
    for f in candidates:
        if f.sniff is not None and f.sniff(head):
            return f.name
    fallbacks = [f for f in candidates if f.fallback]
    return (fallbacks or list(candidates))[-1].name
