"""Exported harness reports in the reference harness's own dashboard, rendered by a real browser.

Two Plains Cree runs are scored and exported with ``mteval export harness-report``; the harness's
``mt-eval dashboard`` (../shared/peers/gds-mt-eval-harness, run unchanged from its folder in a child
process) writes the page, and Debian's chromium runs its script with networking disabled. The
numbers the page shows (metric cards, run comparison, segment bars, entry explorer, side-by-side
view and the data handed to its charts) are read from the DOM and compared with the exported
reports and the run cards.

The page loads Chart.js and its fonts from a CDN. Offline, those two requests fail (the test
checks that nothing else is requested and that the page's own script raises nothing); a
recording ``Chart`` defined before the page's scripts stands in for Chart.js and keeps the data
each chart is given. The child process hides ``comet`` (``sys.modules['comet'] = None``): the
harness treats COMET as optional (``HAS_COMET``), and importing torch only slows the test.

The dashboard has no view of the composite or of the difficulty breakdown (its own reports do
not carry a composite; ``by_difficulty`` is read by ``mt-eval card``, not by the dashboard): the
composite is checked to stay in the report under ``overall.mteval``.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal

import pytest

from mteval_gui.cli import main
from tests.browser.test_review_pack_browser import _browser, _wait
from tests.conftest import SHARED, SHARED_DATA

pytestmark = [pytest.mark.browser, pytest.mark.shared_data, pytest.mark.slow]

PEER = SHARED / "peers" / "gds-mt-eval-harness"
CRK = SHARED_DATA / "crk"
RUNS = ("mixed", "oracle")

# Defined before the page's scripts: records what each chart is given (Chart.js itself is on a CDN).
CHART_STAND_IN = """
window.__charts = [];
window.Chart = class {
  constructor(canvas, config) {
    window.__charts.push({canvas: canvas.id, type: config.type, labels: config.data.labels,
                          datasets: config.data.datasets.map(d => ({label: d.label, data: d.data}))});
  }
  destroy() {}
};
"""


def _js_fixed(value: float | None, digits: int = 1) -> str:
    """JavaScript's ``Number(value).toFixed(digits)`` (exact binary value, ties away from zero)."""
    if value is None:
        return "—"
    return str(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _pct(rate: float | None) -> str:
    """The dashboard's ``pct``."""
    return "—" if rate is None else _js_fixed(rate * 100) + "%"


def _money(value: float | None) -> str:
    """The dashboard's ``f4``."""
    return "—" if value is None else "$" + _js_fixed(value, 4)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Two scored Cree runs: their harness reports, run cards and the harness's dashboard page."""
    d = tmp_path_factory.mktemp("dash")
    db = str(d / "crk.sqlite")
    folder = CRK / "verbforms"
    assert main(["--db", db, "import", "corpus", str(folder / "corpus.jsonl"), "--id", "crk-verbs",
                 "--source-lang", "eng", "--target-lang", "crk"]) == 0
    for name in RUNS:
        assert main(["--db", db, "import", "run", str(folder / "runs" / f"{name}.jsonl"), "--corpus", "crk-verbs",
                     "--run-id", f"crk-{name}"]) == 0
    assert main(["--db", db, "score", "--all", "--analyzer",
                 str(CRK / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"), "--gloss-file",
                 f"crk={CRK / 'glosses' / 'crkeng_test_db.importjson'}", "--bootstrap", "100"]) == 0
    reports, cards = [], []
    for name in RUNS:
        reports.append(d / f"run_crk-{name}_report.json")
        cards.append(d / f"crk-{name}.card.json")
        assert main(["--db", db, "export", "harness-report", f"crk-{name}", "-o", str(reports[-1])]) == 0
        assert main(["--db", db, "export", "runcard", f"crk-{name}", "-o", str(cards[-1])]) == 0
    page = d / "dashboard.html"
    code = ("import sys; sys.modules['comet'] = None\n"
            "from mt_eval_harness.cli import main\n"
            "sys.argv = ['mt-eval', 'dashboard', *sys.argv[1:]]\n"
            "main()")
    # the harness opens the reports and writes the page in the locale's encoding: a UTF-8 one here
    proc = subprocess.run([sys.executable, "-c", code, *map(str, reports), "-o", str(page)], cwd=PEER,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONUTF8": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Dashboard written to" in proc.stdout
    load = lambda p: json.loads(p.read_text(encoding="utf-8"))  # noqa: E731
    return [load(p) for p in reports], [load(p) for p in cards], page


def _texts(driver, selector: str, parts: tuple[str, ...] = ()) -> list:
    """The text of each element matching ``selector`` (or of its ``parts``, class names), in one call."""
    return driver.execute_script(
        "const parts = arguments[1];"
        "return [...document.querySelectorAll(arguments[0])].map(el => parts.length"
        " ? parts.map(p => { const c = el.getElementsByClassName(p)[0]; return c ? c.textContent : null; })"
        " : el.textContent);", selector, list(parts))


def _cards(driver) -> dict[str, str]:
    return dict(_texts(driver, "#metric-cards .metric-card", ("metric-label", "metric-value")))


def _table(driver, element_id: str) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(tr => [...tr.cells].map(td => td.textContent));",
        f"#{element_id} tbody tr")


def _click(driver, selector: str, index: int = 0) -> None:
    driver.execute_script("document.querySelectorAll(arguments[0])[arguments[1]].click();", selector, index)


def test_harness_dashboard_shows_the_exported_numbers(exported, tmp_path):
    from selenium.webdriver.common.by import By

    reports, cards, page = exported
    mixed, oracle = reports
    card_mixed, card_oracle = cards
    driver = _browser(tmp_path / "profile")
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CHART_STAND_IN})
        driver.get(page.resolve().as_uri())
        _wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#entry-list .entry"))

        # the page's own script ran to the end; only the CDN (fonts, Chart.js) was asked for, and refused
        log = driver.get_log("browser")
        assert [e["message"] for e in log if e["source"] != "network"] == []
        refused = sorted(e["message"].split(" ", 1)[0] for e in log if e["source"] == "network")
        assert [u.split("/")[2] for u in refused] == ["cdn.jsdelivr.net", "fonts.googleapis.com"]

        # run tabs: the run names
        assert _texts(driver, "#run-tabs .run-tab") == [
            "crk-mixed", "crk-oracle"]

        # metric cards of the first run: the report's numbers, which are the card's
        o, s = mixed["overall"], card_mixed["scores"]
        shown = _cards(driver)
        assert shown == {
            "Entries": str(o["evaluated"]), "Exact Match": _pct(o["exact_match_rate"]),
            "Miss Rate": _pct(o["miss_rate"]), "chrF++": _js_fixed(o["corpus_chrf"]),
            "BLEU": _js_fixed(o["corpus_bleu"]), "Total Cost": _money(o["total_cost_usd"]),
            "Avg Latency": _js_fixed(o["avg_latency_s"]) + "s",
            "Cost/Match": "$" + _js_fixed(o["total_cost_usd"] / o["exact_match_count"], 4)}
        assert shown == {"Entries": "554", "Exact Match": "45.0%", "Miss Rate": "55.0%", "chrF++": "66.1",
                         "BLEU": "0.4", "Total Cost": "$0.0470", "Avg Latency": "1.4s", "Cost/Match": "$0.0002"}
        assert (s["evaluated"], s["exact_matches"]) == (o["evaluated"], o["exact_match_count"]) == (554, 249)
        assert o["corpus_chrf"] == round(s["chrf_plus_plus"], 2) == 66.12
        assert o["corpus_bleu"] == round(s["bleu"], 2) == 0.38
        assert o["total_cost_usd"] == round(card_mixed["totals"]["total_cost_usd"], 4) == 0.047
        assert o["avg_latency_s"] == round(s["avg_latency_seconds"], 3) == 1.352

        # the run comparison table: one row per report
        table = _table(driver, "compare-table")
        assert [row[:1] + row[2:] for row in table] == [
            ["crk-mixed", "?", "554", "45.0%", "66.1", "0.4", "$0.0470", "1.4s", "$0.0002"],
            ["crk-oracle", "?", "571", "100.0%", "100.0", "0.0", "$0.0480", "1.4s", "$0.0001"]]
        assert [row[1] for row in table] == [mixed["config"]["model"], oracle["config"]["model"]]
        assert card_oracle["scores"]["chrf_plus_plus"] == 100.0 and card_oracle["scores"]["exact_matches"] == 571

        # segments (the corpus has none: the harness's "unknown"), rate over all entries as the page computes it
        seg = mixed["by_segment"]["unknown"]
        assert (seg["count"], seg["exact_match_count"]) == (571, 249)
        assert _texts(driver, "#segment-bars .bar-val") == [_pct(249 / 571)] == ["43.6%"]
        assert _table(driver, "seg-compare-table") == [["unknown", "43.6%", "100.0%"]]

        # the data handed to the charts
        charts = {c["canvas"]: c for c in driver.execute_script("return window.__charts")}
        assert charts["bar-canvas"]["labels"] == ["crk-mixed", "crk-oracle"]
        assert [d["data"] for d in charts["bar-canvas"]["datasets"]] == [
            [pytest.approx(44.95), 100], [66.12, 100]]
        assert charts["radar-canvas"]["datasets"][0]["data"] == [pytest.approx(44.95), 66.12, 0.38]
        bins = [0] * 10
        for r in card_mixed["results"]:
            bins[min(9, math.floor((r["entry_chrf"] or 0) / 10))] += 1
        assert charts["hist-canvas"]["datasets"][0]["data"] == bins
        assert sum(bins) == 571 and bins[9] == 267

        # the entry explorer (the first 200 of the active run): id, source, sentence chrF++, verdict
        assert _texts(driver, "#entry-count") == ["571 / 571"]
        expected = []
        for r in card_mixed["results"][:200]:
            verdict = "ERR" if r["error"] else "EXACT" if r["exact_match"] else "MISS"
            expected.append(["#" + r["entry_id"], r["source"], _js_fixed(r["entry_chrf"]), verdict])
        got = _texts(driver, "#entry-list .entry-top", ("e-id", "e-src", "e-chrf", "badge"))
        assert len(got) == 200 and got == expected
        assert got[:2] == [["#crk-v0001", "I say so", "59.4", "MISS"], ["#crk-v0002", "as I am", "0.0", "ERR"]]

        # filtered: the errors (17 provider errors in the card)
        driver.execute_script("const s = document.getElementById('filter-match'); s.value = 'error';"
                              "s.dispatchEvent(new Event('change'));")
        assert _texts(driver, "#entry-count") == [f"{card_mixed['scores']['errors']} / 571"] == ["17 / 571"]
        assert {row[3] for row in _texts(driver, "#entry-list .entry-top", ("e-id", "e-src", "e-chrf", "badge"))} == {
            "ERR"}

        # side by side: both runs' outputs and sentence chrF++ per entry
        _click(driver, ".view-toggle-btn[data-view='sidebyside']")
        _wait(lambda: _table(driver, "sbs-table-wrap"))
        assert _texts(driver, "#sbs-count") == ["571 entries"]
        by_id = [{e["id"]: e for e in rep["entries"]} for rep in reports]
        rows = driver.execute_script(
            "return [...document.querySelectorAll('#sbs-table-wrap tbody tr')].map(tr => [tr.cells[0].textContent,"
            " ...[...tr.querySelectorAll('.sbs-cell')].map(c => [c.querySelector('.sbs-pred').textContent,"
            " c.querySelector('.sbs-meta').textContent])]);")
        assert len(rows) == 300  # the page shows the first 300
        for eid, *cells in rows:
            assert cells == [[run[eid]["predicted"], f"{_js_fixed(run[eid]['chrf_score'])} chrF · "
                              f"{_money(run[eid]['cost_usd'])}"] for run in by_id]
        assert rows[1] == ["crk-v0002", ["", "0.0 chrF · $0.0000"], ["ê-ayâyân", "100.0 chrF · $0.0001"]]

        # the second run's tab: its cards, with the page's deltas against the first
        _click(driver, ".view-toggle-btn[data-view='explorer']")
        _click(driver, "#run-tabs .run-tab", 1)
        _wait(lambda: _cards(driver).get("Entries") == "571")
        shown = _cards(driver)
        assert (shown["Exact Match"], shown["chrF++"], shown["Total Cost"]) == ("100.0%", "100.0", "$0.0480")
        assert oracle["overall"]["total_cost_usd"] == round(card_oracle["totals"]["total_cost_usd"], 4)
    finally:
        driver.quit()

    # what the dashboard has no place for stays in the report, equal to the card
    assert mixed["overall"]["mteval"]["scores"]["composite"] == card_mixed["scores"]["composite"] == 0.7245
    assert {k: v["count"] for k, v in mixed["by_difficulty"].items()} == {
        k: v["entries"] for k, v in card_mixed["scores"]["by_difficulty"].items()} == {"1": 17, "2": 118, "3": 436}
