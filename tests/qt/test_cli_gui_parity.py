"""The GUI and the CLI give the same run card for the same workspace and settings.

Both go through ``mteval_gui.app``: the analyzer folder set in the workspace settings is the
one the Score action (a child process) and ``mteval score`` read, so the FST metrics agree.
"""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from mteval_gui.app.exports import current_run_card
from mteval_gui.app.preferences import AppSettings
from mteval_gui.app.settings import set_setting
from mteval_gui.cli import main
from mteval_gui.qt.main import build_window
from tests.qt.conftest import make_small_workspace

pytestmark = pytest.mark.shared_data

# what differs between two scorings of the same inputs: when and how fast they ran
VOLATILE = {"created_at", "scored_at", "started_at", "finished_at", "duration_s", "elapsed_s",
            "entries_per_second", "timestamp", "wall_time_s", "run_card_id"}


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


@pytest.fixture
def analyzer_folder(tmp_path, shared_data):
    folder = tmp_path / "my-analyzers"
    (folder / "crk").mkdir(parents=True)
    for name in ("crk-strict-analyzer-for-dictionary.hfstol", "crk-descriptive-analyzer.hfstol"):
        shutil.copyfile(shared_data / "crk" / "fst" / name, folder / "crk" / name)
    return folder


def test_gui_and_cli_score_one_run_to_the_same_run_card(tmp_path, qtbot, analyzer_folder, capsys):
    gui_db, cli_db = tmp_path / "gui.sqlite", tmp_path / "cli.sqlite"
    for db in (gui_db, cli_db):
        ws = make_small_workspace(db)
        set_setting(ws, "analyzer_dir", str(analyzer_folder))
        ws.close()

    assert main(["--db", str(cli_db), "score", "poor"]) == 0
    capsys.readouterr()

    window = build_window(AppSettings())
    qtbot.addWidget(window)
    window.open_workspace(gui_db)
    with qtbot.waitSignal(window.scoring.finished, timeout=180000) as blocker:
        window.score_runs(["poor"])
    assert blocker.args[0].status == "done"
    qtbot.waitUntil(lambda: window.scoring.jobs.active == 0, timeout=20000)
    window.close()

    cards = {}
    for name, db in (("gui", gui_db), ("cli", cli_db)):
        ws = make_workspace_reader(db)
        cards[name] = json.loads(current_run_card(ws, "poor").model_dump_json())
        ws.close()
    gui, cli = cards["gui"], cards["cli"]
    # the analyzer folder of the settings was used by both: the FST metrics have values
    fst = [k for k, v in gui["metric_info"].items() if v.get("role") == "fst_analysis"]
    assert fst, "the Cree standard declares an FST metric"
    for key in fst:
        assert gui["metric_availability"][key] == "ok", gui["metric_reasons"].get(key)
    assert gui["scores"]["fst_acceptance_rate"] == pytest.approx(0.3)  # (1/2 + 0 + 1) over 5 entries
    assert gui["fst"] == cli["fst"] and gui["fst"]
    assert _stable(gui) == _stable(cli)


def make_workspace_reader(path):
    from mteval_gui.app.workspace import open_workspace

    return open_workspace(path)
