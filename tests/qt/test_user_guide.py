"""Help → User guide opens the built manual as a file: URL, or says how to build a missing one."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from mteval_gui.app import manual
from mteval_gui.qt import help_dialogs


def _capture(monkeypatch, opened_ok=True):
    urls: list[QUrl] = []
    boxes = []

    def open_url(url):
        urls.append(url)
        return opened_ok

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(open_url))
    monkeypatch.setattr(help_dialogs, "_exec", lambda box: boxes.append(box) or 0)
    return urls, boxes


def test_user_guide_opens_the_built_manual(qapp, monkeypatch, tmp_path):
    (tmp_path / "manual").mkdir()
    (tmp_path / "manual" / "index.html").write_text("<html></html>", encoding="utf-8")
    monkeypatch.setattr(manual, "resources_dir", lambda: tmp_path)
    urls, boxes = _capture(monkeypatch)
    assert help_dialogs.open_user_guide(None) is True
    assert [u.toLocalFile() for u in urls] == [str((tmp_path / "manual" / "index.html").resolve())]
    assert urls[0].scheme() == "file"
    assert boxes == []


def test_user_guide_says_how_to_build_a_missing_manual(qapp, monkeypatch, tmp_path):
    monkeypatch.setattr(manual, "resources_dir", lambda: tmp_path)
    urls, boxes = _capture(monkeypatch)
    assert help_dialogs.open_user_guide(None) is False
    assert urls == []
    [box] = boxes
    assert box.text() == "The user manual is not built."
    assert box.informativeText() == (
        f"It is looked for at {(tmp_path / 'manual' / 'index.html').resolve()}. In a source checkout, build it "
        'from the repository folder with:\npip install -e ".[docs]" && mkdocs build')


def test_user_guide_names_the_file_when_no_browser_opens_it(qapp, monkeypatch, tmp_path):
    (tmp_path / "manual").mkdir()
    (tmp_path / "manual" / "index.html").write_text("<html></html>", encoding="utf-8")
    monkeypatch.setattr(manual, "resources_dir", lambda: tmp_path)
    urls, boxes = _capture(monkeypatch, opened_ok=False)
    assert help_dialogs.open_user_guide(None) is False
    [box] = boxes
    assert box.text() == "No program could open the user manual."
    assert box.informativeText() == f"Open this file in a web browser: {(tmp_path / 'manual' / 'index.html').resolve()}"


def test_help_menu_has_the_user_guide_on_f1(window):
    action = window.findChild(type(window.menuBar().actions()[0]), "userGuide")
    assert action is not None
    assert action.text() == "&User guide"
    assert action.shortcut().toString() == "F1"


def test_user_guide_message_in_french(french, monkeypatch, tmp_path):
    monkeypatch.setattr(manual, "resources_dir", lambda: tmp_path)
    urls, boxes = _capture(monkeypatch)
    assert help_dialogs.open_user_guide(None) is False
    [box] = boxes
    assert box.windowTitle() == "Guide d’utilisation"
    assert box.text() == "Le manuel d’utilisation n’est pas construit."
    assert box.informativeText().startswith("Il est cherché à l’emplacement ")
    assert box.informativeText().endswith(':\npip install -e ".[docs]" && mkdocs build')


def test_help_menu_accelerators_are_distinct_in_french(french, window):
    help_menu = window.menuBar().actions()[-1].menu()
    texts = [a.text() for a in help_menu.actions() if not a.isSeparator()]
    assert texts == ["Guide d’&utilisation", "&Glossaire des métriques", "&Licences des données",
                     "&À propos de mteval-gui"]
    keys = [t.split("&")[1][0].lower() for t in texts]
    assert len(set(keys)) == len(keys)
