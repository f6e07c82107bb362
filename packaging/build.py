"""Build the mteval-gui bundle for this platform: ``python packaging/build.py``.

Makes, under ``dist/`` of the checkout (``--dist`` elsewhere):

- ``mteval-gui/``: the one-folder bundle (PyInstaller, ``packaging/mteval-gui.spec``) holding the
  executables ``mteval-gui`` and ``mteval``, Python, Qt, the language cards, the bundled standards
  with their entry points, the resources (translations, schemas, demo data, styles, icons) and the
  fonts that render Cree syllabics, SRO and Ewe; on macOS also ``mteval-gui.app``;
- an archive of it: ``mteval-gui-VERSION-linux-x86_64.tar.gz`` on Linux, a ``.zip`` on Windows
  and macOS (of the ``.app`` there);
- on Linux with ``dpkg-deb``: ``mteval-gui_VERSION_ARCH.deb``, which installs the bundle under
  ``/opt/mteval-gui``, ``mteval-gui`` and ``mteval`` in ``/usr/bin``, the desktop file, the
  AppStream metadata and the icon.

The package's metadata (``mteval_gui-VERSION.dist-info``, with the ``mteval_gui.standards`` entry
points of ``pyproject.toml``) is written from the checkout and bundled: a frozen application has no
installed distributions, and the bundled standards are found through these entry points exactly as
in an installed wheel.

The user manual (``mkdocs.yml``, sources in ``docs/``) is built first, strictly, into
``resources/manual/``, which the bundle ships with the other resources and *Help → User guide*
opens; the build needs the ``docs`` packages, which the ``bundle`` extra installs.

Fonts come from ``--fonts DIR`` or else from the system's font folders (DejaVu Sans, which covers
the three scripts, is required; the Noto fonts the review packs prefer are taken when present), each
with its licence when one is found.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "mteval-gui.spec"
APP_ID = "io.github.mteval_gui.MtevalGui"
NAME = "mteval-gui"
INSTALL_PREFIX = "/opt/mteval-gui"

REQUIRED_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
OPTIONAL_FONTS = ("NotoSans-Regular.ttf", "NotoSansCanadianAboriginal-Regular.ttf")
FONT_LICENCES = {  # font file prefix -> licence files to look for (Debian's copyright files, upstream names)
    "DejaVu": ("/usr/share/doc/fonts-dejavu-core/copyright", "LICENSE", "LICENSE.txt"),
    "Noto": ("/usr/share/doc/fonts-noto-core/copyright", "OFL.txt", "LICENSE_OFL.txt"),
}
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path("/Library/Fonts"),
                    Path("/System/Library/Fonts"), Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts")

# Libraries the bundle takes from the system (PyInstaller leaves out the graphics stack and libc);
# Qt's xcb window plugin needs the rest, which PyInstaller usually bundles.
# libc6 is the build machine's: the bundled libraries were linked against it.
DEB_DEPENDS = ("libgl1", "libegl1", "libfontconfig1", "libxkbcommon-x11-0", "libxcb-cursor0")
DEB_SYNOPSIS = "workbench for evaluating MT and LLM output in low-resource languages"
# Run by root, the programs write into their own folder (numba keeps its compiled kernels in
# __pycache__ beside the package when that is writable): dpkg removes only the files it installed,
# so what is left of the folder goes once the package is removed.
DEB_POSTRM = f"""#!/bin/sh
set -e
case "$1" in
    remove|purge) rm -rf {INSTALL_PREFIX} ;;
esac
exit 0
"""


class BuildError(Exception):
    """A build step failed; the message says which and why."""


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def platform_tag() -> str:
    system = {"linux": "linux", "win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


# --------------------------------------------------------------------------- metadata


def write_metadata(out: Path) -> Path:
    """``mteval_gui-VERSION.dist-info`` from ``pyproject.toml``: name, version, entry points."""
    proj = project()
    dist_info = out / f"{proj['name'].replace('-', '_')}-{proj['version']}.dist-info"
    if dist_info.exists():
        shutil.rmtree(dist_info)
    dist_info.mkdir(parents=True)
    lines = ["Metadata-Version: 2.1", f"Name: {proj['name']}", f"Version: {proj['version']}",
             f"Summary: {proj.get('description', '')}", f"Requires-Python: {proj.get('requires-python', '')}"]
    (dist_info / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")
    groups: dict[str, dict[str, str]] = {
        "console_scripts": proj.get("scripts", {}),
        "gui_scripts": proj.get("gui-scripts", {}),
        **proj.get("entry-points", {}),
    }
    text = []
    for group, table in groups.items():
        if table:
            text.append(f"[{group}]")
            text.extend(f"{name} = {value}" for name, value in sorted(table.items()))
            text.append("")
    (dist_info / "entry_points.txt").write_text("\n".join(text), encoding="utf-8")
    (dist_info / "top_level.txt").write_text("eval_standards\nmteval_gui\n", encoding="utf-8")
    (dist_info / "INSTALLER").write_text("mteval-gui bundle\n", encoding="utf-8")
    return dist_info


# --------------------------------------------------------------------------- fonts


def _find_font(name: str, dirs: list[Path]) -> Path | None:
    for d in dirs:
        if (d / name).is_file():
            return d / name
        if d.is_dir():
            hit = next((p for p in sorted(d.rglob(name)) if p.is_file()), None)
            if hit is not None:
                return hit
    return None


def collect_fonts(out: Path, source: Path | None) -> list[str]:
    """Copy the fonts (and their licences) into ``out``; the names of the fonts copied."""
    dirs = [source] if source is not None else [d for d in SYSTEM_FONT_DIRS if d.is_dir()]
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copied = []
    for name in REQUIRED_FONTS + OPTIONAL_FONTS:
        found = _find_font(name, dirs)
        if found is None:
            if name in REQUIRED_FONTS:
                where = source if source is not None else ", ".join(map(str, dirs)) or "no font folder"
                raise BuildError(f"font {name} not found in {where}: install DejaVu Sans "
                                 "(Debian: fonts-dejavu-core) or pass --fonts DIR")
            continue
        shutil.copy2(found, out / name)
        copied.append(name)
        for prefix, licences in FONT_LICENCES.items():
            if not name.startswith(prefix) or any(out.glob(f"{prefix}-LICENCE*")):
                continue
            for lic in licences:
                candidate = Path(lic) if os.path.isabs(lic) else found.parent / lic
                if candidate.is_file():
                    shutil.copy2(candidate, out / f"{prefix}-LICENCE.txt")
                    break
    return copied


# --------------------------------------------------------------------------- bundle


def build_manual() -> Path:
    """Build the user manual into resources/manual (mkdocs.yml); its start page."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        raise BuildError('the user manual needs MkDocs and its Material theme: pip install -e ".[docs]"')
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"], cwd=ROOT, env=env)
    index = ROOT / "resources" / "manual" / "index.html"
    if result.returncode != 0 or not index.is_file():
        raise BuildError(f"mkdocs build --strict failed (exit {result.returncode}): the user manual was not built")
    return index


def run_pyinstaller(dist: Path, work: Path, metadata: Path, fonts: Path) -> Path:
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work / "pyinstaller"), str(SPEC),
           "--", "--metadata", str(metadata), "--fonts", str(fonts)]
    env = dict(os.environ)
    env.setdefault("PYINSTALLER_CONFIG_DIR", str(work / "pyinstaller-cache"))
    # the checkout is what gets frozen, whatever is installed
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    result = subprocess.run(cmd, cwd=ROOT, env=env)
    if result.returncode != 0:
        raise BuildError(f"PyInstaller failed (exit {result.returncode}): {' '.join(cmd)}")
    bundle = dist / NAME
    exe = ".exe" if sys.platform == "win32" else ""
    for program in ("mteval-gui", "mteval"):
        if not (bundle / f"{program}{exe}").is_file():
            raise BuildError(f"PyInstaller made no {program}{exe} in {bundle}")
    if sys.platform == "linux" and shutil.which("ldd"):
        missing = unresolved_libraries(bundle)
        if missing:
            raise BuildError("bundled files need libraries that are not there: "
                             + "; ".join(f"{k}: {', '.join(v)}" for k, v in missing.items()))
    return bundle


def unresolved_libraries(bundle: Path) -> dict[str, list[str]]:
    """Linux: bundled ELF files whose shared libraries neither the bundle nor the system provides."""
    internal = bundle / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=os.pathsep.join((str(internal), str(internal / "PySide6" / "Qt" / "lib"))))
    missing: dict[str, list[str]] = {}
    for path in sorted(bundle.rglob("*.so*")):
        if not path.is_file() or path.is_symlink():
            continue
        out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env).stdout
        gone = [line.split("=>")[0].strip() for line in out.splitlines() if "not found" in line]
        if gone:
            missing[str(path.relative_to(bundle))] = gone
    return missing


def make_archive(dist: Path, bundle: Path, version: str) -> Path:
    stem = f"{NAME}-{version}-{platform_tag()}"
    if sys.platform == "linux":
        archive = dist / f"{stem}.tar.gz"
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(bundle, arcname=NAME)
        return archive
    archive = dist / f"{stem}.zip"
    archive.unlink(missing_ok=True)
    app = dist / f"{NAME}.app"
    if sys.platform == "darwin" and app.is_dir() and shutil.which("ditto"):
        # ditto keeps the symbolic links inside the .app (zipfile would drop the folder links)
        subprocess.run(["ditto", "-c", "-k", "--keepParent", str(app), str(archive)], check=True)
        return archive
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        for path in sorted(bundle.rglob("*")):
            zf.write(path, Path(NAME) / path.relative_to(bundle))
    return archive


# --------------------------------------------------------------------------- .deb


def deb_architecture() -> str:
    out = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return out.stdout.strip()
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def _tree_kib(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*")) // 1024 + 1


def make_deb(dist: Path, work: Path, bundle: Path, version: str, compression: str = "xz") -> Path:
    proj = project()
    arch = deb_architecture()
    root = work / "deb-root"
    if root.exists():
        shutil.rmtree(root)
    opt = root / INSTALL_PREFIX.lstrip("/")
    shutil.copytree(bundle, opt, symlinks=True)
    bindir = root / "usr" / "bin"
    bindir.mkdir(parents=True)
    for program in ("mteval-gui", "mteval"):
        (bindir / program).symlink_to(f"{INSTALL_PREFIX}/{program}")
    share = root / "usr" / "share"
    for src, dest in (
        (PACKAGING / "mteval-gui.desktop", share / "applications" / "mteval-gui.desktop"),
        (PACKAGING / f"{APP_ID}.metainfo.xml", share / "metainfo" / f"{APP_ID}.metainfo.xml"),
        (ROOT / "resources" / "icons" / "mteval-gui.svg", share / "icons" / "hicolor" / "scalable" / "apps"
         / f"{APP_ID}.svg"),
    ):
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
    doc = share / "doc" / NAME
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        f"mteval-gui {version}\nLicense: {proj.get('license', {}).get('text', 'see the project')}\n"
        "The bundled fonts keep their own licences (opt/mteval-gui/_internal/resources/fonts).\n"
        "The bundled Python, Qt (LGPL-3.0) and libraries keep theirs.\n", encoding="utf-8")
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    control_dir = root / "DEBIAN"
    control_dir.mkdir()
    description = textwrap.fill(proj.get("description", ""), width=78, initial_indent=" ", subsequent_indent=" ")
    glibc = platform.libc_ver()[1] or "2.28"
    control = {
        "Package": NAME,
        "Version": version,
        "Section": "science",
        "Priority": "optional",
        "Architecture": arch,
        "Maintainer": "mteval-gui developers <mteval-gui@users.noreply.github.com>",
        "Installed-Size": str(_tree_kib(root)),
        "Depends": ", ".join((f"libc6 (>= {glibc})", *DEB_DEPENDS)),
        "Recommends": "fonts-noto-core",
        "Homepage": "https://github.com/mteval-gui/mteval-gui",
        "Description": f"{DEB_SYNOPSIS}\n{description}\n .\n Self-contained build: Python, Qt and the libraries "
                       f"are under {INSTALL_PREFIX};\n the commands mteval-gui and mteval are in /usr/bin.",
    }
    (control_dir / "control").write_text("".join(f"{k}: {v}\n" for k, v in control.items()), encoding="utf-8")
    postrm = control_dir / "postrm"
    postrm.write_text(DEB_POSTRM, encoding="utf-8")
    postrm.chmod(0o755)
    deb = dist / f"{NAME}_{version}_{arch}.deb"
    deb.unlink(missing_ok=True)
    cmd = ["dpkg-deb", "--root-owner-group", f"-Z{compression}", "--build", str(root), str(deb)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"dpkg-deb failed: {result.stderr.strip() or result.stdout.strip()}")
    shutil.rmtree(root)
    return deb


# --------------------------------------------------------------------------- main


def human(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def tree_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    p.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default: dist/ of the checkout)")
    p.add_argument("--work", type=Path, default=None, help="work folder (default: build/ of the checkout)")
    p.add_argument("--fonts", type=Path, default=None, help="folder holding DejaVuSans.ttf (default: the system's)")
    p.add_argument("--no-archive", action="store_true", help="make the bundle only")
    p.add_argument("--no-deb", action="store_true", help="no .deb on Linux")
    p.add_argument("--deb-compression", choices=("xz", "gzip"), default="xz",
                   help="compression of the .deb (xz: smaller, gzip: much faster to build)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    dist = args.dist.resolve()
    work = (args.work or ROOT / "build").resolve()
    version = project()["version"]
    started = time.monotonic()
    try:
        dist.mkdir(parents=True, exist_ok=True)
        work.mkdir(parents=True, exist_ok=True)
        metadata = work / "metadata"
        write_metadata(metadata)
        fonts = collect_fonts(work / "fonts", args.fonts)
        print(f"fonts: {', '.join(fonts)}", flush=True)
        print(f"manual: {build_manual().parent}", flush=True)
        bundle = run_pyinstaller(dist, work, metadata, work / "fonts")
        print(f"bundle: {bundle} ({human(tree_size(bundle))}, {time.monotonic() - started:.0f} s)", flush=True)
        if not args.no_archive:
            step = time.monotonic()
            archive = make_archive(dist, bundle, version)
            print(f"archive: {archive} ({human(archive.stat().st_size)}, {time.monotonic() - step:.0f} s)", flush=True)
        if sys.platform == "linux" and not args.no_deb:
            if shutil.which("dpkg-deb") is None:
                print("no .deb: dpkg-deb is not installed", flush=True)
            else:
                step = time.monotonic()
                deb = make_deb(dist, work, bundle, version, args.deb_compression)
                print(f"deb: {deb} ({human(deb.stat().st_size)}, {time.monotonic() - step:.0f} s)", flush=True)
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    print(f"done in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
