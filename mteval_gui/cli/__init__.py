"""``mteval``: the headless command line. Everything the GUI does is reachable here.

Each module of this package that defines ``register(subparsers)`` adds its commands; a
command's handler takes the parsed ``args`` and returns an exit code. Errors of the
application (:class:`~mteval_gui.errors.MtevalError`) are printed as ``file:line: message``
lines and give a non-zero exit code; nothing here imports Qt.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from mteval_gui import __version__
from mteval_gui.app import notices
from mteval_gui.app.batchgc import batch_gc
from mteval_gui.cli._common import term_safe
from mteval_gui.errors import InputError, MtevalError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INPUT = 2
EXIT_METRIC_FAILED = 3  # the run card was written, but a metric named with --metrics failed in it
EXIT_CANCELLED = 130


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named by ``argv`` (the first word that is not a global option or its value)."""
    it = iter(argv)
    for tok in it:
        if tok == "--db":
            next(it, None)
        elif not tok.startswith("-"):
            return tok
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``mteval`` parser. With ``argv`` naming one of the application's own commands, the
    commands that installed suites add are left out (finding them imports every suite plugin)."""
    parser = argparse.ArgumentParser(
        prog="mteval",
        description="Evaluate machine translation and LLM output for low-resource languages (headless).",
    )
    parser.add_argument("--version", action="version", version=f"mteval-gui {__version__}")
    parser.add_argument("--db", metavar="PATH", help="workspace database (default: $MTEVAL_DB or the user data folder)")
    parser.add_argument("--convert", action="store_true",
                        help="turn another application's SQLite file given as --db into a workspace (backed up first)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    command = _command_of(argv) if argv is not None else None
    late = []
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{mod.name}")
        register = getattr(module, "register", None)
        if register is not None:
            if "command" in inspect.signature(register).parameters:
                register(sub, command=command)  # a module whose commands are costly to build
            else:
                register(sub)
        if callable(getattr(module, "register_late", None)):
            late.append(module.register_late)
    if command is not None and command in sub.choices:
        return parser
    for register_late in late:  # commands named by plugins (suites) never hide the application's own
        register_late(sub)
    return parser


def run() -> NoReturn:
    """The ``mteval`` program (and ``python -m mteval_gui``): :func:`main`, then the exit. A
    command that declares ``quick_exit`` (it has written and closed everything it makes, and
    leaves no process or thread behind: ``evaluate``) ends the process as soon as its output is
    flushed, without the interpreter's shutdown, which frees every object one by one (≈ 0.3 s
    after scoring a 1,563-entry run) and, after :func:`~mteval_gui.app.batchgc.batch_gc`, would
    first scan them all once more (≈ 0.2 s)."""
    sys.exit(_main(None, exit_now=True))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``mteval`` command; returns its exit code (the process goes on)."""
    return _main(argv, exit_now=False)


def _main(argv: Sequence[str] | None, *, exit_now: bool) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_ERROR
    unsubscribe = notices.subscribe(_print_warning)
    try:
        with batch_gc():
            code = int(handler(args) or 0)
            if exit_now and getattr(args, "quick_exit", False):
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            return code
    except InputError as exc:
        for d in exc.defects:
            print(term_safe(str(d), keep_newlines=True), file=sys.stderr)
        n = len(exc.defects)
        print(f"mteval: {n} problem{'s' if n != 1 else ''} found; nothing was written", file=sys.stderr)
        return EXIT_INPUT
    except MtevalError as exc:
        print(term_safe(f"mteval: error: {exc}", keep_newlines=True), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("mteval: cancelled", file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:
        return EXIT_OK
    finally:
        unsubscribe()


def _print_warning(message: str) -> None:
    print(f"mteval: warning: {message}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    run()
