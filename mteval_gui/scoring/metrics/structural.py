"""Structural metrics (SPEC §3, LYSS §2.2): FST acceptance, morphological and orthographic accuracy.

All three use the target language's analyzers through :func:`mteval_gui.fst.shared_analyzer`,
so one job loads each analyzer file once and every metric (and the language's own plugins)
shares it via ``context.shared["fst.strict"]`` / ``["fst.descriptive"]``.

Every lookup of an output word goes through :meth:`~mteval_gui.fst.Analyzer.analyse_folded`:
a word rejected as written is looked up again after the card's orthographic folds (Cree ``ā``
→ ``â``). Such a word counts as accepted for FST acceptance and morphological accuracy, is
marked ``folded`` in the stored analyses (the review pane's FST panel shows it) and counts
against orthographic accuracy (violation ``fst_after_fold``); the run gets the caveat
``fst_accepts_after_fold`` with the share of such words.

A word written in another script of the language (a card ``transliterations`` table: Cree
syllabics) is looked up as its transliteration into the first script; its stored analysis
keeps the word as written, with ``script`` set (see :mod:`mteval_gui.domain.transliteration`).

- ``core.fst`` — per entry: accepted tokens / tokens (0 for an empty output); corpus:
  ``fst_acceptance_rate`` = macro mean of entry rates (LYSS), ``fst_acceptance_rate_micro`` =
  accepted / tokens over the corpus, ``fst_accepted`` = accepted tokens. Every word's
  analyses are kept in the entry detail (``detail["analyses"]``) so a reviewer never waits for
  a re-analysis. The analyzer file name and sha256 go to the run card.
- ``core.morph`` — for output words that the analyzer accepts and whose lemma occurs among
  the reference's analyses (gold ``expected_morphology`` analyses take precedence for the
  words they annotate), correct if some analysis has the same lemma and the same tag set
  (preverbs, prefix tags and tags). ``morphological_accuracy`` = correct / covered (micro),
  ``morph_coverage`` = covered / analysable. Below 25 % coverage the metric is reported with
  availability ``below_coverage`` (values kept, excluded from the composite).
- ``core.ortho`` — share of output words (micro) without any violation of the card's
  orthography profile (see :mod:`mteval_gui.scoring.metrics.orthography`); for languages with
  a strict and a descriptive analyzer, a word only the descriptive analyzer accepts is a
  non-standard spelling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from mteval_gui.domain.runcard import Caveat, FstInfo
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.fst import (
    Analyzer,
    AnalyzerNotFound,
    WordAnalysis,
    find_analyzer,
    optional_shared_analyzer,
    parse_analysis,
    shared_analyzer,
)
from mteval_gui.fst.analyzer import file_info
from mteval_gui.scoring.metrics.orthography import OrthographyChecker, Violation
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
from mteval_gui.text import fst_form, nfc, word_tokens

MORPH_MIN_COVERAGE = 0.25
TARGET_ACCEPTS_KEY = "target_accepts"


def card_folds(context: ScoringContext) -> dict[str, str]:
    """The target card's orthographic folds (empty without a card)."""
    card = context.target_card
    return dict(card.orthography.folds) if card is not None else {}


def card_scripts(context: ScoringContext) -> Scripts:
    """The target card's transliterations (none without a card)."""
    return Scripts.of(context.target_card)


def _fold_accepts(analyzer: Analyzer, folds: Mapping[str, str], scripts: Scripts | None = None
                  ) -> Callable[[str], bool]:
    def accepts(token: str) -> bool:
        return bool(analyzer.analyse_in_script(token, folds, scripts).accepted)
    return accepts


def _strict(context: ScoringContext) -> Analyzer:
    try:
        analyzer = shared_analyzer(context, "strict")
    except AnalyzerNotFound as exc:
        raise MetricUnavailable(str(exc)) from exc
    context.shared.setdefault(TARGET_ACCEPTS_KEY, _fold_accepts(analyzer, card_folds(context), card_scripts(context)))
    return analyzer


def installed_target_accepts(context: ScoringContext) -> Callable[[str], bool] | None:
    """The strict analyzer's word acceptor (with the card's folds) when one is installed for the
    target language, shared as ``context.shared["target_accepts"]`` as :class:`FstAcceptanceMetric`
    shares it; None when none is (or it cannot be used)."""
    analyzer = optional_shared_analyzer(context, "strict")
    if analyzer is None:
        return None
    accepts: Callable[[str], bool] = context.shared.setdefault(
        TARGET_ACCEPTS_KEY, _fold_accepts(analyzer, card_folds(context), card_scripts(context)))
    return accepts


def fold_caveat(folded: int, words: int, folds: Mapping[str, str]) -> Caveat | None:
    """Run-card caveat ``fst_accepts_after_fold`` when any word needed the folds."""
    if folded <= 0 or words <= 0:
        return None
    shown = ", ".join(f"{a}→{b}" for a, b in list(folds.items())[:4]) or "typographic hyphens → -"
    return Caveat(code="fst_accepts_after_fold",
                  message=f"{folded} of {words} output words ({folded / words:.1%}) are accepted by the analyzer "
                          f"only after an orthographic fold ({shown}); they count as accepted for FST acceptance "
                          f"and morphology and against orthographic accuracy",
                  detail={"words": folded, "total": words, "share": folded / words})


def fst_run_card_info(context: ScoringContext, strict: Analyzer | None = None) -> dict[str, Any]:
    """``{file, sha256, descriptive_file, descriptive_sha256, backend, backend_version}`` (run card ``fst``)."""
    card = context.target_card
    lang = context.target_lang
    opts = context.options or {}
    if strict is None:
        try:
            strict = shared_analyzer(context, "strict")
        except AnalyzerNotFound:
            strict = None
    info: dict[str, Any] = {"file": None, "sha256": None, "descriptive_file": None, "descriptive_sha256": None,
                            "backend": None, "backend_version": None}
    if strict is not None:
        info["file"], info["sha256"] = strict.name, strict.sha256
        info.update(strict.backend_info())
    desc = context.shared.get("fst.descriptive")
    if isinstance(desc, Analyzer):
        info["descriptive_file"], info["descriptive_sha256"] = desc.name, desc.sha256
    else:
        try:
            p = find_analyzer(card, "descriptive", lang=lang, path=opts.get("descriptive_analyzer_path"))
        except AnalyzerNotFound:
            p = None
        if p is not None:
            d = file_info(p)
            info["descriptive_file"], info["descriptive_sha256"] = d["file"], d["sha256"]
    return info


def flush_persistent_caches(*analyzers: Analyzer | None) -> None:
    """Write buffered persistent-cache entries (a workspace ``fst_cache``) at the end of a job."""
    for an in analyzers:
        flush = getattr(an.persistent_cache, "flush", None) if an is not None else None
        if callable(flush):
            flush()


def _ratio(num: float, den: float) -> float | None:
    return (num / den) if den else None


class FstAcceptanceMetric(BaseMetric):
    """Share of output words the language's strict analyzer accepts."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.fst",
        role="fst_analysis",
        label="FST acceptance",
        validation="heuristic",
        version="2",
        display_name="FST acceptance",
        scale="0-1",
        needs_fst=True,
        produces=("fst_acceptance_rate", "fst_acceptance_rate_micro", "fst_accepted"),
        description="Share of output words with at least one analysis from the strict HFST analyzer "
                    "(case fallback: as written, first letter lowered, all lowered).",
    )

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.analyzer: Analyzer | None = None

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.analyzer = _strict(context)
        self.folds = card_folds(context)
        self.scripts = card_scripts(context)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        an = self.analyzer
        if an is None:
            raise MetricUnavailable("core.fst was not prepared")
        out = []
        for it in items:
            words = an.analyse_text_folded(it.predicted, self.folds, self.scripts)
            n = len(words)
            acc = sum(1 for w in words if w.analyses)
            folded = sum(1 for w in words if w.analyses and w.folded is not None)
            out.append(EntryScore(
                value=(acc / n) if n else 0.0,
                values={
                    "accepted": acc,
                    "rejected": n - acc,
                    "tokens": n,
                    "accepted_after_fold": folded,
                },
                detail={"analyses": [w.to_json() for w in words]},
            ))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """Micro acceptance: accepted output words / output words; the rate: the mean of the entries' shares."""
        return {"fst_acceptance_rate_micro": _sums(per_entry, "accepted", "tokens"),
                "fst_acceptance_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        rates = [e.value for e in per_entry if e.value is not None]
        accepted = sum(int(e.values.get("accepted", 0)) for e in per_entry)
        tokens = sum(int(e.values.get("tokens", 0)) for e in per_entry)
        folded = sum(int(e.values.get("accepted_after_fold", 0)) for e in per_entry)
        flush_persistent_caches(self.analyzer)
        extra: dict[str, Any] = {"tokens": tokens, "accepted_after_fold": folded,
                                 "accepted_after_fold_share": _ratio(folded, tokens)}
        analyzer = FstInfo(**fst_run_card_info(context, self.analyzer))
        caveat = fold_caveat(folded, tokens, card_folds(context))
        caveats = [caveat] if caveat is not None else []
        if not rates:
            return CorpusScore({"fst_acceptance_rate": None, "fst_acceptance_rate_micro": None, "fst_accepted": None},
                               availability="not_applicable", reason="no entries", extra=extra, analyzer=analyzer,
                               caveats=caveats)
        return CorpusScore(
            {
                "fst_acceptance_rate": sum(rates) / len(rates),
                "fst_acceptance_rate_micro": _ratio(accepted, tokens),
                "fst_accepted": accepted,
            },
            extra=extra, analyzer=analyzer, caveats=caveats,
        )


def _sums(per_entry: Sequence[EntryScore], num: str, den: str) -> EntryStats:
    """The ratio of the sums of two per-entry counts."""
    return EntryStats.ratio([float(e.values.get(num, 0) or 0) for e in per_entry],
                            [float(e.values.get(den, 0) or 0) for e in per_entry])


def _gold_key(word: str) -> str:
    return fst_form(nfc(word))


def reference_analyses(
    entry: Any, analyzer: Analyzer, scripts: Scripts | None = None
) -> tuple[set[str], set[tuple[str, frozenset[str]]], dict[str, list[str]]]:
    """Lemmas, (lemma, tag set) pairs and per-word analysis strings of an entry's reference.

    ``expected_morphology`` (gold) replaces the analyzer's analyses of the words it annotates
    and adds the words it annotates that are not in the reference.
    """
    gold = {_gold_key(w): parse_analysis(a) for w, a in (entry.expected_morphology or {}).items() if a}
    per_word: dict[str, list[str]] = {}
    for tok in word_tokens(entry.reference):
        key = _gold_key(tok)
        if key in gold:
            per_word[tok] = [gold[key].raw]
        else:
            per_word[tok] = [a.raw for a in analyzer.analyse_in_script(tok, None, scripts).analyses]
    for key, a in gold.items():
        if not any(a.raw in v for v in per_word.values()):
            per_word[key] = [a.raw]
    lemmas: set[str] = set()
    pairs: set[tuple[str, frozenset[str]]] = set()
    for analyses in per_word.values():
        for raw in analyses:
            a = parse_analysis(raw)
            lemmas.add(a.lemma)
            pairs.add((a.lemma, a.tag_set))
    return lemmas, pairs, per_word


class MorphologicalAccuracyMetric(BaseMetric):
    """Right lemma, right inflection: output analyses against the reference's analyses."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.morph",
        role="morphology",
        label="Morphology",
        validation="unvalidated",
        version="2",
        display_name="Morphological accuracy",
        scale="0-1",
        needs_reference=True,
        needs_fst=True,
        produces=("morphological_accuracy", "morph_coverage"),
        description="Among output words whose lemma occurs in the reference's analyses (or the gold "
                    "expected_morphology), the share with an analysis of the same lemma and tag set.",
    )

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.analyzer: Analyzer | None = None
        self.min_coverage = float(params.get("min_coverage", MORPH_MIN_COVERAGE))

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.analyzer = _strict(context)
        self.folds = card_folds(context)
        self.scripts = card_scripts(context)

    def _reference_analyses(self, entry: Any, analyzer: Analyzer) -> tuple[
            set[str], set[tuple[str, frozenset[str]]], dict[str, list[str]]]:
        """:func:`reference_analyses`, once per corpus version and analyzer file when the job
        has a corpus-side store (the analyses of a reference do not depend on the run)."""
        store = self.context.corpus_side if self.context is not None else None
        scripts = getattr(self, "scripts", None)
        if store is None or not analyzer.sha256:
            return reference_analyses(entry, analyzer, scripts)
        texts = (entry.reference or "", tuple(sorted((entry.expected_morphology or {}).items())))
        key = ("core.morph", analyzer.sha256) if not scripts else ("core.morph", analyzer.sha256, "scripts")
        return store.get(key, entry.id, texts, lambda: reference_analyses(entry, analyzer, scripts))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        an = self.analyzer
        if an is None:
            raise MetricUnavailable("core.morph was not prepared")
        out = []
        for it in items:
            e = it.entry
            if not e.reference and not e.expected_morphology:
                out.append(EntryScore(None, {"correct": 0, "covered": 0, "analysable": 0},
                                      {"reason": "no reference and no expected_morphology"}))
                continue
            lemmas, pairs, _ = self._reference_analyses(e, an)
            correct = covered = analysable = 0
            words: list[dict[str, Any]] = []
            for w in an.analyse_text_folded(it.predicted, self.folds, self.scripts):
                status = self._status(w, lemmas, pairs)
                if status != "rejected":
                    analysable += 1
                if status in ("correct", "wrong"):
                    covered += 1
                if status == "correct":
                    correct += 1
                words.append({"token": w.token, "status": status})
            out.append(EntryScore(
                value=_ratio(correct, covered),
                values={
                    "correct": correct,
                    "covered": covered,
                    "analysable": analysable,
                },
                detail={"words": words, "reference_lemmas": sorted(lemmas)},
            ))
        return out

    @staticmethod
    def _status(w: WordAnalysis, lemmas: set[str], pairs: set[tuple[str, frozenset[str]]]) -> str:
        if not w.analyses:
            return "rejected"
        if not any(a.lemma in lemmas for a in w.analyses):
            return "uncovered"
        if any((a.lemma, a.tag_set) in pairs for a in w.analyses):
            return "correct"
        return "wrong"

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """Accuracy: correct / covered words; coverage: covered / analysable words (ratios of sums)."""
        return {"morphological_accuracy": _sums(per_entry, "correct", "covered"),
                "morph_coverage": _sums(per_entry, "covered", "analysable")}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        correct = sum(int(e.values.get("correct", 0)) for e in per_entry)
        covered = sum(int(e.values.get("covered", 0)) for e in per_entry)
        analysable = sum(int(e.values.get("analysable", 0)) for e in per_entry)
        flush_persistent_caches(self.analyzer)
        extra = {"correct": correct, "covered": covered, "analysable": analysable, "min_coverage": self.min_coverage}
        if not covered:
            reason = ("no output word was accepted by the analyzer" if not analysable
                      else "no accepted output word shares a lemma with the reference analyses")
            return CorpusScore({"morphological_accuracy": None, "morph_coverage": _ratio(covered, analysable)},
                               availability="not_applicable", reason=reason, extra=extra)
        coverage = covered / analysable
        values = {"morphological_accuracy": correct / covered, "morph_coverage": coverage}
        if coverage < self.min_coverage:
            return CorpusScore(values, availability="below_coverage",
                               reason=f"coverage {coverage:.3f} is below {self.min_coverage:.2f}", extra=extra)
        return CorpusScore(values, extra=extra)


def other_script_violations(token: str, letters: frozenset[str], script: str,
                            checker: OrthographyChecker | None) -> list[Violation]:
    """Violations of a word written in a second script of the language: letters outside that
    script's spellings (the card's transliteration table), letters of the first script mixed in,
    digits inside the word when the profile forbids them."""
    out: list[Violation] = []
    seen: set[str] = set()
    for ch in nfc(token):
        if ch in seen or not ch.isalpha() or ch in letters:
            continue
        seen.add(ch)
        if checker is not None and checker.in_alphabet(ch):
            out.append(Violation("mixed_script", f"{ch!r} (U+{ord(ch):04X}) of the first script in a word written in "
                                                 f"{script}", ch))
        else:
            out.append(Violation("alphabet", f"{ch!r} (U+{ord(ch):04X}) is not a letter of the {script} spelling",
                                 ch))
    if checker is not None and checker.profile.digits_in_words_forbidden and any(c.isdigit() for c in token):
        out.append(Violation("digit", "digit inside a word (a letter written as a digit?)"))
    return out


class OrthographicAccuracyMetric(BaseMetric):
    """Share of output words that respect the language's orthography."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.ortho",
        role="orthography",
        label="Orthography",
        validation="unvalidated",
        version="2",
        display_name="Orthographic accuracy",
        scale="0-1",
        produces=("orthographic_accuracy",),
        # the analyzers the card names, their folds, the scripts a word may be written in, placeholders
        card_parts=("orthography", "loanwords", "analyzers", "code", "scripts", "transliterations", "placeholders"),
        description="Share of output words without a violation of the card's orthography profile "
                    "(alphabet, forbidden and look-alike characters, folds, digits in words, rules; "
                    "with FST: accepted only by the descriptive analyzer = non-standard spelling).",
    )

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.checker: OrthographyChecker | None = None
        self.strict: Analyzer | None = None
        self.descriptive: Analyzer | None = None
        self._memo: dict[str, tuple[Violation, ...]] = {}  # token -> its violations (words recur)

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        card = context.target_card
        self.checker = OrthographyChecker.for_card(card) if card is not None else None
        self.strict = optional_shared_analyzer(context, "strict")
        self.descriptive = optional_shared_analyzer(context, "descriptive") if self.strict is not None else None
        self.folds = card_folds(context)
        self.scripts = card_scripts(context)
        self._memo = {}
        if self.strict is not None:
            context.shared.setdefault(TARGET_ACCEPTS_KEY, _fold_accepts(self.strict, self.folds, self.scripts))
        if (self.checker is None or not self.checker.has_checks) and self.descriptive is None:
            raise MetricUnavailable(f"no orthography profile for {context.target_lang}", "not_applicable")

    def _violations(self, token: str) -> list[Violation]:
        table = self.scripts.table_of(token) if self.scripts else None
        if table is not None:  # written in another script of the language: checked in that script
            out = other_script_violations(token, table.target_chars, table.to_script, self.checker)
            token = table.backward(token)  # the analyzers read the first script
        else:
            out = self.checker.check(token) if self.checker is not None else []
        if self.strict is not None:
            w = self.strict.analyse_folded(token, self.folds)
            if w.accepted and w.folded is not None:
                out.append(Violation("fst_after_fold",
                                     f"accepted by {self.strict.name} only as {w.folded!r} (orthographic fold)"))
                return out
        if self.descriptive is not None and self.strict is not None and not self.strict.accepts(token):
            d = self.descriptive.analyse(token)
            if d.analyses:
                out.append(
                    Violation(
                        "non_standard",
                        f"non-standard spelling: rejected by {self.strict.name}, accepted by {self.descriptive.name} "
                        f"as {d.analyses[0].raw}",
                        analyses=tuple(a.raw for a in d.analyses),
                    )
                )
        return out

    def _token_violations(self, token: str) -> tuple[Violation, ...]:
        v = self._memo.get(token)
        if v is None:
            v = self._memo[token] = tuple(self._violations(token))
        return v

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        ctx = self.context
        for it in items:
            predicted = ctx.without_placeholders(it.predicted) if ctx is not None and ctx.placeholders \
                else it.predicted
            tokens = word_tokens(predicted)
            flagged = []
            codes: Counter[str] = Counter()
            for t in tokens:
                v = self._token_violations(t)
                if v:
                    flagged.append({"token": t, "violations": [x.to_json() for x in v]})
                    codes.update({x.code for x in v})
            n = len(tokens)
            ok = n - len(flagged)
            out.append(EntryScore(
                value=_ratio(ok, n),
                values={"ok": ok, "words": n},
                detail={"flagged": flagged, "codes": dict(codes)},
            ))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """Words without a violation / output words (a ratio of sums)."""
        return {"orthographic_accuracy": _sums(per_entry, "ok", "words")}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        ok = sum(int(e.values.get("ok", 0)) for e in per_entry)
        words = sum(int(e.values.get("words", 0)) for e in per_entry)
        flush_persistent_caches(self.strict, self.descriptive)
        codes: Counter[str] = Counter()
        for e in per_entry:
            codes.update(e.detail.get("codes", {}))
        extra = {"ok": ok, "words": words, "violations_by_code": dict(sorted(codes.items()))}
        if not words:
            return CorpusScore({"orthographic_accuracy": None}, availability="not_applicable",
                               reason="no output words", extra=extra)
        return CorpusScore({"orthographic_accuracy": ok / words}, extra=extra)
