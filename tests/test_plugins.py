"""Plugin packages found through the entry-point group ``mteval_gui.standards``: discovery never crashes."""

from __future__ import annotations

import importlib.metadata
import textwrap
from pathlib import Path

import pytest

from mteval_gui import standards
from mteval_gui.standards import ENTRY_POINT_GROUP, class_ref_problem, discover_plugins, installed_plugins

REPO = Path(__file__).resolve().parent.parent


def _ep(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP)


def _module(root: Path, dotted: str, text: str, header: str = "") -> None:
    parts = dotted.split(".")
    folder = root.joinpath(*parts[:-1])
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(1, len(parts)):
        init = root.joinpath(*parts[:i], "__init__.py")
        if not init.exists():
            init.write_text("", encoding="utf-8")
    (folder / f"{parts[-1]}.py").write_text(header + textwrap.dedent(text), encoding="utf-8")


def test_the_bundled_standards_register_through_the_entry_point_group():
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."mteval_gui.standards"]\neval_standards = "eval_standards.plugin:PLUGIN"' in pyproject
    plugins = installed_plugins()
    assert plugins.problems == ()
    es = plugins.get("eval_standards")
    assert es is not None and es.packages == ("eval_standards",) and es.distribution == "mteval-gui"
    assert plugins.allowed_packages() == ("mteval_gui.scoring.metrics", "eval_standards")


def test_a_source_checkout_is_read_even_when_the_installed_metadata_is_stale(monkeypatch):
    """An editable install made before the entry point existed (or pointing at a renamed module)."""
    stale = _ep("eval_standards", "eval_standards.old_declaration:PLUGIN")
    other = _ep("someone_else", "someone_else.plugin:PLUGIN")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [stale, other])
    monkeypatch.setattr(standards, "_dist_of", lambda ep: ("mteval-gui", "0.0.1") if ep is stale else ("other", "1"))
    found = standards._entry_points()
    assert [(ep.name, ep.value, dist, checkout) for ep, dist, _, checkout in found] == [
        ("eval_standards", "eval_standards.plugin:PLUGIN", "mteval-gui", True),
        ("someone_else", "someone_else.plugin:PLUGIN", "other", False),
    ]
    # and with no metadata at all the checkout still provides the bundled standards
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [])
    plugins = discover_plugins()
    assert [p.name for p in plugins.plugins] == ["eval_standards"] and plugins.problems == ()


def test_broken_plugins_are_reported_by_name_and_the_others_still_load(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    decl = "from mteval_gui.domain.plugin import StandardsPlugin, SuiteDecl\n"
    _module(tmp_path, "good_std.plugin", """
        PLUGIN = StandardsPlugin(name="good_std", packages=["good_std"], cards="cards", suites=[
            SuiteDecl(name="goodbench", title="GoodBench", python_name="good_std.bench:SUITE")])
    """, decl)
    (tmp_path / "good_std" / "cards").mkdir()
    _module(tmp_path, "dict_std.plugin", 'PLUGIN = {"name": "dict_std", "packages": ["dict_std"]}\n')
    _module(tmp_path, "raises_std.plugin", 'raise RuntimeError("no licence server")\n')
    _module(tmp_path, "wrong_std.plugin", "PLUGIN = 42\n")
    _module(tmp_path, "nopkg_std.plugin", 'PLUGIN = {"name": "nopkg_std", "packages": []}\n')
    _module(tmp_path, "stdlib_std.plugin", 'PLUGIN = {"name": "stdlib_std", "packages": ["os"]}\n')
    _module(tmp_path, "app_std.plugin", 'PLUGIN = {"name": "app_std", "packages": ["mteval_gui.scoring"]}\n')
    _module(tmp_path, "greedy_std.plugin", 'PLUGIN = {"name": "greedy_std", "packages": ["good_std.sub"]}\n')
    _module(tmp_path, "named_std.plugin", 'PLUGIN = {"name": "other_name", "packages": ["named_std"]}\n')
    _module(tmp_path, "suite_std.plugin", """
        PLUGIN = StandardsPlugin(name="suite_std", packages=["suite_std"],
                                 suites=[SuiteDecl(name="s", title="S", python_name="os.path:join")])
    """, decl)
    _module(tmp_path, "cards_std.plugin",
            'PLUGIN = {"name": "cards_std", "packages": ["cards_std"], "cards": "../x"}\n')
    eps = [_ep(n, f"{n}.plugin:PLUGIN") for n in (
        "good_std", "dict_std", "raises_std", "wrong_std", "nopkg_std", "stdlib_std", "app_std", "greedy_std",
        "named_std", "suite_std", "cards_std")]
    eps.append(_ep("missing_std", "missing_std.plugin:PLUGIN"))
    eps.append(_ep("good_std", "good_std.plugin:PLUGIN"))
    plugins = discover_plugins((ep, None, None, False) for ep in eps)
    assert [p.name for p in plugins.plugins] == ["cards_std", "dict_std", "good_std"]
    good = plugins.get("good_std")
    assert good is not None and good.cards_dir == tmp_path / "good_std" / "cards"
    assert plugins.suites()["goodbench"][0] is good
    assert plugins.get("cards_std").cards_dir is None  # type: ignore[union-attr]
    assert [str(p) for p in plugins.problems] == [
        "plugin raises_std: cannot load raises_std.plugin:PLUGIN: RuntimeError: no licence server",
        "plugin wrong_std: wrong_std.plugin:PLUGIN: the entry point's object is a int, not a StandardsPlugin "
        "declaration",
        "plugin nopkg_std: nopkg_std.plugin:PLUGIN: invalid declaration: packages: List should have at least 1 "
        "item after validation, not 0",
        "plugin stdlib_std: packages: 'os' is not the plugin's own package (the application and the standard "
        "library cannot be claimed)",
        "plugin app_std: packages: 'mteval_gui.scoring' is not the plugin's own package (the application and the "
        "standard library cannot be claimed)",
        "plugin greedy_std: packages: 'good_std.sub' overlaps 'good_std' of plugin good_std",
        "plugin named_std: named_std.plugin:PLUGIN declares the name 'other_name', not the entry point's name "
        "'named_std'",
        "plugin suite_std: suites[0].python_name: 'os.path' is outside the plugin's packages (suite_std)",
        "plugin cards_std: cards: '../x' must be a folder inside the plugin package",
        "plugin missing_std: cannot load missing_std.plugin:PLUGIN: ModuleNotFoundError: No module named "
        "'missing_std'",
        "plugin good_std: another installed plugin has the same name; good_std.plugin:PLUGIN (unknown "
        "distribution) is not used",
    ]
    assert set(plugins.allowed_packages()) == {"mteval_gui.scoring.metrics", "cards_std", "dict_std", "good_std"}


@pytest.mark.parametrize(("name", "ok"), [
    ("eval_standards.crk.linter:CrkLinterMetric", True),
    ("mteval_gui.scoring.metrics.surface:ChrfMetric", True),
    ("eval_standards:Anything", True),
    ("this:Zen", False),
    ("os:system", False),
    ("mteval_gui.store.db:Workspace", False),
    ("mteval_gui.scoring.metricsx:M", False),
    ("eval_standardsx.a:B", False),
    (".linter:M", False),
    ("eval_standards..crk:M", False),
    ("eval_standards.crk.linter", False),
])
def test_only_classes_of_installed_plugins_and_built_ins_may_be_named(name, ok):
    assert (class_ref_problem(name) is None) is ok
