"""Suite checks, responses, test statuses, category scores and the ÈwéScore (SPEC §10)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from eval_standards.ewe.bench.suite import CATEGORY_WEIGHTS
from mteval_gui.app.bench import rank_results, read_responses, score_suite
from mteval_gui.benchmarks.scoring import weighted_score as ewe_score
from mteval_gui.domain.benchmark import CategoryResult, ResponseRecord, Responses
from mteval_gui.errors import InputError
from tests.benchmarks.helpers import EWEBENCH, SMALL_EWE_SCORE, SMALL_RESPONSES, read_suite, write_jsonl, write_suite

REASONING_WITHOUT_EXPECTED = {"rs_logic_02", "rs_logic_04", "rs_logic_05", "rs_logic_07", "rs_logic_10",
                              "rs_logic_11", "rs_logic_12"}


def test_weights_sum_to_one():
    assert sum(CATEGORY_WEIGHTS.values()) == pytest.approx(1.0)
    assert list(CATEGORY_WEIGHTS)[:2] == ["linguistic_comprehension", "text_generation"]


# ----------------------------------------------------------------------------- partial run

def test_partial_run_ewe_score_is_weighted_over_active_categories(tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    responses = read_responses(write_jsonl(tmp_path / "r.jsonl", SMALL_RESPONSES), suite)
    result = score_suite(suite, responses, model="m")
    cats = {c.category: c for c in result.categories}
    assert cats["linguistic_comprehension"].score == 50.0
    assert cats["linguistic_comprehension"].passed == 1 and cats["linguistic_comprehension"].total == 2
    assert cats["reasoning"].score == 75.0
    assert cats["reasoning"].passed == 1
    assert cats["translation"].active is False and cats["translation"].score is None
    assert result.active_weight == pytest.approx(0.27)
    assert result.score == pytest.approx(550 / 9)  # (50·0.15 + 75·0.12) / 0.27 = 61.11…
    assert round(result.score, 4) == 61.1111
    assert result.score == pytest.approx(SMALL_EWE_SCORE)
    tr = result.result("tr1")
    assert tr.status == "not_run" and tr.score is None and tr.passed is None
    assert result.passed == 2 and result.total == 4


def test_a_provider_error_activates_its_category_with_zero(tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    records = SMALL_RESPONSES + [{"test_id": "tr1", "error": "HTTP 429 rate limited"}]
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite))
    tr = result.category("translation")
    assert tr.active and tr.score == 0.0 and tr.errors == 1
    assert result.score == pytest.approx((7.5 + 9.0 + 0.0) / 0.39)
    assert [t.test_id for t in result.provider_errors] == ["tr1"]
    assert result.result("tr1").error == "HTTP 429 rate limited"


def test_missing_response_in_active_category_scores_zero(tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite"))
    records = [r for r in SMALL_RESPONSES if r["test_id"] != "lc2"]
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite))
    lc = result.category("linguistic_comprehension")
    assert lc.active and lc.score == 50.0 and lc.missing == 1 and lc.answered == 1
    assert result.result("lc2").status == "missing" and result.result("lc2").score == 0.0
    assert [t.test_id for t in result.missing] == ["lc2"]


def test_ewe_score_function():
    cats = [
        CategoryResult(category="a", title="A", weight=0.15, active=True, score=100.0),
        CategoryResult(category="b", title="B", weight=0.05, active=True, score=20.0),
        CategoryResult(category="c", title="C", weight=0.5, active=False, score=None),
        CategoryResult(category="x", title="X", weight=0.0, active=True, score=0.0),
    ]
    score, w = ewe_score(cats)
    assert score == pytest.approx(80.0)  # (15 + 1) / 0.2
    assert w == pytest.approx(0.2)
    assert ewe_score(cats[2:]) == (None, 0.0)


def test_nfd_response_scores_like_nfc(tmp_path):
    suite_def = {"text_generation": [
        {"id": "q", "prompt": "p", "eval_method": "composite", "expected_keywords": ["wò", "ŋkeke"],
         "expected_format": {"contains_ewe": True, "min_length": 10}},
        {"id": "e", "prompt": "p", "eval_method": "exact_match", "expected": "Wò ɖu fufu."},
    ]}
    suite = read_suite(write_suite(tmp_path / "s", suite_def))
    text = "Akpe na wò, ŋkeke nyui. Mí le afi sia!"
    nfc_r = Responses(records={"q": ResponseRecord(test_id="q", response=text),
                               "e": ResponseRecord(test_id="e", response="wò ɖu fufu")})
    nfd_path = write_jsonl(tmp_path / "nfd.jsonl", [
        {"test_id": "q", "response": unicodedata.normalize("NFD", text)},
        {"test_id": "e", "response": unicodedata.normalize("NFD", "wò ɖu fufu")},
    ])
    a = score_suite(suite, nfc_r)
    b = score_suite(suite, read_responses(nfd_path, suite))
    assert [t.score for t in a.tests] == [t.score for t in b.tests]
    assert a.result("e").score == 1.0
    assert a.result("q").explanation == b.result("q").explanation
    # the scorer itself normalises, also when given NFD text directly
    c = score_suite(
        suite, Responses(records={"q": ResponseRecord(test_id="q", response=unicodedata.normalize("NFD", text))})
    )
    assert c.result("q").score == a.result("q").score


# -------------------------------------------------------------------------- suite defects

DEFECTIVE = {
    "reasoning": [
        {"id": "ok", "prompt": "p", "eval_method": "keywords", "expected_keywords": ["ame"]},
        {"id": "noexp", "prompt": "p", "eval_method": "exact_match", "expected_keywords": ["50 CFA"]},
        {"id": "ok", "prompt": "again", "eval_method": "ewe_quality"},
        {"id": "empty", "prompt": "p", "eval_method": "keywords", "expected_keywords": []},
        {"id": "weird", "prompt": "p", "eval_method": "bleu"},
        {"id": "nomethod", "prompt": "p"},
        "not an object",
        {"prompt": "no id", "eval_method": "ewe_quality"},
        {"id": "fmt", "eval_method": "format", "expected_format": {"neutrality": False, "rhyme": 3}},
        {"id": "mc", "prompt": "p", "eval_method": "multiple_choice", "expected": "Lomé"},
        {"id": "dupkw", "prompt": "p", "eval_method": "keywords", "expected_keywords": ["nye", "Nye", 3]},
        {"id": "punct", "prompt": "p", "eval_method": "keywords", "expected_keywords": ["ame", "?!"]},
    ],
}


def test_suite_defects_are_reported_per_test_and_never_crash(tmp_path):
    folder = write_suite(tmp_path / "s", DEFECTIVE)
    (folder / "translation.json").write_text('[{"id": "t1",\n "prompt": "x" "eval_method": 1}]', encoding="utf-8")
    (folder / "extra_things.json").write_text('{"id": 1}', encoding="utf-8")
    suite = read_suite(folder)
    kinds = [(d.test_id, d.kind, d.severity) for d in suite.defects]
    assert ("noexp", "missing_expected", "error") in kinds
    assert ("ok", "duplicate_id", "error") in kinds
    assert ("empty", "empty_keywords", "error") in kinds
    assert ("weird", "unknown_method", "error") in kinds
    assert ("nomethod", "missing_method", "error") in kinds
    assert (None, "not_an_object", "error") in kinds
    assert ("reasoning[7]", "missing_id", "error") in kinds
    assert ("fmt", "unknown_criterion", "warning") in kinds
    assert ("fmt", "invalid_criterion", "warning") in kinds  # neutrality sets a requirement only when true
    assert ("fmt", "no_format_criterion", "error") in kinds
    assert ("fmt", "no_format_criterion", "error") in kinds
    assert ("fmt", "missing_prompt", "warning") in kinds
    assert ("mc", "missing_expected", "error") in kinds
    assert ("dupkw", "duplicate_keyword", "warning") in kinds
    assert ("dupkw", "invalid_keyword", "warning") in kinds
    assert ("punct", "invalid_keyword", "warning") in kinds
    assert ("noexp", "ignored_field", "info") in kinds
    by_file = {(d.file, d.kind) for d in suite.defects}
    assert ("translation.json", "invalid_json") in by_file
    assert ("extra_things.json", "unknown_category") in by_file
    assert ("extra_things.json", "not_a_list") in by_file
    dup = [d for d in suite.defects if d.kind == "duplicate_id"][0]
    assert str(dup) == "reasoning.json:18: ok: id repeats the test at reasoning.json:2; this later test is ignored"
    bad_json = [d for d in suite.defects if d.kind == "invalid_json"][0]
    assert bad_json.line == 2
    # scoring goes on: every answered defective test is listed as unscorable, without a score
    responses = Responses(records={t.id: ResponseRecord(test_id=t.id, response="ame B") for t in suite.tests})
    result = score_suite(suite, responses)
    statuses = {t.test_id: t.status for t in result.tests}
    assert statuses == {"ok": "scored", "noexp": "unscorable", "empty": "unscorable", "weird": "unscorable",
                        "nomethod": "unscorable", "reasoning[7]": "unscorable", "fmt": "unscorable",
                        "mc": "unscorable", "dupkw": "scored", "punct": "scored"}
    assert result.result("ok").score == 1.0
    assert result.result("dupkw").score == 0.0
    assert result.result("punct").score == 0.5  # 'ame' found, '?!' never
    assert all(t.score is None and t.passed is None for t in result.unscorable)
    # left out of the category's mean: (1.0 + 0.0 + 0.5) / 3 scorable tests, not / 10
    assert result.category("reasoning").score == pytest.approx(50.0)
    assert (result.category("reasoning").total, result.category("reasoning").unscorable) == (10, 7)
    assert result.category("translation").total == 0 and not result.category("translation").active


def test_multiple_choice_test_scores(tmp_path):
    suite = read_suite(write_suite(tmp_path / "s", {"cultural_knowledge": [
        {"id": "m1", "prompt": "A) Accra B) Lomé", "eval_method": "multiple_choice", "expected": "B"},
        {"id": "m2", "prompt": "A) Accra B) Lomé", "eval_method": "multiple_choice", "expected": "B"},
        {"id": "m3", "prompt": "A) Accra B) Lomé", "eval_method": "multiple_choice", "expected": "B"},
    ]}))
    r = read_responses(write_jsonl(tmp_path / "r.jsonl", [
        {"test_id": "m1", "response": "Ŋuɖoɖo: B"}, {"test_id": "m2", "response": "A) or B)?"},
        {"test_id": "m3", "response": "(B) Lomé"}]), suite)
    result = score_suite(suite, r)
    assert [t.score for t in result.tests] == [1.0, 0.0, 1.0]
    assert result.category("cultural_knowledge").score == pytest.approx(200 / 3)
    assert result.score == pytest.approx(200 / 3)


# ---------------------------------------------------------------------------- the real suite

@pytest.mark.shared_data
def test_real_suite_with_empty_responses_file(shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    assert len(suite.tests) == 107
    assert {c: len(suite.tests_of(c)) for c in suite.categories} == {
        "linguistic_comprehension": 15, "text_generation": 12, "reasoning": 12, "translation": 12,
        "cultural_knowledge": 10, "instruction_following": 10, "multi_turn": 8, "agentic": 10,
        "style_adaptation": 8, "robustness": 10}
    errors = suite.errors()
    assert {d.test_id for d in errors} == REASONING_WITHOUT_EXPECTED
    assert all(d.kind == "missing_expected" and d.file == "reasoning.json" for d in errors)
    # every format criterion of the suite is checked (four of them by heuristic checks)
    assert not [d for d in suite.defects if d.kind in ("unknown_criterion", "judged_criterion", "invalid_criterion")]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = score_suite(suite, read_responses(empty, suite), model="nobody")
    assert result.score is None and result.active_weight == 0.0
    assert all(not c.active for c in result.categories)
    assert all(t.status == "not_run" for t in result.tests)
    assert {d.test_id for d in result.suite_defects if d.severity == "error"} == REASONING_WITHOUT_EXPECTED


def _varied_response(i: int, test_id: str) -> dict:
    kinds = [
        {"response": "Ŋdi na wò! Mele nyuie. Ame siwo le afi sia nye Kofi kple Ama."},
        {"response": "Bonjour, je suis un assistant et je vais vous aider avec les questions dans cette langue."},
        {"response": ""},
        {"error": "timeout after 60 s"},
        {"response": "[ERROR] 500 Internal Server Error"},
        {"response": '<function_call>{"name": "get_weather", "arguments": {"city": "Lomé"}}</function_call>'},
        {"response": "| Ŋkɔ | Ƒe |\n|---|---|\n| Kofi | 25 |\n\n**Akpe**\n\n1. nyo\n2. vɔ̃"},
        {"response": unicodedata.normalize("NFD", "Wò ɖu fufu. Ɖe Eʋegbe me.")},
        {"response": "B"},
    ]
    return {"test_id": test_id, **kinds[i % len(kinds)]}


@pytest.mark.shared_data
def test_real_suite_scores_any_responses_without_crashing(shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    records = [_varied_response(i, t.id) for i, t in enumerate(suite.tests) if i % 11 != 5]
    path = write_jsonl(tmp_path / "r.jsonl", records)
    result = score_suite(suite, read_responses(path, suite), model="varied")
    assert len(result.tests) == 107
    assert all(c.active for c in result.categories)
    assert all(0.0 <= t.score <= 1.0 for t in result.tests if t.status != "unscorable")
    for t in result.tests:
        if t.test_id in REASONING_WITHOUT_EXPECTED:  # whether answered, missing or an error
            assert t.status == "unscorable" and t.score is None
    errors = {t.test_id for t in result.provider_errors}
    expected_errors = {r["test_id"] for r in records if "error" in r or r.get("response", "").startswith("[ERROR]")}
    assert errors == expected_errors - REASONING_WITHOUT_EXPECTED
    assert all(t.response is None for t in result.provider_errors)
    missing = {t.test_id for t in result.missing}
    assert missing == {t.id for i, t in enumerate(suite.tests) if i % 11 == 5} - REASONING_WITHOUT_EXPECTED
    assert 0.0 < result.score < 100.0
    # the ÈwéScore is the weighted mean of the category scores
    num = sum(c.score * c.weight for c in result.categories)
    assert result.score == pytest.approx(num / sum(c.weight for c in result.categories))
    # explanations are JSON-serialisable and say which format criteria were unscored
    json.dumps(result.model_dump(mode="json"))
    for t in result.tests:
        if t.status == "scored" and t.method in ("format", "composite"):
            fmt = t.explanation if t.method == "format" else t.explanation["components"]["format"]
            assert [c["criterion"] for c in fmt["criteria"] if c["status"] == "unscored"] == [], t.test_id


@pytest.mark.shared_data
def test_real_agentic_tests(shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    call = '<function_call>get_weather(location="Lomé")</function_call>'
    ewe = "Ŋkeke kae nàdi be mawɔ akpaɖe la nawò?"
    records = [{"test_id": t.id, "response": call if t.id.startswith("ag_direct_0") else ewe}
               for t in suite.tests_of("agentic")]
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite))
    assert result.category("agentic").score == 100.0
    assert result.category("agentic").passed == 10
    # the same Ewe text where a call is expected, and the call where none is wanted
    swapped = [{"test_id": r["test_id"], "response": ewe if r["response"] == call else call} for r in records]
    result2 = score_suite(suite, read_responses(write_jsonl(tmp_path / "r2.jsonl", swapped), suite))
    # direct-call tests get no call (0); no-call tests get a call without any Ewe letter (0 on both criteria)
    assert result2.category("agentic").score == 0.0
    assert result2.score == 0.0


# ----------------------------------------------------------------------------------- ranking

def test_rank_results_orders_and_warns(tmp_path):
    suite = read_suite(write_suite(tmp_path / "s"))
    good = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite), model="good")
    full = SMALL_RESPONSES + [{"test_id": "tr1", "response": "Ŋdi"}]
    best = score_suite(suite, read_responses(write_jsonl(tmp_path / "b.jsonl", full), suite), model="best")
    none = score_suite(suite, Responses(), model="none")
    ranking = rank_results([good, none, best])
    assert [r.model for r in ranking.results] == ["best", "good", "none"]
    assert best.score == pytest.approx((7.5 + 9.0 + 12.0) / 0.39)
    rows = ranking.rows()
    assert rows[1]["categories"]["translation"] is None
    assert rows[0]["categories"]["translation"] == 100.0
    assert any(c.startswith("coverage_differs") for c in ranking.caveats)
    assert "none: no category was run" in ranking.caveats


def test_responses_with_structural_defects_raise(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"test_id": "a", "response": "x"}\n{oops\n{"response": "no id"}\n{"test_id": "a", "response": "y"}\n'
                 '{"test_id": "b"}\n{"test_id": "c", "response": 3}\n', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        read_responses(p)
    assert [str(d) for d in ei.value.defects] == [
        f"{p}:2:2: invalid JSON: Expecting property name enclosed in double quotes",
        f"{p}:3: record has no test_id",
        f"{p}:4: a: answered twice (first at {p}:1)",
        f"{p}:5: b: record has neither response nor error",
        f"{p}:6: c: response must be a string, not int",
    ]


def test_an_empty_response_earns_nothing_even_where_no_call_is_expected():
    from eval_standards.ewe.bench.model import EweTest

    score_test = EWEBENCH.score_test
    test = EweTest(id="ag", prompt="p", method="format", category="agentic",
                     expected_format={"contains_function_call": False})
    empty = score_test(test, ResponseRecord(test_id="ag", response="   "))
    assert empty.score == 0.0 and empty.passed is False and empty.explanation["empty_response"] is True
    spoken = score_test(test, ResponseRecord(test_id="ag", response="Nyemenya o."))
    assert spoken.score == 1.0


@pytest.mark.shared_data
def test_real_single_sentence_test_and_unscorable_reasoning_tests(shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    four = "Ame si mele ŋutinya me o la, menya nu o. Esia nye nyateƒe. Míaƒe tɔgbuiwo gblɔe. Akpe."
    records = [{"test_id": "if_format_02", "response": four}]
    records += [{"test_id": t.id, "response": "Ŋdi"} for t in suite.tests_of("reasoning")]
    result = score_suite(suite, read_responses(write_jsonl(tmp_path / "r.jsonl", records), suite))
    t = result.result("if_format_02")
    assert t.score == pytest.approx(2 / 3) and t.passed is False  # max_sentences 1: four sentences fail
    reasoning = result.category("reasoning")
    assert {u.test_id for u in result.unscorable} == REASONING_WITHOUT_EXPECTED
    scored = [r for r in result.tests if r.category == "reasoning" and r.status == "scored"]
    assert (len(scored), reasoning.unscorable) == (5, 7)
    assert reasoning.score == pytest.approx(sum(r.score for r in scored) / 5 * 100)


# ------------------------------------------------------------------ unscorable tests: one rule

def test_unscorable_test_is_left_out_whether_answered_missing_or_an_error(tmp_path):
    suite = read_suite(write_suite(tmp_path / "suite", {
        "reasoning": [
            {"id": "ok", "prompt": "?", "eval_method": "keywords", "expected_keywords": ["ame"]},
            {"id": "noexp", "prompt": "?", "eval_method": "exact_match"},  # no 'expected': unscorable
        ],
    }))
    scores = {}
    for name, extra in {"answered": [{"test_id": "noexp", "response": "ame"}], "missing": [],
                        "error": [{"test_id": "noexp", "error": "HTTP 500"}]}.items():
        records = [{"test_id": "ok", "response": "ame"}, *extra]
        result = score_suite(suite, read_responses(write_jsonl(tmp_path / f"{name}.jsonl", records), suite))
        t = result.result("noexp")
        reasoning = result.category("reasoning")
        assert (t.status, t.score, t.passed) == ("unscorable", None, None)
        assert (reasoning.unscorable, reasoning.missing, reasoning.errors) == (1, 0, 0)
        assert reasoning.answered == (1 if name == "missing" else 2)
        scores[name] = (reasoning.score, result.score)
    assert scores == {"answered": (100.0, 100.0), "missing": (100.0, 100.0), "error": (100.0, 100.0)}


@pytest.mark.shared_data
def test_real_suite_score_does_not_depend_on_answering_unscorable_tests(shared_data, tmp_path):
    suite = read_suite(shared_data / "ewebench" / "tests")
    text = "Ŋdi na wò! Mele agbe nyuie. Ame sia ame le aƒeme. Esia nye nyateƒe."
    every = [{"test_id": t.id, "response": text} for t in suite.tests]
    without = [r for r in every if r["test_id"] not in REASONING_WITHOUT_EXPECTED]
    a = score_suite(suite, read_responses(write_jsonl(tmp_path / "a.jsonl", every), suite))
    b = score_suite(suite, read_responses(write_jsonl(tmp_path / "b.jsonl", without), suite))
    assert a.category("reasoning").score == b.category("reasoning").score
    assert round(a.score, 6) == round(b.score, 6)
    assert {t.test_id for t in b.unscorable} == REASONING_WITHOUT_EXPECTED
    assert b.category("reasoning").missing == 0
