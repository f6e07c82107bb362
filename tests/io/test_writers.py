"""Writers: what is written reads back to the same content."""

from __future__ import annotations

import json

from mteval_gui.io import preview, read_corpus, read_run
from mteval_gui.io.writers import write_corpus, write_run, write_table
from mteval_gui.paths import demo_dir


def test_corpus_round_trip_jsonl_and_json(tmp_path):
    corpus = read_corpus(demo_dir() / "crk-verbs.jsonl").value
    for name in ("c.jsonl", "c.json"):
        write_corpus(corpus, tmp_path / name)
        again = read_corpus(tmp_path / name).value
        assert again.model_dump() == corpus.model_dump()


def test_run_round_trip(tmp_path):
    run = read_run(demo_dir() / "crk-verbs.flawed.jsonl").value
    write_run(run, tmp_path / "r.jsonl")
    again = read_run(tmp_path / "r.jsonl").value
    assert again.model_dump() == run.model_dump()


def test_tsv_table_cells(tmp_path):
    n = write_table(
        [{"id": "1", "variants": ["a", "b"], "note": "x\ty\nz", "ok": True, "empty": None}], tmp_path / "t.tsv"
    )
    assert n == 1
    assert (tmp_path / "t.tsv").read_text(
        encoding="utf-8"
    ) == 'id\tvariants\tnote\tok\tempty\n1\t["a", "b"]\tx y z\ttrue\t\n'


def test_preview_report_and_glossary(tmp_path):
    report = {
        "run_id": "r",
        "config": {"model": "m"},
        "overall": {},
        "entries": [
            {"id": str(i), "source": "s", "expected": "e", "predicted": "p", "chrf_score": 1} for i in range(12)
        ],
    }
    p = tmp_path / "x_report.json"
    p.write_text(json.dumps(report), encoding="utf-8")
    pv = preview(p, n=3)
    assert (pv.format, pv.kind, pv.total, pv.columns) == (
        "harness-report",
        "report",
        12,
        ["id", "source", "expected", "predicted"],
    )
    assert pv.meta["run_id"] == "r" and pv.meta["model"] == "m"
    g = tmp_path / "g.json"
    g.write_text(json.dumps({"eau": ["tsi"], "livre": "agbalẽ"}, ensure_ascii=False), encoding="utf-8")
    pv = preview(g)
    assert (pv.kind, pv.rows) == (
        "glossary",
        [{"term": "eau", "targets": ["tsi"]}, {"term": "livre", "targets": ["agbalẽ"]}],
    )
    t = tmp_path / "h.txt"
    t.write_text("a\nb\n", encoding="utf-8")
    pv = preview(t)
    assert (pv.format, pv.kind, pv.total, pv.rows) == (
        "text",
        "text",
        2,
        [{"line": 1, "text": "a"}, {"line": 2, "text": "b"}],
    )
