"""The GUI's Score action follows the rule of `mteval score`: a scored run keeps its stored
configuration, an up-to-date run is scored again only when the user says so, and the Runs
table marks a run stale when an input changed or the workspace settings differ from how it
was scored."""

from __future__ import annotations

from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.app.settings import set_setting
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.store.results import load_run_card_dict


def _row(window, run_id):
    return next(r for r in window.runs_view.model.rows if r.run_id == run_id)


def _composite_cell(window, run_id):
    model = window.runs_view.model
    index = model.index(model.row_of(run_id), model.column_index("composite"))
    return index.data(), model.data(index, 3)  # display text, tooltip (Qt.ToolTipRole)


def test_the_runs_table_marks_a_run_scored_with_other_settings_stale(window, scored_ws, tmp_path):
    assert window.open_workspace(scored_ws.path)
    text, _ = _composite_cell(window, "good")
    assert text == "1.0000 · engineering estimate" and _row(window, "good").status_display == "scored"
    gloss = tmp_path / "crk.tsv"
    gloss.write_text("atim\tdog\n", encoding="utf-8")
    set_setting(scored_ws, "gloss_files", {"crk": [str(gloss)]})
    assert window.open_workspace(scored_ws.path)
    row = _row(window, "good")
    assert row.settings_changes == [f"gloss files (crk): none → {gloss.resolve()}"] and row.stale_reasons == []
    assert row.status_display == "stale (settings)" and row.freshness == "current"
    text, tip = _composite_cell(window, "good")
    assert text == "1.0000 · stale · engineering estimate"
    assert f"  • gloss files (crk): none → {gloss.resolve()}" in tip
    assert "scoring it again keeps the stored one" in tip


def test_score_asks_before_scoring_an_up_to_date_run_again_and_keeps_its_configuration(window, scored_ws, tmp_path,
                                                                                         qtbot, monkeypatch):
    gloss = tmp_path / "crk.tsv"
    gloss.write_text("atim\tdog\n", encoding="utf-8")
    set_setting(scored_ws, "gloss_files", {"crk": [str(gloss)]})
    assert window.open_workspace(scored_ws.path)
    before = load_run_card_dict(scored_ws, "good")
    asked: list[list[str]] = []
    monkeypatch.setattr(window.scoring, "_confirm_rescore", lambda messages: asked.append(messages) or False)
    window.score_runs(["good"])
    assert window.scoring.worker is None  # declined: nothing started
    (messages,) = asked
    assert messages == [f"good: up to date (same configuration and inputs); --replace scores it again; the workspace "
                        f"settings differ (gloss files (crk): none → {gloss.resolve()}) but are not applied: options "
                        f"given with --replace change the stored configuration"]
    assert "Nothing to score" in window.statusBar().currentMessage()
    assert load_run_card_dict(scored_ws, "good") == before
    monkeypatch.setattr(window.scoring, "_confirm_rescore", lambda messages: True)
    with qtbot.waitSignal(window.scoring.finished, timeout=180000) as blocker:
        window.score_runs(["good"])
    assert blocker.args[0].status == "done"
    after = load_run_card_dict(scored_ws, "good")
    assert after["timestamp"] != before["timestamp"]  # scored again ...
    assert after["scoring"]["options"]["gloss_files"] == {}  # ... with its stored configuration, not the settings
    assert after["scores"]["composite"] == before["scores"]["composite"]
    qtbot.waitUntil(lambda: window.scoring.jobs.active == 0, timeout=10000)


def test_score_rescores_a_stale_run_with_its_stored_gloss_file_without_asking(window, small_ws, tmp_path, qtbot,
                                                                             monkeypatch):
    gloss = tmp_path / "crk.tsv"
    gloss.write_text("atim\tdog\n", encoding="utf-8")
    score_workspace_run(small_ws, "good", options=ScoringOptions(gloss_files={"crk": [str(gloss)]}),
                        metrics=["core.exact", "core.chrf"], n_bootstrap=20)
    first = load_run_card_dict(small_ws, "good")
    gloss.write_text("atim\tdog\nnikamowak\tthey sing\n", encoding="utf-8")
    assert window.open_workspace(small_ws.path)
    row = _row(window, "good")
    assert row.stale_reasons == [f"gloss file {gloss.resolve()} changed content"]
    assert row.status_display == "stale" and row.freshness == "stale"
    text, tip = _composite_cell(window, "good")
    assert text == "1.0000 · stale · engineering estimate"
    assert f"  • gloss file {gloss.resolve()} changed content" in tip

    def never(_messages):
        raise AssertionError("a stale run is scored without asking")

    monkeypatch.setattr(window.scoring, "_confirm_rescore", never)
    with qtbot.waitSignal(window.scoring.finished, timeout=180000) as blocker:
        window.score_runs(["good"])
        assert "good: scoring it again with its stored configuration (inputs changed since: gloss file" in (
            window.statusBar().currentMessage())
    assert blocker.args[0].status == "done"
    card = load_run_card_dict(small_ws, "good")
    assert card["scoring"]["options"]["gloss_files"] == {"crk": [str(gloss.resolve())]}
    assert card["scoring"]["metrics"] == ["core.exact", "core.chrf"] and card["scoring"]["n_bootstrap"] == 20
    assert card["scoring"]["files"][0]["sha256"] != first["scoring"]["files"][0]["sha256"]
    qtbot.waitUntil(lambda: not _row(window, "good").stale_reasons, timeout=20000)
    # current now; still marked because the workspace settings name no gloss file
    assert _row(window, "good").settings_changes == [f"gloss files (crk): {gloss.resolve()} → none"]
    assert _row(window, "good").status_display == "stale (settings)"
    qtbot.waitUntil(lambda: window.scoring.jobs.active == 0, timeout=10000)


def test_the_runs_table_shows_how_each_run_was_scored(window, scored_ws, tmp_path):
    """The configuration a run was scored with (metric set, analyzer and gloss files with their sha256,
    options) was stored and in the run card, but the Runs table showed none of it."""
    import hashlib

    from mteval_gui.cli import main

    gloss = tmp_path / "crk.tsv"
    gloss.write_text("atim\tdog\n", encoding="utf-8")
    assert main(["--db", str(scored_ws.path), "score", "poor", "--replace", "--gloss-file", f"crk={gloss}",
                 "--exclude", "core.ter", "--bootstrap", "20", "--multi-ref"]) == 0
    assert window.open_workspace(scored_ws.path)
    sha = hashlib.sha256(gloss.read_bytes()).hexdigest()[:12]
    _, tip = _composite_cell(window, "poor")
    assert tip.split("Scored with:\n", 1)[1].split("\n\n", 1)[0] == (
        "  • metrics: every metric that applies (except core.ter)\n"
        f"  • gloss file (crk): {gloss.resolve()} · sha256 {sha}\n"
        "  • analyzer: none\n"
        "  • options: multi-reference\n"
        "  • 20 bootstrap resamples, seed 12345")
    _, tip = _composite_cell(window, "good")
    assert tip.split("Scored with:\n", 1)[1].split("\n\n", 1)[0] == (
        "  • metrics: every metric that applies\n"
        "  • analyzer: none\n"
        "  • gloss files: none\n"
        "  • 1000 bootstrap resamples, seed 12345")
