"""The run card as stored is the scoring result; the speaker-review status is joined when it is read.

A reviewed run (two speakers of French rate its six entries, one marks an error span, one confirms
its fluent tier) exports the card in ``golden/reviewed_run_card.json``: the ``human_review`` block
and the displayed tier come from the judgment log at the moment of the export. Judgments, a
sign-off and a withdrawal never change the stored card's text.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mteval_gui.app import review, signoff
from mteval_gui.app.exports import export_run_card
from mteval_gui.app.runs import load_run_row
from mteval_gui.cli import main
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J

GOLDEN = Path(__file__).parent / "golden" / "reviewed_run_card.json"
REFERENCES = [f"le chat {i} dort sur le tapis" for i in range(6)]
# (adequacy, fluency) per entry: medians 4.5 and 5, α 1.0 and 0.7963 — they support the fluent tier
ANA = [(5, 5), (4, 4), (5, 5), (2, 2), (5, 4), (4, 5)]
BEN = [(5, 5), (4, 4), (5, 5), (2, 2), (5, 5), (4, 5)]


def _stored_text(ws: Workspace) -> str:
    return ws.conn.execute("SELECT run_card FROM runs WHERE run_id = 'r'").fetchone()[0]


def _volatile_removed(card: dict) -> dict:
    """The card without what changes from one scoring to the next (the time) or with the installation
    (the program's and sacrebleu's versions)."""
    card = dict(card)
    card["timestamp"] = card["harness_version"] = "-"
    for name in ("fingerprint", "score_fingerprint"):  # their hashes cover the program's version
        components = {k: ("-" if k in ("app_version", "harness_version") else v)
                      for k, v in card[name]["components"].items()}
        card[name] = {"hash": "-", "components": components}
    return json.loads(json.dumps(card).replace("|version:2.6.0", "|version:-"))


@pytest.fixture
def scored(tmp_path):
    """A fluent run of six entries (one output differs from its reference), scored with exact match
    and chrF++, and two speakers of French."""
    from mteval_gui.app.scoring import score_workspace_run

    ws = Workspace(tmp_path / "ws.sqlite")
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i:03d}", source=f"the cat {i} sleeps on the mat", reference=ref)
        for i, ref in enumerate(REFERENCES)]))
    outputs = [Output(id=f"e{i:03d}", predicted="le chat 3 dort sur la natte" if i == 3 else ref)
               for i, ref in enumerate(REFERENCES)]
    repo.add_run(ws, Run(meta=RunMeta(run_id="r", model_slug="m"), corpus_id="c", outputs=outputs))
    score_workspace_run(ws, "r", metrics=["core.exact", "core.chrf"], n_bootstrap=30, seed=7)
    for rid in ("ana", "ben"):
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title(), languages=["fra"]))
    yield ws
    ws.close()


def _rate(ws: Workspace) -> None:
    span = {"start": 0, "end": 2, "severity": "minor", "category": "mistranslation"}
    for i, ((a, f), (b, g)) in enumerate(zip(ANA, BEN, strict=True)):
        review.record_judgment(ws, Judgment(reviewer_id="ana", run_id="r", entry_id=f"e{i:03d}", adequacy=a,
                                            fluency=f, payload={"spans": [span]} if i == 0 else {}))
        review.record_judgment(ws, Judgment(reviewer_id="ben", run_id="r", entry_id=f"e{i:03d}", adequacy=b,
                                            fluency=g))


def _exported(ws: Workspace, path: Path) -> dict:
    return json.loads(export_run_card(ws, "r", path).read_text(encoding="utf-8"))


def test_the_exported_card_of_a_reviewed_run_is_the_golden_one(scored, tmp_path):
    _rate(scored)
    signoff.signoff(scored, "r", "ana", "confirm", note="reads well")
    card = _exported(scored, tmp_path / "card.json")
    assert card["human_review"] == {
        "reviewers": 2, "judgments": 12, "agreement": 1.0, "confirmed": True, "rated_entries": 6, "raters": 2,
        "required_entries": 6, "confirmed_by": ["ana"], "esa_score": None, "esa_entries": 0,
        "mqm_penalty": 1.0}
    assert card["scores"]["quality_tier_display"] == "fluent (confirmed by speaker review)"
    if os.environ.get("MTEVAL_WRITE_GOLDEN"):  # after a deliberate change of the card format
        GOLDEN.write_text(json.dumps(_volatile_removed(card), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert _volatile_removed(card) == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_review_changes_leave_the_stored_card_alone_and_show_in_what_is_read(scored, tmp_path, capsys):
    stored = _stored_text(scored)
    assert _exported(scored, tmp_path / "0.json")["human_review"]["judgments"] == 0

    _rate(scored)
    assert _stored_text(scored) == stored
    card = _exported(scored, tmp_path / "1.json")
    assert (card["human_review"]["judgments"], card["human_review"]["confirmed"]) == (12, None)
    assert card["scores"]["quality_tier_display"] == "fluent (pending speaker review)"

    signoff.signoff(scored, "r", "ana", "confirm")
    assert _stored_text(scored) == stored
    card = _exported(scored, tmp_path / "2.json")
    assert (card["human_review"]["confirmed"], card["human_review"]["confirmed_by"]) == (True, ["ana"])
    assert card["scores"]["quality_tier_display"] == "fluent (confirmed by speaker review)"
    row = load_run_row(scored, "r")
    assert (row.confirmed, row.tier_display) == (True, "fluent (confirmed by speaker review)")
    assert row.card is not None and row.card.human_review.confirmed_by == ["ana"]

    assert main(["--db", str(scored.path), "reviewers", "withdraw", "ben", "--by", "community lead", "--yes"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  r: speaker review now 6 judgment(s) by 1 reviewer(s); tier fluent (pending speaker review)"]
    assert _stored_text(scored) == stored
    card = _exported(scored, tmp_path / "3.json")
    assert card["human_review"] == {
        "reviewers": 1, "judgments": 6, "agreement": None, "confirmed": None, "rated_entries": 0, "raters": 1,
        "required_entries": 6, "confirmed_by": [], "esa_score": None, "esa_entries": 0,
        "mqm_penalty": 1.0}
    assert card["scores"]["quality_tier_display"] == "fluent (pending speaker review)"
    row = load_run_row(scored, "r")
    assert (row.confirmed, row.pending_review) == (None, True)
