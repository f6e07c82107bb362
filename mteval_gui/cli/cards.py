"""Language-card commands.

    mteval cards validate [--dir DIR]   every problem of every card (exit 1 if any)
    mteval cards list [--dir DIR]       the cards found, with their status and sha256
    mteval cards show CODE              one card as JSON
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("cards", help="list and validate language cards",
                              description="List and validate language cards (the folder is --dir, else $MTEVAL_CARDS_DIR, "
                                          "else the bundled language_cards).")
    sub = p.add_subparsers(dest="cards_what", metavar="WHAT")
    sub.required = True
    v = sub.add_parser("validate", help="report every problem of every card (exit status 1 if any)")
    v.add_argument("--dir", help="folder of card files")
    v.set_defaults(handler=cmd_validate)
    ls = sub.add_parser("list", help="list the cards with their status")
    ls.add_argument("--dir", help="folder of card files")
    ls.set_defaults(handler=cmd_list)
    sh = sub.add_parser("show", help="print one card as JSON")
    sh.add_argument("code")
    sh.add_argument("--dir", help="folder of card files")
    sh.set_defaults(handler=cmd_show)


def cmd_validate(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards as cards

    infos = cards.list_cards(args.dir)
    problems = cards.validate_all(args.dir)
    for p in problems:
        print(p, file=sys.stderr)
    bad = sum(1 for i in infos if not i.ok)
    if not infos:
        print(f"mteval: no card files in {cards.cards_dir(args.dir)}", file=sys.stderr)
        return 1
    if problems:
        print(f"{bad} of {len(infos)} cards have problems ({len(problems)} in all)", file=sys.stderr)
        return 1
    print(f"{len(infos)} cards valid in {cards.cards_dir(args.dir)}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards as cards

    for info in cards.list_cards(args.dir):
        name = info.card.name if info.card else "?"
        status = "ok" if info.ok else f"{len(info.problems)} problem(s)"
        print(f"{info.code:<5} {name:<20} {status:<14} {info.sha256[:12]}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from mteval_gui.app import standards as cards

    card = cards.load_card(args.code, args.dir)
    print(json.dumps(card.model_dump(mode="json", by_alias=True), ensure_ascii=False, indent=2))
    return 0
