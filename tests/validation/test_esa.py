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
from mteval_gui.validation.esa import SpanJudgment, esa_by_run, esa_score
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

def test_esa_score_of_spans():
    assert esa_score([]) == 100.0
    assert esa_score([span(0, 2)]) == 99.0
    assert esa_score([span(0, 2, "major")]) == 95.0
    assert esa_score([span(0, 2), span(3, 4), span(5, 6, "major")]) == 93.0
    assert esa_score([span(i, i + 1, "major") for i in range(21)]) == 0.0  # floored at 0


def test_esa_by_run_means_over_entries_then_run():
    judgments = [
        SpanJudgment(("r1", "e1"), "ana", (span(0, 2, "major"),)),               # 95
        SpanJudgment(("r1", "e1"), "ben", (span(0, 2), span(3, 5, "minor", "grammar"))),  # 98 -> e1 = 96.5
        SpanJudgment(("r1", "e2"), "ana", ()),                                    # 100
    ]
    run = esa_by_run(judgments)["r1"]
    assert run.entries == {"e1": 96.5, "e2": 100.0}
    assert run.score == 98.25
    assert (run.judgments, run.minor, run.major) == (3, 2, 1)
    assert run.by_category == {"(none)": {"minor": 1, "major": 1}, "grammar": {"minor": 1, "major": 0}}


# ---------------------------------------------------------------- validation

def test_span_problems_name_each_defect():
    assert span_problems(None) == []
    assert span_problems([]) == []
    assert span_problems("x") == ["spans must be a list of error spans"]
    assert span_problems([span(3, 3)]) == ["span 1: start 3 and end 3 do not delimit a span (0 <= start < end)"]
    assert span_problems([span(0, 9)], output_length=8) == [
        "span 1: end 9 is past the end of the output (8 characters)"]
    assert span_problems([span(0, 1, "critical")]) == ["span 1: severity 'critical' is not one of minor, major"]
    assert span_problems([span(0, 1, category="Bad Cat")]) == ["span 1: category 'Bad Cat' is not a category id"]
    assert span_problems([span(0, 1), span(0, 1)]) == ["span 2 repeats an earlier span"]
    assert span_problems([{"start": "0", "end": 1, "severity": "minor", "x": 1}]) == [
        "span 1: unknown field x", "span 1: start and end must be whole numbers (character offsets)"]
    j = Judgment(reviewer_id="a", run_id="r", entry_id="e", task="C", payload={"word": "w", "correction": "x"})
    assert judgment_problems(j) == ["task C judgments carry no error spans or correction (tasks A and B do)"]
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
    assert review.esa_scores(ws, ["r1"])["r1"].score == 98.0
    J.undo_last(ws, "ana", "r1")
    assert review.esa_scores(ws, ["r1"])["r1"].score == 95.0
    J.redo_last(ws, "ana", "r1")
    assert review.esa_scores(ws, ["r1"])["r1"].score == 98.0
    assert review.esa_scores(ws, ["r2"])["r2"].score is None


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
    assert review.esa_scores(other, ["r1", "r2"])["r1"].score == 97.5  # e1: (95 + 100) / 2
    assert review_status(other, "r2").human_review().esa_score == 99.0


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


def test_validate_prints_esa(ws, tmp_path, capsys):
    rec(ws, "ana", "e1", spans=[span(0, 2, "major", "grammar")])
    rec(ws, "ana", "e2", spans=[span(0, 2)])
    assert main(["--db", str(ws.path), "validate", "r1"]) == 0
    out = capsys.readouterr().out
    assert "ESA from error spans (0-100 = 100 - minor - 5 x major, mean over entries):" in out
    assert "r1                           97.00  2 entries, 2 judgments, 1 minor, 1 major" in out
    assert main(["--db", str(ws.path), "validate", "r1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["esa"]["r1"]["score"] == 97.0 and doc["esa"]["r1"]["entries"] == {"e1": 95.0, "e2": 99.0}
