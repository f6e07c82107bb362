"""Plains Cree in two scripts: the card's SRO ↔ syllabics table, SCRIPT_VARIANT, FST and orthography through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_standards.crk.linter import EQUIVALENT, EXACT, MISS, CrkLinter, CrkLinterMetric
from mteval_gui.cards import load_card, read_card
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.scoring.metrics.structural import FstAcceptanceMetric, OrthographicAccuracyMetric
from mteval_gui.scoring.plugins import EntryInput, EntryScore, ScoringContext
from tests.fst._support import install_crk

CARD = load_card("crk")
SCRIPTS = Scripts.of(CARD)
SYLLABICS = SCRIPTS.tables[0]


@pytest.mark.parametrize(("sro", "syllabics"), [
    ("nipâw", "ᓂᐹᐤ"), ("Nipâw", "ᓂᐹᐤ"), ("itwêw", "ᐃᑘᐤ"), ("âha", "ᐋᐦᐊ"), ("mihkwâw", "ᒥᐦᒁᐤ"),
    ("wâpahk", "ᐚᐸᕽ"), ("maskihkiy", "ᒪᐢᑭᐦᑭᐩ"), ("nêhiyawêwin", "ᓀᐦᐃᔭᐍᐏᐣ"), ("kotak", "ᑯᑕᐠ"),
    ("ê-nipât", "ᐁ-ᓂᐹᐟ"), ("ocêm", "ᐅᒉᒼ"), ("sîsîp", "ᓰᓰᑊ"), ("mâci", "ᒫᒋ"), ("pwâtak", "ᑇᑕᐠ"),
])
def test_the_card_table_writes_sro_in_syllabics_and_back(sro, syllabics):
    assert SYLLABICS.forward(sro) == syllabics
    assert SYLLABICS.backward(syllabics) == sro.lower()
    assert SCRIPTS.script_of(syllabics) == "Cans" and SCRIPTS.script_of(sro) == "Latn"


def test_texts_are_converted_word_by_word_keeping_punctuation():
    assert SCRIPTS.to_primary("ᐃᑘᐤ «ᐋᐦᐊ»") == "itwêw «âha»"
    assert SCRIPTS.to_script("itwêw «âha»", "Cans") == "ᐃᑘᐤ «ᐋᐦᐊ»"
    assert SCRIPTS.to_script("ᓂᐹᐤ", "Latn") == "nipâw"
    assert SCRIPTS.to_script("nipâw", "Grek") is None


def test_a_table_that_cannot_be_read_backwards_is_refused(tmp_path: Path):
    data = json.loads(Path("language_cards/crk.json").read_text("utf-8"))
    data["transliterations"][0]["table"]["pa"] = data["transliterations"][0]["table"]["pâ"]
    data["transliterations"][0]["to"] = "Grek"
    path = tmp_path / "crk.json"
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    problems = read_card(path).problems
    text = "\n".join(problems)
    assert "transliterations[0].to: 'Grek' is not among the card's scripts" in text
    assert "transliterations[0].table.pâ: 'ᐹ' is also the value of 'pa' (the table must be readable backwards)" in text


def test_syllabic_output_for_an_sro_reference_is_a_script_variant_without_analyzer():
    linter = CrkLinter(scripts=SCRIPTS)
    res = linter.lint_entry(["nipâw"], "ᓂᐹᐤ")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["SCRIPT_VARIANT"])
    assert res.explanation == "SCRIPT_VARIANT: ᓂᐹᐤ / nipâw: written in Cans, read as nipâw"
    res = linter.lint_entry(["itwêw «âha»"], "ᐃᑘᐤ «ᐋᐦᐊ»")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["SCRIPT_VARIANT"])
    assert linter.lint_entry(["ᓂᐹᐤ"], "nipâw").classes == ["SCRIPT_VARIANT"]  # SRO for a syllabic reference
    assert linter.lint_entry(["ᓂᐹᐤ"], "ᓂᐹᐤ").verdict == EXACT
    res = linter.lint_entry(["nipâw"], "ᓂᐸᐤ")  # short a: nipaw, not the reference's word
    assert res.verdict == MISS and "SCRIPT_VARIANT" not in res.classes
    assert CrkLinter().lint_entry(["nipâw"], "ᓂᐹᐤ").verdict == MISS  # without the card's table


def _items(pairs: list[tuple[str, str]]) -> list[EntryInput]:
    return [EntryInput(i, Entry(id=str(i), source="he sleeps", reference=r), Output(id=str(i), predicted=p))
            for i, (r, p) in enumerate(pairs)]


def _run(metric, ctx: ScoringContext, items: list[EntryInput]):
    metric.prepare(ctx)
    per = [EntryScore.from_json(e.to_json()) for e in metric.score_entries(items)]
    return per, metric.aggregate(per, ctx)


def test_orthography_reads_the_script_a_word_is_written_in(monkeypatch, tmp_path):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path))  # no analyzer: the profile alone
    ctx = ScoringContext("eng", "crk", target_card=CARD)
    per, corpus = _run(OrthographicAccuracyMetric(), ctx, _items([("itwêw «âha»", "itwêw «âha» ᐊᐦᐊ"),
                                                                   ("nipâw", "ᓂᐹw")]))
    assert per[0].value == 1.0  # was 2/3: the syllabic word counted as letters outside the alphabet
    assert per[1].detail["flagged"] == [{"token": "ᓂᐹw", "violations": [
        {"code": "mixed_script", "message": "'w' (U+0077) of the first script in a word written in Cans",
         "char": "w"}]}]
    assert corpus.values["orthographic_accuracy"] == pytest.approx(3 / 4)


@pytest.fixture(scope="module")
def crk_dir(tmp_path_factory) -> Path:
    from tests.conftest import SHARED_DATA

    base = tmp_path_factory.mktemp("analyzers")
    install_crk(SHARED_DATA, base)
    return base


@pytest.mark.shared_data
def test_syllabic_output_is_fst_accepted_equivalent_and_orthographic(crk_dir, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(crk_dir))
    items = _items([("nipâw", "ᓂᐹᐤ"), ("itwêw «âha»", "ᐃᑘᐤ «ᐋᐦᐊ»"), ("nipâw", "ᓂᐸᐤ")])
    ctx = ScoringContext("eng", "crk", target_card=CARD)
    fst_per, fst = _run(FstAcceptanceMetric(), ctx, items)
    assert fst_per[0].detail["analyses"] == [{"token": "ᓂᐹᐤ", "form": "nipâw", "accepted": True,
                                              "analyses": ["nipâw+V+AI+Ind+3Sg"], "script": "Cans"}]
    assert [p.value for p in fst_per] == [1.0, 1.0, 0.0]
    assert ctx.shared["target_accepts"]("ᓂᐹᐤ") is True
    lint_per, lint = _run(CrkLinterMetric(), ctx, items)
    assert [(p.detail["verdict"], p.detail["classes"]) for p in lint_per] == [
        (EQUIVALENT, ["SCRIPT_VARIANT"]), (EQUIVALENT, ["SCRIPT_VARIANT"]), (MISS, ["VOWEL_LENGTH"])]
    assert lint.extra["classes"] == {"SCRIPT_VARIANT": 2, "VOWEL_LENGTH": 1}
    ortho_per, _ = _run(OrthographicAccuracyMetric(), ctx, items)
    assert [p.value for p in ortho_per] == [1.0, 1.0, 0.0]
    assert ortho_per[2].detail["codes"] == {"non_standard": 1}
