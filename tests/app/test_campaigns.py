"""Review campaigns: planned overlap, each reviewer's queue, progress; a 60-entry campaign with two
reviewers and overlap 2 done by one reviewer on the desktop and one through a review pack."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import review
from mteval_gui.app.campaigns import campaign_queue, campaign_status, create_campaign, export_campaign_pack
from mteval_gui.app.review_pack import import_pack_answers
from mteval_gui.cli import main
from mteval_gui.domain.campaign import Campaign, assign
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import MtevalError
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J
from tests.app.pack_helpers import answer, answers_doc, pack_data


def test_assignment_deals_entries_evenly_with_the_overlap():
    shares = assign([f"e{i}" for i in range(6)], ["a", "b", "c"], 2)
    assert shares == {"a": ["e0", "e2", "e3", "e5"], "b": ["e0", "e1", "e3", "e4"], "c": ["e1", "e2", "e4", "e5"]}
    assert assign(["e0", "e1"], ["a", "b"], 2) == {"a": ["e0", "e1"], "b": ["e0", "e1"]}
    with pytest.raises(ValueError, match="overlap 3 needs at least 3 reviewers"):
        Campaign(campaign_id="x", run_ids=["r"], entry_ids=["e"], reviewers=["a", "b"], overlap=3)


@pytest.fixture
def ws(tmp_path):
    w = Workspace(tmp_path / "ws.sqlite")
    entries = [Entry(id=f"e{i:02d}", source=f"source {i}", reference=f"ref {i}") for i in range(80)]
    repo.add_corpus(w, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries))
    repo.import_run(w, Run(corpus_id="c", meta=RunMeta(run_id="sys1", model_slug="m1"),
                           outputs=[Output(id=e.id, predicted=f"out {e.id}") for e in entries]))
    for rid, name in (("ana", "Ana"), ("bo", "Bo")):
        J.add_reviewer(w, Reviewer(reviewer_id=rid, name=name, languages=["crk"]))
    yield w
    w.close()


def test_sixty_entries_two_reviewers_overlap_two_desktop_and_pack(ws, tmp_path):
    c = create_campaign(ws, "wave1", ["sys1"], ["ana", "bo"], overlap=2, entries=60, select="random", seed=7)
    assert len(c.entry_ids) == 60 and c.entry_ids == sorted(c.entry_ids)  # drawn, kept in corpus order
    assert campaign_queue(ws, "wave1", "ana") == campaign_queue(ws, "wave1", "bo") == [("sys1", e) for e in c.entry_ids]
    s = campaign_status(ws, "wave1")
    assert [(r.reviewer_id, r.assigned, r.done) for r in s.reviewers] == [("ana", 60, 0), ("bo", 60, 0)]
    assert s.entries_at_overlap == 0 and not s.complete

    # Ana rates on the desktop (what the ratings panel records, keystroke by keystroke)
    for i, (run_id, entry_id) in enumerate(campaign_queue(ws, "wave1", "ana")):
        review.record_judgment(ws, Judgment(reviewer_id="ana", run_id=run_id, entry_id=entry_id,
                                            adequacy=1 + i % 5, fluency=1 + (i + 2) % 5))
    # Bo answers his pack offline
    pack = export_campaign_pack(ws, "wave1", "bo", tmp_path / "bo.html")
    data = pack_data(pack.path)
    assert [it["entry_id"] for it in data["items"]] == c.entry_ids
    answers = [answer(n + 1, n, adequacy=1 + n % 5, fluency=1 + (n + 1) % 5) for n in range(60)]
    path = tmp_path / f"answers-{data['pack_id']}.json"
    path.write_text(json.dumps(answers_doc(data, answers)), encoding="utf-8")
    import_pack_answers(ws, path)

    s = campaign_status(ws, "wave1")
    assert [(r.reviewer_id, r.assigned, r.done, r.complete) for r in s.reviewers] == [
        ("ana", 60, 60, True), ("bo", 60, 60, True)]
    assert s.entries_at_overlap == 60 and s.complete


def test_half_rated_items_and_other_entries_do_not_count(ws):
    c = create_campaign(ws, "w", ["sys1"], ["ana", "bo"], overlap=1, entries=4)
    assert c.assignment() == {"ana": ["e00", "e02"], "bo": ["e01", "e03"]}
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e00", adequacy=4))  # no fluency
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e70", adequacy=4, fluency=4))
    review.record_judgment(ws, Judgment(reviewer_id="bo", run_id="sys1", entry_id="e01", adequacy=3, fluency=2))
    s = campaign_status(ws, "w")
    assert [(r.reviewer_id, r.done) for r in s.reviewers] == [("ana", 0), ("bo", 1)]
    assert s.entries_at_overlap == 1


def test_refusals_store_nothing(ws):
    for kwargs, message in (
        ({"reviewers": ["ana", "zed"]}, "unknown reviewer 'zed'"),
        ({"runs": ["nope"]}, "unknown run 'nope'"),
        ({"overlap": 3}, "overlap 3 needs at least 3 reviewers"),
        ({"select": "best"}, "selection 'best' is not one of first, random"),
    ):
        args = {"runs": ["sys1"], "reviewers": ["ana", "bo"], "overlap": 2, "select": "first", **kwargs}
        with pytest.raises(MtevalError, match=message):
            create_campaign(ws, "x", args["runs"], args["reviewers"], overlap=args["overlap"], select=args["select"])
    assert ws.conn.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 0
    create_campaign(ws, "x", ["sys1"], ["ana"], overlap=1, entries=2)
    with pytest.raises(MtevalError, match="exists already"):
        create_campaign(ws, "x", ["sys1"], ["ana"], overlap=1, entries=2)


def test_cli_create_status_pack(ws, tmp_path, capsys):
    db = ["--db", str(ws.path)]
    assert main([*db, "campaign", "create", "w2", "--runs", "sys1", "--reviewers", "ana", "bo", "--entries", "5"]) == 0
    assert capsys.readouterr().out.strip() == ("campaign w2: 5 entries × 1 run(s), each rated by 2 of 2 reviewers; "
                                               "entries per reviewer: ana 5, bo 5")
    review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id="e00", adequacy=4, fluency=5))
    assert main([*db, "campaign", "status", "w2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["ana: 1 of 5 items rated", "bo: 0 of 5 items rated",
                                                    "overlap 2 reached on 0 of 5 entries"]
    assert main([*db, "campaign", "status", "w2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reviewers"][0] == {"reviewer_id": "ana", "assigned": 5, "done": 1,
                                                                  "complete": False}
    assert main([*db, "campaign", "pack", "w2", "--reviewer", "bo", "-o", str(tmp_path / "p.html")]) == 0
    assert "5 items of campaign w2" in capsys.readouterr().out
    assert main([*db, "campaign", "pack", "w2", "--reviewer", "cy", "-o", str(tmp_path / "q.html")]) == 1
    assert "'cy' is not a reviewer of campaign 'w2'" in capsys.readouterr().err


def test_informative_and_stratified_campaigns_take_the_packs_orders(ws):
    from mteval_gui.app.sampling import entry_order

    c = create_campaign(ws, "inf", ["sys1"], ["ana"], overlap=1, entries=5, select="informative", seed=3)
    assert c.entry_ids == entry_order(ws, ["sys1"], "informative", 3)[:5]
    s = create_campaign(ws, "str", ["sys1"], ["ana"], overlap=1, entries=5, select="stratified", seed=3)
    assert s.entry_ids == entry_order(ws, ["sys1"], "stratified", 3)[:5] and s.select == "stratified"
