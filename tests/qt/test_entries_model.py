"""Entries model: Qt model contract (qtmodeltester, no view), in-model sort and filters."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from mteval_gui.app.entry_frame import (
    REVIEW_FLAGGED,
    REVIEW_NONE,
    REVIEW_RATED,
    EntryFilter,
    EntryFrame,
    RunColumns,
    view_order,
)
from mteval_gui.qt.entries_model import ENTRY_ID_ROLE, EntriesModel


def _obj(values):
    return np.array(values, dtype=object)


@pytest.fixture
def frame() -> EntryFrame:
    f = EntryFrame(
        corpus_id="c",
        entry_ids=_obj(["e1", "e2", "e3", "e4", "e5"]),
        source=_obj(["I see the dog", "she walks", "we eat", "Dog runs", "they sing"]),
        reference=_obj(["wâpamêw atim", "pimohtêw", "mîcisoyâhk", "pimipahtâw atim", None]),
        difficulty=np.array([1, 2, np.nan, 2, 5], dtype=float),
    )
    f.runs.append(RunColumns(
        run_id="r1", label="Model A",
        predicted=_obj(["wâpamêw atim", "pimohtew", "", "atim", "nikamowak"]),
        error=_obj([None, None, "timeout", None, None]),
        metrics={"core.chrf": np.array([100.0, 71.2, 0.0, 40.5, np.nan]),
                 "core.fst": np.array([1.0, 0.0, 0.0, 1.0, 0.5])},
        lint_verdict=_obj(["EXACT", "EQUIVALENT", "NO_OUTPUT", "MISS", None]),
        semantic_verdict=_obj(["EXACT_MATCH", "VALID", "NO_OUTPUT", "PARTIAL", None]),
        fst_rejected=np.array([0, 1, 0, 0, 1]),
        review=np.array([REVIEW_RATED, REVIEW_NONE, REVIEW_FLAGGED, REVIEW_NONE, REVIEW_NONE], dtype=np.int8),
    ))
    f.runs.append(RunColumns(
        run_id="r2", label="Model B",
        predicted=_obj(["wapamew atim", "pimohtêw", "mîcisoyâhk", "Dog runs", "nikamowak"]),
        error=_obj([None] * 5),
        metrics={"core.chrf": np.array([55.0, 100.0, 100.0, 10.0, 20.0])},
    ))
    return f


def _col(model: EntriesModel, key: str) -> int:
    return [c.key for c in model.visible_columns()].index(key)


def _ids(model: EntriesModel) -> list[str]:
    return [model.index(r, 0).data(ENTRY_ID_ROLE) for r in range(model.rowCount())]


def test_qtmodeltester(qtmodeltester, frame):
    model = EntriesModel(frame)
    model.set_visible_columns([c.key for c in model.all_columns()])
    qtmodeltester.check(model, force_py=True)
    # the tester stays connected and checks every reset and change that follows
    model.set_filter(EntryFilter(text="atim"))
    model.sort(3, Qt.SortOrder.DescendingOrder)
    model.set_review_status("r1", "e4", REVIEW_RATED)
    model.set_blind(True)
    model.set_filter(EntryFilter(review="flagged", text="nothing matches"))
    assert model.rowCount() == 0


def test_default_columns_side_by_side(frame):
    model = EntriesModel(frame)
    headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    assert "Model A: Output" in headers and "Model B: Output" in headers
    assert "Model A: chrF++" in headers and "Model B: chrF++" in headers


def test_display_values(frame):
    model = EntriesModel(frame)
    model.set_visible_columns(["source", "r1:predicted", "r1:metric:core.chrf", "r1:lint", "r1:review", "difficulty"])
    def cell(r: int, key: str) -> object:
        return model.index(r, _col(model, key)).data()

    assert cell(0, "r1:metric:core.chrf") == "100.0"
    assert cell(4, "r1:metric:core.chrf") == ""
    assert cell(2, "r1:predicted") == "[error]"
    assert "timeout" in model.index(2, _col(model, "r1:predicted")).data(Qt.ItemDataRole.ToolTipRole)
    assert cell(3, "r1:lint") == "MISS"
    assert cell(0, "r1:review") == "rated"
    assert cell(2, "difficulty") == ""


def test_sort_numeric_missing_last_both_directions(frame):
    model = EntriesModel(frame)
    col = _col(model, "r1:metric:core.chrf")
    model.sort(col, Qt.SortOrder.AscendingOrder)
    assert _ids(model) == ["e3", "e4", "e2", "e1", "e5"]
    model.sort(col, Qt.SortOrder.DescendingOrder)
    assert _ids(model) == ["e1", "e2", "e4", "e3", "e5"]


def test_sort_text_is_casefolded_and_stable(frame):
    model = EntriesModel(frame)
    model.sort(_col(model, "source"), Qt.SortOrder.AscendingOrder)
    assert _ids(model) == ["e4", "e1", "e2", "e5", "e3"]
    model.sort(_col(model, "source"), Qt.SortOrder.DescendingOrder)
    assert _ids(model) == ["e3", "e5", "e2", "e1", "e4"]


@pytest.mark.parametrize("flt, expected", [
    (EntryFilter(verdicts=frozenset({"EXACT", "EQUIVALENT"})), ["e1", "e2"]),
    (EntryFilter(run_id="r1", semantic_verdicts=frozenset({"PARTIAL"})), ["e4"]),
    (EntryFilter(metric_ranges={"core.chrf": (40.0, 80.0)}), ["e2", "e4"]),
    (EntryFilter(run_id="r2", metric_ranges={"core.chrf": (None, 20.0)}), ["e4", "e5"]),
    (EntryFilter(difficulties=frozenset({2})), ["e2", "e4"]),
    (EntryFilter(difficulties=frozenset({0, 5})), ["e3", "e5"]),
    (EntryFilter(fst_rejections_only=True), ["e2", "e5"]),
    (EntryFilter(review="unreviewed"), ["e2", "e4", "e5"]),
    (EntryFilter(review="reviewed"), ["e1", "e3"]),
    (EntryFilter(review="flagged"), ["e3"]),
    (EntryFilter(text="ATIM"), ["e1", "e4"]),
    (EntryFilter(text="mîcisoyâhk"), ["e3"]),  # found in run B's output and the reference
    (EntryFilter(verdicts=frozenset({"MISS"}), text="dog"), ["e4"]),
    (EntryFilter(run_id="r2", verdicts=frozenset({"EXACT"})), []),  # run B has no linter verdicts
])
def test_filters(frame, flt, expected):
    model = EntriesModel(frame)
    model.set_filter(flt)
    assert _ids(model) == expected


def test_filter_then_sort_combine(frame):
    model = EntriesModel(frame)
    model.set_filter(EntryFilter(run_id="r2", metric_ranges={"core.chrf": (20.0, None)}))
    model.sort(_col(model, "r2:metric:core.chrf"), Qt.SortOrder.DescendingOrder)
    assert _ids(model) == ["e2", "e3", "e1", "e5"]


def test_navigation_and_review_update(qtbot, frame):
    model = EntriesModel(frame)
    assert model.next_row(0, "r1", "unreviewed") == 1
    assert model.next_row(4, "r1", "unreviewed") == 1  # wraps
    assert model.next_row(0, "r1", "flagged") == 2
    col = _col(model, "r1:review")
    with qtbot.waitSignal(model.dataChanged) as blocker:
        model.set_review_status("r1", "e2", REVIEW_FLAGGED)
    assert blocker.args[0].row() == 1 and blocker.args[0].column() == col
    assert model.index(1, col).data() == "flagged"
    assert model.next_row(0, "r1", "unreviewed") == 3


def test_blind_mode_hides_reference_and_metrics(frame):
    model = EntriesModel(frame)
    model.set_blind(True)
    assert model.index(0, _col(model, "reference")).data() == "—"
    assert model.index(0, _col(model, "r1:metric:core.chrf")).data() == "—"
    assert model.index(0, _col(model, "r1:predicted")).data() == "wâpamêw atim"


def test_view_order_large_frame_matches_python_sort():
    rng = np.random.default_rng(7)
    n = 2000
    values = rng.random(n)
    values[rng.integers(0, n, 50)] = np.nan
    f = EntryFrame("c", _obj([f"e{i}" for i in range(n)]), _obj(["s"] * n), _obj(["r"] * n), np.full(n, np.nan))
    order = view_order(f, EntryFilter(), values, descending=True)
    finite = [i for i in range(n) if not np.isnan(values[i])]
    expected = sorted(finite, key=lambda i: -values[i]) + [i for i in range(n) if np.isnan(values[i])]
    assert order.tolist() == expected


def test_new_values_in_the_same_layout_change_cells_without_a_reset(frame):
    model = EntriesModel(frame)
    resets: list[int] = []
    changed: list[tuple[int, int, int, int]] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.dataChanged.connect(lambda a, b, *_: changed.append((a.row(), a.column(), b.row(), b.column())))
    visible = [c.key for c in model.visible_columns()]
    chrf = _col(model, "r1:metric:core.chrf")

    def with_values(values):
        runs = [RunColumns(r.run_id, r.label, r.predicted, r.error,
                           metrics={**r.metrics, "core.chrf": np.array(values)} if r.run_id == "r1" else r.metrics,
                           lint_verdict=r.lint_verdict, semantic_verdict=r.semantic_verdict,
                           fst_rejected=r.fst_rejected, review=r.review, descriptors=r.descriptors) for r in frame.runs]
        return EntryFrame("c", frame.entry_ids, frame.source, frame.reference, frame.difficulty, runs=runs)

    model.set_frame(with_values([90.0, 80.0, 70.0, 60.0, 50.0]), visible)
    assert resets == [] and changed == [(0, 0, 4, len(visible) - 1)]
    assert [model.index(r, chrf).data() for r in range(5)] == ["90.0", "80.0", "70.0", "60.0", "50.0"]
    model.sort(chrf, Qt.SortOrder.AscendingOrder)
    assert _ids(model) == ["e5", "e4", "e3", "e2", "e1"] and resets == [1]
    model.set_frame(with_values([10.0, 20.0, 30.0, 40.0, 50.0]), visible)  # the order changes: a reset
    assert _ids(model) == ["e1", "e2", "e3", "e4", "e5"] and resets == [1, 1]
    model.set_filter(model.filter())  # the same rows: nothing to lay out again
    assert resets == [1, 1]
