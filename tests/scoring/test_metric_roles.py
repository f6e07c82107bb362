"""Metric roles, labels, display formats and validation levels; nothing is found by metric id."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.metrics import MetricDescriptor
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.plugins import MetricInfo, builtin_ids, metrics_for, resolve
from mteval_gui.scoring.runcard import results_table
from mteval_gui.scoring.runner import ScoringRequest, score_run
from tests.scoring.role_metrics import LINTER_ID

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "mteval_gui"

# id -> (role, label, validation, decimals, display)
BUILTINS = {
    "core.fst": ("fst_analysis", "FST acceptance", "heuristic", 3, "number"),
    "core.morph": ("morphology", "Morphology", "unvalidated", 3, "number"),
    "core.ortho": ("orthography", "Orthography", "unvalidated", 3, "number"),
    "core.exact": ("exact", "Exact", "proxy", 3, "check"),
    "core.equivalent": ("equivalence_verdict", "Equivalent", "heuristic", 3, "number"),
    "core.chrf": ("chrf", "chrF++", "proxy", 1, "number"),
    "core.bleu": ("bleu", "BLEU", "proxy", 1, "number"),
    "core.ter": ("ter", "TER", "proxy", 1, "number"),
    "core.length_ratio": ("length_ratio", "Length ratio", "heuristic", 3, "number"),
    "core.code_switching": ("code_switching", "Code-switching", "heuristic", 3, "number"),
    "core.hallucination": ("hallucination", "Hallucination", "heuristic", 3, "number"),
    "core.terminology": ("terminology", "Terminology", "heuristic", 3, "number"),
    "core.consistency": ("consistency", "Consistency", "unvalidated", 3, "number"),
    "core.compliance": ("compliance", "Compliance", "heuristic", 3, "number"),
    "core.comet": ("comet", "COMET", "proxy", 3, "number"),
    "core.embedding_semantic": ("semantic_verdict", "Semantic (embeddings)", "unvalidated", 3, "number"),
}


def test_every_builtin_declares_role_label_format_and_validation():
    got = {}
    for ref in metrics_for(None):
        i = resolve(ref).info
        got[i.id] = (i.role, i.label, i.validation, i.decimals, i.display)
    assert got == BUILTINS


def test_language_standards_declare_roles_and_their_own_translations():
    from mteval_gui.cards import try_load_card

    infos = {r.id: resolve(r).info for r in try_load_card("crk").eval_metrics}
    assert {k: (i.role, i.label, dict(i.labels), i.validation) for k, i in infos.items()} == {
        "crk.lint": ("equivalence_verdict", "Cree linter", {"fr": "Vérificateur cri"}, "heuristic"),
        "crk.semantic": ("semantic_verdict", "Cree semantic", {"fr": "Sémantique crie"}, "heuristic"),
    }


def test_role_is_inferred_from_the_first_produced_key_and_checked():
    assert MetricInfo(id="x.a", version="1", display_name="A", scale="0-1",
                      produces=("equivalent_matches", "equivalent_match_rate")).role == "equivalence_verdict"
    assert MetricInfo(id="x.b", version="1", display_name="B", scale="0-1", produces=("x_score",)).role == "other"
    info = MetricInfo(id="x.c", version="1", display_name="Long name", scale="0-1", produces=("semantic_score",))
    assert (info.role, info.label, info.validation) == ("semantic_verdict", "Long name", "unvalidated")
    with pytest.raises(ValueError, match="role 'linter' is not one of"):
        MetricInfo(id="x.d", version="1", display_name="D", scale="0-1", role="linter")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="validation 'good' is not one of"):
        MetricInfo(id="x.e", version="1", display_name="E", scale="0-1", validation="good")  # type: ignore[arg-type]


def test_descriptor_formats_and_labels():
    chrf = resolve(next(r for r in metrics_for(None) if r.id == "core.chrf")).info.descriptor()
    exact = resolve(next(r for r in metrics_for(None) if r.id == "core.exact")).info.descriptor()
    assert (chrf.format_value(71.24), chrf.format_value(None), chrf.format_value(float("nan"))) == ("71.2", "", "")
    assert (exact.format_value(1.0), exact.format_value(0.0)) == ("✓", "✗")
    d = MetricDescriptor(id="zzx.checker", label="Zzx checker", labels={"fr": "Vérificateur zzx"})
    assert (d.label_for("fr"), d.label_for("fr_CA"), d.label_for("de"), d.label_for(None)) == (
        "Vérificateur zzx", "Vérificateur zzx", "Zzx checker", "Zzx checker")


# ------------------------------------------------------------------ run card


def _corpus(target: str = "zzx") -> Corpus:
    return Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target=target), entries=[
        Entry(id="e1", source="the dog", reference="a b"),
        Entry(id="e2", source="the cat sleeps", reference="c d e"),
        Entry(id="e3", source="we eat", reference="f g"),
        Entry(id="e4", source="they sing", reference="h"),
    ])


def _run() -> Run:
    return Run(meta=RunMeta(run_id="toy-run"), corpus_id="toy", outputs=[
        Output(id="e1", predicted="a b"), Output(id="e2", predicted="c x e"),
        Output(id="e3", predicted="f"), Output(id="e4", predicted="h i")])


def _card(**extra) -> LanguageCard:
    return LanguageCard(code="zzx", name="Zzx", evalMetrics=[
        MetricRef(id=LINTER_ID, python_name="tests.scoring.role_metrics:ZzxChecker")], **extra)


INCLUDE = ["core.exact", "core.equivalent", "core.chrf", "core.length_ratio", "core.hallucination", LINTER_ID]


def _score(card: LanguageCard):
    return score_run(ScoringRequest(run_id="toy-run", corpus=_corpus(), run=_run(), target_card=card,
                                    include=INCLUDE, n_bootstrap=50)).run_card


def test_a_new_languages_linter_is_found_by_role():
    card = _score(_card())
    assert card.score_sources["equivalent_match_rate"] == LINTER_ID
    assert card.scores.equivalent_match_rate == 0.5
    assert [r.lint_verdict.verdict for r in card.results] == ["EQUIVALENT", "EQUIVALENT", "MISS", "MISS"]
    assert card.results[0].lint_verdict.model_dump() == {"verdict": "EQUIVALENT", "classes": ["WORD_COUNT"],
                                                         "explanation": "same number of words", "score": 1.0}
    assert [r.equivalence_verdict for r in card.results] == ["EXACT", "MISS", "MISS", "MISS"]
    info = card.metric_info[LINTER_ID]
    assert (info.role, info.label, info.labels, info.builtin, info.validation) == (
        "equivalence_verdict", "Zzx checker", {"fr": "Vérificateur zzx"}, False, "heuristic")
    assert card.metric_info["core.equivalent"].builtin is True


def test_run_card_records_validation_levels_and_the_engineering_estimate():
    card = _score(_card())
    assert card.metric_validation == {
        "core.exact": "proxy", "core.equivalent": "heuristic", "core.chrf": "proxy", "core.length_ratio": "heuristic",
        "core.hallucination": "heuristic", LINTER_ID: "heuristic",
        "exact_match_rate": "proxy", "exact_matches": "proxy", "equivalent_match_rate": "heuristic",
        "equivalent_matches": "heuristic", "chrf_plus_plus": "proxy", "length_ratio": "heuristic",
        "hallucination_rate": "heuristic",
    }
    cv = card.composite_validation
    assert cv is not None and cv.engineering_estimate is True
    assert cv.inputs == {"chrf_plus_plus": "proxy", "equivalent_match_rate": "heuristic",
                         "exact_match_rate": "proxy", "hallucination_rate": "heuristic"}
    assert cv.message == ("engineering estimate: not validated against human judgments for zzx: chrf_plus_plus "
                          "(proxy), equivalent_match_rate (heuristic), exact_match_rate (proxy), "
                          "hallucination_rate (heuristic)")
    dumped = card.model_dump(mode="json")
    assert dumped["composite_validation"]["engineering_estimate"] is True


def test_a_language_card_raises_the_validation_level_for_its_language():
    evidence = {"level": "external", "evidence": "speaker study, 200 items x 3 raters"}
    card = _score(_card(metric_validation={
        "core.chrf": evidence, "core.exact": evidence, LINTER_ID: evidence, "core.hallucination": evidence}))
    assert card.metric_validation["chrf_plus_plus"] == "external"
    assert card.metric_info["core.chrf"].validation_evidence == "speaker study, 200 items x 3 raters"
    assert card.metric_info["core.equivalent"].validation == "heuristic"  # not raised: the linter supplied the key
    assert card.composite_validation is not None
    assert card.composite_validation.engineering_estimate is False
    assert card.composite_validation.message == "every input is validated against human judgments for zzx"
    # a plain level is accepted too
    plain = _score(_card(metric_validation={"core.chrf": "heuristic"}))
    assert plain.metric_validation["chrf_plus_plus"] == "heuristic"


def test_results_table_reads_value_columns_by_role():
    card = _score(_card())
    rows = results_table(card)
    assert [r["length_ratio"] for r in rows] == pytest.approx([1.0, 1.0, 1 / 3, 3.0])
    assert [r["lint_verdict"] for r in rows] == ["EQUIVALENT (WORD_COUNT)", "EQUIVALENT (WORD_COUNT)", "MISS", "MISS"]
    assert rows[0]["comet"] is None and rows[0]["compliance"] is None


# ------------------------------------------------------------------ cards


def test_card_validation_levels_are_checked(tmp_path):
    from mteval_gui.app.standards import card_report
    from mteval_gui.cards import read_card

    base = json.loads((REPO / "language_cards" / "crk.json").read_text(encoding="utf-8"))
    base["metric_validation"] = {
        "core.chrf": "proxy", "crk.lint": {"level": "external", "evidence": "Task B audit, 2 raters"},
        "core.fst": "external", "xx.nothing": "heuristic",
    }
    path = tmp_path / "crk.json"
    path.write_text(json.dumps(base, ensure_ascii=False), encoding="utf-8")
    assert list(read_card(path).problems) == [
        "metric_validation.core.fst: level 'external' needs its evidence "
        '({"level": "external", "evidence": "the study or speaker data"})',
    ]
    # the card file is read without the scoring core; the metric discovery names the unknown metric
    assert [p for p in card_report(tmp_path).problems if "metric_validation" in p] == [
        "crk.json: metric_validation.core.fst: level 'external' needs its evidence "
        '({"level": "external", "evidence": "the study or speaker data"})',
        "crk.json: metric_validation.xx.nothing: no such metric (neither built in nor in evalMetrics)",
    ]
    base["metric_validation"] = {"core.chrf": "excellent"}
    path.write_text(json.dumps(base, ensure_ascii=False), encoding="utf-8")
    assert any(p.startswith("metric_validation.core.chrf") for p in read_card(path).problems)


# ------------------------------------------------------------------ no metric ids in the application


def _python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_language_metric_id_appears_in_the_application():
    """Not in code, not in a docstring: a language's metrics are known by the language's card only."""
    import re

    from mteval_gui.cards import list_cards

    ids = {r.id for info in list_cards() if info.card is not None for r in info.card.eval_metrics}
    assert {"crk.lint", "crk.semantic"} <= ids
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(re.escape(i) for i in sorted(ids)) + r"|crk\.\w+)(?!\w)")
    hits = []
    for path in sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        text = path.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert hits == []


def test_no_code_outside_the_metric_modules_names_a_metric_id():
    """Interfaces, the application layer and the run-card assembly find metrics by role."""
    builtin = builtin_ids()
    declaring = {PACKAGE / "scoring" / "builtins.py", *(PACKAGE / "scoring" / "metrics").glob("*.py")}
    hits = []
    for path in _python_files(PACKAGE):
        if path in declaring:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                v = node.value
                if v in builtin or v.endswith(".lint") or v.startswith("core."):
                    hits.append(f"{path.relative_to(REPO)}:{node.lineno}: {v!r}")
    assert hits == []


# ------------------------------------------------------------------ typed per-entry details


def test_every_field_of_a_results_item_is_declared():
    card = _score(_card())
    assert [r.model_extra for r in card.results] == [{}, {}, {}, {}]
    r = card.results[1]
    assert (r.equivalence_verdict, r.entry_chrf) == ("MISS", pytest.approx(26.666666666666668))
    assert r.metrics == {"core.exact": 0.0, "core.equivalent": 0.0, "core.chrf": pytest.approx(26.666666666666668),
                         "core.length_ratio": 1.0, "core.hallucination": 0.0, LINTER_ID: 1.0}
    assert r.entry_bleu is None and r.entry_ter is None  # core.bleu and core.ter were not asked for


def test_a_verdict_that_does_not_fit_keeps_its_name():
    card = score_run(ScoringRequest(run_id="toy-run", corpus=_corpus(), run=_run(), target_card=_card(),
                                    metrics=[MetricRef(id="zzx.odd",
                                                       python_name="tests.scoring.role_metrics:OddVerdictMetric")],
                                    n_bootstrap=20)).run_card
    assert card.score_sources["semantic_score"] == "zzx.odd"
    assert [r.semantic_verdict.model_dump() for r in card.results] == [{"verdict": "PARTIAL"}] * 4


def test_fst_analysis_is_typed_in_the_run_card(tmp_path):
    from mteval_gui.domain.details import WordAnalysis
    from mteval_gui.domain.settings import ScoringOptions
    from tests.fst._support import build_tiny_hfstol

    analyzer = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    corpus = Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="crk"),
                    entries=[Entry(id="e1", source="the dog sleeps", reference="nipâw atim")])
    run = Run(meta=RunMeta(run_id="r"), corpus_id="toy", outputs=[Output(id="e1", predicted="nipâw xyz")])
    card = score_run(ScoringRequest(run_id="r", corpus=corpus, run=run, include=["core.fst"], n_bootstrap=20,
                                    options=ScoringOptions(analyzer_path=str(analyzer)).to_context())).run_card
    words = card.results[0].fst_analysis
    assert words is not None and all(isinstance(w, WordAnalysis) for w in words)
    assert [(w.token, w.accepted, w.analyses) for w in words] == [
        ("nipâw", True, ["nipâw+V+AI+Ind+3Sg"]), ("xyz", False, [])]
    assert card.model_dump(mode="json")["results"][0]["fst_analysis"] == [
        {"token": "nipâw", "form": "nipâw", "accepted": True, "analyses": ["nipâw+V+AI+Ind+3Sg"]},
        {"token": "xyz", "form": "xyz", "accepted": False, "analyses": []}]
