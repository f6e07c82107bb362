"""Documents of a corpus: the same-document neighbours of an entry, read from a window of positions."""

from __future__ import annotations

import pytest

from mteval_gui.app.documents import DocumentIndex, document_context, document_entries, document_of
from mteval_gui.app.entry_review import document_html, load_review_data
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.store import Workspace, repo
from tests.app.pack_helpers import make_workspace


@pytest.fixture
def ws(tmp_path):
    w = make_workspace(tmp_path / "ws.sqlite")
    yield w
    w.close()


def test_document_of_reads_metadata_keys_then_segment():
    assert document_of(Entry(id="a", source="s", metadata={"doc_id": 7})) == "7"
    assert document_of(Entry(id="a", source="s", metadata={"document": True}, segment="seg")) == "seg"
    assert document_of(Entry(id="a", source="s", metadata={"document": "", "doc": "d"})) == "d"
    assert document_of(Entry(id="a", source="s")) is None


def test_index_finds_nearest_same_document_entries_across_interleaving():
    docs = ["A", "B", "A", "A", None, "A", "A", "B"]
    entries = [Entry(id=f"e{i}", source=f"s{i}", metadata={"document": d} if d else {}) for i, d in enumerate(docs)]
    index = DocumentIndex(entries)
    assert index.around(3) == [(0, -2), (2, -1), (5, 1), (6, 2)]
    assert index.around(1) == [(7, 1)]
    assert index.around(4) == []
    assert index.context_items(7, blind=True) == [{"entry_id": "e1", "offset": -1, "source": "s1"}]


def test_desktop_context_has_neighbours_and_the_runs_outputs(ws):
    ctx = document_context(ws, "c", "d1-2", "sys1")
    assert ctx.document == "doc1"
    assert [(n.entry_id, n.offset, n.source, n.reference, n.output) for n in ctx.before] == [
        ("d1-1", -1, "I say so", "nititwân", "nititwân")]
    assert [(n.entry_id, n.offset, n.output) for n in ctx.after] == [("d1-3", 1, "ê-ayâyan")]
    assert document_context(ws, "c", "x-1") is None
    alone = document_context(ws, "c", "d2-1", "sys1")
    assert alone.document == "doc2" and alone.before == [] and alone.after == []
    data = load_review_data(ws, "c", "d1-3", [("sys1", "system-one")])
    assert [n.entry_id for n in data.document.before] == ["d1-1", "d1-2"] and data.document.after == []


def test_window_reads_only_nearby_positions(tmp_path):
    w = Workspace(tmp_path / "big.sqlite")
    entries = [Entry(id=f"e{i}", source=f"s{i}", metadata={"document": "D" if i % 50 == 0 else f"x{i}"})
               for i in range(400)]
    repo.add_corpus(w, Corpus(corpus_id="big", language_pair=LanguagePair(source="eng", target="fra"),
                              entries=entries))
    # e200's document also holds e150, e100, e250, e300; a window of 60 sees e150 and e250 only
    ctx = document_context(w, "big", "e200", window=60)
    assert [n.entry_id for n in ctx.before] == ["e150"] and [n.entry_id for n in ctx.after] == ["e250"]
    ctx = document_context(w, "big", "e200", window=100)
    assert [n.entry_id for n in ctx.before + ctx.after] == ["e100", "e150", "e250", "e300"]
    assert [e.id for e in document_entries(w, "big", "D")] == [f"e{i}" for i in range(0, 400, 50)]
    w.close()


def test_document_html_hides_references_when_blind(ws):
    ctx = document_context(ws, "c", "d1-2", "sys1")
    labels = {"reference": "Référence", "output": "Sortie", "this_entry": "Ce segment", "colon": "\u00a0: "}
    shown = document_html(ctx, blind=False, labels=labels, current="you leave")
    assert shown == ('<p class="ctx"><span class="offset">-1</span> I say so</p>'
                     '<p class="ctxref"><i>Référence</i>\u00a0: nititwân</p>'
                     '<p class="ctxref"><i>Sortie</i>\u00a0: nititwân</p>'
                     '<p class="ctx"><b>Ce segment</b> you leave</p>'
                     '<p class="ctx"><span class="offset">+1</span> as I am</p>'
                     '<p class="ctxref"><i>Référence</i>\u00a0: ê-ayâyân</p>'
                     '<p class="ctxref"><i>Sortie</i>\u00a0: ê-ayâyan</p>')
    assert "Référence" not in document_html(ctx, blind=True, labels=labels)
