"""Installed plugin packages: language standards and benchmark suites (entry-point group ``mteval_gui.standards``).

A plugin package registers one entry point in the group :data:`ENTRY_POINT_GROUP`; its object
is a :class:`~mteval_gui.domain.plugin.StandardsPlugin` declaration (the bundled
``eval_standards`` registers itself the same way in ``pyproject.toml``). The application knows
no plugin by name: it finds them here, through :mod:`importlib.metadata` only.

Discovery never raises. A plugin that cannot be loaded or whose declaration is wrong is left
out and reported as a :class:`PluginProblem` (``plugin NAME: message``), the way card problems
are; the other plugins are still used. A third-party plugin is imported here only after a child
process imported it within a time limit (:mod:`mteval_gui.plugin_probe`), so one that exits,
hangs or raises ``SystemExit``/``KeyboardInterrupt`` at import is reported too; the bundled
standards are imported directly (:func:`trusted`), still catching every ``BaseException`` but
the user's Ctrl-C. :func:`plugins_changed` compares the installed entry points with those of
the last discovery (a running GUI discovers again when a plugin was installed meanwhile).

**Source checkouts.** When the application runs from a source checkout (a ``pyproject.toml``
of ``mteval-gui`` beside the package), that file's entry points are the truth for this
distribution: the installed metadata may be older than the checkout (an editable install made
before an entry point was added, or one pointing at another checkout). Entry points of other
distributions come from the installed metadata as usual.

**What a card may name.** :func:`class_ref_problem` decides whether a ``"module:Class"``
reference may be imported: only modules under the built-in metric package
(:data:`BUILTIN_PACKAGES`) or under a package an installed plugin declares. Nothing else is
ever imported on behalf of a card or of stored data, so a card file (or a workspace) can never
run the standard library's ``this``, nor a ``.py`` file lying next to the data.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import re
import sys
import threading
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from mteval_gui import plugin_probe
from mteval_gui.domain.plugin import StandardsPlugin, SuiteDecl

ENTRY_POINT_GROUP = "mteval_gui.standards"
DISTRIBUTION = "mteval-gui"
BUILTIN_PACKAGES: tuple[str, ...] = ("mteval_gui.scoring.metrics",)
_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_CLASS_REF = re.compile(r"^(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<attr>[A-Za-z_]\w*)$")
_PKG_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class PluginProblem:
    """Why a plugin (or part of it) is not used."""

    plugin: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin}: {self.message}"


@dataclass(frozen=True)
class InstalledPlugin:
    """A plugin whose declaration was accepted."""

    name: str
    declaration: StandardsPlugin
    entry_point: str  # "eval_standards.plugin:PLUGIN"
    distribution: str | None  # "mteval-gui", "xyz-standard"; None when not known
    version: str | None
    cards_dir: Path | None  # None when it ships no cards (or its folder is missing: see the problems)
    from_checkout: bool = False
    messages_dir: Path | None = None  # its message catalogs (LOCALE.json); None when it ships none

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(self.declaration.packages)

    @property
    def suites(self) -> tuple[SuiteDecl, ...]:
        return tuple(self.declaration.suites)

    def owns(self, module: str) -> bool:
        return any(_under(module, p) for p in self.declaration.packages)


@dataclass(frozen=True)
class Plugins:
    """Every accepted plugin (sorted by name) and every problem found."""

    plugins: tuple[InstalledPlugin, ...] = ()
    problems: tuple[PluginProblem, ...] = field(default_factory=tuple)

    def allowed_packages(self) -> tuple[str, ...]:
        """Module prefixes whose classes cards may name: the built-ins, then each plugin's packages."""
        out = list(BUILTIN_PACKAGES)
        for p in self.plugins:
            out.extend(x for x in p.packages if x not in out)
        return tuple(out)

    def get(self, name: str) -> InstalledPlugin | None:
        return next((p for p in self.plugins if p.name == name), None)

    def owner(self, module: str) -> InstalledPlugin | None:
        """The plugin whose packages hold ``module`` (None for the built-ins and for strangers)."""
        return next((p for p in self.plugins if p.owns(module)), None)

    def suites(self) -> dict[str, tuple[InstalledPlugin, SuiteDecl]]:
        """Suite name -> (plugin, declaration), in plugin order."""
        out: dict[str, tuple[InstalledPlugin, SuiteDecl]] = {}
        for p in self.plugins:
            for s in p.suites:
                out.setdefault(s.name, (p, s))
        return out


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _canonical(name: str | None) -> str | None:
    return re.sub(r"[-_.]+", "-", name).lower() if name else None


def class_ref_problem(python_name: str, plugins: Plugins | None = None) -> str | None:
    """Why ``"module:Class"`` may not be imported for a card or stored data (None when it may)."""
    m = _CLASS_REF.match(python_name) if isinstance(python_name, str) else None
    if m is None:
        return f"{python_name!r} must look like 'package.module:ClassName'"
    module = m.group("module")
    allowed = (plugins if plugins is not None else installed_plugins()).allowed_packages()
    if any(_under(module, p) for p in allowed):
        return None
    return (f"module {module!r} is not part of an installed plugin package (allowed: {', '.join(allowed)}); "
            "install the plugin that provides it")


# ------------------------------------------------------------------------------- discovery


def _checkout_entry_points() -> list[importlib.metadata.EntryPoint] | None:
    """The entry points of the source checkout this package runs from (None when not a checkout)."""
    pyproject = _PKG_DIR.parent / "pyproject.toml"
    if not (pyproject.is_file() and (_PKG_DIR.parent / _PKG_DIR.name / "__init__.py").is_file()):
        return None
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    project = data.get("project")
    if not isinstance(project, dict) or _canonical(project.get("name")) != DISTRIBUTION:
        return None
    table = (project.get("entry-points") or {}).get(ENTRY_POINT_GROUP) or {}
    if not isinstance(table, dict):
        return []
    return [importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP)
            for name, value in sorted(table.items()) if isinstance(value, str)]


def _dist_of(ep: importlib.metadata.EntryPoint) -> tuple[str | None, str | None]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return None, None
    try:
        return _canonical(dist.metadata["Name"]), dist.version
    except (KeyError, AttributeError):  # a distribution without metadata
        return None, None


def _entry_points() -> list[tuple[importlib.metadata.EntryPoint, str | None, str | None, bool]]:
    """(entry point, distribution, version, from the checkout) for every candidate entry point."""
    checkout = _checkout_entry_points()
    out = []
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist, version = _dist_of(ep)
        if checkout is not None and dist == DISTRIBUTION:
            continue  # the checkout's pyproject.toml speaks for this distribution
        out.append((ep, dist, version, False))
    if checkout is not None:
        from mteval_gui import __version__

        out.extend((ep, DISTRIBUTION, __version__, True) for ep in checkout)
    return sorted(out, key=lambda t: (t[0].name, t[1] or ""))


def _module_dir(module: str) -> Path | None:
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    return Path(file).resolve().parent if file else None


def _top_level_found(package: str) -> bool:
    """Whether the top-level package of ``package`` exists on ``sys.path`` (found, not imported)."""
    top = package.split(".")[0]
    if top in sys.modules:
        return True
    return importlib.machinery.PathFinder.find_spec(top) is not None


def _declaration(obj: Any) -> StandardsPlugin:
    if isinstance(obj, StandardsPlugin):
        return obj
    if isinstance(obj, BaseModel):
        obj = obj.model_dump()
    if not isinstance(obj, Mapping):
        raise TypeError(f"the entry point's object is a {type(obj).__name__}, not a StandardsPlugin declaration")
    return StandardsPlugin.model_validate(dict(obj))


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(declaration)"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _accept(ep: importlib.metadata.EntryPoint, dist: str | None, version: str | None, from_checkout: bool,
            accepted: Sequence[InstalledPlugin], problems: list[PluginProblem],
            verdict: plugin_probe.Verdict | None = None) -> InstalledPlugin | None:
    name = ep.name

    def problem(message: str) -> None:
        problems.append(PluginProblem(name, message))

    if any(p.name == name for p in accepted):
        problem(f"another installed plugin has the same name; {ep.value} ({dist or 'unknown distribution'}) "
                "is not used")
        return None
    if verdict is not None and verdict.fatal is not None:
        problem(f"cannot load {ep.value}: {verdict.fatal}")
        return None
    try:
        obj = ep.load()
    except Exception as exc:  # noqa: BLE001 - importing a broken plugin may raise anything; it is reported
        problem(f"cannot load {ep.value}: {type(exc).__name__}: {exc}")
        return None
    except KeyboardInterrupt:
        raise  # here it is the user's Ctrl-C (a third-party plugin raising it was refused by its check)
    except BaseException as exc:  # noqa: BLE001 - SystemExit & co. from a plugin's import end nothing but it
        problem(f"cannot load {ep.value}: raised {exc!r}")
        return None
    try:
        decl = _declaration(obj)
    except ValidationError as exc:
        problem(f"{ep.value}: invalid declaration: {_validation_message(exc)}")
        return None
    except (TypeError, ValueError) as exc:
        problem(f"{ep.value}: {exc}")
        return None
    if decl.name != name:
        problem(f"{ep.value} declares the name {decl.name!r}, not the entry point's name {name!r}")
        return None
    claimed = {pkg: p.name for p in accepted for pkg in p.packages}
    for pkg in decl.packages:
        top = pkg.split(".")[0]
        if not _MODULE.match(pkg):
            problem(f"packages: {pkg!r} is not a module name")
            return None
        if top == "mteval_gui" or top in sys.stdlib_module_names:
            problem(f"packages: {pkg!r} is not the plugin's own package (the application and the standard "
                    "library cannot be claimed)")
            return None
        for other, owner in claimed.items():
            if _under(pkg, other) or _under(other, pkg):
                problem(f"packages: {pkg!r} overlaps {other!r} of plugin {owner}")
                return None
        if not _top_level_found(pkg):
            problem(f"packages: {pkg!r} is not installed")
            return None
    taken = {s.name: p.name for p in accepted for s in p.suites}
    suites_ok = True
    for i, s in enumerate(decl.suites):
        module = s.python_name.partition(":")[0]
        if not _CLASS_REF.match(s.python_name):
            problem(f"suites[{i}].python_name: {s.python_name!r} must look like 'package.module:attribute'")
            suites_ok = False
        elif not any(_under(module, p) for p in decl.packages):
            problem(f"suites[{i}].python_name: {module!r} is outside the plugin's packages "
                    f"({', '.join(decl.packages)})")
            suites_ok = False
        elif s.name in taken:
            problem(f"suites[{i}].name: suite {s.name!r} is already provided by plugin {taken[s.name]}")
            suites_ok = False
    if not suites_ok:
        return None
    broken = {s.name: why for s in decl.suites if verdict is not None and (why := verdict.suite_fatal(s.name))}
    if broken:
        for i, s in enumerate(decl.suites):
            if s.name in broken:
                problem(f"suites[{i}] {s.name}: cannot load {s.python_name}: {broken[s.name]}; the suite is not used")
        decl = decl.model_copy(update={"suites": [s for s in decl.suites if s.name not in broken]})
    cards_dir = _package_folder("cards", decl.cards, ep.module, "cards", problem)
    messages_dir = _package_folder("messages", decl.messages, ep.module, "translations", problem)
    return InstalledPlugin(name=name, declaration=decl, entry_point=ep.value, distribution=dist, version=version,
                           cards_dir=cards_dir, from_checkout=from_checkout, messages_dir=messages_dir)


def _package_folder(key: str, value: str | None, module: str, what: str,
                    problem: Callable[[str], None]) -> Path | None:
    """The folder ``value`` of a plugin declaration's ``key``, inside the package of ``module``
    (None, with the problem reported, when it is not such a folder; None when not declared)."""
    if value is None:
        return None
    rel = Path(value)
    base = _module_dir(module)
    if rel.is_absolute() or ".." in rel.parts or not value.strip():
        problem(f"{key}: {value!r} must be a folder inside the plugin package")
    elif base is None or not (base / rel).is_dir():
        problem(f"{key}: folder {value!r} not found; its {what} are not used")
    else:
        return base / rel
    return None


def trusted(distribution: str | None, from_checkout: bool) -> bool:
    """Whether an entry point is the application's own (imported directly, never checked in a child first)."""
    return from_checkout or distribution == DISTRIBUTION


def discover_plugins(entry_points: Iterable[tuple[importlib.metadata.EntryPoint, str | None, str | None, bool]]
                     | None = None, *, recheck: bool = False) -> Plugins:
    """Load and check every plugin (default: the installed entry points). Never raises (but on the user's Ctrl-C).

    Third-party entry points are imported here only after a child process imported them
    (:mod:`mteval_gui.plugin_probe`; ``recheck``: not from the cache).
    """
    accepted: list[InstalledPlugin] = []
    problems: list[PluginProblem] = []
    try:
        candidates = list(entry_points) if entry_points is not None else _entry_points()
    except (OSError, ValueError) as exc:  # unreadable installed metadata
        return Plugins((), (PluginProblem("(all)", f"cannot read the installed entry points: {exc}"),))
    checks = [plugin_probe.Candidate(ep.name, ep.value, dist, version)
              for ep, dist, version, from_checkout in candidates if not trusted(dist, from_checkout)]
    verdicts = plugin_probe.check(checks, recheck=recheck) if plugin_probe.available() else {}
    for ep, dist, version, from_checkout in candidates:
        verdict = verdicts.get(plugin_probe.Candidate(ep.name, ep.value, dist, version).key)
        plugin = _accept(ep, dist, version, from_checkout, accepted, problems, verdict)
        if plugin is not None:
            accepted.append(plugin)
    return Plugins(tuple(sorted(accepted, key=lambda p: p.name)), tuple(problems))


def _set_of(candidates: Iterable[tuple[importlib.metadata.EntryPoint, str | None, str | None, bool]]
            ) -> tuple[tuple[str, str, str | None, str | None], ...]:
    return tuple((ep.name, ep.value, dist, version) for ep, dist, version, _ in candidates)


def installed_set() -> tuple[tuple[str, str, str | None, str | None], ...]:
    """(name, value, distribution, version) of every entry point installed now: cheap (no plugin is
    imported), and different as soon as a plugin is installed, removed or upgraded."""
    importlib.invalidate_caches()  # a distribution installed by another process since the last look
    try:
        return _set_of(_entry_points())
    except (OSError, ValueError):
        return ()


_discovered: dict[str, Any] = {}  # "plugins": the Plugins of installed_plugins(); "set": installed_set() then
_generation = [0]
_lock = threading.RLock()


def generation() -> int:
    """A number that changes whenever the plugins are discovered again (a cache key for what derives from them)."""
    installed_plugins()
    return _generation[0]


def _discover_installed(*, recheck: bool = False) -> Plugins:
    try:
        candidates = _entry_points()
    except (OSError, ValueError) as exc:  # unreadable installed metadata
        candidates = []
        plugins = Plugins((), (PluginProblem("(all)", f"cannot read the installed entry points: {exc}"),))
    else:
        plugins = discover_plugins(candidates, recheck=recheck)
    _discovered["set"], _discovered["plugins"] = _set_of(candidates), plugins
    _generation[0] += 1
    return plugins


def installed_plugins() -> Plugins:
    """The plugins of this environment (discovered once per process; :func:`refresh_plugins` forgets)."""
    plugins = _discovered.get("plugins")
    if plugins is not None:
        return cast(Plugins, plugins)
    with _lock:  # the GUI reads the runs table in worker threads
        plugins = _discovered.get("plugins")
        return cast(Plugins, plugins) if plugins is not None else _discover_installed()


def refresh_plugins(*, recheck: bool = False) -> Plugins:
    """Discover the plugins again (after installing one in a running process; ``recheck``: check every
    third-party plugin in a child again instead of trusting the cached verdicts)."""
    with _lock:
        importlib.invalidate_caches()
        return _discover_installed(recheck=recheck)


def plugins_changed() -> bool:
    """Whether plugins were installed, removed or upgraded since they were last discovered in this process."""
    return "plugins" in _discovered and installed_set() != _discovered.get("set")
