"""File > Export > Review pack: the dialog's choices reach the application layer's export."""

from __future__ import annotations

from PySide6.QtCore import Qt

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
                                "ui_lang": "fr"}
    done = dialog.export_to(tmp_path / "pack.html")
    data = pack_data(done.path)
    assert (len(data["items"]), data["blind"], data["ui_lang"]) == (2, True, "fr")
    assert data["reviewer"]["reviewer_id"] == "ana"
    dialog.runs.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.chosen_runs() == []
    dialog.entries.setValue(0)
    assert dialog.options()["entries"] is None
    ws.close()
