"""`mteval reviewers|judgments|validate|signoff` end to end on a small workspace."""

from __future__ import annotations

import json

import pytest

from mteval_gui.cli import main
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.store.judgment_helpers import add_corpus, add_entry_metric, add_run

ENTRIES = ["e1", "e2", "e3", "e4", "e5"]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "ws.sqlite"
    ws = Workspace(path)
    add_corpus(ws, "c", ENTRIES)
    add_run(ws, "sysA", "c", tier="deployable")
    add_run(ws, "sysB", "c", tier="emerging")
    add_run(ws, "sysC", "c", tier="functional")
    add_entry_metric(ws, "sysA", "core.chrf", {"e1": 90.0, "e2": 70.0, "e3": 80.0, "e4": 50.0, "e5": 60.0})
    add_entry_metric(ws, "sysB", "core.chrf", {"e1": 20.0, "e2": 30.0, "e3": 10.0, "e4": 40.0, "e5": 25.0})
    add_entry_metric(ws, "sysC", "core.chrf", {"e1": 50.0, "e2": 55.0, "e3": 45.0, "e4": 35.0, "e5": 60.0})
    ws.close()
    return str(path)


def run(db, *args):
    return main(["--db", db, *args])


def test_reviewers_add_and_list(db, capsys):
    assert run(db, "reviewers", "add", "ana", "--name", "Ana", "--dialect", "Plains", "--language", "crk",
               "--language", "eng", "--consent", "research") == 0
    assert run(db, "reviewers", "add", "ben", "--name", "Ben") == 0
    assert "added reviewer ana (Ana)" in capsys.readouterr().out
    assert run(db, "reviewers", "list") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["ana", "Ana", "Plains", "crk,eng", "0", "research"]
    assert run(db, "reviewers", "list", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["reviewer_id"] for r in data] == ["ana", "ben"] and data[0]["languages"] == ["crk", "eng"]
    assert run(db, "reviewers", "add", "ana", "--name", "Again") == 1
    assert "reviewer 'ana' already exists" in capsys.readouterr().err


def _rate_everything(db):
    ws = Workspace(db)
    ratings = {"sysA": [5, 4, 5, 3, 4], "sysB": [1, 2, 1, 2, 2], "sysC": [3, 3, 2, 2, 4]}
    for rid in ("ana", "ben", "cat"):
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid))
    for k, rid in enumerate(("ana", "ben", "cat")):
        for run_id, values in ratings.items():
            for eid, a in zip(ENTRIES, values, strict=True):
                a2 = max(1, min(5, a + (1 if (k + ENTRIES.index(eid)) % 4 == 0 else 0)))
                J.record_judgment(ws, Judgment(reviewer_id=rid, run_id=run_id, entry_id=eid, adequacy=a2, fluency=a))
    ws.close()


def test_validate_prints_agreement_correlations_and_progress(db, capsys):
    _rate_everything(db)
    assert run(db, "validate", "sysA", "sysB", "sysC", "--bootstrap", "200") == 0
    out = capsys.readouterr().out
    assert "progress: 15 items rated, 15 by 3+ reviewers (8% of the 200-item target), 3 reviewers" in out
    assert "agreement (Krippendorff's alpha, ordinal" in out
    assert "adequacy" in out and "fluency" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("core.chrf"))
    assert line.split()[1] == "15" and line.split()[-4] == "3"  # 15 items, 3 runs
    assert run(db, "validate", "sysA", "--metric", "core.chrf", "--json", "--bootstrap", "50") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"] == ["sysA"] and doc["metrics"][0]["metric_id"] == "core.chrf"
    assert doc["metrics"][0]["system_pearson"]["value"] is None  # one run
    assert len(doc["metrics"][0]["points"]) == 5
    assert run(db, "validate", "sysA", "--metric", "core.bleu") == 1
    assert "no per-entry values for metric core.bleu" in capsys.readouterr().err


def test_export_import_round_trip_through_the_cli(db, tmp_path, capsys):
    _rate_everything(db)
    out_json = tmp_path / "all.json"
    out_csv = tmp_path / "sysA.csv"
    assert run(db, "judgments", "export", "--all", "-o", str(out_json)) == 0
    assert "wrote 45 judgment versions and 3 reviewers" in capsys.readouterr().out
    assert run(db, "judgments", "export", "sysA", "-o", str(out_csv)) == 0
    assert "wrote 15 judgment versions" in capsys.readouterr().out
    assert run(db, "judgments", "export", "-o", str(out_csv)) == 1  # neither runs nor --all
    other = tmp_path / "other.sqlite"
    ws = Workspace(other)
    add_corpus(ws, "c", ENTRIES)
    for r in ("sysA", "sysB", "sysC"):
        add_run(ws, r, "c")
    ws.close()
    assert main(["--db", str(other), "judgments", "import", str(out_json)]) == 0
    assert "imported 45 judgments (0 already present), 3 new reviewers" in capsys.readouterr().out
    assert main(["--db", str(other), "judgments", "import", str(out_csv)]) == 0
    assert "imported 0 judgments (15 already present)" in capsys.readouterr().out
    a, b = Workspace(db), Workspace(other)
    assert J.export_log(a) == J.export_log(b)
    a.close()
    b.close()


def test_import_of_a_bad_file_exits_2_with_located_defects(db, tmp_path, capsys):
    assert run(db, "reviewers", "add", "ana", "--name", "Ana") == 0
    capsys.readouterr()
    bad = tmp_path / "bad.csv"
    bad.write_text("reviewer_id,run_id,entry_id,adequacy\nana,sysA,e1,9\nana,sysZ,e1,3\nzed,sysA,e2,3\nana,sysA,e3,4\n",
                   encoding="utf-8")
    assert run(db, "judgments", "import", str(bad)) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{bad}:2: adequacy 9 is out of range 1-5",
        f"{bad}:3: unknown run 'sysZ'",
        f"{bad}:4: unknown reviewer 'zed'",
        "mteval: 3 problems found; nothing was written",
    ]
    ws = Workspace(db)
    assert J.current_judgments(ws) == []
    ws.close()


def _rate(db, reviewer, run_id, values, languages=("crk",)):
    ws = Workspace(db)
    if J.get_reviewer(ws, reviewer) is None:
        J.add_reviewer(ws, Reviewer(reviewer_id=reviewer, name=reviewer.title(), languages=list(languages)))
    for eid, a in zip(ENTRIES, values, strict=False):
        J.record_judgment(ws, Judgment(reviewer_id=reviewer, run_id=run_id, entry_id=eid, adequacy=a, fluency=a))
    ws.close()


def test_signoff_confirm_needs_ratings_by_two_speakers(db, capsys):
    assert run(db, "reviewers", "add", "ana", "--name", "Ana", "--language", "crk") == 0
    capsys.readouterr()
    # no rating at all: refused, saying how many entries and speakers are still missing; nothing recorded
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm") == 1
    err = capsys.readouterr().err
    assert ("cannot confirm tier deployable of sysA: reviewer ana has not rated any entry of sysA: a tier is "
            "confirmed by a speaker who rated its output; 5 more entries rated by at least 2 speakers of crk (0 of 5 "
            "so far); 2 more speakers of crk (0 of 2 have rated entries of this run). Confirming needs median "
            "adequacy ≥ 3 and fluency ≥ 3 from speakers of crk on at least 5 entries rated by 2 or more of them, "
            "with Krippendorff's α ≥ 0.667 on both scales (`mteval signoff --help` lists every tier); rejecting the "
            "tier stays possible") in err
    ws = Workspace(db)
    assert J.current_judgments(ws, run_id="sysA", task="signoff") == []
    ws.close()
    # one speaker, a reviewer who does not list Cree, then a second speaker on 3 of the 5 entries: still refused
    _rate(db, "ana", "sysA", [5, 4, 5, 3, 4])
    _rate(db, "zoe", "sysA", [5, 4, 5, 3, 4], languages=("eng",))
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm") == 1
    err = capsys.readouterr().err
    assert ("5 more entries rated by at least 2 speakers of crk (0 of 5 so far); 1 more speaker of crk (1 of 2 have "
            "rated entries of this run); the ratings of zoe do not count: the reviewer record does not list crk. "
            "Confirming") in err
    _rate(db, "ben", "sysA", [5, 4, 4])
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm") == 1
    err = capsys.readouterr().err
    assert ("cannot confirm tier deployable of sysA: 2 more entries rated by at least 2 speakers of crk (3 of 5 "
            "so far)") in err
    _rate(db, "ben", "sysA", [5, 4, 4, 3, 5])
    # units (5,5) (4,4) (5,4) (3,3) (4,5): ordinal D_o = 4·16/10 = 6.4, D_e = 1440/90 = 16, α = 0.6
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm") == 1
    assert ("cannot confirm tier deployable of sysA: Krippendorff's α of adequacy 0.600 is below 0.667; "
            "Krippendorff's α of fluency 0.600 is below 0.667. Confirming") in capsys.readouterr().err
    _rate(db, "ben", "sysA", [5, 4, 5, 3, 5])  # units (5,5) (4,4) (5,5) (3,3) (4,5): α 0.7943
    assert run(db, "signoff", "sysA", "--reviewer", "zoe", "confirm") == 1
    assert ("reviewer zoe cannot confirm a tier of sysA: their reviewer record does not list its target language crk"
            in capsys.readouterr().err)
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm") == 0
    assert capsys.readouterr().out.strip() == (
        "ana confirms tier deployable of sysA on 5 entries rated by at least 2 speakers of crk (2 speakers in all), "
        "median adequacy 4.5 and fluency 4.5, Krippendorff's α 0.794 (adequacy) and 0.794 (fluency); the run's "
        "present tier deployable is confirmed")
    ws = Workspace(db)
    (j,) = J.current_judgments(ws, run_id="sysA", task="signoff")
    assert j.payload["evidence"] == {"entries": 5, "rated_entries": 5, "required_entries": 5, "reviewers": 2,
                                     "agreement": 0.7943, "language": "crk", "median_adequacy": 4.5,
                                     "median_fluency": 4.5, "fluency_agreement": 0.7943}
    ws.close()


def test_signoff_help_prints_the_rule_table(db, capsys):
    with pytest.raises(SystemExit):
        run(db, "signoff", "--help")
    out = capsys.readouterr().out
    assert "fluent      ≥ 4 (Most)       ≥ 4 (Good)              min(30, entries)  ≥ 2                 ≥ 0.667" in out
    assert "baseline    ≥ 1 (None)       ≥ 1 (Incomprehensible)  min(20, entries)  ≥ 2                 ≥ 0.667" in out


def test_signoff_reject_needs_no_ratings(db, capsys):
    assert run(db, "reviewers", "add", "ana", "--name", "Ana") == 0
    capsys.readouterr()
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "reject", "--note", "wrong person marking") == 0
    out = capsys.readouterr().out.strip()
    assert out == "ana rejects tier deployable of sysA; the run's present tier deployable is rejected"


def test_signoff_and_allowlist(db, tmp_path, capsys):
    _rate(db, "ana", "sysA", [5, 4, 5, 3, 4])
    _rate(db, "ben", "sysA", [5, 4, 5, 3, 5])
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "confirm", "--note", "speakers agree") == 0
    assert "the run's present tier deployable is confirmed" in capsys.readouterr().out
    assert run(db, "signoff", "sysA", "--reviewer", "ana", "reject") == 0
    assert "is rejected" in capsys.readouterr().out
    assert run(db, "signoff", "sysA", "--reviewer", "nobody", "confirm") == 1
    assert "unknown reviewer 'nobody'" in capsys.readouterr().err
    ws = Workspace(db)
    J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sysB", entry_id="e2", task="C",
                                   payload={"word": "namôya", "valid": "Yes", "kind": "Established"}))
    ws.close()
    out = tmp_path / "allow.tsv"
    assert run(db, "judgments", "allowlist", "sysB", "-o", str(out)) == 0
    assert out.read_text(encoding="utf-8").splitlines()[1] == "namôya\tEstablished\t1\t1\tsysB\te2"


@pytest.fixture
def fluent_db(tmp_path):
    """A scored 36-entry run whose outputs equal their references: composite 1.0, tier fluent."""
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"e{i}", "source": f"the cat {i} sleeps",
                                          "reference": f"le chat {i} dort"}) + "\n" for i in range(36)),
                      encoding="utf-8")
    runf = tmp_path / "oracle.jsonl"
    runf.write_text(json.dumps({"run": {"run_id": "oracle"}}) + "\n" + "".join(
        json.dumps({"id": f"e{i}", "predicted": f"le chat {i} dort"}) + "\n" for i in range(36)), encoding="utf-8")
    db = str(tmp_path / "ws.sqlite")
    assert main(["--db", db, "import", "corpus", str(corpus), "--id", "c", "--source-lang", "eng",
                 "--target-lang", "fra"]) == 0
    assert main(["--db", db, "import", "run", str(runf), "--corpus", "c"]) == 0
    assert main(["--db", db, "score", "oracle", "--metrics", "core.exact", "core.chrf", "--bootstrap", "20"]) == 0
    return db


def _card_review(db, tmp_path):
    out = tmp_path / "card.json"
    assert main(["--db", db, "export", "runcard", "oracle", "-o", str(out)]) == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    return card["human_review"], card["scores"]["quality_tier_display"]


def test_fluent_run_is_not_confirmed_without_ratings(fluent_db, tmp_path, capsys):
    from mteval_gui.app.runs import load_run_row

    db = fluent_db
    assert run(db, "reviewers", "add", "ana", "--name", "Ana", "--language", "fra") == 0
    capsys.readouterr()
    assert run(db, "signoff", "oracle", "--reviewer", "ana", "confirm") == 1
    assert ("cannot confirm tier fluent of oracle: reviewer ana has not rated any entry of oracle: a tier is confirmed "
            "by a speaker who rated its output; 30 more entries rated by at least 2 speakers of fra (0 of 30 so far); "
            "2 more speakers of fra") in capsys.readouterr().err
    review, display = _card_review(db, tmp_path)
    assert review["confirmed"] is None and review["reviewers"] == 0 and review["required_entries"] == 30
    assert display == "fluent (pending speaker review)"
    # a confirmation recorded without the evidence (an old workspace, an imported log) confirms nothing
    ws = Workspace(db)
    J.signoff(ws, "oracle", "ana", "confirm")
    row = load_run_row(ws, "oracle")
    assert row.confirmed is None and row.pending_review and row.review_evidence.rated_entries == 0
    ws.close()
    review, display = _card_review(db, tmp_path)
    assert review["confirmed"] is None and display == "fluent (pending speaker review)"


def test_fluent_run_confirmed_on_30_entries_by_two_reviewers(fluent_db, tmp_path, capsys):
    from mteval_gui.app.runs import load_run_row
    from mteval_gui.app.signoff import signoff_candidates

    db = fluent_db
    ws = Workspace(db)
    for rid in ("ana", "ben"):
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title(), languages=["fra"]))
    for i in range(29):
        a = 5 if i % 3 else 4
        for rid in ("ana", "ben"):
            J.record_judgment(ws, Judgment(reviewer_id=rid, run_id="oracle", entry_id=f"e{i}",
                                           adequacy=a if rid == "ana" or i != 3 else 5, fluency=a))
    J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="oracle", entry_id="e29", adequacy=5))
    cands = signoff_candidates(ws)
    assert cands.ready == [] and [e.run_id for e in cands.waiting] == ["oracle"]
    assert cands.waiting[0].missing == ["1 more entry rated by at least 2 speakers of fra (29 of 30 so far)"]
    J.record_judgment(ws, Judgment(reviewer_id="ben", run_id="oracle", entry_id="e29", fluency=4))
    assert signoff_candidates(ws).ready_ids == ["oracle"]
    ws.close()
    assert run(db, "signoff", "oracle", "--reviewer", "ana", "confirm") == 0
    out = capsys.readouterr().out
    assert ("ana confirms tier fluent of oracle on 30 entries rated by at least 2 speakers of fra (2 speakers in all), "
            "median adequacy 5.0 and fluency 5.0") in out
    assert out.strip().endswith("the run's present tier fluent is confirmed")
    review, display = _card_review(db, tmp_path)
    ws = Workspace(db)
    from mteval_gui.app.signoff import signoff_evidence

    alpha = signoff_evidence(ws, "oracle").agreement
    assert alpha is not None and f"Krippendorff's α {alpha:.3f}" in out
    assert review == {"reviewers": 2, "judgments": 60, "agreement": alpha, "confirmed": True, "rated_entries": 30,
                      "raters": 2, "required_entries": 30, "confirmed_by": ["ana"],
                      "esa_score": None, "esa_entries": 0, "mqm_penalty": None}
    assert display == "fluent (confirmed by speaker review)"
    # ratings undone afterwards: the confirmation no longer stands
    J.undo_last(ws, "ben", "oracle")
    assert load_run_row(ws, "oracle").confirmed is None
    ws.close()


def test_import_of_a_fifo_is_refused_without_opening_it(db, tmp_path):
    """The answers-file sniff opened the path before anything checked it: a FIFO with no writer hung
    the command for good. Run in a child so that a regression fails (timeout) instead of hanging."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    fifo = tmp_path / "answers.json"
    os.mkfifo(fifo)
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    proc = subprocess.run([sys.executable, "-m", "mteval_gui", "--db", db, "judgments", "import", str(fifo)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"{fifo}: is a FIFO (named pipe), not a regular file",
                                        "mteval: 1 problem found; nothing was written"]
    assert "Traceback" not in proc.stderr


def test_validate_shows_the_projected_width_and_each_reviewers_quality(db, capsys):
    _rate_everything(db)
    ws = Workspace(db)
    for n, eid in enumerate(("e1", "e3")):  # ben rates the known-bad outputs of sysA e1 and e3 (real 5, 5) at 5
        J.record_judgment(ws, Judgment(reviewer_id="ben", run_id="sysA", entry_id=eid, task="check", adequacy=5,
                                       payload={"check": "attention", "check_id": f"rp-x/{n}", "kind": "truncated"}))
    ws.close()
    assert run(db, "validate", "sysA", "sysB", "sysC", "--bootstrap", "50", "--goal-width", "0.3") == 0
    out = capsys.readouterr().out.splitlines()
    k = out.index("projected width of the 95% tau-b interval (Fisher z), now and at the 200 x 3 target:")
    assert out[k + 1] == ("  core.chrf                  0.217 with 15 items (3.0 raters each) -> 0.049; 11 items for a "
                          "width of 0.3")
    k = out.index("reviewer quality control (every run of the workspace; flagged reviewers are left out of sign-off "
                  "evidence):")
    assert out[k + 1:k + 4] == [
        "  ana            attention checks failed 0 of 0 decisive (0 answered), repeats 0 (mean difference n/a), "
        "tau-b with the others 0.786 on 15 items",
        "  ben            attention checks failed 2 of 2 decisive (2 answered), repeats 0 (mean difference n/a), "
        "tau-b with the others 0.812 on 15 items  FLAGGED: inattentive: rated the known-bad item at least as high "
        "as the real one in 2 of 2 attention checks (flagged above 1 failed and above 20% of them)",
        "  cat            attention checks failed 0 of 0 decisive (0 answered), repeats 0 (mean difference n/a), "
        "tau-b with the others 0.833 on 15 items"]
    assert run(db, "validate", "sysA", "sysB", "sysC", "--bootstrap", "50", "--json") == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(q["reviewer"], q["flagged"]) for q in doc["reviewer_quality"]] == [("ana", False), ("ben", True),
                                                                                ("cat", False)]
    assert doc["projected_width"][0]["target_items"] == 200 and doc["projected_width"][0]["items"] == 15
