"""Document ratings (task D): one per reviewer, run and document, through the judgment log, files and validate."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.consent import withdraw_reviewer
from mteval_gui.app.documents import document_rating, document_study, rate_document
from mteval_gui.cli import main
from mteval_gui.domain.judgments import Judgment, Reviewer, judgment_item, judgment_problems
from mteval_gui.errors import InputError, StoreError
from mteval_gui.store import judgments as J
from tests.app.pack_helpers import make_workspace


@pytest.fixture
def ws(tmp_path):
    w = make_workspace(tmp_path / "ws.sqlite")
    J.add_reviewer(w, Reviewer(reviewer_id="ben", name="Ben", languages=["crk"]))
    yield w
    w.close()


def test_a_document_rating_lands_on_the_documents_first_entry_and_versions(ws):
    j = rate_document(ws, "sys1", "ana", "doc1", 4, 3, " reads well ")
    assert (j.task, j.entry_id, j.payload, j.adequacy, j.fluency, j.note) == ("D", "d1-1", {"document": "doc1"}, 4,
                                                                              3, "reads well")
    again = rate_document(ws, "sys1", "ana", "doc1", 5, 3)
    assert again.version == 2 and document_rating(ws, "sys1", "ana", "doc1").adequacy == 5
    assert [x.version for x in J.current_judgments(ws, task="D")] == [2]
    assert document_rating(ws, "sys1", "ben", "doc1") is None
    # task A ratings are not document ratings, and the reverse
    assert J.rating_rows(ws, ["sys1"]) == []
    with pytest.raises(InputError, match="has no document 'doc9'"):
        rate_document(ws, "sys1", "ana", "doc9", 3, 3)
    with pytest.raises(InputError, match="adequacy or fluency"):
        rate_document(ws, "sys1", "ana", "doc1", None, None)


def test_document_judgments_are_checked():
    j = Judgment(reviewer_id="a", run_id="r", entry_id="e", task="D", adequacy=3, payload={"document": "doc1"})
    assert judgment_problems(j) == [] and judgment_item(j) == "doc1"
    assert judgment_problems(j.model_copy(update={"payload": {}})) == [
        "a document rating needs payload 'document' (the document's id)"]
    assert judgment_problems(j.model_copy(update={"payload": {"document": "d", "spans": []}})) == [
        "a document rating carries only payload 'document' (not spans)",
        "task D judgments carry no ESA score, error spans or correction (tasks A and B do)"]


def test_a_document_rating_on_an_entry_of_another_document_is_refused(ws):
    with pytest.raises(StoreError, match="entry 'd2-1' is not in document 'doc1'"):
        J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="d2-1", task="D", adequacy=3,
                                       payload={"document": "doc1"}))


@pytest.mark.parametrize("suffix", ["json", "csv"])
def test_document_ratings_round_trip_through_judgment_files(ws, tmp_path, suffix):
    rate_document(ws, "sys1", "ana", "doc1", 4, 3, "ok")
    rate_document(ws, "sys1", "ana", "doc1", 2, 3)
    rate_document(ws, "sys1", "ben", "doc2", 1, 2)
    out = tmp_path / f"log.{suffix}"
    assert main(["--db", str(ws.path), "judgments", "export", "--all", "-o", str(out)]) == 0
    other = make_workspace(tmp_path / "other.sqlite")
    assert main(["--db", str(other.path), "judgments", "import", str(out)]) == 0
    got = [(j.reviewer_id, j.entry_id, j.task, j.adequacy, j.fluency, j.payload, j.version)
           for j in J.current_judgments(other, task="D")]
    assert got == [("ana", "d1-1", "D", 2, 3, {"document": "doc1"}, 2),
                   ("ben", "d2-1", "D", 1, 2, {"document": "doc2"}, 1)]
    assert len(J.export_log(other)[1]) == 3  # every version
    other.close()


def test_withdrawal_deletes_document_ratings(ws):
    rate_document(ws, "sys1", "ana", "doc1", 4, 3)
    rate_document(ws, "sys1", "ben", "doc1", 4, 4)
    withdraw_reviewer(ws, "ana", "community lead")
    assert [j.reviewer_id for j in J.current_judgments(ws, task="D")] == ["ben"]


def test_validate_reports_document_means_and_agreement(ws, capsys):
    rate_document(ws, "sys1", "ana", "doc1", 4, 3)
    rate_document(ws, "sys1", "ben", "doc1", 5, 3)
    rate_document(ws, "sys1", "ana", "doc2", 2, 1)
    study = document_study(ws, ["sys1"], n_bootstrap=0)
    assert study.runs[0].to_json() == {"run_id": "sys1", "documents": 2, "judgments": 3, "adequacy": 3.25,
                                       "fluency": 2.0}
    assert study.agreement["adequacy"].units == 1 and study.agreement["fluency"].alpha is None
    assert main(["--db", str(ws.path), "validate", "sys1", "--bootstrap", "0"]) == 0
    text = capsys.readouterr().out
    assert "document ratings (Task D; mean over documents of each document's mean rating):\n" \
           "  sys1                       adequacy 3.25  fluency 2.00  2 documents, 3 judgments\n" in text
    assert main(["--db", str(ws.path), "validate", "sys1", "--bootstrap", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["documents"]["runs"] == [{"run_id": "sys1", "documents": 2, "judgments": 3, "adequacy": 3.25,
                                         "fluency": 2.0}]


def test_validate_without_document_ratings_says_nothing_of_them(ws, capsys):
    assert main(["--db", str(ws.path), "validate", "sys1", "--bootstrap", "0", "--json"]) == 0
    assert "documents" not in json.loads(capsys.readouterr().out)
