"""Workspace commands: create a workspace, import files, list, show and export.

    mteval workspace init [PATH]            create (or open and migrate) a workspace
    mteval workspace info                   what the workspace holds
    mteval import corpus FILE [...]         JSON, JSONL, TSV, CSV, text (+ --ref-file), harness report
    mteval import run FILE [--corpus ID]    JSONL, JSON, hypothesis text, harness report
    mteval import glossary FILE             JSON {term: [targets]} or TSV term<TAB>a|b
    mteval list corpora|runs|glossaries
    mteval show entry CORPUS ENTRY_ID [--run RUN]
    mteval export entries CORPUS|RUN -o FILE [--format csv|tsv|jsonl]
    mteval settings list|get|set|unset      workspace settings (JSON values)
    mteval demo                             build the demo workspace, score it, print the runs table

Other command modules can add sub-commands to the shared verbs (``import``, ``export``,
``list``, ``show``) with :func:`command_group`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mteval_gui.cli._common import ProgressBar, open_workspace, workspace_path
from mteval_gui.errors import MtevalError


def command_group(subparsers: argparse._SubParsersAction, name: str, help: str) -> argparse._SubParsersAction:
    """The sub-command group ``mteval NAME ...``, created once and shared by every module."""
    parser = subparsers.choices.get(name)
    if parser is None:
        parser = subparsers.add_parser(name, help=help, description=help)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    sub = parser.add_subparsers(dest=f"{name}_what", metavar="WHAT")
    sub.required = True
    return sub


def register(subparsers: argparse._SubParsersAction) -> None:
    from mteval_gui.app.formats import format_choices

    ws = subparsers.add_parser("workspace", help="create a workspace or show what it holds",
                               description="Create a workspace database or show what it holds.")
    wsub = ws.add_subparsers(dest="workspace_what", metavar="WHAT")
    wsub.required = True
    p = wsub.add_parser("init", help="create (or open and migrate) a workspace database",
                        description="Create a workspace database (or open and migrate an existing one).")
    p.add_argument("path", nargs="?", help="database file (default: --db, $MTEVAL_DB or the user data folder)")
    p.set_defaults(handler=cmd_workspace_init)
    p = wsub.add_parser("info", help="show the workspace path, schema version and contents")
    p.set_defaults(handler=cmd_workspace_info)

    imp = command_group(subparsers, "import", "import corpora, runs and glossaries into the workspace")
    p = imp.add_parser("corpus", help="import a corpus file",
                       description="Import a corpus: JSON, JSONL, TSV, CSV, a harness report, or a plain-text source "
                                   "file with --ref-file (line-aligned references).")
    p.add_argument("file", type=Path)
    p.add_argument("--format", choices=format_choices("corpus"),
                   help="file format (default: detected from extension and content)")
    p.add_argument("--id", dest="corpus_id", help="corpus id (default: from the file, else its name)")
    p.add_argument("--source-lang", help="ISO 639-3 code of the source language (e.g. eng, fra)")
    p.add_argument("--target-lang", help="ISO 639-3 code of the target language (e.g. crk, ewe)")
    p.add_argument("--ref-file", type=Path, help="line-aligned reference file for a plain-text source file")
    p.add_argument("--version", dest="corpus_version", help="corpus version")
    p.add_argument("--replace", action="store_true", help="replace a corpus with the same id (deletes its runs)")
    p.add_argument("--runs", nargs="+", type=Path, metavar="RUN_FILE",
                   help="run files of this corpus, imported with it in one go (all or none)")
    p.add_argument("--run-format", choices=format_choices("run"), help="format of the --runs files (default: detected)")
    p.set_defaults(handler=cmd_import_corpus)

    p = imp.add_parser("run", help="import a run (system output) file",
                       description="Import a run: JSONL/JSON outputs, a hypothesis text file aligned with the corpus, "
                                   "or a harness report (its corpus is found or created from the report). "
                                   "Several files of one corpus (--corpus) are imported in one go: all or none.")
    p.add_argument("files", nargs="+", type=Path, metavar="file")
    p.add_argument("--corpus", dest="corpus_id", help="id of the corpus the run belongs to")
    p.add_argument("--run-id", help="run id (default: from the file, else its name)")
    p.add_argument("--model-slug", help="system name shown in tables")
    p.add_argument("--format", choices=format_choices("run"),
                   help="file format (default: detected)")
    p.set_defaults(handler=cmd_import_run)

    p = imp.add_parser("glossary", help="import a glossary (JSON or TSV)",
                       description="Import a glossary: JSON {term: [targets]} or TSV term<TAB>target|target.")
    p.add_argument("file", type=Path)
    p.add_argument("--name", help="glossary name (default: the file name)")
    p.add_argument("--format", choices=format_choices("glossary"), help="file format (default: detected)")
    p.set_defaults(handler=cmd_import_glossary)

    lst = command_group(subparsers, "list", "list what the workspace holds")
    p = lst.add_parser("corpora", help="list corpora")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_list_corpora)
    p = lst.add_parser("runs", help="list runs with their scores")
    p.add_argument("--corpus", dest="corpus_id", help="only runs of this corpus")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_list_runs)
    p = lst.add_parser("glossaries", help="list glossaries")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_list_glossaries)

    show = command_group(subparsers, "show", "show one item of the workspace")
    p = show.add_parser("entry", help="show an entry (and a run's output for it)")
    p.add_argument("corpus_id", metavar="CORPUS")
    p.add_argument("entry_id", metavar="ENTRY_ID")
    p.add_argument("--run", dest="run_id", help="also show this run's output and scores for the entry")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_show_entry)

    exp = command_group(subparsers, "export", "export tables and files from the workspace")
    p = exp.add_parser(
        "entries",
        help="export the entries of a corpus, or of a run with its outputs and scores",
        description="Export a corpus' entries, or a run's entries with outputs and per-entry metric values.",
    )
    p.add_argument("target", metavar="CORPUS|RUN")
    p.add_argument("-o", "--output", type=Path, required=True, help="output file (.csv, .tsv or .jsonl)")
    p.add_argument("--format", choices=("csv", "tsv", "jsonl"), help="default: from the output extension")
    p.set_defaults(handler=cmd_export_entries)

    st = subparsers.add_parser("settings", help="read and change workspace settings",
                               description="Read and change workspace settings (JSON values). `mteval settings list` "
                                           "shows every key with its type, value and meaning.")
    ssub = st.add_subparsers(dest="settings_what", metavar="WHAT")
    ssub.required = True
    p = ssub.add_parser("list", help="print every setting with its type, value and meaning")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_settings_list)
    p = ssub.add_parser("get", help="print one setting (JSON)")
    p.add_argument("key")
    p.set_defaults(handler=cmd_settings_get)
    p = ssub.add_parser("set", help="set a setting; VALUE is JSON if it parses, else a string")
    p.add_argument("key")
    p.add_argument("value")
    p.set_defaults(handler=cmd_settings_set)
    p = ssub.add_parser("unset", help="reset a setting to its default")
    p.add_argument("key")
    p.set_defaults(handler=cmd_settings_unset)

    p = subparsers.add_parser(
        "demo",
        help="build the demo workspace, score it and print the runs table",
        description="Build the bundled demo workspace (Plains Cree and Ewe corpora, runs, glossary), "
        "score every run and print the runs table. Uses --db, else demo.sqlite in the "
        "user data folder.",
    )
    p.add_argument("--no-score", action="store_true", help="import only, do not score")
    p.add_argument("--fresh", action="store_true", help="delete an existing demo workspace first")
    p.set_defaults(handler=cmd_demo)


# ----------------------------------------------------------------------------- helpers

def with_workspace(handler: Callable[[argparse.Namespace, Any], int]) -> Callable[[argparse.Namespace], int]:
    """A handler that receives the workspace of ``--db`` and closes it afterwards."""

    def run(args: argparse.Namespace) -> int:
        ws = open_workspace(args)
        try:
            return handler(args, ws)
        finally:
            ws.close()

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _print_warnings(warnings: list[str]) -> None:
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def print_table(rows: list[list[str]], header: list[str], out=None) -> None:
    out = out or sys.stdout
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip(), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip(), file=out)


# ----------------------------------------------------------------------------- workspace

def cmd_workspace_init(args: argparse.Namespace) -> int:
    from mteval_gui.app.workspace import open_workspace as open_path

    path = Path(args.path) if args.path else workspace_path(args)
    existed = path.exists()
    ws = open_path(path, convert=bool(getattr(args, "convert", False)))
    print(f"{'opened' if existed else 'created'} workspace {ws.path} (schema version {ws.schema_version()})")
    ws.close()
    return 0


@with_workspace
def cmd_workspace_info(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.workspace import workspace_summary

    summary = workspace_summary(ws)
    print(f"workspace: {summary['path']}")
    print(f"schema version: {summary['schema_version']}")
    for table, n in summary["counts"].items():
        print(f"{table}: {n}")
    return 0


@with_workspace
def cmd_import_corpus(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.imports import import_corpus_file, import_files

    bar = ProgressBar("importing")
    try:
        if args.runs:
            results = import_files(ws, args.file, args.runs, corpus_fmt=args.format, ref_path=args.ref_file,
                                   corpus_id=args.corpus_id, source_lang=args.source_lang,
                                   target_lang=args.target_lang, version=args.corpus_version, replace=args.replace,
                                   run_fmt=args.run_format, on_progress=bar)
        else:
            results = [import_corpus_file(ws, args.file, fmt=args.format, ref_path=args.ref_file,
                                          corpus_id=args.corpus_id, source_lang=args.source_lang,
                                          target_lang=args.target_lang, version=args.corpus_version,
                                          replace=args.replace, on_progress=bar)]
    finally:
        bar.close()
    for res in results:
        _print_import(res)
    return 0


def _print_import(res: Any) -> None:
    """What an import did, as ``mteval import`` says it (its warnings on standard error)."""
    for made in res.also:
        print(f"imported corpus {made.id}: {made.count} entries (from the report)")
    _print_warnings(res.warnings)
    if res.kind == "corpus":
        if res.created:
            print(f"imported corpus {res.id}: {res.count} entries ({res.format})")
        else:
            print(f"corpus {res.id} already imported; nothing changed")
    elif res.created:
        print(f"imported run {res.id} for corpus {res.corpus_id}: {res.count} outputs ({res.format})")
    else:
        print(f"run already imported as {res.id}; nothing changed")


@with_workspace
def cmd_import_run(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.imports import import_files, import_run_file

    if len(args.files) > 1:
        if not args.corpus_id:
            raise MtevalError("several run files are imported into one corpus: give --corpus")
        if args.run_id or args.model_slug:
            raise MtevalError("--run-id and --model-slug name one run: import several files without them")
    bar = ProgressBar("importing")
    try:
        if len(args.files) > 1:
            results = import_files(ws, None, args.files, corpus_id=args.corpus_id, run_fmt=args.format,
                                   on_progress=bar)
        else:
            results = [import_run_file(ws, args.files[0], corpus_id=args.corpus_id, fmt=args.format,
                                       run_id=args.run_id, model_slug=args.model_slug, on_progress=bar)]
    finally:
        bar.close()
    for res in results:
        _print_import(res)
    return 0


@with_workspace
def cmd_import_glossary(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.imports import import_glossary_file

    res = import_glossary_file(ws, args.file, name=args.name, fmt=args.format)
    _print_warnings(res.warnings)
    if res.created:
        print(f"imported glossary {res.id}: {res.count} terms")
    else:
        print(f"glossary {res.id} already imported; nothing changed")
    return 0


# ----------------------------------------------------------------------------- list / show

@with_workspace
def cmd_list_corpora(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.workspace import list_corpora

    rows = list_corpora(ws)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print_table([[r["corpus_id"], f"{r['source_lang']}-{r['target_lang']}", str(r["entry_count"]), str(r["run_count"]),
                  r["version"] or "", Path(r["source_path"]).name if r["source_path"] else ""] for r in rows],
                ["corpus", "pair", "entries", "runs", "version", "file"])
    return 0


def runs_table_rows(ws: Any, corpus_id: str | None = None) -> tuple[list[list[str]], list[str]]:
    """The runs table as printed by ``mteval list runs`` and ``mteval demo``.

    Deployable and fluent tiers read "pending speaker review" until a reviewer signs the run off;
    the status of a scored run reads "stale" when an input changed since it was scored and "stale
    (settings)" when the workspace settings now differ from the configuration it was scored with.
    """
    rows, header, _ = _runs_table(ws, corpus_id)
    return rows, header


def _runs_table(ws: Any, corpus_id: str | None) -> tuple[list[list[str]], list[str], list[str]]:
    """The runs table, and the lines that say why runs are stale."""
    from mteval_gui.app.runs import load_run_rows

    header = ["run", "corpus", "model", "n", "missing", "errors", "composite", "tier", "chrF++", "exact", "status"]
    rows, notes = [], []
    for r in load_run_rows(ws, corpus_id):
        rows.append([r.run_id, r.corpus_id, r.model_slug or "-", str(r.entries), str(r.missing),
                     str(r.errors), _fmt(r.composite, 4), r.tier_display or "-",
                     _fmt(r.chrf), _fmt(r.metrics.get("exact_match_rate"), 3), r.status_display])
        if r.scored:
            notes += [f"{r.run_id}: {line}" for line in r.freshness_lines]
    return rows, header, notes


@with_workspace
def cmd_list_runs(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.workspace import list_runs

    if args.json:
        from mteval_gui.app.runs import load_run_rows

        shown = {r.run_id: r for r in load_run_rows(ws, args.corpus_id)}
        json_rows = [{**row, "status_display": shown[row["run_id"]].status_display,
                 "freshness": shown[row["run_id"]].freshness, "stale_reasons": shown[row["run_id"]].stale_reasons,
                 "settings_changes": shown[row["run_id"]].settings_changes} for row in list_runs(ws, args.corpus_id)]
        print(json.dumps(json_rows, ensure_ascii=False, indent=1, default=str))
        return 0
    rows, header, notes = _runs_table(ws, args.corpus_id)
    print_table(rows, header)
    for line in notes:
        print(line)
    if notes:
        print("`mteval score --all` rescores runs whose inputs changed, with their stored configuration; "
              "options given with --replace change it")
    return 0


@with_workspace
def cmd_list_glossaries(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.workspace import list_glossaries

    rows = list_glossaries(ws)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print_table([[r["glossary_id"], r["name"], str(r["term_count"])] for r in rows], ["glossary", "name", "terms"])
    return 0


@with_workspace
def cmd_show_entry(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.exports import entry_report

    data = entry_report(ws, args.corpus_id, args.entry_id, args.run_id)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    e = data["entry"]
    print(f"corpus:     {args.corpus_id}")
    print(f"entry:      {e['id']}")
    print(f"source:     {e['source']}")
    print(f"reference:  {e['reference'] if e.get('reference') is not None else '(none)'}")
    for key in ("variants", "terminology", "difficulty", "domain", "register", "segment", "provenance", "phenomena",
                "expected_morphology", "metadata"):
        if key in e:
            v = e[key]
            print(f"{key + ':':<11} {json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v}")
    if args.run_id:
        o = data["output"]
        print(f"run:        {args.run_id}")
        status = "missing from the run file" if o["missing"] else ("error" if o.get("error") else "")
        print(f"predicted:  {o['predicted']}" + (f"   [{status}]" if status else ""))
        if o.get("error"):
            print(f"error:      {o['error']}")
        for key in ("raw_predicted", "latency_s", "cost_usd", "usage"):
            if key in o:
                v = o[key]
                print(f"{key + ':':<11} {json.dumps(v) if isinstance(v, dict) else v}")
        if data["scores"]:
            print("scores:")
            for mid, v in data["scores"].items():
                print(f"  {mid:<24} {_fmt(v, 4)}")
    return 0


# ----------------------------------------------------------------------------- settings

@with_workspace
def cmd_settings_list(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.settings import WorkspaceSettings, setting_rows

    rows = setting_rows(ws)
    if args.json:
        print(json.dumps({key: value for key, _t, value, _d, _l in rows}, ensure_ascii=False, indent=1))
        return 0
    for key, type_name, value, is_default, label in rows:
        shown = json.dumps(value, ensure_ascii=False)
        print(f"{key} = {shown}" + ("   (default)" if is_default else ""))
        print(f"    {label} [{type_name}]: {WorkspaceSettings.describe(key)[1]}")
    return 0


@with_workspace
def cmd_settings_get(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.settings import SettingError, WorkspaceSettings, load_settings

    if args.key not in WorkspaceSettings.model_fields:
        raise SettingError(f"unknown setting {args.key!r}; known settings: {', '.join(WorkspaceSettings.keys())}")
    print(json.dumps(load_settings(ws).model_dump(mode="json")[args.key], ensure_ascii=False))
    return 0


@with_workspace
def cmd_settings_set(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.settings import set_setting

    try:
        value = json.loads(args.value)
    except json.JSONDecodeError:
        value = args.value
    settings = set_setting(ws, args.key, value)
    print(f"{args.key} = {json.dumps(settings.model_dump(mode='json')[args.key], ensure_ascii=False)}")
    return 0


@with_workspace
def cmd_settings_unset(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.settings import unset_setting

    unset_setting(ws, args.key)
    return 0


# ----------------------------------------------------------------------------- export

@with_workspace
def cmd_export_entries(args: argparse.Namespace, ws: Any) -> int:
    from mteval_gui.app.exports import export_entries

    n, kind = export_entries(ws, args.target, args.output, args.format)
    print(f"wrote {n} {'entries' if kind == 'corpus' else 'entries with outputs'} of {args.target} to {args.output}")
    return 0


# ----------------------------------------------------------------------------- demo

def cmd_demo(args: argparse.Namespace) -> int:
    from mteval_gui.app.demo import (
        build_demo_workspace,
        default_demo_path,
        remove_workspace_files,
        score_demo_workspace,
    )

    path = Path(args.db) if args.db else default_demo_path()
    if args.fresh:
        remove_workspace_files(path)
    ws = build_demo_workspace(path)
    try:
        print(f"demo workspace: {ws.path}")
        if not args.no_score:
            bar = ProgressBar("scoring")
            try:
                problems = score_demo_workspace(ws, on_progress=bar)
            finally:
                bar.close()
            for p in problems:
                print(f"warning: {p}", file=sys.stderr)
        rows, header = runs_table_rows(ws)
        print_table(rows, header)
    finally:
        ws.close()
    return 0
