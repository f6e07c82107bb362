"""``mteval score / evaluate / compare / export runcard|results``."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.scoring.runcard import validate_run_card
from mteval_gui.scoring.runner import CancelToken
from tests.conftest import SHARED_DATA


def _write_toy(tmp: Path) -> tuple[Path, list[Path]]:
    corpus = tmp / "toy.jsonl"
    corpus.write_text(
        "\n".join(
            json.dumps(
                {
                    "id": f"e{i}",
                    "source": f"The cat number {i} sits on the mat",
                    "reference": f"Le chat numéro {i} est sur le tapis",
                    "difficulty": 1 + i % 2,
                }
            )
            for i in range(36)
        )
        + "\n",
        encoding="utf-8",
    )
    runs = []
    for k, name in enumerate(("good", "poor")):
        p = tmp / f"{name}.jsonl"
        lines = [json.dumps({"run": {"run_id": name, "model_slug": name, "elapsed_seconds": 12.0}})]
        for i in range(36):
            pred = f"Le chat numéro {i} est sur le tapis" if (k == 0 and i % 2 == 0) else f"chat {i}"
            lines.append(json.dumps({"id": f"e{i}", "predicted": pred, "latency_s": 0.2}))
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        runs.append(p)
    return corpus, runs


@pytest.fixture
def toy_ws(tmp_path):
    corpus, runs = _write_toy(tmp_path)
    db = tmp_path / "ws.sqlite"
    assert main(["--db", str(db), "import", "corpus", str(corpus), "--id", "toy", "--source-lang", "eng",
                 "--target-lang", "fra"]) == 0
    for r in runs:
        assert main(["--db", str(db), "import", "run", str(r), "--corpus", "toy"]) == 0
    return db


def test_score_export_runcard_and_results(toy_ws, tmp_path, capsys):
    db = str(toy_ws)
    assert main(["--db", db, "score", "good", "poor", "--metrics", "core.exact", "core.chrf", "core.bleu",
                 "--bootstrap", "100", "--batch-size", "10"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^good: composite \d\.\d{4} \(\w+, profile B\) chrF\+\+ \d+\.\d\d \[", out, re.M)
    assert "poor: composite" in out
    card_path = tmp_path / "good.json"
    assert main(["--db", db, "export", "runcard", "good", "-o", str(card_path)]) == 0
    card = json.loads(card_path.read_text(encoding="utf-8"))
    assert validate_run_card(card) == []
    assert card["scores"]["exact_matches"] == 18 and card["scores"]["total"] == 36
    assert card["sacrebleu_signatures"]["chrf_plus_plus"].startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:2")
    csv_path = tmp_path / "good.csv"
    assert main(["--db", db, "export", "results", "good", "-o", str(csv_path)]) == 0
    with csv_path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 36
    assert rows[0]["entry_id"] == "e0" and rows[0]["exact_match"] == "1" and float(rows[0]["entry_chrf"]) == 100.0
    assert rows[1]["exact_match"] == "0" and rows[1]["predicted"] == "chat 1"


def test_score_all_and_rerun_resumes(toy_ws, capsys):
    db = str(toy_ws)
    assert main(["--db", db, "score", "--all", "--metrics", "core.exact", "--bootstrap", "50"]) == 0
    assert main(["--db", db, "score", "good", "--metrics", "core.exact", "--bootstrap", "50"]) == 0
    from mteval_gui.store import Workspace
    from mteval_gui.store.results import scoring_job

    ws = Workspace(db)
    job = scoring_job(ws, "good")
    assert job["state"] == "done" and job["batches_done"] == job["n_batches"]


def test_compare_prints_table_with_cis_and_p_values(toy_ws, capsys):
    db = str(toy_ws)
    assert main(["--db", db, "score", "--all", "--metrics", "core.exact", "core.chrf", "--bootstrap", "100"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "compare", "good", "--baseline", "poor", "--trials", "200", "--holm"]) == 0
    out = capsys.readouterr().out
    assert "baseline: poor" in out and "approximate randomisation, 200 trials" in out
    assert "chrf_plus_plus" in out and "exact_match_rate" in out and "composite" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("good") and "[" in ln)
    assert "0.0050" in line  # p = 1/201: every shuffle is smaller than the observed difference
    assert main(["--db", db, "compare", "good", "--baseline", "poor", "--trials", "200", "--json",
                 "--test", "bootstrap"]) == 0
    data = json.loads(capsys.readouterr().out)
    r = data["comparisons"]["good"]["exact_match_rate"]
    assert r["delta"] == pytest.approx(0.5) and r["p_value"] == pytest.approx(1 / 201)
    assert r["ci_lower"] <= 0.5 <= r["ci_upper"]


def test_compare_unscored_run_is_an_error(toy_ws, capsys):
    assert main(["--db", str(toy_ws), "compare", "good", "--baseline", "poor"]) == 1
    assert "has not been scored yet" in capsys.readouterr().err


def test_evaluate_one_shot(tmp_path, capsys):
    corpus, (good, _) = _write_toy(tmp_path)
    out = tmp_path / "card.json"
    assert main(["evaluate", "--corpus", str(corpus), "--run", str(good), "--lang", "fra", "--source-lang", "eng",
                 "--metrics", "core.exact", "core.chrf", "--bootstrap", "100", "-o", str(out)]) == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    assert validate_run_card(card) == []
    assert card["scores"]["exact_match_rate"] == 0.5 and card["dataset"]["language_pair"] == "eng-fra"
    assert card["run_id"] == "good"


def test_evaluate_rejects_unknown_ids(tmp_path, capsys):
    corpus, (good, _) = _write_toy(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text(encoding="utf-8") + json.dumps({"id": "zzz", "predicted": "x"}) + "\n",
                   encoding="utf-8")
    out = tmp_path / "card.json"
    assert main(["evaluate", "--corpus", str(corpus), "--run", str(bad), "--lang", "fra", "--source-lang", "eng",
                 "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert re.search(r"bad\.jsonl:38: output id 'zzz' is not in the corpus", err)
    assert not out.exists()


def test_interrupt_handler_cancels_then_interrupts():
    from mteval_gui.cli.scoring import _Interrupts

    token = CancelToken()
    h = _Interrupts(token)
    h._handle(2, None)
    assert token.cancelled
    with pytest.raises(KeyboardInterrupt):
        h._handle(2, None)


@pytest.mark.shared_data
def test_evaluate_eng_sme_report(tmp_path, capsys):
    report = next(p for p in sorted((SHARED_DATA / "tatoeba" / "reports").glob("*_report.json"))
                  if json.loads(p.read_text(encoding="utf-8"))["config"].get("target_lang_code") == "sme")
    out = tmp_path / "sme.json"
    assert main(["evaluate", "--corpus", str(report), "--run", str(report), "--lang", "sme", "--source-lang", "eng",
                 "-o", str(out)]) == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    assert round(card["scores"]["chrf_plus_plus"], 2) == 56.35
    assert card["scores"]["exact_matches"] == 7 and card["scores"]["total"] == 58
    assert validate_run_card(card) == []


@pytest.mark.slow
@pytest.mark.shared_data
def test_compare_fr_ewe_systems_against_mt5(tmp_path, capsys):
    mafand = SHARED_DATA / "ewe" / "mafand-fr-ewe"
    db = str(tmp_path / "ewe.sqlite")
    assert main(["--db", db, "import", "corpus", str(mafand / "test.fr"), "--ref-file", str(mafand / "test.ewe"),
                 "--id", "mafand-fr-ewe", "--source-lang", "fra", "--target-lang", "ewe", "--format", "text"]) == 0
    systems = sorted(p.stem for p in (mafand / "predictions").glob("*_fr_ewe_*.txt"))
    for s in systems:
        assert main(["--db", db, "import", "run", str(mafand / "predictions" / f"{s}.txt"), "--corpus",
                     "mafand-fr-ewe", "--run-id", s, "--format", "text"]) == 0
    assert main(["--db", db, "score", "--all", "--metrics", "core.chrf", "core.bleu", "core.exact",
                 "--bootstrap", "200"]) == 0
    capsys.readouterr()
    others = [s for s in systems if s != "mt5_fr_ewe_news"]
    assert main(["--db", db, "compare", *others, "--baseline", "mt5_fr_ewe_news", "--holm", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["comparisons"]) == set(others)
    best = data["comparisons"]["m2m100_fr_ewe_rel_news_newsft"]["chrf_plus_plus"]
    assert best["delta"] > 20 and best["p_value"] == pytest.approx(1 / 1001)
    assert best["ci_lower"] > 0
    for s in others:
        for key in ("chrf_plus_plus", "bleu", "exact_match_rate"):
            r = data["comparisons"][s][key]
            assert 0 < r["p_value"] <= 1 and r["p_adjusted"] >= r["p_value"]
    assert main(["--db", db, "compare", *others, "--baseline", "mt5_fr_ewe_news"]) == 0
    table = capsys.readouterr().out
    # one row per compared metric: chrF++, BLEU, exact match and the composite they make up
    assert table.count("m2m100_fr_ewe_rel_news_newsft") == 4
    assert "not compared" not in table
    # a 4-system table for a paper: well-formed booktabs LaTeX with intervals and marks (compiled when
    # pdflatex is installed)
    from tests.app.test_tables import compile_latex, latex_table_problems

    four = ["m2m100_fr_ewe_rel_news_newsft", *[s for s in others if s != "m2m100_fr_ewe_rel_news_newsft"][:2]]
    tex = tmp_path / "mafand.tex"
    assert main(["--db", db, "export", "compare", *four, "--baseline", "mt5_fr_ewe_news", "--holm",
                 "-o", str(tex)]) == 0
    text = tex.read_text(encoding="utf-8")
    assert latex_table_problems(text) == []
    body = text.split("\\midrule\n")[1].split("\\bottomrule")[0].splitlines()
    assert [line.split(" & ")[0] for line in body] == [  # the four systems, names escaped and whole
        r"mt5\_fr\_ewe\_news (baseline)", *(name.replace("_", r"\_") for name in four)]
    row = next(line for line in text.splitlines() if line.startswith(r"m2m100\_fr\_ewe\_rel\_news\_newsft &"))
    assert row.count(r"$^{\dagger}$") >= 1  # significantly better than mt5 on chrF++ (p = 1/1001, Holm)
    compile_latex(text, tmp_path)


def test_option_flags():
    import argparse

    from mteval_gui.cli.scoring import scoring_options
    from mteval_gui.errors import MtevalError

    ns = argparse.Namespace(analyzer=None, multi_ref=True, heavy=False, gloss_file=["crk=/d/a.json", "crk=/d/b.tsv"],
                            comet_model="Unbabel/wmt22-comet-da")
    opts = scoring_options(ns)
    assert opts.to_context() == {"multi_ref": True, "gloss_files": {"crk": ["/d/a.json", "/d/b.tsv"]},
                                 "comet_model": "Unbabel/wmt22-comet-da"}
    assert opts.model_fields_set == {"multi_ref", "gloss_files", "comet_model"}  # only these override the settings
    with pytest.raises(MtevalError, match="LANG=PATH"):
        scoring_options(argparse.Namespace(gloss_file=["crk"]))


@pytest.mark.shared_data
def test_evaluate_crk_with_analyzer_and_glosses(tmp_path, capsys):
    d = SHARED_DATA / "crk"
    out = tmp_path / "crk.json"
    assert main(["evaluate", "--corpus", str(d / "verbforms" / "corpus.jsonl"), "--run",
                 str(d / "verbforms" / "runs" / "mixed.jsonl"), "--lang", "crk", "--source-lang", "eng",
                 "--analyzer", str(d / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"),
                 "--gloss-file", f"crk={d / 'glosses' / 'crkeng_test_db.importjson'}", "--bootstrap", "100",
                 "-o", str(out)]) == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    assert card["composite_profile"] == "A"
    assert card["score_sources"]["semantic_score"] == "crk.semantic"
    assert card["score_sources"]["equivalent_match_rate"] == "crk.lint"
    assert card["scores"]["errors"] == 17
    assert "semantic_score" in {i["metric"] for i in card["composite_breakdown"]}
    assert card["results"][0]["lint_verdict"]["explanation"]


def test_partial_metric_rescore_of_a_scored_run_needs_replace(toy_ws, capsys):
    db = str(toy_ws)
    assert main(["--db", db, "score", "good", "--metrics", "core.exact", "core.chrf", "--bootstrap", "20"]) == 0
    capsys.readouterr()
    # naming fewer metrics would silently drop chrF++ from the stored card: refused, card kept
    assert main(["--db", db, "score", "good", "--metrics", "core.exact", "--bootstrap", "20"]) == 1
    err = capsys.readouterr().err
    assert ("good: already scored with another configuration; this would change: metrics: core.chrf, core.exact "
            "→ core.exact (drops core.chrf)") in err and "add --replace" in err
    from mteval_gui.store import Workspace
    from mteval_gui.store.results import load_run_card

    assert load_run_card(Workspace(db), "good").scores.chrf_plus_plus is not None
    assert main(["--db", db, "score", "good", "--metrics", "core.exact", "--replace", "--bootstrap", "20"]) == 0
    assert load_run_card(Workspace(db), "good").scores.chrf_plus_plus is None


def test_score_prints_why_a_requested_metric_did_not_run(toy_ws, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_comet(name, *args, **kwargs):
        if name == "comet" or name.startswith("comet."):
            raise ImportError("No module named 'comet'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_comet)
    assert (
        main(["--db", str(toy_ws), "score", "good", "--metrics", "core.exact", "core.comet", "--bootstrap", "20"]) == 0
    )
    out = capsys.readouterr().out
    assert "  core.comet: unavailable — COMET needs the optional extra: pip install 'mteval-gui[comet]'" in out


def test_exported_run_card_carries_the_current_speaker_review(toy_ws, tmp_path, capsys):
    from mteval_gui.domain.judgments import Judgment, Reviewer
    from mteval_gui.store import Workspace
    from mteval_gui.store import judgments as js

    db = str(toy_ws)
    assert main(["--db", db, "score", "good", "--metrics", "core.exact", "core.chrf", "--bootstrap", "20"]) == 0
    ws = Workspace(db)
    js.add_reviewer(ws, Reviewer(reviewer_id="ama", name="Ama"))
    js.record_judgment(ws, Judgment(reviewer_id="ama", run_id="good", entry_id="e0", adequacy=5, fluency=4))
    js.record_judgment(ws, Judgment(reviewer_id="ama", run_id="good", entry_id="e1", adequacy=2, fluency=3))
    out = tmp_path / "card.json"
    assert main(["--db", db, "export", "runcard", "good", "-o", str(out)]) == 0
    review = json.loads(out.read_text(encoding="utf-8"))["human_review"]
    assert review["reviewers"] == 1 and review["judgments"] == 2


@pytest.mark.shared_data
def test_bleu_on_the_cree_verb_forms_is_flagged_and_left_out_of_compare(tmp_path, capsys):
    folder = SHARED_DATA / "crk" / "verbforms"
    db = str(tmp_path / "crk.sqlite")
    assert main(["--db", db, "import", "corpus", str(folder / "corpus.jsonl"), "--id", "crk-verbs",
                 "--source-lang", "eng", "--target-lang", "crk"]) == 0
    for name in ("oracle", "mixed"):
        assert main(["--db", db, "import", "run", str(folder / "runs" / f"{name}.jsonl"), "--corpus", "crk-verbs",
                     "--run-id", f"crk-{name}"]) == 0
    assert main(["--db", db, "score", "--all", "--metrics", "core.chrf", "core.bleu", "core.exact",
                 "--bootstrap", "200"]) == 0
    capsys.readouterr()
    out = tmp_path / "oracle.json"
    assert main(["--db", db, "export", "runcard", "crk-oracle", "-o", str(out)]) == 0
    card = json.loads(out.read_text(encoding="utf-8"))
    short = [c for c in card["score_caveats"] if c["code"] == "short_segments"]
    assert short and short[0]["detail"]["median_reference_tokens"] == 1
    assert card["scores"]["bleu"] == 0.0 and card["scores"]["chrf_plus_plus"] == pytest.approx(100.0)
    capsys.readouterr()
    assert main(["--db", db, "compare", "crk-mixed", "--baseline", "crk-oracle", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "bleu" not in data["metrics"] and "bleu" not in data["comparisons"]["crk-mixed"]
    assert data["skipped"]["bleu"] == ("short segments: the median reference of crk-oracle has 1 token (< 4), "
                                       "where BLEU's 4-grams hardly exist and BLEU says little")
    assert data["comparisons"]["crk-mixed"]["chrf_plus_plus"]["delta"] < 0
    assert main(["--db", db, "compare", "crk-mixed", "--baseline", "crk-oracle"]) == 0
    table = capsys.readouterr().out
    assert "bleu: not compared (short segments:" in table and "--short-bleu compares it anyway" in table
    assert main(["--db", db, "compare", "crk-mixed", "--baseline", "crk-oracle", "--short-bleu", "--json"]) == 0
    assert "bleu" in json.loads(capsys.readouterr().out)["metrics"]


def test_export_compare_and_runs_tables(toy_ws, tmp_path, capsys):
    db = str(toy_ws)
    assert main(["--db", db, "score", "--all", "--metrics", "core.exact", "core.chrf", "--bootstrap", "100"]) == 0
    capsys.readouterr()
    tex = tmp_path / "compare.tex"
    assert main(["--db", db, "export", "compare", "good", "--baseline", "poor", "--trials", "200",
                 "--metrics", "exact_match_rate", "-o", str(tex)]) == 0
    assert capsys.readouterr().out == f"comparison of 2 runs (1 metric) written to {tex} (latex)\n"
    lines = tex.read_text(encoding="utf-8").splitlines()
    assert lines[3:9] == [
        r"\begin{tabular}{lrrr}", r"\toprule", r" & \multicolumn{3}{c}{Exact match} \\", r"\cmidrule(lr){2-4}",
        r"System & Score [95\% CI] & $\Delta$ & p \\", r"\midrule"]
    # good matches half the references, poor none: +0.5, p = 1/201, significantly better
    assert re.fullmatch(r"poor \(baseline\) & 0\.0000 \[0\.0000, 0\.0000\] &  &  \\\\", lines[9])
    assert re.fullmatch(r"good & 0\.5000 \[0\.\d{4}, 0\.\d{4}\]\$\^\{\\dagger\}\$ & \+0\.5000 & 0\.005 \\\\",
                        lines[10])
    md = tmp_path / "compare.out"
    assert main(["--db", db, "export", "compare", "good", "--baseline", "poor", "--trials", "200",
                 "--metrics", "exact_match_rate", "-o", str(md), "--format", "markdown"]) == 0
    assert md.read_text(encoding="utf-8").splitlines()[2:4] == [
        "| System | Exact match Score [95% CI] | Exact match Δ | Exact match p |", "|:---|---:|---:|---:|"]
    runs_csv = tmp_path / "runs.csv"
    capsys.readouterr()
    assert main(["--db", db, "export", "runs", "good", "poor", "-o", str(runs_csv)]) == 0
    assert capsys.readouterr().out == f"2 runs written to {runs_csv} (csv)\n"
    with runs_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["run_id"], r["exact_match_rate"], r["entries"]) for r in rows] == [("good", "0.5", "36"),
                                                                                  ("poor", "0.0", "36")]
    # a file name that names no format, and an unknown run: an error, nothing written
    bad = tmp_path / "compare.txt"
    assert main(["--db", db, "export", "compare", "good", "--baseline", "poor", "-o", str(bad)]) != 0
    assert "compare.txt: cannot tell the table format from the file name" in capsys.readouterr().err
    assert not bad.exists()
    assert main(["--db", db, "export", "runs", "nosuch", "-o", str(runs_csv)]) != 0
    assert "no run 'nosuch' in the workspace" in capsys.readouterr().err
