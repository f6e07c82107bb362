"""Which language an output is written in: whole-entry language identification.

Used by code-switching (an entry wholly in another language counts 1.0, and the run gets the
caveat ``wrong_language_output``) and by run import (a warning when a run's outputs are not
in its corpus's target language).

The signal combines two things, because the language-identification model (lingua, offline:
its n-gram models ship inside the wheel, nothing is downloaded) knows about 75 languages and
many target languages of this tool are not among them (Ewe, Plains Cree, Sámi...):

1. **Target evidence**, from the target language card: the share of the output's words that
   are written in a target script the source does not use (Cyrillic for an English→Russian
   pair), that carry a letter of the target alphabet absent from the source alphabet (Ewe
   ``ɖ ɛ ƒ ɣ ŋ ɔ ʋ`` against French), that are among the card's frequent words
   (``language_id.frequent_words``), or that the target analyzer accepts. Words that the entry's reference also contains
   (names, numbers carried over) and the card's allowed loanwords are neutral. When at least
   :data:`MIN_TARGET_EVIDENCE` of the words are target words, the output is in the target.
2. **The detector** (lingua, high-accuracy mode, restricted to the *candidate* languages: the
   source, the target when lingua knows it, English and French, plus any the metric is given)
   on the whole output. The output is in another language when one candidate other than the
   target gets a relative confidence ≥ :data:`MIN_CONFIDENCE`. When the target is unknown to
   the detector and the card gives no evidence at all (no alphabet difference, no frequent
   words, no analyzer), only the *source* language is trusted, since the detector must place
   a text of an unknown language among the candidates.
3. **All the detector's languages**, when the target is unknown to it: among two or three
   candidates one always gets a relative confidence ≥ 0.5, so a Cree word without its
   circumflexes (``takohtew``) or an Ewe line without Ewe letters would be "French" or
   "English". The candidate found must also be among the :data:`ALL_LANGUAGES_TOP` most
   likely of every language lingua knows (low-accuracy mode, the first
   :data:`ALL_LANGUAGES_CHARS` characters); otherwise the output is not judged wrong-language.

Measured on MAFAND-MT (16 fr→ewe and 16 ewe→fr system outputs scored against the fr→ewe
corpus; numbers in the README): the French outputs are judged wrong-language on 88–98 % of
entries, the Ewe outputs on 0–9 %.

lingua loads its n-gram models on first use (≈ 0.6 s of CPU for French and English, ≈ 0.55 s
for all its Latin-script languages in low-accuracy mode). ``mteval evaluate`` loads them from
its start in a process of its own (:mod:`~mteval_gui.scoring.metrics.lid_service`), which answers
:meth:`LanguageIdentifier.identify` and the all-languages rank when it can; otherwise the
process loads them itself (code-switching is declared ``single_process``: with two workers only
the forked helper does). lingua's confidences differ from call to call in
their last bits (the order of its sums); the judgement compares them with thresholds.

lingua is imported inside functions; without it :func:`identifier_for` returns None and only
the target evidence is available (an output is then never judged wholly wrong-language).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mteval_gui.domain.card import LanguageCard
from mteval_gui.scoring.metrics import lid_service
from mteval_gui.scoring.metrics.lid_service import DEFAULT_CANDIDATES, detector_code
from mteval_gui.text import match_key, match_keys, nfc, word_tokens

MIN_CONFIDENCE = 0.5  # relative confidence of the detected language (lingua's, summing to 1 over the candidates)
MIN_TARGET_EVIDENCE = 0.2  # share of target words from which an output is in the target language
DETECTOR = "lingua"
ALL_LANGUAGES_TOP = 3  # unknown target: the detected candidate must rank this high among all lingua's languages
ALL_LANGUAGES_CHARS = 400  # characters of an output the all-languages check reads

def detector_version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - stdlib
        return None
    try:
        return version("lingua-language-detector")
    except PackageNotFoundError:
        return None


def _lingua_languages() -> dict[str, Any] | None:
    try:
        from lingua import Language
    except ImportError:
        return None
    return {lang.iso_code_639_3.name.lower(): lang for lang in Language.all()}


def known_languages() -> frozenset[str]:
    """ISO 639-3 codes the detector knows (empty without lingua)."""
    langs = _lingua_languages()
    return frozenset(langs) if langs else frozenset()


@dataclass(frozen=True)
class LanguageGuess:
    code: str  # ISO 639-3 code of the candidate (as given, not the macrolanguage)
    confidence: float  # relative confidence over the candidates, 0-1


class LanguageIdentifier:
    """A lingua detector over a fixed set of candidate languages (thread-safe, built once)."""

    def __init__(self, candidates: Sequence[str]) -> None:
        langs = _lingua_languages()
        if langs is None:
            raise ImportError("lingua-language-detector is not installed")
        from lingua import LanguageDetectorBuilder

        self.codes: dict[Any, str] = {}
        for code in candidates:
            lang = langs.get(detector_code(code))
            if lang is not None and lang not in self.codes:
                self.codes[lang] = code
        if len(self.codes) < 2:
            raise ValueError(f"the detector needs two candidate languages it knows; got {', '.join(candidates)}")
        self.candidates = tuple(self.codes.values())
        self._by_service_code = {lang.iso_code_639_3.name.lower(): code for lang, code in self.codes.items()}
        self._service_codes = tuple(sorted(self._by_service_code))
        self._detector = LanguageDetectorBuilder.from_languages(*self.codes).build()
        self._lock = threading.Lock()

    def identify(self, text: str) -> LanguageGuess | None:
        """The most likely candidate and its relative confidence; None for text without letters."""
        if not any(c.isalpha() for c in text):
            return None
        service = lid_service.current()
        if service is not None:
            try:
                best = service.best(self._service_codes, text)
            except lid_service.Unavailable:
                pass
            else:
                return None if best is None else LanguageGuess(self._by_service_code[best[0]], best[1])
        with self._lock:
            top = lid_service.top_of(self._detector.compute_language_confidence_values(text))
        return None if top is None else LanguageGuess(self.codes[top[0]], top[1])


_IDENTIFIERS: dict[tuple[str, ...], LanguageIdentifier | None] = {}
_IDENTIFIERS_LOCK = threading.Lock()


def identifier_for(candidates: Iterable[str]) -> LanguageIdentifier | None:
    """The shared identifier over ``candidates`` (None without lingua or with < 2 known candidates)."""
    key = tuple(sorted(dict.fromkeys(candidates)))
    with _IDENTIFIERS_LOCK:
        if key not in _IDENTIFIERS:
            try:
                _IDENTIFIERS[key] = LanguageIdentifier(key)
            except (ImportError, ValueError):
                _IDENTIFIERS[key] = None
        return _IDENTIFIERS[key]


class _AllLanguages:
    """lingua over every language it knows, low-accuracy mode (built on first use, thread-safe)."""

    def __init__(self) -> None:
        from lingua import LanguageDetectorBuilder

        self._detector = LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build()
        self._lock = threading.Lock()

    def rank(self, text: str, code: str) -> int | None:
        """Rank (0 = most likely) of ``code`` among all languages for ``text``; None when it has none."""
        target = detector_code(code)
        service = lid_service.current()
        if service is not None:
            with contextlib.suppress(lid_service.Unavailable):
                return service.rank(text[:ALL_LANGUAGES_CHARS], target)
        with self._lock:
            return lid_service.rank_of(self._detector.compute_language_confidence_values(text[:ALL_LANGUAGES_CHARS]),
                                       target)


_ALL_LANGUAGES: list[_AllLanguages | None] = []


def all_languages() -> _AllLanguages | None:
    """The shared all-languages detector (None without lingua)."""
    with _IDENTIFIERS_LOCK:
        if not _ALL_LANGUAGES:
            try:
                _ALL_LANGUAGES.append(_AllLanguages())
            except ImportError:
                _ALL_LANGUAGES.append(None)
        return _ALL_LANGUAGES[0]


def _alphabet(card: LanguageCard | None) -> frozenset[str] | None:
    if card is None or not card.orthography.alphabet:
        return None
    letters = {c for c in nfc(card.orthography.alphabet) if c.isalpha()}
    return frozenset(letters | {c.casefold() for c in letters})


def target_only_letters(target: LanguageCard | None, source: LanguageCard | None) -> frozenset[str]:
    """Letters of the target alphabet that the source alphabet lacks (casefolded); empty when
    either card has no alphabet."""
    t, s = _alphabet(target), _alphabet(source)
    if t is None or s is None:
        return frozenset()
    return frozenset(c.casefold() for c in t - s if c.casefold() not in s)


def frequent_words(card: LanguageCard | None) -> frozenset[str]:
    if card is None or card.language_id is None:
        return frozenset()
    return frozenset(match_key(w) for w in card.language_id.frequent_words if w.strip())


@dataclass(frozen=True)
class LanguageJudgement:
    wrong_language: bool
    language: str | None  # detected candidate (None when the detector was not needed or not sure)
    confidence: float | None
    target_evidence: float | None  # share of target words among the non-neutral words

    def to_json(self) -> dict[str, Any]:
        return {"wrong_language": self.wrong_language, "language": self.language,
                "language_confidence": None if self.confidence is None else round(self.confidence, 4),
                "target_evidence": None if self.target_evidence is None else round(self.target_evidence, 4)}


class LanguageJudge:
    """Tells whether one output is in the target language or wholly in another one."""

    def __init__(self, source_lang: str, target_lang: str, *, target_card: LanguageCard | None = None,
                 source_card: LanguageCard | None = None, accepts: Callable[[str], bool] | None = None,
                 lexicon: Iterable[str] = (), extra_candidates: Iterable[str] = DEFAULT_CANDIDATES,
                 loanwords: Iterable[str] = (), script_of: Callable[[str], str | None] | None = None,
                 target_scripts: Iterable[str] = (), source_scripts: Iterable[str] = ()) -> None:
        self.source_lang, self.target_lang = source_lang, target_lang
        self.letters = target_only_letters(target_card, source_card)
        self.script_of = script_of
        self.scripts = frozenset(target_scripts) - frozenset(source_scripts) if script_of is not None else frozenset()
        self.lexicon = frequent_words(target_card) | {match_key(w) for w in lexicon if w}
        self.accepts = accepts
        self.loanwords = frozenset(match_key(w) for w in loanwords if w)
        self.has_evidence = bool(self.letters or self.lexicon or self.scripts or accepts is not None)
        known = known_languages()
        self.target_known = detector_code(target_lang) in known
        candidates = [source_lang, *([target_lang] if self.target_known else []), *extra_candidates]
        self.identifier = identifier_for(c for c in candidates if c != target_lang or self.target_known)

    @property
    def available(self) -> bool:
        return self.identifier is not None

    def describe(self) -> dict[str, Any]:
        """What the judgement rests on (run card ``extra``)."""
        return {
            "detector": DETECTOR if self.identifier is not None else None,
            "detector_version": detector_version() if self.identifier is not None else None,
            "candidates": list(self.identifier.candidates) if self.identifier is not None else [],
            "target_known_to_detector": self.target_known,
            "target_scripts": sorted(self.scripts),
            "target_letters": "".join(sorted(self.letters)),
            "target_frequent_words": len(self.lexicon),
            "target_analyzer": self.accepts is not None,
            "min_confidence": MIN_CONFIDENCE,
            "min_target_evidence": MIN_TARGET_EVIDENCE,
            "all_languages_top": None if self.target_known else ALL_LANGUAGES_TOP,
        }

    def _is_target_word(self, key: str, token: str) -> bool:
        if self.scripts and self.script_of is not None and self.script_of(token) in self.scripts:
            return True
        if self.letters and not self.letters.isdisjoint(key):
            return True
        if key in self.lexicon:
            return True
        if self.accepts is not None:
            try:
                return bool(self.accepts(token))
            except (RuntimeError, ValueError, UnicodeError):  # an analyzer failure on one word is not a verdict
                return False
        return False

    def evidence(self, tokens: Sequence[str], neutral: frozenset[str],
                 keys: Sequence[str] | None = None) -> float | None:
        """Share of target words among the words that are neither neutral nor loanwords
        (``keys``: the tokens' match keys, when the caller has them)."""
        if not self.has_evidence:
            return None
        hits = counted = 0
        for tok, key in zip(tokens, match_keys(tokens) if keys is None else keys, strict=True):
            if self._is_target_word(key, tok):
                hits += 1
                counted += 1
            elif key not in neutral and key not in self.loanwords:
                counted += 1
        return hits / counted if counted else None

    def judge(self, predicted: str, neutral: frozenset[str] = frozenset(),
              tokens: Sequence[str] | None = None, keys: Sequence[str] | None = None) -> LanguageJudgement:
        """``neutral``: match keys of words that prove nothing (the reference's words);
        ``tokens`` (and their ``keys``): the output's words, when the caller has them."""
        toks = list(tokens) if tokens is not None else word_tokens(predicted)
        if not toks:
            return LanguageJudgement(False, None, None, None)
        if neutral or self.loanwords:
            word_keys = keys if tokens is not None and keys is not None else match_keys(toks)
            if all(k in neutral or k in self.loanwords for k in word_keys):
                return LanguageJudgement(False, None, None, None)  # the reference's own words: nothing to judge
        ev = self.evidence(toks, neutral, keys if tokens is not None else None)
        if ev is not None and ev >= MIN_TARGET_EVIDENCE:
            return LanguageJudgement(False, None, None, ev)
        if self.has_evidence and ev is None:  # only names and loanwords: nothing to judge
            return LanguageJudgement(False, None, None, None)
        if self.identifier is None:
            return LanguageJudgement(False, None, None, ev)
        guess = self.identifier.identify(nfc(predicted))
        if guess is None or guess.confidence < MIN_CONFIDENCE:
            return LanguageJudgement(False, guess.code if guess else None, guess.confidence if guess else None, ev)
        if guess.code == self.target_lang:
            return LanguageJudgement(False, guess.code, guess.confidence, ev)
        trusted = self.target_known or self.has_evidence or guess.code == self.source_lang
        if trusted and not self.target_known:
            sink = all_languages()
            rank = sink.rank(nfc(predicted), guess.code) if sink is not None else 0
            trusted = rank is not None and rank < ALL_LANGUAGES_TOP
        return LanguageJudgement(trusted, guess.code, guess.confidence, ev)
