"""Damaged settings stop nothing: each damaged key gives a warning naming it (and the workspace or
the file), its default is used, and the other keys still apply.

Workspace settings are rows of the workspace's ``settings`` table (JSON values); the GUI's own
settings are ``gui-settings.json`` in the user data folder (``MTEVAL_HOME`` here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui.app import notices
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.settings import checked_settings, load_settings, scoring_options_for, setting_rows

REPO = Path(__file__).resolve().parents[2]


def _rows(ws, **raw: str) -> None:
    """Store raw (possibly damaged) JSON text, as another program could."""
    with ws.transaction() as conn:
        for key, text in raw.items():
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text))


@pytest.mark.parametrize(("key", "text", "why"), [
    ("analyzer_paths", "{", "not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 "
                            "(char 1))"),
    ("analyzer_paths", "[]", "Input should be a valid dictionary (expected dict[str, dict[str, str]], found [])"),
    ("analyzer_paths", '{"crk": "/a/crk.hfst"}',
     'crk: Input should be a valid dictionary (expected dict[str, dict[str, str]], found {"crk": "/a/crk.hfst"})'),
    ("analyzer_paths", '{"crk": {"fancy": "/a"}}',
     'Value error, crk: unknown analyzer kind(s) fancy (use strict, descriptive, generator) '
     '(expected dict[str, dict[str, str]], found {"crk": {"fancy": "/a"}})'),
    ("analyzer_dir", "5", "Input should be a valid string (expected str | None, found 5)"),
    ("gloss_files", '{"crk": "words.txt"}',
     'crk: Input should be a valid list (expected dict[str, list[str]], found {"crk": "words.txt"})'),
    ("comet_model", "[1]", "Input should be a valid string (expected str | None, found [1])"),
    ("default_reviewer", "{}", "Input should be a valid string (expected str | None, found {})"),
    ("glossaries", '"demo"', 'Input should be a valid dictionary (expected dict[str, str], found "demo")'),
    ("suite_folders", "true", "Input should be a valid dictionary (expected dict[str, str], found true)"),
    ("comet_model", "nul", "not valid JSON (Expecting value: line 1 column 1 (char 0))"),
])
def test_a_damaged_workspace_setting_falls_back_to_its_default_with_a_warning(workspace, key, text, why):
    good = {"comet_model": '"Unbabel/wmt22-comet-da"', "analyzer_dir": '"/srv/analyzers"',
            "glossary.c1": '"legacy-glossary"'}
    _rows(workspace, **{k: v for k, v in good.items() if k != key}, **{key: text})
    settings, warnings = checked_settings(workspace)
    assert warnings == [f"workspace {workspace.path}: setting {key!r} is damaged: {why}; its default is used"]
    if key != "glossaries":
        assert getattr(settings, key) == getattr(type(settings)(), key)
    if key != "comet_model":
        assert settings.comet_model == "Unbabel/wmt22-comet-da"
    if key != "analyzer_dir":
        assert settings.analyzer_dir == "/srv/analyzers"
    assert settings.glossaries == {"c1": "legacy-glossary"}  # the key of earlier versions still applies
    # everything that reads the settings goes on
    assert load_settings(workspace) == settings
    assert scoring_options_for(workspace, "crk").analyzer_path is None
    assert [row[0] for row in setting_rows(workspace)][:2] == ["analyzer_dir", "analyzer_paths"]


def test_a_damaged_current_key_beside_keys_of_earlier_versions(workspace):
    """``glossary.<corpus>`` rows of earlier versions merged with a ``glossaries`` row that is not an object."""
    _rows(workspace, **{"glossaries": "[1, 2]", "glossary.c1": '"g1"', "reference_suite": '"/data/ref"',
                        "suite_folders": '"x"'})
    settings, warnings = checked_settings(workspace)
    assert (settings.glossaries, settings.suite_folders) == ({"c1": "g1"}, {"reference": "/data/ref"})
    assert [w.split(": setting ")[1].split(" ")[0] for w in warnings] == ["'glossaries'", "'suite_folders'"]


def test_warnings_are_said_once_to_whoever_listens(workspace):
    _rows(workspace, analyzer_dir="{")
    notices.subscribe(lambda message: None)()  # what other tests left unheard
    heard: list[str] = []
    unsubscribe = notices.subscribe(heard.append)
    try:
        load_settings(workspace)
        load_settings(workspace)
    finally:
        unsubscribe()
    assert heard == [f"workspace {workspace.path}: setting 'analyzer_dir' is damaged: not valid JSON (Expecting "
                     "property name enclosed in double quotes: line 1 column 2 (char 1)); its default is used"]


def _mteval(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MTEVAL_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "mteval_gui", *argv], env=env, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)


def test_commands_warn_about_a_damaged_row_and_go_on(tmp_path):
    from mteval_gui.store import Workspace

    home = tmp_path / "home"
    home.mkdir()
    db = tmp_path / "ws.sqlite"
    (tmp_path / "c.tsv").write_text("id\tsource\treference\ne1\tle chien\tavu\n", encoding="utf-8")
    (tmp_path / "r.jsonl").write_text(json.dumps({"id": "e1", "predicted": "avu"}) + "\n", encoding="utf-8")
    for argv in (["import", "corpus", str(tmp_path / "c.tsv"), "--id", "c1", "--source-lang", "fra",
                  "--target-lang", "ewe"],
                 ["import", "run", str(tmp_path / "r.jsonl"), "--corpus", "c1", "--run-id", "r1"]):
        done = _mteval(home, "--db", str(db), *argv)
        assert done.returncode == 0, done.stderr
    ws = Workspace(db)
    try:
        _rows(ws, analyzer_paths="{", comet_model="5")
    finally:
        ws.close()
    warning = [f"mteval: warning: workspace {db}: setting 'analyzer_paths' is damaged: not valid JSON (Expecting "
               "property name enclosed in double quotes: line 1 column 2 (char 1)); its default is used",
               f"mteval: warning: workspace {db}: setting 'comet_model' is damaged: Input should be a valid string "
               "(expected str | None, found 5); its default is used"]
    scored = _mteval(home, "--db", str(db), "score", "r1", "--metrics", "core.exact")
    assert (scored.returncode, [x for x in scored.stderr.splitlines() if x.startswith("mteval:")]) == (0, warning)
    listed = _mteval(home, "--db", str(db), "list", "runs")
    assert (listed.returncode, listed.stderr.splitlines()) == (0, warning)
    assert listed.stdout.splitlines()[2].split()[:2] == ["r1", "c1"]


# ------------------------------------------------------------------------------- the GUI's settings file


@pytest.mark.parametrize(("content", "problem"), [
    ('{"recent_workspaces": 5, "language": "fr"}',
     "setting 'recent_workspaces' should be a list of paths, not 5 (a number); its default is used"),
    ('{"recent_workspaces": ["/w/a.sqlite", 3, null], "language": "fr"}',
     "setting 'recent_workspaces' holds entries that are not paths; they are left out"),
    ('{"language": ["fr"]}', "setting 'language' should be a language code or null, not a list; its default is used"),
    ('{"geometry": 5, "language": "fr"}', "setting 'geometry' should be text or null, not 5 (a number); its default "
                                          "is used"),
    ('{"window_state": {}, "language": "fr"}',
     "setting 'window_state' should be text or null, not an object; its default is used"),
    ('{"last_workspace": 12, "language": "fr"}',
     "setting 'last_workspace' should be a path or null, not 12 (a number); its default is used"),
    ('{"demo_offered": "no", "language": "fr"}',
     "setting 'demo_offered' should be true or false, not the text \"no\"; its default is used"),
    ('{"demo_offered": 1, "language": "fr"}',
     "setting 'demo_offered' should be true or false, not 1 (a number); its default is used"),
])
def test_a_damaged_key_of_the_gui_settings_file_falls_back_to_its_default(content, problem):
    AppSettings.path().parent.mkdir(parents=True, exist_ok=True)
    AppSettings.path().write_text(content, encoding="utf-8")
    s = AppSettings.load()
    assert s.problems == [f"{AppSettings.path()}: {problem}"]
    assert s.language == ("fr" if '"language": "fr"' in content else None)
    assert s.recent_workspaces == (["/w/a.sqlite"] if "/w/a.sqlite" in content else [])
    assert (s.geometry, s.window_state, s.last_workspace, s.demo_offered) == (None, None, None, False)
    s.save()  # the repaired file is written without the problems
    assert json.loads(AppSettings.path().read_text(encoding="utf-8"))["recent_workspaces"] == s.recent_workspaces
    assert AppSettings.load().problems == []


@pytest.mark.parametrize(("content", "problem"), [
    (b"{", "not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1)); the "
           "default settings are used"),
    (b'["/w/a.sqlite"]', "holds a list, not an object of settings; the default settings are used"),
    (b"5", "holds 5 (a number), not an object of settings; the default settings are used"),
    (b'{"language": "fr\xe9"}', "cannot be read ('utf-8' codec can't decode byte 0xe9 in position 16: invalid "
                                "continuation byte); the default settings are used"),
])
def test_a_damaged_gui_settings_file_gives_the_defaults(content, problem):
    AppSettings.path().parent.mkdir(parents=True, exist_ok=True)
    AppSettings.path().write_bytes(content)
    s = AppSettings.load()
    assert s.problems == [f"{AppSettings.path()}: {problem}"]
    assert s == AppSettings()


def test_a_missing_gui_settings_file_is_no_problem():
    assert AppSettings.load().problems == []
