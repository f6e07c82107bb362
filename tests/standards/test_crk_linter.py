"""The Plains Cree linter (crk.lint): test vectors, verbforms runs and handcrafted cases."""

from __future__ import annotations

import csv
import json
import unicodedata
from pathlib import Path

import pytest

from eval_standards.crk.linter import (
    EQUIVALENT,
    EXACT,
    MISS,
    NO_OUTPUT,
    CrkLinter,
    CrkLinterMetric,
)
from eval_standards.crk.wordlists import load_wordlists
from mteval_gui.cards import load_card
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.run import Output
from mteval_gui.errors import InputError
from mteval_gui.scoring.plugins import EntryInput, MetricUnavailable, ScoringContext
from tests.conftest import SHARED_DATA as SHARED

STRICT = "crk/fst/crk-strict-analyzer-for-dictionary.hfstol"


def _vectors() -> list[tuple[str, str, str, list[str]]]:
    path = SHARED / "crk" / "linter_vectors.tsv"
    if not path.is_file():
        return []
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["reference"], r["prediction"] or "", r["verdict"], [c for c in (r["classes"] or "").split(",") if c])
            for r in rows]


@pytest.fixture(scope="module")
def strict_linter() -> CrkLinter:
    from mteval_gui.fst import Analyzer

    path = SHARED / STRICT
    if not path.is_file():
        pytest.skip("shared analyzer not available")
    an = Analyzer.load(path)
    return CrkLinter(load_wordlists(), lambda form: an.analyse(form).analyses)


@pytest.fixture(scope="module")
def plain_linter() -> CrkLinter:
    """The linter without an analyzer (string-level classes only)."""
    return CrkLinter(load_wordlists(), None)


# -- test vectors ------------------------------------------------------------------------

@pytest.mark.shared_data
@pytest.mark.parametrize("reference,prediction,verdict,classes", _vectors())
def test_linter_vectors(strict_linter, reference, prediction, verdict, classes):
    res = strict_linter.lint_entry([reference], prediction)
    assert res.verdict == verdict, res.explanation
    for c in classes:
        assert c in res.classes, (c, res.classes, res.explanation)


@pytest.mark.shared_data
def test_vector_file_has_every_row(shared_data):
    # the parametrised test above must see every row of the file (18 rows today)
    lines = (shared_data / "crk" / "linter_vectors.tsv").read_text(encoding="utf-8").splitlines()
    assert len(_vectors()) == len([ln for ln in lines[1:] if ln.strip()]) >= 18


# -- handcrafted cases ----------------------------------------------------------------------

def test_nfd_input_is_exact(plain_linter):
    res = plain_linter.lint_entry(["nipâw"], unicodedata.normalize("NFD", "nipâw"))
    assert res.verdict == EXACT
    assert res.classes == []


def test_decomposed_macron_is_long_vowel_variant(plain_linter):
    pred = "nip" + "a\u0304" + "w"  # a + COMBINING MACRON
    res = plain_linter.lint_entry(["nipâw"], pred)
    assert res.verdict == EQUIVALENT
    assert res.classes == ["LONG_VOWEL_MACRON"]


def test_chained_preverbs_written_apart(plain_linter):
    res = plain_linter.lint_entry(["ê-kî-wâpamât"], "ê kî wâpamât")
    assert res.verdict == EQUIVALENT
    assert res.classes == ["ORTHOGRAPHIC"]
    assert res.pairs == [{"reference": "ê-kî-wâpamât", "output": "ê kî wâpamât", "classes": ["ORTHOGRAPHIC"]}]


def test_sentence_initial_capital_and_trailing_punctuation(plain_linter):
    res = plain_linter.lint_entry(["kî kimiwan otâkosîhk"], "Kî kimiwan otâkosîhk.")
    assert res.verdict == EXACT
    assert res.classes == []
    assert "edge punctuation" in res.explanation


def test_typographic_hyphen_is_orthographic(plain_linter):
    res = plain_linter.lint_entry(["ê-kî-wâpamât"], "ê\u2010kî\u2010wâpamât")
    assert res.verdict == EQUIVALENT
    assert res.classes == ["ORTHOGRAPHIC"]


def test_y_acute_spelling_is_orthographic(plain_linter):
    res = plain_linter.lint_entry(["niya"], "niýa")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["ORTHOGRAPHIC"])


def test_dropped_circumflexes_are_a_miss(plain_linter):
    res = plain_linter.lint_entry(["nipâw"], "nipaw")
    assert res.verdict == MISS
    assert res.classes == ["VOWEL_LENGTH"]


def test_optional_pronoun_added(plain_linter):
    res = plain_linter.lint_entry(["ninipân"], "niya ninipân")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["OPTIONAL_PARTICLE"])


def test_extra_content_word_is_a_miss(plain_linter):
    res = plain_linter.lint_entry(["ninipân"], "ninipân atim")
    assert res.verdict == MISS
    assert res.unpaired_output == ["atim"]


def test_empty_and_whitespace_output(plain_linter):
    assert plain_linter.lint_entry(["nipâw"], "").verdict == NO_OUTPUT
    assert plain_linter.lint_entry(["nipâw"], "  ...  ").verdict == NO_OUTPUT


def test_variant_is_matched_and_named(plain_linter):
    res = plain_linter.lint_entry(["kipimâtisinaw", "kipimâtisinânaw"], "kipimātisinānaw")
    assert (res.verdict, res.classes, res.matched) == (EQUIVALENT, ["LONG_VOWEL_MACRON"], "variant 1")


def test_output_identical_to_a_variant_is_equivalent_not_exact(plain_linter):
    res = plain_linter.lint_entry(["nititwân", "ê-itwêyân"], "ê-itwêyân")
    assert (res.verdict, res.classes, res.matched) == (EQUIVALENT, [], "variant 1")
    assert res.explanation == "identical to accepted variant 1"
    assert plain_linter.lint_entry(["nititwân", "ê-itwêyân"], "nititwân").verdict == EXACT


def test_synonym_needs_the_analyzer(plain_linter):
    # verbs are compared through their analyses; without an analyzer no synonym is claimed
    assert plain_linter.lint_entry(["takosin"], "takohtêw").verdict == MISS
    # particles of a synonym set are compared as written
    assert plain_linter.lint_entry(["namôya nipâw"], "môya nipâw").classes == ["LEMMA_SYNONYM"]


def test_synonym_sets_of_the_reference_harness_with_their_citations():
    lists = load_wordlists()
    sets = {}
    for lemma, name in lists.synonym_set.items():
        sets.setdefault(name, set()).add(lemma)
    assert sets == {"arrive": {"takohtêw", "takosin"}, "not": {"namôya", "môya"}, "yes": {"âha", "âhâ"},
                    "run": {"pimipahtâw", "sêsâwipahtâw"}, "swim": {"pakâsimow", "pakâstêw"}}
    assert not lists.synonyms("sipwêhtêw", "sipwêtisahwêw")  # a TA verb 'send s.o. off', left out
    assert not lists.synonyms("mîcisow", "mîciw")  # AI/TI: paired by gloss in the semantic validator
    rows = [line.split("\t") for line in (Path(__file__).resolve().parents[2] / "eval_standards" / "crk" / "data"
                                          / "synonyms.tsv").read_text("utf-8").splitlines()
            if line and not line.startswith("#")][1:]
    assert len(rows) == 10 and all(r[4].startswith("Wolvengrey 2001 (") for r in rows)


def test_particle_synonyms_of_the_new_sets(plain_linter):
    assert plain_linter.lint_entry(["âha"], "âhâ").classes == ["LEMMA_SYNONYM"]


@pytest.mark.shared_data
def test_verb_synonyms_of_the_new_sets(strict_linter):
    res = strict_linter.lint_entry(["pimipahtâw"], "sêsâwipahtâw")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["LEMMA_SYNONYM"])


@pytest.mark.shared_data
def test_wrong_person_is_a_miss(strict_linter):
    res = strict_linter.lint_entry(["nititwân"], "itwêwak", source="I say so")
    assert res.verdict == MISS
    assert res.classes == []
    assert "same lemma itwêw" in res.explanation


@pytest.mark.shared_data
def test_clusivity_open_unless_the_entry_decides(strict_linter):
    ref, pred = "nikîwânân", "kikîwânaw"  # kîwêw 1Pl (exclusive) vs 12Pl (inclusive)
    res = strict_linter.lint_entry([ref], pred, source="we go home")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["INCLUSIVE_EXCLUSIVE"])
    assert strict_linter.lint_entry([ref], pred, source="we and you go home").verdict == MISS
    assert strict_linter.lint_entry([ref], pred, source="let's go home").verdict == MISS
    gold = ["kîwêw+V+AI+Ind+1Pl"]
    res = strict_linter.lint_entry([ref], pred, source="we go home", gold=gold)
    assert (res.verdict, res.classes) == (MISS, ["INCLUSIVE_EXCLUSIVE"])
    assert "gold analysis" in res.explanation
    assert (
        strict_linter.lint_entry([ref], pred, source="we go home", gold=gold, clusivity="accept").verdict == EQUIVALENT
    )
    assert strict_linter.lint_entry([ref], pred, source="we go home", clusivity="reject").verdict == MISS


@pytest.mark.shared_data
def test_progressive_added_is_rejected_when_gold_fixes_preverbs(strict_linter):
    ref, pred = "kika-sipwêhtânaw", "kika-ati-sipwêhtânaw"
    assert strict_linter.lint_entry([ref], pred).classes == ["PROGRESSIVE_AMBIGUITY"]
    res = strict_linter.lint_entry([ref], pred, gold=["PV/ka+sipwêhtêw+V+AI+Ind+12Pl"])
    assert (res.verdict, res.classes) == (MISS, ["PROGRESSIVE_AMBIGUITY"])


@pytest.mark.shared_data
def test_same_analysis_other_form_is_orthographic(strict_linter):
    # both spellings are 12Pl of pimâtisiw for the analyzer
    res = strict_linter.lint_entry(["kipimâtisinaw"], "kipimâtisinânaw")
    assert (res.verdict, res.classes) == (EQUIVALENT, ["ORTHOGRAPHIC"])


# -- the metric on the verbforms corpus ---------------------------------------------------------

def _load_run(shared: Path, name: str) -> tuple[list[EntryInput], dict[str, Entry]]:
    corpus = [Entry(**json.loads(line)) for line in
              (shared / "crk/verbforms/corpus.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    by_id = {e.id: e for e in corpus}
    lines = (shared / f"crk/verbforms/runs/{name}.jsonl").read_text(encoding="utf-8").splitlines()
    items = []
    for line in lines:
        rec = json.loads(line)
        if "run" in rec:
            continue
        entry = by_id[str(rec["id"])]
        items.append(EntryInput(index=len(items), entry=entry, output=Output(**rec)))
    return items, by_id


def _context(shared: Path | None) -> ScoringContext:
    options = {"analyzer_path": str(shared / STRICT)} if shared is not None else {}
    return ScoringContext(source_lang="eng", target_lang="crk", target_card=load_card("crk"), options=options)


@pytest.mark.shared_data
def test_macron_run_is_equivalent_everywhere(shared_data):
    items, _ = _load_run(shared_data, "macron")
    ctx = _context(shared_data)
    m = CrkLinterMetric()
    m.prepare(ctx)
    scores = m.score_entries(items)
    assert len(scores) == 571
    identical = 0
    for it, s in zip(items, scores, strict=True):
        if it.predicted == it.entry.reference:
            identical += 1  # forms without long vowels: the macron writer changed nothing
            assert s.detail["verdict"] == EXACT
        else:
            assert s.detail["verdict"] == EQUIVALENT, (it.entry.reference, it.predicted, s.detail)
            assert "LONG_VOWEL_MACRON" in s.detail["classes"]
        assert s.value == 1.0
    assert identical == 31
    corpus = m.aggregate(scores, ctx)
    assert corpus.availability == "ok"
    assert corpus.values == {"equivalent_match_rate": 1.0, "equivalent_matches": 571}
    assert corpus.extra["verdicts"] == {"EXACT": 31, "EQUIVALENT": 540, "MISS": 0, "NO_OUTPUT": 0}
    assert corpus.extra["fst"]["file"] == "crk-strict-analyzer-for-dictionary.hfstol"
    json.dumps([s.to_json() for s in scores])  # JSON-serialisable


@pytest.mark.shared_data
def test_wrong_person_run_is_a_miss_where_it_differs(shared_data):
    items, _ = _load_run(shared_data, "wrong-person")
    ctx = _context(shared_data)
    m = CrkLinterMetric()
    m.prepare(ctx)
    scores = m.score_entries(items)
    same = 0
    for it, s in zip(items, scores, strict=True):
        if it.predicted in it.entry.references():
            same += 1  # obviative/impersonal forms the generator could not change
            assert s.detail["verdict"] == EXACT
        else:
            assert s.detail["verdict"] == MISS, (it.entry.source, it.entry.reference, it.predicted, s.detail)
            assert s.value == 0.0
    assert same == 132
    corpus = m.aggregate(scores, ctx)
    assert corpus.values["equivalent_matches"] == 132
    assert corpus.values["equivalent_match_rate"] == pytest.approx(132 / 571)


@pytest.mark.shared_data
def test_no_circumflex_run_is_a_miss(shared_data):
    items, _ = _load_run(shared_data, "no-circumflex")
    ctx = _context(shared_data)
    m = CrkLinterMetric()
    m.prepare(ctx)
    corpus = m.aggregate(m.score_entries(items), ctx)
    # only the 31 forms without long vowels survive the loss of the circumflexes
    assert corpus.extra["verdicts"] == {"EXACT": 31, "EQUIVALENT": 0, "MISS": 540, "NO_OUTPUT": 0}


@pytest.mark.shared_data
def test_mixed_run_errors_are_no_output(shared_data):
    items, _ = _load_run(shared_data, "mixed")
    ctx = _context(shared_data)
    m = CrkLinterMetric()
    m.prepare(ctx)
    scores = m.score_entries(items)
    for it, s in zip(items, scores, strict=True):
        if it.output.error or not it.predicted.strip():
            assert s.detail["verdict"] == NO_OUTPUT
            assert s.value == 0.0


def test_metric_without_analyzer_and_without_references():
    ctx = _context(None)
    m = CrkLinterMetric()
    m.prepare(ctx)  # no analyzer installed: still runs, string-level classes only
    e1 = Entry(id="1", source="he/she sleeps", reference="nipâw")
    e2 = Entry(id="2", source="no reference here")
    items = [EntryInput(0, e1, Output(id="1", predicted="nipāw")), EntryInput(1, e2, Output(id="2", predicted="nipâw"))]
    scores = m.score_entries(items)
    assert scores[0].value == 1.0 and scores[0].detail["classes"] == ["LONG_VOWEL_MACRON"]
    assert scores[1].value is None
    corpus = m.aggregate(scores, ctx)
    assert corpus.values == {"equivalent_match_rate": 1.0, "equivalent_matches": 1}
    assert corpus.extra["fst"] is None and "no strict analyzer" in corpus.extra["note"]
    empty = m.aggregate([scores[1]], ctx)
    assert empty.availability == "not_applicable"


def test_bad_parameter_is_unavailable():
    ctx = _context(None)
    ctx.params["crk.lint"] = {"clusivity": "sometimes"}
    with pytest.raises(MetricUnavailable, match="clusivity"):
        CrkLinterMetric().prepare(ctx)


def test_defective_wordlist_reports_file_and_line(tmp_path):
    (tmp_path / "synonyms.tsv").write_text("set\tlemma\tcitation\narrive\ttakosin\t\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_wordlists(tmp_path)
    assert str(exc.value) == f"{tmp_path / 'synonyms.tsv'}:2: empty citation"
    ctx = _context(None)
    ctx.params["crk.lint"] = {"wordlists_dir": str(tmp_path)}
    with pytest.raises(MetricUnavailable, match="synonyms.tsv:2: empty citation"):
        CrkLinterMetric().prepare(ctx)


def test_wordlist_override_extends_synonyms(tmp_path):
    (tmp_path / "synonyms.tsv").write_text(
        "set\tlemma\tpos\tcitation\nthanks\tkinanâskomitin\tIpc\ttest list\nthanks\thay-hay\tIpc\ttest list\n",
        encoding="utf-8")
    lists = load_wordlists(tmp_path)
    assert lists.synonyms("kinanâskomitin", "hay-hay")
    assert not lists.synonyms("takosin", "takohtêw")  # the override replaced the bundled file
    assert "nika" in lists.preverbs  # other files stay bundled
