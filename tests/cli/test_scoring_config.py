"""The scoring configuration belongs to the results: stored with each scored run, reused, and
`mteval score --all` scoring only what is unscored, incomplete or stale."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.store import Workspace
from tests.conftest import SHARED_DATA

FAST = ["--metrics", "core.exact", "core.chrf", "--bootstrap", "20"]


def _toy(tmp: Path) -> str:
    corpus = tmp / "toy.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"e{i}", "source": f"the cat {i} sleeps",
                                          "reference": f"le chat {i} dort"}) + "\n" for i in range(12)),
                      encoding="utf-8")
    db = str(tmp / "ws.sqlite")
    assert main(["--db", db, "import", "corpus", str(corpus), "--id", "toy", "--source-lang", "eng",
                 "--target-lang", "fra"]) == 0
    for name, keep in (("good", 12), ("half", 6)):
        p = tmp / f"{name}.jsonl"
        p.write_text(json.dumps({"run": {"run_id": name}}) + "\n" + "".join(
            json.dumps({"id": f"e{i}", "predicted": f"le chat {i} dort" if i < keep else "un chien"}) + "\n"
            for i in range(12)), encoding="utf-8")
        assert main(["--db", db, "import", "run", str(p), "--corpus", "toy"]) == 0
    return db


@pytest.fixture
def toy(tmp_path, capsys):
    db = _toy(tmp_path)
    capsys.readouterr()
    return db


def _card(db: str, run_id: str) -> dict:
    from mteval_gui.store.results import load_run_card_dict

    ws = Workspace(db)
    try:
        return load_run_card_dict(ws, run_id)
    finally:
        ws.close()


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_configuration_is_stored_with_the_run_card_and_the_runs_table(toy, tmp_path, capsys):
    from mteval_gui.app.runs import load_run_row

    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    assert main(["--db", toy, "score", "good", *FAST, "--gloss-file", f"fra={gloss}", "--seed", "7"]) == 0
    scoring = _card(toy, "good")["scoring"]
    assert scoring["metrics"] == ["core.exact", "core.chrf"] and scoring["exclude"] == []
    assert scoring["options"]["gloss_files"] == {"fra": [str(gloss.resolve())]}
    assert scoring["files"] == [{"role": "gloss", "kind": None, "language": "fra", "path": str(gloss.resolve()),
                                 "sha256": _sha(gloss)}]
    assert scoring["metric_versions"] == {"core.exact": "2", "core.chrf": "2"}
    assert (scoring["seed"], scoring["n_bootstrap"], scoring["batch_size"]) == (7, 20, 50)
    assert scoring["corpus_sha256"] and scoring["run_sha256"] and scoring["recorded"] is True
    ws = Workspace(toy)
    row = load_run_row(ws, "good")
    assert row.scoring is not None and row.scoring.options.gloss_files == {"fra": [str(gloss.resolve())]}
    assert load_run_row(ws, "half").scoring is None
    ws.close()
    from mteval_gui.scoring.runcard import validate_run_card

    out = tmp_path / "card.json"
    assert main(["--db", toy, "export", "runcard", "good", "-o", str(out)]) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["scoring"] == scoring and validate_run_card(exported) == []


def test_score_all_skips_current_runs_and_replace_reuses_the_stored_configuration(toy, tmp_path, capsys):
    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    assert main(["--db", toy, "score", "good", *FAST, "--gloss-file", f"fra={gloss}"]) == 0
    before = _card(toy, "good")
    capsys.readouterr()
    assert main(["--db", toy, "score", "--all", "--metrics", "core.exact", "--bootstrap", "20"]) == 1
    err = capsys.readouterr().err
    assert ("good: already scored with another configuration; this would change: metrics: core.chrf, core.exact → "
            "core.exact (drops core.chrf)") in err
    assert "nothing was scored: add --replace" in err
    assert _card(toy, "half") is None  # refused as a whole: the unscored run was not scored either
    assert main(["--db", toy, "score", "--all"]) == 0
    out = capsys.readouterr().out
    assert "good: up to date (same configuration and inputs); --replace scores it again" in out
    assert "half: composite" in out
    assert _card(toy, "good")["timestamp"] == before["timestamp"]
    assert _card(toy, "half")["scoring"]["options"]["gloss_files"] == {}  # the settings, not good's options
    assert main(["--db", toy, "score", "good", "--replace"]) == 0
    out = capsys.readouterr().out
    assert (f"good: scoring it again with its stored configuration; the workspace settings differ (gloss files "
            f"(fra): {gloss.resolve()} → none) but are not applied") in out
    again = _card(toy, "good")["scoring"]
    assert again["metrics"] == ["core.exact", "core.chrf"] and again["n_bootstrap"] == 20
    assert again["options"]["gloss_files"] == {"fra": [str(gloss.resolve())]}
    assert main(["--db", toy, "score", "good", "--replace", "--bootstrap", "30",
                 "--gloss-file", "fra=/nowhere.tsv"]) == 0
    out = capsys.readouterr().out
    assert (f"good: scoring it again with its stored configuration, changed: gloss files (fra): "
            f"{gloss.resolve()} → /nowhere.tsv; bootstrap resamples: 20 → 30") in out
    card = _card(toy, "good")
    assert card["scoring"]["files"][0]["sha256"] is None and card["scores"]["confidence_intervals"][
        "chrf_plus_plus"]["n_bootstrap"] == 30


def test_a_changed_input_makes_the_run_stale(toy, tmp_path, capsys):
    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    assert main(["--db", toy, "score", "--all", *FAST, "--gloss-file", f"fra={gloss}"]) == 0
    capsys.readouterr()
    gloss.write_text("chat\tcat\nchien\tdog\n", encoding="utf-8")
    assert main(["--db", toy, "list", "runs"]) == 0
    listed = capsys.readouterr().out
    assert f"good: input changed: gloss file {gloss.resolve()} changed content\n" in listed
    assert [line.split()[-1] for line in listed.splitlines()[2:4]] == ["stale", "stale"]
    assert main(["--db", toy, "list", "runs", "--json"]) == 0
    rows = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["good"]["freshness"] == "stale" and rows["good"]["status_display"] == "stale"
    assert rows["good"]["stale_reasons"] == [f"gloss file {gloss.resolve()} changed content"]
    assert rows["good"]["settings_changes"] == [f"gloss files (fra): {gloss.resolve()} → none"]
    assert main(["--db", toy, "score", "--all"]) == 0
    out = capsys.readouterr().out
    assert (f"good: scoring it again with its stored configuration (inputs changed since: gloss file "
            f"{gloss.resolve()} changed content)") in out
    assert _card(toy, "good")["scoring"]["files"][0]["sha256"] == _sha(gloss)
    assert _card(toy, "good")["scoring"]["metrics"] == ["core.exact", "core.chrf"]
    assert main(["--db", toy, "score", "--all"]) == 0
    assert capsys.readouterr().out.count(": up to date (same configuration and inputs)") == 2
    assert main(["--db", toy, "list", "runs", "--json"]) == 0
    rows = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["good"]["freshness"] == "current" and rows["good"]["stale_reasons"] == []


def test_a_new_metric_version_makes_the_run_stale(toy, monkeypatch, capsys):
    from mteval_gui.app.scoring_config import plan_scoring
    from mteval_gui.scoring.metrics.surface import ExactMatchMetric

    assert main(["--db", toy, "score", "good", *FAST]) == 0
    monkeypatch.setattr(ExactMatchMetric, "info", dataclasses.replace(ExactMatchMetric.info, version="3"))
    ws = Workspace(toy)
    (p,) = plan_scoring(ws, ["good"]).runs
    ws.close()
    assert (p.state, p.action, p.stale) == ("stale", "rescore", ["metric core.exact version 2 → 3"])


def test_workspace_settings_configure_only_runs_scored_for_the_first_time(toy, tmp_path, capsys):
    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    assert main(["--db", toy, "score", "good", *FAST]) == 0
    assert main(["--db", toy, "settings", "set", "gloss_files", json.dumps({"fra": [str(gloss)]})]) == 0
    capsys.readouterr()
    assert main(["--db", toy, "score", "--all", "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "good: up to date" in out and "half: composite" in out
    assert _card(toy, "good")["scoring"]["options"]["gloss_files"] == {}
    assert _card(toy, "half")["scoring"]["options"]["gloss_files"] == {"fra": [str(gloss.resolve())]}


def test_an_interrupted_job_resumes_with_its_configuration(toy, tmp_path, capsys):
    from mteval_gui.app.scoring import CancelToken, score_workspace_run
    from mteval_gui.app.scoring_config import plan_scoring
    from mteval_gui.domain.settings import ScoringOptions
    from mteval_gui.errors import Cancelled

    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    ws = Workspace(toy)
    token = CancelToken()

    def stop_when_scoring_starts(p):  # the job is registered, its configuration stored
        if p.stage == "scoring":
            token.cancel()

    with pytest.raises(Cancelled):
        score_workspace_run(ws, "good", metrics=["core.exact"], batch_size=4, n_bootstrap=20,
                            options=ScoringOptions(gloss_files={"fra": [str(gloss)]}),
                            on_progress=stop_when_scoring_starts, cancel=token)
    (p,) = plan_scoring(ws, ["good"]).runs
    assert (p.state, p.action) == ("incomplete", "resume")
    assert p.configuration.options.gloss_files == {"fra": [str(gloss.resolve())]}
    assert p.configuration.batch_size == 4 and p.configuration.metrics == ["core.exact"]
    ws.close()
    assert main(["--db", toy, "score", "good"]) == 0
    out = capsys.readouterr().out
    assert "good: resuming its interrupted scoring job" in out
    card = _card(toy, "good")
    assert card["scoring"]["options"]["gloss_files"] == {"fra": [str(gloss.resolve())]}
    ws = Workspace(toy)
    from mteval_gui.store.results import scoring_job

    assert scoring_job(ws, "good")["state"] == "done"
    ws.close()


def test_runs_scored_before_configurations_were_stored_keep_their_options(toy, tmp_path, capsys):
    """A workspace of an older version: no ``scoring_config``, no ``scoring`` block; the options
    are read back from the scoring job, so ``score --all`` leaves the run alone."""
    gloss = tmp_path / "fra.tsv"
    gloss.write_text("chat\tcat\n", encoding="utf-8")
    assert main(["--db", toy, "score", "good", *FAST, "--gloss-file", f"fra={gloss}"]) == 0
    ws = Workspace(toy)
    with ws.transaction() as c:
        c.execute("UPDATE runs SET scoring_config = NULL, run_card = json_remove(run_card, '$.scoring')")
    from mteval_gui.app.scoring_config import stored_configuration

    legacy = stored_configuration(ws, "good")
    assert legacy.recorded is False and legacy.options.gloss_files == {"fra": [str(gloss.resolve())]}
    assert legacy.metric_versions == {"core.exact": "2", "core.chrf": "2"} and legacy.n_bootstrap == 20
    ws.close()
    capsys.readouterr()
    assert main(["--db", toy, "score", "good"]) == 0
    assert "good: up to date" in capsys.readouterr().out
    assert main(["--db", toy, "score", "good", "--replace"]) == 0
    scoring = _card(toy, "good")["scoring"]
    assert scoring["options"]["gloss_files"] == {"fra": [str(gloss.resolve())]} and scoring["recorded"] is True
    assert sorted(m for m, a in _card(toy, "good")["metric_availability"].items() if "." in m) == [
        "core.chrf", "core.exact"]


def test_the_background_job_follows_the_same_rule(toy, capsys):
    from mteval_gui.app.scoring import score_runs
    from mteval_gui.app.scoring_config import plan_scoring

    assert main(["--db", toy, "score", "good", *FAST]) == 0
    before = _card(toy, "good")["timestamp"]
    partial: list[dict] = []
    summaries = score_runs(toy, ["good", "half"], score_kwargs={"n_bootstrap": 20},
                           on_progress=lambda p: None, on_partial=partial.append, cancel_event=None)
    assert [s["run_id"] for s in summaries] == ["good", "half"]
    assert summaries[0]["skipped"] is True and "up to date" in summaries[0]["message"]
    assert summaries[1]["finished"] is True and _card(toy, "good")["timestamp"] == before
    ws = Workspace(toy)
    plan = plan_scoring(ws, ["good", "half"], replace=True)
    kwargs = plan.job_kwargs(ws.path)
    ws.close()
    assert kwargs["run_ids"] == ["good", "half"] and set(kwargs["configurations"]) == {"good", "half"}
    assert kwargs["configurations"]["good"]["metrics"] == ["core.exact", "core.chrf"]
    score_runs(**kwargs, on_progress=lambda p: None, on_partial=partial.append, cancel_event=None)
    assert _card(toy, "good")["scoring"]["metrics"] == ["core.exact", "core.chrf"]


@pytest.mark.shared_data
def test_score_all_keeps_the_gloss_file_of_scored_cree_runs(tmp_path, capsys):
    """Five Cree runs scored with a gloss file and the strict analyzer: ``score --all`` afterwards
    rescored them without the gloss file (crk.semantic vanished, composites changed); now it leaves
    them alone, and ``--replace`` without options scores again with the gloss file."""
    crk = SHARED_DATA / "crk"
    gloss = crk / "glosses" / "crkeng_test_db.importjson"
    analyzer = crk / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    db = str(tmp_path / "crk.sqlite")
    assert main(["--db", db, "import", "corpus", str(crk / "verbforms" / "corpus.jsonl"), "--id", "crk-verbs",
                 "--source-lang", "eng", "--target-lang", "crk"]) == 0
    runs = sorted((crk / "verbforms" / "runs").glob("*.jsonl"))
    for r in runs:
        assert main(["--db", db, "import", "run", str(r), "--corpus", "crk-verbs"]) == 0
    assert main(["--db", db, "score", "--all", "--gloss-file", f"crk={gloss}", "--analyzer", str(analyzer),
                 "--exclude", "core.ter", "--bootstrap", "20"]) == 0
    ids = ["crk-macron", "crk-mixed", "crk-nocirc", "crk-oracle", "crk-wrongperson"]
    first = {r: _card(db, r) for r in ids}
    assert all(card["score_sources"]["semantic_score"] == "crk.semantic" for card in first.values())
    assert first["crk-mixed"]["scores"]["composite"] == 0.7245  # only its English copies are wrong-language
    assert first["crk-macron"]["scores"]["composite"] == 0.8652  # accepted after the folds
    capsys.readouterr()
    assert main(["--db", db, "score", "--all"]) == 0
    out = capsys.readouterr().out
    composites = {r: _card(db, r)["scores"]["composite"] for r in ids}
    assert composites == {r: first[r]["scores"]["composite"] for r in ids}
    assert {r: _card(db, r) for r in ids} == first  # nothing rescored, not even the time stamps
    assert out.count(": up to date (same configuration and inputs)") == 5 and "composite" not in out
    # it says that the workspace settings (no gloss file) are not what these runs were scored with
    assert out.count(f"the workspace settings differ (analyzer file: {analyzer.resolve()} → none; gloss files (crk): "
                     f"{gloss.resolve()} → none) but are not applied") == 5
    assert main(["--db", db, "list", "runs"]) == 0
    listed = capsys.readouterr().out
    status = {line.split()[0]: line.split()[-1] for line in listed.splitlines()
              if line.startswith("crk-") and not line.split()[0].endswith(":")}
    assert status == dict.fromkeys(ids, "(settings)")  # "stale (settings)"
    assert listed.count(f"gloss files (crk): {gloss.resolve()} → none") == 5
    for card in first.values():
        assert card["scoring"]["options"]["gloss_files"] == {"crk": [str(gloss.resolve())]}
        files = {(f["role"], f["kind"]): f for f in card["scoring"]["files"]}
        assert files[("gloss", None)]["sha256"] == _sha(gloss)
        assert files[("analyzer", "strict")] == {"role": "analyzer", "kind": "strict", "language": "crk",
                                                 "path": str(analyzer.resolve()), "sha256": _sha(analyzer)}
        assert card["scoring"]["exclude"] == ["core.ter"] and "crk.semantic" in card["scoring"]["metric_versions"]
    assert main(["--db", db, "score", "crk-mixed", "--replace"]) == 0
    again = _card(db, "crk-mixed")
    assert again["score_sources"]["semantic_score"] == "crk.semantic"
    assert again["scores"]["composite"] == first["crk-mixed"]["scores"]["composite"]
    assert again["scores"]["semantic_score"] == first["crk-mixed"]["scores"]["semantic_score"]
    assert again["scoring"]["options"] == first["crk-mixed"]["scoring"]["options"]
    assert again["scoring"]["exclude"] == ["core.ter"]
