"""The review pack's keys in a real browser: the key map shared with the desktop ratings panel
(mteval_gui.domain.review_keys), read by pack.js from the page's #review-keys block."""

from __future__ import annotations

import json
import re

import pytest

from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.domain.review_keys import keymap_data
from tests.app.pack_helpers import make_workspace
from tests.browser.test_review_pack_browser import _browser, _state, _wait

pytestmark = [pytest.mark.browser]

KEYS_BLOCK = re.compile(r'<script type="application/json" id="review-keys">(.*?)</script>', re.S)


def _current(state, item):
    rows = [r for r in state["log"] if r["item"] == item and not r["undone"] and r["superseded_by"] is None]
    return rows[0] if rows else None


def _pack(tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    done = export_review_pack(ws, ["sys1"], "ana", tmp_path / "pack.html", ui_lang="en")
    ws.close()
    return done


def test_the_pack_embeds_the_shared_key_map(tmp_path):
    done = _pack(tmp_path)
    text = done.path.read_text(encoding="utf-8")
    assert json.loads(KEYS_BLOCK.search(text).group(1)) == keymap_data()
    js = text[text.index("<script>"):]
    assert '"Tab"' not in js and "=== \"Tab\"" not in js  # pack.js has no key of its own for the ratings


def test_pack_keys_record_what_the_desktop_keys_record(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    done = _pack(tmp_path)
    driver = _browser(tmp_path / "profile")
    try:
        driver.get(done.path.resolve().as_uri())
        _wait(lambda: driver.find_elements(By.ID, "progress"))

        def keys(*seq):
            for k in seq:
                driver.switch_to.active_element.send_keys(k)

        # item 0: "3 Tab 4" is adequacy 3, fluency 4, as on the desktop
        keys("3", Keys.TAB, "4")
        first = _current(_state(driver, done.pack_id), 0)
        assert (first["adequacy"], first["fluency"]) == (3, 4)
        # a note, left with Enter: the next "1 1 Enter" rates (item 0 again) and moves on
        driver.find_element(By.ID, "note").click()
        keys("odd word", Keys.ENTER)
        assert driver.switch_to.active_element.get_attribute("id") != "note"
        keys(Keys.SHIFT + Keys.TAB, "1", "1", Keys.ENTER)
        _wait(lambda: driver.find_element(By.ID, "progress").text.startswith("2 of 5"))
        state = _state(driver, done.pack_id)
        first = _current(state, 0)
        assert (first["adequacy"], first["fluency"], first["note"]) == (1, 1, "odd word")
        # item 1: a note left with Esc, then "5 2"
        driver.find_element(By.ID, "note").click()
        keys("fine", Keys.ESCAPE, "5", "2")
        second = _current(_state(driver, done.pack_id), 1)
        assert (second["adequacy"], second["fluency"], second["note"]) == (5, 2, "fine")
        notes = {r["note"] for r in _state(driver, done.pack_id)["log"] if r["note"]}
        assert notes == {"odd word", "fine"}
        console = driver.get_log("browser")
    finally:
        driver.quit()
    assert [m for m in console if m["level"] == "SEVERE"] == []


def test_pack_js_follows_the_embedded_map(tmp_path):
    """The page's keys come from its #review-keys block: a map whose Tab wraps makes "Tab Tab 4" adequacy 4."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    done = _pack(tmp_path)
    text = done.path.read_text(encoding="utf-8")
    wrapped = dict(keymap_data(), wrap=True)
    done.path.write_text(KEYS_BLOCK.sub(lambda m: m.group(0).replace(m.group(1), json.dumps(wrapped)), text),
                         encoding="utf-8")
    driver = _browser(tmp_path / "profile")
    try:
        driver.get(done.path.resolve().as_uri())
        _wait(lambda: driver.find_elements(By.ID, "progress"))
        body = driver.find_element(By.TAG_NAME, "body")
        for k in (Keys.TAB, Keys.TAB, "4"):
            body.send_keys(k)
        first = _current(_state(driver, done.pack_id), 0)
        assert (first["adequacy"], first["fluency"]) == (4, None)
    finally:
        driver.quit()
