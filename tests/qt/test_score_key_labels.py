"""The GUI's labels of declared run-card ``scores`` keys are all listed for the translation."""

from __future__ import annotations

from mteval_gui.domain.score_keys import SCORE_KEYS
from mteval_gui.qt.labels import SCORE_LABELS, score_label
from mteval_gui.qt.runs_model import COLUMN_TITLES, SCORE_KEY_OF_COLUMN


def test_every_declared_label_and_column_title_is_listed_for_translation():
    assert {k.label for k in SCORE_KEYS if k.label} == set(SCORE_LABELS)
    assert {k.table.title for k in SCORE_KEYS if k.table} == set(COLUMN_TITLES)


def test_runs_table_columns_come_from_the_declarations():
    assert SCORE_KEY_OF_COLUMN == {
        "chrf": "chrf_plus_plus", "exact": "exact_match_rate", "equivalent": "equivalent_match_rate",
        "fst": "fst_acceptance_rate", "semantic": "semantic_score", "comet": "comet_score",
        "code_switching": "code_switching_rate", "hallucination": "hallucination_rate",
        "cost_adjusted": "cost_adjusted"}
    assert score_label("hallucination_rate") == "Hallucination"
    assert score_label("letter_share") == "letter share"
