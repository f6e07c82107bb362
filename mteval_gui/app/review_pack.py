"""Offline review packs: export one HTML file per speaker, merge the answers it exports.

:func:`export_review_pack` picks the items of a task (A: ratings of every entry; B: the pairs
the linter called EQUIVALENT; C: the words the analyzer rejected), with each entry's source,
the output, the reference (unless blind) and the neighbouring entries of the same document
(entries sharing ``metadata.document`` / ``doc_id`` / ``document_id``, else ``segment``), plus
the reviewer's earlier answers on those items so the pack continues the same judgment log.
Items of a document also offer to rate the whole document once (task D; per run and document,
not in a blind pack of several runs): the pack data lists the ``documents``, each item names its
own (``doc``), and the pack's record keeps (run, document, first entry, first item) of each.
When the target card declares transliterations, each reference is embedded in every script they
reach (the page shows the reviewer's); when the language's generator is installed, task A items
embed the generator's forms for the output's words (:mod:`mteval_gui.app.generator`), each with
the corrected output it makes, so a speaker offline picks one as the correction.
The file is written by :mod:`mteval_gui.io.review_pack` and the pack is recorded in the
workspace (``review_packs``): its id, its content hash, its reviewer, task and items.

:func:`import_pack_answers` (also reached through ``mteval judgments import`` and the GUI's
judgment import, which recognise the answers format) refuses, with the reason, a file whose
pack this workspace did not export, whose pack hash is not that pack's (a file from another
pack), or whose answers were altered after export (their HMAC, keyed with the pack's secret
key, does not match; :mod:`mteval_gui.io.review_pack`); otherwise the answers become judgments
merged with the lossless rules of :func:`mteval_gui.store.judgments.import_log`. Answers of a
pack that a withdrawal deleted, and a withdrawn reviewer's answers, are skipped with a notice
naming the withdrawal (:mod:`mteval_gui.store.consent`). In blind
packs the runs are not named anywhere in the file: items are numbers that only the
workspace's record of the pack resolves.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mteval_gui import __version__
from mteval_gui.app.documents import DocumentIndex
from mteval_gui.app.generator import CorrectionHelper, corrected_output
from mteval_gui.app.settings import analyzer_folder
from mteval_gui.cards import error_categories, try_load_card
from mteval_gui.domain.judgments import CHECK_DROPPED_KEYS, ERROR_CATEGORIES, Judgment
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.errors import Defect, InputError, MtevalError, StoreError
from mteval_gui.io import review_pack as packio
from mteval_gui.store import consent, repo
from mteval_gui.store import judgments as jstore
from mteval_gui.store.db import Workspace
from mteval_gui.store.packs import PackRecord, get_pack, record_pack

TASKS = {"a": "A", "b": "B", "c": "C"}
UI_LANGUAGES = ("en", "fr")


@dataclass
class PackExport:
    path: Path
    pack_id: str
    content_sha256: str
    items: int
    bytes: int
    fonts: list[dict[str, Any]] = field(default_factory=list)
    missing_characters: list[str] = field(default_factory=list)


def _queue(ws: Workspace, run_ids: Sequence[str], reviewer_id: str, task: str, limit: int | None,
           blind: bool, seed: int, select: str = "first") -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """(run_id, entry_id, word, extra) items of the pack, in pack order."""
    from mteval_gui.app.audits import fst_audit_queue, linter_audit_queue

    items: list[tuple[str, str, str | None, dict[str, Any]]]
    if task == "A" and select != "first":
        from mteval_gui.app.sampling import select_items

        chosen = select_items(ws, run_ids, limit, select, seed)
        if blind:
            import random

            random.Random(f"{reviewer_id}\x1f{seed}").shuffle(chosen)
        else:  # the same entry's outputs side by side, entry after entry
            from mteval_gui.app.sampling import candidate_items

            position = {it: k for k, it in enumerate(candidate_items(ws, run_ids))}
            chosen.sort(key=position.__getitem__)
        return [(r, e, None, {}) for r, e in chosen]
    if task == "A":
        queue = jstore.review_queue(ws, run_ids, reviewer_id, randomise=blind, seed=seed)
        if not blind:  # the same entry's outputs side by side, entry after entry
            order = {r: i for i, r in enumerate(run_ids)}
            positions: dict[tuple[str, str], int] = {}
            for run_id in run_ids:
                corpus_id = repo.get_run_info(ws, run_id)["corpus_id"]
                for p, e in enumerate(repo.entry_ids(ws, corpus_id)):
                    positions[(run_id, e)] = p
            queue.sort(key=lambda it: (positions[it], order[it[0]]))
        items = [(r, e, None, {}) for r, e in queue]
    elif task == "B":
        found = linter_audit_queue(ws, run_ids)
        if blind:
            import random

            random.Random(f"{reviewer_id}\x1f{seed}").shuffle(found)
        items = [(q["run_id"], q["entry_id"], None, {"classes": list(q["classes"])}) for q in found]
    else:
        items = [(r, e, w, {}) for r, e, w in fst_audit_queue(ws, run_ids, limit=limit, seed=seed)]
    return items[:limit] if limit is not None else items


@dataclass(frozen=True)
class DocumentUnit:
    """A document a pack offers to rate (task D): one per run and document among the pack's items."""

    run_id: str
    document: str
    entry_id: str  # the document's first entry in corpus order (where its ratings are kept)
    item: int  # the first pack item of the document
    entries: int  # the document's entries in the corpus


def _history_rows(ws: Workspace, reviewer_id: str, task: str,
                  items: list[tuple[str, str, str | None, dict[str, Any]]],
                  checks: Mapping[int, Any] | None = None,
                  documents: Sequence[DocumentUnit] = ()) -> list[dict[str, Any]]:
    """The reviewer's earlier versions of the pack's judgments, as pack log rows (check items have none);
    the document ratings of ``documents`` carry ``doc``, the unit's index."""
    found: list[tuple[int, int | None, Judgment]] = []
    for n, (run_id, entry_id, word, _) in enumerate(items):
        if checks and n in checks:
            continue
        for j in jstore.judgment_history(ws, reviewer_id, run_id, entry_id, task, word):
            found.append((n, None, j))
    for k, unit in enumerate(documents):
        probe = Judgment(reviewer_id=reviewer_id, run_id=unit.run_id, entry_id=unit.entry_id, task="D",
                         payload={"document": unit.document})
        for j in jstore.judgment_versions(ws, probe):
            found.append((unit.item, k, j))
    found.sort(key=lambda it: it[2].judgment_id or 0)
    local = {j.judgment_id: i + 1 for i, (_, _, j) in enumerate(found)}
    rows = []
    for n, doc, j in found:
        payload = dict(j.payload)
        row = {"id": local[j.judgment_id], "item": n, "version": j.version, "created_at": j.created_at,
               "adequacy": j.adequacy, "fluency": j.fluency, "note": j.note, "flagged": j.flagged,
               "payload": payload, "superseded_by": local.get(j.superseded_by) if j.superseded_by else None,
               "undone": j.undone}
        if doc is not None:
            row["doc"] = doc
        rows.append(row)
    return rows


QueueItem = tuple[str, str, str | None, dict[str, Any]]


def insert_checks(ws: Workspace, queue: list[QueueItem], n_checks: int, n_repeats: int, seed: int,
                  reviewer_id: str) -> tuple[list[QueueItem], dict[int, dict[str, Any]]]:
    """The queue with ``n_checks`` attention checks and ``n_repeats`` repeated items inserted (seeded), and
    ``{queue index: check}``; a check's extra ``output`` is its known-bad text
    (:func:`mteval_gui.validation.quality.perturb`). Review packs and the desktop's queue
    (:mod:`mteval_gui.app.desktop_checks`) both insert their checks with it."""
    import random

    from mteval_gui.validation.quality import CHECK_KINDS, interleave, perturb, sample_checks

    texts: dict[tuple[str, str], str | None] = {}

    def text_of(run_id: str, entry_id: str) -> str | None:
        """The output to perturb or repeat (None: a system error or an empty output)."""
        if (run_id, entry_id) not in texts:
            out = repo.get_output(ws, run_id, entry_id)
            texts[(run_id, entry_id)] = None if out.error or not (out.predicted or "").strip() else out.predicted
        return texts[(run_id, entry_id)]

    rng = random.Random(f"{reviewer_id}\x1f{seed}")
    corpus_entries: dict[str, list[str]] = {}

    def other_output(run_id: str, entry_id: str, text: str) -> str | None:
        """Another entry's output of the same run (a few seeded tries), for a wrong-sentence check."""
        if run_id not in corpus_entries:
            corpus_entries[run_id] = repo.entry_ids(ws, repo.get_run_info(ws, run_id)["corpus_id"])
        ids = corpus_entries[run_id]
        for _ in range(20):
            other = ids[rng.randrange(len(ids))]
            t = text_of(run_id, other) if other != entry_id else None
            if t is not None and t.strip() != text.strip():
                return t
        return None

    bases: list[int] = []
    checks: list[dict[str, Any]] = []
    for k, i in enumerate(sample_checks(len(queue), len(queue), f"{reviewer_id}\x1f{seed}")):
        if len(checks) >= n_checks:
            break
        run_id, entry_id, _, _ = queue[i]
        text = text_of(run_id, entry_id)
        if text is None:
            continue
        for kind in CHECK_KINDS[k % 3:] + CHECK_KINDS[:k % 3]:
            other = other_output(run_id, entry_id, text) if kind == "wrong_sentence" else None
            bad = perturb(kind, text, other=other, seed=f"{reviewer_id}\x1f{seed}\x1f{i}")
            if bad is not None:
                bases.append(i)
                checks.append({"check": "attention", "kind": kind, "output": bad})
                break
    repeatable: list[int] = []  # the first n_repeats sampled items with an output (read only until they are found)
    for i in sample_checks(len(queue), len(queue), f"repeat\x1f{reviewer_id}\x1f{seed}"):
        if len(repeatable) >= n_repeats:
            break
        if text_of(queue[i][0], queue[i][1]) is not None:
            repeatable.append(i)
    for i in repeatable:
        bases.append(i)
        checks.append({"check": "repeat", "kind": None, "output": None})
    order = interleave(len(queue), bases, f"{reviewer_id}\x1f{seed}")
    items: list[QueueItem] = []
    placed: dict[int, dict[str, Any]] = {}
    for is_check, k in order:
        if is_check:
            run_id, entry_id, _, _ = queue[bases[k]]
            placed[len(items)] = checks[k]
            items.append((run_id, entry_id, None, {}))
        else:
            items.append(queue[k])
    return items, placed


def export_review_pack(
    ws: Workspace, run_ids: Sequence[str], reviewer_id: str, output: str | Path, *, task: str = "a",
    entries: int | None = None, blind: bool = False, ui_lang: str | None = None, seed: int = 0,
    select: str = "first", checks: int = 0, repeats: int = 0,
    share: Sequence[tuple[str, str]] | None = None, campaign: str | None = None,
    reference_script: str | None = None,
) -> PackExport:
    """Write the review pack of ``run_ids`` for ``reviewer_id`` to ``output`` and record it.

    ``select`` chooses the entries (:data:`mteval_gui.validation.sampling.SELECT_MODES`, task A);
    ``checks`` attention checks and ``repeats`` repeated items are inserted among them (task A),
    known only to the workspace's record of the pack (``meta["checks"]``). ``share`` (task A): the
    (run, entry) items to ask, in this order (a campaign's share of one reviewer, ``campaign``
    naming it), instead of choosing among every entry of the runs. ``reference_script``: the script
    the pack shows the reference in first (the reviewer's; the page toggles between the scripts the
    target card's transliterations reach)."""
    from mteval_gui.validation.sampling import SELECT_MODES

    task_code = TASKS.get(task.lower())
    if task_code is None:
        raise MtevalError(f"task {task!r} is not one of a, b, c")
    if select not in SELECT_MODES:
        raise MtevalError(f"--select {select!r} is not one of {', '.join(SELECT_MODES)}")
    if checks < 0 or repeats < 0:
        raise MtevalError("--checks and --repeats must be 0 or more")
    if (checks or repeats or select != "first") and task_code != "A":
        raise MtevalError("--select, --checks and --repeats apply to task a (ratings)")
    if not run_ids:
        raise MtevalError("name at least one run")
    if entries is not None and entries < 1:
        raise MtevalError("--entries must be at least 1")
    if ui_lang is not None and ui_lang not in UI_LANGUAGES:
        raise MtevalError(f"interface language {ui_lang!r} is not one of {', '.join(UI_LANGUAGES)}")
    reviewer = jstore.get_reviewer(ws, reviewer_id)
    if reviewer is None:
        raise StoreError(f"unknown reviewer {reviewer_id!r} (add one with `mteval reviewers add`)")
    runs = []
    for run_id in run_ids:
        if not repo.run_exists(ws, run_id):
            raise StoreError(f"unknown run {run_id!r}")
        runs.append(repo.get_run_info(ws, run_id))
    corpora = {r["corpus_id"]: repo.get_corpus_info(ws, r["corpus_id"]) for r in runs}
    targets = {c["target_lang"] for c in corpora.values()}
    sources = {c["source_lang"] for c in corpora.values()}
    if len(targets) > 1 or len(sources) > 1:
        raise MtevalError("a review pack covers one language pair: these runs translate "
                          + ", ".join(sorted(f"{c['source_lang']}-{c['target_lang']}" for c in corpora.values())))
    target, source = targets.pop(), sources.pop()
    card = try_load_card(target)
    scripts = Scripts.of(card)
    script_names = [scripts.primary, *scripts.others] if scripts else []
    if reference_script is not None and reference_script not in script_names:
        raise MtevalError(f"reference script {reference_script!r}: the {target} card reaches "
                          + (", ".join(script_names) if script_names else "no other script (no transliteration)"))
    helper = CorrectionHelper(analyzer_folder(ws))

    if share is not None:
        if task_code != "A":
            raise MtevalError("a list of items is asked in task A only")
        queue: list[tuple[str, str, str | None, dict[str, Any]]] = [(r, e, None, {}) for r, e in share]
        if blind:  # a blind reviewer cannot tell the system from the position
            import random

            random.Random(f"{reviewer_id}\x1f{seed}").shuffle(queue)
    else:
        queue = _queue(ws, list(run_ids), reviewer_id, task_code, entries, blind, seed, select)
    pack_id = "rp-" + secrets.token_hex(6)
    placed: dict[int, dict[str, Any]] = {}
    if queue and (checks or repeats):
        queue, placed = insert_checks(ws, queue, checks, repeats, seed, reviewer_id)
    if not queue:
        raise MtevalError({"A": "the runs have no entries", "B": "no pair of these runs was called EQUIVALENT by a "
                           "linter (score them with the language's linter first)",
                           "C": "the analyzer rejected no word in these runs (or they were scored without one)"}
                          [task_code])
    corpus_entries = {cid: repo.get_entries(ws, cid) for cid in corpora}
    indexes = {cid: {e.id: i for i, e in enumerate(es)} for cid, es in corpus_entries.items()}
    documents = {cid: DocumentIndex(es) for cid, es in corpus_entries.items()}
    run_corpus = {r["run_id"]: r["corpus_id"] for r in runs}
    labels = {r["run_id"]: r.get("model_slug") or r["run_id"] for r in runs}
    # documents to rate (task D), one per run and document; in a blind pack of several runs they would
    # group each system's items, so they are offered there only with a single run
    rate_documents = task_code == "A" and (not blind or len(set(run_ids)) == 1)
    units: dict[tuple[str, str], int] = {}
    doc_units: list[DocumentUnit] = []
    items = []
    for n, (run_id, entry_id, word, extra) in enumerate(queue):
        cid = run_corpus[run_id]
        entry = corpus_entries[cid][indexes[cid][entry_id]]
        out = repo.get_output(ws, run_id, entry_id)
        bad = placed.get(n, {}).get("output")
        item: dict[str, Any] = {"entry_id": entry_id, "source": entry.source,
                                "output": bad if bad is not None else out.predicted or ""}
        if out.error:
            item["error"] = out.error
        if not blind:
            item["run_label"] = labels[run_id]
            if entry.reference is not None:
                item["reference"] = entry.reference
                if scripts:
                    item["reference_scripts"] = {sc: scripts.to_script(entry.reference, sc) or entry.reference
                                                 for sc in script_names}
            if task_code == "A" and not out.error:
                forms = _generator_forms(helper, target, card, entry, out.predicted or "")
                if forms:
                    item["forms"] = forms
        elif task_code == "B" and entry.reference is not None:
            item["reference"] = entry.reference  # the pair is the question itself
        if word is not None:
            item["word"] = word
        item.update(extra)
        context = documents[cid].context_items(indexes[cid][entry_id], blind)
        if context:
            item["context"] = context
        doc = documents[cid].docs[indexes[cid][entry_id]]
        if rate_documents and doc is not None and n not in placed:
            if (run_id, doc) not in units:
                members = documents[cid].members[doc]
                units[(run_id, doc)] = len(doc_units)
                doc_units.append(DocumentUnit(run_id, doc, corpus_entries[cid][members[0]].id, n, len(members)))
            item["doc"] = units[(run_id, doc)]
        items.append(item)

    categories = [{"id": c} for c in ERROR_CATEGORIES]
    categories += [{"id": c.id, "label": c.label or c.id} for c in (card.error_categories if card else [])
                   if c.id in error_categories(card)]
    created = jstore.now_iso()
    answers_key = packio.new_answers_key()
    data: dict[str, Any] = {
        "format": packio.PACK_FORMAT, "pack_id": pack_id, "created_at": created, "harness_version": __version__,
        "answers_key": answers_key,
        "task": task_code, "blind": blind, "ui_lang": ui_lang,
        "reviewer": {"reviewer_id": reviewer.reviewer_id, "name": reviewer.name},
        "language": {"source": source, "target": target,
                     "target_name": (card.names.get(target) or card.name) if card else target},
        "categories": categories, "items": items,
        "log": _history_rows(ws, reviewer_id, task_code, queue, placed, doc_units),
    }
    if doc_units:
        data["documents"] = [{"document": u.document, "entries": u.entries, "item": u.item,
                              **({} if blind else {"run_label": labels[u.run_id]})} for u in doc_units]
    if script_names:
        data["scripts"] = script_names
        data["reference_script"] = reference_script
    data["content_sha256"] = packio.content_sha256(data)
    card_scripts = card.scripts if card else ["Latn"]
    text_for_fonts = (packio.canonical_json(data) + packio.ui_text()
                      + packio.script_repertoire(card_scripts, card.orthography.alphabet if card else None))
    fonts = packio.plan_fonts(text_for_fonts, card_scripts)
    html_text = packio.render_pack(data, fonts, f"{data['language']['target_name']} — {reviewer.name} ({pack_id})")
    path = packio.write_pack(output, html_text)
    record_pack(ws, PackRecord(pack_id, reviewer_id, task_code, data["content_sha256"],
                               [(r, e, w) for r, e, w, _ in queue],
                               {"runs": list(run_ids), "blind": blind, "entries": entries, "seed": seed,
                                "ui_lang": ui_lang, "path": str(path), "select": select,
                                **({"campaign": campaign} if campaign else {}),
                                **({"documents": [[u.run_id, u.document, u.entry_id, u.item] for u in doc_units]}
                                   if doc_units else {}),
                                **({"checks": {str(n): {"check": c["check"], "kind": c["kind"]}
                                               for n, c in placed.items()}} if placed else {})},
                               created, answers_key))
    return PackExport(path, pack_id, data["content_sha256"], len(items), path.stat().st_size,
                      [{"family": f.family, "file": f.file, "characters": f.characters, "woff_bytes": f.woff_bytes}
                       for f in fonts.fonts], fonts.missing)


def pack_scripts(ws: Workspace, run_ids: Sequence[str]) -> tuple[str | None, list[str]]:
    """The target language of the runs and the scripts its card's transliterations reach (the first
    script first; empty without a table or when the runs translate into several languages)."""
    targets = {repo.get_corpus_info(ws, repo.get_run_info(ws, r)["corpus_id"])["target_lang"]
               for r in run_ids if repo.run_exists(ws, r)}
    if len(targets) != 1:
        return None, []
    target = targets.pop()
    scripts = Scripts.of(try_load_card(target))
    return target, ([scripts.primary, *scripts.others] if scripts else [])


def _generator_forms(helper: CorrectionHelper, lang: str, card: Any, entry: Any,
                     predicted: str) -> list[dict[str, Any]]:
    """The generator's forms for the words of one output (:mod:`mteval_gui.app.generator`), each with
    the whole corrected output it makes, so the pack offers them offline; empty without a generator."""
    words = helper.suggestions(lang, entry, predicted, card) or []
    out = []
    for w in words:
        d = w.to_json()
        for f in d["forms"]:
            f["corrected"] = corrected_output(predicted, w.token, f["form"])
        out.append(d)
    return out


def import_pack_answers(ws: Workspace, path: str | Path) -> dict[str, Any]:
    """Merge a pack's answers file into the workspace (all or nothing, refused with the reason)."""
    from mteval_gui.app.review import category_problems

    read = packio.read_answers(path)
    name = read.name
    if read.defects:
        raise InputError(read.defects)
    assert read.pack_id is not None and read.reviewer_id is not None
    pack = get_pack(ws, read.pack_id)
    gone = consent.withdrawals(ws.conn)
    withdrawn = next((w for w in gone.values() if read.pack_id in w.pack_ids), gone.get(read.reviewer_id))
    if pack is None and withdrawn is not None:  # the withdrawal deleted the pack: its answers never return
        n = len(read.raw_answers)
        return {"reviewers_added": 0, "reviewers_unchanged": 0, "judgments_added": 0, "judgments_unchanged": 0,
                "judgments_withdrawn": n, "notices": [withdrawn.notice(name, n)], "pack_id": read.pack_id}
    if pack is None:
        raise InputError(Defect(name, None, f"review pack {read.pack_id} was not exported from this workspace: "
                                            "import its answers into the workspace that made the pack"))
    if pack.content_sha256 != read.pack_sha256:
        raise InputError(Defect(name, None, f"these answers are for another pack: their pack hash "
                                            f"{str(read.pack_sha256)[:12]}… is not the hash of pack {pack.pack_id} "
                                            f"({pack.content_sha256[:12]}…)"))
    problems = []
    if read.reviewer_id != pack.reviewer_id:
        problems.append(Defect(name, 1,
                               f"reviewer {read.reviewer_id!r} is not the pack's reviewer {pack.reviewer_id!r}"))
    if read.task != pack.task:
        problems.append(Defect(name, 1, f"task {read.task!r} is not the pack's task {pack.task!r}"))
    if problems:
        raise InputError(problems)
    digest = packio.answers_digest_problem(read, pack.answers_key)
    if digest is not None:
        raise InputError(Defect(name, None, digest))
    rows, defects = packio.answer_rows(read)
    judgments: list[tuple[int | None, Judgment]] = []
    cache: dict[str, tuple[str, ...]] = {}
    for line, a in rows:
        n = a["item"]
        if not 0 <= n < len(pack.items):
            defects.append(Defect(name, line,
                                  f"item {n} is not in pack {pack.pack_id} (it has {len(pack.items)} items)"))
            continue
        run_id, entry_id, word = pack.items[n]
        if "doc" in a:  # a rating of the whole document (task D)
            unit = _document_unit(pack, a["doc"])
            if unit is None:
                defects.append(Defect(name, line, f"document {a['doc']} is not one pack {pack.pack_id} offers to rate"))
                continue
            if unit[3] != n:
                defects.append(Defect(name, line, f"item {n} is not the first item of document {a['doc']} "
                                                  f"(item {unit[3]})"))
                continue
            try:
                j = Judgment(judgment_id=a["id"], reviewer_id=pack.reviewer_id, run_id=unit[0], entry_id=unit[2],
                             task="D", adequacy=a.get("adequacy"), fluency=a.get("fluency"), note=a.get("note"),
                             payload={"document": unit[1]}, version=a["version"], created_at=a.get("created_at"),
                             superseded_by=a.get("superseded_by"), undone=a.get("undone", False))
            except ValidationError as exc:
                for err in exc.errors():
                    loc = ".".join(str(p) for p in err.get("loc", ()))
                    defects.append(Defect(name, line, f"{loc}: {err.get('msg')}"))
                continue
            judgments.append((line, j))
            continue
        raw_payload = a.get("payload")
        payload: dict[str, Any] = dict(raw_payload) if isinstance(raw_payload, dict) else {}
        if word is not None:
            payload = {**payload, "word": word}
        check = (pack.meta.get("checks") or {}).get(str(n))
        task_of = pack.task
        if isinstance(check, dict):  # a check item: its rating is never a rating of the real entry
            task_of = "check"
            payload = {k: v for k, v in payload.items() if k not in CHECK_DROPPED_KEYS}
            payload.update({"check": check.get("check"), "check_id": f"{pack.pack_id}/{n}"})
            if check.get("kind"):
                payload["kind"] = check["kind"]
        try:
            j = Judgment(judgment_id=a["id"], reviewer_id=pack.reviewer_id, run_id=run_id, entry_id=entry_id,
                         task=task_of, adequacy=a.get("adequacy"), fluency=a.get("fluency"),  # type: ignore[arg-type]
                         note=a.get("note"), flagged=a.get("flagged", False), payload=payload,
                         version=a["version"], created_at=a.get("created_at"), superseded_by=a.get("superseded_by"),
                         undone=a.get("undone", False))
        except ValidationError as exc:
            for err in exc.errors():
                loc = ".".join(str(p) for p in err.get("loc", ()))
                defects.append(Defect(name, line, f"{loc}: {err.get('msg')}"))
            continue
        defects += [Defect(name, line, p) for p in category_problems(ws, j, cache)]
        judgments.append((line, j))
    summary = jstore.import_log(ws, [], judgments, file=name, defects=defects, local_ids=True)
    return {**summary, "pack_id": pack.pack_id}


def _document_unit(pack: PackRecord, k: int) -> tuple[str, str, str, int] | None:
    """(run, document, first entry, first pack item) of the pack's document ``k`` (None: the pack offers
    no such document)."""
    units = pack.meta.get("documents") or []
    if not 0 <= k < len(units):
        return None
    unit = units[k]
    if not (isinstance(unit, list) and len(unit) == 4 and all(isinstance(x, str) for x in unit[:3])
            and isinstance(unit[3], int)):
        return None
    return unit[0], unit[1], unit[2], unit[3]
