"""Labels, validation levels and verdict columns in the GUI come from the metrics' declarations."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mteval_gui.domain.metrics import MetricDescriptor
from tests.scoring.role_metrics import LINTER_ID, install_zzx_plugin, make_zzx_workspace, uninstall_zzx_plugin


@pytest.fixture
def zzx_ws(tmp_path, monkeypatch):
    install_zzx_plugin(monkeypatch)
    ws = make_zzx_workspace(tmp_path / "ws.sqlite", monkeypatch)
    yield ws
    ws.close()
    monkeypatch.undo()
    uninstall_zzx_plugin()


def test_label_from_qt_translation_else_plugin_else_english(french):
    from mteval_gui.qt.labels import metric_label

    assert metric_label("core.fst") == "Acceptation FST"  # the application's .ts translation
    assert metric_label("crk.lint") == "Vérificateur cri"  # no .ts entry: the plugin's own translation
    assert metric_label(MetricDescriptor(id="x.y", label="Zorblax", labels={"fr": "Zorblaxe"})) == "Zorblaxe"
    assert metric_label(MetricDescriptor(id="x.y", label="Zorblax")) == "Zorblax"  # English
    assert metric_label("nope.nothing") == "nope.nothing"


def test_english_interface_uses_english_labels(qapp):
    from mteval_gui.qt.labels import metric_label, validation_label

    assert metric_label("crk.lint") == "Cree linter"
    assert metric_label("core.chrf") == "chrF++"
    assert validation_label("proxy") == "proxy"


def test_every_builtin_label_is_offered_for_translation():
    from mteval_gui.app.metrics import builtin_descriptors
    from mteval_gui.qt.labels import BUILTIN_METRIC_LABELS

    assert sorted(d.label for d in builtin_descriptors()) == sorted(BUILTIN_METRIC_LABELS)


def test_entries_model_labels_and_validation_of_a_plugin_metric(zzx_ws, french):
    from mteval_gui.app.entries import load_entry_frame
    from mteval_gui.qt.entries_model import EntriesModel

    model = EntriesModel(load_entry_frame(zzx_ws, ["zrun"]))
    model.set_visible_columns([c.key for c in model.all_columns()])
    headers = {c.key: model.headerData(i, Qt.Orientation.Horizontal) for i, c in enumerate(model.visible_columns())}
    assert headers[f"zrun:metric:{LINTER_ID}"] == "Vérificateur zzx"
    assert "zrun:lint" in headers  # the linter's verdict column
    col = [c.key for c in model.visible_columns()].index(f"zrun:metric:{LINTER_ID}")
    tip = model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip == ("Vérificateur zzx\nValidation\u202f: heuristique — Règles tirées de connaissances linguistiques, "
                   "pas encore mesurées par rapport à des jugements humains.")
    lint = [c.key for c in model.visible_columns()].index("zrun:lint")
    assert [model.index(r, lint).data() for r in range(4)] == ["EQUIVALENT", "EQUIVALENT", "MISS", "MISS"]
    chrf = [c.key for c in model.visible_columns()].index("zrun:metric:core.chrf")
    assert model.index(0, chrf).data() == "100.0"


def test_default_columns_by_role(zzx_ws):
    from mteval_gui.app.entries import load_entry_frame
    from mteval_gui.qt.entries_model import EntriesModel

    model = EntriesModel(load_entry_frame(zzx_ws, ["zrun"]))
    shown = [c.key for c in model.visible_columns() if c.field == "metric"]
    assert shown == ["zrun:metric:core.chrf", "zrun:metric:core.exact"]


def test_runs_table_tooltips_show_validation_and_engineering_estimate(zzx_ws, qapp):
    from mteval_gui.app.runs import load_run_rows
    from mteval_gui.qt.runs_model import RunsModel

    model = RunsModel()
    model.set_rows(load_run_rows(zzx_ws))
    tip = lambda key: model.index(0, model.column_index(key)).data(Qt.ItemDataRole.ToolTipRole)  # noqa: E731
    assert tip("chrf") == ("chrF++\nValidation: proxy — Validated against human judgments for other languages, "
                           "used here as a stand-in.")
    assert tip("equivalent").startswith("Equivalent match\nValidation: heuristic — ")
    composite = tip("composite")
    assert "chrF++: " in composite and "(proxy)" in composite
    assert composite.endswith("Engineering estimate: its inputs are not all validated against human judgments "
                              "for this language.")


def test_runs_table_shows_validation_beside_each_value_and_labels_the_composite(zzx_ws, qapp):
    from mteval_gui.app.runs import load_run_rows
    from mteval_gui.qt.runs_model import RunsModel

    model = RunsModel()
    model.set_rows(load_run_rows(zzx_ws))
    cell = lambda key: model.index(0, model.column_index(key)).data(Qt.ItemDataRole.DisplayRole)  # noqa: E731
    row = model.rows[0]
    assert cell("chrf").endswith(" · proxy") and cell("chrf").startswith(f"{row.chrf:.2f}")
    assert cell("equivalent").endswith(" · heuristic")
    assert cell("composite") == f"{row.composite:.4f} · engineering estimate"


def test_review_pane_shows_the_plugin_verdict_and_levels(zzx_ws, qtbot):
    from mteval_gui.app.entry_review import load_review_data
    from mteval_gui.qt.review_pane import ReviewPane

    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(load_review_data(zzx_ws, "zz", "e1", [("zrun", "zmodel")]))
    text = pane.text.toPlainText()
    assert "Zzx checker  EQUIVALENT  — WORD_COUNT" in text
    assert "chrF++ 100.0 (proxy)" in text and "Zzx checker 1.000 (heuristic)" in text
    assert "Equivalent  EXACT" not in text
