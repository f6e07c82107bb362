"""``mteval calibrate`` over a rated study made from this tool's own per-entry metric values."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.calibration import calibration_study, card_profile, write_profile
from mteval_gui.cards import load_card, user_cards_dir
from mteval_gui.cli import main
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.errors import CardError, MtevalError, StoreError
from mteval_gui.scoring.composite import compute_composite
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.store.results import load_run_card_summary
from mteval_gui.validation.calibration import tier_of
from tests.app.calibration_helpers import TRUE_WEIGHTS, build_study

# one seeded study; the fitted weights and intervals below are what this seed gives
SEED = 5


@pytest.fixture(scope="module")
def study_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("calibration") / "ws.db"
    build_study(path, seed=SEED).close()
    return path


@pytest.fixture
def ws(study_path):
    w = Workspace(study_path)
    yield w
    w.close()


@pytest.fixture
def fra_card(tmp_path, monkeypatch):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "fra.json").write_text(json.dumps({"code": "fra", "name": "French"}), encoding="utf-8")
    monkeypatch.setenv("MTEVAL_CARDS_DIR", str(folder))
    return folder / "fra.json"


def test_calibration_recovers_the_known_weights_and_ranks_at_least_as_well_as_the_seed(ws):
    outcome = calibration_study(ws, ["c"], "fra", n_bootstrap=1000, seed=12345)
    cal = outcome.calibration
    assert cal.profile == "B"
    assert cal.keys == ["chrf_plus_plus", "equivalent_match_rate", "exact_match_rate", "code_switching_rate",
                        "hallucination_rate"]
    for key, true in TRUE_WEIGHTS.items():
        lo, hi = cal.weights_ci[key]
        assert lo <= true <= hi, (key, true, lo, hi)
    assert sum(cal.weights.values()) == pytest.approx(1.0, abs=1e-3)
    assert cal.kendall["calibrated"].value >= cal.kendall["seed"].value
    ev = cal.evidence
    assert (ev["items"], ev["entries"], ev["ratings"], ev["raters"], ev["runs"]) == (
        200, 40, 600, 3, ["sys0", "sys1", "sys2", "sys3", "sys4"])
    assert ev["score_sources"] == ["task_a"]
    # every run changes tier or not by the calibrated thresholds applied to its card's scores
    assert [r.run_id for r in outcome.runs] == ["sys0", "sys1", "sys2", "sys3", "sys4"]
    for r in outcome.runs:  # the seed side is what the run cards say (scored with the seed weights)
        card = load_run_card_summary(ws, r.run_id)["scores"]
        assert (r.seed_composite, r.seed_tier) == (card["composite"], card["quality_tier"])
        assert r.calibrated_composite == compute_composite(card, "B", cal.weights).value
        assert r.calibrated_tier == tier_of(r.calibrated_composite, cal.thresholds)
    assert outcome.corpus_versions == {"c": {"version": "2", "sha256": outcome.corpus_versions["c"]["sha256"],
                                             "speaker_version": None}}


def test_json_has_the_documented_keys(ws, study_path, capsys):
    assert main(["--db", str(study_path), "calibrate", "c", "--lang", "fra", "--json", "--bootstrap", "200"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["weights", "weights_ci", "tiers", "tau_b", "evidence"]
    assert set(doc["weights"]) == set(TRUE_WEIGHTS) and set(doc["weights_ci"]) == set(TRUE_WEIGHTS)
    assert list(doc["tiers"]["thresholds"]) == ["fluent", "deployable", "functional", "emerging"]
    assert set(doc["tau_b"]) == {"seed", "calibrated"}
    assert doc["evidence"]["raters"] == 3 and doc["evidence"]["corpora"] == ["c"]
    assert len(doc["evidence"]["tier_changes"]) == 5


def test_direct_esa_scores_are_used_where_a_judgment_has_one(tmp_path):
    ws = build_study(tmp_path / "esa.db", seed=SEED, esa_rater="cat")
    outcome = calibration_study(ws, ["c"], "fra", n_bootstrap=200)
    assert outcome.calibration.evidence["score_sources"] == ["esa", "task_a"]
    for key, true in TRUE_WEIGHTS.items():
        lo, hi = outcome.calibration.weights_ci[key]
        assert lo - 0.05 <= true <= hi + 0.05
    ws.close()


def test_excluded_and_non_speaking_reviewers_are_left_out_with_the_reason(ws):
    J.add_reviewer(ws, Reviewer(reviewer_id="dan", name="Dan", languages=["fra"]))
    J.add_reviewer(ws, Reviewer(reviewer_id="eve", name="Eve", languages=["ewe"]))
    for rid in ("dan", "eve"):
        for e in range(40):
            J.record_judgment(ws, Judgment(reviewer_id=rid, run_id="sys0", entry_id=f"e{e:02d}", adequacy=5,
                                           fluency=5))
    try:
        outcome = calibration_study(ws, ["c"], "fra", n_bootstrap=100,
                                    excluded_reviewers=lambda r: "failed the attention checks" if r == "dan" else None)
        ev = outcome.calibration.evidence
        assert ev["rater_ids"] == ["ana", "ben", "cat"]
        assert ev["excluded_raters"] == {"dan": "failed the attention checks",
                                         "eve": "not a speaker: the reviewer's record does not list fra"}
    finally:
        with ws.transaction() as c:
            c.execute("DELETE FROM judgments WHERE reviewer_id IN ('dan', 'eve')")
            c.execute("DELETE FROM reviewers WHERE reviewer_id IN ('dan', 'eve')")


def test_refused_for_another_language_or_an_unknown_corpus(ws):
    with pytest.raises(StoreError, match="corpus 'c' translates into 'fra', not 'ewe'"):
        calibration_study(ws, ["c"], "ewe")
    with pytest.raises(MtevalError, match="no corpus 'nope'"):
        calibration_study(ws, ["nope"], "fra")


def test_write_card_keeps_a_named_profile_that_scoring_uses_only_when_asked(ws, fra_card):
    outcome = calibration_study(ws, ["c"], "fra", n_bootstrap=200)
    with pytest.raises(CardError, match="profile name 'A' is a seed profile's"):
        write_profile(outcome, "A")
    with pytest.raises(CardError, match="profile name 'a b'"):
        write_profile(outcome, "a b")
    assert not (user_cards_dir() / "fra.json").exists()
    path = write_profile(outcome, "speakers-1")
    assert path == user_cards_dir() / "fra.json"  # the bundled card is copied, then used
    card = load_card("fra")
    p = card.composite_profiles["speakers-1"]
    assert p.base == "B" and p.weights == outcome.calibration.weights and p.tiers == outcome.calibration.thresholds
    assert p.evidence["raters"] == 3 and p.evidence["ratings"] == 600 and p.evidence["corpora"] == ["c"]
    assert p.evidence["corpus_versions"]["c"]["version"] == "2" and p.evidence["date"] == outcome.date
    assert card.default_composite_profile is None
    assert card_profile("fra", None) is None  # not the default: the seed weights
    assert card_profile("fra", "speakers-1") == ("speakers-1", {"weights": p.weights, "tiers": p.tiers, "base": "B"})
    with pytest.raises(MtevalError, match="has no composite profile 'other' \\(it has: speakers-1\\)"):
        card_profile("fra", "other")
    write_profile(outcome, "speakers-2", make_default=True)
    card = load_card("fra")
    assert sorted(card.composite_profiles) == ["speakers-1", "speakers-2"]
    assert card_profile("fra", None)[0] == "speakers-2"


def test_scoring_uses_a_calibrated_profile_only_when_asked_and_the_run_card_records_it(ws, fra_card, tmp_path,
                                                                                       capsys):
    import sqlite3

    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.app.scoring_config import ScoringOverrides, resolve_configuration
    from mteval_gui.scoring.composite import compute_composite
    from mteval_gui.store.results import load_run_card_dict
    from mteval_gui.validation.calibration import tier_of

    copy = tmp_path / "copy.db"
    dest = sqlite3.connect(copy)
    ws.conn.backup(dest)
    dest.close()
    outcome = calibration_study(ws, ["c"], "fra", n_bootstrap=200)
    write_profile(outcome, "speakers-1")
    w = Workspace(copy)
    try:
        seed_card = load_run_card_dict(w, "sys0")
        assert "composite_calibration" not in seed_card and "composite_profile" not in seed_card["scoring"]
        # rescored without a name: the card has no default, so the seed weights; the composite is the same
        score_workspace_run(w, "sys0", configuration=resolve_configuration(w, "sys0", None, ScoringOverrides.of(
            metrics=["core.chrf", "core.exact", "core.equivalent", "core.code_switching", "core.hallucination"],
            seed=7, n_bootstrap=30)))
        again = load_run_card_dict(w, "sys0")
        assert "composite_calibration" not in again
        assert again["scores"]["composite"] == seed_card["scores"]["composite"]
        config = resolve_configuration(w, "sys0", None, ScoringOverrides.of(
            metrics=["core.chrf", "core.exact", "core.equivalent", "core.code_switching", "core.hallucination"],
            seed=7, n_bootstrap=30, composite_profile="speakers-1"))
        score_workspace_run(w, "sys0", configuration=config)
        card = load_run_card_dict(w, "sys0")
        cal = outcome.calibration
        assert card["composite_calibration"] == {"name": "speakers-1", "base": "B", "weights": cal.weights,
                                                 "tiers": cal.thresholds, "fitted": outcome.date}
        assert card["scoring"]["composite_profile"] == "speakers-1"
        expected = compute_composite(card["scores"], "B", cal.weights).value
        assert card["scores"]["composite"] == expected != seed_card["scores"]["composite"]
        assert card["scores"]["quality_tier"] == tier_of(expected, cal.thresholds)
        # comparisons rebuild the composite from the entries with the weights the card was scored with
        from mteval_gui.app.compare import run_statistics

        assert run_statistics(w, "sys0").composite.point() == pytest.approx(expected, abs=1e-4)
        assert card["scores"]["confidence_intervals"]["composite"]["score"] == expected
        # a name the card does not have is refused, naming those it has
        code = main(["--db", str(copy), "score", "sys0", "--replace", "--profile", "other"])
        assert code == 1
        assert "the language card has no composite profile 'other' (it has: speakers-1)" in capsys.readouterr().err
    finally:
        w.close()


def test_the_command_prints_the_report_and_refuses_thin_evidence(ws, study_path, tmp_path, fra_card, capsys):
    assert main(["--db", str(study_path), "calibrate", "c", "--lang", "fra", "--bootstrap", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "calibration of fra (profile B inputs) over c"
    assert out[1].startswith("evidence: 200 items (40 entries, 5 runs), 600 ratings by 3 raters, alpha ")
    assert "weights (95% bootstrap interval over entries)       seed" in out
    assert any(line.startswith("  fluent      >= ") and line.rstrip().endswith("rating 4") for line in out)
    assert any(line.startswith("runs that would change tier: ") for line in out)
    one = build_study(tmp_path / "one.db", seed=SEED, raters=("ana",))
    one.close()
    assert main(["--db", str(tmp_path / "one.db"), "calibrate", "c", "--lang", "fra", "--write-card"]) == 1
    assert capsys.readouterr().err == ("mteval: error: calibration refused: 1 rater (at least 2 needed); agreement α "
                                       "cannot be computed (no item has two ratings, or every rating is the same)\n")
    assert load_card("fra").composite_profiles == {} and not (user_cards_dir() / "fra.json").exists()
    assert main(["--db", str(study_path), "calibrate", "c", "--lang", "fra", "--bootstrap", "10"]) == 2


def test_reviewers_flagged_by_quality_control_are_left_out_by_default(ws, monkeypatch):
    """Without an explicit choice, calibration leaves out whom reviewer quality control flags."""
    from mteval_gui.app import reviewer_qc

    reason = "inattentive: rated the known-bad item at least as high as the real one in 3 of 3 attention checks"
    monkeypatch.setattr(reviewer_qc, "excluded_reviewers", lambda w: {"cat": reason})
    ev = calibration_study(ws, ["c"], "fra", n_bootstrap=50).calibration.evidence
    assert ev["rater_ids"] == ["ana", "ben"] and ev["excluded_raters"] == {"cat": reason}
    kept = calibration_study(ws, ["c"], "fra", n_bootstrap=50, excluded_reviewers={}).calibration.evidence
    assert kept["rater_ids"] == ["ana", "ben", "cat"]
