"""A review pack in a real browser (Debian's chromium driven by selenium), with networking disabled.

Rate three entries with the keyboard, mark an error span, type a correction, close the tab and
reopen the pack (answers kept), export the answers, import them into the
workspace and compare what is stored with what the pack exported. The answers are signed with
the pack's key (HMAC-SHA256 computed by the page): a copy edited and re-hashed is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from mteval_gui.app import judgment_files, review
from mteval_gui.app.review_pack import export_review_pack
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.errors import InputError
from mteval_gui.io.review_pack import answers_hmac, canonical_json
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from mteval_gui.store.packs import get_pack

pytestmark = [pytest.mark.browser, pytest.mark.shared_data]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
OFFLINE_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-default-apps", "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                 "--window-size=480,1400"]


def _browser(profile: Path):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but chromium or chromedriver is missing (.ci/run installs them)")
        pytest.skip("chromium and chromium-driver are not installed")
    opts = webdriver.ChromeOptions()
    for flag in [*OFFLINE_FLAGS, f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    opts.binary_location = CHROMIUM
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def _requests(driver) -> list[str]:
    out = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            out.append(message["params"].get("request", {}).get("url") or message["params"].get("url", ""))
    return out


def _assert_offline(urls: list[str], pack_url: str) -> None:
    inside = ("data:", "blob:", "chrome:", "chrome-untrusted:", "about:")
    left = [u for u in urls if not (u == pack_url or u.startswith(inside))]
    assert left == [], f"requests left the page: {left}"


def _wait(predicate, timeout: float = 20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for the browser")


def _state(driver, pack_id):
    raw = driver.execute_script("return window.localStorage.getItem(arguments[0]);", f"mteval-review-pack:{pack_id}")
    return json.loads(raw) if raw else None


def test_pack_round_trip_through_the_browser(tmp_path, shared_data):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from mteval_gui.app.imports import import_corpus_file, import_run_file

    data = shared_data / "crk" / "verbforms"
    ws = Workspace(tmp_path / "ws.sqlite")
    import_corpus_file(ws, data / "corpus.jsonl", corpus_id="crk-verbs", source_lang="eng", target_lang="crk")
    run_id = import_run_file(ws, data / "runs" / "mixed.jsonl", corpus_id="crk-verbs").id
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", languages=["crk"]))
    done = export_review_pack(ws, [run_id], "ana", tmp_path / "pack.html", entries=50, ui_lang="en")
    assert done.items == 50
    assert done.bytes < 2 * 1024 * 1024, done.bytes  # one file under 2 MB
    pack_url = done.path.resolve().as_uri()

    profile = tmp_path / "profile"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = _browser(profile)
    try:
        driver.get(pack_url)
        _wait(lambda: driver.find_elements(By.ID, "progress"))
        body = driver.find_element(By.TAG_NAME, "body")
        # item 0: adequacy 4, fluency 3 (the keys of the desktop ratings panel)
        body.send_keys("4")
        body.send_keys("3")
        assert driver.find_element(By.ID, "adequacy-4").get_attribute("aria-pressed") == "true"
        assert driver.find_element(By.ID, "fluency-3").get_attribute("aria-pressed") == "true"
        output = driver.find_element(By.ID, "output").text
        assert output == "kititwânâwâw"
        # an error span: select "ki" in the output, category morphology, major
        driver.find_element(By.CSS_SELECTOR, "#span-category option[value='morphology']").click()
        driver.execute_script(
            "var node = document.getElementById('output').firstChild; var r = document.createRange();"
            "r.setStart(node, 0); r.setEnd(node, 2); var s = window.getSelection(); s.removeAllRanges();"
            "s.addRange(r);")
        time.sleep(0.3)  # selectionchange is dispatched asynchronously
        driver.find_element(By.ID, "span-major").click()
        _wait(lambda: driver.find_elements(By.ID, "span-remove-0"))
        assert "ki" in driver.find_element(By.ID, "span-list").text
        # the marked text and its severity are apart, not "kiMajor · morphology" run together
        gap = driver.execute_script(
            "var li = document.querySelector('#span-list li');"
            "return li.querySelector('select.severity').getBoundingClientRect().left"
            " - li.querySelector('.spantext').getBoundingClientRect().right;")
        assert gap >= 4, gap
        # a correction, typed and left with Tab
        box = driver.find_element(By.ID, "correction")
        box.click()
        box.send_keys("nititwân")
        box.send_keys(Keys.TAB)
        # items 1 and 2 by keyboard: Enter goes to the next unanswered item
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
        _wait(lambda: driver.find_element(By.ID, "progress").text.startswith("2 of 50"))
        driver.find_element(By.TAG_NAME, "body").send_keys("1")
        driver.find_element(By.TAG_NAME, "body").send_keys("2")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
        _wait(lambda: driver.find_element(By.ID, "progress").text.startswith("3 of 50"))
        for key in ("5", "4", "f"):
            driver.find_element(By.TAG_NAME, "body").send_keys(key)
        assert driver.find_element(By.ID, "flag").is_selected()
        assert "3 answered" in driver.find_element(By.ID, "progress").text

        # close the tab and open the pack again in a new one: everything is still there
        before = _state(driver, done.pack_id)
        old = driver.current_window_handle
        driver.switch_to.new_window("tab")
        new_tab = driver.current_window_handle
        driver.switch_to.window(old)
        driver.close()
        driver.switch_to.window(new_tab)
        driver.get(pack_url)
        _wait(lambda: driver.find_elements(By.ID, "progress"))
        assert "3 answered" in driver.find_element(By.ID, "progress").text
        assert _state(driver, done.pack_id)["log"] == before["log"]
        driver.find_element(By.ID, "prev").click()
        driver.find_element(By.ID, "prev").click()
        assert driver.find_element(By.ID, "progress").text.startswith("1 of 50")
        assert driver.find_element(By.ID, "correction").get_attribute("value") == "nititwân"
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        driver.find_element(By.ID, "export").click()
        exported = _wait(lambda: next(iter(downloads.glob("answers-*.json")), None))
        _wait(lambda: exported.stat().st_size > 0 and not list(downloads.glob("*.crdownload")))
        # the page's HMAC-SHA256 (over its own SHA-256) is Python's, for a key and a text of several blocks
        text = "ê-ayâyân ᓂᓂᐹᐣ " * 40
        page_hmac = driver.execute_script("return window.mtevalReviewPack.hmacSha256Hex(arguments[0], arguments[1]);",
                                          "5a" * 32, text)
        urls = _requests(driver)
        console = driver.get_log("browser")
    finally:
        driver.quit()

    _assert_offline(urls, pack_url)
    assert [m for m in console if m["level"] == "SEVERE"] == []  # no CSP violation, no script error

    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert exported.name == f"answers-{done.pack_id}.json"
    assert doc["pack_id"] == done.pack_id and doc["pack_sha256"] == done.content_sha256
    answers = doc["answers"]
    # the answers are signed with the pack's key (kept by the workspace), not with a plain sha256
    assert page_hmac == hmac.new(bytes.fromhex("5a" * 32), text.encode("utf-8"), hashlib.sha256).hexdigest()
    key = get_pack(ws, done.pack_id).answers_key
    assert "answers_sha256" not in doc and doc["answers_hmac"] == answers_hmac(key, answers)
    edited = {k: v for k, v in doc.items() if k != "answers_hmac"}
    edited["answers"] = json.loads(json.dumps(answers))
    edited["answers"][-1]["adequacy"] = 1
    edited["answers_sha256"] = hashlib.sha256(canonical_json(edited["answers"]).encode("utf-8")).hexdigest()
    rehashed = tmp_path / "rehashed.json"
    rehashed.write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="only a plain answers_sha256"):
        judgment_files.import_judgments_file(ws, rehashed)
    summary = judgment_files.import_judgments_file(ws, exported)
    assert summary["judgments_added"] == len(answers) == 9  # 4 versions for item 0, 2 for item 1, 3 for item 2

    # what is stored is exactly what the pack exported
    log = [j for j in J.export_log(ws)[1] if j.reviewer_id == "ana"]
    by_local = {a["id"]: a for a in answers}
    stored_id = {}
    for a, j in zip(sorted(answers, key=lambda a: a["id"]), log, strict=True):
        stored_id[a["id"]] = j.judgment_id
    entry_ids = [f"crk-v{n:04d}" for n in range(1, 4)]
    for a, j in zip(sorted(answers, key=lambda a: a["id"]), log, strict=True):
        assert (j.run_id, j.entry_id, j.task) == (run_id, entry_ids[a["item"]], "A")
        assert (j.version, j.created_at, j.adequacy, j.fluency, j.note, j.flagged, j.payload, j.undone) == (
            a["version"], a["created_at"], a["adequacy"], a["fluency"], a["note"], a["flagged"], a["payload"],
            a["undone"])
        assert j.superseded_by == (stored_id[a["superseded_by"]] if a["superseded_by"] else None)
    assert set(by_local) == set(stored_id)
    current = {j.entry_id: j for j in J.current_judgments(ws, reviewer_id="ana")}
    first = current["crk-v0001"]
    assert (first.adequacy, first.fluency) == (4, 3)
    assert first.payload == {"correction": "nititwân",
                             "spans": [{"start": 0, "end": 2, "severity": "major", "category": "morphology"}]}
    assert (current["crk-v0002"].adequacy, current["crk-v0002"].fluency) == (1, 2)
    third = current["crk-v0003"]
    assert (third.adequacy, third.fluency, third.flagged) == (5, 4, True)
    assert review.esa_scores(ws, [run_id])[run_id].penalty == 5.0  # one major span
    # importing the same file again changes nothing
    assert judgment_files.import_judgments_file(ws, exported)["judgments_added"] == 0
    ws.close()
