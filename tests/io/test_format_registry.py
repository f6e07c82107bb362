"""The input-format registry: one entry makes a format detected, read, previewed and offered by the CLI."""

from __future__ import annotations

import argparse

import pytest

from mteval_gui.app.formats import file_patterns, format_choices
from mteval_gui.cli import build_parser, main
from mteval_gui.errors import InputError
from mteval_gui.io import detect_format, formats, preview, read_corpus, read_glossary, read_run
from mteval_gui.store import Workspace, repo
from tests.io.toy_format import toy_registered


def _format_choices(*words: str) -> list[str]:
    parser = build_parser(list(words))
    for word in words:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
    return list(next(a for a in parser._actions if a.dest == "format").choices)


def test_builtin_formats_per_kind():
    assert format_choices("corpus") == ("jsonl", "harness-report", "json", "tsv", "csv", "text")
    assert format_choices("run") == ("jsonl", "harness-report", "json", "text")
    assert format_choices("glossary") == ("json", "tsv")
    assert format_choices("analyzer") == ()
    assert file_patterns("run") == "*.jsonl *.ndjson *.json *.txt"
    assert _format_choices("import", "glossary") == ["json", "tsv"]


def test_a_registered_format_is_detected_read_previewed_and_offered(tmp_path, capsys):
    f = tmp_path / "pairs.psv"
    f.write_text("id|source|reference\n1|bonjour|woezɔ\n2|merci|akpe\n", encoding="utf-8")
    unsuffixed = tmp_path / "pairs.dat"
    unsuffixed.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    with toy_registered():
        assert "psv" in format_choices("corpus") and "psv" not in format_choices("run")
        assert _format_choices("import", "corpus")[-3:] == ["psv", "psv-report", "text"]
        assert "psv" not in _format_choices("import", "run")
        assert file_patterns("corpus").endswith("*.csv *.psv *.psvr *.txt")
        assert detect_format(f) == "psv" and detect_format(unsuffixed) == "psv"
        p = preview(f)
        assert (p.format, p.kind, p.columns, p.total) == ("psv", "corpus", ["id", "source", "reference"], 2)
        loaded = read_corpus(f, source_lang="fra", target_lang="ewe")
        assert loaded.format == "psv"
        assert [(e.id, e.source, e.reference) for e in loaded.value.entries] == [
            ("1", "bonjour", "woezɔ"), ("2", "merci", "akpe")]
        with pytest.raises(InputError, match=r"cannot read a run from format 'psv' \(one of: jsonl, harness-report, "
                                             r"json, psv-report, text\)"):
            read_run(f)
        db = tmp_path / "ws.sqlite"
        assert main(["--db", str(db), "import", "corpus", str(unsuffixed), "--format", "psv",
                     "--source-lang", "fra", "--target-lang", "ewe"]) == 0
        ws = Workspace(db)
        try:
            assert [e.reference for e in repo.get_entries(ws, "pairs")] == ["woezɔ", "akpe"]
        finally:
            ws.close()
    assert "psv" not in format_choices("corpus")
    assert detect_format(unsuffixed) == "text"
    capsys.readouterr()


def test_a_run_format_that_carries_its_corpus_makes_the_corpus_or_finds_it(tmp_path):
    from mteval_gui.app.imports import import_run_file

    f = tmp_path / "sys.psvr"
    f.write_text("# corpus: toy-corpus.json\nid|source|reference|predicted\n"
                 "1|bonjour|woezɔ|woezɔ\n2|merci|akpe|akpe ka\n", encoding="utf-8")
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        with toy_registered():
            first = import_run_file(ws, f)
            assert (first.format, first.corpus_id, [a.id for a in first.also]) == ("psv-report", "toy-corpus",
                                                                                    ["toy-corpus"])
            f2 = tmp_path / "sys2.psvr"
            f2.write_text(f.read_text(encoding="utf-8").replace("akpe ka", "akpe"), encoding="utf-8")
            again = import_run_file(ws, f2)  # the corpus it names is now in the workspace
            assert (again.corpus_id, again.also) == ("toy-corpus", [])
        assert [o.predicted for o in repo.get_outputs(ws, first.id)] == ["woezɔ", "akpe ka"]
        assert [o.predicted for o in repo.get_outputs(ws, again.id)] == ["woezɔ", "akpe"]
    finally:
        ws.close()


def test_registering_a_name_twice_is_refused():
    with toy_registered(), pytest.raises(ValueError, match="'psv' is already registered"):
        formats.register(formats.get("psv"))


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("a.jsonl", "x", "jsonl"),
    ("a.ndjson", "", "jsonl"),
    ("a.tab", "x", "tsv"),
    ("a.csv", "x", "csv"),
    ("a.json", '{"config": {}, "entries": [{"id": 1, "predicted": "x"}]}', "harness-report"),
    ("a.json", "not json", "json"),
    ("a.txt", '{"id": 1}\n{"id": 2}\n', "jsonl"),
    ("a.txt", '{"id": 1}\n', "json"),
    ("a.txt", "[1]", "json"),
    ("a.txt", "id\tsource\n", "tsv"),
    ("a.txt", "id,source\n", "csv"),
    ("a.txt", "hello\n", "text"),
    ("a", '{"overall": {}, "entries": [{"expected": "x"}]}\n', "harness-report"),
])
def test_detection_order(tmp_path, name, text, expected):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    assert detect_format(f) == expected


@pytest.mark.parametrize(("name", "text"), [("g.txt", "chat\tcat\n"), ("g.jsonl", "chat\tcat\n"), ("g", "chat\tcat\n")])
def test_a_glossary_is_detected_among_the_glossary_formats(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    loaded = read_glossary(f)
    assert (loaded.format, loaded.value) == ("tsv", {"chat": ["cat"]})
