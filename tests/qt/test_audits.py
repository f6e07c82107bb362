"""Speaker audits: linter audit (Task B) and FST audit (Task C) views.

The workspace is scored for real: a Plains Cree corpus whose outputs the linter calls
EQUIVALENT for known reasons, and the FST metric run with a tiny compiled analyzer, so the
queues come from the stored results exactly as in the application.
"""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from mteval_gui.app import audits
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.qt.audit_common import format_proportion, side_by_side_html
from mteval_gui.qt.audit_fst import FstAuditView, highlight_word
from mteval_gui.qt.audit_linter import LinterAuditView
from mteval_gui.store import judgments as jstore

ENTRIES = [
    ("e1", "come here", "âstam", "āstam"),
    ("e2", "where is the man", "tâniwâ nâpêw", "tāniwā nāpēw"),
    ("e3", "he sleeps, the dog", "nipâw atim", "atim nipâw"),
    (
        "e4",
        "eat when the children arrive",
        "mîcisohkan ispîhk awâsisak takohtêtwâwi",
        "mîcisohkan awâsisak takohtêtwâwi",
    ),
    ("e5", "he sleeps", "nipâw", "nipâw kotak"),
    ("e6", "the dog", "atim", "atim"),
]


@pytest.fixture(scope="module")
def audit_template(tmp_path_factory):
    """A crk corpus and run scored with crk.lint and core.fst (tiny analyzer), built once."""
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.domain.settings import ScoringOptions
    from mteval_gui.store import Workspace, repo
    from tests.fst._support import build_tiny_hfstol

    folder = tmp_path_factory.mktemp("audit")
    analyzer = build_tiny_hfstol(folder / "tiny.hfstol")
    ws = Workspace(folder / "audit.sqlite")
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"),
                               entries=[Entry(id=i, source=s, reference=r) for i, s, r, _ in ENTRIES]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="r1", model_slug="m"), corpus_id="c",
                         outputs=[Output(id=i, predicted=p) for i, _, _, p in ENTRIES]))
    score_workspace_run(ws, "r1", metrics=["crk.lint", "core.fst"], options=ScoringOptions(analyzer_path=str(analyzer)))
    for rid in ("amy", "ben", "cat"):
        jstore.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title()))
    ws.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ws.close()
    return folder / "audit.sqlite"


@pytest.fixture
def audit_ws(audit_template, tmp_path):
    from mteval_gui.store import Workspace

    target = tmp_path / "audit.sqlite"
    shutil.copy2(audit_template, target)
    ws = Workspace(target)
    yield ws
    ws.close()


def _open(qtbot, view, ws, reviewer="amy"):
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.set_workspace(ws)
    view.scope.select("c", "", reviewer)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)  # the answer keys are shortcuts of the active window
    _loaded(qtbot, view)
    view.table.setFocus()
    return view


def _loaded(qtbot, view):
    """Wait until the queue read in the background is shown."""
    qtbot.waitUntil(lambda: not view.queue_task.running, timeout=20000)


def _plain(label) -> str:
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def _b(ws, reviewer="amy"):
    return {
        j.entry_id: (j.payload, j.version)
        for j in jstore.current_judgments(ws, run_id="r1", reviewer_id=reviewer, task="B")
    }


def _c(ws, reviewer="amy"):
    return {(j.entry_id, j.payload["word"]): (j.payload, j.version)
            for j in jstore.current_judgments(ws, run_id="r1", reviewer_id=reviewer, task="C")}


# --------------------------------------------------------------------------- helpers


def test_side_by_side_marks_differences_on_both_sides():
    a, b = side_by_side_html("tâniwâ nâpêw", "tāniwā nāpēw")
    assert a.count("<span") == 4 and b.count("<span") == 4
    assert ">â</span>" in a and ">ā</span>" in b
    assert side_by_side_html("atim", "atim") == ("atim", "atim")


def test_highlight_word_marks_whole_words_only():
    html = highlight_word("nipâw kotak nipâwak <b>", "nipâw")
    assert html.count("<span") == 1 and "nipâwak" in html and "&lt;b&gt;" in html


# --------------------------------------------------------------------------- Task B


def test_linter_queue_shows_the_equivalent_pairs(qtbot, audit_ws):
    view = _open(qtbot, LinterAuditView(), audit_ws)
    assert [(q["entry_id"], q["classes"]) for q in view.queue] == [
        ("e1", ["LONG_VOWEL_MACRON"]),
        ("e2", ["LONG_VOWEL_MACRON"]),
        ("e3", ["WORD_ORDER"]),
        ("e4", ["OPTIONAL_PARTICLE"]),
    ]
    assert view.queue == audits.linter_audit_queue(audit_ws, ["r1"])
    assert view.item["entry_id"] == "e1"
    assert (_plain(view.a_text), _plain(view.b_text)) == ("âstam", "āstam")
    assert _plain(view.a_title) == "A · Reference"
    assert "LONG_VOWEL_MACRON" in _plain(view.classes)
    assert "macron vs circumflex" in _plain(view.explanation)
    view.select_item(("r1", "e3"))
    assert _plain(view.source) == "Source: he sleeps, the dog" and "WORD_ORDER" in _plain(view.explanation)


def test_linter_queue_explains_in_french(qtbot, audit_ws, french):
    view = _open(qtbot, LinterAuditView(), audit_ws)
    assert _plain(view.explanation).startswith(
        "Vérificateur : LONG_VOWEL_MACRON : āstam / âstam : voyelles longues notées par un macron ou par un accent "
        "circonflexe")


def test_linter_keys_save_at_once_and_undo(qtbot, audit_ws):
    view = _open(qtbot, LinterAuditView(), audit_ws)
    table = view.table
    QTest.keyClick(table, Qt.Key.Key_Y)
    assert _b(audit_ws) == {"e1": ({"same_meaning": "Yes", "natural": None, "classes": ["LONG_VOWEL_MACRON"]}, 1)}
    assert view.item["entry_id"] == "e1"  # one answer missing: stays
    QTest.keyClick(table, Qt.Key.Key_2)
    assert _b(audit_ws)["e1"] == ({"same_meaning": "Yes", "natural": "A better", "classes": ["LONG_VOWEL_MACRON"]}, 2)
    assert view.item["entry_id"] == "e2"  # both answered: next pair
    QTest.keyClick(table, Qt.Key.Key_N)
    QTest.keyClick(table, Qt.Key.Key_4)
    assert _b(audit_ws)["e2"] == ({"same_meaning": "No", "natural": "Neither", "classes": ["LONG_VOWEL_MACRON"]}, 2)
    assert view.item["entry_id"] == "e3"
    assert table.cell(0, 3) == "Yes / A better" and table.cell(1, 3) == "No / Neither"

    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _b(audit_ws)["e2"] == ({"same_meaning": "No", "natural": None, "classes": ["LONG_VOWEL_MACRON"]}, 1)
    assert view.item["entry_id"] == "e2"  # the undone pair is shown
    assert view.questions["same_meaning"].value() == "No" and view.questions["natural"].value() is None
    assert view.status.text() == "Undone: entry e2"
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "e2" not in _b(audit_ws) and table.cell(1, 3) == ""
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert _b(audit_ws)["e2"][0]["same_meaning"] == "No"
    # D answers "Depends" on the pair shown; the history keeps every version
    QTest.keyClick(table, Qt.Key.Key_D)
    assert _b(audit_ws)["e2"][0]["same_meaning"] == "Depends"
    history = jstore.judgment_history(audit_ws, "amy", "r1", "e2", "B")
    assert [(j.version, j.undone) for j in history] == [(1, False), (2, True), (3, False)]


def test_linter_undo_leaves_other_tasks_alone(qtbot, audit_ws):
    view = _open(qtbot, LinterAuditView(), audit_ws)
    QTest.keyClick(view.table, Qt.Key.Key_Y)
    jstore.record_judgment(audit_ws, Judgment(reviewer_id="amy", run_id="r1", entry_id="e6", adequacy=5))
    QTest.keyClick(view.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "e1" in _b(audit_ws)  # not undone: the newest judgment is a rating made elsewhere
    assert len(jstore.current_judgments(audit_ws, run_id="r1", reviewer_id="amy", task="A")) == 1
    assert "was not made in this audit" in view.status.text()


def test_linter_precision_matches_the_review_function(qtbot, audit_ws):
    answers = {("amy", "e1"): ("Yes", "Yes"), ("ben", "e1"): ("Yes", "B better"), ("amy", "e2"): ("No", None),
               ("ben", "e2"): ("Depends", None), ("amy", "e3"): ("No", None), ("ben", "e3"): ("No", None),
               ("amy", "e4"): ("Yes", "Yes")}
    classes = {q["entry_id"]: q["classes"] for q in audits.linter_audit_queue(audit_ws, ["r1"])}
    for (rid, eid), (same, natural) in answers.items():
        jstore.record_judgment(
            audit_ws,
            Judgment(
                reviewer_id=rid,
                run_id="r1",
                entry_id=eid,
                task="B",
                payload={"same_meaning": same, "natural": natural, "classes": classes[eid]},
            ),
        )
    view = _open(qtbot, LinterAuditView(), audit_ws)
    shown = {view.results.item(r, 0).text(): [view.results.item(r, c).text() for c in range(1, 9)]
             for r in range(view.results.rowCount())}
    assert shown == {
        "LONG_VOWEL_MACRON": [
            "2",
            "4",
            "1",
            "0",
            "1",
            "0.500 [0.095, 0.905] (1/2)",
            "1.000 [0.342, 1.000] (2/2)",
            "B better 1, Yes 1",
        ],
        "OPTIONAL_PARTICLE": [
            "1",
            "1",
            "1",
            "0",
            "0",
            "1.000 [0.207, 1.000] (1/1)",
            "1.000 [0.207, 1.000] (1/1)",
            "Yes 1",
        ],
        "WORD_ORDER": ["1", "2", "0", "1", "0", "0.000 [0.000, 0.793] (0/1)", "0.000 [0.000, 0.793] (0/1)", ""],
        "All classes": [
            "4",
            "7",
            "2",
            "1",
            "1",
            "0.500 [0.150, 0.850] (2/4)",
            "0.750 [0.301, 0.954] (3/4)",
            "B better 1, Yes 2",
        ],
    }
    rows = {r.variant_class: r for r in audits.linter_audit(audit_ws, ["r1"])}
    assert shown["LONG_VOWEL_MACRON"][5] == format_proportion(rows["LONG_VOWEL_MACRON"].strict)
    assert shown["All classes"][6] == format_proportion(rows["(all)"].lenient)
    # amy's own answers are loaded: e1..e4 answered, the view starts on the first pair she left open
    assert view.item["entry_id"] == "e2"
    # a keystroke updates the table at once: ben's "Depends" on e2 plus amy's new "Yes" confirms nothing yet
    QTest.keyClick(view.table, Qt.Key.Key_Y)
    row = next(r for r in range(view.results.rowCount()) if view.results.item(r, 0).text() == "LONG_VOWEL_MACRON")
    assert view.results.item(row, 6).text() == "0.500 [0.095, 0.905] (1/2)"
    assert view.results.item(row, 5).text() == "1"  # e2 undecided (Yes vs Depends)


# --------------------------------------------------------------------------- Task C


def test_fst_queue_and_context(qtbot, audit_ws):
    view = _open(qtbot, FstAuditView(), audit_ws)
    assert view.queue == [
        ("r1", "e1", "āstam"),
        ("r1", "e2", "tāniwā"),
        ("r1", "e2", "nāpēw"),
        ("r1", "e4", "mîcisohkan"),
        ("r1", "e4", "awâsisak"),
        ("r1", "e4", "takohtêtwâwi"),
        ("r1", "e5", "kotak"),
    ]
    assert view.queue == audits.fst_audit_queue(audit_ws, ["r1"])
    view.select_item(("r1", "e5", "kotak"))
    assert _plain(view.word) == "kotak" and _plain(view.output_text) == "nipâw kotak"
    assert view.output_text.text().count("<span") == 2  # the sentence, and the word in it
    assert view.source_text.text() == "he sleeps" and view.reference_text.text() == "nipâw"
    view.sample.setValue(3)
    view.reload()
    _loaded(qtbot, view)
    assert view.queue == audits.fst_audit_queue(audit_ws, ["r1"], limit=3, seed=0)


def test_fst_keys_save_at_once_and_undo(qtbot, audit_ws):
    view = _open(qtbot, FstAuditView(), audit_ws)
    table = view.table
    QTest.keyClick(table, Qt.Key.Key_Y)
    assert _c(audit_ws) == {("e1", "āstam"): ({"word": "āstam", "valid": "Yes", "kind": None}, 1)}
    assert view.item == ("r1", "e1", "āstam")  # a valid word also needs its kind
    QTest.keyClick(table, Qt.Key.Key_2)
    assert _c(audit_ws)[("e1", "āstam")] == ({"word": "āstam", "valid": "Yes", "kind": "Loanword"}, 2)
    assert view.item == ("r1", "e2", "tāniwā")
    QTest.keyClick(table, Qt.Key.Key_N)  # not a word: complete at once
    assert view.item == ("r1", "e2", "nāpēw")
    QTest.keyClick(table, Qt.Key.Key_U)
    assert view.item == ("r1", "e4", "mîcisohkan")
    QTest.keyClick(table, Qt.Key.Key_6)  # kind first, then valid
    QTest.keyClick(table, Qt.Key.Key_Y)
    got = _c(audit_ws)
    assert got[("e2", "tāniwā")][0]["valid"] == "No" and got[("e2", "nāpēw")][0]["valid"] == "Unsure"
    assert got[("e4", "mîcisohkan")] == ({"word": "mîcisohkan", "valid": "Yes", "kind": "Other"}, 2)
    assert table.cell(0, 3) == "Yes / Loanword"

    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _c(audit_ws)[("e4", "mîcisohkan")] == ({"word": "mîcisohkan", "valid": None, "kind": "Other"}, 1)
    assert view.item == ("r1", "e4", "mîcisohkan") and view.questions["kind"].value() == "Other"
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert set(_c(audit_ws)) == {("e1", "āstam"), ("e2", "tāniwā")}
    assert view.item == ("r1", "e2", "nāpēw")


def test_fst_false_rejection_rate_and_allowlist_export(qtbot, audit_ws, tmp_path):
    answers = [("amy", "e1", "āstam", "Yes", "Established"), ("ben", "e1", "āstam", "Yes", "Established"),
               ("amy", "e2", "tāniwā", "Yes", "Established"), ("ben", "e2", "tāniwā", "No", None),
               ("amy", "e2", "nāpēw", "No", None), ("ben", "e2", "nāpēw", "No", None),
               ("amy", "e4", "mîcisohkan", "Yes", "Established"), ("ben", "e4", "mîcisohkan", "Yes", "Dialectal"),
               ("cat", "e4", "mîcisohkan", "Yes", "Dialectal"), ("amy", "e4", "awâsisak", "Unsure", None),
               ("cat", "e5", "kotak", "Yes", "Established")]
    for rid, eid, word, valid, kind in answers:
        jstore.record_judgment(audit_ws, Judgment(reviewer_id=rid, run_id="r1", entry_id=eid, task="C",
                                                  payload={"word": word, "valid": valid, "kind": kind}))
    view = _open(qtbot, FstAuditView(), audit_ws)
    audit = audits.fst_audit(audit_ws, ["r1"])
    assert view.rate.text() == "0.750 [0.301, 0.954] (3/4)" == format_proportion(audit.false_rejection)
    assert view.counts.text() == "6 (3 valid, 1 invalid, 2 unresolved)"
    assert view.kinds.text() == "Dialectal 1, Established 2"
    assert [[view.allowlist.item(r, c).text() for c in range(5)] for r in range(view.allowlist.rowCount())] == [
        ["kotak", "Established", "1", "1", "r1 / e5"], ["mîcisohkan", "Dialectal", "1", "3", "r1 / e4"],
        ["āstam", "Established", "1", "2", "r1 / e1"]]

    tsv = view.export_allowlist(tmp_path / "allow.tsv")
    assert tsv.read_text(encoding="utf-8") == (
        "word\tkind\toccurrences\traters\trun_id\tentry_id\n"
        "kotak\tEstablished\t1\t1\tr1\te5\n"
        "mîcisohkan\tDialectal\t1\t3\tr1\te4\n"
        "āstam\tEstablished\t1\t2\tr1\te1\n")
    jsonl = view.export_allowlist(tmp_path / "cases.jsonl")
    lines = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert lines[1] == {"word": "mîcisohkan", "expect": "accept", "kind": "Dialectal", "occurrences": 1, "raters": 3,
                        "run_id": "r1", "entry_id": "e4"}
    assert view.status.text().startswith("Wrote 3 word(s) to ")

    # amy (the current reviewer) says kotak is not a word: tie -> unresolved, the rate follows at once
    view.select_item(("r1", "e5", "kotak"))
    QTest.keyClick(view.table, Qt.Key.Key_N)
    assert view.rate.text() == "0.667 [0.208, 0.939] (2/3)"
    assert view.allowlist.rowCount() == 2


def test_audits_are_pages_of_the_validation_tab(qtbot, audit_ws):
    from mteval_gui.qt.validation_view import ValidationView

    v = ValidationView()
    qtbot.addWidget(v)
    v.reviewer_provider = lambda: "ben"
    v.set_workspace(audit_ws)
    v.show()
    assert v.pages.count() == 5
    assert v.pages.widget(1) is v.linter_audit and v.pages.widget(2) is v.fst_audit
    assert v.pages.widget(3) is v.campaigns and v.pages.widget(4) is v.calibration
    assert v.linter_audit.reviewer_id() == "ben"
    # a page reads its queue when it is shown, not before
    assert v.linter_audit.queue == [] and v.fst_audit.queue == []
    v.activateWindow()
    qtbot.waitUntil(v.isActiveWindow)
    v.pages.setCurrentWidget(v.linter_audit)
    _loaded(qtbot, v.linter_audit)
    assert len(v.linter_audit.queue) == 4 and v.fst_audit.queue == []
    # the page takes the focus when shown, so its keys answer right away
    from PySide6.QtWidgets import QApplication

    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Y)
    assert _b(audit_ws, "ben") == {
        "e1": ({"same_meaning": "Yes", "natural": None, "classes": ["LONG_VOWEL_MACRON"]}, 1)
    }
    v.pages.setCurrentWidget(v.fst_audit)
    _loaded(qtbot, v.fst_audit)
    assert len(v.fst_audit.queue) == 7
    jstore.add_reviewer(audit_ws, Reviewer(reviewer_id="dan", name="Dan"))
    v.refresh()  # new reviewers and results appear on refresh; the chosen reviewer stays
    _loaded(qtbot, v.fst_audit)
    assert v.fst_audit.scope.reviewer.findData("dan") >= 0 and v.fst_audit.reviewer_id() == "ben"
