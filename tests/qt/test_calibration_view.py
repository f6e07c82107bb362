"""The Calibration page of the Validation tab: calibrate in the background, show, write to the card."""

from __future__ import annotations

import json

import pytest

from mteval_gui.cards import load_card
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.qt import calibration_view
from mteval_gui.qt.calibration_view import CalibrationView
from mteval_gui.store import Workspace, repo
from tests.app.calibration_helpers import build_study


@pytest.fixture(scope="module")
def study_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("calibration_gui") / "ws.db"
    build_study(path, seed=5).close()
    return path


def test_the_panel_calibrates_shows_and_writes_to_the_card(qtbot, study_path, tmp_path, monkeypatch):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "fra.json").write_text(json.dumps({"code": "fra", "name": "French"}), encoding="utf-8")
    monkeypatch.setenv("MTEVAL_CARDS_DIR", str(folder))
    ws = Workspace(study_path)
    for cid, lang in (("d", "fra"), ("e", "ewe")):  # corpora without runs
        repo.add_corpus(ws, Corpus(corpus_id=cid, language_pair=LanguagePair(source="eng", target=lang),
                                   entries=[Entry(id="x", source="a", reference="b")]))
    view = CalibrationView()
    qtbot.addWidget(view)
    view.set_workspace(ws)
    view.refresh()
    assert view.corpus.currentData() == "c" and view.language.text() == "language: fra"
    assert view.corpora() == ["c"]
    view.all_corpora.setChecked(True)
    assert view.corpora() == ["c", "d"]
    assert not view.write_button.isEnabled()
    view.calibrate()
    assert view.calibrate_task.wait(120000)
    c = view.outcome.calibration
    weights = view.weights_table
    assert weights.rowCount() == 5 and weights.columnCount() == 4
    assert [weights.item(r, 1).text() for r in range(5)] == [f"{c.weights[k]:.3f}" for k in c.keys]
    assert view.tiers_table.rowCount() == 4
    assert view.tau_calibrated.text().startswith(f"τ-b {c.kendall['calibrated'].value:.3f} [")
    assert view.outcome.corpora == ["c", "d"]
    assert view.evidence.text().startswith("Corpora: c, d\n200 items (40 entries, 5 runs), 600 ratings by 3 raters; α ")
    # 200 items by 3 raters each: only the agreement is below its warning level (ratings 1-5 of noisy speakers)
    assert c.evidence["alpha"] < 0.667
    assert view.warnings.text() == f"Agreement α {c.evidence['alpha']:.3f} is below 0.667: conclusions are tentative."
    assert view.write_button.isEnabled()
    # the confirmation is asked; refused, nothing is written
    asked = []
    monkeypatch.setattr(calibration_view, "confirm", lambda parent, title, q: asked.append(q) or False)
    assert view.write_named("gui-1", True) is False
    assert asked == ["Write the profile gui-1 into the language card of fra?\n"
                     "Runs scored from now on use it unless another profile is named."]
    assert load_card("fra").composite_profiles == {}
    monkeypatch.setattr(calibration_view, "confirm", lambda *a: True)
    monkeypatch.setattr(calibration_view, "inform", lambda *a: None)
    assert view.write_named("bad name", False) is False
    assert view.write_named("gui-1", True) is True
    card = load_card("fra")
    assert card.default_composite_profile == "gui-1" and card.composite_profiles["gui-1"].weights == c.weights
    view.shutdown()
    ws.close()


def test_a_refused_calibration_is_reported(qtbot, tmp_path, monkeypatch):
    ws = build_study(tmp_path / "one.db", seed=5, raters=("ana",))
    shown = []
    monkeypatch.setattr("mteval_gui.qt.dialogs.show_error", lambda parent, exc: shown.append(str(exc)))
    view = CalibrationView()
    qtbot.addWidget(view)
    view.set_workspace(ws)
    view.refresh()
    view.calibrate()
    assert view.calibrate_task.wait(120000)
    assert shown == ["calibration refused: 1 rater (at least 2 needed); agreement α cannot be computed (no item has "
                     "two ratings, or every rating is the same)"]
    assert view.note.text().startswith("Not calibrated: calibration refused: 1 rater")
    assert view.outcome is None and not view.write_button.isEnabled()
    view.shutdown()
    ws.close()
