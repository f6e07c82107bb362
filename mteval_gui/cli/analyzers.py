"""``mteval analyzers``: list and install HFST analyzers.

- ``mteval analyzers list`` — for every language card declaring analyzers (and every language
  with installed ones): each kind, installed file, sha256 and whether it matches the card's pin.
- ``mteval analyzers install LANG [PATH_OR_URL] [--sha256 HEX] [--kind strict|descriptive|generator]``
  — install from a local ``.hfstol``/``.deb`` or download from a URL; without PATH_OR_URL the
  card's ``analyzers.source_url`` is downloaded (the user asked for it by running the command).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mteval_gui import paths
from mteval_gui.errors import MtevalError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("analyzers", help="list and install HFST morphological analyzers")
    sub = p.add_subparsers(dest="analyzers_command", metavar="ACTION")
    sub.required = True

    lp = sub.add_parser("list", help="show declared and installed analyzers per language")
    lp.set_defaults(handler=cmd_list)

    ip = sub.add_parser("install", help="install an analyzer from a local file or a URL (.hfstol or .deb)")
    ip.add_argument("lang", help="ISO 639-3 code of the language (e.g. crk)")
    ip.add_argument("source", nargs="?", metavar="PATH_OR_URL",
                    help="a .hfstol or GiellaLT .deb file, or its http(s) URL (default: the card's source_url)")
    ip.add_argument("--sha256", metavar="HEX", help="expected sha256 of the file or package (otherwise the card's pin)")
    ip.add_argument("--kind", choices=("strict", "descriptive", "generator"),
                    help="which analyzer this is (default: recognised from the file name, else strict)")
    ip.add_argument("--timeout", type=float, default=60.0, help="download timeout in seconds (default 60)")
    ip.set_defaults(handler=cmd_install)


def _card(lang: str):
    from mteval_gui.cards import try_load_card

    return try_load_card(lang)


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.cards import list_cards
    from mteval_gui.fst.analyzer import sha256_file
    from mteval_gui.fst.registry import KINDS, declared_file, find_analyzer, read_manifest

    root = paths.analyzers_dir()
    cards = {c.code: c.card for c in list_cards() if c.card is not None}
    langs = {code for code, card in cards.items() if card.analyzers is not None}
    if root.is_dir():
        langs |= {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")}
    print(f"analyzer folder: {root}")
    if not langs:
        print("no language declares or has analyzers")
        return 0
    for lang in sorted(langs):
        card = cards.get(lang)
        name = f" ({card.name})" if card is not None else ""
        print(f"{lang}{name}")
        manifest = read_manifest(lang, root)
        for kind in KINDS:
            declared = declared_file(card, kind)
            path = find_analyzer(card, kind, lang=lang, base=root)
            if path is None and declared is None:
                continue
            if path is None:
                print(f"  {kind:<12} not installed (card expects {declared}); run `mteval analyzers install {lang} PATH_OR_URL`")
                continue
            digest = sha256_file(path)
            pin = None
            if card is not None and card.analyzers is not None:
                pin = card.analyzers.sha256.get(path.name)
            if pin is None:
                check = "no pin"
            elif pin.lower() == digest:
                check = "matches card pin"
            else:
                check = f"DIFFERS from card pin {pin}"
            src = manifest.get(kind, {}).get("source")
            print(f"  {kind:<12} {path}  sha256 {digest} ({check})" + (f"  from {src}" if src else ""))
        if card is not None and card.analyzers is not None and card.analyzers.source_url:
            print(f"  {'source':<12} {card.analyzers.source_url} ({card.analyzers.source_format})")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from mteval_gui.fst.install import install_analyzer, is_url

    card = _card(args.lang)
    source = args.source
    if source is None:
        if card is None or card.analyzers is None or not card.analyzers.source_url:
            raise MtevalError(f"no PATH_OR_URL given and the {args.lang} card declares no analyzers.source_url")
        source = card.analyzers.source_url
    if is_url(source):
        print(f"downloading {source}", file=sys.stderr)
    progress = _DownloadProgress() if is_url(source) else None
    try:
        result = install_analyzer(args.lang, source, card=card, kind=args.kind, sha256=args.sha256,
                                  timeout=args.timeout, on_progress=progress)
    finally:
        if progress is not None:
            progress.close()
    for line in result.lines():
        print(line)
    return 0


class _DownloadProgress:
    def __init__(self) -> None:
        self._tty = sys.stderr.isatty()
        self._drawn = False

    def __call__(self, done: int, total: int | None) -> None:
        if not self._tty:
            return
        mb = done / 1e6
        msg = f"\r  {mb:.1f} MB" + (f" / {total / 1e6:.1f} MB" if total else "")
        sys.stderr.write(msg)
        sys.stderr.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
