"""lingua's language models in a process of their own, loaded from the start of a command.

Loading lingua's models costs ≈ 1.1 s of CPU (French and English in high-accuracy mode, the
Latin-script languages in low-accuracy mode), and code-switching needs them for the outputs
whose words give no evidence of the target language. A scoring process cannot load them
before it has imported, read and prepared everything (≈ 0.9 s with one core busy and the
other idle), and loading them later keeps one core on them while the entries wait. So
``mteval evaluate`` starts this service first (:func:`start`): a forked process
(:func:`mteval_gui.runtime.start`) that imports
only lingua, loads the models the run is likely to need, and answers the two questions of
:mod:`~mteval_gui.scoring.metrics.language_id` — the most likely of some candidate languages
with its relative confidence, and the rank of a language among all of lingua's languages.

The service is used by one process only (the first that asks: the forked scoring helper, or
the scoring process itself with one worker); any other process, a service that ended or a
question it cannot answer makes the caller load the models itself (:class:`Unavailable`), so
results never depend on the service. Its answers are lingua's own, computed by the same
version on the same text. It ends when its pipe closes (every process that holds it ended)
or when :func:`stop` kills it.

**A service that stops answering** (stopped with SIGSTOP, swapped out, stuck) never holds the
command up: each answer is awaited at most :data:`ANSWER_TIME_LIMIT_S` seconds (the first one
too, which may wait for the models to load), after which the service is killed and reaped and
the caller uses its own models for that question and every later one. A question is at most
:data:`MAX_QUESTION_BYTES` long, so sending it never waits either (a longer one is answered by
the caller's own models).

This module imports only the standard library and :mod:`mteval_gui.runtime`, which starts the
service (it is imported before anything heavy).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import threading
from collections.abc import Iterable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from mteval_gui import runtime

# ISO 639-3 individual-language codes of this tool's cards -> the macrolanguage code lingua uses
MACRO: dict[str, str] = {
    "arb": "ara", "zsm": "msa", "pes": "fas", "prs": "fas", "cmn": "zho", "yue": "zho", "swh": "swa",
    "ekk": "est", "lvs": "lav", "als": "sqi", "khk": "mon", "nor": "nob", "ydd": "yid", "azj": "aze",
}
DEFAULT_CANDIDATES: tuple[str, ...] = ("eng", "fra")  # the languages LLM outputs most often fall back to
USED_BY: tuple[str, ...] = ("core.code_switching",)  # the metrics that ask the detector
# seconds one answer may take: loading the models takes ≈ 1.1 s of CPU, an answer milliseconds
ANSWER_TIME_LIMIT_S = 10.0
# a question this long fits in the pipe's buffer (an empty one: questions are asked one at a time)
MAX_QUESTION_BYTES = 16384


def detector_code(code: str) -> str:
    """The code lingua knows ``code`` by (macrolanguages for individual languages)."""
    return MACRO.get(code, code)


ALL_LANGUAGES_SAMPLE = "information nation"  # Latin letters only: every Latin-script language stays a candidate
CANDIDATES_SAMPLE = "information"  # loads every n-gram size of the candidates (a text shorter than 120 characters)


def top_of(values: Sequence[Any]) -> tuple[Any, float] | None:
    """The most likely language of lingua's confidence values and its confidence (None when
    lingua gives none)."""
    if not values or values[0].value <= 0:
        return None
    return values[0].language, float(values[0].value)


def rank_of(values: Sequence[Any], code: str) -> int | None:
    """Rank (0 = most likely) of the language with ISO 639-3 ``code`` in lingua's confidence
    values (None when it has no confidence)."""
    for i, v in enumerate(values):
        if v.value <= 0:
            return None
        if v.language.iso_code_639_3.name.lower() == code:
            return i
    return None


class Unavailable(Exception):
    """The service cannot answer here: the caller uses its own models."""


class Service:
    """The client end: questions to the service process, one at a time."""

    def __init__(self, conn: Connection, child: runtime.Child) -> None:
        self.conn = conn
        self.child = child
        self.pid = child.pid
        self.owner: int | None = None  # the process that uses it (the first to ask)
        self.broken = False
        self._lock = threading.Lock()

    def ask(self, *question: Any) -> Any:
        me = os.getpid()
        with self._lock:
            if self.broken:
                raise Unavailable("the language-model service ended")
            if self.owner is None:
                self.owner = me
            elif self.owner != me:
                raise Unavailable("the language-model service answers another process")
            payload = pickle.dumps(question, protocol=pickle.HIGHEST_PROTOCOL)
            if len(payload) > MAX_QUESTION_BYTES:
                raise Unavailable("the question is too long for the language-model service")
            try:
                self.conn.send_bytes(payload)
                if not self.conn.poll(ANSWER_TIME_LIMIT_S):
                    self._end()
                    raise Unavailable(f"the language-model service did not answer in {ANSWER_TIME_LIMIT_S:g} s")
                ok, answer = self.conn.recv()
            except (EOFError, OSError) as exc:
                self.broken = True
                raise Unavailable(f"the language-model service ended ({type(exc).__name__})") from exc
        if not ok:
            raise Unavailable(str(answer))
        return answer

    def _end(self) -> None:
        """Kill the service (reaped here when this process started it, else by :func:`stop`)."""
        self.broken = True
        with contextlib.suppress(OSError):
            self.conn.close()
        self.child.kill()  # ends a stopped process too
        self.child.join()

    def best(self, codes: Sequence[str], text: str) -> tuple[str, float] | None:
        """The most likely of ``codes`` (lingua's ISO 639-3 codes) for ``text`` and its relative
        confidence; None when lingua gives none."""
        answer = self.ask("best", tuple(codes), text)
        return None if answer is None else (str(answer[0]), float(answer[1]))

    def rank(self, text: str, code: str) -> int | None:
        """Rank (0 = most likely) of ``code`` among all of lingua's languages, low-accuracy mode."""
        answer = self.ask("rank", text, code)
        return None if answer is None else int(answer)


_SERVICE: list[Service] = []


def current() -> Service | None:
    """The service this process may ask (None when none was started or it ended)."""
    return _SERVICE[0] if _SERVICE and not _SERVICE[0].broken else None


def _serve(conn: Connection, candidates: tuple[str, ...], target: str | None) -> None:
    from lingua import Language, LanguageDetectorBuilder

    langs = {lang.iso_code_639_3.name.lower(): lang for lang in Language.all()}
    detectors: dict[tuple[str, ...], Any] = {}
    everything: list[Any] = []

    def detector(codes: tuple[str, ...]) -> Any:
        if codes not in detectors:
            detectors[codes] = LanguageDetectorBuilder.from_languages(*(langs[c] for c in codes)).build()
        return detectors[codes]

    def all_detector() -> Any:
        if not everything:
            everything.append(LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build())
        return everything[0]

    def answer(question: tuple[Any, ...]) -> Any:
        kind = question[0]
        if kind == "best":
            top = top_of(detector(tuple(question[1])).compute_language_confidence_values(question[2]))
            return None if top is None else (top[0].iso_code_639_3.name.lower(), top[1])
        if kind == "rank":
            return rank_of(all_detector().compute_language_confidence_values(question[1]), question[2])
        raise ValueError(f"unknown question {kind!r}")

    # load the models the run is likely to need before anyone asks: the candidates, and every
    # language in low-accuracy mode when lingua does not know the target
    known = tuple(sorted({c for c in candidates if c in langs}))
    if len(known) >= 2:
        detector(known).compute_language_confidence_values(CANDIDATES_SAMPLE)
    if target is not None and target not in langs:
        all_detector().compute_language_confidence_values(ALL_LANGUAGES_SAMPLE)
    while True:
        try:
            question = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, answer(question))
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


def start(source: str | None, target: str | None, extra: Iterable[str] = DEFAULT_CANDIDATES) -> Service | None:
    """Fork the service, which loads the models of the likely candidates (``source``,
    ``target`` and ``extra``, ISO 639-3) and, when lingua does not know ``target``, those of
    every language in low-accuracy mode. None where processes cannot be forked or lingua is
    not installed."""
    if not runtime.can_fork() or _SERVICE:
        return current()
    try:
        import importlib.util

        if importlib.util.find_spec("lingua") is None:
            return None
    except (ImportError, ValueError):
        return None
    mine, theirs = runtime.pipe(duplex=True)
    codes = tuple(detector_code(c) for c in (source, target, *extra) if c)
    # quiet: it writes nothing and holds no end of the command's own pipes (a reader waiting
    # for the command's output to end never waits for it); Ctrl-C is the command's to handle
    child = runtime.start(_child, mine, theirs, codes, detector_code(target) if target else None, method="fork",
                          name="mteval-lid", quiet=True)
    theirs.close()
    service = Service(mine, child)
    _SERVICE.append(service)
    return service


def _child(mine: Connection, theirs: Connection, codes: tuple[str, ...], target: str | None) -> None:
    mine.close()
    _serve(theirs, codes, target)


def stop() -> None:
    """End the service (killed: it may still be loading) and reap it."""
    if not _SERVICE:
        return
    _SERVICE.pop()._end()
