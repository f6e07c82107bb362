"""Installing analyzers into the per-user analyzer folder ("Install analyzer").

Sources:

- a local ``.hfstol`` file;
- a local GiellaLT package (``.deb``, e.g. a nightly ``giella-crk_..._all.deb``);
- a URL (``http(s)://`` or ``file://``) of either — downloaded only when the user asks for it
  (``mteval analyzers install LANG URL`` or the GUI button), never during scoring.

A ``.deb`` is an ``ar`` archive whose ``data.tar.{xz,gz,bz2}`` holds the transducers under
``usr/share/giella/<lang>/``; the ``.hfstol`` files are extracted with the standard library
(no dpkg needed). Kinds are recognised by the file names the language card declares, then by
the GiellaLT names (``analyser-dict-gt-norm`` / ``analyser-gt-norm`` = strict,
``analyser-gt-desc`` = descriptive, ``generator-gt-norm`` = generator).

Integrity: the downloaded or given file is checked against ``--sha256`` or the card's pin for
that file name; every extracted transducer with a pin in the card is checked too; every
transducer must be readable by HFST. Everything is staged in a temporary folder next to the
destination and only moved into place when all checks passed: a mismatch installs nothing.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from mteval_gui import paths
from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import MtevalError
from mteval_gui.fst.analyzer import AnalyzerError, forget_loaded, read_transducer
from mteval_gui.fst.registry import KINDS, language_dir, manifest_record, read_manifest, write_manifest

AR_MAGIC = b"!<arch>\n"
_CHUNK = 1 << 20
GIELLA_NAMES: dict[str, tuple[str, ...]] = {
    "strict": ("analyser-dict-gt-norm.hfstol", "analyser-gt-norm.hfstol"),
    "descriptive": ("analyser-dict-gt-desc.hfstol", "analyser-gt-desc.hfstol"),
    "generator": ("generator-dict-gt-norm.hfstol", "generator-gt-norm.hfstol"),
}


class InstallError(MtevalError):
    """An analyzer could not be installed; nothing was changed."""


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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def download(url: str, dest: Path, *, timeout: float = 60.0,
             on_progress: Callable[[int, int | None], None] | None = None) -> Path:
    """Download ``url`` to ``dest`` (streamed). Raises InstallError on any failure."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as out:
            status = getattr(resp, "status", 200)
            if status is not None and status >= 400:
                raise InstallError(f"{url}: HTTP {status}")
            total_h = resp.headers.get("Content-Length") if hasattr(resp, "headers") else None
            total = int(total_h) if total_h and total_h.isdigit() else None
            done = 0
            while True:
                chunk = resp.read(_CHUNK)
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
                if on_progress is not None:
                    on_progress(done, total)
    except InstallError:
        raise
    except (OSError, ValueError) as exc:  # URLError/HTTPError are OSError subclasses
        raise InstallError(f"cannot download {url}: {exc}") from exc
    return dest


# -- ar / deb ---------------------------------------------------------------------------
def ar_members(fh: BinaryIO) -> dict[str, bytes]:
    """Members of an ``ar`` archive (the container format of ``.deb`` packages)."""
    if fh.read(8) != AR_MAGIC:
        raise InstallError("not an ar archive (a .deb package starts with '!<arch>')")
    members: dict[str, bytes] = {}
    while True:
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
        data = fh.read(size)
        if len(data) != size:
            raise InstallError(f"corrupt ar archive: member {name!r} is truncated")
        if size % 2:
            fh.read(1)
        members[name] = data
    return members


def deb_hfstol_members(deb: Path) -> dict[str, bytes]:
    """``{member path: bytes}`` of every ``.hfstol`` in a ``.deb``'s data archive."""
    with open(deb, "rb") as fh:
        members = ar_members(fh)
    data_name = next((n for n in members if n.startswith("data.tar")), None)
    if data_name is None:
        raise InstallError(f"{deb.name}: no data.tar.* member (is this a Debian package?)")
    blob = members[data_name]
    if data_name.endswith(".zst") or blob[:4] == b"\x28\xb5\x2f\xfd":
        try:
            import zstandard
        except ImportError as exc:
            raise InstallError(f"{deb.name}: {data_name} is zstd-compressed; install the 'zstandard' package "
                               "or give the .hfstol files directly") from exc
        blob = zstandard.ZstdDecompressor().decompressobj().decompress(blob)
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(blob), mode="r:*") as tar:
            for m in tar.getmembers():
                if m.isfile() and m.name.endswith(".hfstol"):
                    f = tar.extractfile(m)
                    if f is not None:
                        out[m.name] = f.read()
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise InstallError(f"{deb.name}: cannot read {data_name}: {exc}") from exc
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


def _pin(card: LanguageCard | None, name: str) -> str | None:
    if card is None or card.analyzers is None:
        return None
    v = card.analyzers.sha256.get(name)
    return v.lower() if v else None


def _check_readable(path: Path, label: str) -> None:
    try:
        read_transducer(path)
    except AnalyzerError as exc:
        msg = str(exc).removeprefix(f"{path}: ")  # the staged copy's path means nothing to the user
        if not msg.startswith("not a readable HFST transducer"):
            msg = f"not a readable HFST transducer ({msg})"
        raise InstallError(f"{label}: {msg}") from exc


def install_analyzer(lang: str, source: str | Path, *, card: LanguageCard | None = None,
                     kind: str | None = None, sha256: str | None = None, base: Path | None = None,
                     timeout: float = 60.0,
                     on_progress: Callable[[int, int | None], None] | None = None) -> InstallResult:
    """Install analyzers for ``lang`` from a local file or URL (``.hfstol`` or ``.deb``)."""
    if kind is not None and kind not in KINDS:
        raise InstallError(f"--kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if sha256 is not None:
        sha256 = sha256.strip().lower()
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise InstallError(f"--sha256 must be 64 hexadecimal digits, got {sha256!r}")
    root = base or paths.analyzers_dir()
    root.mkdir(parents=True, exist_ok=True)
    dest_dir = language_dir(lang, root)
    source_s = str(source)
    if is_url(source_s):
        artifact_name = PurePosixPath(urllib.parse.unquote(urllib.parse.urlparse(source_s).path)).name or "download"
    else:
        src_path = Path(source_s).expanduser()
        if not src_path.is_file():
            raise InstallError(f"{src_path}: file not found")
        artifact_name = src_path.name
    staging = Path(tempfile.mkdtemp(prefix=f".install-{lang}-", dir=root))
    try:
        artifact = staging / ("artifact-" + artifact_name)
        if is_url(source_s):
            download(source_s, artifact, timeout=timeout, on_progress=on_progress)
        else:
            shutil.copyfile(src_path, artifact)
        art_sha = _sha256(artifact)
        pin = sha256 or _pin(card, artifact_name)
        if pin is not None and pin != art_sha:
            raise InstallError(
                f"sha256 mismatch for {artifact_name}: expected {pin}, got {art_sha}; nothing was installed"
            )
        result = InstallResult(lang=lang, source=source_s, artifact=artifact_name, artifact_sha256=art_sha,
                               artifact_verified=pin is not None)
        declared = card.analyzers.source_format if card is not None and card.analyzers is not None else None
        staged: list[tuple[str, str, Path, str, bool]] = []  # kind, file, staged path, sha, verified
        if _is_deb(artifact, declared):
            members = deb_hfstol_members(artifact)
            if not members:
                raise InstallError(f"{artifact_name}: the package contains no .hfstol transducer")
            chosen: dict[str, tuple[str, bytes]] = {}
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
                p.write_bytes(data)
                sha = hashlib.sha256(data).hexdigest()
                file_pin = _pin(card, name)
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
        shutil.rmtree(staging, ignore_errors=True)


def _rank(member: str, kind: str, card: LanguageCard | None) -> int:
    base = PurePosixPath(member).name
    if card is not None and card.analyzers is not None and getattr(card.analyzers, kind, None) == base:
        return -1
    names = GIELLA_NAMES.get(kind, ())
    return names.index(base) if base in names else len(names)

