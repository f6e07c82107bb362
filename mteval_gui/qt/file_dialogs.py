"""Every file dialog of the application: Qt's own dialog with an icon provider that never reads a file.

Qt's file dialogs (and the desktop's native ones) open each file they list to detect its
content type, for the icon and the *Type* column. Opening and closing the workspace's database,
``-wal`` or ``-shm`` file in this process releases the process's SQLite locks (POSIX locks
belong to the process), which lets another process delete the WAL the window still writes
to (:mod:`mteval_gui.store.walguard` explains it and guards against it). So the dialogs here:

- are Qt's widget dialogs, never the platform's, except on Windows, whose file locks belong
  to the handle and are not released by another handle's close;
- use :class:`NameOnlyIconProvider`, which picks icons and type names from the file name
  alone (``QMimeDatabase.MatchExtension``), never from the content.

The tests fence every ``QFileDialog`` use of the package into this module.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QFileInfo, QMimeDatabase
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget

_NATIVE = sys.platform == "win32"


class NameOnlyIconProvider(QFileIconProvider):
    """File icons and type names from the file's name: the provider never opens a file."""

    def __init__(self) -> None:
        super().__init__()
        self._mime = QMimeDatabase()

    def icon(self, what: object) -> QIcon:
        if isinstance(what, QFileInfo):
            what = QFileIconProvider.IconType.Folder if what.isDir() else QFileIconProvider.IconType.File
        return super().icon(what) if isinstance(what, QFileIconProvider.IconType) else QIcon()

    def type(self, info: QFileInfo) -> str:  # noqa: A003 (Qt's name)
        if info.isDir():
            return super().type(info)  # a folder's type is its kind alone, nothing is read
        mime = self._mime.mimeTypeForFile(info.fileName(), QMimeDatabase.MatchMode.MatchExtension)
        return mime.comment()


_provider: NameOnlyIconProvider | None = None
# the folder of the file (or the folder) last chosen in a dialog of this process: a dialog given
# no folder starts there, and one given a bare file name (``chart.svg``) proposes it there; the
# window keeps it between sessions (``AppSettings.last_folder``)
last_folder = ""


def _start(directory: str) -> str:
    """Where a dialog opens: ``directory`` when it names a folder (or a file in one), else the
    last folder chosen (the home folder the first time), with the proposed file name if any."""
    if directory and Path(directory).name != directory:
        return directory
    base = last_folder if last_folder and Path(last_folder).is_dir() else str(Path.home())
    return str(Path(base) / directory) if directory else base


def _remember(path: str, *, folder: bool = False) -> None:
    global last_folder
    if path:
        last_folder = path if folder else str(Path(path).parent)


def icon_provider() -> NameOnlyIconProvider:
    """The one provider of the application (a dialog does not own the provider it is given)."""
    global _provider
    if _provider is None:
        _provider = NameOnlyIconProvider()
    return _provider


def make_dialog(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> QFileDialog:
    """A file dialog that never reads the files it lists (see the module's docstring)."""
    dialog = QFileDialog(parent, caption, _start(directory), filters)
    if not _NATIVE:
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setIconProvider(icon_provider())
    return dialog


def _run(dialog: QFileDialog) -> tuple[str, str]:
    if dialog.exec() != QFileDialog.DialogCode.Accepted:
        return "", ""
    files = dialog.selectedFiles()
    chosen = files[0] if files else ""
    _remember(chosen, folder=dialog.fileMode() == QFileDialog.FileMode.Directory)
    return chosen, dialog.selectedNameFilter()


def open_file_name(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> tuple[str, str]:
    """Like ``QFileDialog.getOpenFileName``: (path, chosen filter), ("", "") when cancelled."""
    dialog = make_dialog(parent, caption, directory, filters)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    return _run(dialog)


def save_file_name(parent: QWidget | None, caption: str, directory: str = "", filters: str = "") -> tuple[str, str]:
    """Like ``QFileDialog.getSaveFileName`` (asks before replacing a file): (path, chosen filter)."""
    dialog = make_dialog(parent, caption, directory, filters)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    return _run(dialog)


def existing_directory(parent: QWidget | None, caption: str, directory: str = "") -> str:
    """Like ``QFileDialog.getExistingDirectory``: the chosen folder, "" when cancelled."""
    dialog = make_dialog(parent, caption, directory)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    return _run(dialog)[0]
