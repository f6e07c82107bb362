"""The optional neural models (COMET, embeddings): what the cards name, what is on this machine,
the one explicit, user-started download, and adding a model copied by hand.

Downloading is the only place the application uses the network for models, and it happens
only when the user asks (``mteval models download`` or the GUI's download button); scoring
loads models offline. Shared by the CLI and the GUI.

A download runs in a child process (:class:`~mteval_gui.app.tasks.ProcessJob`): Cancel or
Ctrl-C stops it at once (the child is terminated), the partial files stay in the Hugging Face
cache and the next download resumes them. Progress (:class:`~mteval_gui.scoring.progress.Progress`, ``total``
0: unknown) is the bytes in the model's cache folder.
What was fetched is verified: every cached file is named by its content hash (sha256 for
large files, the git object hash for small ones) and is checked against it. Without a network
the download ends with one line saying what to do: fetch the model on a connected machine
and ``mteval models add FOLDER`` here (:func:`add_comet_model`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mteval_gui import staging as staging_folders
from mteval_gui.errors import Cancelled, DependencyMissing, MtevalError
from mteval_gui.scoring.metrics.comet import CHECKPOINT_IN_FOLDER, INSTALL_HINT, added_models_dir, model_slug
from mteval_gui.scoring.progress import Progress

MODEL_FILE_PATTERNS = ["hparams.yaml", "checkpoints/model.ckpt", "README.md", "LICENSE*"]
DOWNLOAD_TARGET = "mteval_gui.app.models:fetch_snapshots"
DOWNLOAD_CHUNK = 1 << 16
STAGING_PREFIX = ".adding-"  # a model folder being copied (mteval_gui.staging)
__all__ = ["INSTALL_HINT", "MODEL_FILE_PATTERNS", "Progress", "human_size", "hub_cache_dir", "cached_bytes",
           "cached_comet_repos", "known_comet_models", "comet_model_status", "download_comet_model",
           "verify_snapshot", "add_comet_model", "added_comet_models"]


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{n} B"  # pragma: no cover


def cached_comet_repos() -> list[str]:
    """Ids of models in the local Hugging Face cache that look like COMET models."""
    try:
        from huggingface_hub import constants, scan_cache_dir
    except ImportError:
        return []
    try:
        info = scan_cache_dir(constants.HF_HUB_CACHE)  # the cache the lookups of scoring use
    except Exception:  # noqa: BLE001 - no cache folder yet, or an unreadable one: nothing cached
        return []
    out = []
    for repo in info.repos:
        if repo.repo_type != "model":
            continue
        files = {f.file_name for rev in repo.revisions for f in rev.files}
        paths = {str(f.file_path) for rev in repo.revisions for f in rev.files}
        if "hparams.yaml" in files and any(p.endswith(os.path.join("checkpoints", "model.ckpt")) for p in paths):
            out.append(repo.repo_id)
    return sorted(out)


def known_comet_models() -> dict[str, list[tuple[str, bool]]]:
    """COMET model id -> [(language code, covered)] from the cards; default models included."""
    from mteval_gui.cards import list_cards
    from mteval_gui.scoring.metrics.comet import AFRICOMET_MODEL, DEFAULT_COMET_MODEL

    models: dict[str, list[tuple[str, bool]]] = {DEFAULT_COMET_MODEL: [], AFRICOMET_MODEL: []}
    for info in list_cards():
        if info.card is None:
            continue
        for key, support in info.card.metric_model_support.items():
            if key.lower().startswith("comet"):
                models.setdefault(support.model, []).append((info.code, support.covered))
    for repo in cached_comet_repos():
        models.setdefault(repo, [])
    return models


def comet_model_status(name: str) -> str:
    """One line: downloaded (revision, size, encoder files) or the command that fetches it."""
    from mteval_gui.scoring.metrics.comet import encoder_files_present, locate_comet_model, read_hparams
    from mteval_gui.scoring.plugins import MetricUnavailable

    try:
        located = locate_comet_model(name)
    except MetricUnavailable:
        return f"not downloaded: run `mteval models download {name}`"
    size = human_size(located.checkpoint.resolve().stat().st_size)
    rev = f"revision {located.revision[:12]}, " if located.revision else ""
    try:
        encoder = read_hparams(located.hparams).get("pretrained_model")
    except MtevalError as exc:
        return f"downloaded ({rev}{size}) but unreadable: {exc}"
    if isinstance(encoder, str) and not encoder_files_present(encoder):
        return (f"downloaded ({rev}{size}) but the tokenizer of its encoder {encoder} is missing: "
                f"run `mteval models download {name}`")
    return f"downloaded ({rev}{size}; encoder {encoder})"


def hub_cache_dir() -> Path | None:
    """The Hugging Face cache scoring reads models from (None without huggingface_hub)."""
    try:
        from huggingface_hub import constants
    except ImportError:
        return None
    return Path(constants.HF_HUB_CACHE)


def cached_bytes(name: str, cache: Path | None) -> int:
    """Bytes of model ``name`` present in the cache (finished and partial files)."""
    if cache is None:
        return 0
    folder = cache / f"models--{name.replace('/', '--')}" / "blobs"
    total = 0
    try:
        for f in folder.iterdir():
            try:
                total += f.stat().st_size
            except OSError:
                continue
    except OSError:
        return 0
    return total


# --------------------------------------------------------------------------- verification


def _git_blob_sha1(path: Path) -> str:
    h = hashlib.sha1(usedforsecurity=False)
    h.update(b"blob %d\0" % path.stat().st_size)
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def verify_snapshot(folder: Path) -> list[str]:
    """Problems with the files of a downloaded snapshot (empty: every file matches its hash).

    In the Hugging Face cache a snapshot file links to ``blobs/<etag>``, and the etag is the
    file's sha256 (large files) or its git object hash (small ones). Files that are not links
    (caches without symbolic links) cannot be checked this way and are left alone.
    """
    problems = []
    for f in sorted(p for p in folder.rglob("*") if p.is_symlink() or p.is_file()):
        if not f.is_symlink():
            continue
        blob = Path(os.path.realpath(f))
        etag = blob.name
        if len(etag) == 64:
            ok = _sha256(blob) == etag
        elif len(etag) == 40:
            ok = _git_blob_sha1(blob) == etag
        else:
            continue
        if not ok:
            problems.append(f"{f.relative_to(folder).as_posix()}: content does not match its hash {etag}")
    return problems


# --------------------------------------------------------------------------- download


def _is_offline_error(exc: BaseException) -> bool:
    names = {type(e).__name__ for e in (exc, exc.__cause__, exc.__context__) if e is not None}
    text = str(exc)
    return bool(names & {"ConnectionError", "ConnectTimeout", "ReadTimeout", "LocalEntryNotFoundError",
                         "OfflineModeIsEnabled", "ProxyError", "SSLError", "NewConnectionError", "gaierror"}) \
        or "Failed to resolve" in text or "Connection refused" in text or "Network is unreachable" in text


def _http_status(exc: BaseException) -> int | None:
    """The HTTP status of a hub error: its response's, else the ``NNN Client Error`` its text
    starts a line with (never any three digits of the text: a port or request id has them)."""
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int):
        return status
    found = re.search(r"(?m)^\s*(\d{3}) (?:Client|Server) Error\b", str(exc))
    return int(found.group(1)) if found else None


def _failure(repo_id: str, exc: BaseException, endpoint: str | None) -> MtevalError:
    name = type(exc).__name__
    where = endpoint or os.environ.get("HF_ENDPOINT") or "huggingface.co"
    if "Gated" in name or _http_status(exc) in (401, 403):
        return MtevalError(f"download of {repo_id} failed: {name}: the model needs a Hugging Face account with "
                           "access: run `huggingface-cli login`")
    if name in ("RepositoryNotFoundError", "EntryNotFoundError", "RevisionNotFoundError"):
        return MtevalError(f"download of {repo_id} failed: {name}: {str(exc).splitlines()[0]} (check the model id)")
    if os.environ.get("HF_HUB_OFFLINE") in ("1", "true", "True") or os.environ.get("TRANSFORMERS_OFFLINE") == "1":
        return MtevalError(f"download of {repo_id} failed: HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE are set: "
                           "unset them to download")
    if _is_offline_error(exc):
        return MtevalError(f"cannot reach {where} to download {repo_id} (no network?): download it on a connected "
                           f"machine with `mteval models download {repo_id}`, copy the model folder here and run "
                           "`mteval models add FOLDER`")
    return MtevalError(f"download of {repo_id} failed: {name}: {str(exc).splitlines()[0] if str(exc) else ''}")


def _watch_bytes(cache: Path, repo_ids: list[str], on_progress: Callable[[Any], None], stop: threading.Event,
                 stage: list[str]) -> None:
    while not stop.wait(0.25):
        on_progress(Progress(sum(cached_bytes(r, cache) for r in repo_ids), 0, stage[0]))


def fetch_snapshots(repo_id: str, *, cache_dir: str, endpoint: str | None, with_encoder: bool,
                    on_progress: Callable[[Any], None], on_partial: Callable[[Any], None],
                    cancel_event: Any) -> dict[str, str]:
    """Child-process target: fetch a COMET model and its encoder's configuration and tokenizer.

    Returns ``{"model": snapshot folder, "encoder": snapshot folder or ""}``.
    """
    import huggingface_hub
    from huggingface_hub import constants as hub_constants
    from huggingface_hub.utils import disable_progress_bars

    from mteval_gui.scoring.metrics.comet import ENCODER_FILE_PATTERNS, read_hparams

    hub_constants.HF_HUB_OFFLINE = False  # the user asked for this download
    # bytes reach the partial file every 64 kB (the library's default is 10 MB): progress moves
    # smoothly and a cancelled download resumes from where it stopped
    hub_constants.DOWNLOAD_CHUNK_SIZE = DOWNLOAD_CHUNK
    disable_progress_bars()  # progress is reported through on_progress
    cache = Path(cache_dir)
    stage = [f"fetching {repo_id}"]
    stop = threading.Event()
    watcher = threading.Thread(target=_watch_bytes, args=(cache, [repo_id], on_progress, stop, stage), daemon=True)
    watcher.start()
    try:
        try:
            folder = Path(huggingface_hub.snapshot_download(repo_id=repo_id, allow_patterns=MODEL_FILE_PATTERNS,
                                                            endpoint=endpoint, cache_dir=cache_dir))
        except Exception as exc:  # every hub/network failure becomes one message saying what to do
            raise _failure(repo_id, exc, endpoint) from exc
        if not (folder / "hparams.yaml").is_file() or not (folder / CHECKPOINT_IN_FOLDER).is_file():
            raise MtevalError(f"{repo_id} is not a COMET model (no hparams.yaml and checkpoints/model.ckpt)")
        encoder_folder = ""
        encoder = read_hparams(folder / "hparams.yaml").get("pretrained_model") if with_encoder else None
        if isinstance(encoder, str) and not Path(encoder).expanduser().is_dir():
            stage[0] = f"fetching the configuration and tokenizer of its encoder {encoder}"
            on_progress(Progress(cached_bytes(repo_id, cache), 0, stage[0]))
            try:
                encoder_folder = huggingface_hub.snapshot_download(
                    repo_id=encoder, allow_patterns=list(ENCODER_FILE_PATTERNS), endpoint=endpoint,
                    cache_dir=cache_dir)
            except Exception as exc:  # every hub/network failure becomes one message saying what to do
                raise _failure(encoder, exc, endpoint) from exc
            if not (Path(encoder_folder) / "config.json").is_file():
                raise MtevalError(f"the encoder {encoder} of {repo_id} has no config.json")
    finally:
        stop.set()
        watcher.join(1.0)
    stage[0] = "verifying"
    on_progress(Progress(cached_bytes(repo_id, cache), 0, "verifying"))
    problems = verify_snapshot(folder) + (verify_snapshot(Path(encoder_folder)) if encoder_folder else [])
    if problems:
        raise MtevalError(f"download of {repo_id} is damaged (download it again): " + "; ".join(problems))
    return {"model": str(folder), "encoder": str(encoder_folder)}


def download_comet_model(name: str, *, endpoint: str | None = None, echo: Callable[[Any], None] = print,
                         on_progress: Callable[[Progress], None] | None = None,
                         cancel: Any = None) -> Path:
    """Fetch COMET model ``name`` and its encoder's configuration/tokenizer; return the checkpoint.

    Uses the network (this is what ``mteval models download`` and the GUI's download run).
    ``cancel`` is a token with ``cancelled`` (a CancelToken): cancelling stops the child process
    at once and raises :class:`~mteval_gui.errors.Cancelled`; the next call resumes.
    """
    from mteval_gui.app.tasks import ProcessJob
    from mteval_gui.scoring.metrics.comet import locate_comet_model, looks_like_path

    if looks_like_path(name) or Path(name).expanduser().exists():
        raise MtevalError(f"{name} is a local path: it is used as it is, nothing to download "
                          "(`mteval models add FOLDER` registers a model folder under a name)")
    cache = hub_cache_dir()
    if cache is None:
        raise DependencyMissing("COMET", INSTALL_HINT)
    echo(f"downloading {name} into {cache} ...")
    job = ProcessJob(DOWNLOAD_TARGET, {"repo_id": name, "cache_dir": str(cache), "endpoint": endpoint,
                                       "with_encoder": True}, kill_after=0.2)  # the child cannot stop by itself
    last = [""]

    def progress(p: Any) -> None:
        if isinstance(p, Progress):
            if on_progress is not None:
                on_progress(p)
            if p.stage != last[0]:
                last[0] = p.stage
                echo(p.stage)

    try:
        job.run(
            progress, lambda _x: None, should_cancel=(lambda: bool(cancel.cancelled)) if cancel is not None else None
        )
    except Cancelled as exc:
        raise Cancelled(f"download of {name} cancelled; the files fetched so far are kept and the next "
                        "download resumes them") from exc
    located = locate_comet_model(name, cache_dir=cache)
    echo(f"{name} is ready: {located.checkpoint}")
    return located.checkpoint


# --------------------------------------------------------------------------- models copied by hand


def added_comet_models() -> dict[str, Path]:
    """Models registered with :func:`add_comet_model`: name -> folder (the staging folders of
    copies that were killed are removed first)."""
    root = added_models_dir()
    out: dict[str, Path] = {}
    if not root.is_dir():
        return out
    remove_abandoned_copies()
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(STAGING_PREFIX)):
        try:
            meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and isinstance(meta.get("name"), str):
            out[meta["name"]] = folder
    return out


def add_comet_model(path: str | Path, *, name: str | None = None, encoder: str | Path | None = None,
                    replace: bool = False) -> tuple[str, Path]:
    """Register a COMET model folder copied by hand (``hparams.yaml`` + ``checkpoints/model.ckpt``).

    The folder is copied into the user's models folder under ``name`` (default: the folder's
    name), with its encoder's configuration and tokenizer (``encoder``, default the folder's
    ``encoder/`` sub-folder, else the encoder must already be in the Hugging Face cache).
    Scoring then finds it offline by that name. Returns (name, folder).
    """
    from mteval_gui.scoring.metrics.comet import encoder_files_present, read_hparams

    src = Path(path).expanduser()
    if not src.is_dir():
        raise MtevalError(f"{src}: not a folder (give the model folder holding hparams.yaml and checkpoints/)")
    if not (src / "hparams.yaml").is_file() or not (src / CHECKPOINT_IN_FOLDER).is_file():
        raise MtevalError(f"{src}: not a COMET model folder (it needs hparams.yaml and "
                          f"{CHECKPOINT_IN_FOLDER.as_posix()})")
    name = name or src.name
    hparams = read_hparams(src / "hparams.yaml")
    enc_src = Path(encoder).expanduser() if encoder is not None else src / "encoder"
    pretrained = hparams.get("pretrained_model")
    if not (enc_src / "config.json").is_file():
        if encoder is not None:
            raise MtevalError(f"{enc_src}: the encoder folder has no config.json")
        if not isinstance(pretrained, str) or not encoder_files_present(pretrained):
            raise MtevalError(f"{src}: the configuration and tokenizer of its encoder {pretrained} are not on this "
                              "machine: copy that folder too and give it with --encoder FOLDER")
        enc_src = None  # type: ignore[assignment]
    root = added_models_dir()
    dest = root / model_slug(name)
    if dest.exists() and not replace:
        raise MtevalError(f"a model named {name!r} is already added ({dest}); use --replace")
    remove_abandoned_copies()
    held = staging_folders.make(root, f"{STAGING_PREFIX}{dest.name}-")
    staging = held.path
    try:
        (staging / CHECKPOINT_IN_FOLDER.parent).mkdir(parents=True)
        shutil.copy2(src / CHECKPOINT_IN_FOLDER, staging / CHECKPOINT_IN_FOLDER)
        if enc_src is not None:
            shutil.copytree(enc_src, staging / "encoder")
            hparams["pretrained_model"] = str((dest / "encoder").resolve())
        import yaml

        (staging / "hparams.yaml").write_text(yaml.safe_dump(hparams, sort_keys=False), encoding="utf-8")
        meta = {
            "name": name,
            "source": str(src.resolve()),
            "added_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "checkpoint_sha256": _sha256(staging / CHECKPOINT_IN_FOLDER),
            "encoder": pretrained,
        }
        (staging / "model.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        staging.rename(dest)
    finally:
        held.close()
    return name, dest


def remove_abandoned_copies() -> list[Path]:
    """Remove the staging folders of model copies (:func:`add_comet_model`) whose process was killed
    (never one still being filled by a running process); returns them."""
    return staging_folders.remove_abandoned(added_models_dir(), STAGING_PREFIX)
