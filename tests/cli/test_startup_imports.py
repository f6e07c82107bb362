"""What a command imports before it runs: `mteval evaluate` loads neither the suites and the
workspace layer (they only serve other commands) nor pandas (sqlite_utils would import it)."""

from __future__ import annotations

import json
import subprocess
import sys

CHECK = """
import json, sys
from mteval_gui.cli import build_parser
parser = build_parser(sys.argv[1:])
import mteval_gui.store.db
print(json.dumps({"loaded": sorted(m for m in ("mteval_gui.app.bench", "pandas", "eval_standards.ewe.bench")
                                   if m in sys.modules),
                  "commands": sorted(parser._subparsers._group_actions[0].choices)}))
"""


def _imports(*argv: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHECK, *argv], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_an_application_command_does_not_look_up_suites_or_import_pandas():
    got = _imports("evaluate", "--corpus", "c.tsv", "--run", "r.jsonl")
    assert got["loaded"] == []
    assert "evaluate" in got["commands"] and "bench" in got["commands"]
    assert _imports("--db", "x.sqlite", "list", "runs")["loaded"] == []


def test_suite_commands_are_built_when_asked_for():
    assert "mteval_gui.app.bench" in _imports("bench", "ewebench", "score")["loaded"]
    assert "ewebench" in _imports("ewebench", "score")["commands"]
    assert "ewebench" in _imports("--help")["commands"]
