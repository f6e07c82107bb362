"""`mteval evaluate` ends its process once its output is flushed; every other command exits normally."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui import cli


class Ended(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _write(tmp_path: Path) -> tuple[Path, Path, Path]:
    corpus, ref, hyp = tmp_path / "src.txt", tmp_path / "ref.txt", tmp_path / "hyp.txt"
    corpus.write_text("le chat dort\nil pleut\n", encoding="utf-8")
    ref.write_text("the cat sleeps\nit rains\n", encoding="utf-8")
    hyp.write_text("the cat is sleeping\nit rains\n", encoding="utf-8")
    return corpus, ref, hyp


def test_run_ends_the_process_after_evaluate_with_its_exit_code(tmp_path, monkeypatch, capsys):
    corpus, ref, hyp = _write(tmp_path)
    card = tmp_path / "card.json"
    ended: list[int] = []

    def fake_exit(code: int) -> None:
        ended.append(code)
        raise Ended(code)

    monkeypatch.setattr(cli.os, "_exit", fake_exit)
    monkeypatch.setattr(sys, "argv", ["mteval", "evaluate", "--corpus", str(corpus), "--ref", str(ref), "--run",
                                      str(hyp), "--lang", "eng", "--source-lang", "fra", "--workers", "1",
                                      "--bootstrap", "50", "-o", str(card)])
    with pytest.raises(Ended):
        cli.run()
    assert ended == [0]
    assert f"run card written to {card}" in capsys.readouterr().out
    assert len(json.loads(card.read_text(encoding="utf-8"))["results"]) == 2


def test_other_commands_and_failures_exit_normally(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli.os, "_exit", lambda code: pytest.fail("os._exit called"))
    monkeypatch.setattr(sys, "argv", ["mteval", "evaluate", "--corpus", str(tmp_path / "missing.txt"),
                                      "--run", str(tmp_path / "missing.txt"), "--lang", "eng", "-o",
                                      str(tmp_path / "card.json")])
    with pytest.raises(SystemExit) as exc:
        cli.run()
    assert exc.value.code != 0 and not (tmp_path / "card.json").exists()
    monkeypatch.setattr(sys, "argv", ["mteval", "list", "--help"])
    with pytest.raises(SystemExit) as exc:
        cli.run()
    assert exc.value.code == 0


def test_the_quick_exit_delivers_everything_through_a_pipe(tmp_path):
    corpus, ref, hyp = _write(tmp_path)
    card = tmp_path / "card.json"
    res = subprocess.run([sys.executable, "-m", "mteval_gui", "evaluate", "--corpus", str(corpus), "--ref", str(ref),
                          "--run", str(hyp), "--lang", "eng", "--source-lang", "fra", "--bootstrap", "50",
                          "-o", str(card)], capture_output=True, text=True, check=False, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == f"run card written to {card}"
    assert json.loads(card.read_text(encoding="utf-8"))["scores"]["chrf_plus_plus"] is not None
