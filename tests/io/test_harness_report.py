"""The TestReport written for the reference harness: per-entry values under the harness's definitions."""

from __future__ import annotations

import pytest

from mteval_gui.io.harness_report import harness_report


def _result(entry_id: str, reference: str, predicted: str, bleu: float, *, error: str | None = None,
            difficulty: int = 1) -> dict:
    return {"entry_id": entry_id, "source": "s", "reference": reference, "predicted": predicted,
            "exact_match": predicted == reference and not error, "entry_chrf": 50.0, "entry_bleu": bleu,
            "entry_ter": 0.0, "difficulty": difficulty, "error": error}


def test_entry_bleu_is_the_harness_one_line_corpus_bleu():
    card = {"run_id": "r", "scores": {}, "results": [
        # the card's sentence BLEU (effective order) gives 100 and 36.79 to these short lines; the
        # harness scores each line as a one-line corpus, without effective order: no 4-gram, 0.0
        _result("1", "Mun lean dás", "Mun lean dás", 100.00000000000004),
        _result("2", "the cat sat on the mat", "the cat sat", 36.78794411714425, difficulty=2),
        _result("3", "the cat sat on the mat today", "the cat sat on the mat", 84.64817248906144, difficulty=2),
        _result("4", "the cat sat on the mat", "", 0.0, error="HTTP 503"),
        _result("5", "the cat sat on the mat", "", 0.0),
    ]}
    report = harness_report(card, entries={}, outputs={}, meta={}, source_lang="eng", target_lang="sme")
    assert [e["bleu_score"] for e in report["entries"]] == [0.0, 0.0, pytest.approx(84.64817248906144), 0.0, 0.0]
    assert [e["chrf_score"] for e in report["entries"]] == [50.0] * 5  # the card's own
    assert report["overall"]["avg_bleu"] == round(84.64817248906144 / 4, 2) == 21.16  # over the 4 without error
    assert report["by_difficulty"]["2"]["avg_bleu"] == 42.32
