"""Plains Cree linter (LYSS-eq): is the output an acceptable variant of the reference?

Verdicts
--------
- ``NO_OUTPUT``: the output is empty (or the system failed on the entry).
- ``EXACT``: the output's words, as written, equal the reference's words after NFC and lower
  casing, with punctuation at word edges ignored (``Atim.`` = ``atim``; NFD input and a
  sentence-initial capital make no difference).
- ``EQUIVALENT``: the words pair up with the reference's words, every difference is explained
  by an acceptable variant class, and no word is left over except optional particles.
- ``MISS``: anything else, including a difference explained only by a class that is not
  acceptable (PROGRESSIVE_UNDERSPEC, VOWEL_LENGTH, or an ambiguity class the entry rules out).

The reference and each accepted variant are tried; the best verdict wins
(EXACT > EQUIVALENT with fewer classes > MISS).

Variant classes
---------------
Both texts are first written canonically (:mod:`eval_standards.crk.orthography`). Words are
then paired: identical canonical forms first, then forms the strict analyzer gives a common
analysis, then the relations below. The classes that fired are listed with the verdict.

- ``SCRIPT_VARIANT`` (acceptable): the output is written in another script of the language than
  the reference (syllabics for an SRO reference, or the other way round). Both are read in the
  card's first script through its transliteration table (``transliterations`` in the card:
  SRO ↔ Cree syllabics) and compared there; the classes found there are kept.
- ``LONG_VOWEL_MACRON`` (acceptable): macron vowels ā ē ī ō where the other text has â ê î ô.
- ``ORTHOGRAPHIC`` (acceptable): preverbs written apart or hyphenated (``ê kî wâpamât`` /
  ``ê-kî-wâpamât``), fused preverb spellings (``kikahati``), ý/y, apostrophe and hyphen
  look-alikes, or another surface form with the same full analysis.
- ``WORD_ORDER`` (acceptable): the paired words stand in another order (Plains Cree word order
  is pragmatically governed, Dahlstrom 1991; pairing also works through analyses, so re-spelled words count).
- ``OPTIONAL_PARTICLE`` (acceptable): an unpaired word on either side is an optional particle
  (``optional_particles.tsv``: ispîhk with a conjunct verb, emphatic pronouns...).
- ``LEMMA_SYNONYM`` (acceptable): lemmas of one synonym set (``synonyms.tsv``) with otherwise
  identical analyses (preverbs, person, number, mood); particles of a set as written.
- ``PROGRESSIVE_AMBIGUITY`` (acceptable): the output adds the progressive preverb ``ati-``
  that the reference lacks (English rarely decides the aspect).
- ``PROGRESSIVE_UNDERSPEC`` (not acceptable): the output drops an ``ati-`` the reference has.
- ``INCLUSIVE_EXCLUSIVE`` (acceptable when the entry leaves clusivity open): 1Pl exclusive
  versus 12Pl inclusive (tags or pronouns of ``clusivity.tsv``), everything else identical.
- ``VOWEL_LENGTH`` (not acceptable, diagnostic): the output word is the reference word with
  long-vowel marks dropped and is not itself a valid word for the analyzer. Unmarked vowel length
  is not Standard Roman Orthography and loses the length contrast, so such output is a MISS; the
  class tells the reviewer why.

When is an ambiguity open? English "we" does not say whether the hearer is included, and
English rarely marks progressive aspect, so by default (``clusivity``/``progressive`` =
``"auto"``) both readings are accepted unless the entry decides: for clusivity, an English
source that marks the hearer ("we and you", "you and us", "let's", "(incl.)", "(excl.)",
"not you"), or a gold analysis (``expected_morphology``) with a 1Pl/12Pl tag; for the
progressive, any gold analysis (it states the preverbs). Corpora generated from dictionary
paradigms (e.g. the verbforms corpus) carry gold analyses, so there a person or aspect change
is a MISS. The parameters ``"accept"`` and ``"reject"`` force either reading.

Analyzer: the strict analyzer of the job (``mteval_gui.fst.shared_analyzer``). Without it
the string-level classes still work and the analysis-based relations are off; the corpus
result says so (``extra["fst"]`` is null). The descriptive analyzer is never used for
equivalence: it accepts misspellings, which must not become EQUIVALENT.

Per entry: ``EntryScore.value`` 1.0 for EXACT/EQUIVALENT, 0.0 for MISS/NO_OUTPUT, None
without reference; ``detail`` = {verdict, classes, findings, explanation, matched, pairs,
unpaired_reference, unpaired_output}. Corpus: ``equivalent_match_rate`` and
``equivalent_matches`` (the runner prefers these to the generic ones for crk).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, ClassVar

from eval_standards.crk.orthography import Orthography, Word, length_marks, unmark_length
from eval_standards.crk.wordlists import WordLists, load_wordlists
from mteval_gui.domain.messages import Message, msg
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.errors import InputError
from mteval_gui.fst.analysis import Analysis
from mteval_gui.fst.registry import optional_shared_analyzer
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

EXACT, EQUIVALENT, MISS, NO_OUTPUT = "EXACT", "EQUIVALENT", "MISS", "NO_OUTPUT"
VERDICTS = (EXACT, EQUIVALENT, MISS, NO_OUTPUT)

LONG_VOWEL_MACRON = "LONG_VOWEL_MACRON"
ORTHOGRAPHIC = "ORTHOGRAPHIC"
WORD_ORDER = "WORD_ORDER"
OPTIONAL_PARTICLE = "OPTIONAL_PARTICLE"
LEMMA_SYNONYM = "LEMMA_SYNONYM"
PROGRESSIVE_AMBIGUITY = "PROGRESSIVE_AMBIGUITY"
PROGRESSIVE_UNDERSPEC = "PROGRESSIVE_UNDERSPEC"
INCLUSIVE_EXCLUSIVE = "INCLUSIVE_EXCLUSIVE"
VOWEL_LENGTH = "VOWEL_LENGTH"
SCRIPT_VARIANT = "SCRIPT_VARIANT"
CLASSES = (SCRIPT_VARIANT, LONG_VOWEL_MACRON, ORTHOGRAPHIC, WORD_ORDER, OPTIONAL_PARTICLE, LEMMA_SYNONYM,
           PROGRESSIVE_AMBIGUITY, PROGRESSIVE_UNDERSPEC, INCLUSIVE_EXCLUSIVE, VOWEL_LENGTH)
PROGRESSIVE_PREVERB = "ati"

AnalyseFn = Callable[[str], Sequence[Analysis]]

_INCLUSIVE_SOURCE = re.compile(
    r"\b(?:you and (?:i|me|we|us)|(?:we|us) and you|let'?s|incl(?:usive|\.)?|"
    r"excl(?:usive|\.)?|not you|without you)\b", re.IGNORECASE)
MODES = ("auto", "accept", "reject")


@dataclass(frozen=True)
class Finding:
    """One variant class that fired, with whether it is acceptable and why."""

    cls: str
    acceptable: bool
    message: Message

    @property
    def note(self) -> str:
        return self.message.text()

    def to_json(self) -> dict[str, Any]:
        return {"class": self.cls, "acceptable": self.acceptable, "note": self.note,
                "note_msg": self.message.to_json()}


@dataclass
class LintResult:
    verdict: str
    findings: list[Finding] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    unpaired_reference: list[str] = field(default_factory=list)
    unpaired_output: list[str] = field(default_factory=list)
    message: Message | None = None  # what explains the verdict
    matched: str | None = None  # "reference" or "variant n"

    @property
    def explanation(self) -> str:
        return self.message.text() if self.message is not None else ""

    @property
    def classes(self) -> list[str]:
        fired = {f.cls for f in self.findings}
        return [c for c in CLASSES if c in fired]

    @property
    def acceptable(self) -> bool:
        return self.verdict in (EXACT, EQUIVALENT)

    def rank(self) -> tuple[int, int]:
        order = {EXACT: 0, EQUIVALENT: 1, MISS: 2, NO_OUTPUT: 3}
        return order[self.verdict], len(self.classes) if self.verdict == EQUIVALENT else len(
            self.unpaired_output
        ) + len(self.unpaired_reference)

    def to_detail(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "verdict": self.verdict,
            "classes": self.classes,
            "explanation": self.explanation,
        }
        if self.message is not None:
            d["explanation_msg"] = self.message.to_json()
        if self.findings:
            d["findings"] = [f.to_json() for f in self.findings]
        if self.matched:
            d["matched"] = self.matched
            d["matched_msg"] = matched_message(self.matched).to_json()
        if self.pairs:
            d["pairs"] = self.pairs
        if self.unpaired_reference:
            d["unpaired_reference"] = self.unpaired_reference
        if self.unpaired_output:
            d["unpaired_output"] = self.unpaired_output
        return d


@dataclass(frozen=True)
class Openness:
    """Whether the entry leaves clusivity and progressive aspect open (see module docstring)."""

    clusivity: bool = True
    progressive: bool = True
    clusivity_reason: Message = msg("the entry does not decide between inclusive and exclusive 'we'")
    progressive_reason: Message = msg("the entry does not decide the aspect")


def matched_message(matched: str) -> Message:
    """``"reference"`` / ``"variant N"`` as a message."""
    head, _, n = matched.partition(" ")
    if head == "variant" and n.isdigit():
        return msg("variant {n}", n=int(n))
    return msg(matched)


def entry_openness(source: str | None, gold: Iterable[str], lists: WordLists, *,
                   clusivity: str = "auto", progressive: str = "auto") -> Openness:
    """Decide which ambiguity classes are acceptable for one entry."""
    gold = [g for g in gold if g]
    c_open, c_why = True, msg("the entry does not decide between inclusive and exclusive 'we'")
    if clusivity == "accept":
        c_why = msg("inclusive/exclusive accepted by parameter")
    elif clusivity == "reject":
        c_open, c_why = False, msg("inclusive/exclusive rejected by parameter")
    else:
        person_tags = set(lists.clusivity_tags) | set(lists.clusivity_tags.values())
        m = _INCLUSIVE_SOURCE.search(source or "")
        if m:
            c_open, c_why = False, msg("the source marks clusivity ({marker})", marker=repr(m.group(0)))
        elif any(t in person_tags for g in gold for t in g.split("+")):
            c_open, c_why = False, msg("the entry's gold analysis fixes the person")
    p_open, p_why = True, msg("the English source does not decide the aspect")
    if progressive == "accept":
        p_why = msg("added ati- accepted by parameter")
    elif progressive == "reject":
        p_open, p_why = False, msg("added ati- rejected by parameter")
    elif gold:
        p_open, p_why = False, msg("the entry's gold analysis fixes the preverbs")
    return Openness(c_open, p_open, c_why, p_why)


class CrkLinter:
    """Compares Cree output with a reference (no scoring-job state; reusable and thread-safe)."""

    def __init__(self, lists: WordLists | None = None, analyse: AnalyseFn | None = None,
                 scripts: Scripts | None = None):
        self.scripts = scripts if scripts else None
        self.lists = lists if lists is not None else load_wordlists()
        self.ortho = Orthography(self.lists)
        self._analyse = analyse
        ati = self.lists.preverbs.get(PROGRESSIVE_PREVERB)
        self.ati_tag = ati.fst_tag if ati else "PV/ati"

    def analyses(self, form: str) -> tuple[Analysis, ...]:
        if self._analyse is None or not form:
            return ()
        return tuple(self._analyse(form))

    # -- public API ------------------------------------------------------------------------
    def lint(self, reference: str, prediction: str | None, *, openness: Openness | None = None) -> LintResult:
        """Verdict of one output against one reference."""
        openness = openness or Openness()
        if not (prediction or "").strip() or not self.ortho.written_tokens(prediction):
            return LintResult(NO_OUTPUT, message=msg("no output"))
        if self.ortho.written_tokens(prediction) == self.ortho.written_tokens(reference):
            same_raw = " ".join((prediction or "").split()) == " ".join(reference.split())
            why = msg("identical") if same_raw else msg("identical words (case, Unicode form or edge punctuation "
                                                         "differ)")
            return LintResult(EXACT, message=why)
        return self._compare(self.ortho.words(reference), self.ortho.words(prediction), openness)

    def lint_entry(self, references: Sequence[str], prediction: str | None, *, source: str | None = None,
                   gold: Iterable[str] = (), clusivity: str = "auto", progressive: str = "auto") -> LintResult:
        """Best verdict over the reference and its accepted variants."""
        openness = entry_openness(source, list(gold), self.lists, clusivity=clusivity, progressive=progressive)
        sc = self.scripts
        if sc is not None and (sc.written_in_other(prediction) or any(sc.written_in_other(r) for r in references)):
            return self._lint_across_scripts(sc, references, prediction or "", openness)
        return self._best(references, prediction, openness)

    def _lint_across_scripts(self, sc: Scripts, references: Sequence[str], prediction: str,
                             openness: Openness) -> LintResult:
        """Both sides read in the first script; SCRIPT_VARIANT when the output's script is not the reference's."""
        raw = self._best(references, prediction, openness)
        if raw.verdict in (EXACT, NO_OUTPUT):
            return raw
        res = self._best([sc.to_primary(r) for r in references], sc.to_primary(prediction), openness)
        if not res.acceptable:
            return res
        head, _, n = (res.matched or "reference").partition(" ")
        ref = references[int(n)] if head == "variant" and n.isdigit() and int(n) < len(references) else references[0]
        out_scripts = _scripts_used(sc, prediction)
        if _scripts_used(sc, ref) == out_scripts:
            return raw if raw.rank() <= res.rank() else res
        shown = " / ".join(sorted(out_scripts))
        finding = Finding(SCRIPT_VARIANT, True, msg("{output} / {reference}: written in {script}, read as {primary}",
                                                    output=prediction.strip(), reference=ref.strip(),
                                                    script=shown, primary=sc.to_primary(prediction).strip()))
        findings = [finding, *res.findings]
        expl = msg("{findings}", findings=[_finding_message(f) for f in findings])
        across = LintResult(EQUIVALENT, findings, res.pairs, res.unpaired_reference, res.unpaired_output,
                            message=expl, matched=res.matched)
        return raw if raw.rank() <= across.rank() else across  # an accepted variant in the output's own script

    def _best(self, references: Sequence[str], prediction: str | None, openness: Openness) -> LintResult:
        best: LintResult | None = None
        for i, ref in enumerate(references):
            res = self.lint(ref, prediction, openness=openness)
            if i > 0 and res.verdict == EXACT:
                # EXACT is a match of the reference (SPEC §3): an accepted variant makes it EQUIVALENT
                res = LintResult(EQUIVALENT, message=msg("{exact} to accepted variant {n}",
                                                         exact=res.message or msg(""), n=i))
            res.matched = "reference" if i == 0 else f"variant {i}"
            if best is None or res.rank() < best.rank():
                best = res
            if best.verdict in (EXACT, NO_OUTPUT):
                break
        if best is None:
            raise ValueError("lint_entry needs at least one reference")
        return best

    # -- pairing ---------------------------------------------------------------------------
    def _shared_analysis(self, r: Word, p: Word) -> str | None:
        ra = {a.raw for a in self.analyses(r.form)}
        if not ra:
            return None
        for a in self.analyses(p.form):
            if a.raw in ra:
                return a.raw
        return None

    def _diff(self, a: Analysis, b: Analysis, openness: Openness) -> list[Finding] | None:
        """Findings that turn reference analysis ``a`` into output analysis ``b``, or None."""
        if a.prefix_tags != b.prefix_tags:
            return None
        out: list[Finding] = []
        if a.preverbs != b.preverbs:
            pa = tuple(x for x in a.preverbs if x != self.ati_tag)
            pb = tuple(x for x in b.preverbs if x != self.ati_tag)
            if pa != pb:
                return None
            na, nb = len(a.preverbs) - len(pa), len(b.preverbs) - len(pb)
            if nb > na:
                out.append(
                    Finding(
                        PROGRESSIVE_AMBIGUITY,
                        openness.progressive,
                        msg("output adds ati- (progressive): {output} vs {reference}; {reason}", output=b.raw,
                            reference=a.raw, reason=openness.progressive_reason),
                    )
                )
            else:
                out.append(Finding(PROGRESSIVE_UNDERSPEC, False,
                                   msg("output drops the reference's ati- (progressive): {output} vs {reference}",
                                       output=b.raw, reference=a.raw)))
        if a.lemma != b.lemma:
            if not self.lists.synonyms(a.lemma, b.lemma):
                return None
            out.append(Finding(LEMMA_SYNONYM, True,
                               msg("synonyms {output} / {reference}", output=b.lemma, reference=a.lemma)))
        if a.tags != b.tags:
            ma = tuple(self.lists.clusivity_tags.get(t, t) for t in a.tags)
            mb = tuple(self.lists.clusivity_tags.get(t, t) for t in b.tags)
            if ma != mb:
                return None
            out.append(
                Finding(
                    INCLUSIVE_EXCLUSIVE,
                    openness.clusivity,
                    msg("inclusive/exclusive 'we': {output} vs {reference}; {reason}", output="+".join(b.tags),
                        reference="+".join(a.tags), reason=openness.clusivity_reason),
                )
            )
        return out or None

    def _strip_ati(self, form: str) -> str:
        segs = form.split("-")
        return "-".join(s for k, s in enumerate(segs) if not (s == PROGRESSIVE_PREVERB and k < len(segs) - 1))

    def _relation(self, r: Word, p: Word, openness: Openness) -> list[Finding] | None:
        """How output word ``p`` can stand for reference word ``r`` (None: it cannot)."""
        lists = self.lists
        if lists.synonyms(r.form, p.form) and lists.synonym_pos.get(r.form, "") != "V":
            return [Finding(LEMMA_SYNONYM, True,
                            msg("synonyms {output} / {reference}", output=p.form, reference=r.form))]
        if lists.clusivity_words.get(r.form) == p.form:
            return [Finding(INCLUSIVE_EXCLUSIVE, openness.clusivity,
                            msg("inclusive/exclusive 'we': {output} vs {reference}; {reason}", output=p.form,
                                reference=r.form, reason=openness.clusivity_reason))]
        best: list[Finding] | None = None
        ra, pa = self.analyses(r.form), self.analyses(p.form)
        for a in ra:
            for b in pa:
                d = self._diff(a, b, openness)
                if d is not None and (best is None or _cost(d) < _cost(best)):
                    best = d
        if best is not None:
            return best
        sr, sp = self._strip_ati(r.form), self._strip_ati(p.form)
        if sr == sp and r.form != p.form:
            if sp != p.form and sr == r.form:
                return [Finding(PROGRESSIVE_AMBIGUITY, openness.progressive,
                                msg("output adds ati- (progressive): {output} vs {reference}; {reason}",
                                    output=p.form, reference=r.form, reason=openness.progressive_reason))]
            if sr != r.form and sp == p.form:
                return [Finding(PROGRESSIVE_UNDERSPEC, False,
                                msg("output drops the reference's ati- (progressive): {output} vs {reference}",
                                    output=p.form, reference=r.form))]
        if (unmark_length(r.form) == unmark_length(p.form) and length_marks(p.form) < length_marks(r.form)
                and not pa):
            return [
                Finding(
                    VOWEL_LENGTH,
                    False,
                    msg("{output} lacks long-vowel marks ({reference}); vowel length is distinctive in SRO",
                        output=" ".join(p.tokens), reference=r.form),
                )
            ]
        return None

    def _spelling(self, r: Word, p: Word, kind: str) -> list[Finding]:
        out: list[Finding] = []
        if kind == "same":
            if r.plain != p.plain:
                out.append(
                    Finding(
                        LONG_VOWEL_MACRON,
                        True,
                        msg("{output} / {reference}: macron vs circumflex long vowels", output=" ".join(p.tokens),
                            reference=" ".join(r.tokens)),
                    )
                )
            if self.lists.fold_long_vowels(r.written) != self.lists.fold_long_vowels(p.written):
                out.append(
                    Finding(ORTHOGRAPHIC, True, msg("{output} / {reference}: {note}", output=" ".join(p.tokens),
                                                reference=" ".join(r.tokens), note=_spelling_note(r, p)))
                )
            return out
        if ("long_vowel" in r.changes) != ("long_vowel" in p.changes):
            out.append(
                Finding(
                    LONG_VOWEL_MACRON,
                    True,
                    msg("{output} / {reference}: macron vs circumflex long vowels", output=" ".join(p.tokens),
                            reference=" ".join(r.tokens)),
                )
            )
        if kind == "analysis":
            out.append(
                Finding(
                    ORTHOGRAPHIC,
                    True,
                    msg("{output} / {reference}: another form with the same analysis", output=" ".join(p.tokens),
                        reference=" ".join(r.tokens)),
                )
            )
        elif self._convention_differs(r, p):
            out.append(
                Finding(ORTHOGRAPHIC, True, msg("{output} / {reference}: {note}", output=" ".join(p.tokens),
                                                reference=" ".join(r.tokens), note=_spelling_note(r, p)))
            )
        return out

    def _convention_differs(self, r: Word, p: Word) -> bool:
        """Whether two different words were written with different spelling conventions."""
        diff = set(r.changes ^ p.changes) - {"long_vowel"}
        if "fused" in diff:
            both_ati = all(PROGRESSIVE_PREVERB in w.form.split("-")[:-1] for w in (r, p))
            if not both_ati:
                diff.discard("fused")
        return bool(diff)

    def _compare(self, ref: list[Word], out: list[Word], openness: Openness) -> LintResult:
        free_r = list(range(len(ref)))
        free_p = list(range(len(out)))
        pairs: list[tuple[int, int, str, list[Finding]]] = []

        def take(ri: int, pi: int, kind: str, rel: list[Finding]) -> None:
            free_r.remove(ri)
            free_p.remove(pi)
            pairs.append((ri, pi, kind, rel))

        # 1. identical canonical forms (in output order, first free reference word)
        for pi in list(free_p):
            for ri in free_r:
                if ref[ri].form == out[pi].form:
                    take(ri, pi, "same", [])
                    break
        # 2. a common analysis (another surface form of the same word)
        for pi in list(free_p):
            for ri in free_r:
                if self._shared_analysis(ref[ri], out[pi]):
                    take(ri, pi, "analysis", [])
                    break
        # 3. variant relations, cheapest first
        candidates = []
        for ri in free_r:
            for pi in free_p:
                rel = self._relation(ref[ri], out[pi], openness)
                if rel is not None:
                    candidates.append((_cost(rel), abs(ri - pi), ri, pi, rel))
        for _, _, ri, pi, rel in sorted(candidates, key=lambda c: c[:4]):
            if ri in free_r and pi in free_p:
                take(ri, pi, "relation", rel)

        findings: list[Finding] = []
        # 4. leftovers: optional particles
        left_r, left_p = [], []
        for ri in free_r:
            op = self.lists.optional_particles.get(ref[ri].form)
            if op is not None:
                findings.append(
                    Finding(OPTIONAL_PARTICLE, True, msg("reference has {word} ({gloss}): {condition}",
                                                         word=ref[ri].form, gloss=op.gloss, condition=op.condition))
                )
            else:
                left_r.append(ri)
        for pi in free_p:
            op = self.lists.optional_particles.get(out[pi].form)
            if op is not None:
                findings.append(
                    Finding(OPTIONAL_PARTICLE, True, msg("output adds {word} ({gloss}): {condition}",
                                                         word=out[pi].form, gloss=op.gloss, condition=op.condition))
                )
            else:
                left_p.append(pi)
        # 5. word order and per-pair spelling
        order = [pi for ri, pi, _, _ in sorted(pairs)]
        if any(b < a for a, b in pairwise(order)):
            findings.append(Finding(WORD_ORDER, True, msg(
                "output order: {output}; reference order: {reference}",
                output=" ".join(out[pi].form for pi in sorted(pi for _, pi, _, _ in pairs)),
                reference=" ".join(ref[ri].form for ri, _, _, _ in sorted(pairs)))))
        pair_json = []
        for ri, pi, kind, rel in sorted(pairs):
            spell = self._spelling(ref[ri], out[pi], kind)
            findings.extend(spell)
            findings.extend(rel)
            if kind != "same" or spell:
                pair_json.append({"reference": " ".join(ref[ri].tokens), "output": " ".join(out[pi].tokens),
                                  "classes": sorted({f.cls for f in spell + rel}, key=CLASSES.index)})
        findings = _dedupe(findings)
        unpaired_r = [" ".join(ref[i].tokens) for i in left_r]
        unpaired_p = [" ".join(out[i].tokens) for i in left_p]
        notes = [n for n in (self._miss_note(ref[ri], out[pi]) for ri in left_r for pi in left_p) if n]
        if left_r or left_p:
            parts = []
            if unpaired_r:
                parts.append(msg("reference words without counterpart: {words}", words=", ".join(unpaired_r)))
            if unpaired_p:
                parts.append(msg("output words without counterpart: {words}", words=", ".join(unpaired_p)))
            verdict, expl = MISS, msg("{parts}", parts=parts + notes)
        elif any(not f.acceptable for f in findings):
            bad = [f for f in findings if not f.acceptable]
            verdict, expl = MISS, msg("not acceptable: {findings}", findings=[_finding_message(f) for f in bad])
        elif findings:
            verdict, expl = EQUIVALENT, msg("{findings}", findings=[_finding_message(f) for f in findings])
        else:
            verdict, expl = EQUIVALENT, msg("same canonical spelling")
        return LintResult(verdict, findings, pair_json, unpaired_r, unpaired_p, message=expl)

    def _miss_note(self, r: Word, p: Word) -> Message | None:
        ra, pa = self.analyses(r.form), self.analyses(p.form)
        rl = {a.lemma for a in ra}
        for b in pa:
            if b.lemma in rl:
                a = next(x for x in ra if x.lemma == b.lemma)
                return msg("{output}: same lemma {lemma} as {reference}, other inflection ({output_analysis} vs "
                           "{reference_analysis})", output=p.form, lemma=b.lemma, reference=r.form,
                           output_analysis=b.raw, reference_analysis=a.raw)
        return None


def _scripts_used(sc: Scripts, text: str) -> frozenset[str]:
    """The scripts the words of ``text`` are written in (words without letters count for none)."""
    return frozenset(sc.script_of(w) for w in text.split() if any(c.isalpha() for c in w))


def _cost(findings: list[Finding]) -> tuple[int, int]:
    return sum(1 for f in findings if not f.acceptable), len(findings)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str]] = set()
    out = []
    for f in findings:
        k = (f.cls, f.note)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out


def _finding_message(f: Finding) -> Message:
    return msg("{cls}: {note}", cls=f.cls, note=f.message)


def _spelling_note(r: Word, p: Word) -> Message:
    ch = (r.changes | p.changes) - {"long_vowel"}
    parts = []
    if "spacing" in ch:
        parts.append(msg("preverb written apart vs hyphenated"))
    if "fused" in ch:
        parts.append(msg("fused preverb spelling"))
    if "char" in ch:
        parts.append(msg("character spelling (ý/y, apostrophe or hyphen form)"))
    if not parts:
        return msg("spelling")
    note = parts[-1]
    for part in reversed(parts[:-1]):
        note = msg("{first}, {rest}", first=part, rest=note)
    return note


# -- the metric ------------------------------------------------------------------------------

def metric_options(metric: BaseMetric, context: ScoringContext) -> dict[str, Any]:
    """Constructor params (from the card) overlaid with the job's params for this metric."""
    opts = dict(metric.params)
    opts.update(context.metric_params(metric.info.id))
    return opts


def _mode(opts: dict[str, Any], key: str, metric_id: str) -> str:
    v = str(opts.get(key, "auto")).casefold()
    if v not in MODES:
        raise MetricUnavailable(f"{metric_id}: parameter {key} must be one of {', '.join(MODES)}, not {v!r}")
    return v


def analyzer_fn(context: ScoringContext) -> tuple[AnalyseFn | None, dict[str, Any] | None]:
    """The job's strict analyzer as a lookup function, and its {file, sha256}; (None, None) without."""
    analyzer = optional_shared_analyzer(context, "strict")
    if analyzer is None:
        return None, None

    def analyse(form: str) -> tuple[Analysis, ...]:
        return analyzer.analyse(form).analyses

    return analyse, analyzer.info()


def gold_analyses(item: EntryInput) -> list[str]:
    return [v for v in (item.entry.expected_morphology or {}).values() if isinstance(v, str)]


class CrkLinterMetric(BaseMetric):
    """LYSS-eq for Plains Cree: EXACT / EQUIVALENT (with variant classes) / MISS / NO_OUTPUT."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="crk.lint",
        version="1",
        display_name="Cree linter (equivalent match)",
        scale="0-1",
        role="equivalence_verdict",
        label="Cree linter",
        labels={"fr": "Vérificateur cri"},
        validation="heuristic",
        needs_reference=True,
        needs_fst=False,
        produces=("equivalent_match_rate", "equivalent_matches"),
        data_files=("data", "{wordlists_dir}"),  # its word lists
        description="Share of entries whose output is the reference or an acceptable Plains Cree variant of it "
        "(long vowels, preverb spelling, word order, optional particles, synonyms, ambiguity of 'we' and aspect).",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        opts = metric_options(self, context)
        self.clusivity = _mode(opts, "clusivity", self.info.id)
        self.progressive = _mode(opts, "progressive", self.info.id)
        try:
            lists = load_wordlists(opts.get("wordlists_dir"))
        except InputError as exc:
            raise MetricUnavailable(f"word lists of the Cree standard are defective: {exc}") from exc
        analyse, self.fst_info = analyzer_fn(context)
        self.linter = CrkLinter(lists, analyse, Scripts.of(context.target_card))
        self.lists_fingerprint = lists.fingerprint()

    def score_item(self, item: EntryInput) -> EntryScore:
        refs = [r for r in item.entry.references() if r and r.strip()]
        if not refs:
            return EntryScore(None, detail={"verdict": None, "explanation": "no reference",
                                            "explanation_msg": msg("no reference").to_json()})
        res = self.linter.lint_entry(refs, item.predicted, source=item.entry.source, gold=gold_analyses(item),
                                     clusivity=self.clusivity, progressive=self.progressive)
        return EntryScore(1.0 if res.acceptable else 0.0, detail=res.to_detail())

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [self.score_item(it) for it in items]

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """The share of entries judged equivalent: the mean of the entries' 0/1 values."""
        return {"equivalent_match_rate": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        scored = [e for e in per_entry if e.value is not None]
        if not scored:
            return CorpusScore({"equivalent_match_rate": None, "equivalent_matches": None},
                               availability="not_applicable", reason="no entry has a reference or variant")
        verdicts: dict[str, int] = dict.fromkeys(VERDICTS, 0)
        classes: dict[str, int] = dict.fromkeys(CLASSES, 0)
        for e in scored:
            v = e.detail.get("verdict")
            if v in verdicts:
                verdicts[v] += 1
            for c in e.detail.get("classes", ()):
                if c in classes:
                    classes[c] += 1
        matches = verdicts[EXACT] + verdicts[EQUIVALENT]
        extra: dict[str, Any] = {
            "verdicts": verdicts,
            "classes": {c: n for c, n in classes.items() if n},
            "fst": getattr(self, "fst_info", None),
            "wordlists_sha256": getattr(self, "lists_fingerprint", None),
            "clusivity": getattr(self, "clusivity", "auto"),
            "progressive": getattr(self, "progressive", "auto"),
        }
        if extra["fst"] is None:
            extra["note"] = "no strict analyzer: analysis-based relations (synonyms, ati-, clusivity by tags) were off"
        return CorpusScore({"equivalent_match_rate": matches / len(scored), "equivalent_matches": matches}, extra=extra)
