"""Pearmut campaigns out and its annotation log back.

The campaign rules checked here were read from Pearmut (zouharvi/pearmut, ``server/cli.py``):
``_add_single_campaign`` (``campaign_id``, ``info`` with ``assignment``; task-based ``data`` a list
of tasks, each a list of documents), ``_validate_item_structure`` (an item has ``src`` text and
``tgt`` a mapping of model names, not only digits, to text; ``error_spans`` a mapping of model to
list; ``validation`` a mapping of model to object) and ``_validate_document_models`` (with
shuffling on, every item of a document has the same models). The log format is that of
``server/app.py`` ``/log-response`` (the payload ``{"annotation", "actions", "item"}`` with
``user_id`` and ``item_i`` added, one JSON line a submission; ``web/src/basic.ts``: an answer is
``{"score", "error_spans": [{"start_i", "end_i", "severity", "category"}]}`` with the end inclusive
and the index after the output for its ``[missing]`` token) and ``server/utils.py`` (the reset
marker ``__RESET__``).
"""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import exchange
from mteval_gui.cli import main
from mteval_gui.errors import InputError, MtevalError
from mteval_gui.io import pearmut
from mteval_gui.store import judgments as J
from tests.app.exchange_helpers import exchange_workspace
from tests.store.judgment_helpers import add_corpus, add_outputs, add_run

OUT = {"e1": "nititwân ôma", "e2": "kisipwêhtân", "e3": "ê-ayâyân 𝔸x"}


def _pearmut_problems(campaign) -> list[str]:
    problems = []
    if not isinstance(campaign.get("campaign_id"), str):
        problems.append("campaign_id")
    info = campaign.get("info") or {}
    if info.get("assignment") != "task-based" or info.get("protocol") not in ("ESA", "MQM", "DA"):
        problems.append("info")
    tasks = campaign.get("data")
    if not isinstance(tasks, list) or not all(isinstance(t, list) for t in tasks):
        return problems + ["data must be a list of tasks"]
    for task in tasks:
        for doc in task:
            if not isinstance(doc, list) or not doc:
                problems.append("a document is a non-empty list of items")
                continue
            for item in doc:
                if not isinstance(item.get("src"), str) or not isinstance(item.get("tgt"), dict):
                    problems.append("item src/tgt")
                    continue
                for model, text in item["tgt"].items():
                    if model.isdigit() or not isinstance(text, str):
                        problems.append(f"model {model}")
                spans = item.get("error_spans", {})
                if not isinstance(spans, dict) or not all(isinstance(v, list) for v in spans.values()):
                    problems.append("error_spans")
            if info.get("shuffle", True) and any(set(i["tgt"]) != set(doc[0]["tgt"]) for i in doc):
                problems.append("a document with different models cannot be shuffled")
    return problems


@pytest.fixture
def ws(tmp_path):
    w = exchange_workspace(tmp_path / "ws.sqlite", OUT)
    yield w
    w.close()


def test_a_pearmut_export_is_a_campaign_pearmut_accepts(ws, tmp_path, capsys):
    path = tmp_path / "camp.json"
    assert main(["--db", str(ws.path), "export", "pearmut", "sysA", "sysB", "--protocol", "esa", "-o", str(path),
                 "--users", "2"]) == 0
    camp = json.loads(path.read_text(encoding="utf-8"))
    assert _pearmut_problems(camp) == []
    assert camp["campaign_id"] == "mteval_eng-crk"
    assert camp["info"] == {"assignment": "task-based", "protocol": "ESA", "shuffle": True}
    assert [[[i["mteval"]["entry_id"] for i in d] for d in task] for task in camp["data"]] == [[["e1", "e2"]],
                                                                                             [["e3"]]]
    assert camp["data"][0][0][0] == {"doc_id": "d1", "src": "source e1", "tgt": {"sysA": OUT["e1"], "sysB": OUT["e1"]},
                                     "mteval": {"entry_id": "e1", "position": 1},
                                     "instructions": "Evaluate translation from eng to crk."}
    assert "6 outputs in 2 annotator task(s)" in capsys.readouterr().out


def test_pearmut_prefill_and_model_names():
    item = exchange.ExchangeItem("sysA", "e3", 3, "e3", "s", OUT["e3"], (
        {"start": 9, "end": 11, "severity": "major", "category": "spelling"},
        {"missing": True, "severity": "minor", "category": "omission"}))
    camp = pearmut.build_campaign([item], protocol="mqm", campaign_id="x", prefill=True).campaign
    assert camp["data"][0][0][0]["error_spans"] == {"sysA": [
        {"start_i": 9, "end_i": 11, "severity": "major", "category": "Linguistic conventions/Spelling"},
        {"start_i": 12, "end_i": 12, "severity": "minor", "category": "Accuracy/Omission"}]}  # 12: [missing]
    with pytest.raises(ValueError, match="run id '2024' is only digits"):
        pearmut.build_campaign([exchange.ExchangeItem("2024", "e", 1, "d", "s", "t")], protocol="esa",
                               campaign_id="x")


def submission(user, item_i, answers, items, **extra):
    return json.dumps({"annotation": answers, "actions": [], "item": items, "user_id": user, "item_i": item_i,
                       **extra}, ensure_ascii=False)


ITEMS_D1 = [{"src": "source e1", "tgt": {"sysA": OUT["e1"], "sysB": OUT["e1"]}, "mteval": {"entry_id": "e1"}},
            {"src": "source e2", "tgt": {"sysA": OUT["e2"], "sysB": OUT["e2"]}, "mteval": {"entry_id": "e2"}}]
ITEMS_D2 = [{"src": "source e3", "tgt": {"sysA": OUT["e3"]}, "mteval": {"entry_id": "e3"}}]


def test_a_pearmut_log_becomes_judgments_with_scores_critical_and_missing_spans(ws, tmp_path, capsys):
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join([
        submission("ana", 0, [{"sysA": {"score": 10, "error_spans": []}, "sysB": {"score": 20, "error_spans": []}},
                              {"sysA": {"score": 30, "error_spans": []}, "sysB": {"score": 40, "error_spans": []}}],
                   ITEMS_D1),
        submission("ana", 0, [  # a later submission of the same item replaces the first
            {"sysA": {"score": 68, "error_spans": [{"start_i": 0, "end_i": 7, "severity": "critical", "category": None},
                                                   {"start_i": 12, "end_i": 12, "severity": "major",
                                                    "category": None}]},
             "sysB": {"score": 90, "error_spans": [{"start_i": 0, "end_i": 1, "severity": None, "category": None}]}},
            {"sysA": {"score": 55, "error_spans": []}, "sysB": {"score": None, "error_spans": []}}], ITEMS_D1),
        submission("ben", 1, [{"sysA": {"score": 70, "error_spans": [
            {"start_i": 9, "end_i": 11, "severity": "minor", "category": "Accuracy/Mistranslation"}]}}], ITEMS_D2),
        json.dumps({"user_id": "ben", "item_i": 1, "annotation": "__RESET__"}),
        submission("ben", 1, [{"sysA": {"score": 75, "error_spans": [
            {"start_i": 9, "end_i": 11, "severity": "minor", "category": "Accuracy/Mistranslation"}]}}], ITEMS_D2),
    ]) + "\n", encoding="utf-8")
    assert main(["--db", str(ws.path), "judgments", "import", "--from", "pearmut", str(path)]) == 0
    out = capsys.readouterr().out
    assert "imported 5 judgments (0 already present), 2 new reviewers (0 already present)" in out
    assert "2 earlier submissions superseded or reset" in out
    assert "1 spans without a severity (undecided or neutral) left out" in out
    got = {(j.reviewer_id, j.run_id, j.entry_id): j.payload for j in J.current_judgments(ws)}
    assert got == {
        ("ana", "sysA", "e1"): {"esa_score": 68, "spans": [
            {"start": 0, "end": 8, "severity": "critical", "category": None},
            {"missing": True, "severity": "major", "category": "omission"}]},
        ("ana", "sysB", "e1"): {"esa_score": 90, "spans": []},
        ("ana", "sysA", "e2"): {"esa_score": 55, "spans": []},
        ("ana", "sysB", "e2"): {"spans": []},
        ("ben", "sysA", "e3"): {"esa_score": 75, "spans": [
            {"start": 9, "end": 11, "severity": "minor", "category": "mistranslation"}]},
    }
    assert main(["--db", str(ws.path), "validate", "sysA"]) == 0
    assert "ESA 66  3 entries, 3 judgments" in capsys.readouterr().out  # (68 + 55 + 75) / 3


def test_a_bad_pearmut_log_is_refused_with_its_lines(ws, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([
        "{not json",
        submission("ana", 0, [{"sysZ": {"score": 5, "error_spans": []}}], ITEMS_D2),
        submission("ana", 1, [{"sysA": {"score": 500, "error_spans": []}}], ITEMS_D2),
        submission("ana", 2, [{"sysA": {"score": 5}}], [{"src": "x", "tgt": {"sysA": "y"}}]),
    ]) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        exchange.import_pearmut(ws, path)
    assert [str(d) for d in err.value.defects] == [
        f"{path}:1: not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        f"{path}:2: item 1: model 'sysZ' is not a run of the workspace",
        f"{path}:3: item 1, sysA: score 500 is not a number from 0 to 100",
        f"{path}:4: item 1 has no mteval.entry_id (not a campaign mteval exported) or no answers",
    ]
    assert J.current_judgments(ws) == []


def test_pearmut_export_refuses_runs_of_different_language_pairs(ws, tmp_path):
    add_corpus(ws, "c2", ["x1"], source_lang="fra", target_lang="ewe")
    add_run(ws, "sysC", "c2")
    add_outputs(ws, "sysC", {"x1": "ŋdi"})
    with pytest.raises(MtevalError, match=r"different language pairs \(eng-crk, fra-ewe\)"):
        exchange.export_pearmut(ws, ["sysA", "sysC"], tmp_path / "x.json")
