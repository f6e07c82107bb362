"""Loading and querying an HFST optimized-lookup analyzer (``.hfstol``).

The lookup library (``hfst``, or ``pyhfst`` where hfst cannot be installed; see
:mod:`mteval_gui.fst.backends`) is imported only when an analyzer is loaded, so importing the
application stays fast and headless. A token is looked up in three steps (SPEC §2):

1. it is turned into the analyzer form with :func:`mteval_gui.text.fst_form` (NFC, hyphen
   look-alikes to ``-``; analyzers reject NFD input and typographic hyphens);
2. the case variants are tried in order: as written, first letter lowered, all lowered;
3. the first variant with at least one analysis wins; flag diacritics are stripped.

:meth:`Analyzer.analyse_folded` adds a fourth step for the metrics: a word rejected as
written is looked up again after the language card's orthographic folds (Cree macrons to
circumflexes); a word accepted that way, or only once its typographic hyphens became ``-``,
carries the respelling in :attr:`WordAnalysis.folded`.

Two caches sit in front of the transducer: an in-memory LRU cache per token and an optional
persistent mapping (exact form -> list of analysis strings) keyed by the analyzer's sha256
outside this module (the workspace table ``fst_cache``). Lookups are serialised by a lock,
so one analyzer may be shared by several metrics and threads.
"""

from __future__ import annotations

import hashlib
import stat
import threading
from collections.abc import Mapping, MutableMapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from mteval_gui import protected
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analysis import Analysis, WordAnalysis, parse_analysis, strip_flags
from mteval_gui.fst.backends import (
    BackendError,
    Transducer,
    UnreadableTransducer,
    choose_backend,
    lookupable,
    open_transducer,
)
from mteval_gui.fst.olformat import HFST_MAGIC, FormatError, check_tables, read_layout
from mteval_gui.fst.probe import probe_file
from mteval_gui.text import HYPHEN_LOOKALIKES, apply_folds, case_variants, fst_form, nfc, word_tokens

DEFAULT_LRU_SIZE = 262_144

PersistentCache = MutableMapping[str, list[str]]


class AnalyzerError(MtevalError):
    """An analyzer file cannot be read."""


_SHA_MEMO: dict[tuple[str, int, int], str] = {}


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file (memoised per path, size and modification time)."""
    p = Path(path)
    st = p.stat()
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    got = _SHA_MEMO.get(key)
    if got is None:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        got = h.hexdigest()
        _SHA_MEMO[key] = got
    return got


HFST_HEADER = HFST_MAGIC  # every file written by HFST 3 (all GiellaLT .hfstol analyzers) starts with it


def check_regular_file(p: Path) -> None:
    """Refuse at once what is not a regular file (a FIFO or a device would block or never end)."""
    try:
        st = p.stat()
    except OSError as exc:
        raise AnalyzerError(f"{p}: analyzer file not found") from exc
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise AnalyzerError(f"{p}: {what}, not an analyzer file")
    own = protected.workspace_file(p)
    if own is not None:  # reading it here would release this process's SQLite locks
        raise AnalyzerError(f"{p}: {own}, not an analyzer file")


def read_transducer(path: str | Path, backend: str | None = None, *, probe: bool = True) -> Transducer:
    """Read the first transducer of an HFST file with the chosen lookup backend.

    hfst aborts the whole process on a truncated or damaged file and pyhfst crashes on some,
    so before either library reads a file in this process: its headers and tables are checked
    (:mod:`mteval_gui.fst.olformat`), then a child process reads it and looks words up
    (:mod:`mteval_gui.fst.probe`, cached by content). ``probe=False`` skips the child (the
    child itself uses it).
    """
    p = Path(path)
    check_regular_file(p)
    try:
        layout = read_layout(p)
        check_tables(p, layout)
    except FormatError as exc:
        raise AnalyzerError(f"{p}: not a readable HFST transducer ({exc})") from exc
    except OSError as exc:
        raise AnalyzerError(f"{p}: cannot read the analyzer file ({exc})") from exc
    try:
        name = choose_backend(backend)
    except BackendError as exc:
        raise AnalyzerError(str(exc)) from exc
    if probe:
        verdict = probe_file(p, name, sha256=sha256_file(p), size=layout.file_size)
        if not verdict.ok:
            raise AnalyzerError(f"{p}: {verdict.reason}")
    try:
        return open_transducer(p, layout, name)
    except BackendError as exc:
        raise AnalyzerError(f"{p}: {exc}") from exc
    except UnreadableTransducer as exc:
        raise AnalyzerError(f"{p}: not a readable HFST transducer ({exc})") from exc


class Analyzer:
    """A morphological analyzer with cached, case-tolerant lookup."""

    def __init__(self, transducer: Any, *, path: str | Path | None = None, sha256: str | None = None,
                 cache: PersistentCache | None = None, lru_size: int = DEFAULT_LRU_SIZE,
                 lock: threading.Lock | None = None):
        self._transducer = transducer
        self._raw_lookup = transducer.lookup
        self.path = Path(path) if path is not None else None
        self.name = self.path.name if self.path is not None else "<in-memory>"
        self.sha256 = sha256
        self.persistent_cache: PersistentCache | None = cache
        self._lock = lock or threading.Lock()  # one lock per transducer object
        self._analyse_cached = lru_cache(maxsize=lru_size)(self._analyse_uncached)
        self.transducer_lookups = 0
        self.backend: str | None = getattr(transducer, "backend", None)
        self.backend_version: str | None = getattr(transducer, "version", None)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, *, cache: PersistentCache | None = None,
             lru_size: int = DEFAULT_LRU_SIZE, backend: str | None = None) -> Analyzer:
        p = Path(path)
        t = read_transducer(p, backend)
        return cls(t, path=p, sha256=sha256_file(p), cache=cache, lru_size=lru_size)

    # -- lookup -------------------------------------------------------------------------
    def lookup_strings(self, form: str) -> tuple[str, ...]:
        """Analyses of exactly ``form`` (no case fallback), flag diacritics removed, de-duplicated.

        Forms that are not :func:`~mteval_gui.fst.backends.lookupable` (too long, NUL...) have none.
        """
        if not lookupable(form):
            return ()
        pc = self.persistent_cache
        if pc is not None:
            hit = pc.get(form)
            if hit is not None:
                return tuple(hit)
        with self._lock:
            self.transducer_lookups += 1
            raw = self._raw_lookup(form)
        seen: dict[str, None] = {}
        for item in raw:
            s = strip_flags(item[0] if isinstance(item, tuple) else item)
            seen.setdefault(s, None)
        out = tuple(seen)
        if pc is not None:
            pc[form] = list(out)
        return out

    def lookup(self, form: str) -> tuple[Analysis, ...]:
        """Parsed analyses of exactly ``form``."""
        return tuple(parse_analysis(s) for s in self.lookup_strings(form))

    def _analyse_uncached(self, token: str) -> WordAnalysis:
        form = fst_form(token)
        for variant in case_variants(form):
            got = self.lookup_strings(variant)
            if got:
                return WordAnalysis(token=token, form=variant, analyses=tuple(parse_analysis(s) for s in got))
        return WordAnalysis(token=token, form=form, analyses=())

    def analyse(self, token: str) -> WordAnalysis:
        """Analyses of one token with the case fallback of SPEC §2."""
        return self._analyse_cached(token)

    def accepts(self, token: str) -> bool:
        return bool(self._analyse_cached(token).analyses)

    def analyse_folded(self, token: str, folds: Mapping[str, str] | None = None) -> WordAnalysis:
        """:meth:`analyse`, then, for a rejected word, the lookup of its spelling after ``folds``
        (a card's orthographic folds). ``folded`` is set on a word accepted only after a respelling
        (the folds, or typographic hyphens turned into ``-``)."""
        w = self._analyse_cached(token)
        if w.analyses:
            if any(c in HYPHEN_LOOKALIKES for c in token):
                return replace(w, folded=fst_form(token))
            return w
        if not folds:
            return w
        respelt = apply_folds(nfc(token), folds)
        if respelt == nfc(token):
            return w
        f = self._analyse_cached(respelt)
        if not f.analyses:
            return w
        return WordAnalysis(token=token, form=f.form, analyses=f.analyses, folded=fst_form(respelt))

    def analyse_in_script(self, token: str, folds: Mapping[str, str] | None = None,
                          scripts: Scripts | None = None) -> WordAnalysis:
        """:meth:`analyse_folded`; a token written in another script of the language (``scripts``:
        the card's transliterations) is looked up as its transliteration into the first script,
        and the result keeps the token as written, with ``script`` set."""
        table = scripts.table_of(token) if scripts else None
        if table is None:
            return self.analyse_folded(token, folds)
        w = self.analyse_folded(table.backward(token), folds)
        return replace(w, token=token, script=table.to_script)

    def analyse_text_folded(self, text: str | None, folds: Mapping[str, str] | None = None,
                            scripts: Scripts | None = None) -> list[WordAnalysis]:
        """:meth:`analyse_in_script` of every word token of a text, in order."""
        if scripts:
            return [self.analyse_in_script(t, folds, scripts) for t in word_tokens(text)]
        return [self.analyse_folded(t, folds) for t in word_tokens(text)]

    def analyse_text(self, text: str | None) -> list[WordAnalysis]:
        """Analyse every word token (SPEC §2 tokens) of a text, in order."""
        a = self._analyse_cached
        return [a(t) for t in word_tokens(text)]

    def cache_info(self) -> Any:
        return self._analyse_cached.cache_info()

    def clear_cache(self) -> None:
        self._analyse_cached.cache_clear()

    def info(self) -> dict[str, str | None]:
        return {"file": self.name, "sha256": self.sha256}

    def backend_info(self) -> dict[str, str | None]:
        """``{backend, backend_version}``: which library answers the lookups (run card ``fst``)."""
        return {"backend": self.backend, "backend_version": self.backend_version}

    def __repr__(self) -> str:
        return f"Analyzer({self.name!r}, sha256={self.sha256[:12] if self.sha256 else None})"


_LOADED: dict[tuple[str, int, int, str], tuple[Transducer, str, threading.Lock]] = {}
_LOADED_LOCK = threading.Lock()


def load_analyzer(path: str | Path, *, cache: PersistentCache | None = None,
                  lru_size: int = DEFAULT_LRU_SIZE, backend: str | None = None) -> Analyzer:
    """A new :class:`Analyzer` over a transducer read once per process.

    ``backend`` (``hfst`` / ``pyhfst``) defaults to :func:`~mteval_gui.fst.backends.choose_backend`.
    The transducer (keyed by path, size, modification time and backend) and its lock are shared;
    each call gets its own LRU cache and persistent cache, so concurrent scoring jobs
    (possibly on different workspaces) never write into each other's caches.
    """
    p = Path(path).expanduser()
    check_regular_file(p)
    st = p.stat()
    try:
        name = choose_backend(backend)
    except BackendError as exc:
        raise AnalyzerError(str(exc)) from exc
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns, name)
    with _LOADED_LOCK:
        got = _LOADED.get(key)
        if got is None:
            got = (read_transducer(p, name), sha256_file(p), threading.Lock())
            _LOADED[key] = got
    transducer, sha, lock = got
    return Analyzer(transducer, path=p, sha256=sha, cache=cache, lru_size=lru_size, lock=lock)


def forget_loaded() -> None:
    """Drop the per-process analyzer memo (used after an analyzer is reinstalled)."""
    with _LOADED_LOCK:
        _LOADED.clear()


def file_info(path: str | Path | None) -> dict[str, str | None]:
    if path is None:
        return {"file": None, "sha256": None}
    p = Path(path)
    return {"file": p.name, "sha256": sha256_file(p) if p.is_file() else None}


__all__ = [
    "Analyzer", "AnalyzerError", "PersistentCache", "load_analyzer", "forget_loaded", "sha256_file",
    "read_transducer", "file_info", "check_regular_file",
]
