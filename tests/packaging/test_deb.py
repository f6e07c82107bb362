"""The ``.deb`` that ``packaging/build.py`` makes, from a stand-in bundle (no PyInstaller build here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.build_script import load_build_script

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux" or shutil.which("dpkg-deb") is None,
                                reason="the .deb is built on Linux with dpkg-deb")


def _build_module():
    return load_build_script("mteval_packaging_build")


@pytest.fixture(scope="module")
def deb(tmp_path_factory) -> Path:
    build = _build_module()
    base = tmp_path_factory.mktemp("deb")
    bundle = base / "dist" / "mteval-gui"
    (bundle / "_internal").mkdir(parents=True)
    for program in ("mteval-gui", "mteval"):
        (bundle / program).write_text("#!/bin/sh\n", encoding="utf-8")
        (bundle / program).chmod(0o755)
    return build.make_deb(base / "dist", base / "work", bundle, "0.1.0", compression="gzip")


def test_removing_the_package_removes_what_the_programs_wrote_into_their_folder(deb, tmp_path):
    """Run by root, the programs keep numba's compiled kernels beside the bundled package
    (/opt/mteval-gui/_internal/.../__pycache__); ``dpkg -r`` left them and the folder behind."""
    control = tmp_path / "control"
    subprocess.run(["dpkg-deb", "-e", str(deb), str(control)], check=True)
    postrm = control / "postrm"
    assert postrm.is_file(), sorted(p.name for p in control.iterdir())
    assert os.access(postrm, os.X_OK)
    text = postrm.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/sh\n") and "/opt/mteval-gui" in text
    # what dpkg leaves once the package's own files are gone, under a stand-in prefix
    prefix = tmp_path / "opt" / "mteval-gui"
    leftover = prefix / "_internal" / "mteval_gui" / "scoring" / "metrics" / "__pycache__"
    leftover.mkdir(parents=True)
    (leftover / "ngram_kernel.08c88913c6bdad64d92d0a9f.o").write_bytes(b"\x7fELF")
    script = tmp_path / "postrm"
    script.write_text(text.replace("/opt/mteval-gui", str(prefix)), encoding="utf-8")
    for action in ("upgrade", "failed-upgrade", "abort-install"):
        subprocess.run(["sh", str(script), action, "0.1.0"], check=True)
        assert (leftover / "ngram_kernel.08c88913c6bdad64d92d0a9f.o").is_file(), action
    subprocess.run(["sh", str(script), "remove"], check=True)
    assert not prefix.exists() and prefix.parent.is_dir()
    subprocess.run(["sh", str(script), "purge"], check=True)  # nothing left to remove: still succeeds


def test_the_package_lists_the_bundle_and_the_desktop_files(deb):
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    for path in ("./opt/mteval-gui/mteval-gui", "./opt/mteval-gui/mteval",
                 "./usr/share/applications/mteval-gui.desktop",
                 "./usr/share/metainfo/io.github.mteval_gui.MtevalGui.metainfo.xml"):
        assert path in listing
    assert "./usr/bin/mteval -> /opt/mteval-gui/mteval" in listing
