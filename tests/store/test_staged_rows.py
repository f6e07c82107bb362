"""Rows handed over in staging files (written by another process) are stored exactly as rows
written directly, however many files one transaction copies."""

from __future__ import annotations

import sqlite3

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta, Usage
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
