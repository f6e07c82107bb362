"""Full-text search of entries: the same answers as the entries view's substring filter, kept in sync."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from mteval_gui.app.entry_frame import EntryFilter, EntryFrame, RunColumns, filter_mask
from mteval_gui.domain.corpus import Corpus, LanguagePair
from mteval_gui.domain.run import Run, RunMeta
from mteval_gui.io.records import make_entry, make_output
from mteval_gui.store import Workspace, repo
from mteval_gui.store.schema import MIGRATIONS, _v6
from mteval_gui.store.search import search_enabled, search_entries, search_positions

SOURCES = ["He sees the dog", "She walks to the river", "The \"quoted\" word", "Ahcâhk nipâw", "Two dogs"]
REFERENCES = ["wâpamêw atimwa", None, "kinosêw", "ahcâhk nipâw", "nîso atimwak"]
OUTPUTS = {"a": ["wapamew atim", "pimohtêw sîpîhk", "", "AHCÂHK NIPÂW", "niso atimwak"],
           "b": ["wâpamêw", "x", "quoted", "y", "atimwak"]}


def _corpus(cid: str, sources: list[str], refs: list[str | None]) -> Corpus:
    return Corpus.model_construct(
        corpus_id=cid,
        version="1",
        language_pair=LanguagePair(source="eng", target="crk"),
        license=None,
        attribution=None,
        description=None,
        metadata={},
        entries=[make_entry(f"e{i}", s, r) for i, (s, r) in enumerate(zip(sources, refs, strict=True))],
    )


def _run(run_id: str, cid: str, texts: list[str]) -> Run:
    run = Run(meta=RunMeta(run_id=run_id, model_slug=run_id), corpus_id=cid, outputs=[])
    run.outputs = [make_output(f"e{i}", t) for i, t in enumerate(texts)]
    return run


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path / "ws.sqlite")
    repo.add_corpus(w, _corpus("c", SOURCES, REFERENCES))
    for rid, texts in OUTPUTS.items():
        repo.import_run(w, _run(rid, "c", texts))
    repo.add_corpus(w, _corpus("other", ["the dog elsewhere"], ["atim"]))  # never in the answers for "c"
    yield w
    w.close()


def _numpy(ws: Workspace, runs: list[str], text: str) -> list[int]:
    cols = repo.entry_columns(ws, "c", ("entry_id", "source", "reference"))
    frame = EntryFrame("c", np.array(cols["entry_id"], dtype=object), np.array(cols["source"], dtype=object),
                       np.array(cols["reference"], dtype=object), np.full(len(SOURCES), np.nan))
    for r in runs:
        out = repo.output_columns(ws, r, ("predicted", "error"))
        frame.runs.append(
            RunColumns(r, r, np.array(out["predicted"], dtype=object), np.array(out["error"], dtype=object))
        )
    return np.flatnonzero(filter_mask(frame, EntryFilter(text=text))).tolist()


@pytest.mark.parametrize("text", ["dog", "DOG", "ahcâhk", "Ahcâhk nipâw", "wâpamêw", "atimwak", '"quoted"', "quoted",
                                  "iver", "zzz-nothing", "at", "w", "  the dog  "])
def test_the_index_answers_like_the_substring_filter(ws, text):
    assert search_enabled(ws)
    expected = _numpy(ws, ["a", "b"], text)
    assert search_positions(ws, "c", text, run_ids=["a", "b"]) == expected


def test_literal_answers_and_fields(ws):
    assert search_entries(ws, "c", "atim", run_ids=["a"]) == ["e0", "e4"]
    assert search_entries(ws, "c", "atim") == ["e0", "e4"]  # references only
    assert search_entries(ws, "c", "wâpamêw", run_ids=["b"], fields=["output"]) == ["e0"]
    assert search_entries(ws, "c", "wâpamêw", run_ids=["b"], fields=["source"]) == []
    assert search_entries(ws, "c", "AHCÂHK NIPÂW", fields=["source"]) == ["e3"]
    assert search_positions(ws, "c", "") == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="unknown search field"):
        search_positions(ws, "c", "x", fields=["note"])


def test_the_index_follows_replacement_and_deletion(ws):
    repo.add_corpus(ws, _corpus("c", ["a new source about a cat"], ["minôs"]), replace=True)
    assert search_entries(ws, "c", "dog") == []
    assert search_entries(ws, "c", "cat") == ["e0"]
    assert search_entries(ws, "c", "wâpamêw", run_ids=["a", "b"]) == []  # the runs went with the old corpus
    repo.import_run(ws, _run("n", "c", ["minôsis"]))
    assert search_entries(ws, "c", "minôsis", run_ids=["n"]) == ["e0"]
    repo.delete_run(ws, "n")
    assert search_entries(ws, "c", "minôsis", run_ids=["n"]) == []
    repo.delete_corpus(ws, "c")
    assert search_entries(ws, "c", "cat") == []
    ws.conn.execute("INSERT INTO entries_fts(entries_fts) VALUES('integrity-check')")  # raises if out of sync
    ws.conn.execute("INSERT INTO outputs_fts(outputs_fts) VALUES('integrity-check')")
    assert ws.conn.execute("SELECT COUNT(*) FROM fts_indexed").fetchone()[0] == 0


def test_imports_do_not_index_the_first_search_does(ws):
    repo.import_run(ws, _run("late", "c", ["sîpiy"] * 5))
    marked = lambda: {tuple(r) for r in ws.conn.execute("SELECT kind, id FROM fts_indexed")}  # noqa: E731
    assert ("run", "late") not in marked()
    assert search_positions(ws, "c", "sîpiy", run_ids=["late"]) == [0, 1, 2, 3, 4]
    assert ("run", "late") in marked()


def test_a_read_only_workspace_searches_by_scanning(ws):
    path = ws.path
    ws.close()
    ro = Workspace(path, read_only=True)
    assert search_entries(ro, "c", "river") == ["e1"]
    ro.close()


def test_an_older_workspace_gets_its_index_on_migration(tmp_path):
    path = tmp_path / "old.sqlite"
    w = Workspace(path)
    repo.add_corpus(w, _corpus("c", SOURCES, REFERENCES))
    repo.import_run(w, _run("a", "c", OUTPUTS["a"]))
    for t in ("entries", "outputs"):
        w.db[t].disable_fts()
    w.conn.execute("DROP TABLE fts_indexed")
    w.conn.execute(f"PRAGMA user_version={MIGRATIONS.index(_v6)}")  # the version before the indexes
    w.close()
    w = Workspace(path)
    assert search_entries(w, "c", "pimohtêw", run_ids=["a"]) == ["e1"]
    w.close()


def test_a_migration_step_using_sqlite_utils_stays_one_transaction(tmp_path):
    from mteval_gui.store.search import database_in_transaction

    conn = sqlite3.connect(str(tmp_path / "x.sqlite"), isolation_level=None)
    conn.execute("CREATE TABLE t (a TEXT)")
    conn.execute("BEGIN IMMEDIATE")
    database_in_transaction(conn)["t"].enable_fts(["a"], fts_version="FTS5", tokenize="trigram", create_triggers=True)
    assert conn.in_transaction  # sqlite3's executescript would have committed here
    conn.execute("ROLLBACK")
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["t"]
