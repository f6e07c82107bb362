"""Output files: the one way every export and ``-o``/``--output`` file is written.

**Atomic.** The content goes to a temporary file in the target's folder, is flushed and
``fsync``-ed, then renamed over the target (``os.replace``): a reader sees the old file or the
new one, never half of it, and a failure or a kill part-way leaves the old file as it was. A
file replaced keeps its permission bits; a new one gets the usual ``0666 & ~umask``. Writing
through a symbolic link replaces the file it points to, not the link.

**Only regular files.** The target must be a regular file or a path that does not exist yet
(its folder is created; a write that fails — no space left, no permission — says
``PATH: cannot be written: why`` and changes nothing). Refused with ``PATH: refused: why``
before anything is written (:class:`OutputRefused`), so nothing changes:

- an existing folder, a device node, a FIFO or a socket (writing "into" them used to replace
  them with a regular file);
- one of the command's own input files (the same file by device and inode, whatever the path
  says: ``mteval evaluate -o corpus.jsonl`` would otherwise overwrite its corpus);
- a workspace database or its ``-wal``, ``-shm`` and ``-journal`` files: the default
  workspace, and every workspace this process opened
  (:mod:`mteval_gui.protected`). They are compared by ``stat`` only: the
  database file is never opened here (an open and close outside SQLite drops the process's
  locks on it).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from mteval_gui.errors import Defect, InputError
from mteval_gui.io.textfile import file_kind
from mteval_gui.paths import default_workspace_path
from mteval_gui.protected import SQLITE_COMPANIONS, open_paths, same_file


class OutputRefused(InputError):
    """An output path that must not be written (``PATH: refused: why``)."""

    def __init__(self, path: str | Path, why: str):
        super().__init__(Defect(str(path), None, f"refused: {why}"))


def _kind(mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "it is a folder; give a file name"
    if stat.S_ISREG(mode):
        return None
    kind = file_kind(mode)
    return f"it is {kind}" if kind == "not a regular file" else f"it is {kind}, not a regular file"


def _same(st: os.stat_result, other: str | Path) -> bool:
    try:
        return same_file(st, os.stat(other))
    except (OSError, ValueError):
        return False


def _databases() -> list[Path]:
    found = set(open_paths())
    with contextlib.suppress(OSError, ValueError):
        found.add(Path(os.path.abspath(default_workspace_path())))
    return sorted(found)


def check_output(path: str | Path, *, inputs: Iterable[str | Path | None] = ()) -> Path:
    """The file to write for ``path`` (a symbolic link's target), or :class:`OutputRefused`."""
    shown = str(path)
    try:
        target = Path(os.path.realpath(path))
    except (OSError, ValueError) as exc:
        raise OutputRefused(shown, f"not a usable file name ({exc})") from exc
    try:
        st: os.stat_result | None = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):  # a new path (a bad folder fails when it is written)
        st = None
    except (OSError, ValueError) as exc:
        raise OutputRefused(shown, f"cannot be checked: {getattr(exc, 'strerror', None) or exc}") from exc
    if st is not None:
        kind = _kind(st.st_mode)
        if kind is not None:
            raise OutputRefused(shown, kind)
        for source in inputs:
            if source is not None and _same(st, source):
                raise OutputRefused(shown, f"it is an input of this command ({source}); write the output elsewhere")
    for database in _databases():
        for suffix in SQLITE_COMPANIONS:
            other = database.with_name(database.name + suffix)
            if (st is not None and _same(st, other)) or target == Path(os.path.realpath(other)):
                raise OutputRefused(shown, f"it is the workspace database {database}"
                                           f"{' (its ' + suffix[1:] + ' file)' if suffix else ''}")
    return target


def _failed(path: str | Path, exc: OSError) -> InputError:
    """A write that failed (no space left, no permission, a file where a folder should be)."""
    return InputError(Defect(str(path), None, f"cannot be written: {exc.strerror or exc}; nothing was changed"))


@contextlib.contextmanager
def open_output(path: str | Path, *, binary: bool = False, inputs: Iterable[str | Path | None] = (),
                encoding: str = "utf-8", newline: str | None = None) -> Iterator[IO[Any]]:
    """A file object to write the output ``path`` with; the target is replaced when the block ends
    without an exception (checked by :func:`check_output` before and again just before)."""
    inputs = list(inputs)
    target = check_output(path, inputs=inputs)
    try:
        mode_bits = stat.S_IMODE(os.stat(target).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        umask = os.umask(0)
        os.umask(umask)
        mode_bits = 0o666 & ~umask
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    except OSError as exc:
        raise _failed(path, exc) from exc
    try:
        fh: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding, newline=newline)
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode_bits)
        check_output(path, inputs=inputs)  # nothing took its place meanwhile
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _failed(path, exc) from exc
        raise
    if hasattr(os, "O_DIRECTORY"):  # the rename itself reaches the disk
        with contextlib.suppress(OSError):
            dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)


def write_output(path: str | Path, data: str | bytes, *, inputs: Iterable[str | Path | None] = (),
                 encoding: str = "utf-8", newline: str | None = "") -> Path:
    """Write ``data`` to the output ``path`` atomically (see the module notes); returns ``path``."""
    if isinstance(data, bytes):
        with open_output(path, binary=True, inputs=inputs) as fh:
            fh.write(data)
    else:
        with open_output(path, inputs=inputs, encoding=encoding, newline=newline) as fh:
            fh.write(data)
    return Path(path)
