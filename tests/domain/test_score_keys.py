"""One declaration per run-card ``scores`` key: the run card's model, the shipped JSON Schema, the
workspace's ``runs`` table and every derived list agree with the declarations."""

from __future__ import annotations

import json
from pathlib import Path

from mteval_gui.domain import score_keys
from mteval_gui.domain.metrics import role_for
from mteval_gui.domain.runcard import SEED_CI_PREFIXES, SEED_INTERVAL_ALIASES, SEED_SCORE_ALIASES, RunCard, Scores
from mteval_gui.domain.score_keys import PROFILES, SCORE_KEYS
from mteval_gui.schemas import schema_of

REPO = Path(__file__).resolve().parents[2]
STRUCTURE = ["confidence_intervals", "confidence_intervals_by_tier", "by_difficulty", "by_provenance", "total",
             "evaluated", "errors"]
ALIASES = ["corpus_chrf", "corpus_bleu", "corpus_ter", "corpus_comet", "composite_score", "chrf_ci_lower",
           "chrf_ci_upper", "bleu_ci_lower", "bleu_ci_upper", "exact_match_ci_lower", "exact_match_ci_upper",
           "fst_ci_lower", "fst_ci_upper", "comet_ci_lower", "comet_ci_upper", "composite_ci_lower",
           "composite_ci_upper"]
JSON_TYPE = {"float": "number", "int": "integer", "text": "string"}


def _expected_order() -> list[str]:
    return ([k.name for k in SCORE_KEYS if k.section != "extension"] + STRUCTURE + ALIASES
            + [k.name for k in SCORE_KEYS if k.section == "extension"])


def test_names_are_unique_and_profiles_weigh_declared_keys():
    names = [k.name for k in SCORE_KEYS]
    assert len(names) == len(set(names)) == 36
    for profile in PROFILES.values():
        assert set(profile) <= set(names)
        assert round(sum(profile.values()), 9) == 1.0


def test_the_run_card_model_has_a_field_per_declaration_in_card_order():
    assert list(Scores.model_fields) == _expected_order()
    for k in SCORE_KEYS:
        field = Scores.model_fields[k.name]
        assert field.description == k.description
        assert field.default == k.text_default


def _scores_schema(schema: dict) -> dict:
    return schema["$defs"]["Scores"]["properties"]


def _types(prop: dict) -> set[str]:
    return {p.get("type") for p in prop["anyOf"]} if "anyOf" in prop else {prop.get("type")}


def test_the_shipped_schema_and_the_generated_one_agree_with_the_declarations():
    shipped = json.loads((REPO / "resources" / "schemas" / "runcard.json").read_text(encoding="utf-8"))
    generated = schema_of("runcard.json")
    for schema in (shipped, generated):
        props = _scores_schema(schema)
        assert list(props) == _expected_order()
        for k in SCORE_KEYS:
            expected = {JSON_TYPE[k.type]} | (set() if k.text_default is not None else {"null"})
            assert _types(props[k.name]) == expected, k.name
        assert props["hallucination_rate"] == {"anyOf": [{"type": "number"}, {"type": "null"}], "default": None,
                                               "title": "Hallucination Rate"}
    assert _scores_schema(shipped) == _scores_schema(generated)
    assert RunCard.model_fields["scores"].annotation is Scores


def test_derived_lists_are_the_declared_ones():
    from mteval_gui.app.compare import COMPARE_KEYS
    from mteval_gui.app.runs import KEY_METRICS
    from mteval_gui.scoring import assembly, composite, runcard

    assert runcard.LYSS_SCORE_KEYS == (
        "exact_match_rate", "exact_matches", "equivalent_match_rate", "equivalent_matches", "chrf_plus_plus",
        "bleu", "ter", "length_ratio", "fst_acceptance_rate", "fst_accepted", "morphological_accuracy",
        "orthographic_accuracy", "semantic_score", "comet_score", "comet_model", "code_switching_rate",
        "hallucination_rate", "terminology_adherence", "consistency_score", "composite", "quality_tier",
        "cost_adjusted", "tokens_per_second", "entries_per_minute", "avg_latency_seconds",
        "median_latency_seconds", "p95_latency_seconds", "confidence_intervals", "confidence_intervals_by_tier",
        "by_difficulty", "by_provenance", "total", "evaluated", "errors")
    assert runcard.AVAILABILITY_KEYS == (
        "exact_match_rate", "equivalent_match_rate", "chrf_plus_plus", "bleu", "ter", "length_ratio",
        "fst_acceptance_rate", "morphological_accuracy", "orthographic_accuracy", "semantic_score", "comet_score",
        "code_switching_rate", "hallucination_rate", "terminology_adherence", "consistency_score",
        "compliance_index", "repair_effectiveness")
    assert runcard._VALUE_COLUMNS == {
        "length_ratio": ("length_ratio", "length_ratio"), "comet": ("comet", "comet_score"),
        "code_switching": ("code_switching", "code_switching_rate"),
        "hallucination": ("hallucination", "hallucination_rate"),
        "terminology": ("terminology", "terminology_adherence"), "compliance": ("compliance", "compliance_index")}
    assert set(runcard._VALUE_COLUMNS) <= set(runcard.RESULT_CSV_COLUMNS)
    assert assembly.CI_KEYS == ("chrf_plus_plus", "bleu", "exact_match_rate", "fst_acceptance_rate", "comet_score")
    assert assembly.TIER_CI_KEYS == ("chrf_plus_plus", "exact_match_rate")
    assert assembly.BREAKDOWN_KEYS == ("exact_match_rate", "equivalent_match_rate", "chrf_plus_plus", "bleu",
                                       "fst_acceptance_rate", "semantic_score", "comet_score", "code_switching_rate",
                                       "hallucination_rate")
    assert assembly.SIGNATURE_KEYS == ("chrf_plus_plus", "bleu", "ter")
    assert set(composite.SCALED_100) == {"chrf_plus_plus", "bleu", "ter"}
    assert set(composite.INVERTED) == {"ter", "code_switching_rate", "hallucination_rate", "avg_latency_seconds",
                                  "median_latency_seconds", "p95_latency_seconds"}
    assert KEY_METRICS == ("exact_match_rate", "equivalent_match_rate", "fst_acceptance_rate", "semantic_score",
                           "comet_score", "code_switching_rate", "hallucination_rate", "terminology_adherence",
                           "cost_adjusted")
    assert COMPARE_KEYS == ("chrf_plus_plus", "bleu", "ter", "exact_match_rate", "equivalent_match_rate",
                            "fst_acceptance_rate", "semantic_score", "comet_score", "composite")
    assert SEED_SCORE_ALIASES == {"corpus_chrf": "chrf_plus_plus", "corpus_bleu": "bleu", "corpus_ter": "ter",
                                  "corpus_comet": "comet_score", "composite_score": "composite"}
    assert SEED_CI_PREFIXES == {"chrf": "chrf_plus_plus", "bleu": "bleu", "exact_match": "exact_match_rate",
                                "fst": "fst_acceptance_rate", "comet": "comet_score", "composite": "composite"}
    assert SEED_INTERVAL_ALIASES == {"corpus_chrf": "chrf_plus_plus", "corpus_bleu": "bleu",
                                     "corpus_comet": "comet_score", "composite_score": "composite"}
    assert role_for(("letter_share", "hallucination_rate")) == "hallucination"
    assert role_for(("letter_share",)) == "other"


def test_every_declared_runs_column_exists_in_the_workspace(workspace):
    from mteval_gui.store.schema import RUN_CARD_COLUMNS

    columns = {row[1] for row in workspace.conn.execute("PRAGMA table_info(runs)")}
    declared = {k.runs_column for k in SCORE_KEYS if k.runs_column}
    assert declared <= columns
    assert {f"scores.{k.name}": k.runs_column for k in SCORE_KEYS if k.runs_column}.items() <= RUN_CARD_COLUMNS.items()
    assert RUN_CARD_COLUMNS["scores.hallucination_rate"] == "hallucination_rate"
    assert RUN_CARD_COLUMNS["scores.bleu"] == "corpus_bleu"


def test_a_behavioural_key_is_named_only_by_its_declaration_its_metric_and_its_migration():
    """Adding a built-in metric's key touches its module, the built-in list and the declaration
    (plus a migration when it gets a runs column): nothing else in the package names the key."""
    package = REPO / "mteval_gui"
    allowed = {"mteval_gui/domain/score_keys.py", "mteval_gui/scoring/metrics/behavioural.py",
               "mteval_gui/store/schema.py"}
    for key in ("hallucination_rate", "terminology_adherence", "consistency_score"):
        naming = {str(p.relative_to(REPO)) for p in package.rglob("*.py") if key in p.read_text(encoding="utf-8")}
        assert naming <= allowed, key
        assert "mteval_gui/domain/score_keys.py" in naming


def test_score_key_lookup():
    assert score_keys.score_key("hallucination_rate").higher_is_better is False
    assert score_keys.score_key("letter_share") is None
    assert score_keys.ranked("interval") == ("chrf_plus_plus", "bleu", "exact_match_rate", "fst_acceptance_rate",
                                             "comet_score", "composite")
