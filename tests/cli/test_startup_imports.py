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


EVALUATE = """
import sys
from mteval_gui.cli import main
code = main(sys.argv[1:])
print("LOADED", sorted(m for m in ("click", "mteval_gui.store.db", "mteval_gui.store.repo", "sqlite_utils")
                       if m in sys.modules), code)
"""


def test_a_one_shot_evaluation_loads_no_workspace_code(tmp_path):
    (tmp_path / "src.txt").write_text("Bonjour le monde.\nMerci beaucoup.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("Woezɔ na xexeame.\nAkpe kakaka.\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("Woezɔ na xexeame.\nAkpe.\n", encoding="utf-8")
    argv = ["evaluate", "--corpus", "src.txt", "--ref", "ref.txt", "--run", "hyp.txt", "--lang", "ewe",
            "--source-lang", "fra", "--metrics", "core.exact", "core.chrf", "-o", "card.json"]
    out = subprocess.run([sys.executable, "-c", EVALUATE, *argv], capture_output=True, text=True, check=True,
                         cwd=tmp_path)
    assert out.stdout.splitlines()[-1] == "LOADED [] 0"
    card = json.loads((tmp_path / "card.json").read_text(encoding="utf-8"))
    assert card["scores"]["exact_match_rate"] == 0.5
    # the content hash a workspace stores for this corpus (store.hashing, as before it moved there)
    assert card["dataset"]["sha256"] == "67525fd455149f65cedb600aeb99579a9c778ff4132c7befdeee98d7f57453a1"
