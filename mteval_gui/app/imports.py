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
  corpus's target (the wrong-language judge of code-switching);
- several files at once (:func:`import_files`: a corpus and its runs, or runs of one corpus;
  ``mteval import corpus FILE --runs ...``, ``mteval import run FILE FILE ... --corpus``) are
  read and checked file by file as above, with the same defects, warnings and stored rows, and
  written in one transaction: a refused file leaves the workspace as it was. A forked helper
  prepares files while this process writes (a million-entry corpus and four runs of it: about
  40 s, where one file after another takes about 70 s; ``perf/bench_import_big.py``).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.app.batchgc import batch_gc
from mteval_gui.domain.columns import PlainColumns
from mteval_gui.domain.run import Output, Run
from mteval_gui.errors import Defect, InputError, StoreError
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
           "import_corpus_file", "import_run_file", "import_files", "import_glossary_file", "resolve_report_corpus"]


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
                         target_lang=target_lang, version=version, columns=True)
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
    loaded = read_run(path, fmt, entry_ids=entry_ids, run_id=run_id, corpus_id=corpus_id, model_slug=model_slug,
                      columns=True)
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


@dataclass
class _Job:
    """One file of :func:`import_files`: what to read and how."""

    kind: str  # corpus | run
    path: Path
    fmt: str | None = None


@dataclass
class _Ready:
    """A file of :func:`import_files` read, checked and prepared (its rows in memory or staged)."""

    job: _Job
    prepared: repo.PreparedCorpus | repo.PreparedRun
    format: str
    warnings: list[str]
    sources: dict[str, str] | None = None  # a report's entry sources (run)
    sample: list[Output] = field(default_factory=list)  # the outputs the language check judges (run)
    outputs: int = 0  # the outputs the file holds (run)


def import_files(
    ws: Workspace,
    corpus_file: str | Path | None,
    run_files: Sequence[str | Path] = (),
    *,
    corpus_id: str | None = None,
    corpus_fmt: str | None = None,
    ref_path: str | Path | None = None,
    source_lang: str | None = None,
    target_lang: str | None = None,
    version: str | None = None,
    replace: bool = False,
    run_fmt: str | None = None,
    helper: bool | None = None,
    on_progress: OnProgress | None = None,
) -> list[ImportResult]:
    """Import a corpus file and runs of it, or runs of a corpus already in the workspace
    (``corpus_file`` None, ``corpus_id`` naming it), in one transaction: each file is read and
    checked as :func:`import_corpus_file` and :func:`import_run_file` do, with the same defects,
    warnings and stored rows; a file refused leaves the workspace as it was (none of the files
    is imported). Returns one result per file, the corpus first.

    With ``corpus_file``, ``corpus_id`` and the other corpus options are those of
    :func:`import_corpus_file`. Every run belongs to the batch's corpus (a corpus a run file
    names is not looked for, and a harness report's entries never make a corpus); run ids come
    from the files.

    ``helper``: a forked process reads, checks and prepares the next file while this one writes
    the previous (the rows handed over in a staging file that SQLite copies); None uses one where
    the system can fork and there is more than one file, False does everything here.
    """
    with batch_gc(collect=False):
        return _import_files(ws, corpus_file, list(run_files), corpus_id=corpus_id, corpus_fmt=corpus_fmt,
                             ref_path=ref_path, source_lang=source_lang, target_lang=target_lang, version=version,
                             replace=replace, run_fmt=run_fmt, helper=helper, on_progress=on_progress)


def _import_files(ws: Workspace, corpus_file: str | Path | None, run_files: list[str | Path], *,
                  corpus_id: str | None, corpus_fmt: str | None, ref_path: str | Path | None,
                  source_lang: str | None, target_lang: str | None,
                  version: str | None, replace: bool, run_fmt: str | None, helper: bool | None,
                  on_progress: OnProgress | None) -> list[ImportResult]:
    from mteval_gui import runtime

    jobs = ([_Job("corpus", Path(corpus_file), corpus_fmt)] if corpus_file is not None else []) + \
        [_Job("run", Path(p), run_fmt) for p in run_files]
    if not jobs:
        return []
    order: list[tuple[str, int]] | None = None
    if corpus_file is None:
        if not corpus_id:
            raise InputError(Defect(str(jobs[0].path), None, "choose the corpus these runs belong to (--corpus)"))
        if not repo.corpus_exists(ws, corpus_id):
            raise InputError(Defect(str(jobs[0].path), None,
                                    f"no corpus {corpus_id!r} in the workspace: import the corpus first"))
        order = repo.corpus_order(ws, corpus_id)
    files = _Files(jobs, order, {"corpus_id": corpus_id, "source_lang": source_lang, "target_lang": target_lang,
                                 "version": version, "ref_path": ref_path}, corpus_id)
    if helper is None:
        helper = len(jobs) > 1 and runtime.can_fork()
    total = len(jobs)
    _progress(on_progress, 0, total, "reading")
    if not helper:
        return _write_files(ws, files.here(), corpus_id, replace, total, on_progress)
    stage_dir = tempfile.mkdtemp(prefix="mteval-import-")
    child = None
    try:
        claims = runtime.Claims(len(jobs), start=1 if corpus_file is not None else 0)
        inbox, outbox = runtime.pipe()
        try:
            child = runtime.start(files.in_child, claims, 0 if corpus_file is not None else None, stage_dir, outbox,
                                  method="fork", name="import-reader", quiet=True)
        finally:
            outbox.close()
        try:
            return _write_files(ws, files.shared(claims, inbox, child), corpus_id, replace, total, on_progress)
        finally:
            inbox.close()
    finally:
        if child is not None:
            child.end(grace=1.0)
        shutil.rmtree(stage_dir, ignore_errors=True)


HELD_RUNS = 2  # runs this process reads ahead while the helper prepares the file to write next


class _Files:
    """The files of :func:`import_files`, read, checked and prepared in order.

    With a helper (a forked child), both processes take the next file not taken yet
    (:class:`~mteval_gui.runtime.Claims`): the helper stages the rows of each file it prepares
    (:func:`~mteval_gui.store.repo.stage_entry_rows`) and sends the rest; this process writes
    the files in order, preparing those it took itself in memory, and reads the next run while it
    waits for the helper. The corpus of the batch is the helper's first file; its entry ids come
    back with it (the runs are checked against them)."""

    def __init__(self, jobs: list[_Job], order: list[tuple[str, int]] | None, corpus_options: dict[str, Any],
                 corpus_id: str | None) -> None:
        self.jobs = jobs
        self.order = order
        self.corpus_options = corpus_options
        self.corpus_id = corpus_id

    # ----- one file
    def _corpus(self, job: _Job) -> _Ready:
        loaded = read_corpus(job.path, job.fmt, columns=True, **self.corpus_options)
        prepared = repo.prepare_corpus(loaded.value, str(job.path.resolve()))
        ready = _Ready(job, prepared, loaded.format, loaded.warnings)
        del loaded
        self.order = prepared.order()
        self.corpus_id = prepared.corpus_id
        return ready

    def _read_run(self, job: _Job) -> Any:
        fmt = job.fmt or detect_format(job.path)
        spec = formats.get(fmt)
        aligned = spec is not None and spec.aligned
        entry_ids = [eid for eid, _ in self.order] if aligned and self.order is not None else None
        if aligned and entry_ids is None:
            return None  # read once the corpus's ids are known
        return read_run(job.path, fmt, entry_ids=entry_ids, corpus_id=self.corpus_id, columns=True)

    def _run(self, job: _Job, loaded: Any) -> _Ready:
        assert self.order is not None and self.corpus_id is not None
        if loaded is None:
            loaded = self._read_run(job)
        run = loaded.value
        run.corpus_id = self.corpus_id
        prepared = repo.prepare_run(run, self.order, locations=loaded.lines,
                                    identity=loaded.hints.get("declared_run_id"), where=str(job.path))
        return _Ready(job, prepared, loaded.format, list(loaded.warnings), loaded.hints.get("sources"),
                      language_sample(run.outputs), len(run.outputs))

    def _prepare(self, k: int) -> _Ready:
        job = self.jobs[k]
        return self._corpus(job) if job.kind == "corpus" else self._run(job, None)

    # ----- all in this process
    def here(self) -> Iterator[_Ready]:
        for k in range(len(self.jobs)):
            yield self._prepare(k)

    # ----- the helper's side
    def in_child(self, claims: Any, first: int | None, stage_dir: str, outbox: Any) -> None:
        from mteval_gui import runtime

        box = runtime.Outbox.of(outbox)

        def work() -> None:
            with batch_gc(collect=False):
                k = first if first is not None else claims.take()
                while k is not None:
                    ready = self._prepare(k)
                    p = ready.prepared
                    ids = None
                    stage = str(Path(stage_dir) / f"{k}.sqlite")
                    if isinstance(p, repo.PreparedCorpus):
                        assert self.order is not None
                        ids = "\n".join(eid for eid, _ in self.order)  # the ids in order, as one text
                    try:
                        if isinstance(p, repo.PreparedCorpus):
                            repo.stage_entry_rows(stage, p.rows or [])
                        else:
                            repo.stage_output_rows(stage, p.rows or [])
                    except sqlite3.Error as exc:  # a full disk, most likely
                        raise StoreError(f"{stage}: cannot write the rows of {self.jobs[k].path.name} "
                                         f"for the import: {exc}") from None
                    p.rows, p.stage = None, stage
                    box.partial((k, ready, ids))
                    del ready, p
                    k = claims.take()

        runtime.report(box, work)

    # ----- this process's side
    def shared(self, claims: Any, inbox: Any, child: Any) -> Iterator[_Ready]:
        from mteval_gui import runtime

        held: dict[int, tuple[Any, InputError | None]] = {}  # runs taken and read here (or their defects)
        for k in range(len(self.jobs)):
            if k in held:
                loaded, error = held.pop(k)
                if error is not None:
                    raise error
                ready = self._run(self.jobs[k], loaded)
                del loaded  # the run as read is let go before the next file is read
                yield ready
                del ready
                continue
            # holding none, take the next file not taken yet: file k itself, or a later run (the helper
            # has file k); holding some, file k is the helper's (every file before a held one is taken)
            j = None if held else claims.take()
            if j == k:
                yield self._prepare(k)
                continue
            # while the helper works on file k, read up to HELD_RUNS later runs
            while j is not None:
                try:
                    held[j] = (self._read_run(self.jobs[j]), None)
                except InputError as exc:  # raised when its turn comes (an earlier file may fail first)
                    held[j] = (None, exc)
                j = claims.take() if len(held) < HELD_RUNS and not inbox.poll() else None
            msg: Any = None
            while not isinstance(msg, runtime.PartialMsg):
                try:
                    msg = inbox.recv()
                except (EOFError, OSError):
                    child.join(5)
                    raise runtime.ChildFailed(f"the process reading the files ended unexpectedly "
                                              f"(exit code {child.exitcode})") from None
                if isinstance(msg, runtime.FailedMsg):
                    raise msg.error
            got, ready, ids = msg.value
            del msg
            if got != k:
                raise runtime.ChildFailed(f"the process reading the files sent file {got + 1} for file {k + 1}")
            if ids is not None:
                self.order = list(zip(ids.split("\n"), range(ready.prepared.count), strict=True))
                self.corpus_id = ready.prepared.corpus_id
            del ids
            yield ready
            del ready


def _write_files(ws: Workspace, prepared: Any, corpus_id: str | None, replace: bool, total: int,
                 on_progress: OnProgress | None) -> list[ImportResult]:
    from mteval_gui import runtime

    results: list[ImportResult] = []
    samples: list[tuple[ImportResult, int, list[Output], str]] = []
    pending = ws.pending  # the workspace file is made when the transaction commits: judge the samples after
    conn = None
    try:
        with ws.transaction() as conn:
            pair = ""
            if corpus_id is not None:
                row = conn.execute("SELECT source_lang, target_lang FROM corpora WHERE corpus_id = ?",
                                   (corpus_id,)).fetchone()
                pair = f"{row[0]}-{row[1]}" if row is not None else ""
            for done, ready in enumerate(prepared, 1):
                job, p = ready.job, ready.prepared
                if isinstance(p, repo.PreparedCorpus):
                    corpus_id = p.corpus_id
                    pair = f"{p.values['source_lang']}-{p.values['target_lang']}"
                    old = conn.execute("SELECT sha256 FROM corpora WHERE corpus_id = ?", (corpus_id,)).fetchone()
                    if not replace and old is not None and old[0] == p.sha256:
                        results.append(ImportResult(
                            "corpus", corpus_id, False, p.count, ready.format, corpus_id, ready.warnings
                            + [f"corpus {corpus_id!r} is already in the workspace with the same content; "
                               "nothing imported"]))
                    else:
                        source = str(job.path.resolve())
                        repo.write_corpus(conn, p, source_path=source, replace=replace, where=source)
                        results.append(ImportResult("corpus", corpus_id, True, p.count, ready.format, corpus_id,
                                                    ready.warnings))
                else:
                    assert corpus_id is not None
                    warnings = list(ready.warnings)
                    if ready.sources:
                        differ = sum(1 for eid, src in conn.execute(
                            "SELECT entry_id, source FROM entries WHERE corpus_id = ?", (corpus_id,))
                            if eid in ready.sources and ready.sources[eid] != src)
                        if differ:
                            warnings.append(
                                f"{differ} entr{'y' if differ == 1 else 'ies'} of the report have a source text "
                                f"different from corpus {corpus_id!r}")
                    at = len(warnings)
                    if not pending:
                        warnings.extend(sample_language_warnings(ws, ready.sample, corpus_id, job.path.name))
                    res = repo.write_run(conn, p, language_pair=pair, source_path=str(job.path.resolve()))
                    result = ImportResult("run", res.run_id, res.created, ready.outputs, ready.format, corpus_id,
                                          warnings + res.warnings)
                    results.append(result)
                    if pending:  # the language warnings go at ``at`` once judged
                        samples.append((result, at, ready.sample, job.path.name))
                del ready, p  # the rows written are let go before the next file is prepared
                runtime.release_free_memory()
                _progress(on_progress, done, total, "writing")
    finally:
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                repo.detach_stages(conn)
    for result, at, sample, name in samples:
        assert result.corpus_id is not None
        result.warnings[at:at] = sample_language_warnings(ws, sample, result.corpus_id, name)
    _progress(on_progress, total, total, "done")
    return results


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
    return sample_language_warnings(ws, language_sample(run.outputs), corpus_id, file_name)


def sample_language_warnings(ws: Workspace, sample: list[Output], corpus_id: str, file_name: str) -> list[str]:
    """:func:`run_language_warnings` of a run whose outputs sampled (:func:`language_sample`) are ``sample``."""
    info = repo.get_corpus_info(ws, corpus_id)
    src, tgt = info["source_lang"], info["target_lang"]
    out: list[str] = []
    named = language_pair_in_name(file_name)
    if named is not None and (src in named or tgt in named) and named != (src, tgt):
        out.append(f"{file_name}: the file name says {named[0]}→{named[1]}, but corpus {corpus_id!r} is "
                   f"{src}→{tgt}: is this the right corpus?")
    judged = _sample_language(ws, sample, corpus_id, src, tgt)
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


def language_sample(outputs: Sequence[Output]) -> list[Output]:
    """The outputs the import-time language check judges: up to :data:`LANGUAGE_SAMPLE` evenly
    spread over those with a text and no error."""
    if isinstance(outputs, PlainColumns):  # plain outputs (no error): only the sampled ones made
        texts = outputs.columns["predicted"]
        at = [i for i, p in enumerate(texts) if p and p.strip()]
        step = max(1, len(at) // LANGUAGE_SAMPLE)
        return [outputs[i] for i in at[::step][:LANGUAGE_SAMPLE]]
    kept = [o for o in outputs if (o.predicted or "").strip() and not o.error]
    step = max(1, len(kept) // LANGUAGE_SAMPLE)
    return kept[::step][:LANGUAGE_SAMPLE]


def _sample_language(ws: Workspace, sample: list[Output], corpus_id: str, src: str,
                     tgt: str) -> tuple[int, int, Counter[str]] | None:
    from mteval_gui.cards import try_load_card
    from mteval_gui.scoring.metrics.behavioural import expand_scripts, text_scripts, token_script
    from mteval_gui.scoring.metrics.language_id import LanguageJudge
    from mteval_gui.text import match_key, word_tokens

    if not sample:
        return None
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
