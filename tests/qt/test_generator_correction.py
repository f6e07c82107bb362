"""Generator-assisted correction in the review pane: a wrong-person Cree output corrected with two keys."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from mteval_gui.app.entry_review import entry_details
from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.cards import load_card
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as jstore
from tests.conftest import SHARED_DATA
from tests.fst._support import install_crk

IDS = ("crk-v0001", "crk-v0002", "crk-v0003")


def _verbforms_workspace(path) -> Workspace:
    """Three entries of the verbforms corpus, their references in syllabics (a corpus kept in syllabics),
    and the real outputs of the shared wrong-person run."""
    base = SHARED_DATA / "crk" / "verbforms"
    scripts = Scripts.of(load_card("crk"))
    rows = {r["id"]: r for r in map(json.loads, (base / "corpus.jsonl").read_text("utf-8").splitlines()) if r}
    entries = []
    for i in IDS:
        r = dict(rows[i])
        r["reference"] = scripts.to_script(r["reference"], "Cans")
        r["variants"] = []
        entries.append(Entry(**r))
    lines = (base / "runs" / "wrong-person.jsonl").read_text("utf-8").splitlines()
    outputs = {o["id"]: o["predicted"] for o in map(json.loads, lines[1:])}
    ws = Workspace(path)
    repo.add_corpus(ws, Corpus(corpus_id="vf", language_pair=LanguagePair(source="eng", target="crk"),
                               entries=entries))
    repo.add_run(ws, Run(meta=RunMeta(run_id="wrong-person", model_slug="wrong-person"), corpus_id="vf",
                         outputs=[Output(id=i, predicted=outputs[i]) for i in IDS]))
    jstore.add_reviewer(ws, Reviewer(reviewer_id="amy", name="Amy", languages=["crk"]))
    return ws


@pytest.mark.shared_data
def test_a_wrong_person_output_is_corrected_with_two_keys(qtbot, tmp_path, monkeypatch, window):
    analyzers = tmp_path / "analyzers"
    install_crk(SHARED_DATA, analyzers)
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(analyzers))
    ws = _verbforms_workspace(tmp_path / "ws.sqlite")
    assert repo.get_output(ws, "wrong-person", "crk-v0001").predicted == "itwêwak"  # 3Pl for 1Sg "I say so"
    w = window  # the main window, shown at 1400×860 and closed after the test
    w.activateWindow()
    assert w.open_workspace(ws.path)
    w.open_entries(["wrong-person"])
    page = w.entries_page
    assert page.select_entry("crk-v0001") and page.ratings.reviewer_id == "amy"
    tree = page.review.forms
    assert not tree.isHidden()
    word = tree.topLevelItem(0)
    assert word.text(1) == "itwêwak"
    assert word.text(2) == "another inflection than the gold one; gold: itwêw+V+AI+Ind+1Sg"
    first = word.child(0)
    assert (first.text(0), first.text(1)) == ("Alt+1", "nititwân")  # the gold form comes first
    assert first.text(2) == "itwêw+V+AI+Ind+1Sg  (gold)"
    assert word.child(1).text(1) == "itwêw" and word.child(1).text(2) == "itwêw+V+AI+Ind+3Sg  (1Sg → 3Sg)"
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    page.table.setFocus()

    # key 1: the form becomes the reviewer's correction; key 2: the corrections become variants
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    (j,) = jstore.current_judgments(ws, run_id="wrong-person", entry_id="crk-v0001", reviewer_id="amy", task="A")
    assert j.payload["correction"] == "nititwân"
    assert page.ratings.span_editor.correction_edit.text() == "nititwân"
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_0, Qt.KeyboardModifier.AltModifier)
    entry = repo.get_entry(ws, "vf", "crk-v0001")
    assert (entry.reference, entry.variants) == ("ᓂᑎᑤᐣ", ["nititwân"])
    assert repo.get_corpus_info(ws, "vf")["version"] == "1+s1"
    w.close()

    # rescoring on the new version accepts the corrected form as the accepted variant
    repo.add_run(ws, Run(meta=RunMeta(run_id="corrected", model_slug="corrected"), corpus_id="vf",
                         outputs=[Output(id="crk-v0001", predicted="nititwân")]))
    score_workspace_run(ws, "corrected")
    lint = entry_details(ws, "corrected", "crk-v0001")["crk.lint"]
    assert lint["value"] == 1.0
    assert (lint["detail"]["verdict"], lint["detail"]["matched"]) == ("EQUIVALENT", "variant 1")
    assert lint["detail"]["explanation"] == "identical to accepted variant 1"
    ws.close()
