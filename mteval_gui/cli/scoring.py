"""Scoring commands.

- ``mteval score RUN… [--all] [--replace] [--metrics ID…] [--batch-size N] [--seed N]
  [--gloss-file LANG=PATH] [--comet-model NAME] [--heavy]`` — score workspace runs with a
  progress bar: unscored, incomplete and stale runs (an input changed) are scored, current ones
  left alone; a scored run keeps its stored configuration, and changing it needs ``--replace``
  (the command says what changes; :mod:`mteval_gui.app.scoring_config`). Ctrl-C stops between
  two batches (a second Ctrl-C stops at once); committed batches are kept and running the
  command again resumes.
- ``mteval evaluate --corpus FILE --run FILE [--lang CODE] [--glossary FILE] [--analyzer PATH]
  -o card.json`` — one shot, no workspace: read, score, write the run card.
- A metric that fails (an error, a time limit, an exit, a value that is not a finite number)
  never stops scoring: the run card is written with the metric ``failed`` and its reason, and
  the command exits 0 — unless the metric was named with ``--metrics``: then the exit code is
  3 (:data:`~mteval_gui.cli.EXIT_METRIC_FAILED`), the run card still written.
- ``mteval compare RUN… --baseline RUN [--test ar|bootstrap] [--holm]`` — paired tests of each
  run against the baseline: score with its 95 % CI, difference with its CI, p-value.
- ``mteval export runcard RUN -o FILE`` / ``mteval export results RUN -o FILE.csv`` /
  ``mteval export harness-report RUN -o FILE`` (the reference harness's TestReport).
- ``mteval export appraise RUN… --task esa|mqm -o DIR [--prefill] [--language-map CODE=CODE]`` (an
  Appraise campaign: manifest and batches) / ``mteval export pearmut RUN… --protocol esa|mqm -o FILE
  [--users N] [--prefill]`` (a Pearmut campaign); annotations come back with
  ``mteval judgments import --from appraise|pearmut FILE``.
- ``mteval export compare RUN… --baseline RUN -o FILE.tex|.md|.csv`` / ``mteval export runs [RUN…]
  -o FILE`` — the comparison and the runs tables as LaTeX (booktabs), Markdown or CSV.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mteval_gui.cli import EXIT_CANCELLED, EXIT_ERROR, EXIT_INPUT, EXIT_METRIC_FAILED
from mteval_gui.cli._common import ProgressBar, open_workspace, term_safe
from mteval_gui.cli.workspace import command_group
from mteval_gui.domain.score_keys import score_key
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import InputError, MtevalError


def register(subparsers: Any) -> None:
    sp = subparsers.add_parser("score", help="score workspace runs (resumable; Ctrl-C stops between batches)")
    sp.add_argument("runs", nargs="*", metavar="RUN", help="run ids (see `mteval list runs`)")
    sp.add_argument("--all", action="store_true",
                    help="every run of the workspace that is unscored, incomplete or stale (an input changed)")
    sp.add_argument("--metrics", nargs="+", metavar="ID",
                    help="score only these metric ids (e.g. core.chrf); on a scored run this needs --replace")
    sp.add_argument("--replace", action="store_true",
                    help="score scored runs again: with their stored configuration, changed by the options given")
    sp.add_argument("--exclude", nargs="+", metavar="ID", help="skip these metric ids")
    sp.add_argument("--batch-size", type=int, metavar="N",
                    help="entries per committed batch (default: the stored one, else 50)")
    sp.add_argument("--seed", type=int, metavar="N", help="bootstrap seed (default: the stored one, else 12345)")
    sp.add_argument("--bootstrap", type=int, metavar="B",
                    help="bootstrap resamples (default: the stored number, else 1000)")
    sp.add_argument("--glossary", metavar="ID", help="workspace glossary id used for terminology")
    sp.add_argument("--profile", metavar="NAME",
                    help="weigh the composite and place the tier with the language card's calibrated profile NAME "
                         "(`mteval calibrate --write-card`); 'seed' keeps the seed weights even when the card has "
                         "a default profile")
    sp.add_argument("--analyzer", metavar="PATH", help="analyzer (.hfstol) to use instead of the installed one")
    sp.add_argument("--multi-ref", action="store_true", help="score chrF++/BLEU/TER against reference + variants")
    sp.add_argument("--heavy", action="store_true", help="also run model-based metrics (COMET, embeddings)")
    _option_args(sp)
    sp.add_argument("--process", action="store_true",
                    help="score in a separate process (the runs still side by side on the cores)")
    sp.add_argument("--workers", type=int, default=None, metavar="N",
                    help="processes scoring runs side by side (default: the cores available, at most 2)")
    sp.add_argument("--cluster", metavar="ADDRESS",
                    help="score the batches on a Ray cluster: 'local' starts one on this machine, else the "
                         "head's address (auto, HOST:6379, ray://HOST:10001); needs the cluster extra")
    sp.add_argument("--cluster-workers", type=int, default=None, metavar="N",
                    help="CPU workers on the cluster (default: one per CPU it has)")
    sp.set_defaults(handler=cmd_score)

    ep = subparsers.add_parser("evaluate", help="score a corpus file and a run file without a workspace")
    ep.add_argument("--corpus", required=True, metavar="FILE", help="corpus file (JSON, JSONL, TSV, CSV, harness)")
    ep.add_argument("--ref", metavar="FILE", help="reference file when the corpus is a plain source text file")
    ep.add_argument("--run", required=True, metavar="FILE",
                    help="run file (JSONL/JSON, hypothesis text, harness report)")
    ep.add_argument("--lang", "--target-lang", dest="lang", metavar="CODE",
                    help="target language (ISO 639-3) when the corpus does not say")
    ep.add_argument("--source-lang", metavar="CODE", help="source language (ISO 639-3) when the corpus does not say")
    ep.add_argument("--glossary", metavar="FILE", help="glossary (JSON or TSV) for terminology")
    ep.add_argument("--analyzer", metavar="PATH", help="analyzer (.hfstol) for FST metrics")
    ep.add_argument("--metrics", nargs="+", metavar="ID", help="only these metric ids")
    ep.add_argument("--exclude", nargs="+", metavar="ID", default=[], help="skip these metric ids")
    ep.add_argument("--seed", type=int, default=12345, metavar="N")
    ep.add_argument("--bootstrap", type=int, default=1000, metavar="B")
    ep.add_argument("--multi-ref", action="store_true", help="score chrF++/BLEU/TER against reference + variants")
    ep.add_argument("--heavy", action="store_true", help="also run model-based metrics (COMET, embeddings)")
    ep.add_argument("--workers", type=int, default=None, metavar="N",
                    help="processes scoring the entries (default: the cores available, at most 2)")
    _option_args(ep)
    ep.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the run card JSON")
    ep.set_defaults(handler=cmd_evaluate, quick_exit=True)  # files in, one file out, nothing left running

    cp = subparsers.add_parser("compare", help="paired significance tests of runs against a baseline run")
    _compare_args(cp)
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cp.set_defaults(handler=cmd_compare)

    xs = command_group(subparsers, "export", "export tables and files from the workspace")
    ct = xs.add_parser("compare", help="the comparison of runs against a baseline as a table (CSV, LaTeX, Markdown)",
                       description="Compare runs against a baseline (as `mteval compare` does) and write the table: "
                                   "per metric each system's score with its 95% interval and a significance mark, "
                                   "the difference from the baseline and the p-value. CSV keeps every number in "
                                   "machine form; LaTeX (booktabs) and Markdown explain the marks under the table.")
    _compare_args(ct)
    _table_output_args(ct)
    ct.set_defaults(handler=cmd_export_compare)
    rt = xs.add_parser("runs", help="the runs table with intervals (CSV, LaTeX, Markdown)")
    rt.add_argument("runs", nargs="*", metavar="RUN", help="only these runs (default: every run)")
    rt.add_argument("--corpus", dest="corpus_id", help="only runs of this corpus")
    _table_output_args(rt)
    rt.set_defaults(handler=cmd_export_runs)
    rc = xs.add_parser("runcard", help="the run card (JSON, schema-checked) of a scored run")
    rc.add_argument("run", metavar="RUN")
    rc.add_argument("-o", "--output", required=True, metavar="FILE")
    rc.set_defaults(handler=cmd_export_runcard)
    hr = xs.add_parser("harness-report", help="a scored run as the reference harness's TestReport (JSON)",
                       description="Write a scored run in the harness's report shape (config, overall, "
                                   "by_difficulty, entries[]) for its dashboard and tools; "
                                   "`mteval import run` reads it back.")
    hr.add_argument("run", metavar="RUN")
    hr.add_argument("-o", "--output", required=True, metavar="FILE")
    hr.set_defaults(handler=cmd_export_harness_report)
    ap = xs.add_parser("appraise", help="runs as an Appraise ESA or MQM campaign (manifest.json, batches.json)",
                       description="Write an Appraise Document campaign (StartNewCampaign MANIFEST --batches-json "
                                   "BATCHES); `mteval judgments import --from appraise` reads its score export back.")
    ap.add_argument("runs", nargs="+", metavar="RUN")
    ap.add_argument("--task", choices=("esa", "mqm"), default="esa", help="ESA (default) or MQM campaign")
    ap.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for manifest.json and batches.json")
    ap.add_argument("--name", metavar="NAME", help="campaign name and key (default: mteval<task><number>)")
    ap.add_argument("--number", type=int, default=1, metavar="N", help="CAMPAIGN_NO (default 1)")
    ap.add_argument("--redundancy", type=int, default=1, metavar="N", help="REDUNDANCY (default 1)")
    ap.add_argument("--annotators", type=int, default=1, metavar="N", help="annotator accounts (default 1)")
    ap.add_argument("--prefill", action="store_true",
                    help="ESA-AI: start from the analyzer's rejected words and the linter's MISS spans")
    ap.add_argument("--language-map", action="append", default=[], metavar="CODE=CODE",
                    help="write a language code Appraise does not know as one it knows (e.g. crk=oji); repeatable")
    ap.set_defaults(handler=cmd_export_appraise)
    pm = xs.add_parser("pearmut", help="runs as a Pearmut ESA or MQM campaign (JSON)",
                       description="Write a Pearmut task-based campaign (`pearmut add FILE`); "
                                   "`mteval judgments import --from pearmut` reads its annotation log back.")
    pm.add_argument("runs", nargs="+", metavar="RUN")
    pm.add_argument("--protocol", choices=("esa", "mqm"), default="esa", help="ESA (default) or MQM")
    pm.add_argument("-o", "--output", required=True, metavar="FILE")
    pm.add_argument("--campaign-id", metavar="ID", help="campaign id (default: mteval_<source>-<target>)")
    pm.add_argument("--users", type=int, default=1, metavar="N", help="annotators (tasks; default 1)")
    pm.add_argument("--prefill", action="store_true",
                    help="ESA-AI: start from the analyzer's rejected words and the linter's MISS spans")
    pm.set_defaults(handler=cmd_export_pearmut)
    rr = xs.add_parser("results", help="per-entry results of a scored run (CSV)")
    rr.add_argument("run", metavar="RUN")
    rr.add_argument("-o", "--output", required=True, metavar="FILE")
    rr.set_defaults(handler=cmd_export_results)


def _compare_args(cp: argparse.ArgumentParser) -> None:
    cp.add_argument("runs", nargs="+", metavar="RUN")
    cp.add_argument("--baseline", required=True, metavar="RUN")
    cp.add_argument("--test", choices=("ar", "bootstrap"), default="ar",
                    help="approximate randomisation (default) or paired bootstrap")
    cp.add_argument("--holm", action="store_true", help="Holm correction over the compared runs (per metric)")
    cp.add_argument("--trials", type=int, default=1000, metavar="N", help="trials / resamples (default 1000)")
    cp.add_argument("--seed", type=int, default=12345, metavar="N")
    cp.add_argument("--metrics", nargs="+", metavar="KEY",
                    help="run-card score keys (default: chrf_plus_plus bleu ter exact_match_rate ... composite)")
    cp.add_argument("--short-bleu", action="store_true",
                    help="compare BLEU even when the median reference has fewer than 4 tokens (caveat short_segments)")


def _table_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the table file (.csv, .tex or .md)")
    p.add_argument("--format", choices=("csv", "latex", "markdown"), help="default: from the output file name")


def _option_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gloss-file", action="append", default=[], metavar="LANG=PATH",
                   help="dictionary for a language's semantic validator (e.g. crk=crkeng.importjson); repeatable")
    p.add_argument("--comet-model", metavar="NAME_OR_PATH", help="COMET model (Hugging Face id or local checkpoint)")


def scoring_options(args: argparse.Namespace) -> ScoringOptions:
    """Scoring options given on the command line (``--analyzer``, ``--multi-ref``, ``--heavy``,
    ``--gloss-file``, ``--comet-model``); only those given are set (they override the settings)."""
    options: dict[str, Any] = {}
    if getattr(args, "analyzer", None):
        options["analyzer_path"] = str(Path(args.analyzer).resolve())
    if getattr(args, "multi_ref", False):
        options["multi_ref"] = True
    if getattr(args, "heavy", False):
        options["heavy"] = True
    gloss: dict[str, list[str]] = {}
    for spec in getattr(args, "gloss_file", None) or []:
        lang, sep, path = spec.partition("=")
        if not sep or not lang or not path:
            raise MtevalError(f"--gloss-file {spec!r}: write LANG=PATH (e.g. crk=crkeng.importjson)")
        gloss.setdefault(lang.strip(), []).append(str(Path(path).resolve()))
    if gloss:
        options["gloss_files"] = gloss
    if getattr(args, "comet_model", None):
        options["comet_model"] = args.comet_model
    return ScoringOptions(**options)


# --------------------------------------------------------------------------- score


class _Interrupts:
    """First Ctrl-C cancels between batches; a second one interrupts at once."""

    def __init__(self, token: Any) -> None:
        self.token = token
        self._old: Any = None

    def __enter__(self) -> _Interrupts:
        try:
            self._old = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: no signal handling
            self._old = None
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        if self.token.cancelled:
            raise KeyboardInterrupt
        self.token.cancel()
        print("\nmteval: stopping after the current batch (Ctrl-C again to stop now)", file=sys.stderr)

    def __exit__(self, *exc: Any) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def _fmt(v: Any, places: int = 2) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.{places}f}"
    return str(v)


def _summary_line(card: Any) -> str:
    s = card.scores
    ci = s.confidence_intervals.get("chrf_plus_plus")
    chrf = _fmt(s.chrf_plus_plus)
    if ci is not None and ci.ci_lower is not None:
        chrf += f" [{ci.ci_lower:.2f}, {ci.ci_upper:.2f}]"
    caveats = ",".join(c.code for c in card.score_caveats)
    return (f"{card.run_id}: composite {_fmt(s.composite, 4)} ({s.quality_tier}, profile {card.composite_profile}) "
            f"chrF++ {chrf} BLEU {_fmt(s.bleu)} exact {_fmt(s.exact_match_rate, 3)}"
            + (f" caveats: {caveats}" if caveats else ""))


def _unavailable_lines(card: Any) -> list[str]:
    """One line per metric that could not run, with the reason (what to install or give)."""
    out = []
    for mid, availability in card.metric_availability.items():
        if "." not in mid or availability not in ("unavailable", "failed"):
            continue
        reason = card.metric_reasons.get(mid, "")
        out.append(f"  {mid}: {availability}" + (f" — {reason}" if reason else ""))
    return out


def _failed_asked(card: Any, asked: list[str] | None) -> list[str]:
    """The metrics named with ``--metrics`` that failed in ``card``."""
    return [m for m in asked or () if card.metric_availability.get(m) == "failed"]


def _exit_code(card: Any, asked: list[str] | None, where: str) -> int:
    failed = _failed_asked(card, asked)
    for mid in failed:
        print(f"mteval: {mid} failed (asked for with --metrics); the run card was written{where}", file=sys.stderr)
    return EXIT_METRIC_FAILED if failed else 0


def cmd_score(args: argparse.Namespace) -> int:
    from mteval_gui.app import workspace
    from mteval_gui.app.scoring import CancelToken, require_cluster
    from mteval_gui.app.scoring_config import ScoringOverrides, plan_scoring

    if args.cluster_workers is not None and args.cluster_workers < 1:
        raise MtevalError(f"--cluster-workers {args.cluster_workers}: give at least 1")
    if args.cluster_workers is not None and not args.cluster:
        raise MtevalError("--cluster-workers needs --cluster ADDRESS (or --cluster local)")
    require_cluster(args.cluster)
    ws = open_workspace(args)
    runs = list(args.runs)
    if not runs and not args.all:
        raise MtevalError("name at least one run (or --all)")
    for r in runs:
        workspace.require_run(ws, r)
    if args.all:
        runs += [r["run_id"] for r in workspace.list_runs(ws) if r["run_id"] not in runs]
    overrides = ScoringOverrides.of(metrics=args.metrics, exclude=args.exclude, options=scoring_options(args),
                                    glossary=args.glossary, seed=args.seed, n_bootstrap=args.bootstrap,
                                    batch_size=args.batch_size, composite_profile=args.profile)
    plan = plan_scoring(ws, runs, overrides, replace=args.replace)
    plan.require_allowed()
    for p in plan.skipped:
        print(p.message)
    token = CancelToken()
    code = _score_side_by_side(ws, plan.to_score, args, token)
    if not runs:
        print("the workspace has no runs: import one first (`mteval import run FILE --corpus ID`)")
    elif not plan.to_score:
        print(f"nothing to score: {'every run is' if len(plan.runs) > 1 else 'the run is'} up to date")
    return code


def _print_card(card: Any) -> None:
    print(_summary_line(card))
    for line in _unavailable_lines(card):
        print(line)


def _score_side_by_side(ws: Any, to_score: Sequence[Any], args: argparse.Namespace, token: Any) -> int:
    """``mteval score``: the runs side by side on the cores (``--workers``), in this process or,
    with ``--process``, in a child process; each run's lines are printed in the planned order,
    as soon as the runs before it are done."""
    from mteval_gui.app.scoring import run_failure, score_runs_in_process, score_workspace_runs

    runs = [p.run_id for p in to_score]
    if not runs:
        return 0
    for p in to_score:
        if p.message:
            print(p.message)
    bar = ProgressBar("scoring" if len(runs) > 1 else runs[0])
    seen: dict[str, tuple[int, int]] = {}
    outcomes: dict[str, Any] = {}
    printed = 0

    def progress(p: Any) -> None:
        if p.stage == "scoring":
            seen[p.run_id] = (p.done, p.total)
            bar(SimpleNamespace(done=sum(d for d, _ in seen.values()), total=sum(t for _, t in seen.values()),
                                stage=f"{len(outcomes)}/{len(runs)} runs" if len(runs) > 1 else p.stage))

    def finished(outcome: Any) -> None:
        nonlocal printed
        outcomes[outcome.run_id] = outcome
        while printed < len(runs) and runs[printed] in outcomes:
            o = outcomes[runs[printed]]
            printed += 1
            if o.card is not None:
                bar.close()
                _print_card(o.card)

    with _Interrupts(token):
        score = score_runs_in_process if args.process else score_workspace_runs
        result = score(ws, [(p.run_id, p.configuration) for p in to_score], replace=args.replace,
                       workers=args.workers, on_progress=progress, on_finished=finished, cancel=token,
                       cluster=args.cluster, cluster_workers=args.cluster_workers)
    bar.close()
    cancelled = [o.run_id for o in result if o.cancelled]
    if cancelled:
        print(f"mteval: {', '.join(cancelled)}: cancelled; committed batches are kept: run the same command again "
              "to resume", file=sys.stderr)
        return EXIT_CANCELLED
    errors = [o for o in result if o.error]
    if errors:
        if len(runs) == 1:  # its own error: the CLI reports it as any command's (defects, exit code)
            raise run_failure(errors, named=False)
        for o in errors:  # the other runs' cards are stored: each failure is named with its run
            print(term_safe(f"mteval: error: {o.run_id}: {o.error}", keep_newlines=True), file=sys.stderr)
        return EXIT_INPUT if all(isinstance(o.exception, InputError) for o in errors) else EXIT_ERROR
    return max((_exit_code(o.card, args.metrics, f" ({o.run_id})") for o in result if o.card is not None), default=0)


# --------------------------------------------------------------------------- evaluate


def cmd_evaluate(args: argparse.Namespace) -> int:
    from mteval_gui.app.langmodels import language_models

    # first of all: the language models load in a process of their own while this one imports
    with language_models(args.source_lang, args.lang, metrics=args.metrics, exclude=args.exclude):
        from mteval_gui.app.evaluate import EvaluationInputs, check_output, evaluate_files
        from mteval_gui.app.overrides import ScoringOverrides

        # refused before the work: a folder, a special file, the workspace or one of the inputs
        check_output(args.output, inputs=[args.corpus, args.run, args.ref, args.glossary])
        bar = ProgressBar("evaluating")
        try:
            inputs = EvaluationInputs(args.corpus, args.run, ref=args.ref, glossary=args.glossary,
                                      source_lang=args.source_lang, target_lang=args.lang)
            overrides = ScoringOverrides.of(metrics=args.metrics, exclude=args.exclude, options=scoring_options(args),
                                            seed=args.seed, n_bootstrap=args.bootstrap)
            ev = evaluate_files(inputs, overrides, on_progress=bar, workers=args.workers)
        finally:
            bar.close()
    if ev.missing:
        print(f"mteval: {len(ev.missing)} corpus entries have no output; they are scored as empty outputs",
              file=sys.stderr)
    card = ev.result.run_card
    ev.save(args.output)
    print(_summary_line(card))
    for line in _unavailable_lines(card):
        print(line)
    print(f"run card written to {args.output}")
    return _exit_code(card, args.metrics, "")


# --------------------------------------------------------------------------- compare


def _comparison(ws: Any, args: argparse.Namespace) -> Any:
    from mteval_gui.app.compare import COMPARE_KEYS, CompareOptions, compare_workspace_runs

    keys = tuple(args.metrics) if args.metrics else COMPARE_KEYS
    return compare_workspace_runs(ws, args.runs, args.baseline, CompareOptions(
        test=args.test, trials=args.trials, seed=args.seed, holm=args.holm, keys=keys, short_bleu=args.short_bleu))


def cmd_export_compare(args: argparse.Namespace) -> int:
    from mteval_gui.app.tables import export_comparison
    from mteval_gui.app.workspace import run_labels

    ws = open_workspace(args)
    cmp = _comparison(ws, args)
    path, fmt = export_comparison(cmp, args.output, run_labels(ws), args.format)
    n = len(cmp.metrics)
    print(f"comparison of {len(cmp.runs) + 1} runs ({n} metric{'s' if n != 1 else ''}) written to {path} ({fmt})")
    return 0


def cmd_export_runs(args: argparse.Namespace) -> int:
    from mteval_gui.app.runs import load_run_rows
    from mteval_gui.app.tables import export_runs

    rows = load_run_rows(open_workspace(args), args.corpus_id)
    if args.runs:
        known = {r.run_id: r for r in rows}
        missing = [r for r in args.runs if r not in known]
        if missing:
            raise MtevalError(f"no run {', '.join(map(repr, missing))} in the workspace"
                              + (f" (corpus {args.corpus_id!r})" if args.corpus_id else ""))
        rows = [known[r] for r in args.runs]
    path, fmt = export_runs(rows, args.output, args.format)
    print(f"{len(rows)} runs written to {path} ({fmt})")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from mteval_gui.app.compare import SHORT_SEGMENTS_REASON

    cmp = _comparison(open_workspace(args), args)
    if args.json:
        out = {
            "baseline": cmp.baseline, "test": cmp.test, "trials": cmp.trials, "seed": cmp.seed, "holm": cmp.holm,
            "metrics": cmp.metrics, "skipped": cmp.skipped,
            "scores": {r: {k: {"score": s, "ci_lower": lo, "ci_upper": hi} for k, (s, lo, hi) in v.items()}
                       for r, v in cmp.scores.items()},
            "comparisons": {r: {k: res.as_dict() for k, res in v.items()} for r, v in cmp.results.items()},
            "caveats": [c.model_dump() for c in cmp.caveats],
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    test_name = "approximate randomisation" if cmp.test == "ar" else "paired bootstrap"
    print(f"baseline: {cmp.baseline}   test: {test_name}, {cmp.trials} trials, seed {cmp.seed}"
          + ("   p-values Holm-corrected per metric" if cmp.holm else ""))
    width = max(len(r) for r in [cmp.baseline, *cmp.runs]) + 2
    for key in cmp.metrics:
        decl = score_key(key)
        places = 4 if decl is not None and decl.scale == "0-1" else 2
        print()
        print(f"{key}")
        print(f"  {'run':<{width}}{'score':>10}  {'95% CI':<22}{'Δ':>10}  {'Δ 95% CI':<24}{'p':>8}"
              + (f"{'p (Holm)':>10}" if cmp.holm else ""))
        s, lo, hi = cmp.scores[cmp.baseline][key]
        print(f"  {cmp.baseline:<{width}}{_fmt(s, places):>10}  {_ci(lo, hi, places):<22}{'(baseline)':>10}")
        for r in cmp.runs:
            s, lo, hi = cmp.scores[r][key]
            res = cmp.results[r][key]
            line = (f"  {r:<{width}}{_fmt(s, places):>10}  {_ci(lo, hi, places):<22}"
                    f"{_signed(res.delta, places):>10}  {_ci(res.ci_lower, res.ci_upper, places):<24}"
                    f"{_p(res.p_value):>8}")
            if cmp.holm:
                line += f"{_p(res.p_adjusted):>10}"
            print(line)
    for key, why in cmp.skipped.items():
        hint = "; --short-bleu compares it anyway" if key == "bleu" and why.startswith(SHORT_SEGMENTS_REASON) else ""
        print(f"\n{key}: not compared ({why}{hint})")
    for c in cmp.caveats:
        print(f"\ncaveat {c.code}: {c.message}")
    return 0


def _ci(lo: float | None, hi: float | None, places: int) -> str:
    if lo is None or hi is None:
        return "—"
    return f"[{lo:.{places}f}, {hi:.{places}f}]"


def _signed(v: float | None, places: int) -> str:
    return "—" if v is None else f"{v:+.{places}f}"


def _p(p: float | None) -> str:
    return "—" if p is None else f"{p:.4f}"


# --------------------------------------------------------------------------- export


def cmd_export_runcard(args: argparse.Namespace) -> int:
    from mteval_gui.app.exports import export_run_card

    export_run_card(open_workspace(args), args.run, args.output)
    print(f"run card of {args.run} written to {args.output}")
    return 0


def cmd_export_harness_report(args: argparse.Namespace) -> int:
    from mteval_gui.app.harness_export import export_harness_report

    export_harness_report(open_workspace(args), args.run, args.output)
    print(f"harness report of {args.run} written to {args.output}")
    return 0


def _language_map(specs: Sequence[str]) -> dict[str, str]:
    out = {}
    for spec in specs:
        code, sep, to = spec.partition("=")
        if not sep or not code.strip() or not to.strip():
            raise MtevalError(f"--language-map {spec!r}: write CODE=CODE (e.g. crk=oji)")
        out[code.strip()] = to.strip()
    return out


def _exchange_report(what: str, done: Any, unit: str) -> None:
    for w in done.warnings:
        print(f"mteval: warning: {w}", file=sys.stderr)
    print(f"{what}: {done.items} outputs in {done.batches} {unit}"
          + (f", {done.prefilled} with pre-filled spans" if done.prefilled else "")
          + " -> " + ", ".join(str(p) for p in done.paths))


def cmd_export_appraise(args: argparse.Namespace) -> int:
    from mteval_gui.app.exchange import export_appraise

    done = export_appraise(open_workspace(args), args.runs, args.output, task=args.task, name=args.name,
                           number=args.number, redundancy=args.redundancy, annotators=args.annotators,
                           prefill=args.prefill, language_map=_language_map(args.language_map))
    _exchange_report(f"Appraise {args.task.upper()} campaign", done, "task(s) of 100 items")
    return 0


def cmd_export_pearmut(args: argparse.Namespace) -> int:
    from mteval_gui.app.exchange import export_pearmut

    done = export_pearmut(open_workspace(args), args.runs, args.output, protocol=args.protocol,
                          campaign_id=args.campaign_id, users=args.users, prefill=args.prefill)
    _exchange_report(f"Pearmut {args.protocol.upper()} campaign", done, "annotator task(s)")
    return 0


def cmd_export_results(args: argparse.Namespace) -> int:
    from mteval_gui.app.exports import export_results

    n = export_results(open_workspace(args), args.run, args.output)
    print(f"{n} entries of {args.run} written to {args.output}")
    return 0
