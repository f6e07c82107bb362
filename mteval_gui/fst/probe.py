"""Check an analyzer file in a child process before this process reads it.

hfst ends the whole process on some damaged files (an uncaught C++ exception: SIGABRT, exit
134; a bad table pointer: SIGSEGV), and pyhfst crashes or loops on others. Header and table
checks (:mod:`mteval_gui.fst.olformat`) catch truncation and most damage without a child; the
probe catches the rest: a child process loads the file with the backend this process will use
and looks up each input symbol and one longer string. Only if the child comes back cleanly
does the caller read the file itself, so a file that kills hfst can never take down scoring,
installing or the GUI — it is reported as unusable with the reason. The child is started and
killed at the time limit by :func:`mteval_gui.runtime.run_command`.

A verdict depends only on the file's content and the backend, so it is cached by sha256 and
size (the sha256 itself is memoised by path, size and modification time), per backend and
backend version: in this process, and in ``<user data>/cache/fst-probe.json`` so later
processes skip the child. A timeout is not cached (the machine may just have been busy), nor
is a child that could not do its work for another reason than the file (it could not start,
could not import the package): only a verdict or a crash of the library speaks of the file.

The child imports the package from the folder this process imported it from, never from the
working directory (a folder of data may hold anything).

In a frozen bundle the child is the bundle's own executable started with
:data:`PROBE_FLAG`; its entry point must call :func:`run_child_if_requested` first.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mteval_gui import paths, runtime
from mteval_gui.fst.backends import backend_version

PROBE_TIMEOUT = 120.0  # loading a large analyzer with pure-Python pyhfst on a slow machine
PROBE_FLAG = "--mteval-fst-probe"
CACHE_FILE = "fst-probe.json"
_MAX_CACHED = 512
_RESULT_PREFIX = "mteval-fst-probe:"


@dataclass(frozen=True)
class ProbeVerdict:
    ok: bool
    reason: str | None = None
    cached: bool = False


_MEMO: dict[str, ProbeVerdict] = {}
_MEMO_LOCK = threading.Lock()


def cache_key(sha256: str, size: int, backend: str) -> str:
    return f"{sha256}:{size}:{backend}:{backend_version(backend) or '?'}"


def _cache_path() -> Path:
    return paths.user_data_dir() / "cache" / CACHE_FILE


def _read_disk() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_disk(key: str, verdict: ProbeVerdict) -> None:
    p = _cache_path()
    try:
        data = _read_disk()
        data[key] = {"ok": verdict.ok, "reason": verdict.reason,
                     "checked_at": datetime.now(UTC).isoformat(timespec="seconds")}
        if len(data) > _MAX_CACHED:
            data = dict(list(data.items())[-_MAX_CACHED:])
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f"{p.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(p)
    except OSError:
        pass  # a read-only or full disk only costs a child process next time


def forget() -> None:
    """Drop the verdicts memoised in this process (the disk cache is kept)."""
    with _MEMO_LOCK:
        _MEMO.clear()


_CHILD_CODE = ("import sys; sys.path.insert(0, sys.argv.pop(1)); from mteval_gui.fst.probe import child_main; "
               "sys.exit(child_main(sys.argv[1:]))")
# exit statuses of a process the library took down: abort() through a shell (128 + SIGABRT), and on
# Windows abort() (3) and the NTSTATUS codes of an access violation, a stack overflow, a heap corruption
_CRASH_STATUSES = {134: "aborted (exit 134)", 3: "aborted (exit 3)", 0xC0000005: "access violation",
                   0xC00000FD: "stack overflow", 0xC0000374: "heap corruption", 0xC0000409: "stack buffer overrun"}


def child_command(path: Path, backend: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of the child that checks ``path``.

    ``-P`` keeps the working directory out of the child's import path, and the folder holding
    this package goes first, so the child runs this very code whatever the working directory holds.
    """
    env = dict(os.environ)
    if getattr(sys, "frozen", False):
        return [sys.executable, PROBE_FLAG, str(path), backend], env
    root = str(Path(__file__).resolve().parents[2])  # the folder holding the mteval_gui package
    return [sys.executable, "-P", "-c", _CHILD_CODE, root, str(path), backend], env


def _last_line(stderr: str) -> str:
    last = next((ln.strip() for ln in reversed(stderr.splitlines()) if ln.strip()), "")
    return f": {last[:200]}" if last else ""


def _crash(code: int) -> str | None:
    """How the library took the child down, or None when the exit status is not a crash."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return _CRASH_STATUSES.get(code)


def run_child(path: Path, backend: str, timeout: float) -> tuple[ProbeVerdict, bool]:
    """Run the check in a child; returns the verdict and whether it may be cached."""
    cmd, env = child_command(path, backend)
    try:
        proc = runtime.run_command(cmd, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ProbeVerdict(False, f"checking it with {backend} took longer than {timeout:g} s"), False
    except OSError as exc:
        return ProbeVerdict(False, f"cannot start the process that checks it ({exc})"), False
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(_RESULT_PREFIX):
            try:
                msg = json.loads(line[len(_RESULT_PREFIX):])
            except ValueError:
                break
            if proc.returncode == 0:
                return ProbeVerdict(bool(msg.get("ok")), msg.get("reason")), True
            break
    if proc.returncode == 0:
        return ProbeVerdict(False, f"the check gave no answer (stderr: {proc.stderr.strip()[-200:]})"), False
    crash = _crash(proc.returncode)
    if crash is None:  # the child itself failed (e.g. it could not import the package): not the file's fault
        return ProbeVerdict(False, f"the process that checks it failed (exit status {proc.returncode}"
                                   f"{_last_line(proc.stderr)})"), False
    return ProbeVerdict(False, f"the {backend} library crashed reading it ({crash}{_last_line(proc.stderr)}); "
                               "the file is damaged"), True


def probe_file(path: str | Path, backend: str, *, sha256: str, size: int,
               timeout: float = PROBE_TIMEOUT) -> ProbeVerdict:
    """The verdict on one analyzer file for one backend (cached; a child process when not)."""
    key = cache_key(sha256, size, backend)
    with _MEMO_LOCK:
        got = _MEMO.get(key)
    if got is not None:
        return ProbeVerdict(got.ok, got.reason, cached=True)
    rec = _read_disk().get(key)
    ok = rec.get("ok") if isinstance(rec, dict) else None
    if isinstance(ok, bool) and isinstance(rec, dict):
        reason = rec.get("reason")
        verdict = ProbeVerdict(ok, reason if isinstance(reason, str) else None)
        with _MEMO_LOCK:
            _MEMO[key] = verdict
        return ProbeVerdict(verdict.ok, verdict.reason, cached=True)
    verdict, cacheable = run_child(Path(path), backend, timeout)
    if cacheable:
        with _MEMO_LOCK:
            _MEMO[key] = verdict
        _write_disk(key, verdict)
    return verdict


# -- the child --------------------------------------------------------------------------
def _check(path: str, backend: str) -> dict[str, object]:
    from mteval_gui.fst.backends import BackendError, UnreadableTransducer, open_transducer
    from mteval_gui.fst.olformat import FormatError, read_layout

    try:
        layout = read_layout(path)
        t = open_transducer(path, layout, backend)
        symbols = list(layout.input_symbols[:256])
        for s in symbols:
            t.lookup(s)
        t.lookup("".join(symbols[:8]))
        t.lookup("a")
    except BackendError as exc:
        return {"ok": False, "reason": str(exc)}
    except (UnreadableTransducer, FormatError, OSError) as exc:
        return {"ok": False, "reason": f"not a readable HFST transducer ({exc})"}
    except Exception as exc:  # noqa: BLE001 (whatever the library raises on this file is the verdict on it)
        return {"ok": False, "reason": f"the {backend} library failed reading it ({type(exc).__name__}: "
                                       f"{str(exc)[:200]}); the file is damaged"}
    return {"ok": True}


def child_main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m mteval_gui.fst.probe PATH hfst|pyhfst", file=sys.stderr)
        return 2
    result = _check(argv[0], argv[1])
    sys.stdout.write(_RESULT_PREFIX + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


def run_child_if_requested(argv: list[str] | None = None) -> None:
    """For a frozen bundle's entry point: act as the probe child when started with :data:`PROBE_FLAG`."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == PROBE_FLAG:
        sys.exit(child_main(args[1:]))


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
