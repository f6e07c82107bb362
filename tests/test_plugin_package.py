"""A language added by a pip-installed plugin package, with no change to the application.

The package is the worked example of ``docs/adding-a-language.md`` (``docs/examples/kal-standard``:
a Kalaallisut card and a linter that accepts the orthography before 1973). It is copied to a
temporary folder, built and installed offline with ``pip install --no-index --no-deps
--no-build-isolation --target DIR``, and used by fresh ``python -m mteval_gui`` processes that
have DIR on ``PYTHONPATH`` and their own ``MTEVAL_HOME``. Its verdicts must appear in the run
card (``results[].lint_verdict``, ``score_sources``) and in the entries view, which finds the
verdict column by the metric's role.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "docs" / "examples" / "kal-standard"

# eng -> kal: references in today's orthography, outputs partly in the orthography before 1973
ENTRIES = [
    ("e1", "the Danes", "qallunaat", "ĸavdlunât"),  # a whole word of the plugin's word list
    ("e2", "Greenland", "Kalaallit Nunaat", "Kalâtdlit-nunât"),  # a word sequence of the list
    ("e3", "the dog", "qimmeq", "ĸimmeĸ"),  # kra
    ("e4", "land", "nuna", "nuna"),  # exact
    ("e5", "the house", "illu", "igloo"),  # wrong
    ("e6", "summer", "aasaq", None),  # provider error
    ("e7", "in summer", "aasaq", "âsaq"),  # circumflex long vowel
]
EXPECTED = ["EQUIVALENT", "EQUIVALENT", "EQUIVALENT", "EXACT", "MISS", "NO_OUTPUT", "EQUIVALENT"]
CLASSES = [["OLD_SPELLING"], ["OLD_SPELLING"], ["KRA"], [], [], [], ["LONG_VOWEL"]]

ENTRIES_VIEW = """
import json, sys
from mteval_gui.app.entries import load_entry_frame
from mteval_gui.app.workspace import Workspace
ws = Workspace(sys.argv[1])
run = load_entry_frame(ws, ["kal-run"]).run("kal-run")
verdict_metrics = {m: d.builtin for m, d in run.descriptors.items() if d.role == "equivalence_verdict"}
print(json.dumps({"lint": [None if v is None else str(v) for v in run.lint_verdict],
                  "verdict_metrics": verdict_metrics,
                  "label": run.descriptors["kal.lint"].label,
                  "labels": dict(run.descriptors["kal.lint"].labels),
                  "values": [float(x) for x in run.metrics["kal.lint"]]}))
ws.close()
"""


def _mteval(env: dict[str, str], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mteval_gui", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The example package installed offline into a folder of its own (returned)."""
    root = tmp_path_factory.mktemp("kal_plugin")
    src = root / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = root / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                          "--no-build-isolation", "--no-warn-script-location", "--target", str(target), str(src)],
                         capture_output=True, text=True, timeout=600, env={**os.environ, "PIP_NO_INPUT": "1"})
    assert pip.returncode == 0, pip.stderr
    assert (target / "kal_standard" / "linter.py").is_file()
    assert list(target.glob("mteval_kal_standard-0.1.0.dist-info/entry_points.txt"))
    return target


def test_the_language_of_the_plugin_is_not_shipped():
    assert not (REPO / "language_cards" / "kal.json").exists()
    assert not list(REPO.glob("eval_standards/kal*")) and not list((REPO / "mteval_gui").rglob("*kal_standard*"))


@pytest.mark.slow
def test_a_pip_installed_plugin_adds_a_linter_seen_by_the_run_card_and_the_entries_view(installed, tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(REPO)]), "MTEVAL_HOME": str(home),
           "HF_HUB_OFFLINE": "1"}
    env.pop("MTEVAL_CARDS_DIR", None)
    env.pop("MTEVAL_DB", None)
    data = tmp_path / "data"
    data.mkdir()

    plugins = _mteval(env, data, "plugins")
    assert plugins.returncode == 0, plugins.stderr
    assert "kal_standard  (mteval-kal-standard 0.1.0; kal_standard.plugin:PLUGIN)" in plugins.stdout
    assert f"  cards: {installed / 'kal_standard' / 'cards'}" in plugins.stdout

    validate = _mteval(env, data, "cards", "validate")
    assert validate.returncode == 0, validate.stderr
    assert f"plugin kal_standard {installed / 'kal_standard' / 'cards'}" in validate.stdout
    listing = _mteval(env, data, "cards", "list").stdout.splitlines()
    assert any(line.split()[:3] == ["kal", "Kalaallisut", "plugin"] for line in listing)

    corpus = data / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": i, "source": s, "reference": r}, ensure_ascii=False) + "\n"
                              for i, s, r, _ in ENTRIES), encoding="utf-8")
    run = data / "run.jsonl"
    lines = [json.dumps({"run": {"run_id": "kal-run", "model_slug": "m"}})]
    lines += [json.dumps({"id": i, "predicted": o} if o is not None else {"id": i, "error": "HTTP 500"},
                         ensure_ascii=False) for i, _, _, o in ENTRIES]
    run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = str(tmp_path / "ws.sqlite")
    for argv in (("import", "corpus", str(corpus), "--id", "kal-test", "--source-lang", "eng", "--target-lang", "kal"),
                 ("import", "run", str(run), "--corpus", "kal-test"),
                 ("score", "kal-run", "--bootstrap", "50"),
                 ("export", "runcard", "kal-run", "-o", str(tmp_path / "card.json"))):
        done = _mteval(env, data, "--db", db, *argv)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)

    card = json.loads((tmp_path / "card.json").read_text(encoding="utf-8"))
    assert card["score_sources"]["equivalent_match_rate"] == "kal.lint"
    assert card["metric_availability"]["kal.lint"] == "ok"
    assert card["scores"]["equivalent_match_rate"] == pytest.approx(5 / 7)
    assert card["scores"]["equivalent_matches"] == 5
    assert [r["lint_verdict"]["verdict"] for r in card["results"]] == EXPECTED
    assert [r["lint_verdict"]["classes"] for r in card["results"]] == CLASSES
    assert card["results"][1]["lint_verdict"]["modernised"] == "kalaallit nunaat"

    view = subprocess.run([sys.executable, "-c", ENTRIES_VIEW, db], cwd=data, env=env, capture_output=True,
                          text=True, timeout=300)
    assert view.returncode == 0, view.stderr
    shown = json.loads(view.stdout)
    assert shown["lint"] == EXPECTED
    # found by role: the plugin's linter and the generic rule; the language's own verdicts are shown
    assert shown["verdict_metrics"] == {"core.equivalent": True, "kal.lint": False}
    assert shown["label"] == "Kalaallisut linter" and shown["labels"] == {"fr": "Correcteur kalaallisut"}
    assert shown["values"] == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0]


def test_without_the_package_the_card_is_unknown(tmp_path):
    """The same processes without the installed folder: no plugin, no kal card, no linter."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "MTEVAL_HOME": str(tmp_path / "home")}
    env.pop("MTEVAL_CARDS_DIR", None)
    out = _mteval(env, tmp_path, "cards", "show", "kal")
    assert out.returncode == 1
    assert "no language card for 'kal'" in out.stderr
