"""One owner each: the garbage-collector tuning, the pydantic construction shortcut, the progress report."""

from __future__ import annotations

import gc
import re
from pathlib import Path

from mteval_gui.domain.corpus import Entry
from mteval_gui.scoring.progress import Progress

REPO = Path(__file__).resolve().parent.parent


def _sources_matching(pattern: str) -> list[str]:
    rx = re.compile(pattern)
    return sorted(str(p.relative_to(REPO)) for p in (REPO / "mteval_gui").rglob("*.py")
                  if rx.search(p.read_text(encoding="utf-8")))


def test_only_batch_gc_tunes_the_garbage_collector():
    assert _sources_matching(r"\bgc\.(disable|set_threshold|freeze)\(") == ["mteval_gui/app/batchgc.py"]


def test_one_construction_shortcut_for_checked_values():
    assert _sources_matching(r'__pydantic_fields_set__", ') == ["mteval_gui/domain/base.py"]
    from mteval_gui.domain.base import construct

    e = construct(Entry, {"id": "1", "source": "tânisi"})
    assert (e.id, e.source, e.model_fields_set) == ("1", "tânisi", {"id", "source"})


def test_an_import_reports_the_scoring_progress_type_and_leaves_the_collector_as_it_was(tmp_path):
    from mteval_gui.app.imports import import_corpus_file
    from mteval_gui.store import Workspace

    f = tmp_path / "c.tsv"
    f.write_text("id\tsource\treference\n1\tbonjour\twoezɔ\n", encoding="utf-8")
    seen: list[object] = []
    before = (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count())
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        import_corpus_file(ws, f, source_lang="fra", target_lang="ewe", on_progress=seen.append)
    finally:
        ws.close()
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before
    assert seen == [Progress(0, 3, "reading"), Progress(1, 3, "checking"), Progress(2, 3, "writing"),
                    Progress(3, 3, "done")]
