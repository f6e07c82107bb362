"""Consent: a reviewer's own judgments exported on their own, and withdrawn with an audit record."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import review
from mteval_gui.app.consent import consent_log, export_reviewer_judgments, withdraw_reviewer
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.app.variants import promote_variants
from mteval_gui.cli import main
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import StoreError
from mteval_gui.store import judgments as J
from mteval_gui.store import repo
from mteval_gui.store.packs import list_packs
from mteval_gui.store.versions import corpus_versions
from tests.app.pack_helpers import make_workspace


@pytest.fixture
def ws(tmp_path):
    w = make_workspace(tmp_path / "ws.sqlite")
    J.add_reviewer(w, Reviewer(reviewer_id="ben", name="Ben"))
    for rid, entry, a in (("ana", "d1-1", 4), ("ana", "d1-1", 5), ("ben", "d1-1", 2), ("ana", "d1-2", 3)):
        review.record_judgment(w, Judgment(reviewer_id=rid, run_id="sys1", entry_id=entry, adequacy=a))
    review.record_judgment(w, Judgment(reviewer_id="ana", run_id="sys1", entry_id="d1-3", adequacy=2,
                                       payload={"correction": "ê-ayâyâhk"}))
    yield w
    w.close()


def test_export_own_judgments(ws, tmp_path):
    path, n = export_reviewer_judgments(ws, "ana", tmp_path / "ana.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert n == 4 and [r["reviewer_id"] for r in doc["reviewers"]] == ["ana"]
    assert {j["reviewer_id"] for j in doc["judgments"]} == {"ana"} and doc["scope"] == "reviewer ana"
    with pytest.raises(StoreError, match="unknown reviewer"):
        export_reviewer_judgments(ws, "zed", tmp_path / "z.json")


def test_withdraw_deletes_everything_of_the_reviewer_and_logs_when_and_by_whom(ws, tmp_path):
    export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    promote_variants(ws, ["sys1"], bases=["correction"])
    record = withdraw_reviewer(ws, "ana", "community lead")
    assert (record["reviewer_id"], record["action"], record["done_by"]) == ("ana", "withdraw", "community lead")
    assert J.get_reviewer(ws, "ana") is None
    assert {j.reviewer_id for j in J.export_log(ws)[1]} == {"ben"}
    assert list_packs(ws, "ana") == []
    assert consent_log(ws) == [record]
    # the log says nothing of what the judgments were
    assert set(record) == {"reviewer_id", "action", "done_by", "done_at"}
    # the promoted variant stays, without the link to the reviewer
    assert repo.get_entry(ws, "c", "d1-3").variants == ["ê-ayâyâhk"]
    change = corpus_versions(ws, "c")[1]["changes"][0]
    assert (change["reviewer_id"], change["judgment_id"], change["withdrawn"]) == (None, None, True)
    with pytest.raises(StoreError, match="unknown reviewer"):
        withdraw_reviewer(ws, "ana", "lead")


def test_cli_withdraw_needs_yes(ws, capsys):
    db = ["--db", str(ws.path)]
    assert main([*db, "reviewers", "withdraw", "ben", "--by", "lead"]) == 1
    assert "cannot be undone" in capsys.readouterr().err
    assert J.get_reviewer(ws, "ben") is not None
    assert main([*db, "reviewers", "withdraw", "ben", "--by", "lead", "--yes"]) == 0
    assert "withdrew the judgments of ben" in capsys.readouterr().out
    assert main([*db, "reviewers", "consent-log"]) == 0
    assert "withdraw  ben            by lead" in capsys.readouterr().out


def test_withdraw_also_unlinks_the_reviewer_from_the_stored_run_cards(ws):
    """A scored run card listed the promoted variant with the reviewer and judgment, and counted
    the reviewer in ``human_review``: both kept naming them after the withdrawal."""
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.store.results import load_run_card

    promote_variants(ws, ["sys1"], bases=["correction"])
    score_workspace_run(ws, "sys1", n_bootstrap=10)
    before = load_run_card(ws, "sys1")
    [sv] = before.dataset.speaker_variants
    assert (sv["entry_id"], sv["variant"], sv["reviewer_id"]) == ("d1-3", "ê-ayâyâhk", "ana")
    assert isinstance(sv["judgment_id"], int)
    assert (before.human_review.reviewers, before.human_review.judgments) == (2, 4)
    withdraw_reviewer(ws, "ana", "community lead")
    after = load_run_card(ws, "sys1")
    assert after.dataset.speaker_variants == [
        {"entry_id": "d1-3", "variant": "ê-ayâyâhk", "basis": "correction", "reviewer_id": None, "run_id": "sys1",
         "judgment_id": None, "version": "1+s1", "withdrawn": True}]
    assert (after.human_review.reviewers, after.human_review.judgments) == (1, 1)
    assert after.dataset.version == before.dataset.version and after.dataset.sha256 == before.dataset.sha256
    assert after.scores == before.scores
