"""Which workspace the application opens at start, the bundled demo workspace, and whether Qt can
open a window at all (:func:`qt_platform_problem`: the system libraries of Qt's X11 plugin,
checked before Qt starts, since Qt aborts the process when its platform plugin cannot load).

Order (:func:`startup_decision`): ``--demo`` → ``--db PATH`` → ``$MTEVAL_DB`` → the last
workspace used (the GUI settings' last or, failing that, most recent workspace). When that
workspace no longer exists (moved, deleted, or on a drive that is not mounted) nothing is opened
or created: the window says so and offers Open…, New… or the demo workspace, and acts only on the
user's choice (creating an empty workspace in its place would hide the real one behind it). With
no workspace used before: on first start, an offer to open the demo workspace, else the default
workspace in the user data folder.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mteval_gui.app.demo import ensure_demo_workspace
from mteval_gui.app.preferences import AppSettings
from mteval_gui.paths import default_workspace_path

__all__ = ["ensure_demo_workspace", "StartupDecision", "startup_decision", "qt_platform_problem",
           "apt_install_line"]


@dataclass(frozen=True)
class StartupDecision:
    """What the window does at start: open ``path``; or offer the demo (first start); or, when the
    last workspace is gone, say so and let the user choose (``missing``: where it was)."""

    path: Path | None = None
    offer_demo: bool = False
    missing: Path | None = None


def last_used_workspace(settings: AppSettings) -> Path | None:
    """The workspace used last: the settings' last workspace, else the most recent one (None if none)."""
    last = settings.last_workspace or (settings.recent_workspaces[0] if settings.recent_workspaces else None)
    return Path(last) if last else None


def startup_decision(*, demo: bool, db: str | None, settings: AppSettings) -> StartupDecision:
    """Which workspace to open at start (the order is in the module docstring); never creates one
    in place of a missing last workspace."""
    if demo:
        return StartupDecision(ensure_demo_workspace())
    if db:
        return StartupDecision(Path(db))
    env = os.environ.get("MTEVAL_DB")
    if env:
        return StartupDecision(Path(env))
    last = last_used_workspace(settings)
    if last is not None:
        return StartupDecision(last) if last.exists() else StartupDecision(missing=last)
    if not settings.demo_offered:
        return StartupDecision(offer_demo=True)
    return StartupDecision(default_workspace_path())


# --------------------------------------------------------------------------- Qt's window system libraries

# What Qt's X11 window plugin (``libqxcb.so``) needs from the system on Debian and Ubuntu, as
# ``.ci/run`` installs it (fonts that render Cree syllabics, SRO and Ewe letters included).
QT_SYSTEM_PACKAGES = (
    "libgl1", "libegl1", "libxkbcommon0", "libxkbcommon-x11-0", "libfontconfig1", "libfreetype6", "libdbus-1-3",
    "libglib2.0-0", "libxcb-cursor0", "libxcb-icccm4", "libxcb-image0", "libxcb-keysyms1", "libxcb-randr0",
    "libxcb-render-util0", "libxcb-shape0", "libxcb-xinerama0", "libxcb-xfixes0", "libxcb-xkb1", "libx11-xcb1",
    "fonts-dejavu-core", "fonts-noto-core",
)
# shared library -> the Debian package that ships it
SONAME_PACKAGES = {
    "libGL.so.1": "libgl1", "libEGL.so.1": "libegl1", "libGLX.so.0": "libglx0", "libGLdispatch.so.0": "libglvnd0",
    "libxkbcommon.so.0": "libxkbcommon0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libfontconfig.so.1": "libfontconfig1", "libfreetype.so.6": "libfreetype6", "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0",
    "libxcb.so.1": "libxcb1", "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1", "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xinerama.so.0": "libxcb-xinerama0", "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6",
}


def apt_install_line(extra: Sequence[str] = ()) -> str:
    """The one command that installs what Qt's window plugin needs (plus ``extra`` packages)."""
    packages = list(dict.fromkeys([*QT_SYSTEM_PACKAGES, *extra]))
    return "sudo apt-get install " + " ".join(packages)


def xcb_plugin_path() -> Path | None:
    """PySide6's X11 platform plugin, found without importing Qt (None when it is not there)."""
    spec = importlib.util.find_spec("PySide6")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if path.is_file():
            return path
    return None


def missing_from_ldd(output: str) -> list[str]:
    """The shared libraries ``ldd`` reports as ``not found``."""
    return [line.split("=>")[0].strip() for line in output.splitlines() if "=> not found" in line]


def missing_qt_libraries(plugin: Path | None = None,
                         load: Callable[[str], object] | None = None) -> list[str]:
    """System libraries the X11 platform plugin cannot find: ``ldd`` of the plugin when ``ldd`` is
    there, else each library of :data:`SONAME_PACKAGES` opened in turn (``load``, default ctypes)."""
    plugin = plugin or xcb_plugin_path()
    ldd = shutil.which("ldd")
    if plugin is not None and ldd is not None and load is None:
        try:
            done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20, check=False)
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None and done.returncode == 0:
            return missing_from_ldd(done.stdout)
    opener = load or ctypes.CDLL
    missing = []
    for soname in SONAME_PACKAGES:
        try:
            opener(soname)
        except OSError:
            missing.append(soname)
    return missing


def uses_xcb(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """True when Qt will open its window through X11 (Linux, no other platform asked for, no Wayland session)."""
    env = os.environ if environ is None else environ
    if (platform or sys.platform) != "linux":
        return False
    asked = env.get("QT_QPA_PLATFORM", "")
    if asked:
        return asked.split(":")[0].split(";")[0] == "xcb"
    return env.get("XDG_SESSION_TYPE") != "wayland" or not env.get("WAYLAND_DISPLAY")


def qt_platform_problem(environ: Mapping[str, str] | None = None, missing: Sequence[str] | None = None) -> str | None:
    """What to tell the user, before Qt starts and aborts, when its window plugin cannot load; None if it can."""
    if not uses_xcb(environ):
        return None
    missing = missing_qt_libraries() if missing is None else list(missing)
    if not missing:
        return None
    extra = [SONAME_PACKAGES[s] for s in missing if s in SONAME_PACKAGES]
    return ("mteval-gui: Qt cannot open its window: these system libraries are missing: " + ", ".join(missing)
            + ".\nOn Debian or Ubuntu install them (and the fonts the interface uses) with:\n  "
            + apt_install_line(extra))
