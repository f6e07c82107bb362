"""Exports checked by the reference harness's own code (../shared/peers/gds-mt-eval-harness, unchanged).

- its run-card linter (``scripts/lint_run_reports.py --cards``, which runs ``check_card``) on the
  cards of the Plains Cree verb-form runs and of MAFAND runs. The linter leaves
  ``orthographic_accuracy`` out of the Profile B composite it recomputes, while the harness's own
  ``compute_composite_score`` counts it: for a Profile B card carrying that score the linter
  reports a composite mismatch. Those findings are accepted only when the harness's
  ``compute_composite_score`` over the same inputs plus ``orthographic_accuracy`` gives the
  card's composite; every other finding fails;
- its report linter (``check_report``) and its dashboard loader and generator
  (``dashboard.load_reports`` / ``generate``) on ``mteval export harness-report``: the page
  embeds the report, and the values its script reads equal the run card's;
- the exported report imported back (``mteval import run``) and scored gives the same numbers.

The harness runs in a child process from its folder (it puts that folder on its path).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui.cli import main
from tests.conftest import SHARED, SHARED_DATA

pytestmark = pytest.mark.shared_data

PEER = SHARED / "peers" / "gds-mt-eval-harness"
CRK = SHARED_DATA / "crk"
MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"
CRK_RUNS = ("oracle", "macron", "no-circumflex", "wrong-person", "mixed")
CRK_OPTIONS = ["--analyzer", str(CRK / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"),
               "--gloss-file", f"crk={CRK / 'glosses' / 'crkeng_test_db.importjson'}", "--bootstrap", "100"]


def _harness(code: str, *args: str) -> str:
    """Run ``code`` in a child Python with the harness folder first on the path."""
    proc = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(PEER)!r})\n{code}", *args],
                          cwd=PEER, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _lint_cards(cards: list[Path], tmp_path: Path) -> dict:
    """The harness linter's CLI on pre-exported cards (no run reports, an empty corpus registry)."""
    registry = tmp_path / "registry.json"
    registry.write_text('{"datasets": []}', encoding="utf-8")
    empty = tmp_path / "no-reports"
    empty.mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "scripts/lint_run_reports.py", str(empty), "--registry", str(registry),
                           "--json", "--cards", *map(str, cards)], cwd=PEER, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return json.loads(proc.stdout)


def _composite_with_orthography(cards: list[Path]) -> dict[str, float]:
    """The harness's ``compute_composite_score`` over the linter's inputs plus orthographic_accuracy."""
    code = """
import json
from pathlib import Path
from mt_eval_harness.scoring import compute_composite_score
keys = ("exact_match_rate", "equivalent_match_rate", "fst_acceptance_rate", "chrf_plus_plus", "semantic_score",
        "code_switching_rate", "hallucination_rate", "terminology_adherence", "morphological_accuracy",
        "orthographic_accuracy")
out = {}
for p in sys.argv[1:]:
    s = json.loads(Path(p).read_text(encoding="utf-8"))["scores"]
    out[Path(p).name] = compute_composite_score({k: s.get(k) for k in keys},
                                                has_fst=s.get("fst_acceptance_rate") is not None)
print(json.dumps(out))
"""
    return json.loads(_harness(code, *map(str, cards)))


@pytest.fixture(scope="module")
def crk_ws(tmp_path_factory):
    d = tmp_path_factory.mktemp("crk")
    db = str(d / "crk.sqlite")
    folder = CRK / "verbforms"
    assert main(["--db", db, "import", "corpus", str(folder / "corpus.jsonl"), "--id", "crk-verbs",
                 "--source-lang", "eng", "--target-lang", "crk"]) == 0
    for name in CRK_RUNS:
        assert main(["--db", db, "import", "run", str(folder / "runs" / f"{name}.jsonl"), "--corpus", "crk-verbs",
                     "--run-id", f"crk-{name}"]) == 0
    assert main(["--db", db, "score", "--all", *CRK_OPTIONS]) == 0
    return d, db


def test_harness_card_linter_accepts_every_crk_card(crk_ws, tmp_path, capsys):
    _, db = crk_ws
    cards = []
    for name in CRK_RUNS:
        cards.append(tmp_path / f"crk-{name}.json")
        assert main(["--db", db, "export", "runcard", f"crk-{name}", "-o", str(cards[-1])]) == 0
    capsys.readouterr()
    result = _lint_cards(cards, tmp_path)
    assert result["findings"] == []
    assert result["summary"] == {"ERROR": 0, "WARN": 0, "INFO": 0}
    conditions = {json.loads(p.read_text(encoding="utf-8"))["condition"] for p in cards}
    assert conditions == {"reference-copy", "orthographic-variant", "misspelled", "valid-but-wrong", "realistic-mix"}


def test_harness_card_linter_on_mafand_cards_only_its_profile_b_omission(tmp_path, capsys):
    db = str(tmp_path / "mafand.sqlite")
    assert main(["--db", db, "import", "corpus", str(MAFAND / "test.fr"), "--ref-file", str(MAFAND / "test.ewe"),
                 "--id", "mafand-fr-ewe", "--source-lang", "fra", "--target-lang", "ewe"]) == 0
    assert main(["--db", db, "import", "corpus", str(MAFAND / "test.ewe"), "--ref-file", str(MAFAND / "test.fr"),
                 "--id", "mafand-ewe-fr", "--source-lang", "ewe", "--target-lang", "fra"]) == 0
    systems = {"m2m100_fr_ewe_rel_news_newsft": "mafand-fr-ewe", "mt5_ewe_fr_news": "mafand-ewe-fr"}
    for system, corpus in systems.items():
        assert main(["--db", db, "import", "run", str(MAFAND / "predictions" / f"{system}.txt"),
                     "--corpus", corpus, "--run-id", system]) == 0
    assert main(["--db", db, "score", "--all", "--bootstrap", "100"]) == 0
    cards = []
    for system in systems:
        cards.append(tmp_path / f"{system}.json")
        assert main(["--db", db, "export", "runcard", system, "-o", str(cards[-1])]) == 0
    capsys.readouterr()
    data = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in cards}
    assert {d["condition"] for d in data.values()} == {"unspecified"}  # plain-text runs
    assert {d["composite_profile"] for d in data.values()} == {"B"}
    result = _lint_cards(cards, tmp_path)
    explained = _composite_with_orthography(cards)
    for finding in result["findings"]:
        name = finding["scope"]
        assert finding["severity"] == "ERROR" and finding["message"].startswith("composite "), finding
        assert "profile B" in finding["message"]
        assert data[name]["scores"]["orthographic_accuracy"] is not None
        assert explained[name] == pytest.approx(data[name]["scores"]["composite"], abs=5e-4)
    assert {f["scope"] for f in result["findings"]} == set(data)  # both carry orthographic_accuracy
    assert result["summary"] == {"ERROR": 2, "WARN": 0, "INFO": 0}


def test_exported_harness_report_in_the_harness_linter_and_dashboard(crk_ws, tmp_path, capsys):
    _, db = crk_ws
    report_path = tmp_path / "run_crk-mixed_report.json"
    card_path = tmp_path / "card.json"
    assert main(["--db", db, "export", "harness-report", "crk-mixed", "-o", str(report_path)]) == 0
    assert main(["--db", db, "export", "runcard", "crk-mixed", "-o", str(card_path)]) == 0
    capsys.readouterr()
    card = json.loads(card_path.read_text(encoding="utf-8"))
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert list(report)[:2] == ["run_id", "config"]
    assert {"overall", "by_difficulty", "by_segment", "by_domain", "entries"} <= set(report)

    # the harness's report checks (counts, recomputed aggregates, ranges, intervals)
    code = """
import importlib.util, json
spec = importlib.util.spec_from_file_location("lint", "scripts/lint_run_reports.py")
lint = importlib.util.module_from_spec(spec); spec.loader.exec_module(lint)
f = lint.Findings()
lint.check_report("r", json.load(open(sys.argv[1], encoding="utf-8")), f)
print(json.dumps(f.items))
"""
    findings = json.loads(_harness(code, str(report_path)))
    # 17 provider errors in the mixed run: the harness's own warning for a partial run, nothing else
    assert [(f["check"], f["severity"]) for f in findings] == [("partial", "WARN")]
    assert "17/571 entries errored" in findings[0]["message"]

    # the harness's dashboard: load the report, generate the page, read back what the page embeds
    code = """
import json
from mt_eval_harness import dashboard
reports = dashboard.load_reports([sys.argv[1]])
out = dashboard.generate(reports, sys.argv[2])
html = open(out, encoding="utf-8").read()
start = html.index("window.__REPORTS = ") + len("window.__REPORTS = ")
print(html[start:html.index(";</script>", start)])
"""
    page = tmp_path / "dashboard.html"
    (shown,) = json.loads(_harness(code, str(report_path), str(page)))
    o, s = shown["overall"], card["scores"]
    # the values the dashboard's script reads (metric cards, comparison table, charts)
    assert o["evaluated"] == s["evaluated"] == 554
    assert o["exact_match_count"] == s["exact_matches"] == 249
    assert o["exact_match_rate"] == round(249 / 554, 4) == 0.4495  # the harness's rate: over entries without error
    assert o["miss_rate"] == round(305 / 554, 4)
    assert o["corpus_chrf"] == round(s["chrf_plus_plus"], 2) == 66.12
    assert o["corpus_bleu"] == round(s["bleu"], 2) == 0.38
    assert o["total_cost_usd"] == round(card["totals"]["total_cost_usd"], 4)
    chrf_ci = s["confidence_intervals"]["chrf_plus_plus"]
    assert o["confidence_intervals"]["corpus_chrf"]["ci_lower"] == chrf_ci["ci_lower"]
    assert o["mteval"]["scores"]["composite"] == s["composite"] == 0.7245
    assert shown["config"]["run_name"] == "crk-mixed" and shown["config"]["prompt_version"] == "realistic-mix"
    assert sum(t["count"] for t in shown["by_difficulty"].values()) == 571
    assert [e["id"] for e in shown["entries"]] == [r["entry_id"] for r in card["results"]]
    assert [e["chrf_score"] for e in shown["entries"]] == [r["entry_chrf"] for r in card["results"]]
    assert sum(1 for e in shown["entries"] if e["error"]) == s["errors"] == 17


def test_exported_harness_report_imports_back_to_the_same_numbers(crk_ws, tmp_path, capsys):
    _, db = crk_ws
    first = tmp_path / "run_crk-mixed_report.json"
    assert main(["--db", db, "export", "harness-report", "crk-mixed", "-o", str(first)]) == 0
    db2 = str(tmp_path / "again.sqlite")
    assert main(["--db", db2, "import", "run", str(first)]) == 0  # its corpus is made from the report
    assert main(["--db", db2, "score", "crk-mixed", *CRK_OPTIONS]) == 0
    second = tmp_path / "again_report.json"
    assert main(["--db", db2, "export", "harness-report", "crk-mixed", "-o", str(second)]) == 0
    capsys.readouterr()
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (first, second))
    for key in ("config", "by_segment", "by_difficulty", "by_domain", "entries", "elapsed_s"):
        assert a[key] == b[key], key
    mteval_a, mteval_b = a["overall"].pop("mteval"), b["overall"].pop("mteval")
    assert a["overall"] == b["overall"]
    assert mteval_a["scores"] == mteval_b["scores"]
    assert (mteval_b["scores"]["composite"], mteval_b["condition"], b["elapsed_s"]) == (0.7245, "realistic-mix", 412.5)


def test_a_real_harness_report_exports_back_with_its_own_bleu_averages(tmp_path, capsys):
    original_path = SHARED_DATA / "tatoeba" / "reports" / (
        "run_20260612_125923_google_gemini35flash_naive_all_b25_c184e6_report.json")
    original = json.loads(original_path.read_text(encoding="utf-8"))
    db = str(tmp_path / "ws.sqlite")
    run_id = "run_20260612_125923_google_gemini35flash_naive_all_b25_c184e6"
    assert main(["--db", db, "import", "run", str(original_path)]) == 0
    assert main(["--db", db, "score", run_id]) == 0
    out = tmp_path / "again_report.json"
    assert main(["--db", db, "export", "harness-report", run_id, "-o", str(out)]) == 0
    capsys.readouterr()
    again = json.loads(out.read_text(encoding="utf-8"))
    # per entry, the harness's BLEU of the line (its tester.py), not the card's effective-order sentence BLEU
    assert [e["bleu_score"] for e in again["entries"]] == [
        pytest.approx(e["bleu_score"], abs=1e-9) for e in original["entries"]]
    assert [e["chrf_score"] for e in again["entries"]] == [
        pytest.approx(e["chrf_score"], abs=1e-9) for e in original["entries"]]
    assert again["overall"]["avg_bleu"] == original["overall"]["avg_bleu"] == 34.87
    for group in ("by_difficulty", "by_domain", "by_segment"):
        assert {k: v["avg_bleu"] for k, v in again[group].items()} == {
            k: v["avg_bleu"] for k, v in original[group].items()}, group
    assert {k: v["avg_bleu"] for k, v in again["by_difficulty"].items()} == {"1": 39.81, "2": 31.55, "3": 18.78}
    for key in ("corpus_chrf", "corpus_bleu", "exact_match_count", "evaluated", "avg_chrf"):
        assert again["overall"][key] == original["overall"][key], key
