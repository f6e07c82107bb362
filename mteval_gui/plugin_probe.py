"""Checking in a child process that a third-party plugin can be imported, before this process imports it.

A plugin's entry point is code run at import. A plugin that calls ``sys.exit`` or ``os._exit``,
raises ``KeyboardInterrupt`` or another ``BaseException``, or never returns would otherwise
end or hang every command that looks at the plugins (``mteval list runs`` reads the language
cards, and plugins ship cards). :func:`check` imports each entry point, and the modules of the
benchmark suites it declares, in a child Python process first (a bare interpreter started by
:func:`mteval_gui.runtime.start_python`), one step after the other, with
a time limit per step (:data:`TIMEOUT_ENV`, default :data:`DEFAULT_TIMEOUT_S` seconds). A step
that ends the child, outlives the limit or raises something that is not an ``Exception`` is
**fatal**: the plugin (or the suite) is not imported here, and its reason is reported
(``exited with status 3 while importing``, ``did not finish importing within 10 s``,
``raised SystemExit(3)``). A step that raises an ordinary ``Exception`` is left to this
process, which catches it and reports it as before. The child ignores ``SIGINT``, so a Ctrl-C
typed by the user stops the command, never condemns the plugin being checked.

**Cache.** Verdicts are kept in ``user_cache_dir()/plugin-checks.json``, one per entry point,
keyed by its name and value, its distribution's name and version, the Python that ran it and
the size and modification time of every file the import ran from the plugin's own packages
(the modules' chain ``pkg/__init__.py``, ``pkg/plugin.py`` as found on ``sys.path`` now, and
the further modules of those packages the child saw imported); a verdict of a plugin that
outlived the time limit is checked again when the limit is raised. A command whose plugins are
unchanged pays a few ``stat`` calls and one small JSON read; installing, upgrading or editing a
plugin checks it again. ``mteval plugins`` always checks again (a plugin can also break
through a dependency, which the key does not cover).

The bundled standards (distribution ``mteval-gui``, or the source checkout) are trusted and
imported directly: they ship and are tested with the application, and checking them would
add a child process to the start of every command.

In a frozen bundle (no Python interpreter to start) nothing can be checked:
:func:`available` is False and the caller imports directly, still catching every
``BaseException`` but ``KeyboardInterrupt``.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import queue

TIMEOUT_ENV = "MTEVAL_PLUGIN_TIMEOUT"
DEFAULT_TIMEOUT_S = 10.0
CACHE_NAME = "plugin-checks.json"
_CACHE_FORMAT = 1
_BOOT = ("import sys, json; r = json.loads(sys.stdin.readline()); sys.path[:] = r['path']; "
         "from mteval_gui.plugin_probe import child_main; child_main(r)")


@dataclass(frozen=True)
class Candidate:
    """One entry point to check (``value``: ``"module:attr"``)."""

    name: str
    value: str
    distribution: str | None
    version: str | None

    @property
    def key(self) -> str:
        return f"{self.name}={self.value}"

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()


@dataclass(frozen=True)
class Verdict:
    """What the child saw: ``fatal`` (None: the entry point may be imported here) and, per suite, the same."""

    fatal: str | None = None
    suites: Mapping[str, str | None] = field(default_factory=dict)

    def suite_fatal(self, name: str) -> str | None:
        return self.suites.get(name)


def available() -> bool:
    """Whether a child Python can be started (not in a frozen bundle)."""
    return not getattr(sys, "frozen", False) and bool(sys.executable)


def timeout_s() -> float:
    """The time limit of one import step (``MTEVAL_PLUGIN_TIMEOUT`` seconds; default 10)."""
    raw = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if 0 < value < 86400 else DEFAULT_TIMEOUT_S


def cache_path() -> Path:
    from mteval_gui.paths import user_cache_dir

    return user_cache_dir() / CACHE_NAME


# ------------------------------------------------------------------------------- fingerprints


def _module_chain(module: str) -> list[str]:
    """The files importing ``module`` runs from its own package chain, found on ``sys.path`` without importing."""
    out: list[str] = []
    search: list[str] | None = None
    parts = module.split(".")
    for i, part in enumerate(parts):
        try:
            spec = importlib.machinery.PathFinder.find_spec(part, sys.path if i == 0 else search)
        except (ImportError, ValueError, OSError):
            spec = None
        if spec is None:
            out.append(f"?{'.'.join(parts[:i + 1])}")  # not found (now): finding it later changes the key
            break
        if spec.origin and os.path.isabs(spec.origin):
            out.append(spec.origin)
        if spec.submodule_search_locations is None:
            break
        search = list(spec.submodule_search_locations)
    return out


def _stat(path: str) -> list[int] | None:
    if path.startswith("?"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def _identity(c: Candidate) -> dict[str, Any]:
    return {"distribution": c.distribution, "version": c.version, "python": f"{sys.executable} {sys.version}",
            "chain": _module_chain(c.module)}


def _files_match(files: Any) -> bool:
    if not isinstance(files, dict):
        return False
    return all(_stat(p) == v for p, v in files.items())


# ------------------------------------------------------------------------------- cache


def _read_cache() -> dict[str, Any]:
    try:
        data = json.loads(cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT or not isinstance(data.get("checks"), dict):
        return {}
    return data["checks"]


def _write_cache(checks: Mapping[str, Any]) -> None:
    """Write atomically; a cache that cannot be written only costs the next command another check."""
    import tempfile

    path = cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".plugin-checks-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"format": _CACHE_FORMAT, "checks": checks}, f, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        pass


def _cached(entry: Any, identity: Mapping[str, Any]) -> Verdict | None:
    if not isinstance(entry, dict) or entry.get("identity") != identity:
        return None
    if not _files_match(entry.get("files")):
        return None
    limit = entry.get("timed_out_at")
    if isinstance(limit, int | float) and timeout_s() > limit:
        return None  # it outlived a shorter limit than today's: check again
    fatal, suites = entry.get("fatal"), entry.get("suites")
    if not (fatal is None or isinstance(fatal, str)) or not isinstance(suites, dict):
        return None
    if not all(isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in suites.items()):
        return None
    return Verdict(fatal, dict(suites))


# ------------------------------------------------------------------------------- checking


def check(candidates: Sequence[Candidate], *, recheck: bool = False) -> dict[str, Verdict]:
    """The verdict of every candidate, by :attr:`Candidate.key` (cached ones unless ``recheck``).

    A candidate the child could not check at all (no Python could be started) gets a fatal
    verdict saying so, not cached: it is not imported here.
    """
    if not candidates:
        return {}
    cache = _read_cache()
    identities = {c.key: _identity(c) for c in candidates}
    out: dict[str, Verdict] = {}
    todo: list[Candidate] = []
    for c in candidates:
        hit = None if recheck else _cached(cache.get(c.key), identities[c.key])
        if hit is None:
            todo.append(c)
        else:
            out[c.key] = hit
    if not todo:
        return out
    limit = timeout_s()
    results = _run(todo, limit)
    changed = False
    for c in todo:
        res = results.get(c.key)
        if res is None or res.unchecked:
            out[c.key] = Verdict(res.unchecked if res is not None else "could not be checked")
            continue
        out[c.key] = Verdict(res.fatal, dict(res.suites))
        files = {p: s for p in [*identities[c.key]["chain"], *res.files] if (s := _stat(p)) is not None}
        cache[c.key] = {"identity": identities[c.key], "files": files, "fatal": res.fatal, "suites": res.suites}
        if res.timed_out:
            cache[c.key]["timed_out_at"] = limit
        changed = True
    if changed:
        _write_cache(cache)
    return out


@dataclass
class _Result:
    fatal: str | None = None
    suites: dict[str, str | None] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    loaded: bool = False  # the entry point itself imported (its suites may follow)
    finished: bool = False
    unchecked: str | None = None
    timed_out: bool = False  # a step outlived the time limit


def _run(todo: Sequence[Candidate], limit: float) -> dict[str, _Result]:
    """Check ``todo`` in as few children as possible: a child that dies or hangs is replaced by another
    that goes on with the next step."""
    results = {c.key: _Result() for c in todo}
    start = 0
    while start < len(todo):
        rest = todo[start:]
        request = {"path": [p for p in sys.path if isinstance(p, str)], "eps": [
            {"name": c.name, "value": c.value, "skip_load": results[c.key].loaded,
             "skip_suites": sorted(results[c.key].suites)} for c in rest]}
        before = _progress(results)
        failure = _child(request, rest, results, limit)
        if failure is None and _progress(results) == before:
            failure = "could not be checked: the checking process ended between two imports"
        if failure is not None:  # the child could not run (or goes no further): nothing more can be checked
            for c in rest:
                if not results[c.key].finished:
                    results[c.key].unchecked = failure
            break
        start = next((i for i, c in enumerate(todo) if not results[c.key].finished), len(todo))
    return results


def _progress(results: Mapping[str, _Result]) -> tuple[int, int, int]:
    return (sum(r.finished for r in results.values()), sum(r.loaded for r in results.values()),
            sum(len(r.suites) for r in results.values()))


def _reader(stream: Any, q: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            q.put(line)
    except (OSError, ValueError):
        pass
    finally:
        q.put(None)


def _child(request: Mapping[str, Any], rest: Sequence[Candidate], results: dict[str, _Result],
           limit: float) -> str | None:
    """Run one child over ``rest``, filling ``results``; a message when no child could be started."""
    import queue
    import threading

    from mteval_gui import runtime

    try:
        child, proc = runtime.start_python(_BOOT, name="mteval-plugin-check")
    except OSError as exc:
        return f"could not be checked: cannot start {sys.executable}: {exc}"
    q: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True)
    reader.start()
    current: tuple[int, str | None] | None = None  # (index in rest, suite name or None for the entry point)
    started = False
    try:
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + max(limit, 30.0)  # the child's own start (Python, this module)
        while True:
            try:
                line = q.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = "timeout"
            if line == "timeout" or line is None:
                if current is None:
                    if started:
                        return None  # finished between steps
                    return ("could not be checked: the checking process did not start"
                            if line == "timeout" else "could not be checked: the checking process ended at once")
                if line == "timeout":
                    reason = f"did not finish importing within {limit:g} s"
                    results[rest[current[0]].key].timed_out = True
                else:
                    child.join()
                    rc = child.exitcode or 0
                    reason = (f"was killed by signal {-rc} while importing" if rc < 0
                              else f"exited with status {rc} while importing")
                _record(results[rest[current[0]].key], current[1], reason, fatal=True)
                return None
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if not isinstance(msg, list) or not msg:
                continue
            started = True
            kind = msg[0]
            if kind == "begin":
                current = (int(msg[1]), msg[2])
                deadline = time.monotonic() + limit
            elif kind == "end":
                res = results[rest[int(msg[1])].key]
                _record(res, msg[2], msg[4], fatal=msg[3] == "fatal")
                if msg[2] is None and msg[3] != "fatal":
                    res.loaded = True
                current = None
                deadline = time.monotonic() + limit
            elif kind == "files":
                res = results[rest[int(msg[1])].key]
                res.files = [p for p in msg[2] if isinstance(p, str)]
                res.finished = True
            elif kind == "done":
                return None
    finally:
        child.kill()
        child.join()
        if proc.stdout is not None:
            proc.stdout.close()


def _record(res: _Result, suite: str | None, reason: str | None, *, fatal: bool) -> None:
    if suite is None:
        if fatal:
            res.fatal, res.finished = reason, True
    else:
        res.suites[suite] = reason if fatal else None


# ------------------------------------------------------------------------------- the child


def _describe(exc: BaseException) -> tuple[str, str]:
    if isinstance(exc, Exception):
        return "error", f"{type(exc).__name__}: {exc}"
    return "fatal", f"raised {exc!r}"


def _suite_modules(obj: Any) -> list[tuple[str, str]]:
    """(suite name, module) of every suite a declaration (model or mapping) names."""
    suites = obj.get("suites") if isinstance(obj, Mapping) else getattr(obj, "suites", None)
    out = []
    for s in suites if isinstance(suites, Iterable) and not isinstance(suites, str | bytes) else ():
        name = s.get("name") if isinstance(s, Mapping) else getattr(s, "name", None)
        ref = s.get("python_name") if isinstance(s, Mapping) else getattr(s, "python_name", None)
        if isinstance(name, str) and isinstance(ref, str) and ":" in ref:
            out.append((name, ref.partition(":")[0]))
    return out


def child_main(request: Mapping[str, Any]) -> None:  # pragma: no cover - runs in the child process
    """Import each entry point and its suites' modules, reporting every step on the original stdout."""
    import importlib
    import importlib.metadata
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the user's Ctrl-C is for the command, not the check
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # what the plugin prints goes to stderr (discarded), never into the report

    def send(*msg: Any) -> None:
        proto.write(json.dumps(list(msg)) + "\n")
        proto.flush()

    for i, ep in enumerate(request["eps"]):
        before = set(sys.modules)
        module = ep["value"].partition(":")[0].strip()
        tops = {module.split(".")[0]}
        if not ep["skip_load"]:
            send("begin", i, None)
        try:
            obj = importlib.metadata.EntryPoint(ep["name"], ep["value"], "mteval_gui.standards").load()
            suites = _suite_modules(obj)
        except BaseException as exc:  # noqa: BLE001 - anything a plugin raises is reported
            send("end", i, None, *_describe(exc))
            send("files", i, _files(before, tops))
            continue
        if not ep["skip_load"]:
            send("end", i, None, "ok", None)
        for name, suite_module in suites:
            if name in ep["skip_suites"]:
                continue
            tops.add(suite_module.split(".")[0])
            send("begin", i, name)
            try:
                importlib.import_module(suite_module)
                send("end", i, name, "ok", None)
            except BaseException as exc:  # noqa: BLE001 - anything a plugin raises is reported
                send("end", i, name, *_describe(exc))
        send("files", i, _files(before, tops))
    send("done")
    proto.close()
    os._exit(0)  # no interpreter shutdown: the plugins' atexit handlers and threads are not this check's


def _files(before: set[str], tops: set[str]) -> list[str]:
    out = []
    for name in set(sys.modules) - before:
        if name.split(".")[0] not in tops:
            continue
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str) and os.path.isabs(file):
            out.append(file)
    return sorted(out)
