"""Scoring on the real data of ../shared/data: sacrebleu parity, harness numbers, provider errors."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.metrics.surface import BleuMetric, ChrfMetric
from mteval_gui.scoring.runner import ScoringRequest, score_run
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import item, run_metric

pytestmark = pytest.mark.shared_data

MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"
SYSTEMS = sorted(p.stem for p in (MAFAND / "predictions").glob("*.txt")) if MAFAND.is_dir() else []


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _mafand(system: str) -> tuple[list[str], list[str], list[str]]:
    """(sources, references, hypotheses) in NFC for one system's direction."""
    fr, ewe = _lines(MAFAND / "test.fr"), _lines(MAFAND / "test.ewe")
    src, ref = (fr, ewe) if "_fr_ewe_" in system else (ewe, fr)
    hyp = _lines(MAFAND / "predictions" / f"{system}.txt")
    assert len(hyp) == len(ref) == len(src) == 1563
    return [nfc(s) for s in src], [nfc(r) for r in ref], [nfc(h) for h in hyp]


def _items(src, ref, hyp):
    return [item(i, s, r, h) for i, (s, r, h) in enumerate(zip(src, ref, hyp, strict=True))]


def test_every_system_output_is_present():
    # the README counts 14 + 14; the folder holds 16 systems per direction (32 files)
    assert len(SYSTEMS) == 32
    assert sum("_fr_ewe_" in s for s in SYSTEMS) == 16


@pytest.fixture(scope="module")
def sacrebleu_with_references():
    """sacrebleu's CHRF(word_order=2) and BLEU objects holding one direction's references
    (sacrebleu's own reference caching: the 16 systems of a direction share them)."""
    made: dict[tuple[str, ...], tuple[CHRF, BLEU]] = {}

    def get(ref: list[str]) -> tuple[CHRF, BLEU]:
        key = tuple(ref)
        if key not in made:
            made[key] = (CHRF(word_order=2, references=[ref]), BLEU(references=[ref]))
        return made[key]

    return get


@pytest.mark.parametrize("system", SYSTEMS)
def test_chrf_and_bleu_equal_sacrebleu_on_mafand(system, sacrebleu_with_references):
    src, ref, hyp = _mafand(system)
    items = _items(src, ref, hyp)
    _, chrf = run_metric(ChrfMetric(), items, batch=250)
    _, bleu = run_metric(BleuMetric(), items, batch=250)
    sb_chrf, sb_bleu = sacrebleu_with_references(ref)
    assert chrf.values["chrf_plus_plus"] == pytest.approx(sb_chrf.corpus_score(hyp, None).score, abs=1e-9)
    assert bleu.values["bleu"] == pytest.approx(sb_bleu.corpus_score(hyp, None).score, abs=1e-9)


def test_readme_raw_text_numbers_and_nfc_policy():
    """README: sacrebleu defaults on raw text (fr→ewe m2m100 rel_news_newsft) BLEU 8.23 / chrF 37.49.

    The application compares NFC text (SPEC §2): about a third of the Ewe lines are not NFC,
    so its BLEU differs from the raw-text figure."""
    ref = _lines(MAFAND / "test.ewe")
    hyp = _lines(MAFAND / "predictions" / "m2m100_fr_ewe_rel_news_newsft.txt")
    assert round(BLEU().corpus_score(hyp, [ref]).score, 2) == 8.23
    assert round(CHRF().corpus_score(hyp, [ref]).score, 2) == 37.49
    _, bleu = run_metric(BleuMetric(), _items(ref, ref, hyp), batch=500)
    assert bleu.values["bleu"] == pytest.approx(
        BLEU().corpus_score([nfc(h) for h in hyp], [[nfc(r) for r in ref]]).score
    )
    assert round(bleu.values["bleu"], 2) != 8.23


def _sme_report() -> Path:
    for p in sorted((SHARED_DATA / "tatoeba" / "reports").glob("*_report.json")):
        cfg = json.loads(p.read_text(encoding="utf-8")).get("config", {})
        if cfg.get("target_lang_code") == "sme" or cfg.get("target_lang") == "Northern Sámi":
            return p
    raise AssertionError("no eng→sme report")


def test_eng_sme_report_numbers_are_reproduced_from_its_entries():
    data = json.loads(_sme_report().read_text(encoding="utf-8"))
    entries = data["entries"]
    corpus = Corpus(corpus_id="eng-sme", language_pair=LanguagePair(source="eng", target="sme"), entries=[
        Entry(id=e["id"], source=nfc(e["source"]), reference=nfc(e["expected"]), difficulty=e.get("difficulty"))
        for e in entries])
    run = Run(meta=RunMeta(run_id="sme"), corpus_id="eng-sme", outputs=[
        Output(id=e["id"], predicted=nfc(e["predicted"] or ""), error=e.get("error"), latency_s=e.get("latency_s"),
               cost_usd=e.get("cost_usd")) for e in entries])
    card = score_run(ScoringRequest(run_id="sme", corpus=corpus, run=run,
                                    include=["core.chrf", "core.exact", "core.bleu", "core.ter"])).run_card
    assert round(card.scores.chrf_plus_plus, 2) == 56.35 == data["overall"]["corpus_chrf"]
    assert card.scores.exact_matches == 7 and card.scores.total == 58
    assert round(card.scores.bleu, 2) == data["overall"]["corpus_bleu"]
    assert round(card.scores.ter, 2) == data["overall"]["corpus_ter"]
    assert round(card.totals.total_cost_usd, 4) == data["overall"]["total_cost_usd"]


def test_eng_sme_report_through_the_readers():
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run

    path = _sme_report()
    corpus = read_corpus(path, target_lang="sme", source_lang="eng").value
    run = read_run(path, entry_ids=[e.id for e in corpus.entries]).value
    card = score_run(ScoringRequest(run_id="sme", corpus=corpus, run=run, include=["core.chrf", "core.exact"])).run_card
    assert round(card.scores.chrf_plus_plus, 2) == 56.35
    assert card.scores.exact_matches == 7


def _crk() -> tuple[Corpus, dict[str, list[dict]]]:
    from mteval_gui.io.corpus import read_corpus

    folder = SHARED_DATA / "crk" / "verbforms"
    corpus = read_corpus(folder / "corpus.jsonl", source_lang="eng", target_lang="crk").value
    records = {}
    for p in (folder / "runs").glob("*.jsonl"):
        records[p.stem] = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return corpus, records


def test_crk_mixed_provider_errors_are_empty_outputs():
    from mteval_gui.io.runs import read_run

    corpus, records = _crk()
    run = read_run(SHARED_DATA / "crk" / "verbforms" / "runs" / "mixed.jsonl").value
    card = score_run(ScoringRequest(run_id="crk-mixed", corpus=corpus, run=run,
                                    include=["core.chrf", "core.exact", "core.length_ratio"])).run_card
    errors = [r for r in records["mixed"] if r.get("error")]
    assert len(errors) == 17
    assert card.scores.errors == 17 and card.scores.total == 571 and card.scores.evaluated == 554
    by_id = {r["id"]: r for r in records["mixed"]}
    hyps = ["" if by_id[e.id].get("error") else nfc(by_id[e.id].get("predicted") or "") for e in corpus.entries]
    refs = [e.reference for e in corpus.entries]
    assert card.scores.chrf_plus_plus == pytest.approx(CHRF(word_order=2).corpus_score(hyps, [refs]).score, abs=1e-9)
    results = {r.entry_id: r for r in card.results}
    assert results["crk-v0002"].error == "HTTP 503 from provider" and results["crk-v0002"].predicted == ""
    assert results["crk-v0002"].entry_chrf == pytest.approx(0.0)


def test_crk_oracle_is_perfect_and_constructed_runs_get_caveats():
    corpus, records = _crk()
    oracle = Run(
        meta=RunMeta(run_id="oracle"),
        corpus_id=corpus.corpus_id,
        outputs=[Output(**{k: v for k, v in r.items() if k in ("id", "predicted")}) for r in records["oracle"]],
    )
    card = score_run(ScoringRequest(run_id="oracle", corpus=corpus, run=oracle, n_bootstrap=100,
                                    include=["core.exact", "core.chrf", "core.equivalent"])).run_card
    assert card.scores.exact_match_rate == 1.0 and card.scores.chrf_plus_plus == pytest.approx(100.0)
    assert card.score_caveats == []
    const = Run(meta=RunMeta(run_id="const"), corpus_id=corpus.corpus_id,
                outputs=[Output(id=e.id, predicted="nititwân") for e in corpus.entries])
    c = score_run(ScoringRequest(run_id="const", corpus=corpus, run=const, n_bootstrap=100,
                                 include=["core.exact", "core.chrf"])).run_card
    assert [x.code for x in c.score_caveats] == ["near_constant_output"]
    copy = Run(meta=RunMeta(run_id="copy"), corpus_id=corpus.corpus_id,
               outputs=[Output(id=e.id, predicted=e.source) for e in corpus.entries])
    c = score_run(ScoringRequest(run_id="copy", corpus=corpus, run=copy, n_bootstrap=100,
                                 include=["core.exact", "core.chrf", "core.code_switching"])).run_card
    assert "source_copy" in [x.code for x in c.score_caveats]
    assert c.scores.code_switching_rate == pytest.approx(1.0)


def test_crk_with_analyzer_uses_the_structural_and_language_metrics():
    from mteval_gui.cards import try_load_card
    from mteval_gui.io.runs import read_run
    from mteval_gui.scoring.composite import compute_composite

    corpus, _ = _crk()
    run = read_run(SHARED_DATA / "crk" / "verbforms" / "runs" / "mixed.jsonl").value
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    res = score_run(ScoringRequest(run_id="crk-mixed", corpus=corpus, run=run, target_card=try_load_card("crk"),
                                   source_card=try_load_card("eng"), options={"analyzer_path": str(analyzer)},
                                   n_bootstrap=200))
    card = res.run_card
    assert card.composite_profile == "A"
    assert card.score_sources["fst_acceptance_rate"] == "core.fst"
    assert card.score_sources["equivalent_match_rate"] == "crk.lint"
    assert card.fst.file == analyzer.name and len(card.fst.sha256) == 64
    ci = card.scores.confidence_intervals["fst_acceptance_rate"]
    assert ci.score == card.scores.fst_acceptance_rate
    assert card.scores.confidence_intervals["composite"].score == card.scores.composite
    assert card.scores.composite == compute_composite(card.scores.model_dump(), "A").value
    used = {i.metric for i in card.composite_breakdown}
    assert {"fst_acceptance_rate", "chrf_plus_plus", "equivalent_match_rate", "exact_match_rate"} <= used
    assert ("morphological_accuracy" in used) == (card.scores.morph_coverage >= 0.25)
    first = card.results[0]
    assert first.fst_analysis and first.fst_analysis[0]["token"] == first.predicted.split()[0]
    assert first.lint_verdict is not None
    assert first.lint_verdict["verdict"] in ("EXACT", "EQUIVALENT", "MISS", "NO_OUTPUT")
    # an English copy is code-switching into Cree
    assert card.scores.code_switching_rate > 0


def test_crk_macron_run_is_accepted_after_the_folds_and_ranks_above_the_wrong_person_run():
    from mteval_gui.cards import try_load_card
    from mteval_gui.io.runs import read_run

    corpus, _ = _crk()
    analyzer = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    cards = {}
    for name in ("macron", "wrong-person"):
        run = read_run(SHARED_DATA / "crk" / "verbforms" / "runs" / f"{name}.jsonl").value
        cards[name] = score_run(ScoringRequest(run_id=name, corpus=corpus, run=run, target_card=try_load_card("crk"),
                                               source_card=try_load_card("eng"), n_bootstrap=50,
                                               options={"analyzer_path": str(analyzer)})).run_card
    macron, wrong = cards["macron"], cards["wrong-person"]
    assert macron.scores.fst_acceptance_rate == 1.0 >= 0.95
    assert macron.scores.morphological_accuracy == 1.0
    assert macron.scores.composite == 0.8399 > wrong.scores.composite == 0.6598
    fold = next(c for c in macron.score_caveats if c.code == "fst_accepts_after_fold")
    assert fold.detail == {"words": 540, "total": 571, "share": pytest.approx(540 / 571)}
    assert "fst_accepts_after_fold" not in [c.code for c in wrong.score_caveats]
