"""Importing the real data sets of ../shared/data with the right counts."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.imports import import_corpus_file, import_run_file
from mteval_gui.io import detect_format, read_corpus
from mteval_gui.store import repo

pytestmark = pytest.mark.shared_data


def test_mafand_fr_ewe_corpus_and_all_fr_ewe_predictions(workspace, shared_data):
    d = shared_data / "ewe" / "mafand-fr-ewe"
    res = import_corpus_file(workspace, d / "test.fr", ref_path=d / "test.ewe", corpus_id="mafand-fr-ewe")
    assert (res.count, res.format) == (1563, "text")
    corpus = repo.get_corpus(workspace, "mafand-fr-ewe")
    assert str(corpus.language_pair) == "fra-ewe"
    assert corpus.entries[0].source.startswith("Côte d'Ivoire: Ahmed")
    files = sorted((d / "predictions").glob("*_fr_ewe_*.txt"))
    assert len(files) == 16  # every fr→ewe system output in the folder
    for f in files:
        r = import_run_file(workspace, f, corpus_id="mafand-fr-ewe")
        assert (r.created, r.count, r.format) == (True, 1563, "text")
        assert r.warnings == []
    rows = repo.list_runs(workspace, "mafand-fr-ewe")
    assert len(rows) == 16
    assert {r["n_outputs"] for r in rows} == {1563}
    assert sum(r["n_missing"] for r in rows) == 0
    # no final newline in the predictions: the last line is still the last output
    last = (d / "predictions" / "mt5_fr_ewe_news.txt").read_text(encoding="utf-8").split("\n")[-1]
    assert repo.get_output(workspace, "mt5_fr_ewe_news", "1563").predicted == last


def test_a_run_in_the_opposite_direction_is_imported_with_warnings(workspace, shared_data):
    d = shared_data / "ewe" / "mafand-fr-ewe"
    import_corpus_file(workspace, d / "test.fr", ref_path=d / "test.ewe", corpus_id="mafand-fr-ewe")
    r = import_run_file(workspace, d / "predictions" / "mt5_ewe_fr_news.txt", corpus_id="mafand-fr-ewe")
    assert r.created and r.count == 1563
    assert r.warnings == [
        "mt5_ewe_fr_news.txt: the file name says ewe→fra, but corpus 'mafand-fr-ewe' is fra→ewe: "
        "is this the right corpus?",
        "mt5_ewe_fr_news.txt: 198 of 200 sampled outputs are wholly in another language than ewe (fra (198)): "
        "is this the right corpus?",
    ]


def test_crk_verbforms_corpus_and_runs(workspace, shared_data):
    d = shared_data / "crk" / "verbforms"
    res = import_corpus_file(
        workspace, d / "corpus.jsonl", corpus_id="crk-verbforms", source_lang="eng", target_lang="crk"
    )
    assert res.count == 571
    e = repo.get_entry(workspace, "crk-verbforms", "crk-v0001")
    assert (e.source, e.reference, e.expected_morphology) == (
        "I say so",
        "nititwân",
        {"nititwân": "itwêw+V+AI+Ind+1Sg"},
    )
    ids = {}
    for f in sorted((d / "runs").glob("*.jsonl")):
        r = import_run_file(workspace, f, corpus_id="crk-verbforms")
        assert (r.created, r.count) == (True, 571)
        assert r.warnings == [], f.name  # Cree outputs, misspelt or not, are not "wholly English"
        ids[f.stem] = r.id
    assert ids == {"macron": "crk-macron", "mixed": "crk-mixed", "no-circumflex": "crk-nocirc",
                   "oracle": "crk-oracle", "wrong-person": "crk-wrongperson"}
    raw = [json.loads(line) for line in (d / "runs" / "mixed.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    n_err = sum(1 for r in raw if r.get("error"))
    n_blank = sum(1 for r in raw if not r.get("error") and not r.get("predicted"))
    assert n_err > 0 and n_blank > 0
    mixed = repo.get_run(workspace, "crk-mixed")
    assert (mixed.meta.temperature, mixed.meta.elapsed_seconds) == (0.3, 412.5)
    by_id = {o.id: o for o in mixed.outputs}
    assert (by_id["crk-v0002"].predicted, by_id["crk-v0002"].error) == ("", "HTTP 503 from provider")
    assert sum(1 for o in mixed.outputs if o.error) == n_err
    assert sum(1 for o in mixed.outputs if not o.error and o.predicted == "") == n_blank
    (row,) = [r for r in repo.list_runs(workspace) if r["run_id"] == "crk-mixed"]
    assert (row["n_errors"], row["n_missing"]) == (n_err, 0)
    oracle = repo.get_run(workspace, "crk-oracle")
    assert oracle.outputs[0].usage.prompt_tokens == 48 and oracle.outputs[0].cost_usd == 5.6e-05
    again = import_run_file(workspace, d / "runs" / "mixed.jsonl", corpus_id="crk-verbforms")
    assert (again.id, again.created) == ("crk-mixed", False)
    assert len(repo.list_runs(workspace)) == 5


def test_tatoeba_corpora_and_all_reports(workspace, shared_data):
    d = shared_data / "tatoeba"
    expected = {
        "tatoeba-eng-cym-dev": 47,
        "tatoeba-eng-pam-dev": 48,
        "tatoeba-eng-sme-dev": 58,
        "tatoeba-eng-sna-dev": 47,
    }
    for f in sorted((d / "corpora").glob("*.json")):
        res = import_corpus_file(workspace, f)
        assert expected[res.id] == res.count
    reports = sorted((d / "reports").glob("*_report.json"))
    assert len(reports) == 24
    created_corpora = []
    for f in reports:
        assert detect_format(f) == "harness-report"
        r = import_run_file(workspace, f)
        assert r.created is True
        created_corpora += [a.id for a in r.also]
        report = json.loads(f.read_text(encoding="utf-8"))
        run = repo.get_run(workspace, r.id)
        assert r.id == report["run_id"]
        assert run.meta.model_slug == report["config"]["model"]
        n_corpus = len(repo.entry_ids(workspace, r.corpus_id))
        assert len(run.outputs) == n_corpus
        assert sum(1 for o in run.outputs if o.model_extra.get("missing")) == n_corpus - len(report["entries"])
    assert sorted(created_corpora) == ["eng-amh-dev-v1", "eng-arb-dev-v1", "eng-fao-dev-v1", "eng-jpn-dev-v1",
                                       "eng-tuk-dev-v1", "spa-que-dev-v1"]
    runs = repo.list_runs(workspace)
    assert len(runs) == 24
    per_corpus = {}
    for row in runs:
        per_corpus[row["corpus_id"]] = per_corpus.get(row["corpus_id"], 0) + 1
    assert per_corpus["tatoeba-eng-cym-dev"] == 8 and per_corpus["tatoeba-eng-sna-dev"] == 3
    assert per_corpus["tatoeba-eng-pam-dev"] == 6 and per_corpus["tatoeba-eng-sme-dev"] == 1
    assert str(repo.get_corpus(workspace, "eng-arb-dev-v1", with_entries=False).language_pair) == "eng-arb"
    sme = [r for r in runs if r["corpus_id"] == "tatoeba-eng-sme-dev"][0]
    assert sme["meta"]["harness_overall"]["corpus_chrf"] == 56.35
    assert sme["meta"]["harness_overall"]["exact_match_count"] == 7


def test_report_imported_as_corpus(shared_data):
    f = next((shared_data / "tatoeba" / "reports").glob("run_20260612_125923_*_report.json"))
    c = read_corpus(f).value
    assert (c.corpus_id, str(c.language_pair), len(c.entries)) == ("eng-sme-dev-v1", "eng-sme", 58)
    assert c.entries[0].reference == "Buot manná bures."
