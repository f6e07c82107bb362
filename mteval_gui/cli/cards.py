"""Language-card and plugin commands.

    mteval cards validate [--dir DIR]       every problem of every card and plugin (exit 1 if any)
    mteval cards list [--dir DIR]           the cards found, with their source, status and sha256
    mteval cards show CODE                  one card as JSON
    mteval cards add FILE [--replace]       check a card and copy it to the user cards folder
    mteval plugins                          installed plugin packages: packages, cards, suites, problems

Cards are read from the user cards folder, the bundled cards ($MTEVAL_CARDS_DIR replaces
them) and the cards folders of installed plugins, in that order; ``--dir`` reads one folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mteval_gui.app.standards import CardReport


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("cards", help="list, validate and add language cards",
                              description="List, validate and add language cards. Cards come from the user cards "
                                          "folder, the bundled cards ($MTEVAL_CARDS_DIR replaces them) and installed "
                                          "plugin packages; --dir reads one folder instead.")
    sub = p.add_subparsers(dest="cards_what", metavar="WHAT")
    sub.required = True
    v = sub.add_parser("validate", help="report every problem of every card and plugin (exit status 1 if any)")
    v.add_argument("--dir", help="folder of card files (instead of the user, bundled and plugin cards)")
    v.set_defaults(handler=cmd_validate)
    ls = sub.add_parser("list", help="list the cards with their source and status")
    ls.add_argument("--dir", help="folder of card files")
    ls.set_defaults(handler=cmd_list)
    sh = sub.add_parser("show", help="print one card as JSON")
    sh.add_argument("code")
    sh.add_argument("--dir", help="folder of card files")
    sh.set_defaults(handler=cmd_show)
    ad = sub.add_parser("add", help="check a card file and copy it to the user cards folder as CODE.json")
    ad.add_argument("file", metavar="FILE")
    ad.add_argument("--replace", action="store_true",
                    help="use this card even though a card for its code exists (bundled, plugin or user)")
    ad.set_defaults(handler=cmd_add)
    pl = subparsers.add_parser("plugins", help="list installed plugin packages (language standards, suites)")
    pl.set_defaults(handler=cmd_plugins)


def _where(report: CardReport) -> str:
    return ", ".join(f"{s.label} {s.folder}" for s in report.sources)


def cmd_validate(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards

    report = standards.card_report(args.dir)
    for p in report.problems:
        print(p, file=sys.stderr)
    for n in report.notes:
        print(f"note: {n}")
    if not report.files:
        print(f"mteval: no card files in {_where(report)}", file=sys.stderr)
        return 1
    if report.problems:
        bad = sum(1 for i in report.files if not i.ok)
        print(f"{bad} of {len(report.files)} cards have problems ({len(report.problems)} in all)", file=sys.stderr)
        return 1
    print(f"{len(report.files)} cards valid in {_where(report)}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards

    report = standards.card_report(args.dir)
    used = {id(i) for i in report.used.values()}
    for info in report.files:
        name = info.card.name if info.card else "?"
        status = "ok" if info.ok else f"{len(info.problems)} problem(s)"
        source = info.source.label if info.source is not None else ""
        if id(info) not in used and args.dir is None:
            status += " (not used)"
        print(f"{info.code:<5} {name:<20} {source:<22} {status:<14} {info.sha256[:12]}  {info.path}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards

    card = standards.load_card(args.code, args.dir)
    print(json.dumps(card.model_dump(mode="json", by_alias=True), ensure_ascii=False, indent=2))
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards
    from mteval_gui.errors import CardError

    try:
        added = standards.add_card(args.file, replace=args.replace)
    except CardError as exc:
        for p in exc.problems:
            print(f"{args.file}: {p}", file=sys.stderr)
        print("mteval: the card was not added; nothing was written", file=sys.stderr)
        return 1
    info = added.info
    name = info.card.name if info.card is not None else info.code
    print(f"added {name} ({info.code}) as {info.path}")
    if added.replaced is not None:
        print(f"it replaces the {added.replaced.source.label if added.replaced.source else ''} card "
              f"{added.replaced.path}")
    return 0


def cmd_plugins(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards

    plugins = standards.check_plugins()
    for p in plugins.plugins:
        where = f"{p.distribution or '?'} {p.version or ''}".strip()
        print(f"{p.name}  ({where}; {p.entry_point}{', from the source checkout' if p.from_checkout else ''})")
        print(f"  packages: {', '.join(p.packages)}")
        if p.cards_dir is not None:
            print(f"  cards: {p.cards_dir}")
        for s in p.suites:
            print(f"  suite: {s.name} ({s.title})")
    if not plugins.plugins:
        print("no plugin package is installed")
    for prob in plugins.problems:
        print(str(prob), file=sys.stderr)
    return 1 if plugins.problems else 0
