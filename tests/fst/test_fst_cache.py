"""The workspace's persistent analyzer cache (table fst_cache)."""

from __future__ import annotations

from mteval_gui.fst import Analyzer
from mteval_gui.store.fst_cache import WorkspaceFstCache, clear_fst_cache
from tests.fst._support import build_tiny_hfstol


def _rows(ws):
    return ws.conn.execute("SELECT analyzer_sha256, word, analyses FROM fst_cache ORDER BY word").fetchall()


def test_mapping_buffers_and_flushes(workspace):
    c = WorkspaceFstCache(workspace, "a" * 64, flush_every=3)
    c["nipâw"] = ["nipâw+V+AI+Ind+3Sg"]
    c["xyz"] = []
    assert c.pending == 2 and _rows(workspace) == []
    c["atim"] = ["atim+N+A+Sg"]  # third write triggers a flush
    assert c.pending == 0
    assert [tuple(r) for r in _rows(workspace)] == [
        ("a" * 64, "atim", '["atim+N+A+Sg"]'),
        ("a" * 64, "nipâw", '["nipâw+V+AI+Ind+3Sg"]'),
        ("a" * 64, "xyz", "[]"),
    ]
    other = WorkspaceFstCache(workspace, "b" * 64)
    assert len(other) == 0 and other.get("atim") is None
    again = WorkspaceFstCache(workspace, "a" * 64)
    assert again.get("nipâw") == ["nipâw+V+AI+Ind+3Sg"] and len(again) == 3
    del again["xyz"]
    assert [r[1] for r in _rows(workspace)] == ["atim", "nipâw"]
    assert clear_fst_cache(workspace, "a" * 64) == 2


def test_analyzer_with_workspace_cache(workspace, tmp_path):
    tiny = build_tiny_hfstol(tmp_path / "tiny.hfstol")
    factory = WorkspaceFstCache.factory(workspace)
    an = Analyzer.load(tiny)
    an.persistent_cache = factory(an.sha256)
    assert [w.accepted for w in an.analyse_text("Nipâw kotak")] == [True, False]
    assert factory.flush() == 3  # "Nipâw", "nipâw", "kotak"
    fresh = Analyzer.load(tiny, cache=WorkspaceFstCache.factory(workspace)(an.sha256))
    assert [w.form for w in fresh.analyse_text("Nipâw kotak")] == ["nipâw", "kotak"]
    assert fresh.transducer_lookups == 0
