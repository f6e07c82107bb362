"""``mteval calibrate CORPUS... --lang CODE``: fit the composite's weights and tiers to speakers' ratings.

- ``--json`` prints ``{"weights", "weights_ci", "tiers", "tau_b", "evidence"}``;
- ``--write-card [--name NAME] [--make-default]`` keeps the result in the language card as a named
  composite profile with its evidence (scoring uses it only with ``--profile NAME`` or as the
  card's default).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mteval_gui.cli._common import open_workspace, term_safe


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "calibrate", help="fit the composite's weights and tier thresholds of a language to speakers' ratings",
        description="Fit non-negative composite weights summing to 1 and tier thresholds to the speakers' ratings "
                    "of the scored runs of the corpora (task A adequacy and fluency, direct ESA scores where "
                    "present), with bootstrap intervals over entries and cross-validated Kendall tau-b and "
                    "Spearman rho of the seed and fitted weights. Refused below 30 rated items, 2 raters or "
                    "agreement alpha 0.4; warns below 200 items rated by 3 raters, 3 raters or alpha 0.667.")
    p.add_argument("corpora", nargs="+", metavar="CORPUS", help="corpus id (its scored, rated runs take part)")
    p.add_argument("--lang", required=True, metavar="CODE", help="the corpora's target language (ISO 639-3)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--write-card", action="store_true",
                   help="keep the result in the language card as a named composite profile with its evidence")
    p.add_argument("--name", default="calibrated", metavar="NAME",
                   help="the profile's name in the card (default 'calibrated')")
    p.add_argument("--make-default", action="store_true",
                   help="with --write-card: scoring uses this profile when none is named")
    p.add_argument("--seed", type=int, default=12345, help="bootstrap and fold seed (default 12345)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--folds", type=int, default=5, metavar="K", help="cross-validation folds over entries (default 5)")
    p.set_defaults(handler=cmd_calibrate)


def _ci(ci: Any) -> str:
    return "" if not ci else f" [{ci[0]:.3f}, {ci[1]:.3f}]"


def _num(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def cmd_calibrate(args: argparse.Namespace) -> int:
    from mteval_gui.app.calibration import calibration_study, write_profile

    if args.bootstrap < 100 or args.folds < 2:
        print(f"mteval: --bootstrap needs at least 100 resamples and --folds at least 2 "
              f"(given {args.bootstrap} and {args.folds})", file=sys.stderr)
        return 2
    ws = open_workspace(args)
    outcome = calibration_study(ws, args.corpora, args.lang, n_bootstrap=args.bootstrap, seed=args.seed,
                                folds=args.folds)
    written = write_profile(outcome, args.name, make_default=args.make_default) if args.write_card else None
    if args.json:
        doc = outcome.to_json()
        if written is not None:
            doc["evidence"]["card"] = {"path": str(written), "profile": args.name,  # type: ignore[index]
                                       "default": bool(args.make_default)}
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 0
    c = outcome.calibration
    ev = c.evidence
    out = sys.stdout
    out.write(f"calibration of {args.lang} (profile {c.profile} inputs) over {', '.join(args.corpora)}\n")
    out.write(f"evidence: {ev['items']} items ({ev['entries']} entries, {len(ev['runs'])} runs), "
              f"{ev['ratings']} ratings by {ev['raters']} raters, alpha {_num(ev['alpha'])}"
              f"{_ci(ev['alpha_ci']) if ev['alpha'] is not None else ''}\n")
    for rid, why in (ev.get("excluded_raters") or {}).items():
        out.write(term_safe(f"  left out: {rid} ({why})") + "\n")
    for w in c.warnings:
        out.write(f"warning: {w}\n")
    out.write("\nweights (95% bootstrap interval over entries)       seed\n")
    for k in c.keys:
        out.write(f"  {k:<26} {c.weights[k]:.3f}{_ci(c.weights_ci.get(k)):<18}  {c.seed_weights[k]:.3f}\n")
    for k, why in c.left_out.items():
        out.write(f"  {k:<26} not fitted: {why}\n")
    out.write("\ntier thresholds (composite where the fitted line reaches the tier's mean rating)\n")
    from mteval_gui.app.calibration import TIER_RATINGS

    for t, v in c.thresholds.items():
        flag = "  (extrapolated)" if t in c.extrapolated else ""
        out.write(f"  {t:<11} >= {v:.3f}{_ci(c.thresholds_ci.get(t)):<18} rating {TIER_RATINGS[t]:g}{flag}\n")
    out.write("\ncorrelation with the speakers' scores (calibrated: cross-validated over entries)\n")
    for name in ("seed", "calibrated"):
        kc, sc = c.kendall[name], c.spearman[name]
        out.write(f"  {name:<11} tau-b {_num(kc.value)}"
                  f"{_ci([kc.ci_lower, kc.ci_upper]) if kc.ci_lower is not None else ''}"
                  f"   Spearman {_num(sc.value)}{_ci([sc.ci_lower, sc.ci_upper]) if sc.ci_lower is not None else ''}\n")
    changed = [r for r in outcome.runs if r.changed]
    out.write(f"\nruns that would change tier: {len(changed)} of {len(outcome.runs)}\n")
    for r in changed:
        out.write(term_safe(f"  {r.run_id}: {r.seed_tier} ({_num(r.seed_composite)}) -> {r.calibrated_tier} "
                            f"({_num(r.calibrated_composite)})") + "\n")
    for rid, why in outcome.skipped_runs.items():
        out.write(term_safe(f"  {rid}: not used ({why})") + "\n")
    if written is not None:
        out.write(f"\nwritten to {written} as profile {args.name!r}"
                  f"{' (the default)' if args.make_default else ''}\n")
    return 0
