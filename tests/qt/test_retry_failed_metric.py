"""The GUI's Score action tries again a plugin metric that failed, without asking (the rule of
a plain ``mteval score RUN``): a failed result is never reused.

The plugin ``flaky_std`` is installed for real in a temporary folder (a ``dist-info`` with its
entry point, on ``PYTHONPATH``), so that the scoring process the GUI starts finds it too; its
metric fails the first time it is called and scores 0.25 per entry afterwards.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap

import pytest

from mteval_gui import standards
from mteval_gui.cli import main
from mteval_gui.store import Workspace
from mteval_gui.store.results import load_run_card_dict

METRICS = '''
from pathlib import Path

from mteval_gui.scoring.plugins import BaseMetric, EntryScore, MetricInfo


class Flaky(BaseMetric):
    info = MetricInfo(id="flaky.metric", version="1", display_name="Flaky", scale="0-1", produces=("flaky_value",))

    def score_entries(self, items):
        marker = Path(self.params["marker"])
        if not marker.exists():
            marker.write_text("seen", encoding="utf-8")
            raise RuntimeError("the licence server did not answer")
        return [EntryScore(0.25) for _ in items]
'''
PLUGIN = '''
from mteval_gui.domain.plugin import StandardsPlugin

PLUGIN = StandardsPlugin(name="flaky_std", packages=["flaky_std"])
'''


@pytest.fixture
def flaky_workspace(tmp_path, monkeypatch):
    site = tmp_path / "site"
    pkg = site / "flaky_std"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "metrics.py").write_text(textwrap.dedent(METRICS), encoding="utf-8")
    (pkg / "plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    dist = site / "flaky_std-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: flaky-std\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[{standards.ENTRY_POINT_GROUP}]\nflaky_std = flaky_std.plugin:PLUGIN\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p))
    standards.refresh_plugins()
    assert standards.installed_plugins().get("flaky_std") is not None, standards.installed_plugins().problems
    card = tmp_path / "qaa.json"
    card.write_text(json.dumps({"code": "qaa", "name": "Test language", "evalMetrics": [
        {"id": "flaky.metric", "python_name": "flaky_std.metrics:Flaky", "params": {"marker": str(tmp_path / "seen")}}
    ]}), encoding="utf-8")
    assert main(["cards", "add", str(card)]) == 0
    corpus, run = tmp_path / "corpus.jsonl", tmp_path / "run.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"e{i}", "source": f"cat {i}", "reference": f"chat {i}"}) + "\n"
                              for i in range(4)), encoding="utf-8")
    run.write_text(json.dumps({"run": {"run_id": "r"}}) + "\n" + "".join(
        json.dumps({"id": f"e{i}", "predicted": f"chat {i}"}) + "\n" for i in range(4)), encoding="utf-8")
    db = str(tmp_path / "ws.sqlite")
    assert main(["--db", db, "import", "corpus", str(corpus), "--id", "c", "--source-lang", "eng",
                 "--target-lang", "qaa"]) == 0
    assert main(["--db", db, "import", "run", str(run), "--corpus", "c"]) == 0
    assert main(["--db", db, "score", "r", "--metrics", "core.exact", "flaky.metric", "--bootstrap", "20"]) == 3
    yield db
    sys.path.remove(str(site))
    for name in [m for m in sys.modules if m == "flaky_std" or m.startswith("flaky_std.")]:
        del sys.modules[name]
    standards.refresh_plugins()



def _card(db: str) -> dict:
    ws = Workspace(db)
    try:
        card = load_run_card_dict(ws, "r")
    finally:
        ws.close()
    assert card is not None
    return card


def test_score_tries_a_failed_plugin_metric_again_without_asking(flaky_workspace, window, qtbot, monkeypatch):
    failed = _card(flaky_workspace)
    assert failed["metric_availability"]["flaky.metric"] == "failed"
    assert failed["metric_availability"]["core.exact"] == "ok" and failed["scores"]["exact_match_rate"] == 1.0
    assert window.open_workspace(flaky_workspace)

    def never(_messages):
        raise AssertionError("a run with a failed metric is scored without asking")

    monkeypatch.setattr(window.scoring, "_confirm_rescore", never)
    with qtbot.waitSignal(window.scoring.finished, timeout=180000) as blocker:
        window.score_runs(["r"])
        assert window.statusBar().currentMessage() == (
            "r: scoring it again with its stored configuration; trying again what failed: flaky.metric: "
            "score_entries (batch 0): RuntimeError: the licence server did not answer")
    assert blocker.args[0].status == "done"
    card = _card(flaky_workspace)
    assert card["metric_availability"]["flaky.metric"] == "ok" and card["scores"]["flaky_value"] == 0.25
    assert card["scores"]["exact_match_rate"] == 1.0
    qtbot.waitUntil(lambda: window.scoring.jobs.active == 0, timeout=10000)
