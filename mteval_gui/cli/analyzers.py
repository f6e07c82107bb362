"""``mteval analyzers``: list and install HFST analyzers.

- ``mteval analyzers list`` — for every language card declaring analyzers (and every language
  with installed ones): each kind, installed file, sha256 and whether it matches the card's pin.
- ``mteval analyzers install LANG [PATH_OR_URL] [--sha256 HEX] [--kind strict|descriptive|generator]``
  — install from a local ``.hfstol``/``.deb`` or download from a URL; without PATH_OR_URL the
  card's ``analyzers.source_url`` is downloaded (the user asked for it by running the command).
- ``mteval analyzers gaps CORPUS… [--runs RUN…] [--missing FILE] [--yaml FILE] [--json]`` — the
  words the strict analyzer rejects in the references and outputs, most frequent first, with the
  descriptive analyzer's guess, the speakers' Task C verdicts, a kind and example sentences; the
  exports (GiellaLT missing-words list, morph-test YAML) use only reviewers who allow sharing.
  ``--compare OLD NEW --runs RUN…``: the false-rejection rate with two analyzer files.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("analyzers", help="list and install HFST morphological analyzers")
    sub = p.add_subparsers(dest="analyzers_command", metavar="ACTION")
    sub.required = True

    lp = sub.add_parser("list", help="show declared and installed analyzers per language")
    lp.set_defaults(handler=cmd_list)

    ip = sub.add_parser("install", help="install an analyzer from a local file or a URL (.hfstol or .deb)")
    ip.add_argument("lang", help="ISO 639-3 code of the language (e.g. crk)")
    ip.add_argument("source", nargs="?", metavar="PATH_OR_URL",
                    help="a .hfstol or GiellaLT .deb file, or its http(s) URL (default: the card's source_url)")
    ip.add_argument("--sha256", metavar="HEX", help="expected sha256 of the file or package (otherwise the card's pin)")
    ip.add_argument("--kind", choices=("strict", "descriptive", "generator"),
                    help="which analyzer this is (default: recognised from the file name, else strict)")
    ip.add_argument("--timeout", type=float, default=60.0,
                    help="network timeout of each read in seconds (default 60)")
    ip.add_argument("--max-time", type=float, default=1800.0, metavar="SECONDS",
                    help="give up a download that takes longer than this in total (default 1800)")
    ip.set_defaults(handler=cmd_install)

    gp = sub.add_parser("gaps", help="rank the words the strict analyzer rejects; export them for its maintainers")
    gp.add_argument("corpora", nargs="*", metavar="CORPUS", help="corpora whose references are read")
    gp.add_argument("--runs", nargs="+", default=[], metavar="RUN",
                    help="runs whose outputs are read and whose Task C judgments give the speakers' verdicts")
    gp.add_argument("--strict", metavar="PATH", help="strict analyzer file (default: the installed one)")
    gp.add_argument("--descriptive", metavar="PATH", help="descriptive analyzer file (default: the installed one)")
    gp.add_argument("--limit", type=int, default=50, metavar="N", help="words shown (default 50; 0: all)")
    gp.add_argument("--missing", metavar="FILE", help="write the GiellaLT missing-words list (count word)")
    gp.add_argument("--yaml", metavar="FILE", help="write morph-test YAML for the words speakers confirmed")
    gp.add_argument("--json", action="store_true", help="print the report as JSON")
    gp.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"),
                    help="false-rejection rate of the runs' judged words with two analyzer files")
    gp.set_defaults(handler=cmd_gaps)


def _root(args: argparse.Namespace) -> Any:
    """The analyzer folder: the workspace's setting when the workspace exists, else the default."""
    from mteval_gui.app.analyzers import analyzer_root
    from mteval_gui.cli._common import workspace_path

    path = workspace_path(args)
    if not path.exists():
        return analyzer_root(None)
    from mteval_gui.app.workspace import open_workspace

    ws = open_workspace(path)
    try:
        return analyzer_root(ws)
    finally:
        ws.close()


def cmd_list(args: argparse.Namespace) -> int:
    from mteval_gui.app.analyzers import analyzer_report

    root = _root(args)
    print(f"analyzer folder: {root}")
    report = analyzer_report(root)
    if not report:
        print("no language declares or has analyzers")
        return 0
    for lang in report:
        print(lang.lang + (f" ({lang.name})" if lang.name else ""))
        for f in lang.files:
            if f.path is None:
                print(f"  {f.kind:<12} not installed (card expects {f.declared}); "
                      f"run `mteval analyzers install {lang.lang} PATH_OR_URL`")
                continue
            origin = f"  from {f.source}" if f.source else ""
            print(f"  {f.kind:<12} {f.path}  sha256 {f.sha256} ({f.pin_state}){origin}")
        if lang.source_url:
            print(f"  {'source':<12} {lang.source_url} ({lang.source_format})")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from mteval_gui.app.analyzers import InstallCancelled, InstallOptions, install, is_url
    from mteval_gui.cli import EXIT_CANCELLED

    source = args.source
    remote = source is None or is_url(source)
    if remote:
        print(f"downloading {source or 'the card source'}", file=sys.stderr)
    progress = _DownloadProgress() if remote else None
    try:
        options = InstallOptions(root=_root(args), kind=args.kind, sha256=args.sha256, timeout=args.timeout,
                                 max_seconds=args.max_time)
        result = install(args.lang, source, options, on_progress=progress)
    except (KeyboardInterrupt, InstallCancelled):  # the staging folder is already gone
        if progress is not None:
            progress.close()
        print(f"mteval: {'download ' if remote else ''}cancelled; nothing was installed", file=sys.stderr)
        return EXIT_CANCELLED
    finally:
        if progress is not None:
            progress.close()
    for line in result.lines():
        print(line)
    return 0


class _DownloadProgress:
    def __init__(self) -> None:
        self._tty = sys.stderr.isatty()
        self._drawn = False

    def __call__(self, done: int, total: int | None) -> None:
        if not self._tty:
            return
        mb = done / 1e6
        msg = f"\r  {mb:.1f} MB" + (f" / {total / 1e6:.1f} MB" if total else "")
        sys.stderr.write(msg)
        sys.stderr.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _rate(p: Any) -> str:
    if p.value is None:
        return "n/a (no judged word rejected)"
    return f"{p.value:.3f} [{p.ci_lower:.3f}, {p.ci_upper:.3f}] ({p.successes}/{p.n})"


def cmd_gaps(args: argparse.Namespace) -> int:
    import json

    from mteval_gui.app.gaps import collect_gaps, compare_analyzers, gap_words, write_missing_list, write_morph_tests
    from mteval_gui.cli._common import open_workspace, term_safe
    from mteval_gui.errors import MtevalError

    ws = open_workspace(args)
    if args.compare:
        c = compare_analyzers(ws, args.runs, *args.compare)
        if args.json:
            print(json.dumps(c.to_json(), ensure_ascii=False, indent=2))
            return 0
        print("false-rejection rate of the words speakers judged (Task C; Wilson 95% CI):")
        print(f"  before ({args.compare[0]}): {_rate(c.old)}")
        print(f"  after  ({args.compare[1]}): {_rate(c.new)}")
        print(f"  valid words the new analyzer accepts: {c.fixed}; words judged invalid it accepts: "
              f"{c.newly_accepted_invalid}")
        return 0
    if not args.corpora:
        raise MtevalError("name at least one corpus (or --compare OLD NEW --runs RUN...)")
    inputs = collect_gaps(ws, args.corpora, args.runs, strict=args.strict, descriptive=args.descriptive)
    words = gap_words(inputs)
    if args.missing:
        n = write_missing_list(inputs, args.missing)
        print(f"wrote {n} words to {args.missing}", file=sys.stderr)
    if args.yaml:
        n = write_morph_tests(inputs, args.yaml)
        print(f"wrote {n} confirmed words to {args.yaml}", file=sys.stderr)
    shown = words if args.limit <= 0 else words[:args.limit]
    if args.json:
        print(json.dumps({"lang": inputs.lang, "strict": str(inputs.strict), "strict_sha256": inputs.strict_sha256,
                          "descriptive": str(inputs.descriptive) if inputs.descriptive else None,
                          "texts": inputs.texts, "source_copies": inputs.source_copies,
                          "words": [g.to_json() for g in shown]}, ensure_ascii=False, indent=2))
        return 0
    print(f"{len(words)} words the {inputs.lang} strict analyzer rejects in {inputs.texts} texts "
          f"({sum(g.count for g in words)} occurrences)")
    if inputs.source_copies:
        print(f"{inputs.source_copies} rejected output words copied from the source left out")
    if not inputs.descriptive:
        print("no descriptive analyzer installed: no guesses")
    print(f"{'rank':>4}  {'word':<20} {'count':>5} {'refs':>5} {'outs':>5}  {'kind':<10} {'speakers':<14} guess")
    for i, g in enumerate(shown, 1):
        v = g.verdicts
        said = f"{v.valid}+ {v.invalid}- {v.unresolved}?" if v.judged else "-"
        print(term_safe(f"{i:>4}  {g.word:<20} {g.count:>5} {g.references:>5} {g.outputs:>5}  {g.kind:<10} "
                        f"{said:<14} {', '.join(g.descriptive) or '-'}"))
        print(term_safe(f"        kind: {g.reason}"))
        for o in g.examples:
            where = o.entry_id if o.run_id is None else f"{o.run_id}/{o.entry_id}"
            print(term_safe(f"        {o.side} {where}: {o.text}"))
    if len(shown) < len(words):
        print(f"... {len(words) - len(shown)} more (--limit 0 shows all)")
    return 0
