"""Desktop integration files: the .desktop entry and the AppStream metadata agree with the package."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DESKTOP = REPO / "packaging" / "mteval-gui.desktop"
METAINFO = REPO / "packaging" / "io.github.mteval_gui.MtevalGui.metainfo.xml"


def test_desktop_entry_launches_the_gui_script():
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(DESKTOP, encoding="utf-8")
    entry = cp["Desktop Entry"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["gui-scripts"]
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] in scripts
    assert entry["Icon"] == ET.parse(METAINFO).getroot().findtext("id")
    assert "Education" in entry["Categories"].split(";")


def test_metainfo_names_the_desktop_file():
    root = ET.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.find("launchable").text == DESKTOP.name
    assert root.find("project_license").text == "Apache-2.0"


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli not installed")
def test_metainfo_validates():
    proc = subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
