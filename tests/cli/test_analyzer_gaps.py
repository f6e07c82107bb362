"""`mteval analyzers gaps` with the real Plains Cree analyzers: ranking, sentences, GiellaLT exports, before/after."""

from __future__ import annotations

import json

import pytest
import yaml

from mteval_gui.cli import main
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J

pytestmark = pytest.mark.shared_data

REFERENCES = {"e1": "êwako nipâw.", "e2": "kotak atim nipâw.", "e3": "êwako kotak nipâwak.", "e4": "êwako ninipân.",
              "e5": "kotak nipâw John.", "e6": "nipaw atim."}
SOURCES = {"e2": "another dog sleeps"}  # an output copies "dog" from it: no gap of the analyzer
OUTPUTS = {"e1": "êwako nipâw", "e2": "kotak nipâw dog", "e3": "nipâwak", "e4": "ninipân", "e5": "nipâw", "e6": "atim"}


@pytest.fixture
def db(tmp_path, shared_data):
    fst = shared_data / "crk" / "fst"
    corpus, run = tmp_path / "c.jsonl", tmp_path / "r.jsonl"
    rows = [{"id": k, "source": SOURCES.get(k, f"s {k}"), "reference": v} for k, v in REFERENCES.items()]
    corpus.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    run.write_text(json.dumps({"run": {"run_id": "sys"}}) + "\n" + "".join(
        json.dumps({"id": k, "predicted": v}, ensure_ascii=False) + "\n" for k, v in OUTPUTS.items()), encoding="utf-8")
    path = str(tmp_path / "ws.sqlite")
    assert main(["--db", path, "import", "corpus", str(corpus), "--id", "c", "--source-lang", "eng",
                 "--target-lang", "crk"]) == 0
    assert main(["--db", path, "import", "run", str(run), "--corpus", "c"]) == 0
    ws = Workspace(path)
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", consent_scope="research, share with analyzer makers"))
    J.add_reviewer(ws, Reviewer(reviewer_id="ben", name="Ben", consent_scope="research only"))
    for reviewer, entry, word, valid, kind in (("ana", "e1", "êwako", "Yes", "Established"),
                                               ("ben", "e1", "êwako", "Yes", "Established"),
                                               ("ben", "e2", "kotak", "Yes", "Established")):
        J.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id="sys", entry_id=entry, task="C",
                                       payload={"word": word, "valid": valid, "kind": kind}))
    ws.close()
    return path, fst


def gaps(db, *args):
    path, fst = db
    return main(["--db", path, "analyzers", "gaps", *args,
                 "--strict", str(fst / "crk-strict-analyzer-for-dictionary.hfstol"),
                 "--descriptive", str(fst / "crk-descriptive-analyzer.hfstol")])


def test_gaps_lists_ewako_and_kotak_first_with_their_sentences(db, capsys):
    assert gaps(db, "c", "--runs", "sys") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["4 words the crk strict analyzer rejects in 12 texts (10 occurrences)",
                         "1 rejected output words copied from the source left out"]
    assert [line.split()[:6] for line in lines[3:] if line[:4].strip().isdigit()] == [
        ["1", "kotak", "4", "3", "1", "unknown"], ["2", "êwako", "4", "3", "1", "unknown"],
        ["3", "John", "1", "1", "0", "name"], ["4", "nipaw", "1", "1", "0", "typo"]]
    assert lines[3:8] == [
        "   1  kotak                    4     3     1  unknown    1+ 0- 0?       kotak+Ipc",
        "        kind: no rule applies",
        "        reference e2: kotak atim nipâw.",
        "        reference e3: êwako kotak nipâwak.",
        "        reference e5: kotak nipâw John.",
    ]
    assert lines[8:13] == [
        "   2  êwako                    4     3     1  unknown    1+ 0- 0?       êwako+Ipc",
        "        kind: no rule applies",
        "        reference e1: êwako nipâw.",
        "        reference e3: êwako kotak nipâwak.",
        "        reference e4: êwako ninipân.",
    ]
    assert "        kind: the accepted word nipâw with other diacritics" in lines


def test_gaps_json_and_exports_are_consent_scoped(db, tmp_path, capsys):
    missing, tests = tmp_path / "missing.txt", tmp_path / "crk-gaps.yaml"
    assert gaps(db, "c", "--runs", "sys", "--json", "--missing", str(missing), "--yaml", str(tests)) == 0
    out = capsys.readouterr()
    doc = json.loads(out.out)
    assert (doc["texts"], doc["source_copies"]) == (12, 1)
    assert [(w["word"], w["kind"], w["speakers"]["valid"], w["speakers"]["raters"]) for w in doc["words"]] == [
        ("kotak", "unknown", 1, 1), ("êwako", "unknown", 1, 2), ("John", "name", 0, 0), ("nipaw", "typo", 0, 0)]
    assert doc["words"][1]["examples"][0] == {"corpus_id": "c", "entry_id": "e1", "run_id": None,
                                              "side": "reference", "text": "êwako nipâw."}
    assert missing.read_text(encoding="utf-8") == "      4 kotak\n      4 êwako\n      1 John\n"
    text = tests.read_text(encoding="utf-8")
    # only Ana allows sharing: kotak, confirmed by Ben alone, is not exported; êwako by Ana's answer only
    assert yaml.safe_load(text) == {
        "Config": {"hfst": {"Gen": "../../../src/generator-gt-norm.hfst",
                            "Morph": "../../../src/analyser-gt-norm.hfst"}},
        "Tests": {"crk words speakers confirmed": {"êwako+Ipc": ["êwako"]}}}
    assert "wrote 1 confirmed words to" in out.err and "wrote 3 words to" in out.err


def test_compare_shows_the_false_rejection_rate_before_and_after(db, capsys):
    path, fst = db
    ws = Workspace(path)
    J.add_reviewer(ws, Reviewer(reviewer_id="cat", name="Cat"))
    J.record_judgment(ws, Judgment(reviewer_id="cat", run_id="sys", entry_id="e3", task="C",
                                   payload={"word": "zzq", "valid": "No"}))
    ws.close()
    old, new = fst / "crk-strict-analyzer-for-dictionary.hfstol", fst / "crk-descriptive-analyzer.hfstol"
    assert main(["--db", path, "analyzers", "gaps", "--runs", "sys", "--compare", str(old), str(new)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # êwako and kotak (valid) and zzq (invalid) rejected before; the descriptive analyzer accepts êwako and kotak
    assert lines == [
        "false-rejection rate of the words speakers judged (Task C; Wilson 95% CI):",
        f"  before ({old}): 0.667 [0.208, 0.939] (2/3)",
        f"  after  ({new}): 0.000 [0.000, 0.793] (0/1)",
        "  valid words the new analyzer accepts: 2; words judged invalid it accepts: 0",
    ]


def test_bad_requests_exit_non_zero_with_the_reason(db, tmp_path, capsys):
    path, _ = db
    assert main(["--db", path, "analyzers", "gaps"]) == 1
    assert "name at least one corpus" in capsys.readouterr().err
    assert gaps(db, "nope") != 0
    assert "no corpus 'nope'" in capsys.readouterr().err
    assert gaps(db, "c", "--runs", "ghost") != 0
    assert "unknown run 'ghost'" in capsys.readouterr().err
    assert main(["--db", path, "analyzers", "gaps", "--compare", "a", "b"]) == 1
    assert "name the runs whose Task C judgments are compared" in capsys.readouterr().err


def test_without_a_descriptive_analyzer_the_report_has_no_guesses(db, capsys):
    path, fst = db
    assert main(["--db", path, "analyzers", "gaps", "c", "--limit", "1",
                 "--strict", str(fst / "crk-strict-analyzer-for-dictionary.hfstol")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["4 words the crk strict analyzer rejects in 6 texts (8 occurrences)",
                         "no descriptive analyzer installed: no guesses"]
    assert lines[3] == "   1  kotak                    3     3     0  unknown    -              -"
    assert lines[-1] == "... 3 more (--limit 0 shows all)"
