"""Behavioural metrics (SPEC §3, LYSS §2.4): code-switching, hallucination, terminology, consistency.

These detect failure modes rather than measure quality. Lower is better for the two rates.

**Code-switching** (per entry: share of output word tokens judged source-language):

- *script signal*: the token's script (majority script of its letters, from Unicode
  character names) is a source script and not a target script. Target scripts come from
  the target card (else the scripts seen in the entry's references); source scripts from
  the source card (else the scripts of the source text).
- *same-script signal* (the two languages share a script): the token occurs in the source
  text (or in ``context.shared["source_lexicon"]``, a set of words), is not accepted by the
  target analyzer (``context.shared["target_accepts"]``, a callable, else the strict analyzer
  shared by ``core.fst`` as ``context.shared["fst.strict"]``; the metric loads the installed
  strict analyzer itself when ``core.fst`` does not run) or lexicon
  (``context.shared["target_lexicon"]``), is not an allowed loanword of the target
  card, and does not occur in the entry's reference or variants (names and numbers that the
  reference itself carries over are not switches).
- placeholders the target card or the corpus declares (``{name}``, ``%s``, ``<x>``; see
  :mod:`mteval_gui.domain.placeholders`) are not words: they are blanked out first.
- *whole-entry signal*: an output judged wholly in another language than the target (the
  source, or another candidate language; see :mod:`~mteval_gui.scoring.metrics.language_id`)
  counts 1.0 (its token rate is kept as ``detail["token_rate"]``). The judge gets the target
  card, the analyzer, the corpus's references (the target's own texts) and, for a target
  without a card, the scripts of each entry's references. At ≥ 20 % of such entries
  the run gets the caveat ``wrong_language_output``. Parameters: ``detect_language`` (default
  true) and ``languages`` (other candidate languages besides the source and the target;
  default English and French).

**Hallucination** (per entry): ``min(1, 0.4·L + 0.3·R + 0.2·E + 0.1·C)`` with
L = 1 when output/reference characters fall outside [0.5, 2.0] (output/source outside
[0.3, 3.0] without a reference), R = share of repeated word-trigram occurrences
(1 − distinct/total), E = share of the output's numbers and mid-sentence capitalised
words that are absent from the source (capitalisation only for languages with case),
C = 1 when the output echoes the source (equal, or containing a source of ≥ 3 words).
Only entries with an output are scored: an empty or failed output has no content that could
be invented, so it is ``None`` here (verdict NO_OUTPUT) and is counted by ``errors`` /
``empty_outputs`` and the equivalence verdicts instead; the corpus value is the mean over the
entries with output.

**Terminology adherence**: terms = the entry's ``terminology`` ∪ the run glossary. A term
counts when it occurs in the source (whole words, ``match_key``); it is a hit when one
accepted target occurs in the output as a whole-word sequence (or, with
``context.shared["lemmas_of"]`` — a callable word → set of lemmas — or the shared strict
analyzer, as a word whose lemma is the target). Corpus value = hits / terms (micro); null without terms.

**Consistency** (corpus only): for source terms found in ≥ 2 entries, the share of the
modal accepted rendering among the entries that used an accepted rendering, averaged over
terms; null without such terms.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from mteval_gui.scoring.composite import wrong_language_caveat
from mteval_gui.scoring.metrics.language_id import LanguageJudge
from mteval_gui.scoring.metrics.lid_service import DEFAULT_CANDIDATES
from mteval_gui.scoring.metrics.structural import installed_target_accepts
from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryInput, EntryScore, MetricInfo, ScoringContext
from mteval_gui.scoring.stats import EntryStats
from mteval_gui.text import TEXT_MEMO, match_key, match_keys, nfc, word_tokens

# ISO 15924 code -> prefixes of Unicode character names of that script
SCRIPT_NAME_PREFIXES: dict[str, tuple[str, ...]] = {
    "Latn": ("LATIN",),
    "Cans": ("CANADIAN SYLLABICS",),
    "Cyrl": ("CYRILLIC",),
    "Arab": ("ARABIC",),
    "Ethi": ("ETHIOPIC",),
    "Grek": ("GREEK",),
    "Hebr": ("HEBREW",),
    "Deva": ("DEVANAGARI",),
    "Beng": ("BENGALI",),
    "Taml": ("TAMIL",),
    "Telu": ("TELUGU",),
    "Knda": ("KANNADA",),
    "Mlym": ("MALAYALAM",),
    "Gujr": ("GUJARATI",),
    "Guru": ("GURMUKHI",),
    "Sinh": ("SINHALA",),
    "Thai": ("THAI",),
    "Laoo": ("LAO",),
    "Khmr": ("KHMER",),
    "Mymr": ("MYANMAR",),
    "Tibt": ("TIBETAN",),
    "Geor": ("GEORGIAN",),
    "Armn": ("ARMENIAN",),
    "Hang": ("HANGUL",),
    "Hira": ("HIRAGANA",),
    "Kana": ("KATAKANA",),
    "Hani": ("CJK",),
    "Cher": ("CHEROKEE",),
    "Tfng": ("TIFINAGH",),
    "Vaii": ("VAI",),
    "Nkoo": ("NKO",),
    "Mong": ("MONGOLIAN",),
    "Thaa": ("THAANA",),
    "Syrc": ("SYRIAC",),
}
_COMPOSITE_SCRIPTS = {"Jpan": ("Hani", "Hira", "Kana"), "Kore": ("Hang", "Hani"), "Hans": ("Hani",), "Hant": ("Hani",)}
_PREFIX_TO_SCRIPT = sorted(
    ((p, code) for code, ps in SCRIPT_NAME_PREFIXES.items() for p in ps), key=lambda x: -len(x[0])
)


def expand_scripts(codes: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for c in codes:
        out.update(_COMPOSITE_SCRIPTS.get(c, (c,)))
    return out


@lru_cache(maxsize=4096)
def char_script(ch: str) -> str | None:
    """ISO 15924 code of a letter (None for non-letters and unknown scripts)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    name = unicodedata.name(ch, "")
    for prefix, code in _PREFIX_TO_SCRIPT:
        if name.startswith(prefix):
            return code
    return None


@lru_cache(maxsize=65536)
def token_script(token: str) -> str | None:
    """Majority script of a token's letters (ties: first seen; cached: words recur)."""
    if token.isascii():  # the ASCII letters are Latin
        return "Latn" if any(ch.isalpha() for ch in token) else None
    counts: dict[str, int] = {}
    for ch in token:
        s = char_script(ch)
        if s:
            counts[s] = counts.get(s, 0) + 1
    if not counts:
        return None
    return max(counts, key=counts.__getitem__)  # the first seen of the most frequent


@lru_cache(maxsize=TEXT_MEMO)
def _tokens(text: str | None) -> tuple[str, ...]:
    """Word tokens of a text (cached: sources and references recur across metrics and runs)."""
    return tuple(word_tokens(text))


@lru_cache(maxsize=TEXT_MEMO)
def _token_keys(text: str | None) -> frozenset[str]:
    return frozenset(match_keys(_tokens(text)))


def text_scripts(text: str | None) -> set[str]:
    return {s for s in (token_script(t) for t in _tokens(text)) if s}


def target_accepts(shared: Mapping[str, Any]) -> Callable[[str], bool] | None:
    """The target-language word acceptor of this job: ``shared["target_accepts"]``, else the
    strict analyzer that ``core.fst`` shares as ``shared["fst.strict"]``."""
    accepts = shared.get("target_accepts")
    if accepts is None:
        analyzer = shared.get("fst.strict")
        accepts = getattr(analyzer, "accepts", None)
    return accepts


def target_lemmas(shared: Mapping[str, Any]) -> Callable[[str], set[str]] | None:
    """Word -> lemmas: ``shared["lemmas_of"]``, else from the shared strict analyzer."""
    fn = shared.get("lemmas_of")
    if fn is None:
        analyzer = shared.get("fst.strict")
        if analyzer is not None and hasattr(analyzer, "analyse"):
            def fn(word: str) -> set[str]:
                return set(analyzer.analyse(word).lemmas)
    return fn


def _keyset(words: Iterable[str]) -> set[str]:
    return {match_key(w) for w in words if w}


class CodeSwitchingMetric(BaseMetric):
    """Share of output tokens in the source language (lower is better); an entry wholly in
    another language than the target counts 1.0 (see :mod:`~mteval_gui.scoring.metrics.language_id`)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.code_switching", version="6", display_name="Code-switching rate", scale="0-1",
        role="code_switching", label="Code-switching", validation="heuristic",
        higher_is_better=False, produces=("code_switching_rate",), single_process=True,
        description="Share of output words that are source-language words (script or same-script lexical "
                    "signal); 1.0 for an output wholly in another language than the target.",
    )

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.detect_language = bool(params.get("detect_language", True))
        self.languages = tuple(params.get("languages", DEFAULT_CANDIDATES))
        self._judge: LanguageJudge | None = None

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        tc, sc = context.target_card, context.source_card
        self.target_scripts = expand_scripts(tc.scripts) if tc is not None else None
        self.source_scripts = expand_scripts(sc.scripts) if sc is not None else None
        self.loanwords = _keyset(tc.allowed_loanwords) if tc is not None else set()
        self._judge = None
        if target_accepts(context.shared) is None:
            installed_target_accepts(context)  # the analyzer whenever one is installed, not only with core.fst

    def _accepts(self) -> Callable[[str], bool] | None:
        shared = self.context.shared if self.context else {}
        accepts = target_accepts(shared)
        lexicon = shared.get("target_lexicon")
        if accepts is None and lexicon is None:
            return None
        lex = {match_key(w) for w in lexicon} if lexicon else set()

        def ok(tok: str) -> bool:
            if lex and match_key(tok) in lex:
                return True
            if accepts is not None:
                try:
                    return bool(accepts(tok))
                except Exception:  # noqa: BLE001 - an analyzer failure on one word is not a verdict
                    return False
            return False

        return ok

    def judge(self) -> LanguageJudge | None:
        """The job's language judge (built at the first batch: analyzers are shared by then)."""
        if not self.detect_language or self.context is None:
            return None
        if self._judge is None:
            ctx = self.context
            self._judge = LanguageJudge(
                ctx.source_lang, ctx.target_lang, target_card=ctx.target_card, source_card=ctx.source_card,
                accepts=target_accepts(ctx.shared), lexicon=ctx.shared.get("target_lexicon") or (),
                extra_candidates=self.languages, loanwords=self.loanwords, script_of=token_script,
                target_scripts=self.target_scripts or (), source_scripts=self.source_scripts or (),
                target_texts=[e.reference for e in ctx.entries])
        return self._judge

    def _reference_side(self, item: EntryInput) -> tuple[frozenset[str], frozenset[str]]:
        """Scripts and word keys of the entry's references (the language identification of the
        reference side), once per corpus version when the job has a corpus-side store."""
        refs = tuple(item.entry.references())

        def compute() -> tuple[frozenset[str], frozenset[str]]:
            scripts: frozenset[str] = frozenset().union(*(text_scripts(r) for r in refs)) if refs else frozenset()
            words: frozenset[str] = frozenset().union(*(_token_keys(r) for r in refs)) if refs else frozenset()
            return scripts, words

        store = self.context.corpus_side if self.context is not None else None
        if store is None:
            return compute()
        return store.get(("core.code_switching", "references"), item.entry.id, refs, compute)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        shared = self.context.shared if self.context else {}
        source_lexicon = shared.get("source_lexicon") or set()
        accepts = self._accepts()
        judge = self.judge()
        out = []
        ctx = self.context
        for it in items:
            predicted = ctx.without_placeholders(it.predicted) if ctx is not None and ctx.placeholders \
                else it.predicted
            tokens = word_tokens(predicted)
            if not tokens:
                out.append(EntryScore(0.0, detail={"tokens": 0, "switched": []}))
                continue
            ref_scripts, ref_words = self._reference_side(it)
            tgt_scripts = self.target_scripts if self.target_scripts is not None else set(ref_scripts)
            src_scripts = self.source_scripts if self.source_scripts is not None else text_scripts(it.entry.source)
            shared_script = bool(src_scripts & tgt_scripts)
            src_words = _token_keys(it.entry.source)
            if source_lexicon:
                src_words = src_words | {match_key(w) for w in source_lexicon}
            switched: list[str] = []
            kinds = {"script": 0, "lexical": 0}
            keys = match_keys(tokens)
            for tok, key in zip(tokens, keys, strict=True):
                script = token_script(tok)
                if script is not None and tgt_scripts and script in src_scripts and script not in tgt_scripts:
                    switched.append(tok)
                    kinds["script"] += 1
                    continue
                if not shared_script or script is None or script not in tgt_scripts:
                    continue
                if key not in src_words or key in ref_words or key in self.loanwords:
                    continue
                if accepts is not None and accepts(tok):
                    continue
                switched.append(tok)
                kinds["lexical"] += 1
            detail: dict[str, Any] = {"tokens": len(tokens), "switched": switched, **kinds}
            value = len(switched) / len(tokens)
            if judge is not None:
                verdict = judge.judge(predicted, ref_words, tokens, keys, reference=it.entry.reference,
                                      source=it.entry.source,
                                      target_scripts=None if self.target_scripts is not None
                                      else frozenset(ref_scripts) - src_scripts)
                detail.update(verdict.to_json())
                if verdict.wrong_language:
                    detail["token_rate"] = value
                    value = 1.0
            out.append(EntryScore(value, detail=detail))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"code_switching_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["code_switching_rate"]
        lexical = bool(target_accepts(context.shared) or context.shared.get("target_lexicon"))
        wrong = Counter(str(e.detail.get("language")) for e in per_entry if e.detail.get("wrong_language"))
        n_wrong = sum(wrong.values())
        extra: dict[str, Any] = {
            "target_lexicon_used": lexical,
            "switched_tokens": sum(len(e.detail.get("switched", [])) for e in per_entry),
            "tokens": sum(int(e.detail.get("tokens", 0)) for e in per_entry),
            "wrong_language_entries": n_wrong,
            "wrong_language_share": n_wrong / len(per_entry) if per_entry else None,
            "wrong_language_by_language": dict(wrong.most_common()),
        }
        judge = self.judge()
        extra["language_id"] = judge.describe() if judge is not None else None
        caveat = wrong_language_caveat(n_wrong, len(per_entry), dict(wrong), context.target_lang)
        return CorpusScore({"code_switching_rate": st.point()}, extra=extra,
                           caveats=[caveat] if caveat is not None else [])


# ----------------------------------------------------------------------------- hallucination

HALLUCINATION_WEIGHTS = {"L": 0.4, "R": 0.3, "E": 0.2, "C": 0.1}
LENGTH_BOUNDS_REFERENCE = (0.5, 2.0)
LENGTH_BOUNDS_SOURCE = (0.3, 3.0)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_SENTENCE_END = ".!?:…。！？"
_CLOSERS = "\"'”’»)]›"


def _numbers(text: str) -> list[str]:
    return [m.group(0) for m in _NUMBER.finditer(text)]


def mid_sentence_capitalised(text: str) -> list[str]:
    """Word tokens starting with an upper-case letter that do not begin a sentence."""
    out = []
    prev_raw: str | None = None
    for raw in nfc(text).split():
        tok = _tokens(raw)
        starts_sentence = prev_raw is None or prev_raw.rstrip(_CLOSERS)[-1:] in _SENTENCE_END
        prev_raw = raw
        if not tok or starts_sentence:
            continue
        w = tok[0]
        first = w[0] if w[0].isalpha() else next((c for c in w if c.isalpha()), "")
        if first and first.isupper():
            out.append(w)
    return out


def hallucination_components(
    predicted: str, source: str, reference: str | None, *, has_case: bool = True
) -> dict[str, float]:
    pred = nfc(predicted or "")
    src = nfc(source or "")
    ref = nfc(reference) if reference else None
    # L: length anomaly
    if ref:
        ratio = len(pred) / len(ref)
        lo, hi = LENGTH_BOUNDS_REFERENCE
    else:
        ratio = len(pred) / len(src) if src else 0.0
        lo, hi = LENGTH_BOUNDS_SOURCE
    length = 1.0 if (ratio < lo or ratio > hi) else 0.0
    # R: repeated word trigrams
    toks = match_keys(_tokens(pred))
    trigrams = [tuple(toks[i:i + 3]) for i in range(len(toks) - 2)]
    repeat = (1.0 - len(set(trigrams)) / len(trigrams)) if trigrams else 0.0
    # E: numbers and mid-sentence names absent from the source
    src_numbers = set(_numbers(src))
    src_words = _token_keys(src)
    candidates = [("num", n) for n in _numbers(pred)]
    if has_case:
        candidates += [("name", w) for w in mid_sentence_capitalised(pred)]
    absent = [v for kind, v in candidates
              if (kind == "num" and v not in src_numbers) or (kind == "name" and match_key(v) not in src_words)]
    entity = len(absent) / len(candidates) if candidates else 0.0
    # C: echo of the source
    pk, sk = match_key(pred), match_key(src)
    echo = 1.0 if pk and (pk == sk or (len(_tokens(src)) >= 3 and sk in pk)) else 0.0
    return {"L": length, "R": repeat, "E": entity, "C": echo, "absent_entities": absent}  # type: ignore[dict-item]


def hallucination_score(c: Mapping[str, Any]) -> float:
    w = HALLUCINATION_WEIGHTS
    total = float(w["L"] * c["L"] + w["R"] * c["R"] + w["E"] * c["E"] + w["C"] * c["C"])
    return min(1.0, round(total, 12))  # 0.4+0.3+0.2+0.1 is 0.999… in binary floating point


class HallucinationMetric(BaseMetric):
    """``min(1, 0.4·L + 0.3·R + 0.2·E + 0.1·C)`` per entry; corpus = mean (lower is better)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.hallucination",
        version="2",
        display_name="Hallucination rate",
        scale="0-1",
        role="hallucination",
        label="Hallucination",
        validation="heuristic",
        higher_is_better=False,
        produces=("hallucination_rate",),
        description="Length anomaly, repeated trigrams, invented numbers/names and source echo, "
                    "weighted 0.4/0.3/0.2/0.1, over the entries with an output.",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.has_case = context.target_card.has_case if context.target_card is not None else True

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            if not it.predicted.strip():
                out.append(EntryScore(None, detail={"verdict": "NO_OUTPUT",
                                                    "reason": "error" if it.output.error else "empty output"}))
                continue
            c = hallucination_components(it.predicted, it.entry.source, it.entry.reference, has_case=self.has_case)
            absent = c.pop("absent_entities")
            out.append(EntryScore(hallucination_score(c), values=dict(c), detail={"absent_entities": absent}))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"hallucination_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["hallucination_rate"]
        scored = [e for e in per_entry if e.value is not None]
        extra: dict[str, Any] = {"entries_with_output": len(scored), "no_output": len(per_entry) - len(scored)}
        if not scored:
            return CorpusScore({"hallucination_rate": None}, availability="not_applicable",
                               reason="no entry has an output", extra=extra)
        extra["components_mean"] = {k: sum(float(e.values.get(k, 0.0)) for e in scored) / len(scored) for k in "LREC"}
        return CorpusScore({"hallucination_rate": st.point()}, extra=extra)


# ----------------------------------------------------------------------------- terminology


def merge_terms(
    entry_terms: Mapping[str, Sequence[str]], glossary: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """Per-entry terminology ∪ glossary (targets of a term present in both are united)."""
    out: dict[str, list[str]] = {}
    for src in (glossary, entry_terms):
        for term, targets in src.items():
            if not term or not str(term).strip():
                continue
            lst = out.setdefault(term, [])
            for t in targets if not isinstance(targets, str) else [targets]:
                if t and t not in lst:
                    lst.append(t)
    return out


@lru_cache(maxsize=8192)
def _phrase_pattern(phrase_key: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(phrase_key) + r"(?!\w)")


def contains_phrase(text_key: str, phrase: str) -> bool:
    """Whole-word occurrence of ``phrase`` in an already ``match_key``-ed text."""
    pk = match_key(phrase)
    return bool(pk) and _phrase_pattern(pk).search(text_key) is not None


def term_renderings(item: EntryInput, glossary: Mapping[str, Sequence[str]],
                    lemmas_of: Callable[[str], set[str]] | None = None) -> dict[str, str | None]:
    """For each term found in the source: the accepted target found in the output (or None)."""
    terms = merge_terms(item.entry.terminology, glossary)
    if not terms:
        return {}
    src_key = match_key(item.entry.source)
    out_key = match_key(item.predicted)
    out_lemmas: set[str] | None = None
    found: dict[str, str | None] = {}
    for term, targets in terms.items():
        if not contains_phrase(src_key, term):
            continue
        hit: str | None = None
        if out_key:
            for t in targets:
                if contains_phrase(out_key, t):
                    hit = t
                    break
            if hit is None and lemmas_of is not None:
                if out_lemmas is None:
                    out_lemmas = set()
                    for w in word_tokens(item.predicted):
                        try:
                            out_lemmas |= {match_key(x) for x in lemmas_of(w)}
                        except Exception:  # noqa: BLE001 - an analyzer failure on one word is not a verdict
                            continue
                for t in targets:
                    if " " not in t.strip() and match_key(t) in out_lemmas:
                        hit = t
                        break
        found[term] = hit
    return found


class TerminologyMetric(BaseMetric):
    """Share of source terms whose accepted target appears in the output (micro)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.terminology",
        version="1",
        display_name="Terminology adherence",
        scale="0-1",
        role="terminology",
        label="Terminology",
        validation="heuristic",
        produces=("terminology_adherence",),
        description="Hits over terms found in the source (per-entry terminology ∪ glossary); "
                    "empty output misses every term.",
    )

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        glossary = self.context.glossary if self.context else {}
        lemmas_of = target_lemmas(self.context.shared) if self.context else None
        out = []
        for it in items:
            r = term_renderings(it, glossary, lemmas_of)
            if not r:
                out.append(EntryScore(None, values={"terminology_adherence.num": 0, "terminology_adherence.den": 0}))
                continue
            hits = [t for t, v in r.items() if v is not None]
            misses = [t for t, v in r.items() if v is None]
            out.append(EntryScore(len(hits) / len(r),
                                  values={"terminology_adherence.num": len(hits), "terminology_adherence.den": len(r)},
                                  detail={"hits": {t: r[t] for t in hits}, "misses": misses}))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"terminology_adherence": EntryStats.ratio(
            [float(e.values.get("terminology_adherence.num", 0)) for e in per_entry],
            [float(e.values.get("terminology_adherence.den", 0)) for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["terminology_adherence"]
        terms = int(st.matrix[:, 1].sum())
        if terms == 0:
            return CorpusScore({"terminology_adherence": None}, availability="not_applicable",
                               reason="no glossary or entry term occurs in the sources")
        return CorpusScore({"terminology_adherence": st.point()},
                           extra={"terms": terms, "hits": int(st.matrix[:, 0].sum())})


class ConsistencyMetric(BaseMetric):
    """Cross-entry consistency of term renderings (corpus only)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.consistency", version="1", display_name="Consistency", scale="0-1",
        role="consistency", label="Consistency", validation="unvalidated",
        produces=("consistency_score",),
        description="For source terms in ≥ 2 entries, the share of the modal accepted rendering, averaged over terms.",
    )

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        glossary = self.context.glossary if self.context else {}
        lemmas_of = target_lemmas(self.context.shared) if self.context else None
        return [EntryScore(None, detail={"renderings": term_renderings(it, glossary, lemmas_of)}) for it in items]

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        occurrences: dict[str, list[str | None]] = {}
        for e in per_entry:
            for term, rendering in (e.detail.get("renderings") or {}).items():
                occurrences.setdefault(match_key(term), []).append(
                    match_key(rendering) if rendering is not None else None)
        shares: dict[str, float] = {}
        for term, rs in occurrences.items():
            if len(rs) < 2:
                continue
            used = [r for r in rs if r is not None]
            if len(used) < 2:
                continue
            shares[term] = Counter(used).most_common(1)[0][1] / len(used)
        if not shares:
            return CorpusScore({"consistency_score": None}, availability="not_applicable",
                               reason="no term is rendered with an accepted target in two or more entries")
        return CorpusScore({"consistency_score": sum(shares.values()) / len(shares)}, extra={"terms": shares})
