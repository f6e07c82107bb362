"""A failed import leaves the workspace byte-for-byte unchanged; re-imports are recognised."""

from __future__ import annotations

import hashlib
import json

import pytest

from mteval_gui.app.imports import import_corpus_file, import_glossary_file, import_run_file
from mteval_gui.errors import InputError
from mteval_gui.store import Workspace, repo

GOOD = [{"id": "a", "source": "he sleeps", "reference": "nipâw"},
        {"id": "b", "source": "I say so", "reference": "nititwân"},
        {"id": "c", "source": "you leave", "reference": "kisipwêhtân"}]


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def seeded(tmp_path):
    db = tmp_path / "ws.sqlite"
    ws = Workspace(db)
    c = tmp_path / "good.jsonl"
    c.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in GOOD) + "\n", encoding="utf-8")
    import_corpus_file(ws, c, corpus_id="k", source_lang="eng", target_lang="crk")
    r = tmp_path / "run.jsonl"
    r.write_text('{"run": {"run_id": "r"}}\n{"id": "a", "predicted": "nipâw"}\n', encoding="utf-8")
    import_run_file(ws, r, corpus_id="k")
    ws.close()
    return db


BAD_CORPORA = {
    "truncated.json": '[{"id": "x", "source": "one"}, {"id": "y", "sou',
    "dups.jsonl": '{"id": "x", "source": "one"}\n{"id": "x", "source": "two"}\n',
    "nosource.tsv": "id\treference\n1\tx\n",
    "empty.jsonl": '{"id": "x", "source": ""}\n',
    "badutf8.jsonl": b'{"id": "x", "source": "caf\xe9"}\n',
    "difficulty.jsonl": '{"id": "x", "source": "one", "difficulty": 9}\n',
}


@pytest.mark.parametrize("name", sorted(BAD_CORPORA))
def test_failed_corpus_import_changes_nothing(seeded, tmp_path, name):
    before = _digest(seeded)
    p = tmp_path / name
    content = BAD_CORPORA[name]
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    ws = Workspace(seeded)
    counts = repo.counts(ws)
    with pytest.raises(InputError) as ei:
        import_corpus_file(ws, p, source_lang="eng", target_lang="crk")
    assert all(d.file == str(p) for d in ei.value.defects)
    assert repo.counts(ws) == counts
    ws.close()
    assert _digest(seeded) == before


def test_failed_run_imports_change_nothing(seeded, tmp_path):
    before = _digest(seeded)
    ws = Workspace(seeded)
    counts = repo.counts(ws)
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"id": "a", "predicted": "x"}\n{"id": "q", "predicted": "y"}\n{"id": "w", "predicted": "z"}\n')
    with pytest.raises(InputError) as ei:
        import_run_file(ws, unknown, corpus_id="k")
    assert [str(d) for d in ei.value.defects] == [f"{unknown}:2: unknown id 'q': not in corpus 'k'",
                                                  f"{unknown}:3: unknown id 'w': not in corpus 'k'"]
    mismatch = tmp_path / "hyp.txt"
    mismatch.write_text("nipâw\nnititwân\n")
    with pytest.raises(InputError, match="line-count mismatch: the file has 2 lines but the corpus has 3 entries"):
        import_run_file(ws, mismatch, corpus_id="k")
    with pytest.raises(InputError, match="no corpus 'nope'"):
        import_run_file(ws, unknown, corpus_id="nope")
    bad_gloss = tmp_path / "g.tsv"
    bad_gloss.write_text("water\n")
    with pytest.raises(InputError):
        import_glossary_file(ws, bad_gloss)
    assert repo.counts(ws) == counts
    ws.close()
    assert _digest(seeded) == before


def test_reimports_are_recognised(seeded, tmp_path):
    ws = Workspace(seeded)
    c = tmp_path / "good.jsonl"
    res = import_corpus_file(ws, c, corpus_id="k", source_lang="eng", target_lang="crk")
    assert res.created is False and "same content" in res.warnings[0]
    res = import_run_file(ws, tmp_path / "run.jsonl", corpus_id="k", run_id="another-name")
    assert (res.id, res.created) == ("r", False)
    hyp = tmp_path / "sysA.txt"
    hyp.write_text("nipâw\n\nkisipwêhtân\n")
    first = import_run_file(ws, hyp, corpus_id="k")
    again = import_run_file(ws, hyp, corpus_id="k", run_id="other")
    assert (first.id, first.created, again.id, again.created) == ("sysA", True, "sysA", False)
    assert len(repo.list_runs(ws)) == 2
    ws.close()
