"""Compare and runs tables exported from the window; charts with round ticks, axis titles and whole
system names, following the compared runs."""

from __future__ import annotations

import csv
import json

import pytest
from PySide6.QtCharts import QBarCategoryAxis, QValueAxis
from PySide6.QtCore import Qt

from mteval_gui.qt.chart_axes import label_markup, nice_ticks, tick_decimals, wrap_label

LONG = "m2m100_fr_ewe_rel_news_next"
SYSTEM = "m2m100_fr_ewe_rel_news_next_checkpoint_2000_beam5"  # a run's name, longer than a narrow box is wide


# ----------------------------------------------------------------------------- pure rules


@pytest.mark.parametrize(("lo", "hi", "expected"), [
    (0.0, 1.0, (0.0, 1.0, 0.25)),  # the composite: 0, 0.25, 0.5, 0.75, 1
    (0.0, 100.0, (0.0, 100.0, 25.0)),  # a percentage: 0, 25, 50, 75, 100
    (-5.0, 105.0, (-50.0, 150.0, 50.0)),  # round ticks, never -5/22.5/50/77.5/105
    (12.3, 87.1, (0.0, 100.0, 25.0)),
    (0.12, 0.93, (0.0, 1.0, 0.25)),
    (0.41, 0.47, (0.4, 0.48, 0.02)),
    (3.0, 3.0, (1.0, 5.0, 1.0)),  # one value: a range around it
    (-0.3, 0.2, (-0.4, 0.2, 0.2)),
])
def test_nice_ticks(lo, hi, expected):
    assert nice_ticks(lo, hi) == expected


def test_tick_decimals():
    assert [tick_decimals(s) for s in (0.25, 25.0, 0.5, 2.5, 0.02, 1.0, 100.0)] == [2, 0, 1, 1, 2, 0, 0]


def test_wrap_label_keeps_every_character_and_breaks_after_separators():
    assert wrap_label(LONG, 12) == ["m2m100_fr_", "ewe_rel_", "news_next"]
    assert wrap_label("gpt-4o mini", 8) == ["gpt-4o ", "mini"]
    assert wrap_label("abcdefghijkl", 5) == ["abcde", "fghij", "kl"]  # no separator: inside the word
    assert wrap_label("short", 12) == ["short"]
    assert wrap_label("nllb_600M (0.466)", 14) == ["nllb_600M ", "(0.466)"]  # a number stays whole
    assert wrap_label("v1.2_model", 4) == ["v1.2", "_", "mode", "l"]
    assert wrap_label("", 12) == [""]
    for width in range(1, 30):
        assert "".join(wrap_label(LONG, width)) == LONG
        assert all(len(line) <= width for line in wrap_label(LONG, width))
    assert label_markup("a<b>&c_d", 4) == "a&lt;b&gt;<br>&amp;c_d"


# ----------------------------------------------------------------------------- the window


@pytest.fixture
def four_runs_ws(tmp_path):
    """Corpus ``alpha`` (listed first, one run) and corpus ``mini`` with four scored runs, one with a long name."""
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo
    from tests.qt.conftest import SMALL_ENTRIES

    ws = Workspace(tmp_path / "four.sqlite")
    pair = LanguagePair(source="eng", target="crk")
    repo.add_corpus(ws, Corpus(corpus_id="alpha", language_pair=pair,
                               entries=[Entry(id="a1", source="he sleeps", reference="nipâw")]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="alpha_run", model_slug="alpha-model"), corpus_id="alpha",
                         outputs=[Output(id="a1", predicted="nipâw")]))
    repo.add_corpus(ws, Corpus(corpus_id="mini", language_pair=pair,
                               entries=[Entry(id=i, source=s, reference=r, difficulty=d)
                                        for i, s, r, d in SMALL_ENTRIES]))
    outputs = {
        "good": [r for _, _, r, _ in SMALL_ENTRIES],
        "poor": ["wapamew atim", "she walks", "", "atim", "nikamo"],
        "long": ["nipâw", "wapamew", "pimohtew", "pimipahtâw", "nikamowak"],
        "left_out": ["x", "y", "z", "w", "v"],
    }
    slugs = {"good": "model-good", "poor": "model-poor", "long": SYSTEM, "left_out": "not-compared"}
    for run_id, preds in outputs.items():
        repo.add_run(ws, Run(meta=RunMeta(run_id=run_id, model_slug=slugs[run_id]), corpus_id="mini",
                             outputs=[Output(id=e[0], predicted=p) for e, p in zip(SMALL_ENTRIES, preds, strict=True)]))
    for run_id in ("alpha_run", *outputs):
        score_workspace_run(ws, run_id)
    yield ws
    ws.close()


def _plain(label: str) -> str:
    return label.replace("<br>", "").replace("\u200b", "").replace("&amp;", "&")


def test_charts_follow_the_comparison_with_titles_round_ticks_and_whole_names(window, four_runs_ws, qtbot, tmp_path):
    window.open_workspace(four_runs_ws.path)
    charts = window.extra_tabs["charts"]
    compare = window.extra_tabs["compare"]
    with qtbot.waitSignal(compare.compute_task.finished, timeout=30000):
        window.compare_runs(["good", "poor", "long"])
    window.tabs.setCurrentWidget(charts)
    with qtbot.waitSignal(charts.drawn, timeout=20000):
        charts.set_kind("chrf")
    # the compared runs' corpus, not the first one listed, and only the compared runs
    assert charts.corpus.currentData() == "mini"
    assert charts.only_compared.isVisible() and charts.only_compared.isChecked()
    chart = charts.view.chart()
    x = next(a for a in chart.axes() if isinstance(a, QBarCategoryAxis))
    y = next(a for a in chart.axes() if isinstance(a, QValueAxis))
    assert [_plain(c) for c in x.categories()] == ["model-good", "model-poor", SYSTEM]
    assert x.titleText() == "System" and y.titleText() == "chrF++ of each entry (0–100)"
    assert (y.min(), y.max(), y.tickInterval(), y.tickAnchor(), y.labelFormat()) == (0.0, 100.0, 25.0, 0.0, "%.0f")
    assert y.tickType() == QValueAxis.TickType.TicksDynamic
    # the names are drawn whole: wrapped, not elided (a screenshot of the offscreen widget)
    image = charts.view.grab()
    assert image.save(str(tmp_path / "chrf.png"))
    assert not x.truncateLabels() and not x.labelsTruncated()
    assert charts.default_file_name() == "mini-chrf-compared.png"
    window.resize(900, 700)  # narrower: the long name is wrapped onto lines, still whole
    qtbot.waitUntil(lambda: "<br>" in x.categories()[2], timeout=5000)
    image = charts.view.grab()
    assert image.save(str(tmp_path / "chrf-narrow.png"))
    assert [_plain(c) for c in x.categories()] == ["model-good", "model-poor", SYSTEM]
    assert not x.labelsTruncated()
    window.resize(1400, 860)

    with qtbot.waitSignal(charts.drawn, timeout=20000):
        charts.set_kind("composite")
    chart = charts.view.chart()
    rows = next(a for a in chart.axes() if isinstance(a, QBarCategoryAxis))
    value = next(a for a in chart.axes() if isinstance(a, QValueAxis))
    assert [_plain(c).rsplit(" (", 1)[0] for c in rows.categories()] == ["model-good", "model-poor", SYSTEM]
    assert rows.titleText() == "System (composite)" and value.titleText() == "Contribution to the composite (0–1)"
    assert (value.min(), value.max(), value.tickInterval(), value.labelFormat()) == (0.0, 1.0, 0.25, "%.2f")
    assert charts.view.grab().save(str(tmp_path / "composite.png"))
    assert not rows.labelsTruncated()

    # unticked: every scored run of the corpus; another corpus: its runs
    with qtbot.waitSignal(charts.drawn, timeout=20000):
        charts.only_compared.setChecked(False)
    rows = next(a for a in charts.view.chart().axes() if isinstance(a, QBarCategoryAxis))
    assert len(rows.categories()) == 4 and charts.default_file_name() == "mini-composite.png"
    with qtbot.waitSignal(charts.drawn, timeout=20000):
        charts.set_corpus("alpha")
    assert not charts.only_compared.isVisible()


def test_comparison_and_runs_tables_from_the_window(window, four_runs_ws, qtbot, tmp_path):
    from mteval_gui.qt import exports

    window.open_workspace(four_runs_ws.path)
    compare = window.extra_tabs["compare"]
    assert not compare.export_button.isEnabled()
    exports.export_comparison_table(window, str(tmp_path / "nothing.tex"))  # nothing compared: a message only
    assert not (tmp_path / "nothing.tex").exists()
    with qtbot.waitSignal(compare.compute_task.finished, timeout=30000):
        window.compare_runs(["good", "poor", "long", "left_out"])
    assert compare.export_button.isEnabled()
    tex = tmp_path / "cmp.tex"
    exports.export_comparison_table(window, str(tex))
    text = tex.read_text(encoding="utf-8")
    assert r"\toprule" in text and r"\bottomrule" in text
    assert "model-good (baseline)" in text and r"m2m100\_fr\_ewe\_rel\_news\_next\_checkpoint\_2000\_beam5" in text
    assert "paired approximate randomisation test, 1000 trials, seed 12345, p $<$ 0.05." in text
    # the marks of the file are the colours of the table
    c = compare.comparison
    for run_id in c.runs:
        better = compare.model._significant(next(r for r in compare.model.rows if r.run_id == run_id),
                                            "chrf_plus_plus")
        from mteval_gui.app.compare import significance

        assert better == (None if significance(c, run_id, "chrf_plus_plus") is None
                          else significance(c, run_id, "chrf_plus_plus") == "better")
    md = tmp_path / "cmp.md"
    compare.export(md)
    assert md.read_text(encoding="utf-8").splitlines()[2].startswith("| System | chrF++ Score [95% CI] |")

    runs_csv = tmp_path / "runs.csv"
    exports.export_runs_table(window, str(runs_csv))
    with runs_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    shown = [r.run_id for r in window.runs_view.model.rows]
    assert [r["run_id"] for r in rows] == shown and len(shown) == 5
    assert all(r["composite"] and r["chrf_plus_plus_ci_lower"] for r in rows)


def test_harness_report_from_the_file_menu(window, four_runs_ws, tmp_path):
    from mteval_gui.qt import exports

    window.open_workspace(four_runs_ws.path)
    assert "exportHarnessReport" in window.menu_actions and "exportComparison" in window.menu_actions
    assert "exportRunsTable" in window.menu_actions and "exportBenchmark" in window.menu_actions
    window.runs_view.select_runs(["good"])
    out = tmp_path / "good.report.json"
    exports.export_harness_report(window, str(out))
    report = json.loads(out.read_text(encoding="utf-8"))
    assert {"config", "overall", "by_difficulty", "entries"} <= set(report)
    assert len(report["entries"]) == 5


def test_benchmark_chart_axis_and_export_in_the_suites_own_format(qtbot, tmp_path):
    from mteval_gui.app.bench import read_responses, read_result_json, score_suite
    from mteval_gui.qt.bench_view import BenchmarkTab
    from tests.benchmarks.helpers import SMALL_RESPONSES, read_suite, write_jsonl, write_suite

    suite = read_suite(write_suite(tmp_path / "suite"))
    res = score_suite(suite, read_responses(write_jsonl(tmp_path / "g.jsonl", SMALL_RESPONSES), suite), model="good")
    tab = BenchmarkTab(None)
    qtbot.addWidget(tab)
    tab.add_result(res)
    y = next(a for a in tab.chart.chart_.axes() if isinstance(a, QValueAxis))
    assert (y.min(), y.max(), y.tickInterval(), y.labelFormat(), y.titleText()) == \
        (0.0, 100.0, 25.0, "%.0f", "Score (0–100)")
    assert [k for k, _ in tab.export_filters()] == ["mteval", "csv", "reference"]
    out = tmp_path / "ewebench_good.json"
    tab.export_selected(out, "reference")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["benchmark"], data["model"], data["ewe_score"]) == ("ÈwéBench", "good", 61.1)  # EweBench's shape
    back = read_result_json(out)
    assert back.model == "good" and round(back.score, 1) == round(res.score, 1)


def test_scatter_of_a_metric_against_ratings_has_round_ticks(window, scored_ws, qtbot):
    from mteval_gui.domain.judgments import Judgment, Reviewer
    from mteval_gui.store import judgments as jstore

    for rid in ("amy", "ben"):
        jstore.add_reviewer(scored_ws, Reviewer(reviewer_id=rid, name=rid))
    for run, base in (("good", 5), ("poor", 2)):
        for k, eid in enumerate(["e1", "e2", "e3", "e4", "e5"]):
            for r, rid in enumerate(("amy", "ben")):
                jstore.record_judgment(scored_ws, Judgment(reviewer_id=rid, run_id=run, entry_id=eid,
                                                           adequacy=max(1, min(5, base - (k + r) % 2)), fluency=4))
    window.open_workspace(scored_ws.path)
    v = window.extra_tabs["validation"]
    window.tabs.setCurrentWidget(v)
    v.corpus.setCurrentIndex(v.corpus.findData("mini"))
    with qtbot.waitSignal(v.study_task.finished, timeout=30000):
        v.compute()
    metrics = [v.table.item(r, 0).text() for r in range(v.table.rowCount())]
    v.table.selectRow(metrics.index("chrF++"))
    qtbot.waitUntil(lambda: v.chart_view.chart().title().startswith("chrF++"), timeout=5000)
    x = next(a for a in v.chart_view.chart().axes(Qt.Orientation.Horizontal))
    # per-entry chrF++ of both runs spans most of 0–100: 0, 25, 50, 75, 100
    assert (x.min(), x.max(), x.tickInterval(), x.labelFormat(), x.titleText()) == (0.0, 100.0, 25.0, "%.0f", "chrF++")


# ----------------------------------------------------------------------------- French


def _translation_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "update_translations.py"
    spec = importlib.util.spec_from_file_location("update_translations", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_french_puts_a_narrow_no_break_space_before_colons_and_writes_decimal_points():
    import re

    script = _translation_script()
    assert script.french_spacing("Difficulté : 1 ; oui ? non !") == "Difficulté\u202f: 1\u202f; oui\u202f? non\u202f!"
    assert script.french_spacing("{1:.1f} http://x color:#555 13:05") == "{1:.1f} http://x color:#555 13:05"
    assert script.french_spacing("Référence&#xa0;: x") == "Référence\u202f: x"
    assert script.spacing_problems() == []
    # one rule for numbers: a decimal point in every language, as in the tables, charts and exported files
    text = script.TS.read_text(encoding="utf-8")
    translations = re.findall(r"<translation[^>]*>(.*?)</translation>", text, re.S)
    assert [t for t in translations if re.search(r"\d,\d", t)] == []


def test_compare_baseline_in_french(qtbot, french):
    from mteval_gui.qt.compare_view import CompareView

    view = CompareView()
    qtbot.addWidget(view)
    assert "Système de base\u202f:" in [w.text() for w in view.findChildren(type(view.caveats))]
    assert view.export_button.text() == "Exporter le tableau…"


def test_a_table_name_without_a_suffix_takes_the_chosen_filters():
    from mteval_gui.qt.exports import with_table_suffix

    assert [with_table_suffix("/x/cmp", i) for i in range(3)] == ["/x/cmp.tex", "/x/cmp.md", "/x/cmp.csv"]
    assert with_table_suffix("/x/cmp.TEX", 2) == "/x/cmp.TEX"
    assert with_table_suffix("/x/a.markdown", 0) == "/x/a.markdown"
