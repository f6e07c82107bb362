"""mteval-gui says which system libraries Qt's window plugin lacks, and how to install them, before
Qt aborts the process; the README and .ci/run list the same packages."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mteval_gui.app import startup

REPO = Path(__file__).resolve().parent.parent

LDD = """\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f0c)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f0c)
"""


def test_ldd_output_names_the_missing_libraries():
    assert startup.missing_from_ldd(LDD) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_each_library_opened_when_ldd_is_not_there(monkeypatch):
    monkeypatch.setattr(startup.shutil, "which", lambda name: None)

    def load(soname):
        if soname == "libxcb-keysyms.so.1":
            raise OSError(f"{soname}: cannot open shared object file")
        return object()

    assert startup.missing_qt_libraries(Path("/nonexistent/libqxcb.so"), load=load) == ["libxcb-keysyms.so.1"]


def test_which_platform_needs_the_x11_libraries():
    assert startup.uses_xcb({}, "linux")
    assert startup.uses_xcb({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert not startup.uses_xcb({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not startup.uses_xcb({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not startup.uses_xcb({}, "darwin")


def test_the_message_gives_the_exact_install_line():
    text = startup.qt_platform_problem({"QT_QPA_PLATFORM": "xcb"}, ["libxcb-icccm.so.4", "libxcb-util.so.1"])
    assert text is not None and "libxcb-icccm.so.4, libxcb-util.so.1" in text
    line = text.splitlines()[-1].strip()
    assert line == startup.apt_install_line(["libxcb-util1"])
    assert line.startswith("sudo apt-get install libgl1 libegl1 ") and " libxcb-icccm4 " in line
    assert " libxcb-keysyms1 " in line and line.endswith(" libxcb-util1")
    assert startup.qt_platform_problem({"QT_QPA_PLATFORM": "xcb"}, []) is None
    assert startup.qt_platform_problem({"QT_QPA_PLATFORM": "offscreen"}, ["libxcb-icccm.so.4"]) is None


def test_mteval_gui_prints_it_and_exits_before_qt_starts(monkeypatch, capsys):
    import mteval_gui.gui as gui

    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(startup, "missing_qt_libraries", lambda: ["libxcb-icccm.so.4"])
    assert gui.main(["mteval-gui"]) == 1
    err = capsys.readouterr().err
    assert "libxcb-icccm.so.4" in err and startup.apt_install_line(["libxcb-icccm4"]) in err


def test_readme_and_ci_list_the_same_packages():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert startup.apt_install_line() in readme
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    installed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", ci.split("apt-get install", 1)[1].split(">/dev/null")[0]))
    assert set(startup.QT_SYSTEM_PACKAGES) <= installed


def test_this_machine_has_them():
    """The machine the tests run on (CI installs the set): nothing is missing for the X11 plugin."""
    if startup.xcb_plugin_path() is None:
        return
    assert startup.missing_qt_libraries() == []
