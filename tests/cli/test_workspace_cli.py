"""`mteval workspace|import|list|show|export|cards|demo` end to end (in-process)."""

from __future__ import annotations

import csv
import hashlib
import json

import pytest

from mteval_gui.app.settings import load_settings
from mteval_gui.cli import main
from mteval_gui.store import Workspace, repo

CORPUS = [
    {"id": "a", "source": "he/she sleeps", "reference": "nipâw", "difficulty": 1},
    {"id": "b", "source": "I sleep", "reference": "ninipân", "variants": ["ninipān"], "difficulty": 2},
    {"id": "c", "source": "you sleep", "reference": "kinipân", "terminology": {"sleep": ["nipâw"]}},
]


@pytest.fixture
def files(tmp_path):
    c = tmp_path / "sleep.jsonl"
    c.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in CORPUS) + "\n", encoding="utf-8")
    r = tmp_path / "sys1.jsonl"
    r.write_text('{"run": {"run_id": "sys1", "model_slug": "m1"}}\n'
                 '{"id": "a", "predicted": "nipâw", "latency_s": 0.5}\n'
                 '{"id": "b", "predicted": "", "error": "HTTP 503 from provider"}\n', encoding="utf-8")
    g = tmp_path / "terms.tsv"
    g.write_text("sleep\tnipâw\n", encoding="utf-8")
    return c, r, g


def run_cli(db, *argv):
    return main(["--db", str(db), *map(str, argv)])


def test_import_list_show_export(tmp_path, files, capsys):
    db = tmp_path / "ws.sqlite"
    c, r, g = files
    assert run_cli(db, "workspace", "init") == 0
    assert "created workspace" in capsys.readouterr().out
    assert run_cli(db, "import", "corpus", c, "--id", "sleep", "--source-lang", "eng", "--target-lang", "crk") == 0
    assert capsys.readouterr().out == "imported corpus sleep: 3 entries (jsonl)\n"
    assert run_cli(db, "import", "run", r, "--corpus", "sleep") == 0
    out = capsys.readouterr()
    assert out.out == "imported run sys1 for corpus sleep: 2 outputs (jsonl)\n"
    assert out.err == "warning: 1 corpus entry has no output (scored as empty output): 'c'\n"
    assert run_cli(db, "import", "run", r, "--corpus", "sleep") == 0
    assert capsys.readouterr().out == "run already imported as sys1; nothing changed\n"
    assert run_cli(db, "import", "glossary", g) == 0
    assert capsys.readouterr().out == "imported glossary terms: 1 terms\n"

    assert run_cli(db, "list", "corpora") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["corpus", "pair", "entries", "runs", "version", "file"]
    assert lines[2].split() == ["sleep", "eng-crk", "3", "1", "1", "sleep.jsonl"]
    assert run_cli(db, "list", "runs") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["sys1", "sleep", "m1", "3", "1", "1", "-", "-", "-", "-", "imported"]
    assert run_cli(db, "list", "runs", "--json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(x["run_id"], x["n_outputs"], x["n_missing"], x["n_errors"]) for x in rows] == [("sys1", 3, 1, 1)]

    assert run_cli(db, "show", "entry", "sleep", "b", "--run", "sys1") == 0
    out = capsys.readouterr().out
    assert "source:     I sleep\n" in out
    assert 'variants:   ["ninipān"]\n' in out
    assert "predicted:     [error]\n" in out
    assert "error:      HTTP 503 from provider\n" in out
    assert run_cli(db, "show", "entry", "sleep", "c", "--run", "sys1", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["output"] == {"id": "c", "predicted": "", "missing": True}

    out_csv = tmp_path / "run.csv"
    assert run_cli(db, "export", "entries", "sys1", "-o", out_csv) == 0
    capsys.readouterr()
    with out_csv.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [(x["id"], x["predicted"], x["error"], x["missing"]) for x in rows] == [
        ("a", "nipâw", "", "false"), ("b", "", "HTTP 503 from provider", "false"), ("c", "", "", "true")]
    out_jsonl = tmp_path / "corpus.jsonl"
    assert run_cli(db, "export", "entries", "sleep", "-o", out_jsonl) == 0
    exported = [json.loads(line) for line in out_jsonl.read_text(encoding="utf-8").splitlines()]
    assert exported[1] == {
        "id": "b",
        "source": "I sleep",
        "reference": "ninipân",
        "variants": ["ninipān"],
        "difficulty": 2,
    }
    # an exported corpus table imports again to the same content
    out_corpus_csv = tmp_path / "corpus.csv"
    assert run_cli(db, "export", "entries", "sleep", "-o", out_corpus_csv) == 0
    assert (
        run_cli(
            db, "import", "corpus", out_corpus_csv, "--id", "sleep2", "--source-lang", "eng", "--target-lang", "crk"
        )
        == 0
    )
    ws = Workspace(db)
    assert repo.get_corpus(ws, "sleep2").entries == repo.get_corpus(ws, "sleep").entries
    ws.close()


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_malformed_inputs_exit_non_zero_and_change_nothing(tmp_path, files, capsys):
    db = tmp_path / "ws.sqlite"
    c, r, _ = files
    assert run_cli(db, "import", "corpus", c, "--id", "sleep", "--source-lang", "eng", "--target-lang", "crk") == 0
    before = _digest(db)
    capsys.readouterr()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "source": "x"}\n{"id": "a", "source": ""}\n{"id": "b"\n', encoding="utf-8")
    assert run_cli(db, "import", "corpus", bad, "--source-lang", "eng", "--target-lang", "crk") == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{bad}:2: entry 'a': empty source",
                   f"{bad}:2: duplicate id 'a' (first at line 1)",
                   f"{bad}:3:11: invalid JSON: Expecting ',' delimiter",
                   "mteval: 3 problems found; nothing was written"]
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"id": "zz", "predicted": "x"}\n', encoding="utf-8")
    assert run_cli(db, "import", "run", unknown, "--corpus", "sleep") == 2
    assert capsys.readouterr().err.splitlines()[0] == f"{unknown}:1: unknown id 'zz': not in corpus 'sleep'"
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("one\ntwo\n", encoding="utf-8")
    assert run_cli(db, "import", "run", hyp, "--corpus", "sleep") == 2
    assert "line-count mismatch" in capsys.readouterr().err
    assert run_cli(db, "import", "run", r) == 2
    assert "choose the corpus this run belongs to (--corpus)" in capsys.readouterr().err
    assert run_cli(db, "show", "entry", "sleep", "nope") == 1
    assert "no entry 'nope' in corpus 'sleep'" in capsys.readouterr().err
    Workspace(db).close()
    assert _digest(db) == before


def test_cards_validate_reports_broken_cards(tmp_path, monkeypatch, capsys):
    assert main(["cards", "validate"]) == 0
    assert "cards valid" in capsys.readouterr().out
    (tmp_path / "xyz.json").write_text(
        '{"code": "xyz", "name": "X", "scripts": ["latin"], "hasCse": true}', encoding="utf-8"
    )
    (tmp_path / "abc.json").write_text('{"code": "abc", "name": "A"', encoding="utf-8")
    (tmp_path / "eng.json").write_text('{"code": "eng", "name": "English"}', encoding="utf-8")
    monkeypatch.setenv("MTEVAL_CARDS_DIR", str(tmp_path))
    assert main(["cards", "validate"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "abc.json: line 1 column 28: invalid JSON: Expecting ',' delimiter",
        "xyz.json: hasCse: Extra inputs are not permitted",
        "2 of 3 cards have problems (2 in all)",
    ]
    assert main(["cards", "validate", "--dir", str(tmp_path / "none")]) == 1


def test_demo_builds_an_idempotent_workspace(tmp_path, capsys):
    db = tmp_path / "demo.sqlite"
    assert run_cli(db, "demo", "--no-score") == 0
    out = capsys.readouterr().out
    assert out.startswith(f"demo workspace: {db}\n")
    ws = Workspace(db)
    assert [(c["corpus_id"], c["entry_count"], c["source_lang"], c["target_lang"]) for c in repo.list_corpora(ws)] == [
        ("demo-crk-verbs", 28, "eng", "crk"), ("demo-fra-ewe", 25, "fra", "ewe")]
    runs = {r["run_id"]: (r["n_outputs"], r["n_missing"], r["n_errors"]) for r in repo.list_runs(ws)}
    assert runs == {"crk-demo-good": (28, 0, 0), "crk-demo-flawed": (28, 1, 1),
                    "ewe-demo-good": (25, 0, 0), "ewe-demo-flawed": (25, 1, 1)}
    assert load_settings(ws).glossaries == {"demo-fra-ewe": "demo-fra-ewe-glossary"}
    counts = repo.counts(ws)
    ws.close()
    assert run_cli(db, "demo", "--no-score") == 0
    ws = Workspace(db)
    assert repo.counts(ws) == counts
    ws.close()


def test_settings_commands(tmp_path, capsys):
    db = tmp_path / "ws.sqlite"
    assert run_cli(db, "settings", "set", "comet_model", "masakhane/africomet-mtl") == 0
    assert run_cli(db, "settings", "set", "gloss_files", '{"crk": ["/data/crkeng.importjson"]}') == 0
    capsys.readouterr()
    assert run_cli(db, "settings", "get", "gloss_files") == 0
    assert capsys.readouterr().out == '{"crk": ["/data/crkeng.importjson"]}\n'
    assert run_cli(db, "settings", "list", "--json") == 0
    assert json.loads(capsys.readouterr().out) == {
        "analyzer_dir": None, "analyzer_paths": {}, "gloss_files": {"crk": ["/data/crkeng.importjson"]},
        "comet_model": "masakhane/africomet-mtl", "cluster": None, "default_reviewer": None, "attention_checks": 0,
        "repeated_items": 0, "glossaries": {}, "suite_folders": {}}
    assert run_cli(db, "settings", "list") == 0
    listed = capsys.readouterr().out.splitlines()
    assert 'comet_model = "masakhane/africomet-mtl"' in listed
    assert "analyzer_dir = null   (default)" in listed
    assert (
        "    COMET model [str | None]: Hugging Face id or local checkpoint (empty: the language card's choice, else "
        "wmt22-comet-da)." in listed
    )
    assert run_cli(db, "settings", "unset", "comet_model") == 0
    capsys.readouterr()
    assert run_cli(db, "settings", "get", "comet_model") == 0
    assert capsys.readouterr().out == "null\n"
    # a wrong type is refused with the key and its type, and nothing is written
    assert run_cli(db, "settings", "set", "gloss_files", '"not a mapping"') == 1
    assert "setting 'gloss_files' (dict[str, list[str]])" in capsys.readouterr().err
    assert run_cli(db, "settings", "set", "analyzer_paths", '{"crk": {"strickt": "/a.hfstol"}}') == 1
    assert "unknown analyzer kind(s) strickt" in capsys.readouterr().err
    assert run_cli(db, "settings", "set", "no_such_key", "1") == 1
    assert "unknown setting 'no_such_key'" in capsys.readouterr().err


def test_every_command_has_help(capsys):
    for argv in (["workspace", "init"], ["import", "corpus"], ["import", "run"], ["import", "glossary"],
                 ["list", "runs"], ["show", "entry"], ["export", "entries"], ["cards", "validate"], ["demo"],
                 ["settings", "set"], ["workspace", "info"]):
        with pytest.raises(SystemExit) as ei:
            main([*argv, "--help"])
        assert ei.value.code == 0
        assert "usage: mteval" in capsys.readouterr().out


def test_demo_scores_every_run(tmp_path, capsys):
    db = tmp_path / "demo.sqlite"
    assert run_cli(db, "demo") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["run", "corpus", "model"]
    ws = Workspace(db)
    runs = {r["run_id"]: r for r in repo.list_runs(ws)}
    ws.close()
    assert {r["status"] for r in runs.values()} == {"scored"}
    assert all(r["composite_score"] is not None and r["has_run_card"] for r in runs.values())
    assert runs["crk-demo-good"]["composite_score"] > runs["crk-demo-flawed"]["composite_score"]
    assert runs["ewe-demo-good"]["composite_score"] > runs["ewe-demo-flawed"]["composite_score"]
    assert runs["ewe-demo-good"]["model_slug"] == "demo-mt-good"
    table = "\n".join(lines)
    for run_id in runs:
        assert run_id in table
    out = tmp_path / "good.csv"
    assert run_cli(db, "export", "entries", "crk-demo-good", "-o", out) == 0
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 28 and "core.chrf" in rows[0] and "core.exact" in rows[0]
    exact = {r["id"]: r["core.exact"] for r in rows}
    assert exact["crk-01"] == "1.0" and exact["crk-12"] == "0.0"  # pimohtēw (macron) is not an exact match


def test_unknown_output_ids_name_the_file_as_given(tmp_path, files, capsys, monkeypatch):
    db = tmp_path / "ws.sqlite"
    c, _, _ = files
    assert run_cli(db, "import", "corpus", c, "--id", "sleep", "--source-lang", "eng", "--target-lang", "crk") == 0
    capsys.readouterr()
    (tmp_path / "unknown.jsonl").write_text('{"id": "zz", "predicted": "x"}\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(db, "import", "run", "unknown.jsonl", "--corpus", "sleep") == 2
    assert capsys.readouterr().err.splitlines()[0] == "unknown.jsonl:1: unknown id 'zz': not in corpus 'sleep'"


def test_desktop_checks_are_settings_of_the_workspace(tmp_path, capsys):
    db = tmp_path / "ws.sqlite"
    assert run_cli(db, "settings", "set", "attention_checks", "3") == 0
    assert run_cli(db, "settings", "set", "repeated_items", "2") == 0
    capsys.readouterr()
    assert run_cli(db, "settings", "get", "attention_checks") == 0
    assert capsys.readouterr().out == "3\n"
    assert run_cli(db, "settings", "set", "repeated_items", "-1") == 1
    assert capsys.readouterr().err == ("mteval: error: setting 'repeated_items' (int): repeated_items: Input should be "
                                       "greater than or equal to 0\n")
    assert run_cli(db, "settings", "get", "repeated_items") == 0
    assert capsys.readouterr().out == "2\n"
