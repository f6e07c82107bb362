"""Review packs choose entries by --select and carry attention checks and repeats that only the workspace knows."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import judgment_files
from mteval_gui.app.review import as_ratings, current_judgments, ratings
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.app.reviewer_qc import excluded_reviewers, reviewer_quality
from mteval_gui.app.sampling import select_items
from mteval_gui.errors import MtevalError
from mteval_gui.store import Workspace
from mteval_gui.store.packs import get_pack
from tests.app.pack_helpers import answer, answers_doc, pack_data
from tests.app.qc_helpers import make_study


@pytest.fixture
def ws(tmp_path):
    w = make_study(Workspace(tmp_path / "ws.sqlite"))
    yield w
    w.close()


def test_each_selection_is_seeded(ws):
    runs = ["s1", "s2"]
    assert select_items(ws, runs, 6, "first", 7) == [("s1", "e0"), ("s2", "e0"), ("s1", "e1"), ("s2", "e1"),
                                                      ("s1", "e2"), ("s2", "e2")]
    assert select_items(ws, runs, 6, "random", 7) == [("s2", "e0"), ("s2", "e3"), ("s1", "e5"), ("s1", "e0"),
                                                       ("s1", "e4"), ("s2", "e5")]
    # one item of each (system, difficulty, verdict) stratum before a second of any
    assert select_items(ws, runs, 6, "stratified", 7) == [("s2", "e0"), ("s1", "e6"), ("s2", "e1"), ("s2", "e6"),
                                                           ("s1", "e2"), ("s1", "e3")]
    # the entries where the systems are furthest apart (e3, e5, then e0), within each the output on which
    # chrF and TER disagree more first
    assert select_items(ws, runs, 6, "informative", 7) == [("s2", "e3"), ("s2", "e5"), ("s1", "e3"), ("s1", "e5"),
                                                            ("s1", "e0"), ("s2", "e0")]
    assert select_items(ws, runs, 6, "informative", 7) == select_items(ws, runs, 6, "informative", 7)
    assert select_items(ws, runs, 6, "random", 8) != select_items(ws, runs, 6, "random", 7)


PACK_OUTPUTS = ["kofi yaa esi kwame", "esi kwame afua kojo", "kwame afua kojo abena", "ama kofi yaa esi",
                "esi kwame afua kojo", "kojo abena yaw akosua ama kofi", "yaa kofi esi kwame",
                "abena yaw akosua ama kofi", "kofi yaa esi kwame", "afua kojo abena yaw akosua ama", "kwame afua"]


def _pack(ws, tmp_path):
    return export_review_pack(ws, ["s1", "s2"], "ama", tmp_path / "p.html", entries=6, select="informative",
                              checks=3, repeats=2, seed=7, blind=True)


def test_checks_look_like_the_real_items_and_only_the_workspace_knows_them(ws, tmp_path):
    done = _pack(ws, tmp_path)
    data = pack_data(done.path)
    assert done.items == 11
    assert [it["output"] for it in data["items"]] == PACK_OUTPUTS
    assert {tuple(sorted(it)) for it in data["items"]} == {("entry_id", "output", "source")}
    assert "check" not in json.dumps(data)
    pack = get_pack(ws, done.pack_id)
    assert pack.items == [("s2", "e0", None), ("s1", "e3", None), ("s2", "e3", None), ("s1", "e0", None),
                          ("s1", "e3", None), ("s2", "e5", None), ("s2", "e0", None), ("s1", "e3", None),
                          ("s2", "e0", None), ("s1", "e5", None), ("s2", "e3", None)]
    assert pack.meta["select"] == "informative"
    assert pack.meta["checks"] == {"4": {"check": "repeat", "kind": None},
                                   "6": {"check": "attention", "kind": "shuffled"},
                                   "7": {"check": "attention", "kind": "wrong_sentence"},
                                   "8": {"check": "repeat", "kind": None},
                                   "10": {"check": "attention", "kind": "truncated"}}


def test_check_answers_never_count_as_ratings_and_flag_the_reviewer(ws, tmp_path):
    done = _pack(ws, tmp_path)
    data = pack_data(done.path)
    rows = []
    for n in range(11):
        a, f = (4, 4) if n not in (4, 8) else (1, 1)  # the checks rated like the real items; repeats far off
        payload = {"spans": []} if n in (6, 9) else {}
        rows.append(answer(n + 1, n, adequacy=a, fluency=f, payload=payload))
    p = tmp_path / "answers.json"
    p.write_text(json.dumps(answers_doc(data, rows)), encoding="utf-8")
    summary = judgment_files.import_judgments_file(ws, p)
    assert summary["judgments_added"] == 11
    checks = current_judgments(ws, task="check")
    assert [(j.run_id, j.entry_id, j.adequacy, j.payload) for j in checks] == [
        ("s1", "e3", 1, {"check": "repeat", "check_id": f"{done.pack_id}/4"}),
        ("s2", "e0", 4, {"check": "attention", "check_id": f"{done.pack_id}/6", "kind": "shuffled"}),
        ("s1", "e3", 4, {"check": "attention", "check_id": f"{done.pack_id}/7", "kind": "wrong_sentence"}),
        ("s2", "e0", 1, {"check": "repeat", "check_id": f"{done.pack_id}/8"}),
        ("s2", "e3", 4, {"check": "attention", "check_id": f"{done.pack_id}/10", "kind": "truncated"})]
    # the real entries keep their own ratings: six, all 4
    assert sorted((r.run_id, r.entry_id, r.adequacy) for r in ratings(ws, ["s1", "s2"])) == [
        ("s1", "e0", 4), ("s1", "e3", 4), ("s1", "e5", 4), ("s2", "e0", 4), ("s2", "e3", 4), ("s2", "e5", 4)]
    assert as_ratings(checks) == []
    q = reviewer_quality(ws)["ama"]
    assert (q.checks, q.decisive, q.failed, q.repeats, q.repeat_difference) == (3, 3, 3, 2, 3.0)
    reason = ("inattentive: rated the known-bad item at least as high as the real one in 3 of 3 attention checks "
              "(flagged above 1 failed and above 20% of them); inconsistent: 2 repeated items rated 3.00 scale "
              "points apart on average (more than 1)")
    assert excluded_reviewers(ws) == {"ama": reason}
    # importing the same answers again changes nothing
    assert judgment_files.import_judgments_file(ws, p)["judgments_unchanged"] == 11


def test_selection_and_checks_are_refused_where_they_do_not_apply(ws, tmp_path):
    with pytest.raises(MtevalError, match="--select 'best' is not one of first, random, stratified, informative"):
        export_review_pack(ws, ["s1"], "ama", tmp_path / "p.html", select="best")
    with pytest.raises(MtevalError, match="--select, --checks and --repeats apply to task a"):
        export_review_pack(ws, ["s1"], "ama", tmp_path / "p.html", task="c", checks=2)
    with pytest.raises(MtevalError, match="--checks and --repeats must be 0 or more"):
        export_review_pack(ws, ["s1"], "ama", tmp_path / "p.html", repeats=-1)
    assert not (tmp_path / "p.html").exists()


def test_cli_export_selects_and_inserts_checks(ws, tmp_path, capsys):
    from mteval_gui.cli import main

    out = tmp_path / "pack.html"
    assert main(["--db", str(tmp_path / "ws.sqlite"), "review-pack", "export", "s1", "s2", "--reviewer", "yaw",
                 "--entries", "4", "--select", "stratified", "--checks", "1", "--repeats", "1", "--seed", "3",
                 "-o", str(out)]) == 0
    assert ": 6 items, " in capsys.readouterr().out
    pack_id = pack_data(out)["pack_id"]
    pack = get_pack(ws, pack_id)
    assert (pack.meta["select"], sorted(c["check"] for c in pack.meta["checks"].values())) == (
        "stratified", ["attention", "repeat"])


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_check_judgments_round_trip_through_judgment_files(ws, tmp_path, fmt):
    from mteval_gui.app.exports import export_judgments
    from mteval_gui.domain.judgments import Judgment
    from mteval_gui.store import judgments as J

    J.record_judgment(ws, Judgment(reviewer_id="kofi", run_id="s1", entry_id="e2", adequacy=3, fluency=4))
    for n, check in enumerate(("attention", "repeat")):
        J.record_judgment(ws, Judgment(reviewer_id="kofi", run_id="s1", entry_id="e2", task="check", adequacy=3,
                                       payload={"check": check, "check_id": f"rp-1/{n}",
                                                **({"kind": "truncated"} if check == "attention" else {})}))
    path, n_log, _ = export_judgments(ws, tmp_path / f"all.{fmt}", fmt, None)
    assert n_log == 3
    other = make_study(Workspace(tmp_path / "other.sqlite"))
    summary = judgment_files.import_judgments_file(other, path)
    assert summary["judgments_added"] == 3
    assert J.export_log(other)[1] == J.export_log(ws)[1]
    assert reviewer_quality(other)["kofi"].to_json() == {
        "reviewer": "kofi", "attention_checks": 1, "decisive_checks": 1, "failed_checks": 1, "repeats": 1,
        "repeat_difference": 0.0, "shared_items": 0, "agreement": None, "flagged": False, "reasons": []}
    other.close()


def test_an_esa_score_typed_on_a_check_item_does_not_refuse_the_answer(ws, tmp_path):
    # the pack's page offers an ESA score on every item: on a check it is dropped, like its spans and correction
    done = _pack(ws, tmp_path)
    data = pack_data(done.path)
    rows = [answer(n + 1, n, adequacy=4, fluency=4,
                   payload={"esa_score": 70, "spans": [], "correction": "kofi yaa"} if n in (4, 6) else
                   {"esa_score": 80})
            for n in range(11)]
    p = tmp_path / "answers.json"
    p.write_text(json.dumps(answers_doc(data, rows)), encoding="utf-8")
    summary = judgment_files.import_judgments_file(ws, p)
    assert (summary["judgments_added"], summary.get("defects", [])) == (11, [])
    checks = {j.payload["check_id"]: j.payload for j in current_judgments(ws, task="check")}
    assert checks[f"{done.pack_id}/4"] == {"check": "repeat", "check_id": f"{done.pack_id}/4"}
    assert checks[f"{done.pack_id}/6"] == {"check": "attention", "check_id": f"{done.pack_id}/6", "kind": "shuffled"}
    assert {r.payload.get("esa_score") for r in current_judgments(ws, task="A")} == {80}
