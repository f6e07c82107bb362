"""The analyzer-gap report of corpora and runs (``mteval analyzers gaps``, *Analyzers → Analyzer gaps…*).

:func:`collect_gaps` looks up every word of the corpora's references and of the runs' outputs
with the language's strict analyzer (after the card's orthographic folds, as scoring does),
keeps the words it rejects with where they were written — except output words that are words
of the entry's source (an untranslated copy is no gap of the analyzer; words of the card's
loanword list stay), which are only counted — asks the descriptive analyzer (when
installed) for its guess, and reads the speakers' Task C answers of the runs.
:func:`gap_words` ranks and classifies them (:mod:`mteval_gui.validation.gaps`).

The exports for the analyzer's maintainers — the GiellaLT missing-words list and morph-test
YAML — use only the answers of reviewers whose consent allows sharing
(:func:`mteval_gui.app.consent.allows_sharing`): :func:`write_missing_list` and
:func:`write_morph_tests` rebuild the words from those answers alone.

:func:`compare_analyzers` gives the false-rejection rate of the runs' judged words with two
analyzer files (before and after installing a new one), with Wilson intervals.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mteval_gui.app.analyzers import analyzer_root
from mteval_gui.app.consent import allows_sharing
from mteval_gui.app.review import require_runs
from mteval_gui.cards import try_load_card
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analyzer import Analyzer, load_analyzer, sha256_file
from mteval_gui.fst.registry import find_analyzer
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.text import word_tokens
from mteval_gui.validation.audits import WordAnswer, word_verdict
from mteval_gui.validation.gaps import (
    KINDS,
    GapWord,
    Occurrence,
    RateComparison,
    compare_rates,
    gap_report,
    missing_list,
    morph_test_yaml,
    speaker_verdicts,
)

__all__ = ["KINDS", "GapInputs", "GapWord", "RateComparison", "collect_gaps", "compare_analyzers", "gap_words",
           "write_missing_list", "write_morph_tests"]

_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


@dataclass
class GapInputs:
    """What the report is built from (one pass of the analyzers over the texts)."""

    lang: str
    corpus_ids: list[str]
    run_ids: list[str]
    strict: Path
    strict_sha256: str
    descriptive: Path | None
    occurrences: list[Occurrence] = field(default_factory=list)
    accepted: set[str] = field(default_factory=set)
    guesses: dict[str, list[str]] = field(default_factory=dict)
    answers: list[WordAnswer] = field(default_factory=list)
    sharing: set[str] = field(default_factory=set)  # reviewers whose consent allows sharing
    loanwords: list[str] = field(default_factory=list)
    texts: int = 0
    source_copies: int = 0  # rejected output words that are words of the entry's source: left out


def _analyzer(ws: Workspace, lang: str, kind: str, path: str | Path | None) -> Path | None:
    card = try_load_card(lang)
    return find_analyzer(card, kind, lang=lang, path=path, base=analyzer_root(ws))


def _target_language(ws: Workspace, corpus_ids: Sequence[str]) -> str:
    langs = {}
    for corpus_id in corpus_ids:
        langs[corpus_id] = repo.get_corpus_info(ws, corpus_id)["target_lang"]
    found = sorted(set(langs.values()))
    if len(found) != 1:
        raise MtevalError("the corpora have different target languages: "
                          + ", ".join(f"{c} {lang}" for c, lang in langs.items()))
    return found[0]


def collect_gaps(ws: Workspace, corpus_ids: Sequence[str], run_ids: Sequence[str] = (), *,
                 strict: str | Path | None = None, descriptive: str | Path | None = None) -> GapInputs:
    """Look up the references of ``corpus_ids`` and the outputs of ``run_ids`` (runs of those corpora).

    ``strict``/``descriptive``: analyzer files (default: those installed for the language)."""
    if not corpus_ids:
        raise MtevalError("name at least one corpus")
    for corpus_id in corpus_ids:
        repo.get_corpus_info(ws, corpus_id)  # NotFoundError for an unknown corpus
    require_runs(ws, run_ids)
    for run_id in run_ids:
        corpus = repo.get_run_info(ws, run_id)["corpus_id"]
        if corpus not in corpus_ids:
            raise MtevalError(f"run {run_id} is a run of corpus {corpus}, which is not among {', '.join(corpus_ids)}")
    lang = _target_language(ws, corpus_ids)
    strict_path = _analyzer(ws, lang, "strict", strict)
    if strict_path is None:
        raise MtevalError(f"no strict analyzer installed for {lang}: run `mteval analyzers install {lang} PATH_OR_URL`")
    desc_path = _analyzer(ws, lang, "descriptive", descriptive)
    card = try_load_card(lang)
    folds = dict(card.orthography.folds) if card is not None else {}
    inputs = GapInputs(lang, list(corpus_ids), list(run_ids), strict_path, sha256_file(strict_path), desc_path,
                       loanwords=list(card.allowed_loanwords) if card is not None else [])
    analyzer = load_analyzer(strict_path)

    loans = {w.casefold() for w in inputs.loanwords}

    def look_up(text: str | None, corpus_id: str, entry_id: str, run_id: str | None,
                source: frozenset[str] = frozenset()) -> None:
        if not text or not text.strip():
            return
        inputs.texts += 1
        for sentence in _SENTENCE_END.split(text.strip()):
            for i, token in enumerate(word_tokens(sentence)):
                w = analyzer.analyse_folded(token, folds)
                if w.accepted:
                    inputs.accepted.add(token)
                elif token.casefold() in source and token.casefold() not in loans:
                    inputs.source_copies += 1  # the source word copied, not a word of the language
                else:
                    inputs.occurrences.append(Occurrence(token, corpus_id, entry_id, run_id, text, i == 0))

    sources: dict[tuple[str, str], frozenset[str]] = {}
    for corpus_id in corpus_ids:
        for entry in repo.get_entries(ws, corpus_id):
            sources[(corpus_id, entry.id)] = frozenset(t.casefold() for t in word_tokens(entry.source))
            look_up(entry.reference, corpus_id, entry.id, None)
    for run_id in run_ids:
        corpus_id = repo.get_run_info(ws, run_id)["corpus_id"]
        for o in repo.get_outputs(ws, run_id):
            if not o.error:
                look_up(o.predicted, corpus_id, o.id, run_id, sources.get((corpus_id, o.id), frozenset()))
    if desc_path is not None:
        guesser = load_analyzer(desc_path)
        for word in sorted({o.word for o in inputs.occurrences}):
            inputs.guesses[word] = [a.raw for a in guesser.analyse(word).analyses]
    for run_id in run_ids:
        for j in jstore.current_judgments(ws, run_id=run_id, task="C"):
            judged = j.payload.get("word")
            if isinstance(judged, str):
                inputs.answers.append(WordAnswer((j.run_id, j.entry_id, judged), judged, j.reviewer_id,
                                                 j.payload.get("valid"), j.payload.get("kind")))
    inputs.sharing = {r.reviewer_id for r in jstore.list_reviewers(ws) if allows_sharing(r.consent_scope)}
    return inputs


def gap_words(inputs: GapInputs, *, shared_only: bool = False) -> list[GapWord]:
    """The ranked, classified words; ``shared_only``: from the answers of reviewers who allow sharing."""
    answers = [a for a in inputs.answers if not shared_only or a.rater in inputs.sharing]
    return gap_report(inputs.occurrences, inputs.guesses, speaker_verdicts(answers), loanwords=inputs.loanwords,
                      accepted=inputs.accepted)


def _header(inputs: GapInputs) -> list[str]:
    return [f"words the {inputs.lang} strict analyzer {inputs.strict.name} (sha256 {inputs.strict_sha256}) rejects",
            f"in the references of {', '.join(inputs.corpus_ids)}"
            + (f" and the outputs of {', '.join(inputs.run_ids)}" if inputs.run_ids else ""),
            "speakers' answers: only reviewers whose consent allows sharing"]


def write_missing_list(inputs: GapInputs, path: str | Path) -> int:
    """Write the missing-words list (``count word``, most frequent first; typos left out). Returns the lines."""
    words = gap_words(inputs, shared_only=True)
    text = missing_list(words)
    Path(path).write_text(text, encoding="utf-8")
    return text.count("\n")


def write_morph_tests(inputs: GapInputs, path: str | Path) -> int:
    """Write morph-test YAML for the words speakers who allow sharing confirmed. Returns the words written."""
    words = [g for g in gap_words(inputs, shared_only=True) if g.verdicts.confirmed]
    Path(path).write_text(morph_test_yaml(words, section=f"{inputs.lang} words speakers confirmed",
                                          header=_header(inputs)), encoding="utf-8")
    return len(words)


def compare_analyzers(ws: Workspace, run_ids: Sequence[str], old: str | Path, new: str | Path) -> RateComparison:
    """False-rejection rate of the runs' Task C-judged occurrences with the ``old`` and the ``new`` analyzer."""
    if not run_ids:
        raise MtevalError("name the runs whose Task C judgments are compared (--runs)")
    require_runs(ws, run_ids)
    lang = _target_language(ws, sorted({repo.get_run_info(ws, r)["corpus_id"] for r in run_ids}))
    card = try_load_card(lang)
    folds = dict(card.orthography.folds) if card is not None else {}
    answers = [WordAnswer((j.run_id, j.entry_id, w), w, j.reviewer_id, j.payload.get("valid"), j.payload.get("kind"))
               for run_id in run_ids for j in jstore.current_judgments(ws, run_id=run_id, task="C")
               if isinstance(w := j.payload.get("word"), str)]
    by_occ: dict[object, list[WordAnswer]] = {}
    for a in answers:
        if a.valid is not None:
            by_occ.setdefault(a.occurrence, []).append(a)
    judged = [(items[0].word, word_verdict(a.valid for a in items)) for items in by_occ.values()]
    analyzers: list[Analyzer] = []
    for p in (old, new):
        path = find_analyzer(None, "strict", lang=lang, path=p)
        assert path is not None
        analyzers.append(load_analyzer(path))
    words = sorted({w for w, _ in judged})
    old_a, new_a = ({w: a.analyse_folded(w, folds).accepted for w in words} for a in analyzers)
    return compare_rates(judged, old_a, new_a)
