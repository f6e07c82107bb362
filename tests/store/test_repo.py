"""Workspace repositories: corpora, runs, outputs, glossaries, settings."""

from __future__ import annotations

import hashlib

import pytest

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta, Usage
from mteval_gui.errors import InputError, StoreError
from mteval_gui.store import repo


def make_corpus(cid="c1", n=4) -> Corpus:
    entries = [Entry(id=f"e{i}", source=f"source {i}", reference=f"ref {i}", variants=[f"var {i}"] if i == 1 else [],
                     terminology={"source": ["ref"]} if i == 2 else {}, difficulty=(i % 5) + 1,
                     provenance={"source_name": "demo"} if i == 3 else "hand", metadata={"k": i})
               for i in range(1, n + 1)]
    return Corpus(corpus_id=cid, version="2", language_pair=LanguagePair(source="eng", target="crk"),
                  license="CC0", entries=entries)


def make_run(run_id="r1", ids=("e1", "e2", "e3", "e4"), corpus_id="c1", **meta) -> Run:
    outs = [Output(id=i, predicted=f"out {i}", latency_s=0.5, usage=Usage(prompt_tokens=3, completion_tokens=1))
            for i in ids]
    return Run(meta=RunMeta(run_id=run_id, model_slug="sys", **meta), corpus_id=corpus_id, outputs=outs)


def test_corpus_round_trip(workspace):
    c = make_corpus()
    assert repo.add_corpus(workspace, c, source_path="/x/c.json") == "c1"
    got = repo.get_corpus(workspace, "c1")
    assert got.model_dump() == c.model_dump()
    assert [e.id for e in repo.get_entries(workspace, "c1")] == ["e1", "e2", "e3", "e4"]
    assert repo.get_entry(workspace, "c1", "e3").provenance_label == "demo"
    rows = repo.list_corpora(workspace)
    assert [(r["corpus_id"], r["entry_count"], r["run_count"], r["source_path"]) for r in rows] == [
        ("c1", 4, 0, "/x/c.json")
    ]
    assert rows[0]["sha256"] == repo.corpus_sha256(c)
    assert len(rows[0]["sha256"]) == 64


def test_duplicate_corpus_id_is_an_input_error_unless_replace(workspace):
    repo.add_corpus(workspace, make_corpus())
    with pytest.raises(InputError, match="corpus 'c1' is already in the workspace with the same content"):
        repo.add_corpus(workspace, make_corpus())
    repo.add_run(workspace, make_run())
    repo.add_corpus(workspace, make_corpus(n=2), replace=True)
    assert len(repo.get_entries(workspace, "c1")) == 2
    assert repo.list_runs(workspace) == []


def test_corpus_hash_depends_on_content():
    a, b = make_corpus(), make_corpus()
    assert repo.corpus_sha256(a) == repo.corpus_sha256(b)
    b.entries[0].reference = "other"
    assert repo.corpus_sha256(a) != repo.corpus_sha256(b)


def test_run_round_trip_with_missing_outputs(workspace):
    repo.add_corpus(workspace, make_corpus())
    run = make_run(ids=("e3", "e1"), temperature=0.2, system_prompt="Translate.")
    run.outputs[1].error = "HTTP 503"
    run.outputs[1].predicted = ""
    res = repo.import_run(workspace, run)
    assert (res.run_id, res.created, res.missing_ids) == ("r1", True, ["e2", "e4"])
    assert res.warnings == ["2 corpus entries have no output (scored as empty output): 'e2', 'e4'"]
    got = repo.get_run(workspace, "r1")
    assert [o.id for o in got.outputs] == ["e1", "e2", "e3", "e4"]
    e1, e2, e3, _ = got.outputs
    assert (e1.predicted, e1.error, e1.usage.total_tokens) == ("", "HTTP 503", 4)
    assert (e2.predicted, e2.model_extra) == ("", {"missing": True})
    assert (e3.predicted, e3.latency_s, e3.model_extra) == ("out e3", 0.5, {})
    assert got.meta.temperature == 0.2
    assert got.meta.system_prompt_sha256 == hashlib.sha256(b"Translate.").hexdigest()
    pairs = repo.entry_outputs(workspace, "r1")
    assert [(e.id, o.id) for e, o in pairs] == [("e1", "e1"), ("e2", "e2"), ("e3", "e3"), ("e4", "e4")]
    assert pairs[0][0].reference == "ref 1"
    (row,) = repo.list_runs(workspace, "c1")
    assert (row["run_id"], row["n_outputs"], row["n_missing"], row["n_errors"], row["n_empty"]) == ("r1", 4, 2, 1, 3)
    assert (row["dataset_id"], row["language_pair"], row["model_slug"], row["status"]) == (
        "c1",
        "eng-crk",
        "sys",
        "imported",
    )
    assert row["has_run_card"] is False and "run_card" not in row


def test_unknown_output_ids_all_listed_with_lines(workspace):
    repo.add_corpus(workspace, make_corpus())
    run = make_run(ids=("e1", "zz", "e2", "yy"))
    with pytest.raises(InputError) as ei:
        repo.add_run(workspace, run, source_path="r.jsonl", locations={"e1": 2, "zz": 3, "e2": 4, "yy": 5})
    assert [str(d) for d in ei.value.defects] == [
        "r.jsonl:3: unknown id 'zz': not in corpus 'c1'",
        "r.jsonl:5: unknown id 'yy': not in corpus 'c1'",
    ]
    assert repo.counts(workspace)["runs"] == 0


def test_reimport_is_detected_and_id_clash_is_suffixed(workspace):
    repo.add_corpus(workspace, make_corpus())
    assert repo.add_run(workspace, make_run()) == ("r1", True)
    assert repo.add_run(workspace, make_run()) == ("r1", False)
    assert repo.add_run(workspace, make_run(run_id="renamed")) == ("r1", False)
    other = make_run()
    other.outputs[0].predicted = "different"
    res = repo.import_run(workspace, other)
    assert (res.run_id, res.created, res.renamed_from) == ("r1-2", True, "r1")
    assert repo.add_run(workspace, make_run(), identity="declared-A") == ("r1-3", True)
    assert [r["run_id"] for r in repo.list_runs(workspace)] == ["r1", "r1-2", "r1-3"]
    assert repo.counts(workspace)["outputs"] == 12


def test_run_needs_existing_corpus(workspace):
    with pytest.raises(InputError, match="no corpus 'c1' in the workspace"):
        repo.add_run(workspace, make_run())


def test_delete_run_and_corpus_cascade(workspace):
    repo.add_corpus(workspace, make_corpus())
    repo.add_run(workspace, make_run())
    assert repo.delete_run(workspace, "r1") is True
    assert repo.delete_run(workspace, "r1") is False
    assert repo.counts(workspace)["outputs"] == 0
    repo.add_run(workspace, make_run())
    assert repo.delete_corpus(workspace, "c1") is True
    assert {k: v for k, v in repo.counts(workspace).items() if k in ("corpora", "entries", "runs", "outputs")} == \
        {"corpora": 0, "entries": 0, "runs": 0, "outputs": 0}
    with pytest.raises(repo.NotFoundError):
        repo.get_run(workspace, "r1")


def test_glossaries(workspace):
    gid = repo.add_glossary(workspace, "Cree terms", {"water": ["nipiy"]}, source_path="g.tsv")
    assert gid == "Cree-terms"
    assert repo.add_glossary(workspace, "Cree terms", {"water": ["nipiy"]}) == "Cree-terms"
    assert repo.add_glossary(workspace, "Cree terms", {"house": ["wâskahikan"]}) == "Cree-terms-2"
    g = repo.get_glossary(workspace, gid)
    assert (g["name"], g["terms"], g["source_path"]) == ("Cree terms", {"water": ["nipiy"]}, "g.tsv")
    assert [(r["glossary_id"], r["term_count"]) for r in repo.list_glossaries(workspace)] == [
        ("Cree-terms", 1),
        ("Cree-terms-2", 1),
    ]


def test_settings(workspace):
    assert repo.get_setting(workspace, "comet_model", "default") == "default"
    repo.set_setting(workspace, "comet_model", {"name": "masakhane/africomet-mtl", "gpus": 0})
    repo.set_setting(workspace, "comet_model", {"name": "x"})
    assert repo.get_setting(workspace, "comet_model") == {"name": "x"}
    repo.set_setting(workspace, "comet_model", None)
    assert repo.get_setting(workspace, "comet_model") is None


def test_column_readers(workspace):
    repo.add_corpus(workspace, make_corpus())
    run = make_run(ids=("e1", "e3"))
    run.outputs[1].error = "timeout"
    run.outputs[0].cached = True
    repo.add_run(workspace, run)
    cols = repo.entry_columns(workspace, "c1")
    assert cols == {"entry_id": ["e1", "e2", "e3", "e4"], "source": ["source 1", "source 2", "source 3", "source 4"],
                    "reference": ["ref 1", "ref 2", "ref 3", "ref 4"], "difficulty": [2, 3, 4, 5]}
    cols = repo.entry_columns(workspace, "c1", ("id", "variants", "terminology", "provenance"))
    assert cols["id"] == ["e1", "e2", "e3", "e4"]
    assert cols["variants"] == [["var 1"], [], [], []]
    assert cols["terminology"] == [{}, {"source": ["ref"]}, {}, {}]
    assert cols["provenance"] == ["hand", "hand", {"source_name": "demo"}, "hand"]
    out = repo.output_columns(workspace, "r1", ("entry_id", "predicted", "error", "missing", "cached", "usage"))
    assert out == {
        "entry_id": ["e1", "e2", "e3", "e4"],
        "predicted": ["out e1", "", "out e3", ""],
        "error": [None, None, "timeout", None],
        "missing": [False, True, False, True],
        "cached": [True, None, None, None],
        "usage": [
            {"completion_tokens": 1, "prompt_tokens": 3},
            None,
            {"completion_tokens": 1, "prompt_tokens": 3},
            None,
        ],
    }
    with pytest.raises(StoreError, match="unknown entry column"):
        repo.entry_columns(workspace, "c1", ("nope",))
