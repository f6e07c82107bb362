"""A process that scores and ends collects garbage rarely; whoever called it is left as it was."""

from __future__ import annotations

import argparse
import gc
import queue
import threading

from mteval_gui import cli
from mteval_gui.app import tasks
from mteval_gui.app.batchgc import GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD, batch_gc
from mteval_gui.runtime import DoneMsg

SEEN: list[tuple[tuple[int, int, int], int]] = []


def record(**_kw: object) -> str:
    SEEN.append((gc.get_threshold(), gc.get_freeze_count()))
    return "done"


def test_batch_gc_freezes_what_exists_and_collects_rarely_then_puts_both_back():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with batch_gc():
        assert gc.get_threshold() == (GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD) == (20_000, 20, 100)
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_batch_gc_blocks_nest():
    with batch_gc():
        outer = gc.get_freeze_count()
        with batch_gc():
            pass
        assert gc.get_freeze_count() >= outer > 0
        assert gc.get_threshold() == (GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD)
    assert gc.get_freeze_count() == 0


def test_batch_gc_puts_both_back_when_the_block_fails():
    before = gc.get_threshold()
    try:
        with batch_gc():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_every_cli_command_runs_under_batch_gc(monkeypatch):
    SEEN.clear()
    parser = argparse.ArgumentParser()
    parser.set_defaults(handler=lambda _args: record() and 0)
    monkeypatch.setattr(cli, "build_parser", lambda _argv: parser)
    before = gc.get_threshold()
    assert cli.main([]) == 0
    assert SEEN and SEEN[0][0] == (GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD) and SEEN[0][1] > 0
    assert gc.get_threshold() == before


def test_a_background_job_runs_its_target_under_batch_gc():
    SEEN.clear()
    messages: queue.Queue[tuple[str, object]] = queue.Queue()
    tasks.child_main(messages, threading.Event(), f"{__name__}:record", {})
    assert messages.get_nowait() == DoneMsg("done")
    assert SEEN[0][0] == (GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD)


def test_batch_gc_without_collections_disables_the_collector_and_enables_it_again():
    assert gc.isenabled()
    with batch_gc(collect=False):
        assert not gc.isenabled()
        assert gc.get_threshold() == (GEN0_THRESHOLD, GEN1_THRESHOLD, GEN2_THRESHOLD)
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_batch_gc_without_collections_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        with batch_gc(collect=False):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_import_runs_without_collections(tmp_path, monkeypatch):
    from mteval_gui.app import imports
    from mteval_gui.store import Workspace

    seen: list[bool] = []
    read = imports.read_corpus
    monkeypatch.setattr(imports, "read_corpus", lambda *a, **k: seen.append(gc.isenabled()) or read(*a, **k))
    f = tmp_path / "c.jsonl"
    f.write_text('{"id": "1", "source": "bonjour", "reference": "woezɔ"}\n', encoding="utf-8")
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        imports.import_corpus_file(ws, f, source_lang="fra", target_lang="ewe")
    finally:
        ws.close()
    assert seen == [False] and gc.isenabled()
