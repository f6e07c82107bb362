"""ESA error spans and corrections: validation, versions, files, scores with literal values."""

from __future__ import annotations

import json

import pytest

from mteval_gui import cards
from mteval_gui.app import judgment_files, review
from mteval_gui.app.review_status import review_status
from mteval_gui.cli import main
from mteval_gui.domain.judgments import ERROR_CATEGORIES, Judgment, Reviewer, judgment_problems, span_problems
from mteval_gui.errors import InputError, StoreError
from mteval_gui.io.judgments import read_judgments, write_judgments
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.validation.esa import SpanJudgment, esa_by_run, span_penalty
from tests.store.judgment_helpers import add_corpus, add_outputs, add_run

OUT = {"e1": "nititwân ôma", "e2": "kisipwêhtân", "e3": "ê-ayâyân"}


def _ws(path) -> Workspace:
    ws = Workspace(path)
    add_corpus(ws, "c", list(OUT), target_lang="crk")
    add_run(ws, "r1", "c")
    add_outputs(ws, "r1", OUT)
    add_run(ws, "r2", "c")
    add_outputs(ws, "r2", OUT)
    return ws


@pytest.fixture
def ws(tmp_path):
    w = _ws(tmp_path / "ws.sqlite")
    J.add_reviewer(w, Reviewer(reviewer_id="ana", name="Ana"))
    J.add_reviewer(w, Reviewer(reviewer_id="ben", name="Ben"))
    yield w
    w.close()


def span(start, end, severity="minor", category=None):
    return {"start": start, "end": end, "severity": severity, "category": category}


def rec(ws, reviewer, entry, run="r1", task="A", **payload):
    return review.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id=run, entry_id=entry, task=task,
                                               adequacy=3 if task == "A" else None, payload=payload))


# ---------------------------------------------------------------- scores (literal values)

def test_span_penalty_weighs_each_severity():
    assert span_penalty([]) == 0.0
    assert span_penalty([span(0, 2)]) == 1.0
    assert span_penalty([span(0, 2, "major")]) == 5.0
    assert span_penalty([span(0, 2, "critical")]) == 10.0
    assert span_penalty([span(0, 2), span(3, 4), span(5, 6, "major"), MISSING_MAJOR]) == 12.0
    assert span_penalty([span(0, 2, "critical"), span(3, 4)], {"critical": 25.0}) == 26.0  # a card's weights


MISSING_MAJOR = {"missing": True, "severity": "major", "category": "omission"}


def test_esa_by_run_reports_direct_scores_and_the_penalty_apart():
    judgments = [
        SpanJudgment(("r1", "e1"), "ana", (span(0, 2, "major"),), 60.0),          # penalty 5
        SpanJudgment(("r1", "e1"), "ben", (span(0, 2), span(3, 5, "minor", "grammar")), 80.0),  # 2 -> e1 3.5
        SpanJudgment(("r1", "e2"), "ana", (), 100.0),                              # 0
        SpanJudgment(("r1", "e3"), "ben", (span(0, 1, "critical"), MISSING_MAJOR), None),  # 15, no score
        SpanJudgment(("r1", "e4"), "ben", None, 41.0),                              # a score, no spans
    ]
    run = esa_by_run(judgments)["r1"]
    assert run.entries == {"e1": 70.0, "e2": 100.0, "e4": 41.0}
    assert run.score == 70.3333  # (70 + 100 + 41) / 3: the direct scores only
    assert run.penalty_entries == {"e1": 3.5, "e2": 0.0, "e3": 15.0}
    assert run.penalty == 6.1667
    assert (run.judgments, run.scored_judgments, run.span_judgments) == (5, 4, 4)
    assert (run.minor, run.major, run.critical, run.missing) == (2, 2, 1, 1)
    assert run.by_category == {"(none)": {"minor": 1, "major": 1, "critical": 1},
                               "grammar": {"minor": 1, "major": 0, "critical": 0},
                               "omission": {"minor": 0, "major": 1, "critical": 0}}
    weighted = esa_by_run(judgments, {"r1": {"critical": 25.0}})["r1"]
    assert weighted.penalty_entries["e3"] == 30.0 and weighted.score == 70.3333


# ---------------------------------------------------------------- validation

def test_span_problems_name_each_defect():
    assert span_problems(None) == []
    assert span_problems([]) == []
    assert span_problems("x") == ["spans must be a list of error spans"]
    assert span_problems([span(3, 3)]) == ["span 1: start 3 and end 3 do not delimit a span (0 <= start < end)"]
    assert span_problems([span(0, 9)], output_length=8) == [
        "span 1: end 9 is past the end of the output (8 characters)"]
    assert span_problems([span(0, 1, "critical")]) == []
    assert span_problems([span(0, 1, "fatal")]) == ["span 1: severity 'fatal' is not one of minor, major, critical"]
    assert span_problems([MISSING_MAJOR, MISSING_MAJOR]) == []  # missing content may be marked twice
    assert span_problems([{"missing": True, "start": 0, "end": 1, "severity": "minor"}]) == [
        "span 1: a span that marks missing content has no start or end"]
    assert span_problems([{"missing": False, "severity": "minor"}]) == [
        "span 1: missing must be true (a span that marks missing content)"]
    assert span_problems([span(0, 1, category="Bad Cat")]) == ["span 1: category 'Bad Cat' is not a category id"]
    assert span_problems([span(0, 1), span(0, 1)]) == ["span 2 repeats an earlier span"]
    assert span_problems([{"start": "0", "end": 1, "severity": "minor", "x": 1}]) == [
        "span 1: unknown field x", "span 1: start and end must be whole numbers (character offsets)"]
    j = Judgment(reviewer_id="a", run_id="r", entry_id="e", task="C", payload={"word": "w", "correction": "x"})
    assert judgment_problems(j) == ["task C judgments carry no ESA score, error spans or correction (tasks A and B do)"]
    for bad, message in ((101, "esa_score 101 is out of range 0-100"), (-0.5, "esa_score -0.5 is out of range 0-100"),
                         ("68", "esa_score '68' is not a number from 0 to 100"),
                         (True, "esa_score True is not a number from 0 to 100")):
        j = Judgment(reviewer_id="a", run_id="r", entry_id="e", payload={"esa_score": bad})
        assert judgment_problems(j) == [message]
    assert judgment_problems(Judgment(reviewer_id="a", run_id="r", entry_id="e", payload={"esa_score": 68})) == []
    j = Judgment(reviewer_id="a", run_id="r", entry_id="e", payload={"correction": 5})
    assert judgment_problems(j) == ["correction must be a non-empty text"]


def test_spans_are_checked_against_the_output_and_the_card(ws):
    with pytest.raises(StoreError, match=r"end 12 is past the end of the output \(11 characters\)"):
        rec(ws, "ana", "e2", spans=[span(0, 12)])
    with pytest.raises(StoreError, match="category 'tones' is not one of mistranslation"):
        rec(ws, "ana", "e2", spans=[span(0, 3, category="tones")])
    # the crk card adds "morphology" to the built-in list
    assert review.categories_for_run(ws, "r1") == (*ERROR_CATEGORIES, "morphology")
    saved = rec(ws, "ana", "e2", spans=[span(0, 3, "major", "morphology")])
    assert saved.payload["spans"] == [span(0, 3, "major", "morphology")]


def test_card_error_categories_are_validated(tmp_path):
    good = json.loads((cards.cards_dir() / "crk.json").read_text(encoding="utf-8"))
    good["errorCategories"] = [{"id": "grammar"}, {"id": "Tone!"}, {"id": "tone"}, {"id": "tone", "label": " "}]
    (tmp_path / "crk.json").write_text(json.dumps(good), encoding="utf-8")
    assert cards.validate_all(tmp_path) == [
        "crk.json: errorCategories[0].id: 'grammar' is already a built-in category",
        "crk.json: errorCategories[1].id: 'Tone!' must be lower case letters, digits, '-' or '_' (at most 40, "
        "starting with a letter)",
        "crk.json: errorCategories[3].id: duplicate category 'tone'",
        "crk.json: errorCategories[3].label: empty (leave it out to show the id)",
    ]


# ---------------------------------------------------------------- versions, undo, files

def test_spans_and_correction_are_versioned_with_undo_and_redo(ws):
    rec(ws, "ana", "e1", spans=[span(9, 12, "major", "mistranslation")])
    rec(ws, "ana", "e1", spans=[span(9, 12, "minor", "mistranslation"), span(0, 8)],
        correction="nititwân\r\nôma  ")
    history = J.judgment_history(ws, "ana", "r1", "e1")
    assert [j.version for j in history] == [1, 2]
    assert history[1].payload["spans"] == [span(0, 8), span(9, 12, "minor", "mistranslation")]  # sorted
    assert history[1].payload["correction"] == "nititwân\nôma"
    assert review.esa_scores(ws, ["r1"])["r1"].penalty == 2.0
    J.undo_last(ws, "ana", "r1")
    assert review.esa_scores(ws, ["r1"])["r1"].penalty == 5.0
    J.redo_last(ws, "ana", "r1")
    assert review.esa_scores(ws, ["r1"])["r1"].penalty == 2.0
    assert review.esa_scores(ws, ["r1"])["r1"].score is None  # spans are not a direct score
    assert review.esa_scores(ws, ["r2"])["r2"].penalty is None


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_spans_and_corrections_round_trip_losslessly(ws, tmp_path, suffix):
    rec(ws, "ana", "e1", spans=[span(9, 12, "major", "mistranslation")], correction="nititwân ôki")
    rec(ws, "ben", "e1", spans=[])
    rec(ws, "ben", "e3", run="r2", task="B", same_meaning="No", spans=[span(0, 2, "minor", "morphology")],
        correction="ê-ayâyâhk")
    reviewers, log = J.export_log(ws)
    path = write_judgments(tmp_path / f"j.{suffix}", reviewers, log)
    other = _ws(tmp_path / "other.sqlite")
    summary = judgment_files.import_judgments_file(other, path)
    assert summary["judgments_added"] == 3
    assert J.export_log(other) == (reviewers, log)
    assert review.esa_scores(other, ["r1", "r2"])["r1"].penalty == 2.5  # e1: (5 + 0) / 2
    assert review_status(other, "r2").human_review().mqm_penalty == 1.0
    assert review_status(other, "r2").human_review().esa_score is None


def test_import_refuses_unknown_categories_with_the_line(ws, tmp_path):
    rec(ws, "ana", "e1", spans=[span(0, 2, "minor", "morphology")])
    reviewers, log = J.export_log(ws)
    path = write_judgments(tmp_path / "j.json", reviewers, log)
    text = path.read_text(encoding="utf-8").replace('"morphology"', '"tones"')
    path.write_text(text, encoding="utf-8")
    other = _ws(tmp_path / "other.sqlite")
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(other, path)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if '"tones"' in t)
    assert [str(d) for d in err.value.defects] == [
        f"{path}:{line}: error-span category 'tones' is not one of {', '.join((*ERROR_CATEGORIES, 'morphology'))}"]
    assert J.export_log(other)[1] == []


def test_read_judgments_keeps_the_payload(ws, tmp_path):
    rec(ws, "ana", "e1", spans=[span(0, 2)])
    path = write_judgments(tmp_path / "j.csv", *J.export_log(ws))
    assert [j.payload for _, j in read_judgments(path).judgments] == [{"spans": [span(0, 2)]}]


def test_validate_prints_the_direct_esa_and_the_penalty_apart(ws, tmp_path, capsys):
    rec(ws, "ana", "e1", spans=[span(0, 2, "major", "grammar")], esa_score=60)
    rec(ws, "ana", "e2", spans=[span(0, 2)], esa_score=90)
    assert main(["--db", str(ws.path), "validate", "r1"]) == 0
    out = capsys.readouterr().out
    assert "ESA (the annotators' direct 0-100 segment scores, mean over entries):" in out
    assert "  r1                         ESA 75  2 entries, 2 judgments" in out
    assert "MQM-style penalty from error spans (sum of severity weights per judgment, mean over entries):" in out
    assert ("  r1                         penalty    3.00  2 entries, 2 judgments, 1 minor, 1 major, 0 critical, "
            "0 missing (weights minor 1, major 5, critical 10)") in out
    assert main(["--db", str(ws.path), "validate", "r1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["esa"]["r1"]["score"] == 75.0 and doc["esa"]["r1"]["entries"] == {"e1": 60.0, "e2": 90.0}
    assert doc["esa"]["r1"]["mqm_penalty"] == 3.0


ESA_68 = {"esa_score": 68, "spans": [{"start": 0, "end": 8, "severity": "critical", "category": "mistranslation"},
                                     {"missing": True, "severity": "major", "category": "omission"}]}


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_an_esa_judgment_with_score_critical_and_missing_spans_round_trips(ws, tmp_path, capsys, suffix):
    saved = rec(ws, "ana", "e1", **ESA_68)
    assert saved.payload == ESA_68
    reviewers, log = J.export_log(ws)
    path = write_judgments(tmp_path / f"j.{suffix}", reviewers, log)
    other = _ws(tmp_path / "other.sqlite")
    assert judgment_files.import_judgments_file(other, path)["judgments_added"] == 1
    assert J.export_log(other) == (reviewers, log)
    assert J.current_judgments(other, run_id="r1")[0].payload == ESA_68
    again = write_judgments(tmp_path / f"again.{suffix}", *J.export_log(other))
    assert [j.payload for _, j in read_judgments(again).judgments] == [ESA_68]
    assert main(["--db", str(other.path), "validate", "r1"]) == 0
    out = capsys.readouterr().out
    assert "  r1                         ESA 68  1 entries, 1 judgments" in out
    assert "penalty   15.00  1 entries, 1 judgments, 0 minor, 1 major, 1 critical, 1 missing" in out
    assert "99.0" not in out
    assert review_status(other, "r1").human_review().esa_score == 68.0
    assert review_status(other, "r1").human_review().mqm_penalty == 15.0


def test_spans_are_stored_in_output_order_with_missing_content_last(ws):
    missing = {"missing": True, "severity": "minor", "category": "omission"}
    saved = rec(ws, "ana", "e1", spans=[missing, span(9, 12, "major"), span(0, 8, "critical")])
    assert saved.payload["spans"] == [span(0, 8, "critical"), span(9, 12, "major"), missing]


def test_a_card_sets_the_severity_weights(tmp_path, monkeypatch):
    good = json.loads((cards.cards_dir() / "crk.json").read_text(encoding="utf-8"))
    good["errorSeverityWeights"] = {"critical": 25}
    card = cards.LanguageCard.model_validate(good)
    assert cards.severity_weights(card) == {"critical": 25.0}
    good["errorSeverityWeights"] = {"critical": -1}
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        cards.LanguageCard.model_validate(good)


def test_spans_html_shows_critical_over_major_and_skips_missing_content():
    from mteval_gui.app.entry_review import spans_html

    html = spans_html("ab cd", [span(0, 5, "major"), span(0, 2, "critical"),
                                {"missing": True, "severity": "minor", "category": "omission"}])
    assert html == ('<span style="background-color:#e58a8a;">ab</span>'
                    '<span style="background-color:#f6b8b8;"> cd</span>')


def test_a_hand_filled_sheet_gives_the_esa_score_as_a_column(ws, tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("reviewer_id,run_id,entry_id,adequacy,esa_score\nana,r1,e1,4,68\nana,r1,e2,3,72.5\n"
                    "ben,r1,e1,2,lots\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        judgment_files.import_judgments_file(ws, path)
    assert [str(d) for d in err.value.defects] == [f"{path}:4: esa_score 'lots' is not a number from 0 to 100"]
    path.write_text("reviewer_id,run_id,entry_id,adequacy,esa_score\nana,r1,e1,4,68\nana,r1,e2,3,72.5\n",
                    encoding="utf-8")
    judgment_files.import_judgments_file(ws, path)
    assert {j.entry_id: j.payload for j in J.current_judgments(ws, run_id="r1")} == {
        "e1": {"esa_score": 68}, "e2": {"esa_score": 72.5}}
    assert review.esa_scores(ws, ["r1"])["r1"].score == 70.25
