"""Speaker review from the command line: reviewers, judgment files, validation, sign-off.

- ``mteval reviewers add ID --name NAME [--dialect D] [--language L ...] [--consent TEXT]``; a reviewer who
  withdrew is added again only with ``--readmit --consent TEXT --by NAME`` (logged as ``readmit``)
- ``mteval reviewers list [--json]``
- ``mteval reviewers export ID -o FILE`` (their own judgments), ``mteval reviewers withdraw ID --by NAME --yes``
  (consent withdrawn: judgments deleted, audit record of when and by whom), ``mteval reviewers consent-log``
- ``mteval judgments export RUN... | --all -o FILE [--format csv|json]``
- ``mteval judgments import FILE [--format csv|json]``; ``--from appraise`` (Appraise's score CSV) or
  ``--from pearmut`` (Pearmut's annotation log) reads annotations of an exported campaign
- ``mteval judgments allowlist RUN... -o FILE.tsv|FILE.jsonl`` (Task C words speakers accept)
- ``mteval validate RUN... [--metric ID ...] [--aspect adequacy|fluency|mean] [--json]``
- ``mteval signoff RUN --reviewer ID confirm|reject [--tier TIER] [--note TEXT]``: confirming a
  tier needs speakers' task A ratings that support it, confirmed by a speaker who rated the run
  (the rule table of :mod:`mteval_gui.domain.signoff`, printed by ``mteval signoff --help``);
  otherwise it is refused, saying what is missing or what the ratings say.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mteval_gui.cli._common import open_workspace, term_safe
from mteval_gui.errors import MtevalError


def register(subparsers: Any) -> None:
    rp = subparsers.add_parser("reviewers", help="manage the speakers who review outputs")
    rsub = rp.add_subparsers(dest="reviewers_command", metavar="ACTION")
    rsub.required = True
    add = rsub.add_parser("add", help="add a reviewer")
    add.add_argument("reviewer_id", metavar="ID", help="short identifier (kept in every judgment)")
    add.add_argument("--name", required=True, help="name or pseudonym")
    add.add_argument("--dialect", help="dialect or variety the reviewer speaks")
    add.add_argument("--language", dest="languages", action="append", default=[], metavar="CODE",
                     help="a language the reviewer reads (ISO 639-3; repeat for several)")
    add.add_argument("--consent", dest="consent_scope", metavar="TEXT", help="what the reviewer consented to")
    add.add_argument("--readmit", action="store_true",
                     help="add again a reviewer who withdrew consent (needs --consent and --by; their "
                          "judgments of before the withdrawal never return)")
    add.add_argument("--by", metavar="NAME", help="with --readmit: who re-adds the reviewer (kept in the consent log)")
    add.set_defaults(handler=cmd_reviewers_add)
    ex_own = rsub.add_parser("export", help="export one reviewer's own judgments (every version) and details")
    ex_own.add_argument("reviewer_id", metavar="ID")
    ex_own.add_argument("-o", "--output", required=True, metavar="FILE", help="output file (.csv or .json)")
    ex_own.add_argument("--format", choices=("csv", "json"), help="file format (default: from the file name)")
    ex_own.set_defaults(handler=cmd_reviewers_export)
    wd = rsub.add_parser("withdraw", help="delete a reviewer's judgments and details (consent withdrawn)")
    wd.add_argument("reviewer_id", metavar="ID")
    wd.add_argument("--by", required=True, metavar="NAME", help="who withdraws them (kept in the audit record)")
    wd.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    wd.set_defaults(handler=cmd_reviewers_withdraw)
    cl = rsub.add_parser("consent-log", help="when and by whom judgments were withdrawn")
    cl.set_defaults(handler=cmd_consent_log)
    ls = rsub.add_parser("list", help="list reviewers")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(handler=cmd_reviewers_list)

    jp = subparsers.add_parser("judgments", help="export and import speaker judgments")
    jsub = jp.add_subparsers(dest="judgments_command", metavar="ACTION")
    jsub.required = True
    ex = jsub.add_parser("export", help="write reviewers and the complete judgment log (CSV or JSON)")
    ex.add_argument("runs", nargs="*", metavar="RUN", help="runs whose judgments to export")
    ex.add_argument("--all", action="store_true", help="every reviewer and judgment of the workspace")
    ex.add_argument("-o", "--output", required=True, metavar="FILE", help="output file (.csv or .json)")
    ex.add_argument("--format", choices=("csv", "json"), help="file format (default: from the file name)")
    ex.set_defaults(handler=cmd_export)
    im = jsub.add_parser("import", help="merge a judgment file into the workspace (all or nothing)")
    im.add_argument("file", metavar="FILE")
    im.add_argument("--format", choices=("csv", "json"), help="file format (default: from the file name)")
    im.add_argument("--from", dest="source", choices=("mteval", "appraise", "pearmut"), default="mteval",
                    help="whose file: a judgment file (default), Appraise's score export (CSV) or Pearmut's "
                         "annotation log (JSONL) of a campaign `mteval export appraise|pearmut` wrote")
    im.set_defaults(handler=cmd_import)
    al = jsub.add_parser("allowlist", help="export words speakers accepted but the analyzer rejected (Task C)")
    al.add_argument("runs", nargs="+", metavar="RUN")
    al.add_argument("-o", "--output", required=True, metavar="FILE", help=".tsv (allowlist) or .jsonl (test cases)")
    al.set_defaults(handler=cmd_allowlist)

    vp = subparsers.add_parser("validate", help="agreement and metric-human correlation from speaker judgments")
    vp.add_argument("runs", nargs="+", metavar="RUN")
    vp.add_argument("--metric", dest="metrics", action="append", metavar="ID",
                    help="metric id to correlate (repeat; default: every metric with per-entry values)")
    vp.add_argument("--aspect", choices=("adequacy", "fluency", "mean"), default="adequacy",
                    help="human score to correlate with (default adequacy)")
    vp.add_argument("--bootstrap", type=int, default=1000, metavar="B", help="bootstrap resamples (default 1000)")
    vp.add_argument("--seed", type=int, default=12345, help="bootstrap seed (default 12345)")
    vp.add_argument("--short-bleu", action="store_true",
                    help="correlate BLEU even when the median reference has fewer than 4 tokens "
                         "(caveat short_segments)")
    vp.add_argument("--goal-width", type=float, metavar="W",
                    help="also report how many items (rated by 3 speakers) make each τ-b interval at most W wide")
    vp.add_argument("--json", action="store_true", help="print the full study as JSON (with scatter points)")
    vp.set_defaults(handler=cmd_validate)

    from mteval_gui.domain.signoff import rules_table

    sp = subparsers.add_parser(
        "signoff", help="confirm or reject a run's tier claim after speaker review",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Confirming a tier needs task A ratings (1-5) by speakers, reviewers whose record lists the run's\n"
               "target language (other reviewers' ratings do not count), and the reviewer who confirms must be\n"
               "a speaker who rated entries of the run. Medians pool every speaker rating; Krippendorff's α\n"
               "(ordinal) applies to adequacy and to fluency, and when it is not computable (every rating the\n"
               "same, or no entry rated twice) the tier is not confirmed. Rejecting needs no ratings.\n"
               "The ratings of a reviewer that quality control flags (failed attention checks, inconsistent\n"
               "repeats, no agreement with the others: `mteval validate` lists them) do not count either,\n"
               "and such a reviewer cannot confirm.\n\n"
               + rules_table())
    sp.add_argument("run", metavar="RUN")
    sp.add_argument("--reviewer", required=True, metavar="ID")
    sp.add_argument("decision", choices=("confirm", "reject"))
    sp.add_argument("--tier", help="the tier the decision is about (default: the run's current tier)")
    sp.add_argument("--note", help="reason or remarks")
    sp.set_defaults(handler=cmd_signoff)


# --------------------------------------------------------------------------- reviewers


def cmd_reviewers_add(args: argparse.Namespace) -> int:
    from mteval_gui.app.review import add_reviewer
    from mteval_gui.domain.judgments import Reviewer

    if args.readmit and not args.by:
        raise MtevalError("--readmit needs --by NAME: who re-adds the reviewer (kept in the consent log)")
    ws = open_workspace(args)
    r = add_reviewer(ws, Reviewer(reviewer_id=args.reviewer_id, name=args.name, dialect=args.dialect,
                                  languages=args.languages, consent_scope=args.consent_scope),
                     readmit=args.readmit, done_by=args.by)
    if args.readmit:
        print(term_safe(f"re-added reviewer {r.reviewer_id} ({r.name}) with new consent: {r.consent_scope}; "
                        "their judgments of before the withdrawal stay withdrawn"))
    else:
        print(term_safe(f"added reviewer {r.reviewer_id} ({r.name})"))
    return 0


def cmd_reviewers_list(args: argparse.Namespace) -> int:
    from mteval_gui.app.review import judgment_counts, list_reviewers

    ws = open_workspace(args)
    reviewers = list_reviewers(ws)
    counts = judgment_counts(ws)
    if args.json:
        print(json.dumps([{**r.model_dump(), "judgments": counts.get(r.reviewer_id, 0)} for r in reviewers],
                         ensure_ascii=False, indent=2))
        return 0
    if not reviewers:
        print("no reviewers yet: add one with `mteval reviewers add ID --name NAME`")
        return 0
    print(f"{'id':<14} {'name':<24} {'dialect':<18} {'languages':<12} {'judgments':>9}  consent")
    for r in reviewers:
        print(term_safe(f"{r.reviewer_id:<14} {r.name:<24} {r.dialect or '-':<18} {','.join(r.languages) or '-':<12} "
                        f"{counts.get(r.reviewer_id, 0):>9}  {r.consent_scope or '-'}"))
    return 0


def cmd_reviewers_export(args: argparse.Namespace) -> int:
    from mteval_gui.app.consent import export_reviewer_judgments

    ws = open_workspace(args)
    path, n = export_reviewer_judgments(ws, args.reviewer_id, args.output, args.format)
    print(f"wrote {n} judgment versions of {args.reviewer_id} to {path}")
    return 0


def cmd_reviewers_withdraw(args: argparse.Namespace) -> int:
    from mteval_gui.app.consent import judged_runs, review_after_withdrawal, withdraw_reviewer

    if not args.yes:
        raise MtevalError(f"withdrawing deletes every judgment of {args.reviewer_id} and cannot be undone: "
                          "export them first (`mteval reviewers export`) if they want a copy, then add --yes")
    ws = open_workspace(args)
    runs = judged_runs(ws, args.reviewer_id)
    record = withdraw_reviewer(ws, args.reviewer_id, args.by)
    print(f"withdrew the judgments of {record['reviewer_id']} ({record['done_at']}, by {record['done_by']})")
    for read in review_after_withdrawal(ws, runs):  # a confirmed tier may have lost the ratings behind it
        review = read.card.human_review
        print(term_safe(f"  {read.card.run_id}: speaker review now {review.judgments} judgment(s) by "
                        f"{review.reviewers} reviewer(s); tier {read.tier_display}"))
    return 0


def cmd_consent_log(args: argparse.Namespace) -> int:
    from mteval_gui.app.consent import consent_log

    ws = open_workspace(args)
    for r in consent_log(ws):
        print(term_safe(f"{r['done_at']}  {r['action']:<9} {r['reviewer_id']:<14} by {r['done_by']}"))
    return 0


# --------------------------------------------------------------------------- files


def cmd_export(args: argparse.Namespace) -> int:
    from mteval_gui.app.exports import export_judgments

    if args.all == bool(args.runs):
        raise MtevalError("give the runs to export, or --all (not both)")
    ws = open_workspace(args)
    path, n_log, n_reviewers = export_judgments(ws, args.output, args.format, None if args.all else args.runs)
    print(f"wrote {n_log} judgment versions and {n_reviewers} reviewers to {path}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from mteval_gui.app.judgment_files import import_judgments_file

    ws = open_workspace(args)
    source = getattr(args, "source", "mteval")
    if source == "appraise":
        from mteval_gui.app.exchange import import_appraise

        s = import_appraise(ws, args.file)
    elif source == "pearmut":
        from mteval_gui.app.exchange import import_pearmut

        s = import_pearmut(ws, args.file)
    else:
        s = import_judgments_file(ws, args.file, fmt=args.format)
    print(f"imported {s['judgments_added']} judgments ({s['judgments_unchanged']} already present), "
          f"{s['reviewers_added']} new reviewers ({s['reviewers_unchanged']} already present)")
    if "benchmark_ratings_added" in s:
        print(f"imported {s['benchmark_ratings_added']} ratings of benchmark responses "
              f"({s['benchmark_ratings_unchanged']} already present)")
    if s.get("checks_skipped"):
        print(f"{s['checks_skipped']} check rows (CHK, BAD, REF) left out")
    if s.get("submissions_superseded"):
        print(f"{s['submissions_superseded']} earlier submissions superseded or reset")
    if s.get("spans_skipped"):
        print(f"{s['spans_skipped']} spans without a severity (undecided or neutral) left out")
    for notice in s.get("notices", []):
        print(term_safe(notice))
    return 0


def cmd_allowlist(args: argparse.Namespace) -> int:
    from mteval_gui.app.audits import allowlist_rows, fst_audit
    from mteval_gui.app.exports import export_allowlist

    ws = open_workspace(args)
    audit = fst_audit(ws, args.runs)
    rows = allowlist_rows(audit)
    path = export_allowlist(rows, args.output)
    print(
        f"wrote {len(rows)} words to {path} ({audit.valid} valid of {audit.valid + audit.invalid} decided occurrences)"
    )
    return 0


# --------------------------------------------------------------------------- validate


def _num(v: float | None, digits: int = 3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def _with_ci(value: float | None, lo: float | None, hi: float | None) -> str:
    if value is None:
        return "n/a"
    if lo is None or hi is None:
        return f"{value:.3f}"
    return f"{value:.3f} [{lo:.3f}, {hi:.3f}]"


def cmd_validate(args: argparse.Namespace) -> int:
    from mteval_gui.app.audits import fst_audit, linter_audit
    from mteval_gui.app.documents import document_study
    from mteval_gui.app.review import esa_scores
    from mteval_gui.app.reviewer_qc import reviewer_quality
    from mteval_gui.app.sampling import width_projections
    from mteval_gui.app.study import validation_study

    ws = open_workspace(args)
    study = validation_study(
        ws, args.runs, args.metrics, aspect=args.aspect, n_bootstrap=args.bootstrap, seed=args.seed,
        short_bleu=args.short_bleu,
    )
    lint = linter_audit(ws, args.runs)
    fst = fst_audit(ws, args.runs)
    esa = esa_scores(ws, args.runs)
    quality = reviewer_quality(ws)
    widths = width_projections(study, args.goal_width)
    documents = document_study(ws, args.runs, n_bootstrap=args.bootstrap, seed=args.seed)
    if args.json:
        doc = {"runs": list(args.runs), **study.to_json(), "linter_audit": [r.to_json() for r in lint],
               "fst_audit": fst.to_json(), "esa": {run_id: e.to_json() for run_id, e in esa.items()},
               "reviewer_quality": [q.to_json() for q in quality.values()],
               "projected_width": [w.to_json() for w in widths],
               **({"documents": documents.to_json()} if documents.judgments else {})}
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=2, default=list)
        print()
        return 0
    out = sys.stdout
    p = study.progress
    share = min(1.0, p.items_at_target / p.target_items) if p.target_items else 1.0
    out.write(f"runs: {', '.join(args.runs)}\n")
    out.write(f"progress: {p.items_rated} items rated, {p.items_at_target} by {p.target_raters}+ reviewers "
              f"({share:.0%} of the {p.target_items}-item target), {p.raters} reviewer{'s' if p.raters != 1 else ''}"
              f"{'  [target met]' if p.target_met else ''}\n")
    out.write("\nagreement (Krippendorff's alpha, ordinal; 95% bootstrap CI over items):\n")
    for aspect, a in study.agreement.items():
        out.write(
            f"  {aspect:<9} {_with_ci(a.alpha, a.ci_lower, a.ci_upper):<28} {a.units} items, "
            f"{a.pairable_values} ratings\n"
        )
    if study.dialects:
        out.write("\nagreement within and across dialects (Krippendorff's alpha, ordinal; 95% bootstrap CI):\n")
        for aspect, d in study.dialects.items():
            for dialect, a in d.within.items():
                n, alpha = d.raters[dialect], _with_ci(a.alpha, a.ci_lower, a.ci_upper)
                out.write(term_safe(f"  {aspect:<9} within {dialect:<16} {alpha:<28} "
                                    f"{a.units} items, {n} reviewer{'s' if n != 1 else ''}") + "\n")
            x = d.across
            out.write(f"  {aspect:<9} {'across dialects':<23} {_with_ci(x.alpha, x.ci_lower, x.ci_upper):<28} "
                      f"{x.units} pairs of ratings\n")
            if d.without_dialect:
                out.write(f"  {aspect:<9} {d.without_dialect} reviewer(s) without a dialect left out\n")
    out.write(f"\nmetric-human correlation with mean {study.aspect} "
              f"(95% bootstrap CI, B={study.n_bootstrap}, seed {study.seed}):\n")
    if not study.metrics:
        out.write("  no per-entry metric values: score the runs first (`mteval evaluate ...`)\n")
    else:
        out.write(
            f"  {'metric':<26} {'n':>5}  {'Kendall tau-b':<26} {'Spearman rho':<26} {'runs':>4}  Pearson r (system)\n"
        )
        for m in study.metrics:
            sp = m.system_pearson
            system = _with_ci(sp.value, sp.ci_lower, sp.ci_upper) if sp.value is not None else (
                "n/a (3+ runs needed)" if sp.n < 3 else "n/a")
            out.write(
                f"  {m.metric_id:<26} {m.kendall.n:>5}  "
                f"{_with_ci(m.kendall.value, m.kendall.ci_lower, m.kendall.ci_upper):<26} "
                f"{_with_ci(m.spearman.value, m.spearman.ci_lower, m.spearman.ci_upper):<26} {sp.n:>4}  {system}\n"
            )
    for mid, why in study.excluded.items():
        out.write(f"  {mid}: left out ({why}; --short-bleu correlates it anyway)\n")
    if widths:
        out.write(f"\nprojected width of the 95% tau-b interval (Fisher z), now and at the "
                  f"{p.target_items} x {p.target_raters} target:\n")
        for w in widths:
            goal = (f"; {w.items_for_width} items for a width of {w.goal:g}" if w.items_for_width is not None
                    else f"; a width of {w.goal:g} is out of reach" if w.goal is not None else "")
            out.write(f"  {w.metric_id:<26} {_num(w.width_now)} with {w.items} items ({w.raters:.1f} raters each)"
                      f" -> {_num(w.width_at_target)}{goal}\n")
    if quality:
        out.write("\nreviewer quality control (every run of the workspace; flagged reviewers are left out of "
                  "sign-off evidence):\n")
        for q in quality.values():
            repeat = "n/a" if q.repeat_difference is None else f"{q.repeat_difference:.2f}"
            out.write(term_safe(f"  {q.reviewer:<14} attention checks failed {q.failed} of {q.decisive} decisive "
                                f"({q.checks} answered), repeats {q.repeats} (mean difference {repeat}), "
                                f"tau-b with the others {_num(q.agreement)} on {q.shared_items} items"
                                f"{'  FLAGGED: ' + q.reason if q.flagged else ''}") + "\n")
    if documents.judgments:
        out.write("\ndocument ratings (Task D; mean over documents of each document's mean rating):\n")
        for dr in documents.runs:
            out.write(f"  {dr.run_id:<26} adequacy {_num(dr.adequacy, 2)}  fluency {_num(dr.fluency, 2)}  "
                      f"{dr.documents} document{'s' if dr.documents != 1 else ''}, {dr.judgments} judgments\n")
        for aspect, a in documents.agreement.items():
            out.write(f"  agreement {aspect:<9} {_with_ci(a.alpha, a.ci_lower, a.ci_upper):<28} "
                      f"{a.units} document{'s' if a.units != 1 else ''} rated by 2+ reviewers\n")
    if any(e.scored_judgments for e in esa.values()):
        out.write("\nESA (the annotators' direct 0-100 segment scores, mean over entries):\n")
        for run_id, e in esa.items():
            out.write(f"  {run_id:<26} ESA {'n/a' if e.score is None else f'{e.score:g}'}  "
                      f"{len(e.entries)} entries, {e.scored_judgments} judgments\n")
    if any(e.span_judgments for e in esa.values()):
        out.write("\nMQM-style penalty from error spans (sum of severity weights per judgment, mean over entries):\n")
        for run_id, e in esa.items():
            weights = ", ".join(f"{k} {v:g}" for k, v in e.weights.items())
            cats = ", ".join(f"{c} {n['minor']}/{n['major']}/{n['critical']}" for c, n in e.by_category.items())
            out.write(f"  {run_id:<26} penalty {_num(e.penalty, 2):>7}  {len(e.penalty_entries)} entries, "
                      f"{e.span_judgments} judgments, {e.minor} minor, {e.major} major, {e.critical} critical, "
                      f"{e.missing} missing (weights {weights})"
                      f"{f'  (minor/major/critical by category: {cats})' if cats else ''}\n")
    if lint:
        out.write("\nlinter audit (Task B): precision of EQUIVALENT calls per variant class (Wilson 95% CI):\n")
        for r in lint:
            out.write(
                f"  {r.variant_class:<24} {r.pairs:>4} pairs  "
                f"strict {_with_ci(r.strict.value, r.strict.ci_lower, r.strict.ci_upper):<24}"
                f" lenient {_with_ci(r.lenient.value, r.lenient.ci_lower, r.lenient.ci_upper)}\n"
            )
    if fst.occurrences:
        fr = fst.false_rejection
        out.write(
            f"\nFST audit (Task C): false-rejection rate {_with_ci(fr.value, fr.ci_lower, fr.ci_upper)} "
            f"(Wilson 95% CI); {fst.valid} valid, {fst.invalid} invalid, {fst.unresolved} unresolved "
            f"of {fst.occurrences} rejected words\n"
        )
        if fst.by_kind:
            out.write("  valid words by kind: " + ", ".join(f"{k} {v}" for k, v in fst.by_kind.items()) + "\n")
    return 0


# --------------------------------------------------------------------------- sign-off


def cmd_signoff(args: argparse.Namespace) -> int:
    from mteval_gui.app.signoff import SignoffEvidence, signoff, signoff_status

    ws = open_workspace(args)
    j = signoff(ws, args.run, args.reviewer, args.decision, tier=args.tier, note=args.note)
    status = signoff_status(ws, args.run)
    evidence: SignoffEvidence = status["evidence"]
    state = {True: "confirmed", False: "rejected", None: "pending speaker review"}[status["confirmed"]]
    basis = f" on {evidence.summary()}" if args.decision == "confirm" else ""
    print(f"{args.reviewer} {args.decision}s tier {j.payload.get('tier') or '(none)'} of {args.run}{basis}; "
          f"the run's present tier {status['tier'] or '(unscored)'} is {state}")
    return 0
