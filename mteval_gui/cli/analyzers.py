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
    ip.add_argument("--timeout", type=float, default=60.0,
                    help="network timeout of each read in seconds (default 60)")
    ip.add_argument("--max-time", type=float, default=1800.0, metavar="SECONDS",
                    help="give up a download that takes longer than this in total (default 1800)")
    ip.set_defaults(handler=cmd_install)


def _root(args: argparse.Namespace) -> Any:
    """The analyzer folder: the workspace's setting when the workspace exists, else the default."""
    from mteval_gui.app.analyzers import analyzer_root
    from mteval_gui.cli._common import workspace_path

    path = workspace_path(args)
    if not path.exists():
        return analyzer_root(None)
    from mteval_gui.app.workspace import open_workspace

    ws = open_workspace(path)
    try:
        return analyzer_root(ws)
    finally:
        ws.close()


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app.analyzers import analyzer_report

    root = _root(args)
    print(f"analyzer folder: {root}")
    report = analyzer_report(root)
    if not report:
        print("no language declares or has analyzers")
        return 0
    for lang in report:
        print(lang.lang + (f" ({lang.name})" if lang.name else ""))
        for f in lang.files:
            if f.path is None:
                print(f"  {f.kind:<12} not installed (card expects {f.declared}); "
                      f"run `mteval analyzers install {lang.lang} PATH_OR_URL`")
                continue
            origin = f"  from {f.source}" if f.source else ""
            print(f"  {f.kind:<12} {f.path}  sha256 {f.sha256} ({f.pin_state}){origin}")
        if lang.source_url:
            print(f"  {'source':<12} {lang.source_url} ({lang.source_format})")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from mteval_gui.app.analyzers import InstallCancelled, InstallOptions, install, is_url
    from mteval_gui.cli import EXIT_CANCELLED

    source = args.source
    remote = source is None or is_url(source)
    if remote:
        print(f"downloading {source or 'the card source'}", file=sys.stderr)
    progress = _DownloadProgress() if remote else None
    try:
        options = InstallOptions(root=_root(args), kind=args.kind, sha256=args.sha256, timeout=args.timeout,
                                 max_seconds=args.max_time)
        result = install(args.lang, source, options, on_progress=progress)
    except (KeyboardInterrupt, InstallCancelled):  # the staging folder is already gone
        if progress is not None:
            progress.close()
        print(f"mteval: {'download ' if remote else ''}cancelled; nothing was installed", file=sys.stderr)
        return EXIT_CANCELLED
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
