"""Review campaigns: several speakers rate the same outputs with a planned overlap.

- ``mteval campaign create ID --runs RUN… --reviewers A B… [--overlap K] [--entries N]
  [--select first|random] [--seed N]``
- ``mteval campaign list``
- ``mteval campaign status ID [--json]``: each reviewer's progress and the overlap reached
- ``mteval campaign pack ID --reviewer A -o pack.html [--blind] [--lang en|fr]``: one
  reviewer's share as an offline review pack (its answers come back with ``judgments import``)
- ``mteval campaign delete ID``
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mteval_gui.cli._common import open_workspace


def register(subparsers: Any) -> None:
    cp = subparsers.add_parser("campaign", help="review campaigns: entries rated by several speakers with overlap")
    sub = cp.add_subparsers(dest="campaign_command", metavar="ACTION")
    sub.required = True
    c = sub.add_parser("create", help="plan a campaign: runs, reviewers, overlap, entries")
    c.add_argument("campaign_id", metavar="ID")
    c.add_argument("--runs", nargs="+", required=True, metavar="RUN", help="the runs whose outputs are rated")
    c.add_argument("--reviewers", nargs="+", required=True, metavar="REVIEWER")
    c.add_argument("--overlap", type=int, default=2, metavar="K", help="reviewers per entry (default 2)")
    c.add_argument("--entries", type=int, metavar="N", help="how many entries (default: all of the corpus)")
    c.add_argument("--select", choices=("first", "random", "stratified", "informative"), default="first",
                   help="which entries: the first N in corpus order (default), N drawn with --seed, or the first N "
                        "of the stratified or informative order of review packs")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--by", metavar="NAME", help="who plans it (recorded)")
    c.set_defaults(handler=cmd_create)
    ls = sub.add_parser("list", help="the campaigns of the workspace")
    ls.set_defaults(handler=cmd_list)
    st = sub.add_parser("status", help="each reviewer's progress and the overlap reached")
    st.add_argument("campaign_id", metavar="ID")
    st.add_argument("--json", action="store_true")
    st.set_defaults(handler=cmd_status)
    pk = sub.add_parser("pack", help="one reviewer's share as an offline review pack")
    pk.add_argument("campaign_id", metavar="ID")
    pk.add_argument("--reviewer", required=True, metavar="ID")
    pk.add_argument("--blind", action="store_true", help="hide the reference and the systems; shuffle the items")
    pk.add_argument("--lang", choices=("en", "fr"), help="interface language (default: the browser's)")
    pk.add_argument("-o", "--output", required=True, metavar="FILE.html")
    pk.set_defaults(handler=cmd_pack)
    dl = sub.add_parser("delete", help="forget a campaign (its judgments stay)")
    dl.add_argument("campaign_id", metavar="ID")
    dl.set_defaults(handler=cmd_delete)


def cmd_create(args: argparse.Namespace) -> int:
    from mteval_gui.app.campaigns import create_campaign

    ws = open_workspace(args)
    c = create_campaign(ws, args.campaign_id, args.runs, args.reviewers, overlap=args.overlap, entries=args.entries,
                        select=args.select, seed=args.seed, created_by=args.by)
    shares = ", ".join(f"{r} {len(e)}" for r, e in c.assignment().items())
    print(f"campaign {c.campaign_id}: {len(c.entry_ids)} entries × {len(c.run_ids)} run(s), each rated by "
          f"{c.overlap} of {len(c.reviewers)} reviewers; entries per reviewer: {shares}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app.campaigns import list_campaigns

    for c in list_campaigns(open_workspace(args)):
        print(f"{c.campaign_id}\t{len(c.entry_ids)} entries\truns {' '.join(c.run_ids)}\t"
              f"reviewers {' '.join(c.reviewers)}\toverlap {c.overlap}\t{c.select}\t{c.created_at}")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from mteval_gui.app.campaigns import campaign_status

    s = campaign_status(open_workspace(args), args.campaign_id)
    if args.json:
        print(json.dumps({"campaign": s.campaign.campaign_id, "entries": s.entries, "overlap": s.campaign.overlap,
                          "entries_at_overlap": s.entries_at_overlap, "complete": s.complete,
                          "reviewers": [{"reviewer_id": r.reviewer_id, "assigned": r.assigned, "done": r.done,
                                         "complete": r.complete} for r in s.reviewers]}, indent=2))
        return 0
    for r in s.reviewers:
        print(f"{r.reviewer_id}: {r.done} of {r.assigned} items rated" + (" — complete" if r.complete else ""))
    print(f"overlap {s.campaign.overlap} reached on {s.entries_at_overlap} of {s.entries} entries"
          + (" — campaign complete" if s.complete else ""))
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    from mteval_gui.app.campaigns import export_campaign_pack

    done = export_campaign_pack(open_workspace(args), args.campaign_id, args.reviewer, args.output, blind=args.blind,
                                ui_lang=args.lang)
    print(f"wrote review pack {done.pack_id} to {done.path}: {done.items} items of campaign {args.campaign_id}")
    print(f"answers come back with `mteval judgments import answers-{done.pack_id}.json`")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    from mteval_gui.app.campaigns import delete_campaign

    delete_campaign(open_workspace(args), args.campaign_id)
    print(f"campaign {args.campaign_id} deleted (its judgments stay)")
    return 0
