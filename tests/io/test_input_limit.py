"""Input files over the size limit are refused from their size, before anything is read."""

from __future__ import annotations

import pytest

from mteval_gui.cli import main
from mteval_gui.errors import InputError
from mteval_gui.io import read_corpus, read_run, textfile
from mteval_gui.io.detect import preview
from mteval_gui.store import Workspace, repo


def _sparse(path, size=2 * 1024 ** 3):
    with path.open("wb") as fh:
        fh.truncate(size)  # takes no disk space
    return path


def _never_opened(monkeypatch):
    """Make any open of a file but a workspace's fail the test: nothing may be read (the workspace's
    own guard descriptor, store/walguard.py, is opened with os.open too)."""
    real_open = textfile.os.open

    def no_open(path, *args, **kwargs):
        if str(path).endswith((".sqlite", ".sqlite-shm")):
            return real_open(path, *args, **kwargs)
        raise AssertionError(f"the reader opened {path}")

    monkeypatch.setattr(textfile.os, "open", no_open)


def test_a_2_gb_sparse_corpus_is_refused_without_reading_it(tmp_path, monkeypatch):
    huge = _sparse(tmp_path / "huge.txt")
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    _never_opened(monkeypatch)
    with pytest.raises(InputError) as info:
        read_corpus(huge, ref_path=ref, source_lang="fra", target_lang="ewe")
    assert [str(d) for d in info.value.defects] == [
        f"{huge}: 2.0 GB is over the 1 GB input limit (MTEVAL_MAX_INPUT_BYTES)"]


def test_the_limit_comes_from_the_environment(tmp_path, monkeypatch):
    run = tmp_path / "run.txt"
    run.write_text("nipâw\n", encoding="utf-8")  # 7 bytes
    monkeypatch.setenv("MTEVAL_MAX_INPUT_BYTES", "6")
    with pytest.raises(InputError) as info:
        read_run(run, entry_ids=["1"])
    assert [str(d) for d in info.value.defects] == [
        f"{run}: 7 bytes is over the 6 bytes input limit (MTEVAL_MAX_INPUT_BYTES)"]
    monkeypatch.setenv("MTEVAL_MAX_INPUT_BYTES", "7")
    assert [o.predicted for o in read_run(run, entry_ids=["1"]).value.outputs] == ["nipâw"]
    monkeypatch.setenv("MTEVAL_MAX_INPUT_BYTES", "lots")
    with pytest.raises(InputError) as info:
        read_run(run, entry_ids=["1"])
    assert [str(d) for d in info.value.defects] == ["MTEVAL_MAX_INPUT_BYTES: 'lots' is not a positive number of bytes"]


def test_import_of_a_huge_file_exits_with_the_message_and_changes_nothing(tmp_path, monkeypatch, capsys):
    huge = _sparse(tmp_path / "corpus.jsonl", 3 * 1024 ** 3 // 2)
    db = tmp_path / "ws.sqlite"
    assert main(["--db", str(db), "workspace", "init"]) == 0
    capsys.readouterr()
    _never_opened(monkeypatch)
    assert main(["--db", str(db), "import", "corpus", str(huge), "--source-lang", "fra", "--target-lang", "ewe"]) == 2
    assert f"{huge}: 1.5 GB is over the 1 GB input limit (MTEVAL_MAX_INPUT_BYTES)" in capsys.readouterr().err
    ws = Workspace(db)
    try:
        assert repo.list_corpora(ws) == []
    finally:
        ws.close()


def test_the_import_preview_of_a_huge_file_is_refused_from_its_size(tmp_path, monkeypatch):
    huge = _sparse(tmp_path / "huge.jsonl")
    _never_opened(monkeypatch)
    with pytest.raises(InputError) as info:
        preview(huge, 3)
    assert [str(d) for d in info.value.defects] == [
        f"{huge}: 2.0 GB is over the 1 GB input limit (MTEVAL_MAX_INPUT_BYTES)"]
