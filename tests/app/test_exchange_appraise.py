"""Appraise campaigns out and its score CSV back, checked against Appraise's own schema.

The schema below was derived by reading Appraise (AppraiseDev/Appraise) and is written here field
by field with where each rule comes from; no Appraise code is used:

- manifest: ``Campaign/models.py`` ``_validate_manifest_json`` (required keys; ``CAMPAIGN_URL``,
  ``CAMPAIGN_NAME``, ``CAMPAIGN_KEY`` text; ``CAMPAIGN_NO``, ``REDUNDANCY`` int) and
  ``_validate_tasks_to_annotators_map`` (a list of 5-item lists ``<str, str, str, int, int>``, mode
  ``uniform``); ``Campaign/management/commands/init_campaign.py`` ``_create_context`` (``TASK_TYPE``
  among the campaign task types, ``Document`` here; ``TASK_OPTIONS`` text; language codes checked by
  ``Dashboard/models.py`` ``validate_language_code``) and the uniform task map (tasks × redundancy
  divisible by the annotators, ``_create_uniform_task_map``);
- batches: ``EvalData/models/direct_assessment_document.py``
  ``DirectAssessmentDocumentTask.import_from_json`` (a list of ``{"items", "task"}``; ``task``
  holds ``batchNo`` and ``requiredAnnotations``; each item needs ``sourceID``, ``sourceText``,
  ``targetID``, ``targetText``, ``itemID``, ``itemType``, ``documentID``, ``isCompleteDocument``
  and may hold ``mqm``; a task of other than 100 non-document items is skipped) with the field
  limits of ``EvalData/models/base_models.py`` (``MAX_SEGMENTID_LENGTH`` 1000 for sourceID and
  targetID, ``SET_ITEMTYPE_CHOICES`` SRC/TGT/REF/BAD/CHK, ``itemID`` a positive integer) and
  ``direct_assessment_context.py`` (``MAX_DOCUMENTID_LENGTH`` 100); the ESA/MQM view
  (``EvalView/views.py`` ``direct_assessment_document_mqmesa``) finds an item by its itemID within
  a task, and ``EvalView/static/EvalView/js/direct-assessment-document-mqm-esa.js`` reads ``mqm`` as
  a list of ``{"start_i", "end_i", "severity"}`` (indices into the trimmed target text, the end
  inclusive, ``"missing"`` for the ``[MISSING]`` token) and ``error_type`` in MQM.
- score CSV: ``Campaign/management/commands/ExportSystemScoresToCSV.py`` with
  ``DirectAssessmentDocumentResult.get_system_data(extended_csv=True)``: user, targetID, itemID,
  itemType, source and target language, score, documentID, isCompleteDocument, mqm, start_time,
  end_time (no header).
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from mteval_gui.app import exchange
from mteval_gui.cli import main
from mteval_gui.errors import InputError, MtevalError
from mteval_gui.io import appraise
from mteval_gui.store import judgments as J
from tests.app.exchange_helpers import exchange_workspace

jsonschema = pytest.importorskip("jsonschema")

APPRAISE_SPAN = {
    "type": "object", "required": ["start_i", "end_i", "severity"],
    "properties": {"start_i": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "missing"}]},
                   "end_i": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "missing"}]},
                   "severity": {"enum": ["minor", "major", "critical", "neutral", "undecided"]},
                   "error_type": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"type": "string"}}]}},
}
MANIFEST_SCHEMA = {
    "type": "object",
    "required": ["CAMPAIGN_URL", "CAMPAIGN_NAME", "CAMPAIGN_KEY", "CAMPAIGN_NO", "REDUNDANCY", "TASKS_TO_ANNOTATORS"],
    "properties": {
        "CAMPAIGN_URL": {"type": "string"}, "CAMPAIGN_NAME": {"type": "string"}, "CAMPAIGN_KEY": {"type": "string"},
        "CAMPAIGN_NO": {"type": "integer"}, "REDUNDANCY": {"type": "integer", "minimum": 1},
        "TASKS_TO_ANNOTATORS": {"type": "array", "items": {
            "type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}, {"const": "uniform"},
                                             {"type": "integer", "minimum": 1}, {"type": "integer", "minimum": 1}],
            "minItems": 5, "maxItems": 5}},
        "TASK_TYPE": {"const": "Document"}, "TASK_OPTIONS": {"enum": ["ESA", "MQM"]},
    },
}
BATCHES_SCHEMA = {
    "type": "array", "minItems": 1,
    "items": {"type": "object", "required": ["items", "task"], "properties": {
        "task": {"type": "object", "required": ["batchNo", "requiredAnnotations"], "properties": {
            "batchNo": {"type": "integer", "minimum": 1}, "requiredAnnotations": {"type": "integer", "minimum": 1,
                                                                                   "maximum": 50},
            "sourceLanguage": {"type": "string"}, "targetLanguage": {"type": "string"}}},
        "items": {"type": "array", "items": {
            "type": "object",
            "required": ["sourceID", "sourceText", "targetID", "targetText", "itemID", "itemType", "documentID",
                         "isCompleteDocument"],
            "properties": {
                "sourceID": {"type": "string", "maxLength": 1000}, "sourceText": {"type": "string"},
                "targetID": {"type": "string", "maxLength": 1000}, "targetText": {"type": "string"},
                "itemID": {"type": "integer", "minimum": 1},
                "itemType": {"enum": ["SRC", "TGT", "REF", "BAD", "CHK"]},
                "documentID": {"type": "string", "maxLength": 100}, "isCompleteDocument": {"type": "boolean"},
                "mqm": {"type": "array", "items": APPRAISE_SPAN}}}}}},
}

OUT = {"e1": "  nititwân ôma", "e2": "kisipwêhtân", "e3": "ê-ayâyân 𝔸x", "e4": "tânisi"}


def _appraise_problems(manifest, batches) -> list[str]:
    problems = [e.message for e in jsonschema.Draft202012Validator(MANIFEST_SCHEMA).iter_errors(manifest)]
    problems += [e.message for e in jsonschema.Draft202012Validator(BATCHES_SCHEMA).iter_errors(batches)]
    for src, tgt, _mode, annotators, tasks in manifest["TASKS_TO_ANNOTATORS"]:
        for code in (src, tgt):
            if not appraise.is_appraise_language(code):
                problems.append(f"invalid language code {code}")
        if (tasks * manifest["REDUNDANCY"]) % annotators:
            problems.append("tasks x redundancy do not divide among the annotators")
        if tasks != len(batches):
            problems.append(f"{tasks} tasks in the manifest, {len(batches)} batches")
    for b in batches:
        if sum(1 for i in b["items"] if not i["isCompleteDocument"]) != 100:
            problems.append(f"batch {b['task']['batchNo']} does not have 100 items")
        keys = [(i["itemID"], i["targetID"]) for i in b["items"]]
        if len(set(keys)) != len(keys):
            problems.append(f"batch {b['task']['batchNo']} repeats an item")
    return problems


@pytest.fixture
def ws(tmp_path):
    w = exchange_workspace(tmp_path / "ws.sqlite", OUT)
    yield w
    w.close()


def test_an_esa_export_passes_appraises_schema_field_by_field(ws, tmp_path, capsys):
    code = main(["--db", str(ws.path), "export", "appraise", "sysA", "sysB", "--task", "esa",
                 "-o", str(tmp_path / "camp"), "--language-map", "crk=oji"])
    assert code == 0
    manifest = json.loads((tmp_path / "camp" / "manifest.json").read_text(encoding="utf-8"))
    batches = json.loads((tmp_path / "camp" / "batches.json").read_text(encoding="utf-8"))
    assert _appraise_problems(manifest, batches) == []
    assert manifest == {"CAMPAIGN_URL": "http://127.0.0.1:8000/dashboard/sso/", "CAMPAIGN_NAME": "mtevalesa1",
                        "CAMPAIGN_KEY": "mtevalesa1", "CAMPAIGN_NO": 1, "REDUNDANCY": 1,
                        "TASKS_TO_ANNOTATORS": [["eng", "oji", "uniform", 1, 1]], "TASK_TYPE": "Document",
                        "TASK_OPTIONS": "ESA"}
    items = batches[0]["items"]
    assert [(i["targetID"], i["itemID"], i["itemType"], i["documentID"]) for i in items[:9]] == [
        ("sysA", 1, "TGT", "d1"), ("sysA", 2, "TGT", "d1"), ("sysA", 3, "TGT", "e3"), ("sysA", 4, "TGT", "e4"),
        ("sysB", 1, "TGT", "d1"), ("sysB", 2, "TGT", "d1"), ("sysB", 3, "TGT", "e3"), ("sysB", 4, "TGT", "e4"),
        ("sysA", 10_000_001, "CHK", "d1#check")]
    assert items[0] == {"mqm": [], "documentID": "d1", "sourceID": "e1", "targetID": "sysA", "itemType": "TGT",
                        "sourceText": "source e1", "targetText": "  nititwân ôma", "itemID": 1, "_item": "",
                        "isCompleteDocument": False}
    assert batches[0]["task"] == {"batchNo": 1, "randomSeed": 0, "requiredAnnotations": 1,
                                  "sourceLanguage": "eng", "targetLanguage": "oji"}
    assert "8 outputs in 1 task(s) of 100 items" in capsys.readouterr().out


def test_a_language_outside_appraises_table_is_warned_about(ws, tmp_path, capsys):
    assert main(["--db", str(ws.path), "export", "appraise", "sysA", "-o", str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    assert ("mteval: warning: language 'crk' is not in Appraise's language table (Dashboard/models.py "
            "LANGUAGE_CODES_AND_NAMES): its StartNewCampaign refuses the manifest; add the code to that table or "
            "map it to one it knows with --language-map crk=CODE") in err
    manifest = json.loads((tmp_path / "c" / "manifest.json").read_text(encoding="utf-8"))
    assert _appraise_problems(manifest, json.loads((tmp_path / "c" / "batches.json").read_text())) == [
        "invalid language code crk"]
    for code in ("crk", "pam", "que", "sma"):
        assert not appraise.is_appraise_language(code)
    assert appraise.language_for_appraise("sma", {"sma": "sme"}) == ("sme", None)


def test_an_mqm_export_with_prefill_converts_offsets_to_appraise(ws):
    item = exchange.ExchangeItem("sysA", "e3", 3, "e3", "src", "ê-ayâyân 𝔸x", (
        {"start": 9, "end": 11, "severity": "major", "category": "spelling"},
        {"missing": True, "severity": "critical", "category": "omission"}))
    lead = exchange.ExchangeItem("sysA", "e1", 1, "d1", "src", "  nititwân ôma", (
        {"start": 2, "end": 10, "severity": "minor", "category": None},))
    camp = appraise.build_campaign([item, lead], task="mqm", source_lang="eng", target_lang="fra", name="x",
                                   prefill=True)
    assert _appraise_problems(camp.manifest, camp.batches) == []
    first, second = camp.batches[0]["items"][:2]
    # "𝔸" is two UTF-16 units: the span 9-11 ("𝔸x") is units 9..11 inclusive
    assert first["mqm"] == [{"start_i": 9, "end_i": 11, "severity": "major",
                             "error_type": ["Linguistic conventions", "Spelling"]},
                            {"start_i": "missing", "end_i": "missing", "severity": "critical",
                             "error_type": ["Accuracy", "Omission"]}]
    # Appraise trims the target: offsets count from the first character shown
    assert second["mqm"] == [{"start_i": 0, "end_i": 7, "severity": "minor", "error_type": None}]


def _csv(rows) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def row(user, system, item_id, score, mqm, item_type="TGT", end=1767225600.0):
    return [user, system, item_id, item_type, "eng", "oji", score, "d1", "False", json.dumps(mqm),
            1767225500.0, end]


def test_an_appraise_csv_round_trips_into_judgments_with_every_score_and_span(ws, tmp_path, capsys):
    ana = [{"start_i": 0, "end_i": 7, "severity": "critical"},   # "nititwân" after the two spaces Appraise trims
           {"start_i": "missing", "end_i": "missing", "severity": "major"},
           {"start_i": 9, "end_i": 11, "severity": "minor"}]
    path = tmp_path / "scores.csv"
    path.write_text(_csv([
        row("ana", "sysA", 1, 68, ana),
        row("ana", "sysA", 3, 100, [{"start_i": 9, "end_i": 11, "severity": "major",
                                      "error_type": ["Accuracy", "Mistranslation"]},
                                     {"start_i": 0, "end_i": 1, "severity": "undecided"}]),
        row("ben", "sysB", 2, 41, []),
        row("ben", "sysB", 10_000_001, 40, [], item_type="CHK"),
    ]), encoding="utf-8")
    assert main(["--db", str(ws.path), "judgments", "import", "--from", "appraise", str(path)]) == 0
    out = capsys.readouterr().out
    assert "imported 3 judgments (0 already present), 2 new reviewers (0 already present)" in out
    assert "1 check rows (CHK, BAD, REF) left out" in out
    assert "1 spans without a severity (undecided or neutral) left out" in out
    got = {(j.reviewer_id, j.run_id, j.entry_id): j for j in J.current_judgments(ws)}
    assert got[("ana", "sysA", "e1")].payload == {"esa_score": 68, "spans": [  # stored in output order
        {"start": 2, "end": 10, "severity": "critical", "category": None},
        {"start": 11, "end": 14, "severity": "minor", "category": None},
        {"missing": True, "severity": "major", "category": "omission"}]}
    assert got[("ana", "sysA", "e1")].created_at == "2026-01-01T00:00:00+00:00"
    assert got[("ana", "sysA", "e3")].payload == {"esa_score": 100, "spans": [
        {"start": 9, "end": 11, "severity": "major", "category": "mistranslation"}]}
    assert got[("ben", "sysB", "e2")].payload == {"esa_score": 41, "spans": []}
    # and back out: the spans travel to Appraise as they came
    camp = appraise.build_campaign([exchange.ExchangeItem("sysA", "e1", 1, "d1", "s", OUT["e1"], tuple(
        got[("ana", "sysA", "e1")].payload["spans"]))], task="esa", source_lang="eng", target_lang="oji", name="x",
        prefill=True)
    assert camp.batches[0]["items"][0]["mqm"] == [ana[0], ana[2], ana[1]]
    assert main(["--db", str(ws.path), "validate", "sysA"]) == 0
    assert "ESA 84  2 entries, 2 judgments" in capsys.readouterr().out  # (68 + 100) / 2


def test_a_bad_appraise_csv_is_refused_with_file_and_line_and_nothing_is_written(ws, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(_csv([
        row("ana", "sysA", 1, 68, []),
        row("ana", "sysZ", 1, 50, []),
        row("ana", "sysA", 9, 50, []),
        row("ana", "sysA", 2, 150, []),
        row("ana", "sysA", 2, 50, [{"start_i": 5, "end_i": 40, "severity": "minor"}]),
        ["too", "few"],
    ]), encoding="utf-8")
    with pytest.raises(InputError) as err:
        exchange.import_appraise(ws, path)
    assert [str(d) for d in err.value.defects] == [
        f"{path}:2: system 'sysZ' is not a run of the workspace",
        f"{path}:3: itemID 9 is not an entry of run 'sysA' (4 entries)",
        f"{path}:4: score 150 is out of range 0-100",
        f"{path}:5: span 1: start_i 5 and end_i 40 are not inside the output",
        f"{path}:6: 2 cells: Appraise's score export has 10, 12 or 14 (user, system, itemID, itemType, languages, "
        "score, documentID, isCompleteDocument, mqm[, start and end time[, batch]])",
    ]
    assert J.current_judgments(ws) == []


def test_an_appraise_export_refuses_a_task_map_appraise_cannot_make(ws, tmp_path):
    with pytest.raises(MtevalError, match=r"1 task\(s\) x redundancy 1 do not divide among 2 annotators"):
        exchange.export_appraise(ws, ["sysA"], tmp_path / "c", annotators=2)


def test_batches_of_more_than_100_items_are_split_and_filled():
    items = [exchange.ExchangeItem("r", f"e{i}", i, f"d{i // 10}", "s", "t") for i in range(1, 151)]
    camp = appraise.build_campaign(items, task="esa", source_lang="eng", target_lang="fra", name="x")
    assert [len(b["items"]) for b in camp.batches] == [100, 100]
    second = camp.batches[1]["items"]
    assert [i["itemType"] for i in second].count("CHK") == 50
    assert second[50]["itemID"] == 10_000_001
    assert _appraise_problems(camp.manifest, camp.batches) == []


def test_prefill_starts_from_the_analyzers_rejections_and_the_linters_misses(ws, tmp_path):
    with ws.transaction() as c:
        detail = {"analyses": [{"token": "nititwân", "form": "nititwân", "accepted": False, "analyses": []},
                               {"token": "ôma", "form": "ôma", "accepted": True, "analyses": []}]}
        c.execute("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data)"
                  " VALUES ('sysA', 'e1', 'core.fst', 0.5, ?)", (json.dumps({"value": 0.5, "values": {},
                                                                             "detail": detail}),))
        miss = {"verdict": "MISS", "classes": [], "unpaired_output": ["kisipwêhtân"], "unpaired_reference": ["ôma"]}
        c.execute("INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data)"
                  " VALUES ('sysA', 'e2', 'crk.lint', 0.0, ?)", (json.dumps({"value": 0.0, "values": {},
                                                                             "detail": miss}),))
    items, src, tgt = exchange.exchange_items(ws, ["sysA"], prefill=True)
    assert (src, tgt) == ("eng", "crk")
    assert [(it.entry_id, list(it.prefill)) for it in items[:2]] == [
        ("e1", [{"start": 2, "end": 10, "severity": "minor", "category": "spelling"}]),
        ("e2", [{"start": 0, "end": 11, "severity": "major", "category": "mistranslation"},
                {"missing": True, "severity": "major", "category": "omission"}])]
    assert items[2].prefill == () and items[3].prefill == ()
    done = exchange.export_appraise(ws, ["sysA"], tmp_path / "c", prefill=True, language_map={"crk": "oji"})
    assert done.prefilled == 2
    batch = json.loads((tmp_path / "c" / "batches.json").read_text(encoding="utf-8"))
    assert [i["mqm"] for i in batch[0]["items"][:2]] == [
        [{"start_i": 0, "end_i": 7, "severity": "minor"}],
        [{"start_i": 0, "end_i": 10, "severity": "major"}, {"start_i": "missing", "end_i": "missing",
                                                             "severity": "major"}]]
