"""Small ÈwéBench suites and responses written to a temporary folder (shared by CLI and GUI tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mteval_gui.app.bench import open_suite

EWEBENCH = open_suite("ewebench")  # the suite as the application finds it (entry point of the bundled standards)
read_suite = EWEBENCH.read_suite

# A partial-run suite: three categories, responses for two of them.
SMALL_SUITE: dict[str, list[dict[str, Any]]] = {
    "linguistic_comprehension": [
        {"id": "lc1", "prompt": "Kae nye suyetɔ?", "eval_method": "exact_match", "expected": "Ama"},
        {"id": "lc2", "prompt": "Ame kae lolo wu?", "eval_method": "exact_match", "expected": "Kofi"},
    ],
    "reasoning": [
        {
            "id": "rs1",
            "prompt": "Aʋa nye xɔ abe alesi afɔ nye ... ene.",
            "eval_method": "keywords",
            "expected_keywords": ["ame"],
        },
        {"id": "rs2", "prompt": "Afikae lã le?", "eval_method": "keywords", "expected_keywords": ["agble", "aƒe"]},
    ],
    "translation": [
        {"id": "tr1", "prompt": "Traduis : Bonjour", "eval_method": "keywords", "expected_keywords": ["ŋdi"]},
    ],
}

# lc: 1 + 0 -> 50; rs: 1 + 0.5 -> 75; translation not run.
SMALL_RESPONSES = [
    {"test_id": "lc1", "response": "Ama."},
    {"test_id": "lc2", "response": "Yao"},
    {"test_id": "rs1", "response": "Afɔ nye ame."},
    {"test_id": "rs2", "response": "Lã le agble me."},
]
SMALL_EWE_SCORE = (50 * 0.15 + 75 * 0.12) / (0.15 + 0.12)  # = 550 / 9


def write_suite(folder: Path, suite: dict[str, list[dict[str, Any]]] = SMALL_SUITE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for cat, tests in suite.items():
        (folder / f"{cat}.json").write_text(json.dumps(tests, ensure_ascii=False, indent=2), encoding="utf-8")
    return folder


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path
