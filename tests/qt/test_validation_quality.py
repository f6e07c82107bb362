"""The Validation tab shows each reviewer's quality control, the projected τ-b interval width, and the
reviewers a sign-off leaves out with the reason (English and French)."""

from __future__ import annotations

import pytest

from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.app.qc_helpers import ENTRIES, make_study


def _rated_study(path):
    ws = make_study(Workspace(path))
    for k, rid in enumerate(("ama", "kofi", "yaw")):
        for run_id in ("s1", "s2"):
            for i, eid in enumerate(ENTRIES):
                a = (5 if i % 2 == 0 else 2) if run_id == "s1" else 3
                J.record_judgment(ws, Judgment(reviewer_id=rid, run_id=run_id, entry_id=eid,
                                               adequacy=max(1, a - (k == 2 and i == 1)), fluency=a))
    for n, eid in enumerate(("e0", "e2", "e4")):  # kofi rates three known-bad outputs of 5-rated items at 5
        J.record_judgment(ws, Judgment(reviewer_id="kofi", run_id="s1", entry_id=eid, task="check", adequacy=5,
                                       payload={"check": "attention", "check_id": f"rp-q/{n}", "kind": "shuffled"}))
    return ws


def _view(qtbot, ws):
    from mteval_gui.app.reviewer_qc import reviewer_quality
    from mteval_gui.app.sampling import width_projections
    from mteval_gui.app.study import validation_study
    from mteval_gui.qt.validation_view import ValidationView

    v = ValidationView()
    qtbot.addWidget(v)
    v.set_workspace(ws)
    study = validation_study(ws, ["s1", "s2"], n_bootstrap=50)
    v._computed((study, reviewer_quality(ws), width_projections(study)))
    return v


def _rows(table):
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_quality_table_and_projected_width(qtbot, tmp_path):
    ws = _rated_study(tmp_path / "ws.sqlite")
    v = _view(qtbot, ws)
    assert _rows(v.quality_table) == [
        ["ama", "0 of 0 (0 answered)", "—", "0.943 (16)", "kept"],
        ["kofi", "3 of 3 (3 answered)", "—", "0.943 (16)",
         "flagged, left out: inattentive: rated the known-bad item at least as high as the real one in 3 of 3 "
         "attention checks"],
        ["yaw", "0 of 0 (0 answered)", "—", "0.923 (16)", "kept"]]
    header = v.table.horizontalHeaderItem(5).text()
    assert header == "τ-b interval width: now → at 200 × 3"
    assert {v.table.item(r, 0).text(): v.table.item(r, 5).text() for r in range(v.table.rowCount())} == {
        "chrF++": "0.223 → 0.053", "TER": "0.393 → 0.096"}
    assert "fail more than 1 attention check and more than 20% of the decisive ones" in \
        v.quality_table.parentWidget().toolTip()
    ws.close()


def test_quality_in_french(qtbot, tmp_path, french):
    ws = _rated_study(tmp_path / "ws.sqlite")
    v = _view(qtbot, ws)
    assert _rows(v.quality_table)[1][1:] == [
        "3 sur 3 (3 répondus)", "—", "0.943 (16)",
        "signalé, écarté\u202f: inattentif\u202f: a noté l'élément piège au moins aussi haut que l'élément réel dans 3 "
        "contrôles d'attention sur 3"]
    assert v.table.horizontalHeaderItem(5).text() == "Largeur de l'intervalle de τ-b\u202f: maintenant → à 200 × 3"
    ws.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_signoff_names_the_reviewer_left_out(qtbot, window, scored_ws, lang, request):
    if lang == "fr":
        request.getfixturevalue("french")
    for rid in ("amy", "bo"):
        J.add_reviewer(scored_ws, Reviewer(reviewer_id=rid, name=rid, languages=["crk"]))
        for eid, a in zip(("e1", "e2", "e3", "e4", "e5"), (5, 4, 5, 5, 4), strict=True):
            J.record_judgment(scored_ws, Judgment(reviewer_id=rid, run_id="good", entry_id=eid, adequacy=a,
                                                  fluency=a))
    for n, eid in enumerate(("e1", "e2")):
        J.record_judgment(scored_ws, Judgment(reviewer_id="bo", run_id="good", entry_id=eid, task="check",
                                              adequacy=5, payload={"check": "attention", "check_id": f"rp/{n}"}))
    window.open_workspace(scored_ws.path)
    validation = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(validation)
    validation.corpus.setCurrentIndex(validation.corpus.findData("mini"))
    validation.refresh()
    assert [validation.signoff_run.itemData(i) for i in range(validation.signoff_run.count())] == []
    line = validation.signoff_waiting.text().splitlines()[1]
    assert line == {
        "en": "good (fluent): 0 of 5 entries rated by 2+ speakers of crk, 1 speaker(s); median adequacy 5.0, fluency "
              "5.0 — left out by reviewer quality control: bo (inattentive: rated the known-bad item at least as "
              "high as the real one in 2 of 2 attention checks)",
        "fr": "good (courant)\u202f: 0 entrées sur 5 notées par au moins 2 locuteurs (crk), 1 locuteur(s)\u202f; "
              "adéquation médiane 5.0, fluidité 5.0 — écarté par le contrôle de qualité des évaluateurs\u202f: bo "
              "(inattentif\u202f: a noté l'élément piège au moins aussi haut que l'élément réel dans 2 contrôles "
              "d'attention sur 2)"}[lang]


INFORMATIVE = ["e3", "e5", "e2", "e4", "e1"]  # the entries of the most informative outputs of good and poor first
STRATIFIED = ["e1", "e2", "e5", "e3", "e4"]


def test_desktop_queue_takes_the_informative_or_stratified_order(window, scored_ws):
    from mteval_gui.app.sampling import entry_order
    from mteval_gui.qt.entries_model import ENTRY_ID_ROLE

    J.add_reviewer(scored_ws, Reviewer(reviewer_id="amy", name="Amy"))
    window.open_workspace(scored_ws.path)
    window.open_entries(["good", "poor"])
    page = window.entries_page
    ids = lambda: [page.model.index(r, 0).data(ENTRY_ID_ROLE) for r in range(page.model.rowCount())]  # noqa: E731
    acts = window.menu_actions
    acts["randomOrder"].trigger()
    acts["informativeOrder"].trigger()
    assert ids() == entry_order(scored_ws, ["good", "poor"], "informative", "amy") == INFORMATIVE
    assert [acts[a].isChecked() for a in ("randomOrder", "stratifiedOrder", "informativeOrder")] == [
        False, False, True]
    acts["stratifiedOrder"].trigger()
    assert ids() == STRATIFIED
    assert [acts[a].isChecked() for a in ("randomOrder", "stratifiedOrder", "informativeOrder")] == [
        False, True, False]
    acts["stratifiedOrder"].trigger()
    assert ids() == ["e1", "e2", "e3", "e4", "e5"] and not acts["stratifiedOrder"].isChecked()
