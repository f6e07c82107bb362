"""Validation ▸ Campaigns: plan a campaign in the window, rate one reviewer's share on the desktop
(only that share shown, that reviewer chosen), send the other's as a review pack, see both complete."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from mteval_gui.app.review import add_reviewer
from mteval_gui.app.review_pack import import_pack_answers
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.qt import campaigns_panel
from mteval_gui.qt.campaigns_panel import NewCampaignDialog
from tests.app.pack_helpers import answer, answers_doc, pack_data


def _check(widget, values):
    for i in range(widget.count()):
        item = widget.item(i)
        if item.data(Qt.ItemDataRole.UserRole) in values:
            item.setCheckState(Qt.CheckState.Checked)


def _rate_first_share_here(window, panel, qtbot, n: int, keys: str):
    """Select the campaign's first reviewer, open the share in the window and rate it with the keys."""
    panel.progress.selectRow(0)
    panel.rate_here()
    page = window.entries_page
    qtbot.waitUntil(lambda: page.model.rowCount() == n, timeout=20000)
    page.table.setFocus()
    for _ in range(n):
        qtbot.keyClicks(page.table, keys)
        qtbot.keyClick(page.table, Qt.Key.Key_Return)
    return page


def _answer_second_share_as_a_pack(window, panel, monkeypatch, tmp_path, adequacy: int, fluency: int) -> int:
    """Export the second reviewer's share as a pack, answer every item and import the answers."""
    monkeypatch.setattr(campaigns_panel.file_dialogs, "save_file_name",
                        lambda *a, **k: (str(tmp_path / "second.html"), ""))
    panel.refresh()
    panel.progress.selectRow(1)
    panel.export_pack()
    data = pack_data(tmp_path / "second.html")
    answers = [answer(n + 1, n, adequacy=adequacy, fluency=fluency) for n in range(len(data["items"]))]
    path = tmp_path / f"answers-{data['pack_id']}.json"
    path.write_text(json.dumps(answers_doc(data, answers)), encoding="utf-8")
    import_pack_answers(window.ws, path)
    panel.refresh()
    return len(data["items"])


def test_a_campaign_done_on_the_desktop_and_through_a_pack(window, scored_ws, qtbot, tmp_path, monkeypatch):
    for rid in ("ana", "bo"):
        add_reviewer(scored_ws, Reviewer(reviewer_id=rid, name=rid.capitalize(), languages=["crk"]))
    window.open_workspace(scored_ws.path)
    validation = window.extra_tabs["validation"]
    panel = validation.campaigns
    assert panel.table.rowCount() == 0 and panel.summary.text().startswith("No campaign yet")

    dialog = NewCampaignDialog(window.ws, panel)
    qtbot.addWidget(dialog)
    dialog.id_edit.setText("wave-1")
    _check(dialog.runs, {"poor"})
    _check(dialog.reviewers, {"ana", "bo"})
    dialog.entries.setValue(4)
    dialog.make_campaign()
    assert dialog.result() == 1
    panel.refresh()
    assert [panel.table.item(0, c).text() for c in range(5)] == ["wave-1", "poor", "4", "2", "0 of 4"]

    # Ana rates her share in the window: only her entries, as her; Bo answers a pack
    page = _rate_first_share_here(window, panel, qtbot, 4, "34")
    assert page.scope_label.text() == "Campaign wave-1: the 4 entries of ana" and not page.scope_bar.isHidden()
    assert page.ratings.reviewer_id == "ana" and window.tabs.currentWidget() is page
    assert panel.reviewer_id() == "ana"
    assert _answer_second_share_as_a_pack(window, panel, monkeypatch, tmp_path, 4, 4) == 4
    assert [[panel.progress.item(r, c).text() for c in range(3)] for r in range(2)] == [
        ["ana", "4 of 4", "complete"], ["bo", "4 of 4", "complete"]]
    assert panel.table.item(0, 4).text() == "4 of 4 ✓"
    assert panel.summary.text() == "Overlap 2 reached on 4 of 4 entries. The campaign is complete."
    page.set_scope(None)
    assert page.scope_bar.isHidden() and page.model.rowCount() == 5


def test_sixty_entries_two_reviewers_overlap_two_in_the_window(window, qtbot, tmp_path, monkeypatch):
    """The campaign of the manual: 60 entries × 2 reviewers, overlap 2; Ana rates hers on the desktop
    with the keys, Bo answers a pack; the Campaigns page shows both complete."""
    from mteval_gui.app.campaigns import create_campaign
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo

    ws = Workspace(tmp_path / "sixty.sqlite")
    entries = [Entry(id=f"e{i:02d}", source=f"source {i}", reference=f"ref {i}") for i in range(70)]
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries))
    repo.import_run(ws, Run(corpus_id="c", meta=RunMeta(run_id="sys1", model_slug="m1"),
                            outputs=[Output(id=e.id, predicted=f"out {e.id}") for e in entries]))
    for rid in ("ana", "bo"):
        add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.capitalize(), languages=["crk"]))
    create_campaign(ws, "wave-60", ["sys1"], ["ana", "bo"], overlap=2, entries=60, select="random", seed=1)
    ws.close()
    window.open_workspace(tmp_path / "sixty.sqlite")
    panel = window.extra_tabs["validation"].campaigns
    panel.refresh()
    assert [panel.table.item(0, c).text() for c in range(5)] == ["wave-60", "sys1", "60", "2", "0 of 60"]
    _rate_first_share_here(window, panel, qtbot, 60, "45")
    assert _answer_second_share_as_a_pack(window, panel, monkeypatch, tmp_path, 3, 4) == 60
    assert [[panel.progress.item(r, c).text() for c in range(3)] for r in range(2)] == [
        ["ana", "60 of 60", "complete"], ["bo", "60 of 60", "complete"]]
    assert panel.summary.text() == "Overlap 2 reached on 60 of 60 entries. The campaign is complete."
