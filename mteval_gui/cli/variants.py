"""Accepted variants from speakers: promote corrections and approved outputs into a new corpus version.

- ``mteval variants promote RUN... [--basis correction|adequacy5|task_b ...] [--reviewer ID] [--entry ID ...]
  [--by NAME] [--dry-run] [--json]``; texts are printed with terminal controls escaped (``term_safe``)
- ``mteval variants versions CORPUS [--json]``: the corpus's versions and the variants each added
  (with the dialect of the reviewer each came from).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mteval_gui.cli._common import open_workspace, term_safe
from mteval_gui.errors import MtevalError


def register(subparsers: Any) -> None:
    vp = subparsers.add_parser("variants", help="accepted variants that came from speakers (corpus versions)")
    sub = vp.add_subparsers(dest="variants_command", metavar="ACTION")
    sub.required = True
    pr = sub.add_parser("promote", help="turn speakers' corrections and approved outputs into accepted variants")
    pr.add_argument("runs", nargs="+", metavar="RUN")
    pr.add_argument("--basis", dest="bases", action="append", choices=("correction", "adequacy5", "task_b"),
                    help="what to promote (repeat; default all: corrections, adequacy-5 outputs, Task B Yes/Yes)")
    pr.add_argument("--reviewer", metavar="ID", help="only this reviewer's judgments")
    pr.add_argument("--entry", dest="entries", action="append", metavar="ID", help="only these entries (repeat)")
    pr.add_argument("--by", metavar="NAME", help="who decides the promotion (kept with the new version)")
    pr.add_argument("--dry-run", action="store_true", help="list what would be added, change nothing")
    pr.add_argument("--json", action="store_true")
    pr.set_defaults(handler=cmd_promote)
    vs = sub.add_parser("versions", help="the versions of a corpus and the variants speakers added")
    vs.add_argument("corpus", metavar="CORPUS")
    vs.add_argument("--json", action="store_true")
    vs.set_defaults(handler=cmd_versions)


def cmd_promote(args: argparse.Namespace) -> int:
    from mteval_gui.app.variants import BASES, promote_variants, promotion_json

    ws = open_workspace(args)
    done = promote_variants(ws, args.runs, bases=args.bases or BASES, reviewer_id=args.reviewer,
                            entry_ids=args.entries, by=args.by, dry_run=args.dry_run)
    if args.json:
        print(json.dumps([promotion_json(p) for p in done], ensure_ascii=False, indent=2))
        return 0
    for p in done:
        verb = "would add" if args.dry_run else "added"
        target = "" if args.dry_run or p.new_version is None else f": version {p.old_version} -> {p.new_version}"
        print(f"corpus {p.corpus_id}{target}; {verb} {len(p.added)} variant{'s' if len(p.added) != 1 else ''}, "
              f"skipped {len(p.skipped)}")
        for c in p.added:
            dialect = f", dialect {c.dialect}" if c.dialect else ""
            print(term_safe(f"  + {c.entry_id}: {c.variant}  ({c.basis}, {c.reviewer_id}{dialect}, run {c.run_id})"))
        for c in p.also:
            print(term_safe(f"  = {c.entry_id}: {c.variant}  ({c.basis}, {c.reviewer_id}, dialect {c.dialect}, "
                            f"run {c.run_id}): also accepted for this dialect"))
        already = [c for c, why in p.skipped if why.startswith("already")]
        for c, why in p.skipped:
            if not why.startswith("already"):
                print(term_safe(f"  - {c.entry_id}: not added, {why} ({c.basis}, {c.reviewer_id}, run {c.run_id})"))
        if already:  # one line for them all: the corpus has these texts already
            ids = ", ".join(dict.fromkeys(c.entry_id for c in already))
            print(term_safe(f"  - {len(already)} not added, already the reference or an accepted variant: {ids}"))
    if not any(p.added for p in done):
        raise MtevalError("nothing to promote: no correction, adequacy-5 output or Task B Yes/Yes answer adds a "
                          "variant the corpus lacks")
    if not args.dry_run:
        print("rescore the runs (`mteval score RUN`) to use the new variants; earlier run cards keep "
              "naming the version they were scored on")
    return 0


def cmd_versions(args: argparse.Namespace) -> int:
    from mteval_gui.app.variants import corpus_versions

    ws = open_workspace(args)
    rows = corpus_versions(ws, args.corpus)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print(f"corpus {args.corpus} has no speaker versions yet")
        return 0
    for v in rows:
        print(term_safe(f"{v['version']:<12} sha256 {v['sha256'][:12]}…  {v['created_at']}  "
                        f"{len(v['changes'])} variants{'  by ' + v['created_by'] if v['created_by'] else ''}"))
        for c in v["changes"]:
            dialect = f", accepted for {c['dialect']}" if c.get("dialect") else ""
            origin = f"{c.get('basis')}, {c.get('reviewer_id')}{dialect}"
            print(term_safe(f"  {'=' if c.get('also') else '+'} {c['entry_id']}: {c['variant']}  ({origin})"))
    return 0
