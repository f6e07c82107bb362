"""Surface metrics (SPEC §3, LYSS §2.1): exact and equivalent match, chrF++, BLEU, TER, length ratio.

chrF++, BLEU and TER are sacrebleu's: sacrebleu prepares and tokenises the text (BLEU's
default tokenizer, 13a, is :mod:`~mteval_gui.scoring.metrics.bleu_tokens`, with the same
tokens) and names the configuration; the n-gram matches of chrF++ and BLEU are counted by
:mod:`~mteval_gui.scoring.metrics.ngram_kernel`, TER's edits by
:mod:`~mteval_gui.scoring.metrics.ter_kernel` (both compiled with numba, the same numbers as
sacrebleu; sacrebleu's own code counts them where numba is missing). Per entry the metric stores the sentence
score *and* the segment's sufficient statistics (``detail["stats"]``); the corpus score is
computed from the summed statistics (never from averaged sentence scores), with the same
arithmetic as sacrebleu's corpus score, so stored results reproduce sacrebleu exactly and
feed the bootstrap and paired tests without re-running sacrebleu.

Texts are compared in NFC (SPEC §2). Only an entry whose reference is null is
reference-free: an empty-string reference is a reference, scored as sacrebleu scores it (every
hypothesis word is an insertion for TER, a length ratio is undefined for it). An empty or
failed output is an empty hypothesis.

Multi-reference scoring (``multi_ref`` param or ``options["multi_ref"]``) uses the
reference plus the entry's variants; the number of references goes into the sacrebleu
signature (``nrefs:var`` when it varies).
"""

from __future__ import annotations

import math
import statistics
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from mteval_gui.scoring.composite import short_segments_caveat
from mteval_gui.scoring.metrics import bleu_tokens, ngram_kernel, ter_kernel
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    ScoringContext,
)
from mteval_gui.scoring.stats import EntryStats
from mteval_gui.text import folded_key, match_key, nfc

VERDICTS = ("EXACT", "EQUIVALENT", "MISS", "NO_OUTPUT")


def reference_of(item: EntryInput) -> str | None:
    """The entry's reference in NFC; None only when it is null (``""`` is a reference)."""
    ref = item.entry.reference
    return nfc(ref) if ref is not None else None


def references_of(item: EntryInput, multi_ref: bool) -> list[str]:
    """Reference (and with ``multi_ref`` the non-empty variants), NFC, without duplicates."""
    r = reference_of(item)
    out: list[str] = [r] if r is not None else []
    if multi_ref:
        for v in item.entry.variants:
            v = nfc(v)
            if v and v not in out:
                out.append(v)
    return out


def hypothesis_of(item: EntryInput) -> str:
    return nfc(item.predicted)


def _not_applicable(keys: Sequence[str], reason: str) -> CorpusScore:
    return CorpusScore(dict.fromkeys(keys), availability="not_applicable", reason=reason)


class ExactMatchMetric(BaseMetric):
    """Exact match: ``match_key(output) == match_key(reference)`` (SPEC §2; punctuation kept)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.exact",
        version="2",
        display_name="Exact match",
        scale="0-1",
        role="exact",
        label="Exact",
        display="check",
        validation="proxy",
        needs_reference=True,
        produces=("exact_match_rate", "exact_matches"),
        card_parts=(),
        description="Share of entries whose output equals the reference after NFC, whitespace collapsing "
                    "and casefolding.",
    )

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            ref = reference_of(it)
            if ref is None:
                out.append(EntryScore(None))
                continue
            hyp = match_key(it.predicted)
            out.append(EntryScore(1.0 if hyp and hyp == match_key(ref) else 0.0))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"exact_match_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["exact_match_rate"]
        if st.entries_scored() == 0:
            return _not_applicable(self.info.produces, "no entry has a reference")
        return CorpusScore({"exact_match_rate": st.point(),
                            "exact_matches": int(sum(e.value or 0 for e in per_entry))})


class EquivalentMatchMetric(BaseMetric):
    """Generic equivalent match (SPEC §3): EXACT, EQUIVALENT (reference or a variant after the
    card's orthographic folds), NO_OUTPUT (empty output) or MISS.

    A language's own linter (a card's metric of role ``equivalence_verdict``) may produce
    ``equivalent_match_rate`` too; the runner then prefers the language's value (see
    :func:`mteval_gui.scoring.merge.merge_scores`).
    """

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.equivalent",
        version="2",
        display_name="Equivalent match",
        scale="0-1",
        role="equivalence_verdict",
        label="Equivalent",
        validation="heuristic",
        needs_reference=True,
        produces=("equivalent_match_rate", "equivalent_matches"),
        description="Share of entries matching the reference or an accepted variant after the language's "
                    "orthographic folds.",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        card = context.target_card
        self.folds = dict(card.orthography.folds) if card is not None else {}

    def verdict(self, item: EntryInput) -> tuple[str | None, str | None]:
        ref = reference_of(item)
        variants = [v for v in item.entry.variants if v]
        if ref is None and not variants:
            return None, None
        if not item.predicted.strip():
            return "NO_OUTPUT", None
        if ref is not None and match_key(item.predicted) == match_key(ref):
            return "EXACT", "reference"
        hyp = folded_key(item.predicted, self.folds)
        if ref and hyp == folded_key(ref, self.folds):
            return "EQUIVALENT", "reference (orthographic folds)"
        for i, v in enumerate(variants, 1):
            if hyp == folded_key(v, self.folds):
                return "EQUIVALENT", f"variant {i}"
        return "MISS", None

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            v, why = self.verdict(it)
            if v is None:
                out.append(EntryScore(None))
                continue
            detail: dict[str, Any] = {"verdict": v}
            if why:
                detail["matched"] = why
            out.append(EntryScore(1.0 if v in ("EXACT", "EQUIVALENT") else 0.0, detail=detail))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"equivalent_match_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["equivalent_match_rate"]
        if st.entries_scored() == 0:
            return _not_applicable(self.info.produces, "no entry has a reference or variant")
        counts: dict[str, int] = {}
        for e in per_entry:
            v = e.detail.get("verdict")
            if v:
                counts[v] = counts.get(v, 0) + 1
        return CorpusScore({"equivalent_match_rate": st.point(),
                            "equivalent_matches": int(sum(e.value or 0 for e in per_entry))},
                           extra={"verdicts": counts})


_REFERENCE_CACHE: dict[tuple[Any, ...], dict[str, Any]] = {}  # without a corpus store: by reference texts
_REFERENCE_CACHE_SIZE = 20000
_REFERENCE_LOCK = threading.Lock()


class _SacrebleuMetric(BaseMetric, ABC):
    """Shared machinery: per-batch segment statistics with one sacrebleu metric object."""

    score_key: ClassVar[str]
    DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        params = dict(params)
        self.multi_ref = bool(params.pop("multi_ref", False))
        unknown = set(params) - set(self.DEFAULTS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}; known: {', '.join(self.DEFAULTS)}")
        self.sacrebleu_params: dict[str, Any] = {**self.DEFAULTS, **params}
        self._namespaces: dict[str, tuple[Any, ...]] = {}  # by kind of reference statistics

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        if "multi_ref" in context.options and "multi_ref" not in self.params:  # job-wide option
            self.multi_ref = bool(context.options["multi_ref"])
        self.metric = self._make()

    @abstractmethod
    def _make(self) -> Any:
        """The configured sacrebleu metric object."""

    def _sentence_value(self, stats: list[float]) -> float:
        return float(self.metric._compute_score_from_stats(list(stats)).score)

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        scored = [(i, it, references_of(it, self.multi_ref)) for i, it in enumerate(items)]
        scored = [s for s in scored if s[2]]
        out: list[EntryScore] = [EntryScore(None) for _ in items]
        if not scored:
            return out
        stats = self._segment_statistics([hypothesis_of(it) for _i, it, _r in scored],
                                         [refs for _i, _it, refs in scored], [it.entry.id for _i, it, _r in scored])
        for (i, _it, refs), st in zip(scored, stats, strict=True):
            st = self._stored(st)
            out[i] = EntryScore(self._sentence_value(st), detail={"stats": st, "nrefs": len(refs)})
        return out

    def _stored(self, stats: list[float]) -> list[float]:
        """A segment's statistics as stored: whole numbers as int, the others as float."""
        return [float(x) if isinstance(x, float) and not float(x).is_integer() else int(x) for x in stats]

    def _segment_statistics(self, hyps: Sequence[str], refs: Sequence[list[str]],
                            entry_ids: Sequence[str]) -> list[list[float]]:
        """sacrebleu's segment statistics of each hypothesis against its references."""
        m = self.metric
        # the same steps as sacrebleu's _extract_corpus_statistics, with each reference's
        # n-grams computed once per corpus version (references recur for every system scored)
        return [m._compute_segment_statistics(m._preprocess_segment(h), self._reference_info(r, eid))
                for h, r, eid in zip(hyps, refs, entry_ids, strict=True)]

    def _namespace(self) -> tuple[Any, ...]:
        return (type(self).__name__, tuple(sorted(self.sacrebleu_params.items(), key=lambda kv: kv[0])))

    def _compute_reference_info(self, refs: list[str]) -> dict[str, Any]:
        return dict(self.metric._extract_reference_info([self.metric._preprocess_segment(r) for r in refs]))

    def _reference_info(self, refs: list[str], entry_id: str) -> dict[str, Any]:
        """sacrebleu's reference statistics of one entry (see :meth:`_reference_side`)."""
        info: dict[str, Any] = self._reference_side(refs, entry_id, "sacrebleu", self._compute_reference_info)
        return info

    def _reference_side(self, refs: list[str], entry_id: str, kind: str, compute: Callable[[list[str]], Any]) -> Any:
        """``compute(refs)`` of one entry, by ``kind`` of statistics: from the corpus-side store
        of the job (:mod:`mteval_gui.scoring.corpus_side`), else from a cache by reference texts."""
        store = self.context.corpus_side if self.context is not None else None
        texts = tuple(refs)
        namespace = self._namespaces.get(kind)
        if namespace is None:
            namespace = self._namespace() if kind == "sacrebleu" else (*self._namespace(), kind)
            self._namespaces[kind] = namespace
        if store is not None:
            return store.get(namespace, entry_id, texts, lambda: compute(refs))
        key = (*namespace, texts)
        info = _REFERENCE_CACHE.get(key)
        if info is None:
            info = compute(refs)
            with _REFERENCE_LOCK:
                while len(_REFERENCE_CACHE) >= _REFERENCE_CACHE_SIZE:
                    _REFERENCE_CACHE.pop(next(iter(_REFERENCE_CACHE)))
                _REFERENCE_CACHE[key] = info
        return info

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {self.score_key: self._stats(per_entry)}

    @abstractmethod
    def _stats(self, per_entry: Sequence[EntryScore]) -> EntryStats:
        """Per-entry sufficient statistics as an EntryStats (corpus value and resampling)."""

    def signature(self, per_entry: Sequence[EntryScore]) -> str:
        nrefs = {int(e.detail.get("nrefs", 1)) for e in per_entry if e.detail.get("stats") is not None}
        self.metric.num_refs = (next(iter(nrefs)) if len(nrefs) == 1 else -1) if nrefs else 1
        return str(self.metric.get_signature().format())

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self._stats(per_entry)
        if st.entries_scored() == 0:
            return _not_applicable((self.score_key,), "no entry has a reference")
        return CorpusScore({self.score_key: st.point()}, signature=self.signature(per_entry),
                           extra={"entries": st.entries_scored()})


def _note_implementation(cs: CorpusScore, implementation: str | None) -> None:
    """``extra["implementation"]``: who counted the n-grams (``numba`` or ``sacrebleu``, with the reason)."""
    if cs.availability == "ok":
        cs.extra["implementation"] = implementation or ngram_kernel.implementation()
        if cs.extra["implementation"] != "numba":
            cs.extra["implementation_note"] = ngram_kernel.fallback_reason()


class ChrfMetric(_SacrebleuMetric):
    """chrF++ (sacrebleu ``CHRF(word_order=2)``), 0–100."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.chrf", version="2", display_name="chrF++", scale="0-100",
        role="chrf", label="chrF++", decimals=1, validation="proxy",
        needs_reference=True, produces=("chrf_plus_plus",),
        card_parts=(),
        description="Character n-gram F-score with word bigrams (sacrebleu CHRF, word_order=2).",
    )
    score_key = "chrf_plus_plus"

    DEFAULTS: ClassVar[dict[str, Any]] = {"char_order": 6, "word_order": 2, "beta": 2, "lowercase": False,
                                           "whitespace": False, "eps_smoothing": False}

    implementation: str | None = None  # set by the first scored batch

    def _make(self) -> Any:
        from sacrebleu.metrics import CHRF

        return CHRF(**self.sacrebleu_params)

    def _sentence_value(self, stats: list[float]) -> float:
        return float(self.metric._compute_f_score(stats))

    def _stored(self, stats: list[float]) -> list[float]:
        return stats  # counts: int already (the kernel's and sacrebleu's)

    def _units(self, segment: str) -> tuple[str, list[str]]:
        """The characters (without whitespace unless ``whitespace``) and the words (punctuation
        split off their ends) whose n-grams sacrebleu's CHRF counts."""
        m = self.metric
        text = m._preprocess_segment(segment)
        chars = text if m.whitespace else "".join(text.split())
        return chars, (m._remove_punctuation(text) if m.word_order > 0 else [])

    def _reference_units(self, refs: list[str]) -> list[tuple[str, list[str]]]:
        return [self._units(r) for r in refs]

    def _segment_statistics(self, hyps: Sequence[str], refs: Sequence[list[str]],
                            entry_ids: Sequence[str]) -> list[list[float]]:
        self.implementation = ngram_kernel.implementation()
        if self.implementation != "numba":
            return super()._segment_statistics(hyps, refs, entry_ids)
        import numpy as np

        m = self.metric
        ref_units = [self._reference_side(r, eid, "units", self._reference_units)
                     for r, eid in zip(refs, entry_ids, strict=True)]
        hyp_units = [self._units(h) for h in hyps]
        chars = ngram_kernel.char_counts(
            [(hc, [rc for rc, _rw in ru]) for (hc, _hw), ru in zip(hyp_units, ref_units, strict=True)], m.char_order)
        words = ngram_kernel.word_counts(
            [(hw, [rw for _rc, rw in ru]) for (_hc, hw), ru in zip(hyp_units, ref_units, strict=True)], m.word_order)
        rows: list[list[float]] = np.hstack([chars, words]).tolist()
        if len(rows) == len(hyps):  # one reference each
            return rows
        # sacrebleu's choice among references: the first with the highest f-score
        out = []
        k = 0
        for ru in ref_units:
            best: list[float] = []
            best_f = -1.0
            for row in rows[k:k + len(ru)]:
                f = m._compute_f_score(row)
                if f > best_f:
                    best, best_f = row, f
            out.append(best)
            k += len(ru)
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        cs = super().aggregate(per_entry, context)
        _note_implementation(cs, self.implementation)
        return cs

    def _stats(self, per_entry: Sequence[EntryScore]) -> EntryStats:
        p = self.sacrebleu_params
        width = 3 * (p["char_order"] + p["word_order"])
        return EntryStats.rows("chrf", [e.detail.get("stats") for e in per_entry], width,
                               char_order=p["char_order"], word_order=p["word_order"], beta=p["beta"],
                               eps_smoothing=p["eps_smoothing"])


class BleuMetric(_SacrebleuMetric):
    """BLEU (sacrebleu defaults: 13a tokenizer, exp smoothing), 0–100; never in the composite.

    When the median reference has fewer than 4 tokens the run gets the caveat ``short_segments``
    and comparisons and validation correlations leave BLEU out unless asked for.

    The per-entry value is sentence BLEU with effective order (sacrebleu's recommendation);
    the corpus value is standard corpus BLEU from summed statistics.
    """

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.bleu", version="2", display_name="BLEU", scale="0-100",
        role="bleu", label="BLEU", decimals=1, validation="proxy",
        needs_reference=True, produces=("bleu",),
        card_parts=(),
        description="Corpus BLEU (sacrebleu defaults). Reported for comparability, not in the composite.",
    )
    score_key = "bleu"

    DEFAULTS: ClassVar[dict[str, Any]] = {"lowercase": False, "tokenize": None, "smooth_method": "exp",
                                           "smooth_value": None, "max_ngram_order": 4}

    implementation: str | None = None  # set by the first scored batch

    def _make(self) -> Any:
        from sacrebleu.metrics import BLEU

        return BLEU(**self.sacrebleu_params)

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        self.tokens = bleu_tokens.tokenizer_for(self.metric)

    def _stored(self, stats: list[float]) -> list[float]:
        return stats  # counts and lengths: int already (the kernel's and sacrebleu's)

    def _reference_tokens(self, refs: list[str]) -> list[list[str]]:
        return [self.tokens(r) for r in refs]

    def _segment_statistics(self, hyps: Sequence[str], refs: Sequence[list[str]],
                            entry_ids: Sequence[str]) -> list[list[float]]:
        self.implementation = ngram_kernel.implementation()
        if self.implementation != "numba":
            return super()._segment_statistics(hyps, refs, entry_ids)
        closest = self.metric._get_closest_ref_len
        ref_tokens = [self._reference_side(r, eid, "tokens", self._reference_tokens)
                      for r, eid in zip(refs, entry_ids, strict=True)]
        hyp_tokens = [self.tokens(h) for h in hyps]
        counts = ngram_kernel.bleu_counts(list(zip(hyp_tokens, ref_tokens, strict=True)),
                                          self.metric.max_ngram_order).tolist()
        # sacrebleu's BLEU._compute_segment_statistics: [hyp length, closest reference length, correct…, total…]
        return [[len(h), closest(len(h), [len(r) for r in rs]), *row]
                for h, rs, row in zip(hyp_tokens, ref_tokens, counts, strict=True)]

    def _sentence_value(self, stats: list[float]) -> float:
        """Sentence BLEU with effective order: ``sacrebleu.BLEU.compute_bleu(...,
        effective_order=True).score``, the same operations in the same order, without building
        its score object (which formats its verbose text)."""
        from sacrebleu.utils import my_log

        m = self.metric
        n_max = m.max_ngram_order
        sys_len, ref_len = int(stats[0]), int(stats[1])
        correct = [int(c) for c in stats[2:2 + n_max]]
        if not any(correct):
            return 0.0
        total = [int(t) for t in stats[2 + n_max:]]
        method = m.smooth_method
        smooth = m.SMOOTH_DEFAULTS[method] if m.smooth_value is None else m.smooth_value
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        precisions = [0.0] * n_max
        smooth_mteval = 1.0
        eff_order = n_max
        for n in range(1, n_max + 1):
            c: float = correct[n - 1]
            t: float = total[n - 1]
            if method == "add-k" and n > 1:
                c += smooth
                t += smooth
            if t == 0:
                break
            eff_order = n
            if c == 0:
                if method == "exp":
                    smooth_mteval *= 2
                    precisions[n - 1] = 100. / (smooth_mteval * t)
                elif method == "floor":
                    precisions[n - 1] = 100. * smooth / t
            else:
                precisions[n - 1] = 100. * c / t
        return float(bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order))

    def _stats(self, per_entry: Sequence[EntryScore]) -> EntryStats:
        p = self.sacrebleu_params
        n = p["max_ngram_order"]
        return EntryStats.rows("bleu", [e.detail.get("stats") for e in per_entry], 2 + 2 * n,
                               max_ngram_order=n, smooth_method=p["smooth_method"], smooth_value=p["smooth_value"])

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        """Corpus BLEU; with the median reference length (in BLEU's tokens) and, below 4 tokens,
        the caveat ``short_segments``."""
        cs = super().aggregate(per_entry, context)
        _note_implementation(cs, self.implementation)
        ref_lens = [float(e.detail["stats"][1]) for e in per_entry if e.detail.get("stats")]
        if ref_lens:
            median = float(statistics.median(ref_lens))
            cs.extra["median_reference_tokens"] = median
            caveat = short_segments_caveat(median)
            if caveat is not None:
                cs.caveats = [caveat]
        return cs


class TerMetric(_SacrebleuMetric):
    """Translation edit rate (sacrebleu TER defaults), 0–∞, lower is better; never in the composite.

    sacrebleu tokenises and names the configuration (signature); the edits are counted by
    :mod:`mteval_gui.scoring.metrics.ter_kernel` (compiled, the same numbers as sacrebleu),
    or by sacrebleu itself where numba is missing. ``extra["implementation"]`` says which.
    """

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.ter", version="2", display_name="TER", scale="0-inf", higher_is_better=False,
        role="ter", label="TER", decimals=1, validation="proxy",
        needs_reference=True, produces=("ter",),
        card_parts=(),
        description="Edits per reference word (sacrebleu TER). Reported, not in the composite.",
    )
    score_key = "ter"

    DEFAULTS: ClassVar[dict[str, Any]] = {"normalized": False, "no_punct": False, "asian_support": False,
                                           "case_sensitive": False}

    implementation: str | None = None  # set by the first scored batch

    def _make(self) -> Any:
        from sacrebleu.metrics import TER

        return TER(**self.sacrebleu_params)

    def _segment_statistics(self, hyps: Sequence[str], refs: Sequence[list[str]],
                            entry_ids: Sequence[str]) -> list[list[float]]:
        self.implementation = ter_kernel.implementation()
        if self.implementation != "numba":
            return super()._segment_statistics(hyps, refs, entry_ids)
        m = self.metric
        hyp_words = [m._preprocess_segment(h).split() for h in hyps]
        ref_words = [self._reference_info(r, eid)["ref_words"] for r, eid in zip(refs, entry_ids, strict=True)]
        edits = iter(ter_kernel.ter_edits([(h, r) for h, rs in zip(hyp_words, ref_words, strict=True) for r in rs]))
        # sacrebleu's TER._compute_segment_statistics: fewest edits, mean reference length
        return [[min(next(edits) for _ in rs), sum(len(r) for r in rs) / len(rs)] for rs in ref_words]

    def _stats(self, per_entry: Sequence[EntryScore]) -> EntryStats:
        return EntryStats.rows("ter", [e.detail.get("stats") for e in per_entry], 2)

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        cs = super().aggregate(per_entry, context)
        if cs.availability == "ok":
            cs.extra["implementation"] = self.implementation or ter_kernel.implementation()
            if cs.extra["implementation"] != "numba":
                cs.extra["implementation_note"] = ter_kernel.fallback_reason()
        return cs


class LengthRatioMetric(BaseMetric):
    """``len(output) / len(reference)`` in characters (NFC); corpus = mean over entries with a reference."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="core.length_ratio",
        version="2",
        display_name="Length ratio",
        scale="0-inf",
        role="length_ratio",
        label="Length ratio",
        validation="heuristic",
        needs_reference=True,
        produces=("length_ratio",),
        card_parts=(),
        description="Output length over reference length in characters; 1.0 is ideal. "
                    "A diagnostic, not in the composite.",
    )

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            ref = reference_of(it)
            if ref is None:
                out.append(EntryScore(None))
                continue
            hyp = hypothesis_of(it)
            if not ref:  # a ratio to an empty reference is undefined
                out.append(EntryScore(None, values={"chars": len(hyp), "ref_chars": 0},
                                      detail={"skipped": "empty reference"}))
                continue
            out.append(EntryScore(len(hyp) / len(ref), values={"chars": len(hyp), "ref_chars": len(ref)}))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        return {"length_ratio": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        st = self.entry_statistics(per_entry)["length_ratio"]
        if st.entries_scored() == 0:
            return _not_applicable(self.info.produces, "no entry has a reference")
        chars = sum(int(e.values.get("chars", 0)) for e in per_entry if e.value is not None)
        ref_chars = sum(int(e.values.get("ref_chars", 0)) for e in per_entry if e.value is not None)
        return CorpusScore({"length_ratio": st.point()},
                           extra={"total_ratio": chars / ref_chars if ref_chars else None})
