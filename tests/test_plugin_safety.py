"""A plugin whose import exits, hangs or raises a ``BaseException`` stops no command.

The plugins are folders with a ``*.dist-info`` (``METADATA`` and ``entry_points.txt``) put on
``PYTHONPATH`` of fresh ``python -m mteval_gui`` processes (or on ``sys.path`` here); nothing
is pip-installed. The process-level tests run in children because, before plugins were
checked in a child of their own, such a plugin ended (or hung) the process importing it.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mteval_gui import plugin_probe, standards
from mteval_gui.standards import ENTRY_POINT_GROUP, discover_plugins

REPO = Path(__file__).resolve().parent.parent

BAD_PLUGINS = {
    "sysexit_std": "import sys\nsys.exit(3)\n",
    "osexit_std": "import os\nos._exit(0)\n",
    "hang_std": "import time\ntime.sleep(1000)\n",
    "ctrlc_std": "raise KeyboardInterrupt\n",
}
SUITES_PLUGIN = """
print("a plugin printing at import")
PLUGIN = {"name": "suites_std", "packages": ["suites_std"], "suites": [
    {"name": "exitsuite", "title": "Exit suite", "python_name": "suites_std.exiting:SUITE"},
    {"name": "killsuite", "title": "Kill suite", "python_name": "suites_std.killing:SUITE"},
    {"name": "oksuite", "title": "OK suite", "python_name": "suites_std.fine:SUITE"}]}
"""


def _dist(site: Path, name: str, plugin_source: str, extra: dict[str, str] | None = None) -> None:
    """A distribution ``name`` (version 1.0) whose entry point is ``name.plugin:PLUGIN``."""
    pkg = site / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "plugin.py").write_text(textwrap.dedent(plugin_source), encoding="utf-8")
    for module, text in (extra or {}).items():
        (pkg / f"{module}.py").write_text(text, encoding="utf-8")
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{name} = {name}.plugin:PLUGIN\n",
                                           encoding="utf-8")


def _bad_site(site: Path) -> Path:
    for name, source in BAD_PLUGINS.items():
        _dist(site, name, source)
    _dist(site, "suites_std", SUITES_PLUGIN, {"exiting": "raise SystemExit(4)\n",
                                             "killing": "import os\nos._exit(3)\n",
                                             "fine": "SUITE = None\n"})
    return site


def _mteval(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "mteval_gui", *argv], env=env, capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mteval {' '.join(argv)} did not end (a plugin's import hung it)")


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    """A scored workspace (the demo), built without the broken plugins."""
    root = tmp_path_factory.mktemp("plugin_safety")
    home = root / "home"
    home.mkdir()
    db = root / "demo.sqlite"
    env = {**os.environ, "MTEVAL_HOME": str(home), "PYTHONPATH": str(REPO)}
    done = _mteval(env, "--db", str(db), "demo")
    assert done.returncode == 0, done.stderr
    return db


def test_a_plugin_that_exits_hangs_or_raises_at_import_stops_no_command(demo_db, tmp_path):
    site = _bad_site(tmp_path / "site")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "MTEVAL_HOME": str(home), "PYTHONPATH": os.pathsep.join((str(REPO), str(site))),
           plugin_probe.TIMEOUT_ENV: "1"}

    listed = _mteval(env, "--db", str(demo_db), "list", "runs")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "a plugin printing at import"  # the plugin that imports was imported here
    assert [line.split()[0] for line in lines[3:]] == [
        "crk-demo-good", "crk-demo-flawed", "ewe-demo-good", "ewe-demo-flawed"]

    scored = _mteval(env, "--db", str(demo_db), "score", "--all")
    assert scored.returncode == 0, scored.stderr
    assert scored.stdout.splitlines()[-1] == "nothing to score: every run is up to date"

    bench = _mteval(env, "--db", str(demo_db), "ewebench", "list")
    assert (bench.returncode, bench.stdout.splitlines()[-1]) == (0, "no ÈwéBench runs stored"), bench.stderr

    plugins = _mteval(env, "plugins")
    assert plugins.returncode == 1
    assert [line for line in plugins.stdout.splitlines() if not line.startswith(" ")] == [
        "a plugin printing at import",
        "eval_standards  (mteval-gui 0.1.0; eval_standards.plugin:PLUGIN, from the source checkout)",
        "suites_std  (suites-std 1.0; suites_std.plugin:PLUGIN)",
    ]
    assert "  suite: oksuite (OK suite)" in plugins.stdout and "exitsuite (" not in plugins.stdout
    assert plugins.stderr.splitlines() == [
        "plugin ctrlc_std: cannot load ctrlc_std.plugin:PLUGIN: raised KeyboardInterrupt()",
        "plugin hang_std: cannot load hang_std.plugin:PLUGIN: did not finish importing within 1 s",
        "plugin osexit_std: cannot load osexit_std.plugin:PLUGIN: exited with status 0 while importing",
        "plugin suites_std: suites[0] exitsuite: cannot load suites_std.exiting:SUITE: raised SystemExit(4); "
        "the suite is not used",
        "plugin suites_std: suites[1] killsuite: cannot load suites_std.killing:SUITE: exited with status 3 "
        "while importing; the suite is not used",
        "plugin sysexit_std: cannot load sysexit_std.plugin:PLUGIN: raised SystemExit(3)",
    ]


def test_system_exit_raised_by_a_trusted_import_is_reported_not_raised(tmp_path, monkeypatch):
    """The bundled standards are imported without a child: SystemExit there is still contained."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "quits_std").mkdir()
    (tmp_path / "quits_std" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "quits_std" / "plugin.py").write_text("raise SystemExit(5)\n", encoding="utf-8")
    ep = importlib.metadata.EntryPoint("quits_std", "quits_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    plugins = discover_plugins([(ep, standards.DISTRIBUTION, "0.1.0", False)])
    assert [str(p) for p in plugins.problems] == ["plugin quits_std: cannot load quits_std.plugin:PLUGIN: "
                                                  "raised SystemExit(5)"]


def test_verdicts_are_cached_until_the_plugin_changes(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(site, "late_std", "import os\nos._exit(7)\n")
    monkeypatch.syspath_prepend(str(site))
    ep = importlib.metadata.EntryPoint("late_std", "late_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    first = discover_plugins([(ep, "late-std", "1.0", False)])
    expected = ["plugin late_std: cannot load late_std.plugin:PLUGIN: exited with status 7 while importing"]
    assert [str(p) for p in first.problems] == expected
    assert plugin_probe.cache_path().is_file()

    started: list[list[str]] = []
    real_popen = subprocess.Popen

    def counting_popen(args, *a, **kw):
        started.append(list(args))
        return real_popen(args, *a, **kw)

    monkeypatch.setattr(subprocess, "Popen", counting_popen)
    again = discover_plugins([(ep, "late-std", "1.0", False)])
    assert [str(p) for p in again.problems] == expected and started == []  # from the cache: no child

    upgraded = discover_plugins([(ep, "late-std", "1.1", False)])  # another version: checked again
    assert [str(p) for p in upgraded.problems] == expected and len(started) == 1

    plugin = site / "late_std" / "plugin.py"  # the plugin is fixed: checked again, then imported here
    plugin.write_text('PLUGIN = {"name": "late_std", "packages": ["late_std"]}\n', encoding="utf-8")
    os.utime(plugin, ns=(plugin.stat().st_atime_ns, plugin.stat().st_mtime_ns + 10**9))
    fixed = discover_plugins([(ep, "late-std", "1.1", False)])
    assert fixed.problems == () and [p.name for p in fixed.plugins] == ["late_std"] and len(started) == 2

    rechecked = discover_plugins([(ep, "late-std", "1.1", False)], recheck=True)
    assert [p.name for p in rechecked.plugins] == ["late_std"] and len(started) == 3


def test_a_plugin_raising_an_ordinary_exception_is_reported_as_before(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(site, "oops_std", 'raise RuntimeError("no licence server")\n')
    monkeypatch.syspath_prepend(str(site))
    ep = importlib.metadata.EntryPoint("oops_std", "oops_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    plugins = discover_plugins([(ep, "oops-std", "1.0", False)])
    assert [str(p) for p in plugins.problems] == [
        "plugin oops_std: cannot load oops_std.plugin:PLUGIN: RuntimeError: no licence server"]


@pytest.mark.parametrize(("raw", "limit"), [("", 10.0), ("2.5", 2.5), ("soon", 10.0), ("0", 10.0), ("-1", 10.0)])
def test_the_time_limit_comes_from_the_environment(monkeypatch, raw, limit):
    monkeypatch.setenv(plugin_probe.TIMEOUT_ENV, raw)
    assert plugin_probe.timeout_s() == limit


def test_a_plugin_that_outlived_the_limit_is_checked_again_when_the_limit_is_raised(tmp_path, monkeypatch):
    site = tmp_path / "site"
    _dist(site, "slow_std", "import time\ntime.sleep(1000)\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv(plugin_probe.TIMEOUT_ENV, "1")
    ep = importlib.metadata.EntryPoint("slow_std", "slow_std.plugin:PLUGIN", ENTRY_POINT_GROUP)
    first = discover_plugins([(ep, "slow-std", "1.0", False)])
    assert [str(p) for p in first.problems] == [
        "plugin slow_std: cannot load slow_std.plugin:PLUGIN: did not finish importing within 1 s"]
    started: list[object] = []
    real_popen = subprocess.Popen
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **kw: started.append(a) or real_popen(*a, **kw))
    assert discover_plugins([(ep, "slow-std", "1.0", False)]).problems == first.problems and started == []
    monkeypatch.setenv(plugin_probe.TIMEOUT_ENV, "2")
    assert [str(p) for p in discover_plugins([(ep, "slow-std", "1.0", False)]).problems] == [
        "plugin slow_std: cannot load slow_std.plugin:PLUGIN: did not finish importing within 2 s"]
    assert len(started) == 1
