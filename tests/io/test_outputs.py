"""Output files: written atomically, only to regular files or new paths; never onto a folder, a
special file, the command's own inputs or the workspace database."""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.io import outputs
from mteval_gui.io.outputs import OutputRefused, check_output, open_output, write_output
from mteval_gui.io.writers import write_table

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and sockets are POSIX")


def _toy(folder: Path) -> tuple[Path, Path]:
    corpus = folder / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"e{i}", "source": f"s{i}", "reference": f"kala {i}"}) + "\n"
                              for i in range(3)), encoding="utf-8")
    run = folder / "run.jsonl"
    run.write_text("".join(json.dumps({"id": f"e{i}", "predicted": f"kala {i}"}) + "\n" for i in range(3)),
                   encoding="utf-8")
    return corpus, run


def _evaluate(corpus: Path, run: Path, out: Path | str) -> int:
    return main(["evaluate", "--corpus", str(corpus), "--run", str(run), "--lang", "eng", "--source-lang", "fra",
                 "--metrics", "core.exact", "--bootstrap", "0", "-o", str(out)])


@posix_only
def test_evaluate_onto_a_fifo_refuses_and_leaves_the_fifo(tmp_path, capsys):
    corpus, run = _toy(tmp_path)
    fifo = tmp_path / "card.fifo"
    os.mkfifo(fifo)
    assert _evaluate(corpus, run, fifo) != 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{fifo}: refused: it is a FIFO (named pipe), not a regular file",
                   "mteval: 1 problem found; nothing was written"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.fifo", "corpus.jsonl", "run.jsonl"]


@pytest.mark.parametrize("which", ["corpus", "run", "corpus-by-another-name"])
def test_evaluate_onto_its_own_input_refuses_and_leaves_it_unchanged(tmp_path, capsys, which):
    corpus, run = _toy(tmp_path)
    before = {p.name: p.read_bytes() for p in (corpus, run)}
    target = {"corpus": corpus, "run": run}.get(which)
    if target is None:  # the same file under another name (a hard link) is the same input
        target = tmp_path / "alias.jsonl"
        os.link(corpus, target)
        source = corpus
    else:
        source = target
    assert _evaluate(corpus, run, target) != 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{target}: refused: it is an input of this command ({source}); write the output elsewhere"
    assert {p.name: p.read_bytes() for p in (corpus, run)} == before


def test_evaluate_writes_a_regular_file_atomically_and_keeps_its_mode(tmp_path, capsys):
    corpus, run = _toy(tmp_path)
    out = tmp_path / "card.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    assert _evaluate(corpus, run, out) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["scores"]["exact_matches"] == 3
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.json", "corpus.jsonl", "run.jsonl"]  # no temp file


def test_a_folder_is_refused(tmp_path, capsys):
    corpus, run = _toy(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    assert _evaluate(corpus, run, folder) != 0
    assert capsys.readouterr().err.splitlines()[0] == f"{folder}: refused: it is a folder; give a file name"
    assert list(folder.iterdir()) == []


@posix_only
def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        with pytest.raises(OutputRefused, match=r"refused: it is a socket, not a regular file"):
            write_table([{"a": 1}], path)
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        sock.close()


def test_a_device_node_is_refused_without_touching_one(tmp_path, monkeypatch):
    """A character device is never created or written in a test: the stat of a regular file says
    it is one."""
    path = tmp_path / "tty0"
    path.write_text("unchanged", encoding="utf-8")
    real_stat = os.stat

    def fake_stat(p, *args, **kwargs):
        st = real_stat(p, *args, **kwargs)
        if os.fspath(p) == str(path):
            return os.stat_result((stat.S_IFCHR | 0o666, *tuple(st)[1:]))
        return st

    monkeypatch.setattr(outputs.os, "stat", fake_stat)
    with pytest.raises(OutputRefused) as ei:
        write_table([{"a": 1}], path)
    monkeypatch.undo()
    assert str(ei.value) == f"{path}: refused: it is a device, not a regular file"
    assert path.read_text(encoding="utf-8") == "unchanged"


def test_the_workspace_database_and_its_journal_files_are_refused(tmp_path, capsys):
    db = tmp_path / "work.sqlite"
    assert main(["workspace", "init", str(db)]) == 0
    capsys.readouterr()

    def state():  # by stat: opening the database outside SQLite would drop this process's locks on it
        st = os.stat(db)
        return st.st_ino, st.st_size, st.st_mtime_ns

    before = state()
    for name, what in (("work.sqlite", ""), ("work.sqlite-wal", " (its wal file)"),
                       ("work.sqlite-journal", " (its journal file)")):
        assert main(["--db", str(db), "judgments", "export", "--all", "--format", "json", "-o",
                     str(tmp_path / name)]) != 0
        assert capsys.readouterr().err.splitlines()[0] == (
            f"{tmp_path / name}: refused: it is the workspace database {db}{what}")
    assert state() == before
    assert not (tmp_path / "work.sqlite-journal").exists()


def test_a_writer_that_fails_part_way_leaves_the_old_file(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError), open_output(path) as fh:
        fh.write("half of the new")
        raise RuntimeError("stopped")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]


def test_a_symbolic_link_writes_the_file_it_names(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_output(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"
    assert check_output(tmp_path / "new" / "file.txt") == tmp_path / "new" / "file.txt"


def test_a_write_that_fails_is_one_line_and_changes_nothing(tmp_path, capsys):
    corpus, run = _toy(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be", encoding="utf-8")
    assert _evaluate(corpus, run, blocker / "card.json") == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{blocker / 'card.json'}: cannot be written: File exists; nothing was changed")
