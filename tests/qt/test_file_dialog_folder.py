"""File dialogs start in the folder last chosen (not the home folder each time), and the window
keeps that folder between sessions."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from mteval_gui.qt import file_dialogs


def test_a_dialog_starts_where_the_last_file_was_chosen(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(file_dialogs, "last_folder", "")
    first = file_dialogs.make_dialog(None, "Open", "")
    assert Path(first.directory().absolutePath()) == Path.home()
    (tmp_path / "data").mkdir()
    chosen = tmp_path / "data" / "corpus.jsonl"
    chosen.write_text("{}\n", encoding="utf-8")

    def accept(dialog: QFileDialog) -> int:
        dialog.selectFile(str(chosen))
        return QFileDialog.DialogCode.Accepted

    monkeypatch.setattr(QFileDialog, "exec", accept)
    assert file_dialogs.open_file_name(None, "Open")[0] == str(chosen)
    assert file_dialogs.last_folder == str(tmp_path / "data")
    # the next dialog opens there; a proposed file name is proposed there
    assert Path(file_dialogs.make_dialog(None, "Open", "").directory().absolutePath()) == tmp_path / "data"
    assert file_dialogs._start("chart.svg") == str(tmp_path / "data" / "chart.svg")
    # a dialog given a folder of its own keeps it; a last folder that is gone is not used
    assert file_dialogs._start(str(tmp_path / "x.csv")) == str(tmp_path / "x.csv")
    monkeypatch.setattr(file_dialogs, "last_folder", str(tmp_path / "gone"))
    assert file_dialogs._start("") == str(Path.home())


def test_the_window_keeps_the_last_folder_between_sessions(window, tmp_path, monkeypatch):
    monkeypatch.setattr(file_dialogs, "last_folder", str(tmp_path))
    window.close()
    from mteval_gui.app.preferences import AppSettings

    assert AppSettings.load().last_folder == str(tmp_path)
