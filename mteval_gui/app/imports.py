"""Importing files into a workspace: read (``io``), check, then write (``store``) in one go.

The GUI import dialogs, the ``mteval import`` commands and the demo builder all go through
these functions, so the rules are the same everywhere:

- a file is read and checked completely before anything is written; any defect raises one
  :class:`~mteval_gui.errors.InputError` and the workspace is left untouched;
- re-importing the same corpus or run is recognised (``created`` is False), not duplicated;
- a harness report (any format that ``carries_corpus`` in the format registry) is imported as a
  run of the corpus its configuration names (``corpus_path``): the workspace corpus with that id
  or file name; when the workspace has no such corpus, the file's own entries (source,
  expected) become the corpus first;
- a run whose language contradicts its corpus is imported with a warning: its file name names
  the opposite direction or another target (``mt5_ewe_fr_news.txt`` into a fra→ewe corpus),
  or at least a fifth of a sample of its outputs are wholly in another language than the
  corpus's target (the wrong-language judge of code-switching).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.app.batchgc import batch_gc
from mteval_gui.domain.run import Run
from mteval_gui.errors import Defect, InputError
from mteval_gui.io import formats
from mteval_gui.io.corpus import read_corpus
from mteval_gui.io.detect import preview
from mteval_gui.io.formats import detect_format
from mteval_gui.io.glossary import read_glossary
from mteval_gui.io.langcodes import ISO1_TO_3
from mteval_gui.io.runs import read_run
from mteval_gui.scoring.progress import Progress
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.repo import NotFoundError

OnProgress = Callable[[Any], None]
__all__ = ["detect_format", "preview", "Progress", "ImportResult",
           "import_corpus_file", "import_run_file", "import_glossary_file", "resolve_report_corpus"]


@dataclass
class ImportResult:
    """What an import did: the id, whether anything was written, counts and warnings."""

    kind: str  # corpus | run | glossary
    id: str
    created: bool
    count: int
    format: str
    corpus_id: str | None = None
    warnings: list[str] = field(default_factory=list)
    also: list[ImportResult] = field(default_factory=list)  # e.g. the corpus created from a report


def _progress(cb: OnProgress | None, done: int, total: int, stage: str) -> None:
    if cb is not None:
        cb(Progress(done, total, stage))


def import_corpus_file(
    ws: Workspace,
    path: str | Path,
    *,
    fmt: str | None = None,
    ref_path: str | Path | None = None,
    corpus_id: str | None = None,
    source_lang: str | None = None,
    target_lang: str | None = None,
    version: str | None = None,
    replace: bool = False,
    on_progress: OnProgress | None = None,
) -> ImportResult:
    """Import a corpus file (and its line-aligned reference file for plain text)."""
    with batch_gc(collect=False):
        return _import_corpus_file(ws, path, fmt=fmt, ref_path=ref_path, corpus_id=corpus_id, source_lang=source_lang,
                                   target_lang=target_lang, version=version, replace=replace, on_progress=on_progress)


def _import_corpus_file(ws: Workspace, path: str | Path, *, fmt: str | None, ref_path: str | Path | None,
                        corpus_id: str | None, source_lang: str | None, target_lang: str | None,
                        version: str | None, replace: bool, on_progress: OnProgress | None) -> ImportResult:
    path = Path(path)
    _progress(on_progress, 0, 3, "reading")
    loaded = read_corpus(path, fmt, ref_path=ref_path, corpus_id=corpus_id, source_lang=source_lang,
                         target_lang=target_lang, version=version)
    corpus = loaded.value
    _progress(on_progress, 1, 3, "checking")
    if not replace and repo.corpus_exists(ws, corpus.corpus_id):
        info = repo.get_corpus_info(ws, corpus.corpus_id)
        if info["sha256"] == repo.corpus_sha256(corpus):
            return ImportResult(
                "corpus",
                corpus.corpus_id,
                False,
                len(corpus.entries),
                loaded.format,
                corpus.corpus_id,
                loaded.warnings
                + [f"corpus {corpus.corpus_id!r} is already in the workspace with the same content; nothing imported"],
            )
    _progress(on_progress, 2, 3, "writing")
    source = str(path.resolve())
    cid = repo.add_corpus(ws, corpus, source_path=source, replace=replace)
    _progress(on_progress, 3, 3, "done")
    return ImportResult("corpus", cid, True, len(corpus.entries), loaded.format, cid, loaded.warnings)


def _report_corpus_candidates(corpus_path: str) -> tuple[str, str]:
    name = corpus_path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name
    for suffix in (".json", ".jsonl"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return name, stem


def resolve_report_corpus(ws: Workspace, corpus_path: str) -> str | None:
    """The workspace corpus a harness report's ``corpus_path`` refers to, if any."""
    if not corpus_path:
        return None
    name, stem = _report_corpus_candidates(corpus_path)
    if stem and repo.corpus_exists(ws, stem):
        return stem
    return repo.find_corpus(ws, source_name=name)


def import_run_file(
    ws: Workspace,
    path: str | Path,
    *,
    corpus_id: str | None = None,
    fmt: str | None = None,
    run_id: str | None = None,
    model_slug: str | None = None,
    create_corpus: bool = True,
    on_progress: OnProgress | None = None,
) -> ImportResult:
    """Import a run file into the workspace.

    ``corpus_id`` may be omitted when the file names its corpus (run metadata
    ``corpus_id``/``dataset_id``, or a harness report's ``corpus_path``).
    """
    with batch_gc(collect=False):
        return _import_run_file(ws, path, corpus_id=corpus_id, fmt=fmt, run_id=run_id, model_slug=model_slug,
                                create_corpus=create_corpus, on_progress=on_progress)


def _import_run_file(ws: Workspace, path: str | Path, *, corpus_id: str | None, fmt: str | None, run_id: str | None,
                     model_slug: str | None, create_corpus: bool, on_progress: OnProgress | None) -> ImportResult:
    path = Path(path)
    fmt = fmt or detect_format(path)
    _progress(on_progress, 0, 3, "reading")
    if corpus_id is not None and not repo.corpus_exists(ws, corpus_id):
        raise InputError(Defect(str(path), None, f"no corpus {corpus_id!r} in the workspace: import the corpus first"))
    spec = formats.get(fmt)
    entry_ids = repo.entry_ids(ws, corpus_id) if (spec is not None and spec.aligned and corpus_id) else None
    loaded = read_run(path, fmt, entry_ids=entry_ids, run_id=run_id, corpus_id=corpus_id, model_slug=model_slug)
    run = loaded.value
    warnings = list(loaded.warnings)
    also: list[ImportResult] = []
    if not corpus_id:
        hinted = loaded.hints.get("corpus_id")
        report_path = loaded.hints.get("corpus_path")
        read_as = formats.get(loaded.format)
        if hinted and repo.corpus_exists(ws, hinted):
            corpus_id = hinted
        elif read_as is not None and read_as.carries_corpus:
            corpus_id = resolve_report_corpus(ws, report_path or "")
            if corpus_id is None:
                if not create_corpus:
                    raise InputError(Defect(str(path), None, f"no corpus for {report_path!r} in the workspace"))
                created = _corpus_from_report(ws, path, loaded.format)
                also.append(created)
                corpus_id = created.id
                warnings.append(f"corpus {corpus_id!r} created from the report's own entries")
        else:
            raise InputError(Defect(str(path), None, "choose the corpus this run belongs to (--corpus)"))
    run.corpus_id = corpus_id
    sources = loaded.hints.get("sources")
    if sources:
        differ = sum(1 for e in repo.get_entries(ws, corpus_id) if e.id in sources and sources[e.id] != e.source)
        if differ:
            warnings.append(
                f"{differ} entr{'y' if differ == 1 else 'ies'} of the report have a source text "
                f"different from corpus {corpus_id!r}"
            )
    warnings.extend(run_language_warnings(ws, run, corpus_id, path.name))
    _progress(on_progress, 1, 3, "checking")
    try:
        res = repo.import_run(ws, run, source_path=str(path.resolve()), locations=loaded.lines,
                              identity=loaded.hints.get("declared_run_id"), file_label=str(path))
    except BaseException:
        for made in also:
            repo.delete_corpus(ws, made.id)
        raise
    _progress(on_progress, 3, 3, "done")
    return ImportResult("run", res.run_id, res.created, len(run.outputs), loaded.format, corpus_id,
                        warnings + res.warnings, also)


def _corpus_from_report(ws: Workspace, path: Path, fmt: str) -> ImportResult:
    """The corpus of a run file that carries its entries (a harness report), under a free id."""
    loaded = read_corpus(path, fmt)
    corpus = loaded.value
    base = corpus.corpus_id
    n = 2
    while repo.corpus_exists(ws, corpus.corpus_id):
        corpus.corpus_id = f"{base}-{n}"
        n += 1
    cid = repo.add_corpus(ws, corpus, source_path=str(path.resolve()))
    return ImportResult("corpus", cid, True, len(corpus.entries), loaded.format, cid, loaded.warnings)


def import_glossary_file(
    ws: Workspace, path: str | Path, *, name: str | None = None, fmt: str | None = None
) -> ImportResult:
    """Import a glossary (JSON or TSV); the name defaults to the file name."""
    path = Path(path)
    loaded = read_glossary(path, fmt)
    gname = name or loaded.hints.get("name") or path.stem
    before = {g["glossary_id"] for g in repo.list_glossaries(ws)}
    gid = repo.add_glossary(ws, gname, loaded.value, source_path=str(path.resolve()))
    created = gid not in before
    warnings = (
        [] if created else [f"glossary {gid!r} is already in the workspace with the same terms; nothing imported"]
    )
    return ImportResult("glossary", gid, created, len(loaded.value), loaded.format, None, warnings)


LANGUAGE_SAMPLE = 200  # outputs judged by the import-time language check
WRONG_LANGUAGE_WARN_SHARE = 0.2
_NAME_TOKEN = re.compile(r"[a-z]+")


def _name_code(token: str, known: frozenset[str]) -> str | None:
    if token in ISO1_TO_3:
        return ISO1_TO_3[token]
    return token if len(token) == 3 and token in known else None


def _known_codes() -> frozenset[str]:
    from mteval_gui.cards import card_codes

    try:
        return frozenset(card_codes())
    except (OSError, ValueError):
        return frozenset()


def language_pair_in_name(name: str) -> tuple[str, str] | None:
    """The first two adjacent language codes of a file name (``mt5_ewe_fr_news.txt`` -> (ewe, fra))."""
    stem = name.rsplit(".", 1)[0].lower() if "." in name else name.lower()
    tokens = _NAME_TOKEN.findall(stem)
    known = _known_codes()
    for a, b in zip(tokens, tokens[1:], strict=False):
        ca, cb = _name_code(a, known), _name_code(b, known)
        if ca and cb and ca != cb:
            return ca, cb
    return None


def run_language_warnings(ws: Workspace, run: Run, corpus_id: str, file_name: str) -> list[str]:
    """Warnings when a run's file name or outputs say another language than its corpus's target."""
    info = repo.get_corpus_info(ws, corpus_id)
    src, tgt = info["source_lang"], info["target_lang"]
    out: list[str] = []
    named = language_pair_in_name(file_name)
    if named is not None and (src in named or tgt in named) and named != (src, tgt):
        out.append(f"{file_name}: the file name says {named[0]}→{named[1]}, but corpus {corpus_id!r} is "
                   f"{src}→{tgt}: is this the right corpus?")
    judged = _sample_language(ws, run, corpus_id, src, tgt)
    if judged is not None:
        wrong, total, by_lang = judged
        if total and wrong / total >= WRONG_LANGUAGE_WARN_SHARE:
            langs = ", ".join(f"{code} ({n})" for code, n in by_lang.most_common())
            out.append(f"{file_name}: {wrong} of {total} sampled outputs are wholly in another language than "
                       f"{tgt} ({langs}): is this the right corpus?")
    return out


def _installed_accepts(ws: Workspace, src: str, tgt: str, card: Any) -> Callable[[str], bool] | None:
    """The target language's strict analyzer as the workspace would score with it (its settings'
    analyzer folder or file), as a word acceptor; None when none is installed or usable."""
    from mteval_gui.app.settings import scoring_options_for
    from mteval_gui.scoring.metrics.structural import installed_target_accepts
    from mteval_gui.scoring.plugins import ScoringContext

    options = scoring_options_for(ws, tgt).to_context()
    return installed_target_accepts(ScoringContext(source_lang=src, target_lang=tgt, target_card=card,
                                                   options=options))


def _sample_language(ws: Workspace, run: Run, corpus_id: str, src: str,
                     tgt: str) -> tuple[int, int, Counter[str]] | None:
    from mteval_gui.cards import try_load_card
    from mteval_gui.scoring.metrics.behavioural import expand_scripts, text_scripts, token_script
    from mteval_gui.scoring.metrics.language_id import LanguageJudge
    from mteval_gui.text import match_key, word_tokens

    outputs = [o for o in run.outputs if (o.predicted or "").strip() and not o.error]
    if not outputs:
        return None
    step = max(1, len(outputs) // LANGUAGE_SAMPLE)
    sample = outputs[::step][:LANGUAGE_SAMPLE]
    tcard, scard = try_load_card(tgt), try_load_card(src)
    # the sampled entries only (building a million Entry objects took a minute); all references
    refs = {}
    for o in sample:
        try:
            refs[o.id] = repo.get_entry(ws, corpus_id, o.id)
        except NotFoundError:
            continue  # an unknown id: the import itself reports it
    reference_texts = repo.entry_texts(ws, corpus_id, "reference")
    judge = LanguageJudge(src, tgt, target_card=tcard, source_card=scard,
                          accepts=_installed_accepts(ws, src, tgt, tcard),
                          loanwords=tcard.allowed_loanwords if tcard is not None else (),
                          script_of=token_script, target_scripts=expand_scripts(tcard.scripts) if tcard else (),
                          source_scripts=expand_scripts(scard.scripts) if scard else (),
                          target_texts=reference_texts)
    if not judge.available:
        return None
    wrong = 0
    by_lang: Counter[str] = Counter()
    for o in sample:
        e = refs.get(o.id)
        references = e.references() if e is not None else []
        neutral = frozenset(match_key(t) for r in references for t in word_tokens(r))
        ref_scripts = set().union(*(text_scripts(r) for r in references)) if tcard is None else None
        src_scripts = (expand_scripts(scard.scripts) if scard is not None
                       else text_scripts(e.source if e is not None else ""))
        verdict = judge.judge(o.predicted or "", neutral, reference=e.reference if e is not None else None,
                              source=e.source if e is not None else None,
                              target_scripts=None if ref_scripts is None else frozenset(ref_scripts - src_scripts))
        if verdict.wrong_language:
            wrong += 1
            by_lang[str(verdict.language)] += 1
    return wrong, len(sample), by_lang
