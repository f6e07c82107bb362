"""Run-card fingerprints by the reference harness's recipe; the condition is never null."""

from __future__ import annotations

import hashlib
import json

from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.runcard import HARNESS_FINGERPRINT_KEYS, harness_fingerprint
from mteval_gui.store import repo
from mteval_gui.store.results import load_run_card

FAST = ["core.exact", "core.chrf", "core.bleu"]


def _score(ws, meta: RunMeta):
    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"The cat {i}", reference=f"Le chat {i}") for i in range(6)])
    repo.add_corpus(ws, corpus)
    repo.import_run(ws, Run(meta=meta, corpus_id="toy",
                            outputs=[Output(id=f"e{i}", predicted=f"Le chat {i}") for i in range(6)]))
    score_workspace_run(ws, meta.run_id, metrics=FAST, n_bootstrap=20)
    card = load_run_card(ws, meta.run_id)
    assert card is not None
    return card


def test_the_harness_hash_uses_default_separators():
    components = {"dataset_sha256": "abc", "model_slug": "m/x", "condition": "naive", "system_prompt_sha256": None,
                  "temperature": 0.0, "batch_size": 25, "tools_enabled": False, "harness_version": "1.0"}
    # sha256 of '{"batch_size": 25, "condition": "naive", ...}' (", " and ": "), not of the compact form
    assert harness_fingerprint(components) == "c3d1eba5fb354e62e569127bc148da93196845d70a1ea93b37ac8b72ec649f57"


def test_card_fingerprint_follows_the_harness_recipe_and_keeps_the_own_digest(workspace):
    meta = RunMeta(run_id="r1", model_slug="acme/mt-1", condition="coached", temperature=0.2,
                   system_prompt="Translate.", batch_size=10, tools_enabled=True)
    card = _score(workspace, meta).model_dump(mode="json")
    fp = card["fingerprint"]
    assert tuple(sorted(fp["components"])) == tuple(sorted(HARNESS_FINGERPRINT_KEYS))
    assert fp["components"] == {
        "dataset_sha256": card["dataset"]["sha256"], "model_slug": "acme/mt-1", "condition": "coached",
        "system_prompt_sha256": hashlib.sha256(b"Translate.").hexdigest(), "temperature": 0.2, "batch_size": 10,
        "tools_enabled": True, "harness_version": card["harness_version"]}
    assert fp["hash"] == hashlib.sha256(
        json.dumps(fp["components"], sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    # every component repeats a card field (the harness's linter compares them)
    assert (card["condition"], card["temperature"], card["batch_size"], card["tools_enabled"]) == (
        "coached", 0.2, 10, True)
    assert card["system_prompt_sha256"] == fp["components"]["system_prompt_sha256"]
    # this tool's digest of the numbers' inputs, under its own name
    own = card["score_fingerprint"]
    assert {"corpus_sha256", "run_sha256", "config_hash", "n_bootstrap"} <= set(own["components"])
    assert own["components"]["n_bootstrap"] == 20 and own["hash"] != fp["hash"]


def test_a_run_without_condition_gets_the_documented_default(workspace):
    card = _score(workspace, RunMeta(run_id="plain", model_slug="m"))
    assert card.condition == "unspecified"
    assert card.fingerprint.components["condition"] == "unspecified"
    assert card.batch_size is None and card.tools_enabled is None and card.temperature is None


def test_a_card_of_an_older_version_is_exported_with_the_harness_fingerprint(workspace, tmp_path):
    from mteval_gui.app.exports import export_run_card

    meta = RunMeta(run_id="old", model_slug="acme/mt-1", temperature=0.7)
    card = _score(workspace, meta).model_dump(mode="json")
    own = card["score_fingerprint"]
    # as an earlier version stored it: its own digest as fingerprint, no experiment fields
    old = {k: v for k, v in card.items() if k not in ("score_fingerprint", "temperature", "system_prompt_sha256",
                                                      "batch_size", "tools_enabled")}
    with workspace.conn:  # the card text as an earlier version wrote it (scoring never rewrites a stored card)
        workspace.conn.execute("UPDATE runs SET run_card = ? WHERE run_id = ?",
                               (json.dumps({**old, "fingerprint": own, "condition": None}), "old"))
    out = json.loads(export_run_card(workspace, "old", tmp_path / "old.json").read_text(encoding="utf-8"))
    assert out["score_fingerprint"] == own
    assert out["condition"] == "unspecified" and out["temperature"] == 0.7
    assert out["fingerprint"]["components"]["temperature"] == 0.7
    assert out["fingerprint"]["hash"] == harness_fingerprint(out["fingerprint"]["components"])


def test_harness_report_carries_the_experiment_back(workspace, tmp_path, capsys):
    from mteval_gui.app.harness_export import export_harness_report
    from mteval_gui.cli import main
    from mteval_gui.store import Workspace

    meta = RunMeta(run_id="r2", model_slug="acme/mt-1", condition="coached", temperature=0.2,
                   system_prompt="Translate.", elapsed_seconds=12.5)
    card = _score(workspace, meta)
    path = export_harness_report(workspace, "r2", tmp_path / "run_r2_report.json")
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["config"]["prompt_version"] == "coached" and report["config"]["temperature"] == 0.2
    assert report["overall"]["corpus_chrf"] == round(card.scores.chrf_plus_plus or 0, 2) == 100.0
    db2 = tmp_path / "again.sqlite"
    assert main(["--db", str(db2), "import", "run", str(path)]) == 0
    capsys.readouterr()
    ws2 = Workspace(db2)
    try:
        back = repo.get_run(ws2, "r2").meta
    finally:
        ws2.close()
    assert (back.model_slug, back.condition, back.temperature, back.elapsed_seconds) == ("acme/mt-1", "coached", 0.2,
                                                                                        12.5)
    assert back.system_prompt_sha256 == hashlib.sha256(b"Translate.").hexdigest()
