"""Plains Cree semantic validator (LYSS-sem): does the output keep the meaning of the source?

Deterministic and offline: FST lemmas + a local Cree→English dictionary + English
content-word overlap. It needs the strict analyzer and at least one gloss file; without
either the metric is ``unavailable`` with the reason (never a guessed verdict).

Per entry
---------
1. ``NO_OUTPUT``: empty output or a failed system call.
2. The Cree linter (:mod:`eval_standards.crk.linter`) against the reference and its variants:
   ``EXACT`` → ``EXACT_MATCH``; ``EQUIVALENT`` → ``VALID`` (an acceptable variant keeps the
   meaning by construction).
3. Otherwise every word (canonical spelling, preverb chains joined) is analysed. Its lemmas
   are the analyzer's lemmas with preverbs and reduplication stripped (``RdplW+pakamahwêw``
   and ``pa-pakamahwêw`` both give ``pakamahwêw``); a word the strict analyzer rejects is
   looked up in the descriptive analyzer if one is installed (then it counts as a
   non-standard spelling). Its meaning is the set of English content stems
   (:mod:`eval_standards.crk.english`) of the glosses of its lemmas (entries agreeing with
   the analysis' word class first) plus the glosses of its lexical preverbs (``pê-`` 'come').
4. Meaning units: the reference's words (optional particles excluded); without a reference,
   the English source's content words. Each unit is *rendered*, *missing* or *undetermined*:

   - reference mode: an output word renders a unit when they share a lemma (or the lemmas
     are listed synonyms, or the words are identical); else when the output word's gloss and
     the unit's gloss share a content word of the source; else, for a unit the dictionary
     does not gloss, when the output word glosses a source word no rendered unit accounts for;
   - source mode: an output word renders a source content word its gloss contains;
   - a unit left over faces the output words whose meaning is unknown (no gloss, not a copy
     of the source): each such word makes one leftover unit *undetermined* (both are left out
     of the count); the remaining leftover units are *missing*.

   Output words that render nothing are *extraneous* when their gloss shares nothing with the
   source, or when they copy a source word (English left in the output).
5. ``c = rendered / (rendered + missing + extraneous)``. A source *function* word copied into
   the output (``he``, ``as``) is not a unit but a form issue; an unknown word left alone
   may or may not belong there. Undetermined pairs and unknown words therefore give a
   range for ``c`` (all of them wrong … all of them right); a verdict is given only when
   the whole range falls into one band, otherwise the entry has no verdict (``value``
   None, outside ``semantic_coverage``, with the two possible verdicts in the explanation):

   - ``c = 1``: ``GRAMMAR_ISSUES`` if a word paired by lemma has no analysis in common with
     its reference word (other person, number, tense, a diminutive...), a word is only
     accepted by the descriptive analyzer (non-standard spelling), or a word is unknown to
     the analyzers; else ``VALID``;
   - ``0.5 ≤ c < 1``: ``PARTIAL``; ``0 < c < 0.5``: ``INCOMPLETE``; ``c = 0``: ``WRONG``.

Weights (SPEC §3): EXACT_MATCH 1.0, VALID 1.0, GRAMMAR_ISSUES 0.7, PARTIAL 0.4,
INCOMPLETE 0.3, WRONG 0, NO_OUTPUT 0. ``semantic_score`` = mean weight over entries with a
verdict; ``semantic_coverage`` = entries with a verdict / all entries. The detail of each
entry pairs every output word with its lemmas, its gloss, the reference word it stands for
and the source words it matched, for the reviewer (also for EXACT_MATCH and VALID).
``extra["gloss_coverage"]`` is the share of output words the dictionary glosses.

The validator only reads English sources; for another source language it is
``not_applicable``. Coverage depends on the dictionary the user installs (any morphodict
``importjson`` export or a ``lemma<TAB>gloss`` file): a small dictionary leaves many entries
without a verdict, and the run card says how many.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from eval_standards.crk.english import content_words
from eval_standards.crk.glosses import GlossDictionary, cached_glosses, expand_paths
from eval_standards.crk.linter import (
    EQUIVALENT,
    EXACT,
    AnalyseFn,
    CrkLinter,
    gold_analyses,
    matched_message,
    metric_options,
)
from eval_standards.crk.orthography import Word
from eval_standards.crk.wordlists import WordLists, load_wordlists
from mteval_gui.domain.messages import Message, msg
from mteval_gui.errors import InputError, MtevalError
from mteval_gui.fst.analysis import Analysis
from mteval_gui.fst.registry import optional_shared_analyzer, shared_analyzer
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
)
from mteval_gui.scoring.stats import EntryStats

EXACT_MATCH, VALID, GRAMMAR_ISSUES = "EXACT_MATCH", "VALID", "GRAMMAR_ISSUES"
PARTIAL, INCOMPLETE, WRONG, NO_OUTPUT = "PARTIAL", "INCOMPLETE", "WRONG", "NO_OUTPUT"
WEIGHTS: dict[str, float] = {
    EXACT_MATCH: 1.0, VALID: 1.0, GRAMMAR_ISSUES: 0.7, PARTIAL: 0.4, INCOMPLETE: 0.3, WRONG: 0.0, NO_OUTPUT: 0.0,
}
VERDICTS = tuple(WEIGHTS)
ENGLISH = ("eng", "en")
_REDUP = re.compile(r"^[^-]+-(.+)$")
_LETTERS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


@dataclass(frozen=True)
class WordMeaning:
    """What the validator knows about one word."""

    word: Word
    analyses: tuple[Analysis, ...] = ()
    nonstandard: bool = False  # accepted only by the descriptive analyzer
    lemmas: tuple[str, ...] = ()
    glosses: tuple[str, ...] = ()  # definitions used (lemma and lexical preverbs)
    stems: frozenset[str] = frozenset()

    @property
    def text(self) -> str:
        return " ".join(self.word.tokens)

    @property
    def known(self) -> bool:
        return bool(self.analyses)


@dataclass
class SemanticResult:
    verdict: str | None
    message: Message
    coverage: float | None = None
    pairs: list[dict[str, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extraneous: list[str] = field(default_factory=list)
    undetermined: list[str] = field(default_factory=list)
    grammar: list[Message] = field(default_factory=list)
    matched: str | None = None
    mode: str | None = None  # "reference" | "source" | "linter"
    glossed: list[int] | None = None  # [output words with a gloss, output words]

    @property
    def explanation(self) -> str:
        return self.message.text()

    @property
    def weight(self) -> float | None:
        return None if self.verdict is None else WEIGHTS[self.verdict]

    def to_detail(self) -> dict[str, Any]:
        d: dict[str, Any] = {"verdict": self.verdict, "weight": self.weight, "explanation": self.explanation,
                             "explanation_msg": self.message.to_json()}
        for k in ("coverage", "matched", "mode", "glossed"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        if self.matched is not None:
            d["matched_msg"] = matched_message(self.matched).to_json()
        for k in ("pairs", "missing", "extraneous", "undetermined"):
            v = getattr(self, k)
            if v:
                d[k] = v
        if self.grammar:
            d["grammar"] = [m.text() for m in self.grammar]
            d["grammar_msg"] = [m.to_json() for m in self.grammar]
        return d


def _verdict_for(c: float, grammar: bool) -> str:
    if c >= 1.0:
        return GRAMMAR_ISSUES if grammar else VALID
    if c >= 0.5:
        return PARTIAL
    if c > 0.0:
        return INCOMPLETE
    return WRONG


class CrkSemanticValidator:
    """The decision procedure of the module docstring, independent of a scoring job."""

    def __init__(self, lists: WordLists, glosses: GlossDictionary, strict: AnalyseFn,
                 descriptive: AnalyseFn | None = None):
        self.lists = lists
        self.glosses = glosses
        self.strict = strict
        self.descriptive = descriptive
        self.linter = CrkLinter(lists, strict)
        self.ortho = self.linter.ortho
        self._memo: dict[str, tuple[Any, ...]] = {}

    # -- word meaning ----------------------------------------------------------------------
    def _lookup(self, form: str) -> tuple[tuple[Analysis, ...], bool, tuple[str, ...], tuple[str, ...], frozenset[str]]:
        got = self._memo.get(form)
        if got is not None:
            return got
        analyses = tuple(self.strict(form)) if form else ()
        nonstandard = False
        if not analyses and self.descriptive is not None and form:
            analyses = tuple(self.descriptive(form))
            nonstandard = bool(analyses)
        lemmas = _lemmas(analyses) if analyses else (form,)
        defs: list[str] = []
        if analyses:
            for a in analyses:
                if a.lemma in lemmas:
                    defs.extend(d for d in self.glosses.definitions(a.lemma, a.tags) if d not in defs)
        else:
            defs.extend(self.glosses.definitions(form))
        for tag in sorted({pv for a in analyses for pv in a.preverbs}):
            lexical = [pv for pv in self.lists.preverbs_with_tag(tag) if pv.kind == "lexical"]
            if lexical:
                pv = lexical[0]
                pdefs = self.glosses.preverb_definitions(pv.surface) or ([pv.gloss] if pv.gloss else [])
                defs.extend(d for d in pdefs if d not in defs)
        stems: set[str] = set()
        for d in defs:
            stems.update(content_words(d, self.lists))
        got = (analyses, nonstandard, lemmas, tuple(defs), frozenset(stems))
        self._memo[form] = got
        return got

    def meaning(self, w: Word) -> WordMeaning:
        analyses, nonstandard, lemmas, defs, stems = self._lookup(w.form)
        return WordMeaning(w, analyses, nonstandard, lemmas, defs, stems)

    def _content(self, text: str | None) -> list[WordMeaning]:
        return [self.meaning(w) for w in self.ortho.words(text) if w.form not in self.lists.optional_particles]

    # -- verdicts --------------------------------------------------------------------------
    def validate(self, source: str, references: Sequence[str], prediction: str | None, *,
                 gold: Iterable[str] = ()) -> SemanticResult:
        if not (prediction or "").strip() or not self.ortho.written_tokens(prediction):
            return SemanticResult(NO_OUTPUT, msg("no output"))
        refs = [r for r in references if r and r.strip()]
        src = content_words(source, self.lists)
        out = self._content(prediction)
        glossed = [sum(1 for o in out if o.stems), len(out)]
        if refs:
            lint = self.linter.lint_entry(refs, prediction, source=source, gold=gold)
            if lint.verdict in (EXACT, EQUIVALENT):
                k = 0 if lint.matched in (None, "reference") else int(lint.matched.split()[-1])
                pairing = self._against_reference(src, self._content(refs[k]), out, source)
                if lint.verdict == EXACT:
                    res = SemanticResult(EXACT_MATCH, msg("the output is the reference"), 1.0, mode="linter")
                else:
                    res = SemanticResult(VALID, msg("an acceptable variant of the reference: {classes}",
                                                    classes=", ".join(lint.classes)), 1.0, mode="linter")
                res.pairs, res.matched, res.glossed = pairing.pairs, lint.matched, glossed
                return res
        if not refs:
            res = self._against_source(src, out, source)
            res.glossed = glossed
            return res
        best: SemanticResult | None = None
        for i, ref in enumerate(refs):
            res = self._against_reference(src, self._content(ref), out, source)
            res.matched = "reference" if i == 0 else f"variant {i}"
            if best is None or _better(res, best):
                best = res
        if best is None:  # unreachable: refs is not empty
            raise ValueError("no reference to compare with")
        best.glossed = glossed
        return best

    def _copies(self, source: str) -> set[str]:
        """Words of the (English) source, for spotting source words left in the output."""
        return set(_LETTERS.findall(source.casefold()))

    def _pair_json(self, o: WordMeaning, src: dict[str, str], ref: WordMeaning | None, how: str | None,
                   note: Message | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {
            "output": o.text,
            "lemmas": list(o.lemmas) if o.known else [],
            "gloss": "; ".join(o.glosses[:3]),
            "source_words": [src[s] for s in src if s in o.stems],
            "reference": ref.text if ref is not None else None,
            "match": how,
        }
        if note:
            d["note"] = note.text()
            d["note_msg"] = note.to_json()
        return d

    def _grammar_note(self, o: WordMeaning, r: WordMeaning | None) -> Message | None:
        if r is not None and o.word.form == r.word.form:
            return None
        if not o.known:
            return msg("{word}: not recognised by the analyzer", word=o.text)
        if o.nonstandard:
            return msg("{word}: non-standard spelling (descriptive analyzer only)", word=o.text)
        if r is not None and r.known and not {a.raw for a in o.analyses} & {a.raw for a in r.analyses}:
            return msg("{word}: other inflection than {reference} ({analysis} vs {reference_analysis})",
                       word=o.text, reference=r.text, analysis=o.analyses[0].raw,
                       reference_analysis=r.analyses[0].raw)
        return None

    def _finish(self, rendered: int, missing: list[str], extraneous: list[str], undetermined: list[str],
                lone_unknown: int, grammar: list[Message], pairs: list[dict[str, Any]], mode: str) -> SemanticResult:
        """Verdict from the counts; undetermined pairs and unknown words give a range of shares,
        and the verdict is given only when the whole range falls in one verdict band."""
        u = len(undetermined) - lone_unknown  # unit/word pairs whose relation is unknown
        low_den = rendered + len(missing) + len(extraneous) + 2 * u + lone_unknown
        high_den = rendered + u + len(missing) + len(extraneous)
        parts = []
        if missing:
            parts.append(msg("missing: {words}", words=", ".join(missing)))
        if extraneous:
            parts.append(msg("extraneous: {words}", words=", ".join(extraneous)))
        if undetermined:
            parts.append(msg("undetermined (no gloss): {words}", words=", ".join(undetermined)))
        if high_den == 0:
            return SemanticResult(None, msg("{parts}", parts=[msg("meaning not determinable with the installed "
                                                                  "dictionary")] + parts),
                                  None, pairs, missing, extraneous, undetermined, grammar, mode=mode)
        low = rendered / low_den
        high = (rendered + u) / high_den
        v_low, v_high = _verdict_for(low, bool(grammar)), _verdict_for(high, bool(grammar))
        if v_low != v_high:
            return SemanticResult(None, msg("{parts}", parts=[msg("between {low} and {high}: depends on words the "
                                                                  "dictionary does not gloss", low=v_low,
                                                                  high=v_high)] + parts),
                                  None, pairs, missing, extraneous, undetermined, grammar, mode=mode)
        head = msg("{rendered} of {total} meaning units rendered", rendered=rendered,
                   total=rendered + len(missing) + len(extraneous))
        if grammar and low >= 1.0:
            parts.append(msg("form issues: {notes}", notes=grammar))
        return SemanticResult(v_low, msg("{parts}", parts=[head] + parts), round(low, 4), pairs, missing, extraneous,
                              undetermined, grammar, mode=mode)

    def _leftover_outputs(self, outs: list[WordMeaning], used: set[int], src: dict[str, str], source: str,
                          covered: set[str], grammar: list[Message],
                          ) -> tuple[list[int], list[str], list[dict[str, Any]]]:
        """Unpaired output words: (indexes of unknown-meaning words, extraneous texts, pair rows).

        A source content word left in the output is extraneous; a source function word
        (``he``, ``as``) carries no meaning unit and is noted as a form issue."""
        copies = self._copies(source)
        unknown, extraneous, rows = [], [], []
        for k, o in enumerate(outs):
            if k in used:
                continue
            if not o.known and o.word.written in copies:
                if o.word.written in self.lists.stopwords:
                    grammar.append(msg("{word}: English function word copied from the source", word=o.text))
                    rows.append(self._pair_json(o, src, None, None, msg("English function word from the source")))
                else:
                    extraneous.append(o.text)
                    rows.append(self._pair_json(o, src, None, None, msg("copied from the source")))
            elif not o.stems:
                unknown.append(k)
                rows.append(self._pair_json(o, src, None, None, msg("no gloss")))
            elif o.stems & set(src):
                rows.append(self._pair_json(o, src, None, "source", msg("glosses a source word")))
                covered |= o.stems & set(src)
            else:
                extraneous.append(o.text)
                rows.append(self._pair_json(o, src, None, None, msg("gloss shares nothing with the source")))
        return unknown, extraneous, rows

    def _against_reference(self, src: dict[str, str], units: list[WordMeaning], outs: list[WordMeaning],
                           source: str) -> SemanticResult:
        S = set(src)
        used_o: set[int] = set()
        pairs: list[dict[str, Any]] = []
        grammar: list[Message] = []
        rendered = 0
        left_units: list[WordMeaning] = []
        covered: set[str] = set()
        # lemma identity (or listed synonyms, or the same word)
        for u in units:
            hit = None
            for k, o in enumerate(outs):
                if k in used_o:
                    continue
                if (o.word.form == u.word.form or set(o.lemmas) & set(u.lemmas)
                        or any(self.lists.synonyms(a, b) for a in o.lemmas for b in u.lemmas)):
                    hit = k
                    break
            if hit is None:
                left_units.append(u)
                continue
            o = outs[hit]
            used_o.add(hit)
            rendered += 1
            covered |= (o.stems | u.stems) & S
            note = self._grammar_note(o, u)
            if note:
                grammar.append(note)
            pairs.append(self._pair_json(o, src, u, "lemma", note))
        # gloss overlap through the source
        still: list[WordMeaning] = []
        for u in left_units:
            hit = None
            for k, o in enumerate(outs):
                if k in used_o or not o.stems:
                    continue
                shared = o.stems & S & u.stems if u.stems else (o.stems & S) - covered
                if shared:
                    hit = k
                    break
            if hit is None:
                still.append(u)
                continue
            o = outs[hit]
            used_o.add(hit)
            rendered += 1
            covered |= o.stems & S
            note = self._grammar_note(o, None)
            if note:
                grammar.append(note)
            pairs.append(self._pair_json(o, src, u, "gloss", note))
        unknown, extraneous, rows = self._leftover_outputs(outs, used_o, src, source, covered, grammar)
        pairs.extend(rows)
        undetermined: list[str] = []
        missing: list[str] = []
        for u in still:
            if unknown:
                k = unknown.pop(0)
                undetermined.append(f"{u.text} / {outs[k].text}")
            else:
                missing.append(u.text)
        undetermined.extend(outs[k].text for k in unknown)
        for k in unknown:
            note = self._grammar_note(outs[k], None)
            if note and not outs[k].known:
                grammar.append(note)
        return self._finish(rendered, missing, extraneous, undetermined, len(unknown), grammar, pairs, "reference")

    def _against_source(self, src: dict[str, str], outs: list[WordMeaning], source: str) -> SemanticResult:
        S = set(src)
        covered: set[str] = set()
        used_o: set[int] = set()
        pairs: list[dict[str, Any]] = []
        grammar: list[Message] = []
        for k, o in enumerate(outs):
            hit = o.stems & S
            if hit:
                used_o.add(k)
                covered |= hit
                note = self._grammar_note(o, None)
                if note:
                    grammar.append(note)
                pairs.append(self._pair_json(o, src, None, "source", note))
        unknown, extraneous, rows = self._leftover_outputs(outs, used_o, src, source, covered, grammar)
        pairs.extend(rows)
        left = [src[s] for s in src if s not in covered]
        undetermined: list[str] = []
        missing: list[str] = []
        for w in left:
            if unknown:
                k = unknown.pop(0)
                undetermined.append(f"{w} / {outs[k].text}")
            else:
                missing.append(w)
        undetermined.extend(outs[k].text for k in unknown)
        for k in unknown:
            note = self._grammar_note(outs[k], None)
            if note and not outs[k].known:
                grammar.append(note)
        return self._finish(len(covered), missing, extraneous, undetermined, len(unknown), grammar, pairs, "source")


def _lemmas(analyses: Sequence[Analysis]) -> tuple[str, ...]:
    """Lemmas of a word's analyses, reduplicated lemma spellings dropped when the plain lemma is there."""
    lemmas: list[str] = []
    for a in analyses:
        if a.lemma and a.lemma not in lemmas:
            lemmas.append(a.lemma)
    plain = set(lemmas)
    out = []
    for lem in lemmas:
        m = _REDUP.match(lem)
        if m and m.group(1) in plain and any(a.reduplication for a in analyses):
            continue
        out.append(lem)
    return tuple(out)


def _better(a: SemanticResult, b: SemanticResult) -> bool:
    wa = -1.0 if a.weight is None else a.weight
    wb = -1.0 if b.weight is None else b.weight
    if wa != wb:
        return wa > wb
    return (a.coverage or 0.0) > (b.coverage or 0.0)


# -- the metric --------------------------------------------------------------------------------

def gloss_setting(context: ScoringContext, opts: dict[str, Any], lang: str = "crk") -> Any:
    """The gloss files chosen for a job: metric param ``gloss_files`` (or ``gloss_file``),
    else ``context.options["gloss_files"][lang]``."""
    for key in ("gloss_files", "gloss_file"):
        if opts.get(key):
            return opts[key]
    g = (context.options or {}).get("gloss_files")
    if isinstance(g, dict):
        return g.get(lang)
    return None


class CrkSemanticMetric(BaseMetric):
    """LYSS-sem for Plains Cree (see the module docstring for the decision rules)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="crk.semantic", version="1", display_name="Cree semantic validator", scale="0-1",
        role="semantic_verdict", label="Cree semantic", labels={"fr": "Sémantique crie"}, validation="heuristic",
        needs_reference=False, needs_fst=True, produces=("semantic_score", "semantic_coverage"),
        data_files=("data", "{wordlists_dir}"),  # its word lists
        description="Meaning preservation from analyzer lemmas and a local Cree-English dictionary: "
                    "EXACT_MATCH / VALID / GRAMMAR_ISSUES / PARTIAL / INCOMPLETE / WRONG / NO_OUTPUT.",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        if (context.source_lang or "").casefold() not in ENGLISH:
            raise MetricUnavailable(
                f"the Cree semantic validator compares English glosses with the source; the source language is "
                f"{context.source_lang!r}", availability="not_applicable")
        opts = metric_options(self, context)
        try:
            lists = load_wordlists(opts.get("wordlists_dir"))
        except InputError as exc:
            raise MetricUnavailable(f"word lists of the Cree standard are defective: {exc}") from exc
        setting = gloss_setting(context, opts)
        paths = expand_paths(setting)
        if not paths:
            raise MetricUnavailable(
                "no Cree→English gloss file: choose one in Settings → Dictionaries (options gloss_files.crk) or "
                "give the metric parameter gloss_files (morphodict .importjson or lemma<TAB>gloss .tsv)")
        try:
            glosses = cached_glosses(paths, lists.fold_chars, lists.fingerprint())
        except InputError as exc:
            raise MetricUnavailable(f"gloss file unusable: {exc}") from exc
        try:
            strict = shared_analyzer(context, "strict")
        except MtevalError as exc:
            raise MetricUnavailable(str(exc)) from exc
        descriptive = optional_shared_analyzer(context, "descriptive")

        def s_fn(form: str) -> tuple[Analysis, ...]:
            return strict.analyse(form).analyses

        d_fn = None
        if descriptive is not None:
            def d_fn(form: str) -> tuple[Analysis, ...]:
                return descriptive.analyse(form).analyses

        self.validator = CrkSemanticValidator(lists, glosses, s_fn, d_fn)
        self.extra_info = {
            "glosses": glosses.info(),
            "fst": strict.info(),
            "descriptive_fst": descriptive.info() if descriptive is not None else None,
            "wordlists_sha256": lists.fingerprint(),
        }

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            res = self.validator.validate(it.entry.source, it.entry.references(), it.predicted,
                                          gold=gold_analyses(it))
            out.append(EntryScore(res.weight, detail=res.to_detail()))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """The semantic score: the mean of the entries' scores."""
        return {"semantic_score": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        n = len(per_entry)
        scored = [e.value for e in per_entry if e.value is not None]
        verdicts = dict.fromkeys(VERDICTS, 0)
        for e in per_entry:
            v = e.detail.get("verdict")
            if v in verdicts:
                verdicts[v] += 1
        extra = dict(getattr(self, "extra_info", {}))
        extra["verdicts"] = verdicts
        extra["unscored"] = n - len(scored)
        g_num = sum(e.detail.get("glossed", [0, 0])[0] for e in per_entry)
        g_den = sum(e.detail.get("glossed", [0, 0])[1] for e in per_entry)
        extra["gloss_coverage"] = g_num / g_den if g_den else None  # output words the dictionary glosses
        coverage = len(scored) / n if n else None
        if not scored:
            return CorpusScore({"semantic_score": None, "semantic_coverage": coverage}, availability="below_coverage",
                               reason="no entry could be judged with the installed dictionary", extra=extra)
        return CorpusScore({"semantic_score": sum(scored) / len(scored), "semantic_coverage": coverage}, extra=extra)
