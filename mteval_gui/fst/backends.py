"""Two ways to look words up in an optimized-lookup transducer: ``hfst`` and ``pyhfst``.

``hfst`` (the C++ library's Python binding) is the reference and is preferred wherever it can
be installed; its wheels exist only for Linux x86_64 and macOS on Python 3.11–3.12. ``pyhfst``
(pure Python, optionally compiled with Cython) installs everywhere and reads the same
``.hfstol`` files, but on its own it gives wrong answers:

- a character outside the transducer's input alphabet is turned into an end-of-input marker,
  so ``nipâwx``, ``tânisi?`` or an NFD ``â`` are analysed as their valid prefix (``animal``
  came back as ``anima+Ipc``);
- its tokeniser gives up where the longest walkable prefix of the rest of the word is not a
  symbol, although a shorter one is (hfst takes the longest symbol);
- its tokeniser takes time cubic in the word length (a 10,000-letter word: 40 s);
- analyses come back in another order, and flag diacritics are dropped from the output.

:class:`PyhfstTransducer` therefore never lets pyhfst tokenise: the word is split into input
symbols here (longest match over the input alphabet read from the file, as hfst does); a word
with a character outside the alphabet has no analysis; the symbols are handed to pyhfst as
one private-use character each (its symbol map is replaced by that one-to-one map); flag
names are put back into its output table; analyses are ordered as hfst orders them (by weight,
then by output symbol sequence). A conformance test holds both backends to identical
analyses on real analyzers. Forms longer than :data:`MAX_FORM_CHARS`, or holding NUL or a lone
surrogate, are rejected by both without a lookup (hfst read ``nipâw`` + NUL + anything as ``nipâw``).

``MTEVAL_FST_BACKEND=hfst|pyhfst`` forces a backend; unset (or ``auto``) takes hfst when it
imports, else pyhfst. The backend and its version are recorded in the run card.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from mteval_gui.errors import MtevalError
from mteval_gui.fst.analysis import strip_flags
from mteval_gui.fst.olformat import OlLayout, is_flag

BACKEND_ENV = "MTEVAL_FST_BACKEND"
BACKENDS = ("hfst", "pyhfst")
MAX_FORM_CHARS = 256  # no word of any language is longer; bounds the lookup time of both backends
_PUA = 0xF0000  # supplementary private use area A: one code point per input symbol (at most 65,535)


def lookupable(form: str) -> bool:
    """Whether ``form`` is looked up at all: non-empty, at most :data:`MAX_FORM_CHARS`, no NUL, valid UTF-8.

    hfst reads a form as a C string, so ``nipâw\\0x`` was analysed as ``nipâw``; a lone surrogate
    cannot be handed to it at all.
    """
    if not form or len(form) > MAX_FORM_CHARS or "\x00" in form:
        return False
    try:
        form.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class BackendError(MtevalError):
    """No usable lookup backend, or an unknown one was asked for."""


class UnreadableTransducer(MtevalError):
    """The backend could not read the file (the message says what it reported)."""


@dataclass(frozen=True)
class BackendInfo:
    name: str
    version: str | None


@cache
def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def backend_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def requested_backend() -> str | None:
    """The backend ``MTEVAL_FST_BACKEND`` forces, or None for automatic choice."""
    raw = os.environ.get(BACKEND_ENV, "").strip().lower()
    if raw in ("", "auto"):
        return None
    if raw not in BACKENDS:
        raise BackendError(f"{BACKEND_ENV}={os.environ.get(BACKEND_ENV)!r}: expected one of hfst, pyhfst or auto")
    return raw


def choose_backend(name: str | None = None) -> str:
    """The backend to use: ``name``, else ``MTEVAL_FST_BACKEND``, else hfst if it imports, else pyhfst."""
    forced = name or requested_backend()
    if forced is not None:
        if forced not in BACKENDS:
            raise BackendError(f"unknown FST backend {forced!r}: expected hfst or pyhfst")
        if not _importable(forced):
            how = ("hfst has wheels for Linux x86_64 and macOS, Python 3.11-3.12" if forced == "hfst"
                   else "pip install pyhfst")
            raise BackendError(f"the {forced} FST backend was asked for but the {forced} package is not "
                               f"installed ({how})")
        return forced
    for candidate in BACKENDS:
        if _importable(candidate):
            return candidate
    raise BackendError("neither hfst nor pyhfst is installed: reinstall mteval-gui (pyhfst installs everywhere)")


class HfstTransducer:
    """Lookups through the hfst library (flag diacritics stripped, duplicates removed, hfst's order)."""

    backend = "hfst"

    def __init__(self, path: str | Path) -> None:
        import hfst
        from hfst.exceptions import HfstException

        try:
            stream = hfst.HfstInputStream(str(path))
            try:
                self._t = stream.read()
            finally:
                stream.close()
        except (HfstException, RuntimeError) as exc:
            raise UnreadableTransducer(f"{type(exc).__name__}: {exc}") from exc
        self._lookup: Callable[[str], Any] = self._t.lookup
        self.version = backend_version("hfst") or getattr(hfst, "__version__", None)

    def lookup(self, form: str) -> tuple[str, ...]:
        if not lookupable(form):
            return ()
        seen: dict[str, None] = {}
        for item in self._lookup(form):
            seen.setdefault(strip_flags(item[0] if isinstance(item, tuple) else item), None)
        return tuple(seen)


class PyhfstTransducer:
    """Lookups through pyhfst behind an input-alphabet check and hfst's tokenisation and order."""

    backend = "pyhfst"

    def __init__(self, path: str | Path, layout: OlLayout) -> None:
        import pyhfst

        if not layout.optimized_lookup:
            raise BackendError(f"pyhfst reads only optimized-lookup transducers (.hfstol), not type {layout.type}")
        special = layout.special_input_symbols
        if special:
            raise BackendError(f"the transducer uses {', '.join(special)} on its input side, which pyhfst does not "
                               "implement; install hfst to use it")
        if layout.input_epsilon_cycles:
            raise BackendError("the transducer has input-epsilon cycles, on which pyhfst does not terminate; "
                               "install hfst to use it")
        try:
            tr = pyhfst.HfstInputStream(str(path), cache=False).read().tr
        except (struct.error, IndexError, KeyError, ValueError, EOFError, OverflowError) as exc:
            raise UnreadableTransducer(f"{type(exc).__name__}: {exc}") from exc
        alphabet = getattr(tr, "alphabet", None)
        key_table = getattr(alphabet, "keyTable", None)
        if not hasattr(tr, "symbol_map") or not isinstance(key_table, list) or len(key_table) != len(layout.symbols):
            raise BackendError(f"unsupported pyhfst {backend_version('pyhfst')}: its transducer does not expose the "
                               "symbol map and table this application relies on")
        self._symbols: dict[str, int] = {}
        for i in range(1, layout.input_symbol_count):
            s = layout.symbols[i]
            if s and not is_flag(s):
                self._symbols.setdefault(s, i)
        self._longest = max((len(s) for s in self._symbols), default=1)
        # pyhfst's own tokeniser then only ever sees one private-use character per symbol
        tr.symbol_map = {chr(_PUA + i): {None: i} for i in self._symbols.values()}
        for i, name in layout.flag_symbols.items():  # pyhfst blanks flag names; hfst orders analyses with them
            key_table[i] = name
        self._tr = tr
        self._analyzer_class = pyhfst.Analyzer
        self.version = backend_version("pyhfst")

    def symbols_of(self, form: str) -> list[int] | None:
        """The input symbols of ``form`` by longest match, or None if a character is not in the alphabet."""
        out: list[int] = []
        i, n = 0, len(form)
        symbols, longest = self._symbols, self._longest
        while i < n:
            for length in range(min(longest, n - i), 0, -1):
                sym = symbols.get(form[i:i + length])
                if sym is not None:
                    out.append(sym)
                    i += length
                    break
            else:
                return None
        return out

    def lookup(self, form: str) -> tuple[str, ...]:
        if not lookupable(form):
            return ()
        syms = self.symbols_of(form)
        if not syms:
            return ()
        results = self._analyzer_class(self._tr, "".join(chr(_PUA + s) for s in syms)).analyze()
        paths = sorted({(r.get_weight(), tuple(r.get_symbols())) for r in results})
        seen: dict[str, None] = {}
        for _, path in paths:
            seen.setdefault(strip_flags("".join(path)), None)
        return tuple(seen)


Transducer = HfstTransducer | PyhfstTransducer


def open_transducer(path: str | Path, layout: OlLayout, backend: str | None = None) -> Transducer:
    """Read the first transducer of ``path`` with the chosen backend (see :func:`choose_backend`)."""
    name = choose_backend(backend)
    if name == "hfst":
        return HfstTransducer(path)
    return PyhfstTransducer(path, layout)


__all__ = [
    "BACKEND_ENV", "BACKENDS", "MAX_FORM_CHARS", "BackendError", "BackendInfo", "HfstTransducer",
    "PyhfstTransducer", "Transducer", "UnreadableTransducer", "backend_version", "choose_backend", "lookupable",
    "open_transducer", "requested_backend",
]
