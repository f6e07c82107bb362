"""Rows handed over in staging files (written by another process) are stored exactly as rows
written directly, however many files one transaction copies."""

from __future__ import annotations

import sqlite3

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta, Usage
from mteval_gui.errors import InputError
from mteval_gui.store import Workspace, repo


def _corpus() -> Corpus:
    entries = [Entry(id=f"e{i}", source=f"source {i}", reference=None if i % 4 == 0 else f"ref {i}",
                     difficulty=1 + i % 5 if i % 3 else None, domain="news" if i == 5 else None,
                     phenomena=["negation"] if i == 7 else [], metadata={"k": i} if i == 8 else {})
               for i in range(600)]
    return Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries)


def _run(k: int) -> Run:
    outputs = [Output(id=f"e{i}", predicted=f"out {k} {i}" if i % 9 else "",
                      latency_s=0.25 * i if i % 50 == 1 else None,
                      usage=Usage(input_tokens=i) if i == 301 else None, error="boom" if i == 302 else None)
               for i in range(600) if i != 17]
    return Run(meta=RunMeta(run_id=f"r{k}", model_slug="m"), corpus_id="c", outputs=outputs)


def _stored(path) -> list:
    c = sqlite3.connect(path)
    try:
        return [c.execute("SELECT rowid, * FROM entries ORDER BY position").fetchall(),
                c.execute("SELECT rowid, * FROM outputs ORDER BY run_id, position").fetchall(),
                c.execute("SELECT corpus_id, sha256, entry_count FROM corpora").fetchall(),
                c.execute("SELECT run_id, content_sha256, meta FROM runs ORDER BY run_id").fetchall()]
    finally:
        c.close()


def test_staged_rows_are_stored_as_direct_ones_past_the_files_sqlite_attaches_at_once(tmp_path):
    runs = 12  # SQLite attaches at most 10 files to a connection: the rest are read and inserted
    direct = Workspace(tmp_path / "direct.sqlite")
    repo.add_corpus(direct, _corpus(), source_path="c.jsonl")
    for k in range(runs):
        repo.import_run(direct, _run(k), source_path=f"r{k}.jsonl")
    direct.close()

    staged = Workspace(tmp_path / "staged.sqlite")
    corpus = repo.prepare_corpus(_corpus(), "c.jsonl")
    order = corpus.order()
    repo.stage_entry_rows(str(tmp_path / "corpus.stage"), corpus.rows or [])
    corpus.rows, corpus.stage = None, str(tmp_path / "corpus.stage")
    prepared = []
    for k in range(runs):
        p = repo.prepare_run(_run(k), order, where=f"r{k}.jsonl")
        repo.stage_output_rows(str(tmp_path / f"r{k}.stage"), p.rows or [])
        p.rows, p.stage = None, str(tmp_path / f"r{k}.stage")
        prepared.append(p)
    with staged.transaction() as conn:
        repo.write_corpus(conn, corpus, source_path="c.jsonl", replace=False, where="c.jsonl")
        for k, p in enumerate(prepared):
            repo.write_run(conn, p, language_pair="eng-crk", source_path=f"r{k}.jsonl")
    repo.detach_stages(conn)
    assert not [r for r in conn.execute("PRAGMA database_list") if str(r[1]).startswith("stage")]
    staged.close()
    a, b = _stored(tmp_path / "direct.sqlite"), _stored(tmp_path / "staged.sqlite")
    assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2]
    assert [r[:2] for r in a[3]] == [r[:2] for r in b[3]]


def _plain_run(ids: list[str], texts: list[str | None]) -> tuple[Run, Run]:
    """The same plain run with its outputs as a list of models and as columns."""
    from mteval_gui.domain.columns import PlainColumns
    from mteval_gui.io.records import _plain_output_model

    columns = PlainColumns("output", {"id": ids, "predicted": texts}, _plain_output_model)
    meta = RunMeta(run_id="r", model_slug="m")
    as_list = Run(meta=meta, corpus_id="c", outputs=list(columns))
    as_columns = Run(meta=meta, corpus_id="c").model_copy(update={"outputs": columns})
    return as_list, as_columns


def test_plain_outputs_held_as_columns_make_the_rows_and_hash_of_their_models():
    order = [(f"e{i}", i) for i in range(50)]
    ids = [eid for eid, _ in order]
    cases = {
        "every entry in order": (ids, [f"t{i}" if i % 7 else None for i in range(50)]),
        "some missing": (ids[::2], [f"t{i}" for i in range(25)]),
        "another order": (ids[::-1], [f"t{i}" for i in range(50)]),
    }
    for name, (run_ids, texts) in cases.items():
        as_list, as_columns = _plain_run(run_ids, texts)
        a = repo.prepare_run(as_list, order, where="r.jsonl")
        b = repo.prepare_run(as_columns, order, where="r.jsonl")
        assert (a.rows, a.sha256, a.missing, a.count) == (b.rows, b.sha256, b.missing, b.count), name
    as_list, as_columns = _plain_run([*ids[:3], "nope", ids[1]], ["a", "b", "c", "d", "e"])
    errors = []
    for run in (as_list, as_columns):
        try:
            repo.prepare_run(run, order, locations={"nope": 4}, where="r.jsonl")
        except InputError as exc:
            errors.append([str(d) for d in exc.defects])
    assert errors[0] == errors[1] == ["r.jsonl:4: unknown id 'nope': not in corpus 'c'", "r.jsonl: duplicate id 'e1'"]
