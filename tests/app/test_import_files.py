"""Importing a corpus and runs of it in one call (``import_files``, ``mteval import corpus --runs``,
``mteval import run A B --corpus``): the same rows, hashes, warnings and defects as importing the
files one by one, all in one transaction, with or without the helper process."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

from mteval_gui.app.imports import import_corpus_file, import_files, import_run_file
from mteval_gui.cli import main
from mteval_gui.errors import InputError, StoreError
from mteval_gui.store import Workspace, repo

N = 300


def _write(path, lines) -> None:
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


@pytest.fixture
def files(tmp_path):
    """A plain corpus and runs of every kind: plain, with fields beyond the text, lacking outputs,
    the same outputs as another run, a run id taken by a different run, a hypothesis text file."""
    folder = tmp_path / "files"
    folder.mkdir()
    entries = [{"id": f"e{i:04d}", "source": f"he sleeps {i}", "reference": f"nipâw {i}",
                **({"difficulty": 1 + i % 5} if i % 3 else {})} for i in range(N)]
    head = {"corpus": {"corpus_id": "c", "language_pair": {"source": "eng", "target": "crk"}}}
    _write(folder / "corpus.jsonl", [head, *entries])
    _write(folder / "plain.jsonl", [{"run": {"run_id": "plain", "model_slug": "m1"}},
                                    *({"id": e["id"], "predicted": f"nipâw {i}"} for i, e in enumerate(entries))])
    _write(folder / "rich.jsonl", [{"run": {"run_id": "rich", "temperature": 0.3}},
                                   *({"id": e["id"], "predicted": f"kîwêw {i}", "latency_s": 0.1 * i,
                                      "cost_usd": 1e-5 * i, "usage": {"input_tokens": i}} for i, e in
                                     enumerate(entries))])
    _write(folder / "gaps.jsonl", [{"run": {"run_id": "gaps"}},
                                   *({"id": e["id"], "predicted": None if i % 7 == 0 else "x"}
                                     for i, e in enumerate(entries) if i % 5)])
    (folder / "again.jsonl").write_text((folder / "plain.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    _write(folder / "taken.jsonl", [{"run": {"run_id": "plain"}},
                                    *({"id": e["id"], "predicted": "other"} for e in entries)])
    (folder / "hyp.txt").write_text("".join(f"kinipân {i}\n" for i in range(N)), encoding="utf-8")
    runs = [folder / n for n in ("plain.jsonl", "rich.jsonl", "gaps.jsonl", "again.jsonl", "taken.jsonl",
                                 "hyp.txt")]
    return folder / "corpus.jsonl", runs


def _stored(path) -> dict:
    c = sqlite3.connect(path)
    try:
        return {
            "entries": c.execute("SELECT rowid, * FROM entries ORDER BY corpus_id, position").fetchall(),
            "outputs": c.execute("SELECT rowid, * FROM outputs ORDER BY run_id, position").fetchall(),
            "corpora": c.execute("SELECT corpus_id, version, source_lang, target_lang, license, metadata, sha256,"
                                 " entry_count, source_path FROM corpora ORDER BY corpus_id").fetchall(),
            "runs": c.execute("SELECT run_id, corpus_id, model_slug, temperature, meta, content_sha256, source_path,"
                              " status, dataset_id, language_pair FROM runs ORDER BY run_id").fetchall(),
        }
    finally:
        c.close()


def _said(results) -> list[tuple]:
    return [(r.kind, r.id, r.created, r.count, r.format, r.corpus_id, r.warnings) for r in results]


def _one_by_one(db, corpus, runs) -> list:
    ws = Workspace(db)
    try:
        results = [import_corpus_file(ws, corpus)]
        results += [import_run_file(ws, r, corpus_id="c") for r in runs]
    finally:
        ws.close()
    return results


@pytest.mark.parametrize("helper", [False, True], ids=["here", "helper"])
def test_files_imported_together_are_stored_as_one_by_one(tmp_path, files, helper):
    corpus, runs = files
    alone = _one_by_one(tmp_path / "alone.sqlite", corpus, runs)
    ws = Workspace(tmp_path / "together.sqlite")
    seen = []
    together = import_files(ws, corpus, runs, helper=helper, on_progress=seen.append)
    ws.close()
    assert _said(together) == _said(alone)
    assert [r.created for r in together] == [True, True, True, True, False, True, True]
    assert any("no output" in w for w in together[3].warnings)
    assert together[5].id == "plain-2"
    assert _stored(tmp_path / "together.sqlite") == _stored(tmp_path / "alone.sqlite")
    assert (seen[0].done, seen[-1].done, seen[-1].total) == (0, 7, 7)


@pytest.mark.parametrize("helper", [False, True], ids=["here", "helper"])
def test_runs_of_a_corpus_already_there_are_stored_as_one_by_one(tmp_path, files, helper):
    corpus, runs = files
    alone = _one_by_one(tmp_path / "alone.sqlite", corpus, runs)
    ws = Workspace(tmp_path / "together.sqlite")
    first = import_corpus_file(ws, corpus)
    together = [first, *import_files(ws, None, runs, corpus_id="c", helper=helper)]
    ws.close()
    assert _said(together) == _said(alone)
    assert _stored(tmp_path / "together.sqlite") == _stored(tmp_path / "alone.sqlite")


def test_more_files_than_sqlite_attaches_at_once_are_all_stored(tmp_path, files):
    # the helper's rows come in staging files attached to the transaction: past SQLite's 10, read here
    corpus, runs = files
    many = []
    for k in range(12):
        p = tmp_path / f"many{k}.jsonl"
        p.write_text(runs[0].read_text(encoding="utf-8").replace('"plain"', f'"many{k}"').replace(
            "nipâw", f"nipâw{k}"), encoding="utf-8")
        many.append(p)
    alone = _one_by_one(tmp_path / "alone.sqlite", corpus, many)
    ws = Workspace(tmp_path / "together.sqlite")
    together = import_files(ws, corpus, many, helper=True)
    ws.close()
    assert _said(together) == _said(alone)
    assert _stored(tmp_path / "together.sqlite") == _stored(tmp_path / "alone.sqlite")


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


BAD_RUNS = {
    "unknown.jsonl": '{"id": "e0001", "predicted": "a"}\n{"id": "nope", "predicted": "b"}\n',
    "broken.jsonl": '{"id": "e0001", "predicted": "a"}\n{"id": "e0002", "predicted": \n',
    "twice.jsonl": '{"id": "e0001", "predicted": "a"}\n{"id": "e0001", "predicted": "b"}\n',
}


@pytest.mark.parametrize("helper", [False, True], ids=["here", "helper"])
@pytest.mark.parametrize("bad", sorted(BAD_RUNS))
@pytest.mark.parametrize("at", [0, 2, 5])
def test_a_refused_file_leaves_the_workspace_unchanged(tmp_path, files, helper, bad, at):
    corpus, runs = files
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    ws.close()
    before = _digest(db)
    wrong = tmp_path / bad
    wrong.write_text(BAD_RUNS[bad], encoding="utf-8")
    batch = [*runs[:at], wrong, *runs[at:]]
    # the defects the one-file importer reports for it
    other = Workspace(tmp_path / "other.sqlite")
    import_corpus_file(other, corpus)
    with pytest.raises(InputError) as alone:
        import_run_file(other, wrong, corpus_id="c")
    other.close()
    ws = Workspace(db)
    with pytest.raises(InputError) as together:
        import_files(ws, corpus, batch, helper=helper)
    assert [str(d) for d in together.value.defects] == [str(d) for d in alone.value.defects]
    assert repo.counts(ws) == dict.fromkeys(repo.counts(ws), 0)
    ws.close()
    assert _digest(db) == before


@pytest.mark.parametrize("helper", [False, True], ids=["here", "helper"])
def test_a_refused_corpus_writes_nothing(tmp_path, files, helper):
    _corpus, runs = files
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "e0000", "source": "one"}\n{"id": "e0000", "source": "two"}\n', encoding="utf-8")
    ws = Workspace(tmp_path / "ws.sqlite")
    with pytest.raises(InputError) as ei:
        import_files(ws, bad, runs, source_lang="eng", target_lang="crk", helper=helper)
    assert "duplicate id 'e0000'" in str(ei.value)
    assert repo.counts(ws)["corpora"] == 0
    ws.close()


def test_a_new_workspace_is_made_only_when_the_files_are_imported(tmp_path, files):
    corpus, runs = files
    alone = _one_by_one(tmp_path / "alone.sqlite", corpus, runs[:2])
    ws = Workspace(tmp_path / "new.sqlite", defer_create=True)
    with pytest.raises(InputError):
        import_files(ws, corpus, [runs[0], tmp_path / "missing.jsonl"])
    assert not (tmp_path / "new.sqlite").exists()
    together = import_files(ws, corpus, runs[:2])
    ws.close()
    assert _said(together) == _said(alone)
    assert _stored(tmp_path / "new.sqlite") == _stored(tmp_path / "alone.sqlite")


def test_mteval_import_takes_runs_with_their_corpus_and_several_runs(tmp_path, files, capsys):
    corpus, runs = files
    db = str(tmp_path / "ws.sqlite")
    assert main(["--db", db, "import", "corpus", str(corpus), "--runs", str(runs[0]), str(runs[1])]) == 0
    out = capsys.readouterr().out
    assert "imported corpus c: 300 entries (jsonl)" in out
    assert "imported run plain for corpus c: 300 outputs (jsonl)" in out
    assert "imported run rich for corpus c: 300 outputs (jsonl)" in out
    assert main(["--db", db, "import", "run", str(runs[2]), str(runs[3]), "--corpus", "c"]) == 0
    out = capsys.readouterr().out
    assert "imported run gaps for corpus c" in out
    assert "run already imported as plain; nothing changed" in out
    assert main(["--db", db, "import", "run", str(runs[4]), str(runs[5])]) != 0
    assert "give --corpus" in capsys.readouterr().err
    ws = Workspace(db)
    assert [r["run_id"] for r in repo.list_runs(ws)] and repo.counts(ws)["runs"] == 3
    ws.close()


def test_a_helper_that_cannot_write_its_rows_is_a_store_error_and_nothing_is_written(tmp_path, files, monkeypatch):
    corpus, runs = files

    def full(path, rows):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(repo, "stage_entry_rows", full)
    monkeypatch.setattr(repo, "stage_output_rows", full)
    ws = Workspace(tmp_path / "ws.sqlite")
    with pytest.raises(StoreError, match="disk is full"):
        import_files(ws, corpus, runs, helper=True)
    assert repo.counts(ws) == dict.fromkeys(repo.counts(ws), 0)
    ws.close()
