"""The optional neural models (COMET, embeddings): what the cards name, what is on this machine,
and the one explicit, user-started download.

Downloading is the only place the application uses the network for models, and it happens
only when the user asks (``mteval models download`` or the GUI's download button); scoring
loads models offline. Shared by the CLI and the GUI.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mteval_gui.errors import DependencyMissing, MtevalError

from mteval_gui.scoring.metrics.comet import INSTALL_HINT

MODEL_FILE_PATTERNS = ["hparams.yaml", "checkpoints/model.ckpt", "README.md", "LICENSE*"]
__all__ = ["INSTALL_HINT", "MODEL_FILE_PATTERNS", "human_size", "cached_comet_repos", "known_comet_models",
           "comet_model_status", "download_comet_model"]


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
    except Exception:  # no cache folder yet, or an unreadable one: nothing cached
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


def _snapshot(hub: Any, repo_id: str, patterns: list[str], *, endpoint: str | None) -> Path:
    try:
        return Path(hub.snapshot_download(repo_id=repo_id, allow_patterns=patterns, endpoint=endpoint))
    except Exception as exc:  # every hub/network failure is reported with what to do
        name = type(exc).__name__
        hint = ""
        if "Gated" in name or "401" in str(exc) or "403" in str(exc):
            hint = " (the model needs a Hugging Face account with access: run `huggingface-cli login`)"
        elif "NotFound" in name or "404" in str(exc):
            hint = " (check the model id)"
        elif os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE"):
            hint = " (HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE are set: unset them to download)"
        raise MtevalError(f"download of {repo_id} failed: {name}: {exc}{hint}") from exc


def download_comet_model(name: str, *, endpoint: str | None = None, echo: Any = print) -> Path:
    """Fetch COMET model ``name`` and its encoder's configuration/tokenizer; return the checkpoint.

    Uses the network (this function is what ``mteval models download`` runs). Files go to the
    Hugging Face cache, where scoring finds them offline.
    """
    from mteval_gui.scoring.metrics.comet import (
        ENCODER_FILE_PATTERNS,
        INSTALL_HINT,
        encoder_files_present,
        locate_comet_model,
        looks_like_path,
        read_hparams,
    )

    if looks_like_path(name) or Path(name).expanduser().exists():
        raise MtevalError(f"{name} is a local path: it is used as it is, nothing to download")
    try:
        import huggingface_hub as hub
    except ImportError as exc:
        raise DependencyMissing("COMET", INSTALL_HINT) from exc
    offline_saved = getattr(hub.constants, "HF_HUB_OFFLINE", False)
    hub.constants.HF_HUB_OFFLINE = False  # the user asked for this download
    try:
        echo(f"downloading {name} ...")
        folder = _snapshot(hub, name, MODEL_FILE_PATTERNS, endpoint=endpoint)
        hparams_path = folder / "hparams.yaml"
        if not hparams_path.is_file() or not (folder / "checkpoints" / "model.ckpt").is_file():
            raise MtevalError(f"{name} is not a COMET model (no hparams.yaml and checkpoints/model.ckpt)")
        encoder = read_hparams(hparams_path).get("pretrained_model")
        if isinstance(encoder, str) and not Path(encoder).expanduser().is_dir():
            echo(f"downloading the configuration and tokenizer of its encoder {encoder} ...")
            _snapshot(hub, encoder, list(ENCODER_FILE_PATTERNS), endpoint=endpoint)
            if not encoder_files_present(encoder):
                raise MtevalError(f"the encoder {encoder} of {name} has no config.json")
    finally:
        hub.constants.HF_HUB_OFFLINE = offline_saved
    located = locate_comet_model(name)
    echo(f"{name} is ready: {located.checkpoint}")
    return located.checkpoint
