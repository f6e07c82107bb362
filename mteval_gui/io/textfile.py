"""Reading input files as text: UTF-8 (BOM tolerated), CRLF accepted, defects located.

Every reader starts here. Invalid UTF-8 does not stop reading: each bad byte sequence
becomes a :class:`~mteval_gui.errors.Defect` with its line and column, the text is decoded
with replacement characters, and parsing continues so that one report lists every problem.
NUL characters are defects too (no input format of the application holds them).

Only regular files are read: a folder, a FIFO, a socket or a device (``/dev/zero``) is
refused at once, before anything could block or read without end. The file is opened
without blocking and checked on the open descriptor, so a path swapped for a FIFO between
the check and the read cannot hang the reader either.

An input larger than :func:`max_input_bytes` (1 GB unless ``MTEVAL_MAX_INPUT_BYTES`` says
otherwise) is refused from its size, before a byte is read: reading and decoding such a file
would take several times its size in memory (a 2 GB sparse file used to take a minute and
6 GB before its NUL characters were reported).
"""

from __future__ import annotations

import bisect
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from mteval_gui import protected
from mteval_gui.errors import Defect, InputError

MAX_DEFECTS = 200
_BOM = b"\xef\xbb\xbf"
MAX_INPUT_ENV = "MTEVAL_MAX_INPUT_BYTES"
DEFAULT_MAX_INPUT_BYTES = 1024 ** 3


def max_input_bytes() -> int:
    """The largest input file read whole, in bytes: ``$MTEVAL_MAX_INPUT_BYTES``, else 1 GB."""
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise InputError(Defect(MAX_INPUT_ENV, None, f"{raw!r} is not a positive number of bytes"))
    return value


def _size(n: int, *, whole: bool = False) -> str:
    """``n`` bytes in binary units (1 GB = 1024³ bytes), one decimal (none when ``whole`` and exact)."""
    for unit, scale in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("kB", 1024)):
        if n >= scale:
            if whole and n % scale == 0:
                return f"{n // scale} {unit}"
            return f"{n / scale:.1f} {unit}"
    return "1 byte" if n == 1 else f"{n} bytes"


def _too_large(size: int, display: str) -> InputError | None:
    limit = max_input_bytes()
    if size <= limit:
        return None
    return InputError(Defect(display, None, f"{_size(size)} is over the {_size(limit, whole=True)} input limit "
                                            f"({MAX_INPUT_ENV})"))


class DefectList(list[Defect]):
    """A list of defects for one file, capped so a broken 100k-line file stays readable."""

    def __init__(self, file: str, limit: int = MAX_DEFECTS):
        super().__init__()
        self.file = file
        self.limit = limit
        self.dropped = 0

    def add(self, line: int | None, message: str, column: int | None = None) -> None:
        if len(self) >= self.limit:
            self.dropped += 1
            return
        self.append(Defect(self.file, line, message, column))

    def extend_defects(self, defects: list[Defect]) -> None:
        for d in defects:
            if len(self) >= self.limit:
                self.dropped += 1
            else:
                self.append(d)

    def raise_if_any(self) -> None:
        """Raise one InputError with every defect, ordered by file and line."""
        if not self:
            return
        rank: dict[str, int] = {}
        for d in self:
            rank.setdefault(d.file, len(rank))
        out = sorted(self, key=lambda d: (rank[d.file], d.line or 0))
        if self.dropped:
            out.append(Defect(self.file, None, f"... and {self.dropped} more problems"))
        raise InputError(out)


class LineIndex:
    """Maps character offsets of a text to 1-based (line, column)."""

    def __init__(self, text: str):
        self._starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            self._starts.append(i + 1)
            i = find("\n", i + 1)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


@dataclass
class TextFile:
    """The decoded text of an input file and the defects found while decoding it."""

    path: Path
    name: str
    text: str
    defects: list[Defect] = field(default_factory=list)
    had_bom: bool = False

    def lines(self) -> list[str]:
        """Lines without terminators; a final newline does not make an extra empty line."""
        if not self.text:
            return []
        lines = self.text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return lines


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


def decode(data: bytes, name: str) -> tuple[str, list[Defect], bool]:
    """Decode UTF-8, locating every invalid byte sequence. Returns (text, defects, had_bom)."""
    had_bom = data.startswith(_BOM)
    if had_bom:
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
        defects: list[Defect] = []
    except UnicodeDecodeError:
        defects = []
        pos = 0
        while True:
            try:
                data[pos:].decode("utf-8")
                break
            except UnicodeDecodeError as exc:
                start, end = pos + exc.start, pos + exc.end
                line, col = _byte_position(data, start)
                bad = data[start:end].hex(" ").upper()
                defects.append(Defect(name, line, f"invalid UTF-8 (byte {bad}); save the file as UTF-8", col))
                pos = end
                if len(defects) >= MAX_DEFECTS:
                    break
        text = data.decode("utf-8", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, defects, had_bom


def file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_bytes(path: str | Path, *, name: str | None = None, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most ``limit`` of them); anything else raises :class:`InputError`,
    as does a whole file over :func:`max_input_bytes` (from its size, before reading)."""
    display = name or str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(Defect(display, None, "file not found")) from None
    except OSError as exc:
        raise InputError(Defect(display, None, f"cannot read: {exc.strerror or exc}")) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(Defect(display, None, f"is {file_kind(st.st_mode)}, not a regular file")) from None
    own = protected.workspace_file(path)
    if own is not None:  # opening it here would release this process's SQLite locks (store/walguard.py)
        raise InputError(Defect(display, None, f"is {own}, not a file to read; choose another file"))
    if limit is None and (big := _too_large(st.st_size, display)) is not None:
        raise big
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(Defect(display, None, f"cannot read: {exc.strerror or exc}")) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(Defect(display, None, f"is {file_kind(st.st_mode)}, not a regular file"))
        if limit is None and (big := _too_large(st.st_size, display)) is not None:
            raise big
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read() if limit is None else fh.read(limit)
    except OSError as exc:
        raise InputError(Defect(display, None, f"cannot read: {exc.strerror or exc}")) from None
    finally:
        os.close(fd)


def nul_defects(text: str, name: str, limit: int = 20) -> list[Defect]:
    """One defect per NUL character (at most ``limit``), with line and column."""
    out: list[Defect] = []
    i = text.find("\0")
    if i < 0:
        return out
    index = LineIndex(text)
    while i >= 0 and len(out) < limit:
        line, col = index.position(i)
        out.append(Defect(name, line, "NUL character (\\0) in the file: is it a binary file?", col))
        i = text.find("\0", i + 1)
    return out


def read_text(path: str | Path, *, name: str | None = None) -> TextFile:
    """Read ``path`` as UTF-8 text.

    An unreadable file or a file that is not a regular file raises :class:`InputError`.
    """
    p = Path(path)
    display = name or str(path)
    data = read_bytes(p, name=display)
    text, defects, had_bom = decode(data, display)
    defects.extend(nul_defects(text, display))
    return TextFile(p, display, text, defects, had_bom)
