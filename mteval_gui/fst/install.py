"""Installing analyzers into the per-user analyzer folder ("Install analyzer").

Sources:

- a local ``.hfstol`` file;
- a local GiellaLT package (``.deb``, e.g. a nightly ``giella-crk_..._all.deb``);
- a URL (``http(s)://`` or ``file://``) of either — downloaded only when the user asks for it
  (``mteval analyzers install LANG URL`` or the GUI button), never during scoring.

A ``.deb`` is an ``ar`` archive whose ``data.tar.{xz,gz,bz2,zst}`` holds the transducers under
``usr/share/giella/<lang>/``; the ``.hfstol`` files are extracted with the standard library
(no dpkg needed), streamed: the archive is decompressed as it is read, every member and the
whole expansion have size limits, and members go to files, never wholly into memory (a
469 KB package once expanded to 3.2 GB of memory). Kinds are recognised by the file names the
language card declares, then by the GiellaLT names (``analyser-dict-gt-norm`` /
``analyser-gt-norm`` = strict, ``analyser-gt-desc`` = descriptive, ``generator-gt-norm`` =
generator).

Downloads (:func:`download`) have a size limit (a ``Content-Length`` over it is refused before
reading; an endless body stops at it), a total-time limit enforced by a watchdog that closes
the connection (a server sending a byte a second no longer outlives the limit), a per-read
socket timeout, and a cancel token (anything with ``is_set()``, e.g. a ``threading.Event``;
Ctrl-C in the CLI cancels too). A body shorter than its ``Content-Length`` is refused.

Integrity: the downloaded or given file is checked against ``--sha256`` or the card's pin for
that file name; every extracted transducer with a pin in the card is checked too; every
transducer must pass the checks of :func:`mteval_gui.fst.analyzer.read_transducer` (headers,
tables, a child process that reads it). Everything is staged in a temporary folder inside the
analyzer folder and only moved into place when all checks passed: a mismatch installs
nothing, and the staging folder is removed on every exit (errors, cancel, Ctrl-C); one left by
an install that was killed (SIGTERM, SIGKILL: no running install holds its lock) is removed by
the next install and by ``mteval analyzers list`` (:mod:`mteval_gui.staging`). The
language must be an ISO 639-3 code, so nothing is ever written outside the analyzer folder.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import hashlib
import http.client
import io
import lzma
import os
import shutil
import socket
import ssl
import stat
import tarfile
import threading
import time
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any, BinaryIO, Protocol

from mteval_gui import paths, protected
from mteval_gui import staging as staging_folders
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analyzer import AnalyzerError, forget_loaded, read_transducer
from mteval_gui.fst.registry import (
    KINDS,
    MANIFEST,
    card_pin,
    language_dir,
    manifest_record,
    read_manifest,
    safe_file_name,
    valid_code,
    write_manifest,
)

AR_MAGIC = b"!<arch>\n"
_CHUNK = 1 << 16
MAX_DOWNLOAD_BYTES = 1 << 30  # 1 GiB: GiellaLT packages are tens of MB
MAX_DOWNLOAD_SECONDS = 1800.0  # 30 min: 1 GiB at 0.6 MB/s
STAGING_PREFIX = ".install-"
MAX_MEMBER_BYTES = 1 << 29  # 512 MiB for one transducer inside a package
MAX_UNPACKED_BYTES = 1 << 30  # 1 GiB for the whole expanded data archive
GIELLA_NAMES: dict[str, tuple[str, ...]] = {
    "strict": ("analyser-dict-gt-norm.hfstol", "analyser-gt-norm.hfstol"),
    "descriptive": ("analyser-dict-gt-desc.hfstol", "analyser-gt-desc.hfstol"),
    "generator": ("generator-dict-gt-norm.hfstol", "generator-gt-norm.hfstol"),
}
ProgressCallback = Callable[[int, int | None], None]


class CancelToken(Protocol):
    def is_set(self) -> bool: ...


class InstallError(MtevalError):
    """An analyzer could not be installed; nothing was changed."""


class InstallCancelled(InstallError):
    """The user cancelled the download; nothing was installed."""


@dataclass(frozen=True)
class Limits:
    """Size and time limits of one installation (the defaults suit real GiellaLT packages)."""

    download_bytes: int = MAX_DOWNLOAD_BYTES
    download_seconds: float = MAX_DOWNLOAD_SECONDS
    member_bytes: int = MAX_MEMBER_BYTES
    unpacked_bytes: int = MAX_UNPACKED_BYTES


@dataclass(frozen=True)
class InstalledFile:
    kind: str
    file: str
    path: Path
    sha256: str
    verified: bool  # matched a sha256 pin


@dataclass
class InstallResult:
    lang: str
    source: str
    artifact: str
    artifact_sha256: str
    artifact_verified: bool
    files: list[InstalledFile] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{self.artifact}: sha256 {self.artifact_sha256}"
               + (" (verified)" if self.artifact_verified else " (no pin to verify against)")]
        for f in self.files:
            out.append(f"installed {f.kind}: {f.path} (sha256 {f.sha256}{', verified' if f.verified else ''})")
        for s in self.skipped:
            out.append(f"not installed: {s}")
        return out


def is_url(source: str | Path) -> bool:
    s = str(source)
    return urllib.parse.urlparse(s).scheme in ("http", "https", "file") and "://" in s


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n:,} bytes"


def _regular_file(p: Path, label: str | None = None) -> os.stat_result:
    """Refuse at once what is not a regular file (a FIFO would block, ``/dev/zero`` never ends)."""
    try:
        st = p.stat()
    except OSError as exc:
        raise InstallError(f"{label or p}: file not found") from exc
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a pipe, a device...)"
        raise InstallError(f"{label or p}: {what}, not an analyzer file or package")
    own = protected.workspace_file(p)
    if own is not None:  # reading it here would release this process's SQLite locks
        raise InstallError(f"{label or p}: {own}, not an analyzer file or package")
    return st


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# -- downloads ------------------------------------------------------------------------------
class _Transfer:
    """A watchdog that closes the connection at the deadline or on cancel, wherever the reader blocks."""

    def __init__(self, url: str, deadline_s: float, cancel: CancelToken | None) -> None:
        self.url = url
        self.limit = deadline_s
        self.deadline = time.monotonic() + deadline_s
        self.cancel = cancel
        self.stopped: str | None = None
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="download-watchdog", daemon=True)

    def __enter__(self) -> _Transfer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def register(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._socks.append(sock)
            stopped = self.stopped
        if stopped:
            self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):  # already closed
            sock.shutdown(socket.SHUT_RDWR)

    def _watch(self) -> None:
        while not self._done.wait(0.05):
            why = None
            if self.cancel is not None and self.cancel.is_set():
                why = "cancelled"
            elif time.monotonic() > self.deadline:
                why = "timeout"
            if why:
                with self._lock:
                    self.stopped = why
                    socks = list(self._socks)
                for s in socks:
                    self._shut(s)
                return

    def check(self) -> None:
        if self.stopped is None:
            if self.cancel is not None and self.cancel.is_set():
                self.stopped = "cancelled"
            elif time.monotonic() > self.deadline:
                self.stopped = "timeout"
        if self.stopped == "cancelled":
            raise InstallCancelled(f"download of {self.url} cancelled; nothing was installed")
        if self.stopped == "timeout":
            raise InstallError(f"cannot download {self.url}: it took longer than the limit of {self.limit:g} s "
                               "(--max-time); nothing was installed")


def _opener(transfer: _Transfer) -> urllib.request.OpenerDirector:
    """An opener whose HTTP(S) connections hand their sockets to the watchdog as soon as they exist."""

    class _HTTPConnection(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            transfer.register(self.sock)

    class _HTTPSConnection(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            transfer.register(self.sock)

    context = ssl.create_default_context()

    class _HTTPHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(_HTTPConnection, req)

    class _HTTPSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(_HTTPSConnection, req, context=context)

    return urllib.request.build_opener(_HTTPHandler(), _HTTPSHandler(context=context))


def _local_url_path(url: str) -> Path | None:
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme != "file":
        return None
    return Path(urllib.request.url2pathname(parsed.path))


def download(url: str, dest: Path, *, timeout: float = 60.0, max_bytes: int = MAX_DOWNLOAD_BYTES,
             max_seconds: float = MAX_DOWNLOAD_SECONDS, cancel: CancelToken | None = None,
             on_progress: ProgressCallback | None = None) -> str:
    """Download ``url`` to ``dest`` (streamed) and return its sha256. Raises InstallError on any failure.

    ``timeout`` bounds each network wait, ``max_seconds`` the whole transfer (connection
    included), ``max_bytes`` its size; ``cancel.is_set()`` stops it (:class:`InstallCancelled`).
    A body that ends before its ``Content-Length`` is refused.
    """
    local = _local_url_path(url)
    if local is not None:
        _regular_file(local, url)
    h = hashlib.sha256()
    done = 0
    with _Transfer(url, max_seconds, cancel) as transfer:
        try:
            with _opener(transfer).open(url, timeout=min(timeout, max_seconds)) as resp, open(dest, "wb") as out:
                transfer.check()
                status = getattr(resp, "status", None)
                if status is not None and status >= 400:
                    raise InstallError(f"cannot download {url}: HTTP {status}")
                length_h = resp.headers.get("Content-Length") if getattr(resp, "headers", None) is not None else None
                length = int(length_h) if length_h and length_h.strip().isdigit() else None
                if length is not None and length > max_bytes:
                    raise InstallError(f"cannot download {url}: it is {_mb(length)}, over the size limit of "
                                       f"{_mb(max_bytes)}; nothing was installed")
                read = getattr(resp, "read1", None) or resp.read
                while True:
                    transfer.check()
                    chunk = read(_CHUNK)
                    if not chunk:
                        break
                    done += len(chunk)
                    if done > max_bytes:
                        raise InstallError(f"cannot download {url}: more than the size limit of {_mb(max_bytes)} "
                                           "arrived; nothing was installed")
                    h.update(chunk)
                    out.write(chunk)
                    if on_progress is not None:
                        on_progress(done, length)
                transfer.check()  # a connection closed by the watchdog ends like a complete body
                if length is not None and done != length:
                    raise InstallError(f"cannot download {url}: the connection ended after {done:,} of {length:,} "
                                       "bytes; nothing was installed")
        except InstallError:
            raise
        except (OSError, ValueError, http.client.HTTPException) as exc:  # URLError/HTTPError are OSError
            transfer.check()  # a read interrupted by the watchdog says why
            raise InstallError(f"cannot download {url}: {exc}") from exc
    return h.hexdigest()


# -- ar / deb -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ArMember:
    name: str
    offset: int
    size: int


def ar_index(fh: BinaryIO, file_size: int) -> list[ArMember]:
    """Members of an ``ar`` archive (the container format of ``.deb`` packages), without reading them."""
    if fh.read(8) != AR_MAGIC:
        raise InstallError("not an ar archive (a .deb package starts with '!<arch>')")
    members: list[ArMember] = []
    pos = 8
    while pos < file_size:
        fh.seek(pos)
        header = fh.read(60)
        if not header:
            break
        if len(header) < 60 or header[58:60] != b"`\n":
            raise InstallError("corrupt ar archive: bad member header")
        name = header[0:16].decode("ascii", "replace").strip()
        if name.endswith("/") and name != "/":
            name = name[:-1]
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError as exc:
            raise InstallError("corrupt ar archive: bad member size") from exc
        start = pos + 60
        if size < 0 or start + size > file_size:
            raise InstallError(f"corrupt ar archive: member {name!r} is truncated")
        members.append(ArMember(name, start, size))
        pos = start + size + (size % 2)
    return members


class _Slice(io.RawIOBase):
    """``size`` bytes of a file from ``offset``, as a read-only stream."""

    def __init__(self, fh: BinaryIO, offset: int, size: int) -> None:
        super().__init__()
        self._fh = fh
        self._pos = offset
        self._left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self._left)
        if n <= 0:
            return 0
        self._fh.seek(self._pos)
        data = self._fh.read(n)
        buffer[:len(data)] = data
        self._pos += len(data)
        self._left -= len(data)
        return len(data)


class _Limited:
    """A stream that stops with InstallError once more than ``limit`` bytes came out of it."""

    def __init__(self, raw: Any, limit: int, label: str) -> None:
        self._raw = raw
        self._limit = limit
        self._label = label
        self.count = 0

    def read(self, n: int = -1) -> bytes:
        data: bytes = self._raw.read(n if n is not None and n >= 0 else _CHUNK)
        self.count += len(data)
        if self.count > self._limit:
            raise InstallError(f"{self._label} expands to more than {_mb(self._limit)}; nothing was installed")
        return data


def _decompressing(raw: _Slice, member: str, magic: bytes, label: str) -> io.IOBase | IO[bytes]:
    """A stream of the decompressed bytes (each read returns at most what was asked for)."""
    if member.endswith(".xz") or magic.startswith(b"\xfd7zXZ"):
        return lzma.LZMAFile(io.BufferedReader(raw))
    if member.endswith(".gz") or magic.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if member.endswith(".bz2") or magic.startswith(b"BZh"):
        return bz2.BZ2File(raw)
    if member.endswith(".zst") or magic.startswith(b"\x28\xb5\x2f\xfd"):
        try:
            import zstandard
        except ImportError as exc:
            raise InstallError(f"{label}: {member} is zstd-compressed; install the 'zstandard' package "
                               "or give the .hfstol files directly") from exc
        return zstandard.ZstdDecompressor().stream_reader(raw)
    return raw


def _decompression_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [tarfile.TarError, EOFError, OSError, lzma.LZMAError, zlib.error, ValueError]
    try:
        import zstandard
    except ImportError:
        pass
    else:
        errors.append(zstandard.ZstdError)
    return tuple(errors)


_DECOMPRESSION_ERRORS = _decompression_errors()


def deb_hfstol_members(deb: Path, folder: Path, *, limits: Limits = Limits()) -> dict[str, Path]:
    """Extract every ``.hfstol`` of a ``.deb``'s data archive into ``folder``: ``{member path: file}``."""
    size = _regular_file(deb).st_size
    out: dict[str, Path] = {}
    with open(deb, "rb") as fh:
        members = ar_index(fh, size)
        data = next((m for m in members if m.name.startswith("data.tar")), None)
        if data is None:
            raise InstallError(f"{deb.name}: no data.tar.* member (is this a Debian package?)")
        fh.seek(data.offset)
        magic = fh.read(6)
        label = f"{deb.name}: {data.name}"
        stream = _Limited(_decompressing(_Slice(fh, data.offset, data.size), data.name, magic, label),
                          limits.unpacked_bytes, label)
        try:
            with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
                for m in tar:
                    if not (m.isfile() and m.name.endswith(".hfstol")):
                        continue  # stream mode skips the member's data as it reads on
                    if m.size > limits.member_bytes:
                        raise InstallError(f"{deb.name}: {m.name} is {_mb(m.size)}, over the limit of "
                                           f"{_mb(limits.member_bytes)} for one transducer; nothing was installed")
                    src = tar.extractfile(m)
                    if src is None:
                        continue
                    dest = folder / f"{len(out):04d}.hfstol"
                    with open(dest, "wb") as w:
                        shutil.copyfileobj(src, w, _CHUNK)
                    out[m.name] = dest
        except InstallError:
            raise
        except _DECOMPRESSION_ERRORS as exc:
            raise InstallError(f"{label}: cannot read it ({exc})") from exc
    return out


def _is_deb(path: Path, declared_format: str | None) -> bool:
    with open(path, "rb") as fh:
        magic = fh.read(8)
    if magic == AR_MAGIC:
        return True
    # a name without any suffix (e.g. a download URL ending in "/download") follows the card's declared format;
    # any other file that is not an ar archive is treated as a transducer (and refused if it is not one)
    return path.suffix == ".deb" or (declared_format == "deb" and path.suffix == "")


def kind_of(name: str, card: LanguageCard | None) -> str | None:
    """The analyzer kind a file name stands for (card names first, then GiellaLT names)."""
    base = PurePosixPath(name).name
    if card is not None and card.analyzers is not None:
        for kind in KINDS:
            if getattr(card.analyzers, kind, None) == base:
                return kind
    for kind, names in GIELLA_NAMES.items():
        if base in names:
            return kind
    return None


def _check_readable(path: Path, label: str) -> None:
    try:
        read_transducer(path)
    except AnalyzerError as exc:
        msg = str(exc).removeprefix(f"{path}: ")  # the staged copy's path means nothing to the user
        if not msg.startswith("not a readable HFST transducer"):
            msg = f"not a readable HFST transducer ({msg})"
        raise InstallError(f"{label}: {msg}") from exc


def check_code(lang: str) -> str:
    if not valid_code(lang):
        raise InstallError(f"{lang!r} is not a language code: expected three lower-case letters (ISO 639-3, e.g. crk); "
                           "nothing was installed")
    return lang


def remove_abandoned_staging(root: Path) -> list[Path]:
    """Remove the staging folders of installs that ended without removing theirs (killed: SIGTERM,
    SIGKILL, a power cut), never one of an install still running; returns them."""
    return staging_folders.remove_abandoned(root, STAGING_PREFIX)


def install_analyzer(lang: str, source: str | Path, *, card: LanguageCard | None = None,
                     kind: str | None = None, sha256: str | None = None, base: Path | None = None,
                     timeout: float = 60.0, on_progress: ProgressCallback | None = None,
                     cancel: CancelToken | None = None, limits: Limits = Limits()) -> InstallResult:
    """Install analyzers for ``lang`` from a local file or URL (``.hfstol`` or ``.deb``)."""
    check_code(lang)
    if kind is not None and kind not in KINDS:
        raise InstallError(f"--kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if sha256 is not None:
        sha256 = sha256.strip().lower()
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise InstallError(f"--sha256 must be 64 hexadecimal digits, got {sha256!r}")
    root = base or paths.analyzers_dir()
    source_s = str(source)
    if is_url(source_s):
        artifact_name = PurePosixPath(urllib.parse.unquote(urllib.parse.urlparse(source_s).path)).name or "download"
    else:
        src_path = Path(source_s).expanduser()
        _regular_file(src_path)
        artifact_name = src_path.name
    root.mkdir(parents=True, exist_ok=True)
    dest_dir = language_dir(lang, root)
    remove_abandoned_staging(root)
    held = staging_folders.make(root, f"{STAGING_PREFIX}{lang}-")
    staging = held.path
    try:
        artifact = staging / ("artifact-" + artifact_name)
        if is_url(source_s):
            art_sha = download(source_s, artifact, timeout=timeout, max_bytes=limits.download_bytes,
                               max_seconds=limits.download_seconds, cancel=cancel, on_progress=on_progress)
        else:
            shutil.copyfile(src_path, artifact)
            art_sha = _sha256(artifact)
        pin = sha256 or card_pin(card, artifact_name)
        if pin is not None and pin != art_sha:
            raise InstallError(
                f"sha256 mismatch for {artifact_name}: expected {pin}, got {art_sha}; nothing was installed"
            )
        result = InstallResult(lang=lang, source=source_s, artifact=artifact_name, artifact_sha256=art_sha,
                               artifact_verified=pin is not None)
        declared = card.analyzers.source_format if card is not None and card.analyzers is not None else None
        staged: list[tuple[str, str, Path, str, bool]] = []  # kind, file, staged path, sha, verified
        if _is_deb(artifact, declared):
            unpacked = staging / "members"
            unpacked.mkdir()
            members = deb_hfstol_members(artifact, unpacked, limits=limits)
            if not members:
                raise InstallError(f"{artifact_name}: the package contains no .hfstol transducer")
            chosen: dict[str, tuple[str, Path]] = {}
            for member, data in members.items():
                k = kind_of(member, card)
                if k is None or (kind is not None and k != kind):
                    result.skipped.append(f"{member} ({'other kind' if k else 'unrecognised name'})")
                    continue
                prev = chosen.get(k)
                # prefer the earlier name in GIELLA_NAMES / the card's own name
                if prev is None or _rank(member, k, card) < _rank(prev[0], k, card):
                    if prev is not None:
                        result.skipped.append(f"{prev[0]} (another {k} analyzer was preferred)")
                    chosen[k] = (member, data)
                else:
                    result.skipped.append(f"{member} (another {k} analyzer was preferred)")
            if not chosen:
                raise InstallError(f"{artifact_name}: no analyzer of kind {kind or 'strict/descriptive/generator'} "
                                   f"among {', '.join(sorted(members))}")
            for k, (member, data) in sorted(chosen.items()):
                name = PurePosixPath(member).name
                p = staging / name
                data.replace(p)
                sha = _sha256(p)
                file_pin = card_pin(card, name)
                if file_pin is not None and file_pin != sha:
                    raise InstallError(f"sha256 mismatch for {name} in {artifact_name}: expected {file_pin}, "
                                       f"got {sha}; nothing was installed")
                staged.append((k, name, p, sha, file_pin is not None or pin is not None))
        else:
            named = kind_of(artifact_name, card)
            if kind is not None and named is not None and named != kind:
                raise InstallError(f"{artifact_name} is the {named} transducer by its name, not a {kind} analyzer: "
                                   f"install it with --kind {named} (or rename the file if it really is a {kind} "
                                   "analyzer); nothing was installed")
            k = kind or named or "strict"
            _check_readable(artifact, artifact_name)
            name = artifact_name if artifact_name.endswith(".hfstol") else f"{lang}-{k}.hfstol"
            p = staging / name
            artifact.replace(p)
            staged.append((k, name, p, art_sha, pin is not None))
        for _, name, p, _, _ in staged:
            if not safe_file_name(name) or name == MANIFEST:
                raise InstallError(f"{name!r} cannot be an analyzer file name; nothing was installed")
            _check_readable(p, name)
        # all checks passed: move into place
        dest_dir.mkdir(parents=True, exist_ok=True)
        manifest = read_manifest(lang, root)
        for k, name, p, sha, verified in staged:
            final = dest_dir / name
            os.replace(p, final)
            manifest[k] = manifest_record(name, sha, source_s)
            result.files.append(InstalledFile(kind=k, file=name, path=final, sha256=sha, verified=verified))
        write_manifest(lang, manifest, root)
        forget_loaded()
        return result
    finally:
        held.close()


def _rank(member: str, kind: str, card: LanguageCard | None) -> int:
    base = PurePosixPath(member).name
    if card is not None and card.analyzers is not None and getattr(card.analyzers, kind, None) == base:
        return -1
    names = GIELLA_NAMES.get(kind, ())
    return names.index(base) if base in names else len(names)

