"""The window starts with a damaged settings file and opens a workspace with a damaged settings row,
saying which keys are damaged."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from mteval_gui.app.preferences import AppSettings
from mteval_gui.qt.main import build_window
from mteval_gui.store import Workspace


def test_the_window_starts_with_damaged_settings_and_says_so(qtbot, tmp_path):
    AppSettings.path().parent.mkdir(parents=True, exist_ok=True)
    AppSettings.path().write_text('{"recent_workspaces": 5, "geometry": 5, "window_state": [], "language": ["fr"]}',
                                  encoding="utf-8")
    window = build_window(AppSettings.load())
    qtbot.addWidget(window)
    try:
        window.show()
        qtbot.waitUntil(lambda: window.warning_box is not None)
        box = window.warning_box
        assert box is not None and box.icon() == QMessageBox.Icon.Warning and not box.isModal()
        file = AppSettings.path()
        assert box.text().splitlines() == [
            "Some settings are damaged; their defaults are used:", "",
            f"{file}: setting 'recent_workspaces' should be a list of paths, not 5 (a number); its default is used",
            f"{file}: setting 'geometry' should be text or null, not 5 (a number); its default is used",
            f"{file}: setting 'window_state' should be text or null, not a list; its default is used",
            f"{file}: setting 'language' should be a language code or null, not a list; its default is used",
        ]
        box.close()

        ws = Workspace(tmp_path / "ws.sqlite")
        with ws.transaction() as conn:
            conn.execute("INSERT INTO settings (key, value) VALUES ('analyzer_paths', '{')")
            conn.execute("INSERT INTO settings (key, value) VALUES ('default_reviewer', '7')")
        ws.close()
        assert window.open_workspace(tmp_path / "ws.sqlite")
        assert window.ws is not None and window.warning_box is not box
        assert window.warning_box.text().splitlines()[2:] == [
            f"workspace {window.ws.path}: setting 'analyzer_paths' is damaged: not valid JSON (Expecting property "
            "name enclosed in double quotes: line 1 column 2 (char 1)); its default is used",
            f"workspace {window.ws.path}: setting 'default_reviewer' is damaged: Input should be a valid string "
            "(expected str | None, found 7); its default is used",
        ]
        assert window.settings.recent_workspaces == [str(window.ws.path)]
    finally:
        window.close()
