"""The ESA protocol in a review pack, in a real browser: a direct 0-100 score, a critical span and a
span marking missing content, by keyboard, exported and imported unchanged."""

from __future__ import annotations

import json
import time

import pytest

from mteval_gui.app import judgment_files, review
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.browser.test_review_pack_browser import _browser, _wait
from tests.store.judgment_helpers import add_corpus, add_outputs, add_run

pytestmark = [pytest.mark.browser]


def test_esa_score_critical_and_missing_content_through_the_browser(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    ws = Workspace(tmp_path / "ws.sqlite")
    add_corpus(ws, "c", ["e1", "e2"], target_lang="crk")
    add_run(ws, "sys", "c")
    add_outputs(ws, "sys", {"e1": "nititwân ôma", "e2": "kisipwêhtân"})
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", languages=["crk"]))
    done = export_review_pack(ws, ["sys"], "ana", tmp_path / "pack.html", entries=2, ui_lang="fr")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = _browser(tmp_path / "profile")
    try:
        driver.get(done.path.resolve().as_uri())
        _wait(lambda: driver.find_elements(By.ID, "progress"))
        assert driver.find_element(By.ID, "span-critical").text == "Critique"
        assert driver.find_element(By.ID, "span-missing").text == "Contenu manquant (O)"
        driver.execute_script(
            "var node = document.getElementById('output').firstChild; var r = document.createRange();"
            "r.setStart(node, 0); r.setEnd(node, 8); var s = window.getSelection(); s.removeAllRanges();"
            "s.addRange(r);")
        time.sleep(0.3)  # selectionchange is dispatched asynchronously
        driver.find_element(By.ID, "span-critical").click()
        _wait(lambda: driver.find_elements(By.ID, "span-remove-0"))
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys("o")  # missing content
        _wait(lambda: driver.find_elements(By.ID, "span-severity-1"))
        assert "[contenu manquant]" in driver.find_element(By.ID, "span-list").text
        driver.find_element(By.CSS_SELECTOR, "#span-severity-1 option[value='major']").click()
        _wait(lambda: driver.find_element(By.ID, "span-severity-1").get_attribute("value") == "major")
        driver.find_element(By.TAG_NAME, "body").send_keys("e")  # the ESA score field
        field = driver.find_element(By.ID, "esa-score")
        assert driver.switch_to.active_element == field
        field.send_keys("68")
        field.send_keys(Keys.ENTER)
        _wait(lambda: driver.find_element(By.ID, "esa-score").get_attribute("value") == "68")
        assert [m.text for m in driver.find_elements(By.CSS_SELECTOR, "#output mark.critical")] == ["nititwân"]
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        driver.find_element(By.ID, "export").click()
        exported = _wait(lambda: next(iter(downloads.glob("answers-*.json")), None))
        _wait(lambda: exported.stat().st_size > 0 and not list(downloads.glob("*.crdownload")))
        console = driver.get_log("browser")
    finally:
        driver.quit()
    assert [m for m in console if m["level"] == "SEVERE"] == []
    answers = json.loads(exported.read_text(encoding="utf-8"))["answers"]
    assert answers[-1]["payload"] == {"esa_score": 68, "spans": [
        {"start": 0, "end": 8, "severity": "critical", "category": None},
        {"missing": True, "severity": "major", "category": "omission"}]}
    judgment_files.import_judgments_file(ws, exported)
    (j,) = J.current_judgments(ws, reviewer_id="ana")
    assert j.payload == answers[-1]["payload"]
    assert review.esa_scores(ws, ["sys"])["sys"].score == 68.0
    ws.close()
