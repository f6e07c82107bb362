"""Review packs carry the reference in each script of the language and the generator's forms per entry."""

from __future__ import annotations

import pytest

from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import MtevalError
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as jstore
from tests.app.pack_helpers import make_workspace, pack_data
from tests.conftest import SHARED_DATA
from tests.fst._support import install_crk


def test_the_reference_is_embedded_in_each_script_and_shown_in_the_chosen_one(tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html", reference_script="Cans")
    data = pack_data(done.path)
    assert data["scripts"] == ["Latn", "Cans"]
    assert data["reference_script"] == "Cans"
    first = next(i for i in data["items"] if i["entry_id"] == "d1-1")
    assert first["reference_scripts"] == {"Latn": "nititwân", "Cans": "ᓂᑎᑤᐣ"}
    assert "forms" not in first  # no generator installed
    blind = pack_data(export_review_pack(ws, ["sys1"], "ana", tmp_path / "blind.html", blind=True).path)
    assert all("reference_scripts" not in i for i in blind["items"])
    with pytest.raises(MtevalError, match="reference script 'Grek': the crk card reaches Latn, Cans"):
        export_review_pack(ws, ["sys1"], "ana", tmp_path / "no.html", reference_script="Grek")
    ws.close()


@pytest.mark.shared_data
def test_task_a_items_embed_the_generator_forms_for_offline_correction(tmp_path, monkeypatch):
    analyzers = tmp_path / "analyzers"
    install_crk(SHARED_DATA, analyzers)
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(analyzers))
    ws = Workspace(tmp_path / "ws.sqlite")
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=[
        Entry(id="e1", source="you leave", reference="kisipwêhtân",
              expected_morphology={"kisipwêhtân": "sipwêhtêw+V+AI+Ind+2Sg"}),
        Entry(id="e2", source="he/she arrives", reference="takohtêw",
              expected_morphology={"takohtêw": "takohtêw+V+AI+Ind+3Sg"})]))
    repo.import_run(ws, Run(corpus_id="c", meta=RunMeta(run_id="s", model_slug="s"), outputs=[
        Output(id="e1", predicted="nisipwêhtânân êkwa"), Output(id="e2", predicted="takohtêw")]))
    jstore.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", languages=["crk"]))
    data = pack_data(export_review_pack(ws, ["s"], "ana", tmp_path / "pack.html").path)
    by_id = {i["entry_id"]: i for i in data["items"]}
    assert "forms" not in by_id["e2"]  # the gold form already
    (word,) = by_id["e1"]["forms"]
    assert (word["token"], word["reason"], word["gold"], word["analyses"]) == (
        "nisipwêhtânân", "other_analysis", "sipwêhtêw+V+AI+Ind+2Sg", ["sipwêhtêw+V+AI+Ind+1Pl"])
    assert word["forms"][0] == {"form": "kisipwêhtân", "analysis": "sipwêhtêw+V+AI+Ind+2Sg", "gold": True,
                                "distance": 3, "corrected": "kisipwêhtân êkwa"}
    assert all(not f["gold"] and f["changed"].startswith("2Sg → ") for f in word["forms"][1:])
    assert len(word["forms"]) == 9
    ws.close()
