"""File > Export > Review pack: the dialog's choices reach the application layer's export."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mteval_gui.app.preferences import AppSettings
from mteval_gui.qt.review_pack_dialog import ReviewPackDialog
from tests.app.pack_helpers import make_workspace, pack_data


def test_dialog_exports_the_chosen_pack(qtbot, tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    dialog = ReviewPackDialog(ws, ["sys1"])
    qtbot.addWidget(dialog)
    assert dialog.chosen_runs() == ["sys1"]
    dialog.entries.setValue(2)
    dialog.blind.setChecked(True)
    dialog.language.setCurrentIndex(dialog.language.findData("fr"))
    assert dialog.options() == {"run_ids": ["sys1"], "reviewer_id": "ana", "task": "a", "entries": 2, "blind": True,
                                "ui_lang": "fr", "reference_script": None, "select": "first", "checks": 0,
                                "repeats": 0}
    done = dialog.export_to(tmp_path / "pack.html")
    data = pack_data(done.path)
    assert (len(data["items"]), data["blind"], data["ui_lang"]) == (2, True, "fr")
    assert data["reviewer"]["reviewer_id"] == "ana"
    dialog.runs.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.chosen_runs() == []
    dialog.entries.setValue(0)
    assert dialog.options()["entries"] is None
    ws.close()


def test_dialog_chooses_items_and_inserts_checks_for_task_a(qtbot, tmp_path):
    from mteval_gui.store import Workspace
    from mteval_gui.store.packs import get_pack
    from tests.app.qc_helpers import make_study

    ws = make_study(Workspace(tmp_path / "ws.sqlite"))
    dialog = ReviewPackDialog(ws, ["s1", "s2"])
    qtbot.addWidget(dialog)
    dialog.reviewer.setCurrentIndex(dialog.reviewer.findData("kofi"))
    dialog.entries.setValue(4)
    dialog.select.setCurrentIndex(dialog.select.findData("informative"))
    dialog.checks.setValue(2)
    dialog.repeats.setValue(1)
    o = dialog.options()
    assert (o["select"], o["checks"], o["repeats"]) == ("informative", 2, 1)
    done = dialog.export_to(tmp_path / "pack.html")
    pack = get_pack(ws, done.pack_id)
    assert (done.items, pack.meta["select"], len(pack.meta["checks"])) == (7, "informative", 3)
    # the informative choice, entry after entry (not blind)
    assert [it for n, it in enumerate(pack.items) if str(n) not in pack.meta["checks"]] == [
        ("s1", "e3", None), ("s2", "e3", None), ("s1", "e5", None), ("s2", "e5", None)]
    dialog.task.setCurrentIndex(dialog.task.findData("c"))  # checks are for ratings
    assert not dialog.checks.isEnabled()
    assert (dialog.options()["select"], dialog.options()["checks"]) == ("first", 0)
    ws.close()


def test_file_import_merges_pack_answers_and_shows_why_a_file_is_refused(qtbot, tmp_path, monkeypatch):
    """File > Import judgments or review-pack answers, in the main window."""
    import json

    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.app.review_pack import export_review_pack
    from mteval_gui.qt import dialogs, review_pack_dialog
    from mteval_gui.qt.main import build_window
    from mteval_gui.store import judgments as J
    from tests.app.pack_helpers import answer, answers_doc

    ws = make_workspace(tmp_path / "ws.sqlite")
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(done.path)
    answers = [answer(1, 0, adequacy=4, fluency=5, payload={"correction": "nititwân ôma"}),
               answer(2, 1, adequacy=2, payload={"spans": [{"start": 0, "end": 3, "severity": "major",
                                                             "category": "morphology"}]})]
    good = tmp_path / f"answers-{done.pack_id}.json"
    good.write_text(json.dumps(answers_doc(data, answers), ensure_ascii=False), encoding="utf-8")
    altered_doc = answers_doc(data, answers)
    altered_doc["answers"][0]["adequacy"] = 1
    altered = tmp_path / "altered.json"
    altered.write_text(json.dumps(altered_doc, ensure_ascii=False), encoding="utf-8")
    ws.close()

    w = build_window(AppSettings())
    qtbot.addWidget(w)
    assert w.open_workspace(tmp_path / "ws.sqlite")
    shown: list[BaseException] = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc: shown.append(exc))
    chosen = [str(altered), str(good), str(good)]
    monkeypatch.setattr(review_pack_dialog.file_dialogs, "open_file_name", lambda *a, **k: (chosen.pop(0), ""))
    w.import_judgments()
    assert [str(d) for d in shown[0].defects] == [
        f"{altered}: the answers were changed after the pack exported them (their HMAC does not match "
        "answers_hmac): export them again from the pack"]
    assert J.current_judgments(w.ws) == []  # nothing written
    w.import_judgments()
    assert w.statusBar().currentMessage() == "Imported 2 judgments (0 already present)"
    current = {j.entry_id: j for j in J.current_judgments(w.ws, reviewer_id="ana")}
    assert (current["d1-1"].adequacy, current["d1-1"].fluency, current["d1-1"].payload) == (
        4, 5, {"correction": "nititwân ôma"})
    assert current["d1-2"].payload["spans"] == [{"start": 0, "end": 3, "severity": "major", "category": "morphology"}]
    w.import_judgments()
    assert w.statusBar().currentMessage() == "Imported 0 judgments (2 already present)"
    assert len(shown) == 1
    w.close()


def test_file_import_skips_a_withdrawn_reviewers_judgments_and_says_so(qtbot, tmp_path, monkeypatch):
    """File > Import judgments brought back every judgment of a reviewer who withdrew consent."""
    from mteval_gui.app.consent import consent_log, export_reviewer_judgments, withdraw_reviewer
    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.domain.judgments import Judgment
    from mteval_gui.qt import dialogs, review_pack_dialog
    from mteval_gui.qt.main import build_window
    from mteval_gui.store import judgments as J

    ws = make_workspace(tmp_path / "ws.sqlite")
    for entry, a in (("d1-1", 4), ("d1-2", 2)):
        J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys1", entry_id=entry, adequacy=a))
    own, _ = export_reviewer_judgments(ws, "ana", tmp_path / "ana.json")
    withdraw_reviewer(ws, "ana", "community lead")
    day = consent_log(ws)[0]["done_at"][:10]
    ws.close()

    w = build_window(AppSettings())
    qtbot.addWidget(w)
    assert w.open_workspace(tmp_path / "ws.sqlite")
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(dialogs, "inform", lambda parent, title, text: shown.append((title, text)))
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc: shown.append(("error", str(exc))))
    monkeypatch.setattr(review_pack_dialog.file_dialogs, "open_file_name", lambda *a, **k: (str(own), ""))
    w.import_judgments()
    assert shown == [("Withdrawn judgments skipped",
                      f"{own}: 2 judgments of reviewer 'ana' and their reviewer record skipped: "
                      f"ana withdrew consent on {day}")]
    assert J.current_judgments(w.ws) == [] and J.get_reviewer(w.ws, "ana") is None
    w.close()


def test_dialog_offers_the_scripts_of_the_language_the_review_pane_choice_first(qtbot, tmp_path):
    settings = AppSettings.load()
    settings.reference_scripts["crk"] = "Cans"
    settings.save()
    ws = make_workspace(tmp_path / "ws.sqlite")
    dialog = ReviewPackDialog(ws, ["sys1"])
    qtbot.addWidget(dialog)
    assert [dialog.script.itemData(i) for i in range(dialog.script.count())] == [None, "Latn", "Cans"]
    assert dialog.options()["reference_script"] == "Cans"
    data = pack_data(dialog.export_to(tmp_path / "pack.html").path)
    assert data["reference_script"] == "Cans" and data["scripts"] == ["Latn", "Cans"]
    dialog.runs.item(0).setCheckState(Qt.CheckState.Unchecked)  # no run: no language, no script to choose
    assert dialog.script.count() == 1 and dialog.script.isHidden()
    ws.close()
