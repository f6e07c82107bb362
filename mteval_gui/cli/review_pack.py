"""Offline review packs for speakers.

- ``mteval review-pack export RUN... --reviewer ID [--task a|b|c] [--entries N] [--blind] [--lang en|fr]
  [--seed N] [--select first|random|stratified|informative] [--checks N] [--repeats N] -o pack.html``: one
  self-contained HTML file (data, code, fonts) that works offline; task a packs choose their entries by
  ``--select`` and carry ``--checks`` attention checks and ``--repeats`` repeated items.

Its answers come back with ``mteval judgments import answers-….json``.
"""

from __future__ import annotations

import argparse
from typing import Any

from mteval_gui.cli._common import open_workspace


def register(subparsers: Any) -> None:
    rp = subparsers.add_parser("review-pack", help="offline review packs for speakers (one HTML file each)")
    sub = rp.add_subparsers(dest="review_pack_command", metavar="ACTION")
    sub.required = True
    ex = sub.add_parser("export", help="write a self-contained HTML review pack for one reviewer")
    ex.add_argument("runs", nargs="+", metavar="RUN")
    ex.add_argument("--reviewer", required=True, metavar="ID", help="the reviewer who will answer the pack")
    ex.add_argument("--task", choices=("a", "b", "c"), default="a",
                    help="a: adequacy/fluency ratings, error spans, corrections (default); b: linter audit; "
                         "c: FST audit")
    ex.add_argument("--entries", type=int, metavar="N", help="at most N items")
    ex.add_argument("--blind", action="store_true", help="hide the reference and the systems; shuffle the items")
    ex.add_argument("--lang", choices=("en", "fr"), help="interface language (default: the browser's)")
    ex.add_argument("--seed", type=int, default=0,
                    help="seed of the blind order, of the selection, of the checks and of task C's sample")
    ex.add_argument("--select", choices=("first", "random", "stratified", "informative"), default="first",
                    help="task a: which entries (first: corpus order, the default; random; stratified by system, "
                         "difficulty and FST verdict; informative: where metrics disagree most, FST verdicts are "
                         "new or systems are separated)")
    ex.add_argument("--checks", type=int, default=0, metavar="N",
                    help="task a: insert N attention checks (known-bad outputs: shuffled words, a wrong sentence, "
                         "truncated) that only the workspace can tell from the real items")
    ex.add_argument("--repeats", type=int, default=0, metavar="N",
                    help="task a: show N items a second time (self-consistency)")
    ex.add_argument("--reference-script", metavar="SCRIPT",
                    help="show the reference in this script first (ISO 15924, e.g. Cans; the target card's "
                         "transliterations must reach it); the page toggles between the scripts")
    ex.add_argument("-o", "--output", required=True, metavar="FILE.html")
    ex.set_defaults(handler=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from mteval_gui.app.review_pack import export_review_pack

    ws = open_workspace(args)
    done = export_review_pack(ws, args.runs, args.reviewer, args.output, task=args.task, entries=args.entries,
                              blind=args.blind, ui_lang=args.lang, seed=args.seed, select=args.select,
                              checks=args.checks, repeats=args.repeats, reference_script=args.reference_script)
    fonts = ", ".join(f"{f['file']} ({f['characters']} characters)" for f in done.fonts) or "none"
    print(f"wrote review pack {done.pack_id} to {done.path}: {done.items} items, {done.bytes / 1024:.0f} KiB; "
          f"fonts: {fonts}")
    if done.missing_characters:
        print(f"warning: no installed font covers {''.join(done.missing_characters)}; the browser's own fonts "
              "will be used for those characters")
    print(f"answers come back with `mteval judgments import answers-{done.pack_id}.json`")
    return 0
