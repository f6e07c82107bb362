"""A review pack in a real browser: the reference's script switch and a generator form made the correction."""

from __future__ import annotations

import pytest

from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J
from tests.browser.test_review_pack_browser import _assert_offline, _browser, _requests, _state, _wait
from tests.conftest import SHARED_DATA
from tests.fst._support import install_crk

pytestmark = [pytest.mark.browser, pytest.mark.shared_data]


def test_script_switch_and_a_generator_form_as_the_correction(tmp_path, monkeypatch):
    from selenium.webdriver.common.by import By

    analyzers = tmp_path / "analyzers"
    install_crk(SHARED_DATA, analyzers)
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(analyzers))
    ws = Workspace(tmp_path / "ws.sqlite")
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=[
        Entry(id="e1", source="I say so", reference="nititwân",
              expected_morphology={"nititwân": "itwêw+V+AI+Ind+1Sg"})]))
    repo.import_run(ws, Run(corpus_id="c", meta=RunMeta(run_id="s", model_slug="s"),
                            outputs=[Output(id="e1", predicted="itwêwak")]))
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", languages=["crk"]))
    done = export_review_pack(ws, ["s"], "ana", tmp_path / "pack.html", ui_lang="en", reference_script="Cans")
    pack_url = done.path.resolve().as_uri()
    driver = _browser(tmp_path / "profile")
    try:
        driver.get(pack_url)
        _wait(lambda: driver.find_elements(By.ID, "progress"))
        assert driver.find_element(By.ID, "reference").text == "ᓂᑎᑤᐣ"
        driver.find_element(By.ID, "script-Latn").click()
        _wait(lambda: driver.find_element(By.ID, "reference").text == "nititwân")
        driver.find_element(By.ID, "script-Cans").click()
        _wait(lambda: driver.find_element(By.ID, "reference").text == "ᓂᑎᑤᐣ")
        first = driver.find_element(By.ID, "form-0-0")
        assert first.text == "Use nititwân"
        first.click()
        _wait(lambda: driver.find_element(By.ID, "correction").get_attribute("value") == "nititwân")
        state = _state(driver, done.pack_id)
        assert state["refScript"] == "Cans"
        assert [row["payload"].get("correction") for row in state["log"]] == ["nititwân"]
        _assert_offline(_requests(driver), pack_url)
    finally:
        driver.quit()
    ws.close()
