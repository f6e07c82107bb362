"""Files of plain records are checked a column at a time; the result is the per-record checks'.

Every hostile line below replaces one record of a plain file; the file is read once as it is
(whole-file check, then the per-record shortcut) and once with both shortcuts turned off, and the
two give the same entries or outputs, lines and warnings, or the same defects. What the workspace
stores after an import (rows and content hashes) is given literally: these are the values of the
reading and writing before the shortcuts existed.
"""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.imports import import_corpus_file, import_run_file
from mteval_gui.domain.columns import PlainColumns
from mteval_gui.errors import InputError
from mteval_gui.io import corpus as corpus_io
from mteval_gui.io import records
from mteval_gui.io import runs as runs_io
from mteval_gui.io.corpus import read_corpus
from mteval_gui.io.runs import read_run
from mteval_gui.store import Workspace

PLAIN_ENTRIES = [
    '{"id": "e1", "source": "he sleeps", "reference": "nipâw", "difficulty": 2}',
    '{"id": "e2", "source": "she eats", "reference": null, "domain": "news", "segment": "d1"}',
    '{"id": "e3", "source": "the river", "register": "formal"}',
]
HOSTILE_ENTRIES = {
    "id with spaces": '{"id": " e2 ", "source": "x"}',
    "id too long": json.dumps({"id": "x" * 257, "source": "x"}),
    "id of 256 characters": json.dumps({"id": "x" * 256, "source": "x"}),
    "id with a tab": '{"id": "e\\t2", "source": "x"}',
    "id with a next-line character": '{"id": "e2\\u0085", "source": "x"}',
    "decomposed id": '{"id": "e\\u0301", "source": "x"}',
    "id starting with a combining mark": '{"id": "\\u0301b", "source": "\\u0301x"}',
    "integer id": '{"id": 2, "source": "x"}',
    "boolean id": '{"id": true, "source": "x"}',
    "empty id": '{"id": "", "source": "x"}',
    "repeated id": '{"id": "e1", "source": "x"}',
    "no id": '{"source": "x"}',
    "blank source": '{"id": "e2", "source": "  "}',
    "numeric source": '{"id": "e2", "source": 5}',
    "no source": '{"id": "e2"}',
    "decomposed source": '{"id": "e2", "source": "cafe\\u0301"}',
    "decomposed reference": '{"id": "e2", "source": "x", "reference": "e\\u0301"}',
    "numeric reference": '{"id": "e2", "source": "x", "reference": 3}',
    "difficulty 6": '{"id": "e2", "source": "x", "difficulty": 6}',
    "difficulty 2.0": '{"id": "e2", "source": "x", "difficulty": 2.0}',
    "boolean difficulty": '{"id": "e2", "source": "x", "difficulty": true}',
    "numeric domain": '{"id": "e2", "source": "x", "domain": 5}',
    "list register": '{"id": "e2", "source": "x", "register": ["a"]}',
    "aliased source": '{"id": "e2", "src": "x"}',
    "unknown field": '{"id": "e2", "source": "x", "tier": "gold"}',
    "variants": '{"id": "e2", "source": "x", "variants": ["y"]}',
    "an array": '["e2", "x"]',
    "a line separator in the source": '{"id": "e2", "source": "x\\u2028y"}',
}

PLAIN_OUTPUTS = ['{"run": {"run_id": "r"}}', '{"id": "e1", "predicted": "nipâw"}',
                 '{"id": "e2", "predicted": null}', '{"id": "e3", "predicted": "sîpiy"}']
HOSTILE_OUTPUTS = {
    "empty text": '{"id": "e2", "predicted": ""}',
    "decomposed text": '{"id": "e2", "predicted": "e\\u0301"}',
    "numeric text": '{"id": "e2", "predicted": 5}',
    "integer id": '{"id": 2, "predicted": "x"}',
    "id with spaces": '{"id": " e2", "predicted": "x"}',
    "id with a tab": '{"id": "e\\t2", "predicted": "x"}',
    "decomposed id": '{"id": "e\\u0301", "predicted": "x"}',
    "repeated id": '{"id": "e1", "predicted": "x"}',
    "no id": '{"predicted": "x"}',
    "latency": '{"id": "e2", "predicted": "x", "latency_s": 0.5}',
    "aliased text": '{"id": "e2", "hypothesis": "x"}',
    "unknown field": '{"id": "e2", "predicted": "x", "note": "n"}',
    "an object": '{"id": {"a": 1}, "predicted": "x"}',
    "a number": '7',
}


def _without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus_io, "plain_entries", lambda _records: None)
    monkeypatch.setattr(runs_io, "plain_outputs", lambda _records: None)
    monkeypatch.setattr(records, "_PLAIN_ENTRY_KEYS", frozenset())
    monkeypatch.setattr(records, "_PLAIN_OUTPUT_KEYS", frozenset())


def _outcome(read, path):
    try:
        loaded = read(path)
    except InputError as exc:
        return [(d.file, d.line, d.message) for d in exc.defects]
    value = loaded.value
    items = value.entries if hasattr(value, "entries") else value.outputs
    dumped = [(m.model_dump(), m.model_extra, sorted(m.model_fields_set)) for m in items]
    return dumped, loaded.lines, loaded.warnings


def _corpus(path):
    return read_corpus(path, source_lang="eng", target_lang="crk")


@pytest.mark.parametrize("name", sorted(HOSTILE_ENTRIES))
def test_a_hostile_entry_reads_as_the_per_record_checks_read_it(tmp_path, monkeypatch, name):
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join([PLAIN_ENTRIES[0], HOSTILE_ENTRIES[name], PLAIN_ENTRIES[2]]) + "\n", encoding="utf-8")
    fast = _outcome(_corpus, path)
    _without_shortcuts(monkeypatch)
    assert fast == _outcome(_corpus, path)


@pytest.mark.parametrize("name", sorted(HOSTILE_OUTPUTS))
def test_a_hostile_output_reads_as_the_per_record_checks_read_it(tmp_path, monkeypatch, name):
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*PLAIN_OUTPUTS[:2], HOSTILE_OUTPUTS[name], PLAIN_OUTPUTS[3]]) + "\n", encoding="utf-8")
    fast = _outcome(read_run, path)
    _without_shortcuts(monkeypatch)
    assert fast == _outcome(read_run, path)


def test_the_plain_files_take_the_whole_file_check_and_read_the_same(tmp_path, monkeypatch):
    c, r = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    c.write_text("\n".join(PLAIN_ENTRIES) + "\n", encoding="utf-8")
    r.write_text("\n".join(PLAIN_OUTPUTS) + "\n", encoding="utf-8")
    taken: list[str] = []
    whole_entries, whole_outputs = records.plain_entries, records.plain_outputs
    monkeypatch.setattr(corpus_io, "plain_entries", lambda rs: taken.append("entries") or whole_entries(rs))
    monkeypatch.setattr(runs_io, "plain_outputs", lambda rs: taken.append("outputs") or whole_outputs(rs))
    fast = _outcome(_corpus, c), _outcome(read_run, r)
    assert taken == ["entries", "outputs"]
    assert whole_entries([(1, json.loads(line)) for line in PLAIN_ENTRIES]) is not None
    assert whole_outputs([(2, json.loads(line)) for line in PLAIN_OUTPUTS[1:]]) is not None
    _without_shortcuts(monkeypatch)
    assert fast == (_outcome(_corpus, c), _outcome(read_run, r))
    entries = fast[0][0]
    assert [d for d, _extra, _set in entries] == [
        {"id": "e1", "source": "he sleeps", "reference": "nipâw", "variants": [], "terminology": {}, "difficulty": 2,
         "domain": None, "register": None, "segment": None, "provenance": None, "phenomena": [],
         "expected_morphology": {}, "metadata": {}},
        {"id": "e2", "source": "she eats", "reference": None, "variants": [], "terminology": {}, "difficulty": None,
         "domain": "news", "register": None, "segment": "d1", "provenance": None, "phenomena": [],
         "expected_morphology": {}, "metadata": {}},
        {"id": "e3", "source": "the river", "reference": None, "variants": [], "terminology": {}, "difficulty": None,
         "domain": None, "register": "formal", "segment": None, "provenance": None, "phenomena": [],
         "expected_morphology": {}, "metadata": {}}]
    assert fast[1][1] == {"e1": 2, "e2": 3, "e3": 4}
    assert [d["predicted"] for d, _extra, _set in fast[1][0]] == ["nipâw", "", "sîpiy"]


@pytest.mark.parametrize(("line", "expected"), [
    ('{"id": " e2 ", "source": "x"}', "e2"),
    ('{"id": "e\\u0301", "source": "x"}', "é"),
    ('{"id": 2, "source": "x"}', "2"),
])
def test_ids_the_whole_file_check_leaves_to_the_per_record_checks_are_normalised(tmp_path, line, expected):
    path = tmp_path / "c.jsonl"
    path.write_text(PLAIN_ENTRIES[0] + "\n" + line + "\n", encoding="utf-8")
    assert [e.id for e in _corpus(path).value.entries] == ["e1", expected]


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": "e2", "source": "  "}', "entry 'e2': empty source"),
    ('{"id": "e1", "source": "x"}', "duplicate id 'e1' (first at line 1)"),
    ('{"id": "e2", "source": "x", "difficulty": 6}', "entry 'e2': difficulty 6 out of range 1-5"),
    ('{"id": "e\\t2", "source": "x"}', "id 'e\\t2' holds a control character (tab, newline...)"),
])
def test_a_defect_in_a_plain_looking_file_is_reported_with_its_line(tmp_path, line, message):
    path = tmp_path / "c.jsonl"
    path.write_text(PLAIN_ENTRIES[0] + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        _corpus(path)
    assert [(d.file, d.line, d.message) for d in ei.value.defects] == [(str(path), 2, message)]


ENTRIES = [
    {"id": "e1", "source": "he sleeps", "reference": "nipâw", "difficulty": 2},
    {"id": "e2", "source": "she eats", "reference": None, "domain": "news", "segment": "d1"},
    {"id": "e3", "source": "the river", "reference": "sîpiy", "register": "formal"},
    {"id": "e4", "source": "he sees her", "reference": "wâpamêw", "variants": ["wâpamêw ôma"]},
]
OUTPUTS = [{"id": "e1", "predicted": "nipâw"}, {"id": "e2", "predicted": None},
           {"id": "e4", "predicted": "wâpamêw", "latency_s": 0.5}]


def _jsonl(path, lines):
    path.write_text("\n".join(json.dumps(v, ensure_ascii=False) for v in lines) + "\n", encoding="utf-8")
    return path


def test_the_workspace_stores_the_same_rows_and_content_hashes(tmp_path):
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        import_corpus_file(ws, _jsonl(tmp_path / "c.jsonl", ENTRIES), corpus_id="k", source_lang="eng",
                           target_lang="crk")
        import_run_file(ws, _jsonl(tmp_path / "r.jsonl", [{"run": {"run_id": "r1", "model_slug": "m"}}, *OUTPUTS]),
                        corpus_id="k")
        import_run_file(ws, _jsonl(tmp_path / "r2.jsonl", OUTPUTS[:2]), corpus_id="k", run_id="r2")
        con = ws.conn
        assert con.execute("SELECT sha256 FROM corpora").fetchone()[0] == \
            "0ae6df5b38b10287871f681e146f76018d2d0620cb0e28a11447a74c576d7f4a"
        assert [r[0] for r in con.execute("SELECT content_sha256 FROM runs ORDER BY rowid")] == [
            "08814391717c7b5692cf2b5595ab8a47ad83358c969ff48a32a29095cd1df9ee",
            "acaab168c7faa980d195db85747e48e9f0e3cd61d36eb6ed2ebb6106e0a27fd8"]
        assert [tuple(r) for r in con.execute("SELECT rowid, * FROM entries ORDER BY rowid")] == [
            (1, "k", "e1", 0, "he sleeps", "nipâw", "[]", "{}", 2, None, None, None, None, "[]", "{}", "{}"),
            (2, "k", "e2", 1, "she eats", None, "[]", "{}", None, "news", None, "d1", None, "[]", "{}", "{}"),
            (3, "k", "e3", 2, "the river", "sîpiy", "[]", "{}", None, None, "formal", None, None, "[]", "{}", "{}"),
            (4, "k", "e4", 3, "he sees her", "wâpamêw", '["wâpamêw ôma"]', "{}", None, None, None, None, None, "[]",
             "{}", "{}")]
        assert [tuple(r) for r in con.execute("SELECT rowid, * FROM outputs ORDER BY rowid")] == [
            (1, "r1", "e1", 0, "nipâw", None, None, None, None, None, None, 0, "{}"),
            (2, "r1", "e2", 1, "", None, None, None, None, None, None, 0, "{}"),
            (3, "r1", "e3", 2, "", None, None, None, None, None, None, 1, "{}"),
            (4, "r1", "e4", 3, "wâpamêw", None, 0.5, None, None, None, None, 0, "{}"),
            (5, "r2", "e1", 0, "nipâw", None, None, None, None, None, None, 0, "{}"),
            (6, "r2", "e2", 1, "", None, None, None, None, None, None, 0, "{}"),
            (7, "r2", "e3", 2, "", None, None, None, None, None, None, 1, "{}"),
            (8, "r2", "e4", 3, "", None, None, None, None, None, None, 1, "{}")]
    finally:
        ws.close()


def test_a_run_with_unknown_and_repeated_ids_is_refused_with_each_in_order(tmp_path):
    from mteval_gui.domain.run import Run, RunMeta
    from mteval_gui.io.records import make_output
    from mteval_gui.store import repo

    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        import_corpus_file(ws, _jsonl(tmp_path / "c.jsonl", ENTRIES), corpus_id="k", source_lang="eng",
                           target_lang="crk")
        run = Run(corpus_id="k", meta=RunMeta(run_id="r"), outputs=[])
        run.outputs = [make_output("e1", "a"), make_output("zz", "b"), make_output("e1", "c"), make_output("e2", "d")]
        with pytest.raises(InputError) as ei:
            repo.import_run(ws, run, locations={"e1": 2, "zz": 3}, file_label="r.jsonl")
        assert [str(d) for d in ei.value.defects] == ["r.jsonl:3: unknown id 'zz': not in corpus 'k'",
                                                      "r.jsonl:2: duplicate id 'e1'"]
        assert repo.counts(ws)["outputs"] == 0
    finally:
        ws.close()


def test_a_corpus_text_column_reads_as_the_entry_columns_read_it(tmp_path):
    from mteval_gui.errors import StoreError
    from mteval_gui.store import repo

    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        import_corpus_file(ws, _jsonl(tmp_path / "c.jsonl", ENTRIES), corpus_id="k", source_lang="eng",
                           target_lang="crk")
        assert repo.entry_texts(ws, "k", "reference") == ["nipâw", None, "sîpiy", "wâpamêw"]
        assert repo.entry_texts(ws, "k", "source") == repo.entry_columns(ws, "k", ("source",))["source"]
        with pytest.raises(StoreError):
            repo.entry_texts(ws, "k", "metadata")
    finally:
        ws.close()


def test_plain_stretches_cover_the_rows_in_few_pieces():
    from mteval_gui.store.repo import plain_stretches

    rows = [(i,) for i in range(20)]
    # every 4th row is not plain: no stretch reaches 5 plain rows, so one piece
    assert plain_stretches(rows, lambda r: r[0] % 4 != 3, least=5) == [(False, 0, 20)]
    assert plain_stretches(rows, lambda r: r[0] not in (6, 7), least=5) == [
        (True, 0, 6), (False, 6, 8), (True, 8, 20)]
    assert plain_stretches(rows, lambda r: r[0] not in (2, 17), least=5) == [
        (False, 0, 3), (True, 3, 17), (False, 17, 20)]
    assert plain_stretches(rows, lambda r: True, least=5) == [(True, 0, 20)]
    assert plain_stretches([], lambda r: True) == []


def test_long_stretches_of_plain_rows_are_stored_as_the_general_rows(tmp_path):
    from mteval_gui.store import repo
    from mteval_gui.store.hashing import entry_row

    n = 2 * repo.PLAIN_STRETCH + 40
    entries = [{"id": f"e{i:04d}", "source": f"s {i}", "reference": f"r {i}"} for i in range(n)]
    for i in (5, repo.PLAIN_STRETCH + 10, repo.PLAIN_STRETCH + 11):
        entries[i]["variants"] = [f"v {i}"]
    outputs = [{"id": f"e{i:04d}", "predicted": f"p {i}"} for i in range(n) if i != 7]
    for i in (3, repo.PLAIN_STRETCH + 20):
        outputs[i]["latency_s"] = 0.25
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        corpus_file = _jsonl(tmp_path / "c.jsonl", entries)
        import_corpus_file(ws, corpus_file, corpus_id="k", source_lang="eng", target_lang="crk")
        import_run_file(ws, _jsonl(tmp_path / "r.jsonl", outputs), corpus_id="k", run_id="r")
        con = ws.conn
        read = read_corpus(corpus_file, source_lang="eng", target_lang="crk").value.entries
        assert [tuple(r) for r in con.execute("SELECT * FROM entries ORDER BY rowid")] == [
            entry_row("k", i, e) for i, e in enumerate(read)]
        stored = [tuple(r) for r in con.execute("SELECT * FROM outputs ORDER BY rowid")]
        assert len(stored) == n and [r[2] for r in stored] == list(range(n))
        assert stored[7] == ("r", "e0007", 7, "", None, None, None, None, None, None, 1, "{}")
        assert stored[3] == ("r", "e0003", 3, "p 3", None, 0.25, None, None, None, None, 0, "{}")
        assert stored[8] == ("r", "e0008", 8, "p 8", None, None, None, None, None, None, 0, "{}")
        assert [r[5] for r in stored].count(0.25) == 2
    finally:
        ws.close()


def _models(seq) -> list:
    return [(m.__dict__, m.__pydantic_extra__) for m in seq]


def test_plain_records_read_as_columns_are_the_same_models(tmp_path):
    c, r = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    c.write_text("\n".join(PLAIN_ENTRIES) + "\n", encoding="utf-8")
    r.write_text("\n".join(PLAIN_OUTPUTS) + "\n", encoding="utf-8")
    as_list = read_corpus(c, source_lang="eng", target_lang="crk")
    as_columns = read_corpus(c, source_lang="eng", target_lang="crk", columns=True)
    entries = as_columns.value.entries
    assert isinstance(entries, PlainColumns) and not isinstance(as_list.value.entries, PlainColumns)
    assert _models(entries) == _models(as_list.value.entries)
    assert _models([entries[1], entries[-1]]) == _models(as_list.value.entries[1::len(entries) - 2])
    assert _models(entries[0:2]) == _models(as_list.value.entries[0:2])
    assert as_columns.lines == as_list.lines and as_columns.warnings == as_list.warnings
    runs = read_run(r), read_run(r, columns=True)
    assert isinstance(runs[1].value.outputs, PlainColumns)
    assert _models(runs[1].value.outputs) == _models(runs[0].value.outputs)
    assert runs[1].lines == runs[0].lines


def test_records_outside_the_plain_shape_read_as_columns_are_a_list(tmp_path):
    c = tmp_path / "c.jsonl"
    c.write_text("\n".join([*PLAIN_ENTRIES, '{"id": "e9", "source": "x", "phenomena": ["negation"]}']) + "\n",
                 encoding="utf-8")
    as_list = read_corpus(c, source_lang="eng", target_lang="crk")
    as_columns = read_corpus(c, source_lang="eng", target_lang="crk", columns=True)
    assert isinstance(as_columns.value.entries, list)
    assert _models(as_columns.value.entries) == _models(as_list.value.entries)
