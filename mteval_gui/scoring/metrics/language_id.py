"""Which language an output is written in: whole-entry language identification.

Used by code-switching (an entry wholly in another language counts 1.0, and the run gets the
caveat ``wrong_language_output``) and by run import (a warning when a run's outputs are not
in its corpus's target language).

The judgment rests on the target's own evidence first, then on the detector (lingua, offline:
its n-gram models ship inside the wheel, nothing is downloaded), which knows about 75 languages
but not many target languages of this tool (Ewe, Plains Cree, Sámi...):

1. **Target words**: words written in a target script the source does not use (from the card,
   else the scripts of the entry's references: ``judge(target_scripts=...)``), carrying a letter
   of the target alphabet that neither the source nor the fallback candidates have (Ewe
   ``ɖ ɛ ƒ ɣ ŋ ɔ ʋ``; :data:`CANDIDATE_ALPHABETS` when a candidate has no card), among the
   card's frequent words (``language_id.frequent_words``), accepted by the target analyzer
   (the caller loads it whenever one is installed), or words of the entry's reference that are
   no names. When at least :data:`MIN_TARGET_EVIDENCE` of the words are target words, the
   output is in the target. Neutral: the reference's names and numbers, the card's allowed
   loanwords, capitalised words that are no function word (names: also kept from the
   detector), and *ambiguous* words — function words of a candidate that are also target words
   (a frequent word of the card, or used by :data:`TARGET_USE_SHARE` of the corpus's
   references: Ewe and French ``le``, Ewe ``la``, ``si``, ``me``, English ``to``).
2. **The detector** (high-accuracy mode, restricted to the *candidates*: the source, the target
   when lingua knows it, English and French, plus any the metric is given) on the output
   without its names. The output is in another language when one candidate other than the
   target gets a relative confidence ≥ :data:`MIN_CONFIDENCE`.
3. **Confirmation, for a target the detector does not know**: among two or three candidates
   one always gets a relative confidence ≥ 0.5, so a Cree word (``ê-ayât``: its circumflex
   vowels are French letters too) or an Ewe line without Ewe letters would be "French". The
   candidate counts only when the output's own words show it — function words of that
   language (:data:`FUNCTION_WORDS`, written here: on a segment of a few words they are what
   tells the language) and words with a letter outside the target alphabet (French ``d``, ``u``
   for Cree; base letters, so Cree without circumflexes or with macrons is inside), together
   :data:`FUNCTION_WORD_SHARE` of the words — or, failing that, when it is among the
   :data:`ALL_LANGUAGES_TOP` most likely of every language lingua knows (low-accuracy mode, the
   first :data:`ALL_LANGUAGES_CHARS` characters). A candidate that the detector also gives to
   :data:`UNINFORMATIVE_SHARE` of the target's own texts whose letters do not tell them apart
   (the corpus's references; the entry's reference without a corpus) says nothing: then only
   the words can show it. Without any target evidence or target text, only the source
   language is trusted, since the detector must place a text of an unknown language among the
   candidates.
4. **Copies of the source**, when the judgment above finds the output in the target (the
   common real failure of a short output: words left untranslated): the words of the entry's
   source that are neither the reference's nor target words are copied words — a capitalised
   one too (``Lutte`` at the start of ``Lutte antiterroriste: ...``), unless the source shows it
   as a name (:func:`source_words`: capitalised inside a sentence, in a run of capitalised
   words, or a headline's topic before a colon or a dash); acronyms never. When they make
   :data:`COPIED_SHARE` of the counted words and outnumber the words the source does not have,
   the target evidence is below :data:`MIN_TARGET_EVIDENCE`, and the detector gives the source
   language at least :data:`MIN_CONFIDENCE` on the words that are not names, the output is a
   copy, in the source language.

Measured with ``perf/measure_language_id.py`` (numbers in docs/reference/scoring.md): on
MAFAND-MT the French outputs are judged wrong-language on 95–100 % of entries, the Ewe systems
on 0–9 %; English sentences for Ewe 97 %; valid Cree verb forms 0 %; the first 1–3 words of a
French source as its entry's output 85.6 %, of Ewe references and system outputs 0.5–1.5 %.

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
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
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


# Letters of the fallback candidate languages, for when no card of theirs is given (the French
# card's alphabet; English: the 26 letters).
CANDIDATE_ALPHABETS: dict[str, str] = {
    "eng": "abcdefghijklmnopqrstuvwxyz",
    "fra": "abcdefghijklmnopqrstuvwxyzàâæçéèêëîïôœùûüÿ",
}


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words of the fallback candidate languages (articles, pronouns, prepositions,
# conjunctions, auxiliaries): on a segment of a few words they are what tells the language, where
# a character model has too few letters to go on. Matched on match keys; a French word also by
# its elided first part (``l'armée`` -> ``l``).
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "fra": _word_set("""
        le la les l un une des du de d au aux à et ou où en dans sur sous par pour avec sans chez entre
        vers contre selon après avant depuis pendant lors ce cet cette ces c ça cela ceci il ils elle elles
        on nous vous je j tu me m te t se s lui leur leurs son sa ses mon ma mes ton ta tes notre nos
        votre vos qui que qu quoi dont ne n pas plus est sont été être a ont avait avaient était étaient
        sera seront fait aussi mais donc car comme si très tout tous toute toutes y ni déjà encore alors
        ainsi lorsque lorsqu puisque puisqu quand parce jusqu jusque même autres autre"""),
    "eng": _word_set("""
        the a an and or but of to in on at by for from with without about into over under after before
        between through during against among is are was were be been being am has have had do does did
        will would shall should can could may might must not no this that these those it its he him his
        she her hers they them their theirs we us our you your yours i me my mine who whom whose which
        what where when why how there here than then so if as also very all any some each every both more
        most such only just up out off down again too don't doesn't didn't isn't aren't wasn't weren't
        won't can't i'm i've i'll it's that's there's he's she's you're we're they're let's"""),
}
FUNCTION_WORD_SHARE = 0.25  # share of an output's words that must be function words of the detected language
SHORT_FUNCTION_WORD = 1  # letters up to which one function word alone confirms only a sure detector (I, a, à)
SURE_CONFIDENCE = 0.8  # a sure detector
COPIED_SHARE = 0.5  # share of the counted words that, copied from the source, make an output a copy of it
TARGET_USE_SHARE = 0.005  # share of the target texts from which a function word is a target word too
TARGET_USE_TEXTS = 5000  # target texts read for it
UNINFORMATIVE_SHARE = 0.5  # share of the target's texts the detector takes for a candidate that makes it uninformative
TARGET_CHECK_TEXTS = 200  # target texts the detector is checked on


def _alphabet(card: LanguageCard | None) -> frozenset[str] | None:
    if card is None or not card.orthography.alphabet:
        return None
    letters = {c for c in nfc(card.orthography.alphabet) if c.isalpha()}
    return frozenset(letters | {c.casefold() for c in letters})


@lru_cache(maxsize=4096)
def base_letter(letter: str) -> str:
    """A letter without its diacritics, casefolded (``Ê`` -> ``e``)."""
    return unicodedata.normalize("NFD", letter.casefold())[:1]


def candidate_alphabet(code: str, card: LanguageCard | None = None) -> frozenset[str] | None:
    """The letters of a candidate language (casefolded): its card's alphabet, else the fallback
    :data:`CANDIDATE_ALPHABETS`; None when neither gives one."""
    letters = _alphabet(card)
    if letters is None and code in CANDIDATE_ALPHABETS:
        letters = frozenset(CANDIDATE_ALPHABETS[code])
    return None if letters is None else frozenset(c.casefold() for c in letters)


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


def _copyable(token: str) -> bool:
    """Whether a word copied from the source tells the source language: it has a lowercase letter
    (an acronym, ``ONU``, ``CAF``, is carried over as it is)."""
    return any(c.islower() for c in token)


_SENTENCE_END = ".!?:;…"
_DASHES = "-–—"


def _capitalised(token: str) -> bool:
    head, _, tail = token.replace("’", "'").rpartition("'")
    first = next((c for c in (tail or head) if c.isalpha()), "")
    return bool(first) and first.isupper()


@lru_cache(maxsize=4096)
def source_words(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """Match keys of the words of a source text, and of those it writes capitalised inside a
    sentence (names: ``Maroc`` in ``Le roi du Maroc``). A word capitalised only where a sentence
    starts (the first word, after ``.!?:;…``, a dash or an opening quote) is not known as a name
    (``Lutte`` in ``Lutte antiterroriste: ...``) unless the next word is capitalised too (``Côte
    d'Ivoire``, ``Burkina Faso``: names come in runs) or it stands alone before a colon, a dash or
    another mark (a headline's topic: ``Nigéria: le président...``, ``Mali – Tentative...``)."""
    keys: set[str] = set()
    names: set[str] = set()
    start = True
    previous = ""  # key of the previous word when it is capitalised
    alone = ""  # key of the previous word when it is capitalised and alone in its sentence so far
    for raw in nfc(source).split():
        toks = word_tokens(raw)
        if not toks:
            if alone and not any(c.isalnum() for c in raw):
                names.add(alone)  # a mark standing alone after it: a headline's topic
            start = start or any(c in _DASHES + "“«\"" for c in raw)
            previous = alone = ""
            continue
        tok = toks[0]
        if raw[0] in "«“\"(":
            start = True
        key = match_key(tok)
        keys.add(key)
        capitalised = _capitalised(tok)
        if capitalised and (previous or not start):
            names.add(key)
            if previous:
                names.add(previous)
        end = raw.rstrip("»”\")")[-1:]
        if capitalised and start and end in ":–—-":
            names.add(key)  # a headline's topic
        alone = key if capitalised and start and end.isalnum() else ""
        start = raw[-1] in _SENTENCE_END or end in _SENTENCE_END
        previous = key if capitalised and not start else ""
    return frozenset(keys), frozenset(names)


def function_word_of(code: str, key: str, *, whole: bool = False) -> bool:
    """Whether the match key ``key`` is a function word of ``code`` (:data:`FUNCTION_WORDS`), or
    for French a word whose elided first part is one (``l'armée``, ``qu’il``)."""
    words = FUNCTION_WORDS.get(code)
    if not words:
        return False
    if key in words:
        return True
    if code == "fra" and not whole:
        for apostrophe in "'’":
            head, sep, tail = key.partition(apostrophe)
            if sep and tail and head in words:
                return True
    return False


def used_function_words(texts: Iterable[str | None], candidates: Sequence[str]) -> frozenset[str]:
    """The function words of ``candidates`` that target-language ``texts`` (the corpus's
    references) use as words of their own (Ewe ``la``, ``si``, ``me``; English ``to``): in at
    least :data:`TARGET_USE_SHARE` of the texts, and at least two. At most
    :data:`TARGET_USE_TEXTS` texts are read, evenly spaced."""
    words = frozenset().union(*(FUNCTION_WORDS[c] for c in candidates if c in FUNCTION_WORDS))
    pool = [t for t in texts if t]
    if not words or not pool:
        return frozenset()
    step = max(1, len(pool) // TARGET_USE_TEXTS)
    sample = pool[::step][:TARGET_USE_TEXTS]
    counts: dict[str, int] = {}
    for text in sample:
        for key in set(match_keys(word_tokens(text))) & words:
            counts[key] = counts.get(key, 0) + 1
    least = max(2, TARGET_USE_SHARE * len(sample))
    return frozenset(k for k, n in counts.items() if n >= least)


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


@dataclass
class _Words:
    """What the words of one output say (the neutral ones left out)."""

    counted: int = 0  # words that are neither neutral, loanwords, names nor ambiguous function words
    target: int = 0  # words with target evidence
    outside: int = 0  # words with a letter outside the target alphabet
    function: dict[str, int] = field(default_factory=dict)  # function words per candidate
    long_function: dict[str, int] = field(default_factory=dict)  # of them, longer than SHORT_FUNCTION_WORD
    shared_function: dict[str, int] = field(default_factory=dict)  # its function words the target uses too
    copied: int = 0  # words copied from the entry's source (neither the reference's nor target words)
    unsourced: int = 0  # words with a letter that the source does not have (any kind), when a source is given
    copied_names: int = 0  # of the copied words, those that would be names without the source
    names: list[int] = field(default_factory=list)  # positions of the capitalised words taken for names


class LanguageJudge:
    """Tells whether one output is in the target language or wholly in another one."""

    def __init__(self, source_lang: str, target_lang: str, *, target_card: LanguageCard | None = None,
                 source_card: LanguageCard | None = None, accepts: Callable[[str], bool] | None = None,
                 lexicon: Iterable[str] = (), extra_candidates: Iterable[str] = DEFAULT_CANDIDATES,
                 loanwords: Iterable[str] = (), script_of: Callable[[str], str | None] | None = None,
                 target_scripts: Iterable[str] = (), source_scripts: Iterable[str] = (),
                 target_texts: Iterable[str | None] = ()) -> None:
        self.source_lang, self.target_lang = source_lang, target_lang
        extra = tuple(extra_candidates)
        self.alphabet = _alphabet(target_card)
        self.alphabet_bases = None if self.alphabet is None or target_card is None else frozenset(
            base_letter(c) for c in (*self.alphabet, *target_card.orthography.folds,
                                     *target_card.orthography.lookalikes) if c.isalpha())
        # each candidate's letters (the source's from its card), and the target letters no candidate has
        self.candidate_letters: dict[str, frozenset[str]] = {}
        for code in dict.fromkeys((source_lang, *extra)):
            if code == target_lang:
                continue
            letters = candidate_alphabet(code, source_card if code == source_lang else None)
            if letters is not None:
                self.candidate_letters[code] = letters
        if self.alphabet is not None and self.candidate_letters:
            self.letters = frozenset(c for c in self.alphabet if c.casefold() == c).difference(
                *self.candidate_letters.values())
            # against one candidate: the target letters it lacks (Cree â ê î ô against English)
            self.letters_against = {code: frozenset(c for c in self.alphabet if c.casefold() == c) - letters
                                    for code, letters in self.candidate_letters.items()}
        else:
            self.letters = target_only_letters(target_card, source_card)
            self.letters_against = {}
        self.script_of = script_of
        self.source_scripts = frozenset(source_scripts)
        self.scripts = frozenset(target_scripts) - self.source_scripts if script_of is not None else frozenset()
        self.accepts = accepts
        self.loanwords = frozenset(match_key(w) for w in loanwords if w)
        self.function_candidates = tuple(c for c in dict.fromkeys((source_lang, *extra))
                                         if c != target_lang and c in FUNCTION_WORDS)
        texts = [t for t in target_texts if t]
        lexicon_words = frequent_words(target_card) | {match_key(w) for w in lexicon if w}
        # a frequent target word that is also a function word of a candidate (Ewe and French ``le``)
        # tells neither language
        self.ambiguous = frozenset(w for w in lexicon_words
                                   if any(function_word_of(c, w) for c in self.function_candidates)) \
            | used_function_words(texts, self.function_candidates)
        self.lexicon = lexicon_words - self.ambiguous
        self.has_case = target_card.has_case if target_card is not None else True
        self.has_evidence = bool(self.letters or self.lexicon or self.scripts or accepts is not None)
        known = known_languages()
        self.target_known = detector_code(target_lang) in known
        candidates = [source_lang, *([target_lang] if self.target_known else []), *extra]
        self.identifier = identifier_for(c for c in candidates if c != target_lang or self.target_known)
        self.target_texts = texts
        self._uninformative: dict[str, bool] = {}
        self._guess_lock = threading.Lock()

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
            "target_alphabet": self.alphabet is not None,
            "target_frequent_words": len(self.lexicon),
            "ambiguous_function_words": sorted(self.ambiguous),
            "function_word_languages": list(self.function_candidates),
            "target_analyzer": self.accepts is not None,
            "min_confidence": MIN_CONFIDENCE,
            "min_target_evidence": MIN_TARGET_EVIDENCE,
            "function_word_share": None if self.target_known else FUNCTION_WORD_SHARE,
            "all_languages_top": None if self.target_known else ALL_LANGUAGES_TOP,
        }

    def _is_target_word(self, key: str, token: str, scripts: frozenset[str] | None = None,
                        letters: frozenset[str] | None = None) -> bool:
        scripts = self.scripts if scripts is None else scripts
        letters = self.letters if letters is None else letters
        if scripts and self.script_of is not None and self.script_of(token) in scripts:
            return True
        if letters and not letters.isdisjoint(key):
            return True
        if key in self.lexicon:
            return True
        if self.accepts is not None:
            try:
                return bool(self.accepts(token))
            except (RuntimeError, ValueError, UnicodeError):  # an analyzer failure on one word is not a verdict
                return False
        return False

    def _outside(self, key: str) -> bool:
        """Whether a word has a letter whose base letter is none of the target alphabet's (French
        ``d``, ``u`` for Cree; a Cree word written without its circumflexes or with macrons is not)."""
        bases = self.alphabet_bases
        return bases is not None and any(c.isalpha() and base_letter(c) not in bases for c in key)

    def _is_name(self, token: str, key: str) -> bool:
        """A capitalised word that is no function word of a candidate (``Sénégal``, ``d'Ivoire``):
        a name, which tells no language (targets without case have none)."""
        if not self.has_case:
            return False
        head, _, tail = token.replace("’", "'").rpartition("'")
        first = next((c for c in (tail or head) if c.isalpha()), "")
        if not first or not first.isupper():
            return False
        return not any(function_word_of(code, key, whole=True) for code in self.function_candidates)

    def _words(self, tokens: Sequence[str], keys: Sequence[str], neutral: frozenset[str],
               scripts: frozenset[str], source: frozenset[str] = frozenset(),
               source_names: frozenset[str] = frozenset()) -> _Words:
        out = _Words()
        for i, (tok, key) in enumerate(zip(tokens, keys, strict=True)):
            if source and key not in source and any(c.isalpha() for c in key):
                out.unsourced += 1
            if key in self.ambiguous:
                for code in self.function_candidates:
                    if function_word_of(code, key):
                        out.shared_function[code] = out.shared_function.get(code, 0) + 1
                continue
            if self._is_target_word(key, tok, scripts):
                out.counted += 1
                out.target += 1
                continue
            if key in neutral or key in self.loanwords:
                if self._is_name(tok, key):
                    out.names.append(i)  # kept from the detector too
                elif key in neutral and any(c.isalpha() for c in key) and not self._outside(key) \
                        and not any(function_word_of(c, key) for c in self.function_candidates):
                    out.counted += 1  # a word of the reference that is no name: a target word
                    out.target += 1
                continue
            name = self._is_name(tok, key)
            if key in source and _copyable(tok) and not (name and key in source_names):
                out.copied += 1  # a word of the source the reference does not use: copied, not a name
                out.copied_names += name
            elif name:
                out.names.append(i)
                continue
            out.counted += 1
            if self._outside(key):
                out.outside += 1
            for code in self.function_candidates:
                if function_word_of(code, key):
                    out.function[code] = out.function.get(code, 0) + 1
                    if len(key) > SHORT_FUNCTION_WORD:
                        out.long_function[code] = out.long_function.get(code, 0) + 1
        return out

    def evidence(self, tokens: Sequence[str], neutral: frozenset[str],
                 keys: Sequence[str] | None = None) -> float | None:
        """Share of target words among the words that are neither neutral nor loanwords
        (``keys``: the tokens' match keys, when the caller has them)."""
        if not self.has_evidence:
            return None
        words = self._words(tokens, match_keys(tokens) if keys is None else keys, neutral, self.scripts)
        return words.target / words.counted if words.counted else None

    def _says_nothing(self, text: str, code: str) -> bool:
        toks = word_tokens(text)
        if not toks:
            return False
        against = self.letters_against.get(code, self.letters)
        scripts = self.scripts
        script_of = self.script_of
        for tok in toks:
            if against and not against.isdisjoint(tok.casefold()):
                return False  # a target letter ``code`` lacks: the letters tell them apart
            if scripts and script_of is not None and script_of(tok) in scripts:
                return False
        assert self.identifier is not None
        guess = self.identifier.identify(nfc(text))
        return guess is not None and guess.code == code and guess.confidence >= MIN_CONFIDENCE

    def uninformative(self, code: str, reference: str | None = None) -> bool:
        """Whether the detector's ``code`` says nothing about this target: it takes at least
        :data:`UNINFORMATIVE_SHARE` of the target's own texts (the corpus's references, at most
        :data:`TARGET_CHECK_TEXTS` of them; else the entry's ``reference``) for ``code`` while
        their letters do not tell the target from ``code`` (no target letter or script that
        ``code`` lacks: Plains Cree words for French, whose circumflex vowels are French letters
        too). The detector reads letters, so an output without target evidence is then no more
        ``code`` than the target's own texts. Computed once per candidate."""
        if not self.target_texts:
            return bool(reference) and self._says_nothing(reference or "", code)
        with self._guess_lock:
            known = self._uninformative.get(code)
        if known is None:
            step = max(1, len(self.target_texts) // TARGET_CHECK_TEXTS)
            sample = self.target_texts[::step][:TARGET_CHECK_TEXTS]
            taken = sum(1 for t in sample if self._says_nothing(t, code))
            known = taken >= UNINFORMATIVE_SHARE * len(sample)
            with self._guess_lock:
                self._uninformative[code] = known
        return known

    @staticmethod
    def _confirmed(words: _Words, guess: LanguageGuess) -> str | None:
        """The candidate the output's own words show, when they do: function words of one
        candidate, and words spelled outside the target alphabet, making at least
        :data:`FUNCTION_WORD_SHARE` of the words. One function word of
        :data:`SHORT_FUNCTION_WORD` letters alone only confirms a detector at least
        :data:`SURE_CONFIDENCE` sure, or with a function word of the same language that the
        target uses too (``Le Togo a``: French ``a`` and ``le``, which tells nothing alone). The
        detector's candidate, else the only candidate with function words when the detector's
        has none (``Tom is vile`` taken for French)."""
        function = words.function
        code = guess.code
        if not function.get(code):
            named = [c for c, n in function.items() if n]
            if len(named) == 1:
                code = named[0]
        found = function.get(code, 0)
        other = found + words.outside
        if other < FUNCTION_WORD_SHARE * words.counted or found < max(function.values(), default=0):
            return None
        sure = code == guess.code and guess.confidence >= SURE_CONFIDENCE
        if other + (words.shared_function.get(code, 0) if found else 0) >= 2 or words.outside \
                or words.long_function.get(code, 0) or (found and sure):
            return code
        return None

    def judge(self, predicted: str, neutral: frozenset[str] = frozenset(),
              tokens: Sequence[str] | None = None, keys: Sequence[str] | None = None, *,
              reference: str | None = None, target_scripts: Iterable[str] | None = None,
              source: str | None = None) -> LanguageJudgement:
        """``neutral``: match keys of words that prove nothing (the reference's words);
        ``tokens`` (and their ``keys``): the output's words, when the caller has them;
        ``reference``: the entry's reference (target-language text the detector is checked on);
        ``target_scripts``: the target's scripts that the source does not use when the judge has
        none from a card (the scripts of the references); ``source``: the entry's source, for an
        output copied from it (:meth:`_copy`)."""
        toks = list(tokens) if tokens is not None else word_tokens(predicted)
        if not toks:
            return LanguageJudgement(False, None, None, None)
        word_keys = list(keys) if tokens is not None and keys is not None else match_keys(toks)
        scripts = self.scripts
        if not scripts and target_scripts is not None and self.script_of is not None:
            scripts = frozenset(target_scripts) - self.source_scripts
        has_evidence = self.has_evidence or bool(scripts)
        verdict = self._judge(predicted, toks, word_keys, neutral, scripts, has_evidence, reference)
        if verdict.wrong_language or not source:
            return verdict
        copy = self._copy(toks, word_keys, neutral, scripts, has_evidence, source)
        return copy if copy is not None else verdict

    def _copy(self, toks: Sequence[str], word_keys: Sequence[str], neutral: frozenset[str],
              scripts: frozenset[str], has_evidence: bool, source: str) -> LanguageJudgement | None:
        """An untranslated copy of the source (the common real failure of a short output): words
        of the entry's source that are neither the reference's nor target words — a capitalised
        one too, unless the source shows it as a name (:func:`source_words`) — at least
        :data:`COPIED_SHARE` of the counted words and more than the words the source lacks, target
        evidence below :data:`MIN_TARGET_EVIDENCE` (counted as without the source: capitalised
        copied words as names), and the detector gives the source language at least
        :data:`MIN_CONFIDENCE` on the words that are not names. None when it is no such copy."""
        if self.identifier is None:
            return None
        src_keys, src_names = source_words(source)
        words = self._words(toks, word_keys, neutral, scripts, src_keys, src_names)
        if not words.copied or words.copied <= words.unsourced or words.copied < COPIED_SHARE * words.counted:
            return None
        # target evidence as without the source (capitalised copied words as names)
        without_names = words.counted - words.copied_names
        ev = (words.target / without_names if without_names else 0.0) if has_evidence else None
        if ev is not None and ev >= MIN_TARGET_EVIDENCE:
            return None
        names = set(words.names)
        guess = self.identifier.identify(" ".join(t for i, t in enumerate(toks) if i not in names))
        if guess is None or guess.code != self.source_lang or guess.confidence < MIN_CONFIDENCE:
            return None
        return LanguageJudgement(True, guess.code, guess.confidence, ev)

    def _judge(self, predicted: str, toks: Sequence[str], word_keys: Sequence[str], neutral: frozenset[str],
               scripts: frozenset[str], has_evidence: bool, reference: str | None) -> LanguageJudgement:
        """The judgement from the output's words, the target's evidence and the detector."""
        words = self._words(toks, word_keys, neutral, scripts)
        if not words.counted:
            return LanguageJudgement(False, None, None, None)  # the reference's own words: nothing to judge
        ev = words.target / words.counted if has_evidence else None
        if ev is not None and ev >= MIN_TARGET_EVIDENCE:
            return LanguageJudgement(False, None, None, ev)
        if self.identifier is None:
            return LanguageJudgement(False, None, None, ev)
        text = nfc(predicted)
        if words.names:  # the detector reads the words that are not names
            names = set(words.names)
            text = " ".join(t for i, t in enumerate(toks) if i not in names)
        guess = self.identifier.identify(text)
        if guess is None or guess.confidence < MIN_CONFIDENCE:
            return LanguageJudgement(False, guess.code if guess else None, guess.confidence if guess else None, ev)
        if guess.code == self.target_lang:
            return LanguageJudgement(False, guess.code, guess.confidence, ev)
        if self.target_known:
            return LanguageJudgement(True, guess.code, guess.confidence, ev)
        # with no evidence of the target at all (no card evidence, none of its texts) the text may
        # be the target whatever the detector says: only the source language is trusted
        informed = has_evidence or bool(self.target_texts)
        by_words = self._confirmed(words, guess)
        # the words confirm the detector, or name another candidate it overlooked
        if by_words is not None and (informed or by_words == self.source_lang):
            return LanguageJudgement(True, by_words, guess.confidence if by_words == guess.code else None, ev)
        if self.uninformative(guess.code, reference):
            return LanguageJudgement(False, guess.code, guess.confidence, ev)  # only the words could tell
        trusted = has_evidence or guess.code == self.source_lang
        if trusted:
            sink = all_languages()
            rank = sink.rank(text, guess.code) if sink is not None else 0
            trusted = rank is not None and rank < ALL_LANGUAGES_TOP
        return LanguageJudgement(trusted, guess.code, guess.confidence, ev)
