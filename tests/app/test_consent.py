"""Consent: a reviewer's own judgments exported on their own, and withdrawn with an audit record."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import judgment_files, review
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
    the reviewer in ``human_review``: both kept naming them after the withdrawal. The variant's link
    is removed from the stored card; the review status is joined when the card is read."""
    from mteval_gui.app.review_status import read_run_card
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.store.results import load_run_card

    promote_variants(ws, ["sys1"], bases=["correction"])
    score_workspace_run(ws, "sys1", n_bootstrap=10)
    before = load_run_card(ws, "sys1")
    [sv] = before.dataset.speaker_variants
    assert (sv["entry_id"], sv["variant"], sv["reviewer_id"]) == ("d1-3", "ê-ayâyâhk", "ana")
    assert isinstance(sv["judgment_id"], int)
    assert (before.human_review.reviewers, before.human_review.judgments) == (0, 0)  # the scoring result
    read = read_run_card(ws, "sys1")
    assert read is not None and (read.card.human_review.reviewers, read.card.human_review.judgments) == (2, 4)
    withdraw_reviewer(ws, "ana", "community lead")
    after = load_run_card(ws, "sys1")
    assert after.dataset.speaker_variants == [
        {"entry_id": "d1-3", "variant": "ê-ayâyâhk", "basis": "correction", "reviewer_id": None, "run_id": "sys1",
         "judgment_id": None, "dialect": None, "version": "1+s1", "withdrawn": True}]
    read = read_run_card(ws, "sys1")
    assert read is not None and (read.card.human_review.reviewers, read.card.human_review.judgments) == (1, 1)
    assert after.human_review == before.human_review
    assert after.dataset.version == before.dataset.version and after.dataset.sha256 == before.dataset.sha256
    assert after.scores == before.scores


def _withdrawn_on(ws) -> str:
    return next(r["done_at"] for r in consent_log(ws) if r["action"] == "withdraw")[:10]


def _exports(ws, tmp_path):
    """Every file that could carry ana's judgments back: her own export, the whole log as JSON and CSV,
    and the answers of a pack made for her."""
    from mteval_gui.app.exports import export_judgments
    from mteval_gui.app.review_pack import export_review_pack
    from tests.app.pack_helpers import answer, answers_doc, pack_data

    own, _ = export_reviewer_judgments(ws, "ana", tmp_path / "ana.json")
    everything, _, _ = export_judgments(ws, tmp_path / "all.json", None, None)
    sheet, _, _ = export_judgments(ws, tmp_path / "all.csv", None, None)
    pack = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    answers = [answer(1, 1, adequacy=1, fluency=2), answer(2, 3, adequacy=2)]
    doc = answers_doc(pack_data(pack.path), answers)
    reply = tmp_path / "answers.json"
    reply.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return {"own": own, "all": everything, "csv": sheet, "answers": reply}


def test_withdrawn_judgments_never_come_back_through_an_import(ws, tmp_path, capsys):
    """Importing her own export, a whole-log export (JSON or CSV) or her pack's answers brought back
    every judgment of the withdrawn reviewer and her reviewer record, silently."""
    files = _exports(ws, tmp_path)
    withdraw_reviewer(ws, "ana", "community lead")
    day = _withdrawn_on(ws)
    before = J.export_log(ws)
    expected = {
        "own": (4, f"{files['own']}: 4 judgments of reviewer 'ana' and their reviewer record skipped: "
                   f"ana withdrew consent on {day}"),
        "all": (4, f"{files['all']}: 4 judgments of reviewer 'ana' and their reviewer record skipped: "
                   f"ana withdrew consent on {day}"),
        "csv": (4, f"{files['csv']}: 4 judgments of reviewer 'ana' and their reviewer record skipped: "
                   f"ana withdrew consent on {day}"),
        "answers": (2, f"{files['answers']}: 2 judgments of reviewer 'ana' skipped: ana withdrew consent on {day}"),
    }
    for kind, path in files.items():
        summary = judgment_files.import_judgments_file(ws, path)
        assert (summary["judgments_added"], summary["reviewers_added"]) == (0, 0), kind
        assert (summary["judgments_withdrawn"], summary["notices"]) == (expected[kind][0], [expected[kind][1]]), kind
        assert J.get_reviewer(ws, "ana") is None
        assert J.export_log(ws) == before
    # the command line says it too, and succeeds (the other reviewers' judgments are there already)
    assert main(["--db", str(ws.path), "judgments", "import", str(files["all"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["imported 0 judgments (1 already present), 0 new reviewers (1 already present)",
                   expected["all"][1]]


def test_a_withdrawn_reviewer_is_added_again_only_explicitly_and_her_old_judgments_stay_out(ws, tmp_path, capsys):
    files = _exports(ws, tmp_path)
    withdraw_reviewer(ws, "ana", "community lead")
    day = _withdrawn_on(ws)
    db = ["--db", str(ws.path)]
    with pytest.raises(StoreError) as err:
        J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana"))
    assert str(err.value) == (f"reviewer 'ana' withdrew consent on {day}: adding them again is an explicit act "
                              "with their new consent (`mteval reviewers add ID --readmit --consent TEXT --by NAME`); "
                              "their judgments of "
                              "before the withdrawal never return")
    assert main([*db, "reviewers", "add", "ana", "--name", "Ana", "--readmit", "--by", "lead"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"mteval: error: re-adding reviewer 'ana' after their withdrawal on {day} needs their new consent "
        "(what they consented to, --consent TEXT)")
    assert main([*db, "reviewers", "add", "ben", "--name", "Ben", "--readmit", "--consent", "x", "--by", "l"]) == 1
    assert "reviewer 'ben' already exists" in capsys.readouterr().err
    assert main([*db, "reviewers", "add", "ana", "--name", "Ana", "--consent", "research use, 2027",
                 "--readmit", "--by", "lead"]) == 0
    assert capsys.readouterr().out.strip() == (
        "re-added reviewer ana (Ana) with new consent: research use, 2027; their judgments of before the "
        "withdrawal stay withdrawn")
    assert J.get_reviewer(ws, "ana").consent_scope == "research use, 2027"
    assert [(r["action"], r["reviewer_id"], r["done_by"]) for r in consent_log(ws)] == [
        ("withdraw", "ana", "community lead"), ("readmit", "ana", "lead")]
    # what she judged before the withdrawal never returns, from any file
    for path in files.values():
        summary = judgment_files.import_judgments_file(ws, path)
        assert summary["judgments_added"] == 0 and summary["judgments_withdrawn"] >= 2
        assert summary["notices"][0].endswith(
            f"skipped: ana withdrew consent on {day} (judgments made before that stay withdrawn)")
    assert J.current_judgments(ws, reviewer_id="ana") == []
    # her new judgments do import
    new = tmp_path / "new.json"
    new.write_text(json.dumps({"format": "mteval-judgments/1", "reviewers": [], "judgments": [
        {"reviewer_id": "ana", "run_id": "sys1", "entry_id": "d1-1", "adequacy": 3}]}), encoding="utf-8")
    summary = judgment_files.import_judgments_file(ws, new)
    assert summary["judgments_added"] == 1 and "notices" not in summary
    [j] = J.current_judgments(ws, reviewer_id="ana")
    assert (j.entry_id, j.adequacy, j.version) == ("d1-1", 3, 1)
    # and an export made now round-trips, the old ids and times still refused
    again, _ = export_reviewer_judgments(ws, "ana", tmp_path / "ana-again.json")
    assert judgment_files.import_judgments_file(ws, again)["judgments_unchanged"] == 1


def test_withdrawal_and_readmission_are_remembered_by_id_too(ws, tmp_path):
    """A file exported by this workspace whose times were edited is still known by its judgment ids."""
    own, _ = export_reviewer_judgments(ws, "ana", tmp_path / "ana.json")
    withdraw_reviewer(ws, "ana", "community lead")
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", consent_scope="again"), readmit=True, done_by="lead")
    doc = json.loads(own.read_text(encoding="utf-8"))
    for j in doc["judgments"]:
        j["created_at"] = "2099-01-01T00:00:00.000+00:00"
    doc["reviewers"] = []
    own.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    summary = judgment_files.import_judgments_file(ws, own)
    assert (summary["judgments_added"], summary["judgments_withdrawn"]) == (0, 4)
    assert J.current_judgments(ws, reviewer_id="ana") == []


def test_a_withdrawn_judgment_is_skipped_whatever_it_holds(ws, tmp_path):
    """Its error categories are not checked (the file is not refused for a judgment it will not import)."""
    withdraw_reviewer(ws, "ana", "community lead")
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "mteval-judgments/1", "reviewers": [], "judgments": [
        {"reviewer_id": "ana", "run_id": "sys1", "entry_id": "d1-1", "adequacy": 3,
         "created_at": "2025-01-01T00:00:00.000+00:00",
         "payload": {"spans": [{"start": 0, "end": 2, "severity": "minor", "category": "no-such-category"}]}},
        {"reviewer_id": "ben", "run_id": "sys1", "entry_id": "d1-2", "adequacy": 4}]}), encoding="utf-8")
    summary = judgment_files.import_judgments_file(ws, path)
    assert (summary["judgments_added"], summary["judgments_withdrawn"]) == (1, 1)
    assert [(j.reviewer_id, j.entry_id) for j in J.current_judgments(ws)] == [("ben", "d1-1"), ("ben", "d1-2")]


def test_what_a_withdrawal_covers_and_how_it_is_said():
    from mteval_gui.store.consent import Withdrawal

    w = Withdrawal("ana", "2026-12-02T04:00:00.000+00:00", False, {5})
    assert w.notice("f.json", 0, True) == (
        "f.json: the record of reviewer 'ana' skipped: ana withdrew consent on 2026-12-02")
    assert w.notice("f.json", 1) == "f.json: 1 judgment of reviewer 'ana' skipped: ana withdrew consent on 2026-12-02"
    assert w.covers("2099-01-01T00:00:00Z") and w.covers(None, new=True)  # not readmitted: everything
    w.readmitted = True
    assert w.covers("2026-12-02T03:59:59Z") and w.covers("2026-12-02T05:00:00+01:00")  # at or before
    assert w.covers("2026-12-02T04:00:00") and w.covers("not a time")  # no zone = UTC; unreadable = before
    assert not w.covers("2026-12-02T04:00:00.001Z") and not w.covers(None, new=True)
    assert w.covers("2099-01-01T00:00:00Z", 5) and not w.covers("2099-01-01T00:00:00Z", 5, by_id=False)


def test_a_withdrawal_made_before_schema_9_holds_after_the_upgrade(ws, tmp_path):
    """A workspace whose consent log predates the withdrawal details (schema 8) is upgraded after a
    backup; the withdrawal it already logged keeps the reviewer's exports out."""
    import sqlite3

    from mteval_gui.store import Workspace
    from mteval_gui.store.schema import SCHEMA_VERSION

    own, _ = export_reviewer_judgments(ws, "ana", tmp_path / "ana.json")
    withdraw_reviewer(ws, "ana", "community lead")
    path = ws.path
    ws.close()
    c = sqlite3.connect(str(path))
    c.execute("ALTER TABLE consent_log DROP COLUMN detail")
    c.execute("ALTER TABLE review_packs DROP COLUMN answers_key")
    c.execute("PRAGMA user_version = 8")
    c.commit()
    c.close()
    w = Workspace(path)
    try:
        assert w.schema_version() == SCHEMA_VERSION
        assert (tmp_path / "ws.sqlite.v8.bak").exists()
        summary = judgment_files.import_judgments_file(w, own)
        assert (summary["judgments_added"], summary["judgments_withdrawn"]) == (0, 4)
        assert J.get_reviewer(w, "ana") is None
    finally:
        w.close()


def test_consent_allows_sharing_only_when_it_says_so_without_a_negation():
    from mteval_gui.app.consent import allows_sharing

    said = ["research, share", "Sharing with analyzer maintainers", "recherche ; partage", "shared data OK",
            "research", "", None, "do not share", "research; no sharing", "don't share", "pas de partage",
            "never shared"]
    assert [allows_sharing(s) for s in said] == [True, True, True, True, False, False, False, False, False, False,
                                                 False, False]
