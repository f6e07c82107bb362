"""Staging folders of model copies and installs: a process killed part-way (SIGKILL) leaves its
folder, which the next copy or ``mteval models list`` removes at once; a folder a running process
still fills is never removed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mteval_gui import staging
from mteval_gui.cli import main
from mteval_gui.scoring.metrics.comet import added_models_dir

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and flock are POSIX")

REPO = Path(__file__).resolve().parents[2]

# ``mteval models add`` of a model folder whose checkpoint copy never ends (a slow disk), so that
# the process can be killed while its staging folder is being filled
SLOW_ADD = textwrap.dedent("""
    import shutil, sys, time
    from mteval_gui.app import models

    def stuck_copy(src, dst, *args, **kwargs):
        open(dst, "wb").close()
        print("copying", flush=True)
        time.sleep(600)

    shutil.copy2 = stuck_copy
    models.add_comet_model(sys.argv[1], name="my-org/tiny")
""")

# a process that makes a staging folder and keeps it (an add still running)
HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from mteval_gui import staging

    held = staging.make(Path(sys.argv[1]), ".adding-my-org--other-")
    print(held.path, flush=True)
    time.sleep(600)
""")


def _model_folder(tmp_path: Path) -> Path:
    src = tmp_path / "tiny-comet"
    (src / "checkpoints").mkdir(parents=True)
    (src / "checkpoints" / "model.ckpt").write_bytes(b"\0" * 1000)
    (src / "hparams.yaml").write_text("pretrained_model: test-org/tiny-xlmr\n", encoding="utf-8")
    (src / "encoder").mkdir()
    (src / "encoder" / "config.json").write_text("{}", encoding="utf-8")
    return src


def _child(code: str, arg: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-c", code, arg], env=env, stdout=subprocess.PIPE, text=True)


def test_a_sigkilled_model_copy_leaves_a_folder_that_models_list_removes_at_once(tmp_path, capsys):
    root = added_models_dir()
    adder = _child(SLOW_ADD, str(_model_folder(tmp_path)))
    try:
        assert adder.stdout is not None and adder.stdout.readline() == "copying\n"
        os.kill(adder.pid, signal.SIGKILL)
        adder.wait(60)
    finally:
        if adder.poll() is None:
            adder.kill()
            adder.wait(60)
    assert len(list(root.iterdir())) == 1  # the folder the copy was filling
    assert main(["models", "list"]) == 0  # a moment later
    assert "my-org/tiny" not in capsys.readouterr().out
    assert list(root.iterdir()) == []


def test_models_list_never_removes_the_folder_of_a_copy_still_running(capsys):
    root = added_models_dir()
    root.mkdir(parents=True)
    holder = _child(HOLDER, str(root))
    try:
        assert holder.stdout is not None
        live = Path(holder.stdout.readline().strip())
        assert live.parent == root
        assert main(["models", "list"]) == 0
        assert [p.name for p in root.iterdir()] == [live.name]
    finally:
        holder.kill()
        holder.wait(60)
    assert main(["models", "list"]) == 0  # its process ended: the folder goes too
    capsys.readouterr()
    assert list(root.iterdir()) == []


def test_a_staging_folder_is_locked_from_creation_and_removed_when_closed(tmp_path):
    with staging.make(tmp_path, ".x-") as held:
        (held.path / "part").write_bytes(b"1")
        assert staging.remove_abandoned(tmp_path, ".x-") == []  # its maker runs: kept
        assert held.path.is_dir()
    assert list(tmp_path.iterdir()) == []
    (tmp_path / ".x-left").mkdir()  # made a moment ago by a process that is gone: no waiting period
    os.utime(tmp_path / ".x-left", (time.time(), time.time()))
    assert staging.remove_abandoned(tmp_path, ".x-") == [tmp_path / ".x-left"]
    (tmp_path / ".y-other").mkdir()
    assert staging.remove_abandoned(tmp_path, ".x-") == [] and (tmp_path / ".y-other").is_dir()
