"""``mteval bench SUITE …`` (also ``mteval SUITE …``): score LLM benchmark suites, compare models.

Every suite an installed plugin provides (``mteval plugins`` lists them; ÈwéBench is
``ewebench``) gets the same five commands:

- ``score --suite DIR --responses FILE [--model NAME] [-o results.json] [--csv FILE] [--save]
  [--details]`` — a category table (score, passed/total, weight, active), the suite score,
  suite defects, provider errors and missing responses.
  ``--format SUITE`` writes the results file of the suite's own harness (ÈwéBench: EweBench's,
  which its leaderboard reads) instead of the full results.
- ``compare RESULTS.json|RUN_ID ... [--stored] [--csv FILE]`` — rank models; results files of
  the suite's own harness are accepted (their numbers as that harness computed them).
- ``export RESULTS.json|RUN_ID -o FILE [--format SUITE|mteval]`` — one result in another shape.
- ``validate --suite DIR [--all]`` — list suite defects (exit 1 if a test cannot be scored).
- ``list`` — stored runs of the workspace.

A category with no response at all is inactive (a partial run) and leaves the suite score;
in an active category, missing responses and provider errors score 0; unscorable tests (suite
defects) are listed and left out of their category's mean.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mteval_gui.errors import Defect, InputError

if TYPE_CHECKING:
    from mteval_gui.app.bench import BenchmarkResult, SuiteDefect, SuiteHandle, SuiteInfo


def register(subparsers: Any, command: str | None = None) -> None:
    """``mteval bench SUITE …``; the suites are looked up only when ``command`` is ``bench`` or
    unknown (finding them imports every suite plugin and the workspace layer)."""
    p = subparsers.add_parser("bench", help="score LLM benchmark suites of installed plugins and compare models",
                              description="Score LLM benchmark suites (each installed suite is also a command of "
                                          "its own: mteval SUITE ...).")
    sub = p.add_subparsers(dest="bench_suite", metavar="SUITE")
    sub.required = True
    if command is not None and command != "bench":
        return
    from mteval_gui.app.bench import suite_infos

    for info in suite_infos():
        _add_suite(sub, info)


def register_late(subparsers: Any) -> None:
    """``mteval SUITE …`` for every installed suite whose name is not already a command."""
    from mteval_gui.app.bench import suite_infos

    for info in suite_infos():
        if info.name not in subparsers.choices:
            _add_suite(subparsers, info)


def _add_suite(sub: Any, info: SuiteInfo) -> None:
    from mteval_gui.app.bench import SuiteError, open_suite

    formats = ["mteval"]
    try:
        handle = open_suite(info.name)
        epilog, description = handle.definition.scoring_rules, handle.definition.description or info.description
        if handle.reference_format is not None:
            formats.append(info.name)  # the results files of the suite's own harness
    except SuiteError as exc:
        epilog, description = None, f"{info.title}: {exc}"
    fmt_help = ("shape of the results JSON: mteval (everything, read back by compare)"
                + (f" or {info.name} (the results file of {info.title}'s own harness, which its leaderboard "
                   "and --compare read)" if len(formats) > 1 else ""))
    p = sub.add_parser(info.name, help=info.description or f"score {info.title} suites", description=description,
                       epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(suite_name=info.name)
    acts = p.add_subparsers(dest="bench_command", metavar="ACTION")
    acts.required = True

    sp = acts.add_parser("score", help="score one model's responses against a suite")
    sp.add_argument("--suite", required=True, metavar="DIR", help="folder of <category>.json test files")
    sp.add_argument("--responses", required=True, metavar="FILE",
                    help="JSONL/JSON of {test_id, response} or {test_id, error}, or a folder of such files")
    sp.add_argument("--model", metavar="NAME", help="model name (default: from the responses file or its name)")
    sp.add_argument("-o", "--output", metavar="FILE", help="write the full results as JSON")
    sp.add_argument("--format", choices=formats, default="mteval", help=fmt_help)
    sp.add_argument("--csv", metavar="FILE", help="write one CSV row per test")
    sp.add_argument("--save", action="store_true", help="store the results in the workspace (--db)")
    sp.add_argument("--details", action="store_true", help="print every test with its score and explanation")
    sp.set_defaults(handler=cmd_score)

    cp = acts.add_parser("compare", help="rank several models (results files or stored run ids)")
    cp.add_argument("items", nargs="*", metavar="RESULTS",
                    help="results JSON files (from score -o, or written by the suite's own harness) or stored run ids")
    cp.add_argument("--stored", action="store_true", help="include every run of this suite stored in the workspace")
    cp.add_argument("--csv", metavar="FILE", help="write the ranking as CSV")
    cp.set_defaults(handler=cmd_compare)

    ep = acts.add_parser("export", help="write one result (a results file or a stored run id) in another shape")
    ep.add_argument("item", metavar="RESULTS", help="a results JSON file or a stored run id")
    ep.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write")
    ep.add_argument("--format", choices=formats, default=formats[-1], help=fmt_help + f" (default: {formats[-1]})")
    ep.set_defaults(handler=cmd_export)

    vp = acts.add_parser("validate", help="list the defects of a suite")
    vp.add_argument("--suite", required=True, metavar="DIR")
    vp.add_argument("--all", action="store_true", help="also list notes (fields a test's method does not use)")
    vp.set_defaults(handler=cmd_validate)

    lp = acts.add_parser("list", help=f"list {info.title} runs stored in the workspace")
    lp.set_defaults(handler=cmd_list)


def _suite(args: argparse.Namespace) -> SuiteHandle:
    from mteval_gui.app.bench import open_suite

    return open_suite(args.suite_name)


def _short(suite: SuiteHandle, category: str) -> str:
    return suite.definition.category_label(category).rstrip(".").lower()


# ------------------------------------------------------------------------------------- output


def _num(x: float | None, digits: int = 1) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def print_category_table(result: BenchmarkResult, out: TextIO) -> None:
    width = max([len("category")] + [len(c.category) for c in result.categories])
    out.write(f"{'category':<{width}}  {'score':>6}  {'passed':>7}  {'weight':>6}  active\n")
    for c in result.categories:
        passed = f"{c.passed}/{c.total}" if c.active else f"–/{c.total}"
        active = "yes" if c.active else "no (no responses)"
        out.write(f"{c.category:<{width}}  {_num(c.score):>6}  {passed:>7}  {c.weight:>6.2f}  {active}\n")
    total_w = sum(c.weight for c in result.categories)
    inactive = [c.category for c in result.categories if not c.active]
    out.write(f"\n{result.score_name}: {_num(result.score)} / 100")
    if result.score is None:
        out.write("  (no category has a response)")
    out.write(f"   tests passed: {result.passed}/{result.total}")
    out.write(f"   active weight {result.active_weight:.2f} of {total_w:.2f}\n")
    if inactive:
        out.write(f"inactive categories (partial run, left out of the {result.score_name}): {', '.join(inactive)}\n")


def print_defects(defects: Sequence[SuiteDefect], out: TextIO, *, title: str, show_info: bool = False,
                  validate_hint: str = "") -> None:
    if not defects:
        return
    errors = [d for d in defects if d.severity == "error"]
    warnings = [d for d in defects if d.severity == "warning"]
    infos = [d for d in defects if d.severity == "info"]
    parts = [f"{len(errors)} error{'s' if len(errors) != 1 else ''}",
             f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}"]
    if infos:
        parts.append(f"{len(infos)} note{'s' if len(infos) != 1 else ''}")
    out.write(f"\n{title} ({', '.join(parts)}):\n")
    for d in errors:
        out.write(f"  error: {d}\n")
    for d in warnings:
        out.write(f"  warning: {d}\n")
    if show_info:
        for d in infos:
            out.write(f"  note: {d}\n")
    elif infos:
        out.write(f"  ({len(infos)} notes about fields a test's method does not use: '{validate_hint}')\n")


def print_result(result: BenchmarkResult, out: TextIO, *, details: bool = False) -> None:
    out.write(f"{result.benchmark} — model: {result.model}\n")
    out.write(f"suite: {result.suite_path}   responses: {result.responses_path}\n\n")
    print_category_table(result, out)
    hint = f"mteval bench {result.suite} validate --all"
    print_defects(result.suite_defects, out, title="Suite defects", validate_hint=hint)
    print_defects(result.response_warnings, out, title="Responses", validate_hint=hint)
    errs = result.provider_errors
    if errs:
        out.write(f"\nProvider errors ({len(errs)}, scored 0):\n")
        for t in errs:
            out.write(f"  {t.test_id}: {t.error}\n")
    missing = result.missing
    if missing:
        out.write(f"\nMissing responses ({len(missing)}, scored 0): {', '.join(t.test_id for t in missing)}\n")
    unscorable = result.unscorable
    if unscorable:
        out.write(f"\nUnscorable tests ({len(unscorable)}, suite defects, left out of their category's mean): "
                  f"{', '.join(t.test_id for t in unscorable)}\n")
    if details:
        out.write("\nTests:\n")
        for t in result.tests:
            mark = "✓" if t.passed else ("·" if t.passed is None else "✗")
            out.write(f"  {mark} {t.test_id:<22} {t.status:<10} {_num(t.score, 3):>6}  {t.method or '?'}\n")
            for line in t.explanation.get("lines", []):
                out.write(f"      {line}\n")


def print_limitations(suite: SuiteHandle, out: TextIO) -> None:
    """What the suite's scores cannot show (its methodology's known limitations)."""
    limits = suite.definition.limitations
    if limits:
        out.write(f"\nKnown limitations of {suite.title}'s scoring:\n")
        for i, line in enumerate(limits, 1):
            out.write(f"  {i}. {line}\n")


# ------------------------------------------------------------------------------------ commands


def _files_of(path: str) -> list[Path]:
    """``path`` and, for a folder, the files in it."""
    p = Path(path)
    return [p, *p.iterdir()] if p.is_dir() else [p]


def cmd_score(args: argparse.Namespace) -> int:
    from mteval_gui.app.bench import write_results_csv

    bench = _suite(args)
    if args.format != "mteval" and not args.output:
        raise InputError(Defect("--format", None, f"--format {args.format} applies to the results file: give -o FILE"))
    suite = bench.read_suite(args.suite)
    responses = bench.read_responses(args.responses, suite)
    result = bench.score_suite(suite, responses, model=args.model)
    out = sys.stdout
    print_result(result, out, details=args.details)
    print_limitations(bench, out)
    inputs = _files_of(args.suite) + _files_of(args.responses)  # never written over
    if args.output:
        _write(result, args.output, args.format, inputs)
        out.write(f"\nresults written to {args.output}" + (f" ({args.format} format)" if args.format != "mteval"
                                                             else "") + "\n")
    if args.csv:
        write_results_csv(result, args.csv, inputs=inputs)
        out.write(f"per-test CSV written to {args.csv}\n")
    if args.save:
        from mteval_gui.app.bench import save_benchmark_run
        from mteval_gui.cli._common import open_workspace

        ws = open_workspace(args)
        try:
            run_id = save_benchmark_run(ws, result)
        finally:
            ws.close()
        out.write(f"stored in {ws.path} as {run_id}\n")
    return 0


def _write(result: BenchmarkResult, path: str, fmt: str, inputs: Sequence[str | Path]) -> None:
    from mteval_gui.app.bench import reference_file_name, write_reference_json, write_result_json

    if fmt == "mteval":
        write_result_json(result, path, inputs=inputs)
        return
    write_reference_json(result, path, inputs=inputs)
    if not Path(path).name.startswith(f"{result.suite}_"):
        sys.stdout.write(f"note: {result.benchmark}'s leaderboard lists only results/{result.suite}_*.json files "
                         f"(e.g. {reference_file_name(result)})\n")


def cmd_export(args: argparse.Namespace) -> int:
    bench = _suite(args)
    ns = argparse.Namespace(**{**vars(args), "items": [args.item], "stored": False})
    results = _load_items(ns, bench)
    result = results[0]
    if result.suite != bench.name:
        raise InputError(Defect(args.item, None, f"a result of suite {result.suite!r}, not of {bench.name}"))
    _write(result, args.output, args.format, [args.item] if Path(args.item).exists() else [])
    score = "—" if result.score is None else f"{result.score:.1f}"
    sys.stdout.write(f"{result.model}: {bench.score_name} {score}; written to {args.output} ({args.format} format)\n")
    return 0


def _load_items(args: argparse.Namespace, bench: SuiteHandle) -> list[BenchmarkResult]:
    from mteval_gui.app.bench import read_result_json

    results: list[BenchmarkResult] = []
    stored_ids = [i for i in args.items if not Path(i).exists()]
    files = [i for i in args.items if Path(i).exists()]
    defects = []
    for f in files:
        try:
            results.append(read_result_json(f))
        except InputError as exc:
            defects.extend(exc.defects)
    if defects:
        raise InputError(defects)
    if stored_ids or args.stored:
        from mteval_gui.app.bench import BenchmarkRunNotFound, get_benchmark_run
        from mteval_gui.cli._common import open_workspace

        ws = open_workspace(args)
        try:
            ids = list(stored_ids)
            if args.stored:
                ids += [s.bench_run_id for s in bench.list_runs(ws) if s.bench_run_id not in ids]
            for i in ids:
                try:
                    results.append(get_benchmark_run(ws, i))
                except BenchmarkRunNotFound:
                    defects.append(Defect(i, None, f"neither a results file nor a stored {bench.title} run id"))
        finally:
            ws.close()
    if defects:
        raise InputError(defects)
    return results


def cmd_compare(args: argparse.Namespace) -> int:
    from mteval_gui.app.bench import rank_results

    bench = _suite(args)
    results = _load_items(args, bench)
    out = sys.stdout
    if not results:
        out.write("nothing to compare: give results files or run ids, or --stored\n")
        return 1
    ranking = rank_results(results)
    cats = ranking.categories
    mw = max([len("model")] + [len(r.model) for r in ranking.results])
    heads = [_short(bench, c) for c in cats]
    name = bench.score_name
    sw = max(8, len(name))
    out.write(f"{'#':>2}  {'model':<{mw}}  {name:>{sw}}  {'passed':>7}  " + "  ".join(f"{h:>6}" for h in heads) + "\n")
    for row in ranking.rows():
        passed = f"{row['passed']}/{row['total']}"
        cells = "  ".join(f"{_num(row['categories'].get(c)):>6}" for c in cats)
        out.write(f"{row['rank']:>2}  {row['model']:<{mw}}  {_num(row['score']):>{sw}}  {passed:>7}  {cells}\n")
    legend = ", ".join(f"{_short(bench, c)} = {c}" for c in cats)
    out.write(f"\n{legend}; — = category not run\n")
    if ranking.caveats:
        out.write("\nCaveats:\n")
        for c in ranking.caveats:
            out.write(f"  {c}\n")
    print_limitations(bench, out)
    if args.csv:
        from mteval_gui.app.bench import write_ranking_csv

        write_ranking_csv(ranking.rows(), cats, args.csv, inputs=args.items)  # never a results file read
        out.write(f"ranking CSV written to {args.csv}\n")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    bench = _suite(args)
    suite = bench.read_suite(args.suite)
    out = sys.stdout
    by_cat = ", ".join(f"{c} {len(suite.tests_of(c))}" for c in suite.categories)
    out.write(f"suite {suite.path}: {len(suite.tests)} tests ({by_cat})\n")
    if not suite.defects:
        out.write("no defects\n")
        return 0
    print_defects(suite.defects, out, title="Defects", show_info=args.all,
                  validate_hint=f"mteval bench {bench.name} validate --all")
    return 1 if suite.errors() else 0


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.cli._common import open_workspace

    bench = _suite(args)
    ws = open_workspace(args)
    try:
        runs = bench.list_runs(ws)
    finally:
        ws.close()
    out = sys.stdout
    if not runs:
        out.write(f"no {bench.title} runs stored\n")
        return 0
    mw = max(len("model"), *(len(r.model) for r in runs))
    name = bench.score_name
    sw = max(8, len(name))
    out.write(f"{'id':<20}  {'model':<{mw}}  {name:>{sw}}  created\n")
    for r in runs:
        out.write(f"{r.bench_run_id:<20}  {r.model:<{mw}}  {_num(r.score):>{sw}}  {r.created_at}\n")
    return 0
