"""Typed per-entry details: verdicts, word analyses, orthography violations (written back as stored)."""

from __future__ import annotations

import json

import pytest

from mteval_gui.domain.details import FlaggedWord, FstDetail, OrthographyDetail, Verdict, WordAnalysis
from mteval_gui.domain.runcard import EntryResult


def test_a_verdict_is_written_back_exactly_as_stored():
    stored = {"verdict": "EQUIVALENT", "classes": ["LONG_VOWEL_MACRON"], "explanation": "macrons",
              "matched": "variant 2", "findings": [{"class": "LONG_VOWEL_MACRON", "acceptable": True, "note": "x"}],
              "pairs": [{"reference": "wâpamêw", "output": "wāpamēw", "classes": ["LONG_VOWEL_MACRON"]}],
              "unpaired_output": ["atim"]}
    v = Verdict.model_validate(stored)
    assert (v.verdict, v.classes, v.matched, v.pairs[0].output) == ("EQUIVALENT", ["LONG_VOWEL_MACRON"],
                                                                    "variant 2", "wāpamēw")
    assert v.extras() == {"findings": stored["findings"], "unpaired_output": ["atim"]}
    assert v.model_dump(mode="json") == stored
    assert json.loads(v.model_dump_json()) == stored
    semantic = {"verdict": "PARTIAL", "weight": 0.4, "explanation": "half", "coverage": 0.5,
                "pairs": [{"output": "atim", "lemmas": ["atim"], "gloss": "dog", "source_words": ["dog"],
                           "reference": None, "match": "lemma"}]}
    assert Verdict.model_validate(semantic).model_dump(mode="json") == semantic


def test_a_verdict_under_another_name_is_read():
    assert Verdict.model_validate({"label": "VALID", "score": 1}).verdict == "VALID"
    assert Verdict.model_validate({"name": "MISS"}).verdict == "MISS"
    assert Verdict.model_validate({"verdict": 3}).verdict == "3"
    with pytest.raises(ValueError):
        Verdict.model_validate({"explanation": "no verdict at all"})


def test_word_analyses():
    w = WordAnalysis.model_validate({"token": "atim", "analyses": [{"raw": "atim+N+A+Sg"}, "atim+N+A+Obv"]})
    assert (w.analyses, w.accepted, w.is_accepted) == (["atim+N+A+Sg", "atim+N+A+Obv"], None, True)
    assert WordAnalysis(token="xyz", analyses=[]).is_accepted is False
    assert WordAnalysis(token="ok", accepted=False, analyses=["a"]).is_accepted is False
    stored = {"token": "nipaw", "form": "nipaw", "accepted": False, "analyses": []}
    assert WordAnalysis.model_validate(stored).model_dump() == stored
    assert [a.token for a in FstDetail.model_validate({"words": [{"token": "a"}, {"token": "b"}]}).analyses] == [
        "a", "b"]


def test_orthography_detail():
    d = OrthographyDetail.model_validate({"flagged": [{"token": "wapamew", "violations": [
        {"code": "non_standard", "message": "accepted by desc"}, {"code": "alphabet"}]}], "codes": {"non_standard": 1}})
    f = d.flagged[0]
    assert isinstance(f, FlaggedWord) and [(v.code, v.message) for v in f.violations] == [
        ("non_standard", "accepted by desc"), ("alphabet", "")]
    assert d.codes == {"non_standard": 1}


def test_every_field_the_runner_writes_is_declared():
    declared = set(EntryResult.model_fields)
    assert {"entry_bleu", "entry_ter", "equivalence_verdict", "metrics", "fst_analysis", "lint_verdict",
            "semantic_verdict"} <= declared
    assert EntryResult.model_fields["lint_verdict"].annotation == Verdict | None
    assert EntryResult.model_fields["fst_analysis"].annotation == list[WordAnalysis] | None


def test_a_detail_reads_like_its_stored_json():
    v = Verdict.model_validate({"verdict": "MISS", "unpaired_output": ["atim"]})
    assert (v["verdict"], v["unpaired_output"], v.get("classes"), v.get("nothing", 7)) == ("MISS", ["atim"], None, 7)
    with pytest.raises(KeyError):
        v["explanation"]  # not stored


def test_a_detail_equals_its_stored_json():
    stored = {"token": "nititwan", "form": "nititwan", "accepted": False, "analyses": []}
    assert WordAnalysis.model_validate(stored) == stored
    assert [WordAnalysis.model_validate(stored)] == [stored]
    assert Verdict.model_validate({"verdict": "MISS"}) != {"verdict": "MISS", "classes": []}
    assert Verdict(verdict="MISS") == Verdict.model_validate({"verdict": "MISS"})
