"""Review packs offer to rate each document once; its answers come back as task D judgments."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.documents import document_rating, rate_document
from mteval_gui.app.judgment_files import import_judgments_file
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.errors import InputError
from mteval_gui.store import judgments as J
from mteval_gui.store.packs import get_pack
from tests.app.pack_helpers import answer, answers_doc, make_workspace, pack_data


@pytest.fixture
def ws(tmp_path):
    w = make_workspace(tmp_path / "ws.sqlite")
    yield w
    w.close()


def _reply(tmp_path, data, answers):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers_doc(data, answers), ensure_ascii=False), encoding="utf-8")
    return path


def test_the_pack_offers_each_document_once(ws, tmp_path):
    pack = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html")
    data = pack_data(pack.path)
    assert data["documents"] == [{"document": "doc1", "entries": 3, "item": 0, "run_label": "system-one"},
                                 {"document": "doc2", "entries": 1, "item": 3, "run_label": "system-one"}]
    assert [(it["entry_id"], it.get("doc")) for it in data["items"]] == [
        ("d1-1", 0), ("d1-2", 0), ("d1-3", 0), ("d2-1", 1), ("x-1", None)]
    assert get_pack(ws, pack.pack_id).meta["documents"] == [["sys1", "doc1", "d1-1", 0],
                                                                ["sys1", "doc2", "d2-1", 3]]


def test_document_answers_become_task_d_judgments(ws, tmp_path):
    data = pack_data(export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html").path)
    answers = [answer(1, 1, adequacy=4, fluency=3),
               answer(2, 0, doc=0, adequacy=3, fluency=4, payload={"document": "doc1"}, superseded_by=3),
               answer(3, 0, version=2, doc=0, adequacy=5, fluency=4, note="tout le texte",
                      payload={"document": "doc1"})]
    summary = import_judgments_file(ws, _reply(tmp_path, data, answers))
    assert (summary["judgments_added"], summary["judgments_unchanged"]) == (3, 0)
    rating = document_rating(ws, "sys1", "ana", "doc1")
    assert rating is not None
    assert (rating.task, rating.entry_id, rating.adequacy, rating.fluency, rating.note, rating.version,
            rating.payload) == ("D", "d1-1", 5, 4, "tout le texte", 2, {"document": "doc1"})
    [entry_rating] = J.current_judgments(ws, run_id="sys1", reviewer_id="ana", task="A")
    assert (entry_rating.entry_id, entry_rating.adequacy, entry_rating.fluency) == ("d1-2", 4, 3)


def test_a_new_pack_continues_the_document_ratings(ws, tmp_path):
    rate_document(ws, "sys1", "ana", "doc2", 2, 2)
    data = pack_data(export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html").path)
    assert [(r["id"], r["item"], r["doc"], r["adequacy"], r["version"]) for r in data["log"]] == [(1, 3, 1, 2, 1)]
    log = data["log"] + [answer(2, 3, version=2, doc=1, adequacy=4, fluency=2)]
    log[0]["superseded_by"] = 2
    summary = import_judgments_file(ws, _reply(tmp_path, data, log))
    assert (summary["judgments_added"], summary["judgments_unchanged"]) == (1, 1)
    rating = document_rating(ws, "sys1", "ana", "doc2")
    assert (rating.adequacy, rating.fluency, rating.version) == (4, 2, 2)


def test_a_document_the_pack_does_not_offer_is_refused(ws, tmp_path):
    data = pack_data(export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html").path)
    path = _reply(tmp_path, data, [answer(1, 0, doc=2, adequacy=3), answer(2, 4, doc=1, adequacy=3),
                                   answer(3, 0, doc=None, adequacy=3)])
    with pytest.raises(InputError) as err:
        import_judgments_file(ws, path)
    messages = [d.message for d in err.value.defects]
    assert messages[0] == "doc null is not a whole number from 0 to 9223372036854775807"
    assert sorted(messages[1:]) == [f"document 2 is not one pack {data['pack_id']} offers to rate",
                                    "item 4 is not the first item of document 1 (item 3)"]
    assert J.current_judgments(ws, run_id="sys1", task="D") == []


def test_a_blind_pack_offers_documents_only_for_a_single_run(ws, tmp_path):
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import repo

    blind = pack_data(export_review_pack(ws, ["sys1"], "ana", tmp_path / "blind.html", blind=True).path)
    # the items are shuffled; each document names its first item, and no run
    assert sorted((d["document"], d["entries"], sorted(d)) for d in blind["documents"]) == [
        ("doc1", 3, ["document", "entries", "item"]), ("doc2", 1, ["document", "entries", "item"])]
    for k, d in enumerate(blind["documents"]):
        assert min(i for i, it in enumerate(blind["items"]) if it.get("doc") == k) == d["item"]
    repo.import_run(ws, Run(corpus_id="c", meta=RunMeta(run_id="sys2", model_slug="system-two"),
                            outputs=[Output(id=e, predicted="x") for e in ("d1-1", "d1-2", "d1-3", "d2-1", "x-1")]))
    two = pack_data(export_review_pack(ws, ["sys1", "sys2"], "ana", tmp_path / "two.html", blind=True).path)
    assert "documents" not in two and all("doc" not in it for it in two["items"])
    seen = pack_data(export_review_pack(ws, ["sys1", "sys2"], "ana", tmp_path / "seen.html").path)
    assert [(d["document"], d["run_label"], d["item"]) for d in seen["documents"]] == [
        ("doc1", "system-one", 0), ("doc1", "system-two", 1), ("doc2", "system-one", 6), ("doc2", "system-two", 7)]
