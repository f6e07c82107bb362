"""Rating a whole document in the review pack, with the keys of the ratings, in a real browser."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.documents import document_rating
from mteval_gui.app.judgment_files import import_judgments_file
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.store import judgments as J
from tests.app.pack_helpers import make_workspace
from tests.browser.test_review_pack_browser import _browser, _state, _wait

pytestmark = [pytest.mark.browser]


def test_the_document_is_rated_once_with_the_rating_keys_and_comes_back_as_task_d(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    ws = make_workspace(tmp_path / "ws.sqlite")
    try:
        done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html", ui_lang="fr")
        driver = _browser(tmp_path / "profile")
        try:
            driver.get(done.path.resolve().as_uri())
            _wait(lambda: driver.find_elements(By.ID, "progress"))

            def keys(*seq):
                for k in seq:
                    driver.switch_to.active_element.send_keys(k)

            section = driver.find_element(By.ID, "document-rating")
            title = section.find_element(By.TAG_NAME, "h2").get_attribute("textContent")
            assert title == "Noter le document — doc1 · system-one"
            assert driver.find_element(By.ID, "rate-document").text == "Noter le document (D)"
            # the segment first, then D: the same keys rate the document, Esc goes back to the segment
            keys("4", "4", "d")
            assert driver.find_element(By.ID, "status").text.startswith("Touches : 1-5 notent le document")
            keys("2", Keys.TAB, "3", Keys.ESCAPE, "5")
            state = _state(driver, done.pack_id)
            rows = [(r["item"], r.get("doc"), r["adequacy"], r["fluency"], r["version"]) for r in state["log"]
                    if not r["undone"] and r["superseded_by"] is None]
            # "4 4": the segment; D "2 Tab 3": the document; Esc "5": the segment's fluency (its scale still focused)
            assert rows == [(0, 0, 2, 3, 2), (0, None, 4, 5, 3)]
            # the next segment of the same document shows the same rating; a note on the whole document
            keys(Keys.ARROW_RIGHT)
            _wait(lambda: driver.find_element(By.ID, "progress").text.startswith("2 sur 5"))
            chosen = driver.find_elements(By.CSS_SELECTOR, "#document-rating button.on")
            assert [b.get_attribute("id") for b in chosen] == ["doc-adequacy-2", "doc-fluency-3"]
            driver.find_element(By.ID, "doc-note").click()
            keys("cohérent", Keys.ESCAPE)
            # D gives the keys to the document and D again gives them back
            keys("d")
            assert "on" in driver.find_element(By.ID, "document-rating").get_attribute("class").split()
            keys("d")
            assert "on" not in driver.find_element(By.ID, "document-rating").get_attribute("class").split()
            assert driver.find_element(By.ID, "rate-document").text == "Noter le document (D)"
            # x-1 belongs to no document: nothing to rate there, and D does nothing
            keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
            _wait(lambda: driver.find_element(By.ID, "progress").text.startswith("5 sur 5"))
            assert driver.find_elements(By.ID, "document-rating") == []
            doc = driver.execute_script("return window.mtevalReviewPack.answersDocument();")
        finally:
            driver.quit()
        reply = tmp_path / "answers.json"
        reply.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        summary = import_judgments_file(ws, reply)
        assert summary["judgments_added"] == 6
        rating = document_rating(ws, "sys1", "ana", "doc1")
        assert (rating.entry_id, rating.adequacy, rating.fluency, rating.note, rating.version) == (
            "d1-1", 2, 3, "cohérent", 3)
        [segment] = J.current_judgments(ws, run_id="sys1", reviewer_id="ana", task="A")
        assert (segment.entry_id, segment.adequacy, segment.fluency) == ("d1-1", 4, 5)
    finally:
        ws.close()
