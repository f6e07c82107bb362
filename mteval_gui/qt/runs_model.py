"""Item model of the runs table: one row per run, sortable inside the model.

Columns show the composite with its tier (a deployable or fluent tier carries the
"pending speaker review" badge until a speaker confirms it), chrF++ with its bootstrap
interval, the key metrics, metric coverage, caveat badges (explained in tooltips), cost
and speed. Tooltips explain every number's provenance.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from mteval_gui.app.runs import RunRow
from mteval_gui.qt.labels import (
    TIER_COLOURS,
    caveat_explanation,
    caveat_title,
    pending_review_label,
    score_label,
    tier_label,
    validation_explanation,
    validation_label,
)

RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2

_Index = QModelIndex | QPersistentModelIndex

# column -> the run-card scores key it shows (its validation level is shown beside the value and
# explained in the tooltip)
SCORE_KEY_OF_COLUMN = {
    "chrf": "chrf_plus_plus", "exact": "exact_match_rate", "equivalent": "equivalent_match_rate",
    "fst": "fst_acceptance_rate", "semantic": "semantic_score", "comet": "comet_score",
    "code_switching": "code_switching_rate", "hallucination": "hallucination_rate",
}


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f} %"


def _num(v: float | None, digits: int = 3) -> str:
    return "" if v is None else f"{v:.{digits}f}"


@dataclass(frozen=True)
class RunColumn:
    key: str
    title: str
    sort: Callable[[RunRow], Any]
    numeric: bool = True


class RunsModel(QAbstractTableModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[RunRow] = []
        self.columns = self._make_columns()
        self._sort: tuple[int, bool] | None = None

    def _make_columns(self) -> list[RunColumn]:
        m = lambda k: (lambda r: r.metrics.get(k))  # noqa: E731
        return [
            RunColumn("run", self.tr("Run"), lambda r: r.run_id.casefold(), False),
            RunColumn("model", self.tr("Model"), lambda r: r.model.casefold(), False),
            RunColumn("corpus", self.tr("Corpus"), lambda r: r.corpus_id.casefold(), False),
            RunColumn("composite", score_label("composite"), lambda r: r.composite),
            RunColumn("tier", score_label("quality_tier"), lambda r: r.composite, False),
            RunColumn("chrf", self.tr("chrF++ [95 % CI]"), lambda r: r.chrf),
            RunColumn("caveats", self.tr("Caveats"), lambda r: len(r.caveats) if r.scored else None, False),
            RunColumn("coverage", self.tr("Coverage"), lambda r: (r.coverage[0] / r.coverage[1]) if r.coverage[1] else None),
            RunColumn("exact", self.tr("Exact"), m("exact_match_rate")),
            RunColumn("equivalent", self.tr("Equiv."), m("equivalent_match_rate")),
            RunColumn("fst", self.tr("FST"), m("fst_acceptance_rate")),
            RunColumn("semantic", self.tr("Semantic"), m("semantic_score")),
            RunColumn("comet", self.tr("COMET"), m("comet_score")),
            RunColumn("code_switching", self.tr("Code-sw."), m("code_switching_rate")),
            RunColumn("hallucination", self.tr("Halluc."), m("hallucination_rate")),
            RunColumn("cost", self.tr("Cost (USD)"), lambda r: r.total_cost),
            RunColumn("speed", self.tr("Entries/min"), lambda r: r.entries_per_minute),
            RunColumn("errors", self.tr("Errors"), lambda r: r.errors),
            RunColumn("entries", self.tr("Entries"), lambda r: r.entries),
        ]

    def column_index(self, key: str) -> int:
        return [c.key for c in self.columns].index(key)

    def set_rows(self, rows: list[RunRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        if self._sort is not None:
            self._apply_sort(*self._sort)
        self.endResetModel()

    def update_row(self, row: RunRow) -> None:
        for i, r in enumerate(self.rows):
            if r.run_id == row.run_id:
                self.rows[i] = row
                self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.columns) - 1))
                return
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(row)
        self.endInsertRows()

    def column_is_empty(self, column: int) -> bool:
        """True for a metric column no run has a value in (hidden to keep the table readable)."""
        col = self.columns[column]
        if col.key in ("run", "model", "corpus", "composite", "tier", "chrf", "entries"):
            return False
        return all(self._display(col.key, r) == "" for r in self.rows)

    def row_of(self, run_id: str) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.run_id == run_id), None)

    # ----- Qt interface --------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.columns[section].title
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._header_tip(self.columns[section].key)
        return None

    def _header_tip(self, key: str) -> str | None:
        full = {"exact": "exact_match_rate", "equivalent": "equivalent_match_rate", "fst": "fst_acceptance_rate",
                "semantic": "semantic_score", "comet": "comet_score"}
        tips = {
            **{k: score_label(v) for k, v in full.items()},
            "code_switching": score_label("code_switching_rate") + " — " + self.tr("lower is better."),
            "hallucination": score_label("hallucination_rate") + " — " + self.tr("lower is better."),
            "caveats": self.tr("Warnings about what the scores can and cannot show; hover a cell for details."),
            "composite": self.tr("Weighted mean of the available normalised metrics (SPEC §5); profile A when an analyzer ran."),
            "tier": self.tr("fluent ≥ 0.85, deployable ≥ 0.70, functional ≥ 0.50, emerging ≥ 0.30, else baseline. "
                            "Deployable and fluent stay pending until a speaker review confirms them."),
            "chrf": self.tr("Corpus chrF++ (sacrebleu, word order 2) with its 95 % percentile-bootstrap interval."),
            "coverage": self.tr("Metrics that produced a value / metrics attempted."),
        }
        return tips.get(key)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self.rows)) or not (0 <= index.column() < len(self.columns)):
            return None
        r = self.rows[index.row()]
        col = self.columns[index.column()]
        if role == RUN_ID_ROLE:
            return r.run_id
        if role == SORT_ROLE:
            return col.sort(r)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(col.key, r)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(col.key, r)
        if role == Qt.ItemDataRole.TextAlignmentRole and col.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if col.key == "tier" and r.tier:
                return QBrush(QColor(TIER_COLOURS.get(r.tier, "#333333")))
            if col.key == "caveats" and r.caveats or col.key == "composite" and r.scored and r.stale:
                return QBrush(QColor("#a05a00"))
            if not r.scored and col.key not in ("run", "model", "corpus", "errors", "entries"):
                return QBrush(QColor("#888888"))
        if role == Qt.ItemDataRole.FontRole and col.key in ("composite", "tier"):
            f = QFont()
            f.setBold(True)
            return f
        return None

    def _display(self, key: str, r: RunRow) -> str:
        text = self._value_text(key, r)
        if not text or not r.scored:
            return text
        if key == "composite":
            cv = r.composite_validation
            if cv is not None and cv.engineering_estimate:
                return self.tr("{0} · engineering estimate").format(text)
            return text
        score_key = SCORE_KEY_OF_COLUMN.get(key)
        level = r.validation.get(score_key) if score_key is not None else None
        return f"{text} · {validation_label(level)}" if level else text

    def _value_text(self, key: str, r: RunRow) -> str:
        if key == "run":
            return r.run_id
        if key == "model":
            return r.model + (f" · {r.condition}" if r.condition else "")
        if key == "corpus":
            return r.corpus_id
        if key == "composite":
            if not r.scored:
                return self.tr("interrupted") if r.status == "interrupted" else self.tr("not scored")
            return _num(r.composite, 4) + (" · " + self.tr("stale") if r.stale else "")
        if key == "tier":
            if not r.scored:
                return ""
            text = tier_label(r.tier)
            if r.pending_review:
                badge = pending_review_label() if r.confirmed is None else self.tr("not confirmed")
                text = f"{text} · {badge}"
            elif r.tier and r.confirmed:
                text += " ✓"
            return text
        if key == "chrf":
            if r.chrf is None:
                return ""
            if r.chrf_ci and r.chrf_ci[0] is not None and r.chrf_ci[1] is not None:
                return f"{r.chrf:.2f} [{r.chrf_ci[0]:.1f}–{r.chrf_ci[1]:.1f}]"
            return f"{r.chrf:.2f}"
        if key in ("exact", "equivalent", "fst", "code_switching", "hallucination"):
            return _pct(r.metrics.get({"exact": "exact_match_rate", "equivalent": "equivalent_match_rate",
                                       "fst": "fst_acceptance_rate", "code_switching": "code_switching_rate",
                                       "hallucination": "hallucination_rate"}[key]))
        if key == "semantic":
            return _num(r.metrics.get("semantic_score"))
        if key == "comet":
            return _num(r.metrics.get("comet_score"))
        if key == "coverage":
            ok, total = r.coverage
            return f"{ok}/{total}" if total else ""
        if key == "caveats":
            return "  ".join(f"⚠ {caveat_title(code)}" for code, _ in r.caveats)
        if key == "cost":
            return "" if r.total_cost is None else f"{r.total_cost:.4f}"
        if key == "speed":
            return "" if r.entries_per_minute is None or not math.isfinite(r.entries_per_minute) else f"{r.entries_per_minute:.1f}"
        if key == "errors":
            return str(r.errors) if r.errors else ""
        if key == "entries":
            return str(r.entries)
        return ""

    def _freshness_lines(self, r: RunRow) -> list[str]:
        """Why a scored run is stale (an input changed, or the settings differ from how it was scored)."""
        lines = []
        if r.stale_reasons:
            lines.append(self.tr("Stale: an input changed since it was scored (Score rescores it with its stored "
                                 "configuration):"))
            lines += [f"  • {reason}" for reason in r.stale_reasons]
        if r.settings_changes:
            lines.append(self.tr("The workspace settings differ from the configuration it was scored with "
                                 "(stored → settings); scoring it again keeps the stored one:"))
            lines += [f"  • {change}" for change in r.settings_changes]
        if lines:
            lines.append("")
        return lines

    def _validation_line(self, level: str) -> str:
        return self.tr("Validation: {0} — {1}").format(validation_label(level), validation_explanation(level))

    def _tooltip(self, key: str, r: RunRow) -> str | None:
        score_key = SCORE_KEY_OF_COLUMN.get(key)
        if score_key is not None and r.scored:
            level = r.validation.get(score_key)
            if level is None:
                return None
            return f"{score_label(score_key)}\n{self._validation_line(level)}"
        if key == "caveats" and r.caveats:
            return "\n\n".join(f"{caveat_title(code)}: {caveat_explanation(code, msg)}" for code, msg in r.caveats)
        if key == "coverage" and r.availability:
            missing = [f"{score_label(m)}: {a}" + (f" — {r.reasons[m]}" if m in r.reasons else "")
                       for m, a in sorted(r.score_availability.items()) if a != "ok"]
            return "\n".join(missing) if missing else self.tr("Every metric produced a value.")
        if key in ("composite", "tier") and r.scored:
            lines = self._freshness_lines(r) if key == "composite" else []
            lines.append(self.tr("Profile {0}").format(r.profile or "—"))
            if r.composite_ci and r.composite_ci[0] is not None:
                lines.append(self.tr("95 % CI {0:.4f}–{1:.4f}").format(r.composite_ci[0], r.composite_ci[1]))
            for b in r.breakdown:
                level = r.validation.get(b["metric"])
                shown = f" ({validation_label(level)})" if level else ""
                lines.append(f"{score_label(b['metric'])}: {b['normalised']:.3f} × {100 * b['weight_share']:.0f} % "
                             f"= {b['contribution']:.4f}{shown}")
            cv = r.composite_validation
            if cv is not None and cv.engineering_estimate:
                lines.append(self.tr("Engineering estimate: its inputs are not all validated against human "
                                     "judgments for this language."))
            if r.pending_review:
                lines.append(self.tr("A speaker review must confirm this tier before it is claimed."))
            return "\n".join(lines)
        if key == "cost" and r.cost_per_entry is not None:
            return self.tr("{0:.6f} USD per entry").format(r.cost_per_entry)
        if key == "speed" and r.avg_latency is not None:
            return self.tr("average latency {0:.2f} s").format(r.avg_latency)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        self.layoutAboutToBeChanged.emit()
        old = [r.run_id for r in self.rows]
        self._sort = (column, order == Qt.SortOrder.DescendingOrder)
        self._apply_sort(*self._sort)
        new_pos = {r.run_id: i for i, r in enumerate(self.rows)}
        for idx in self.persistentIndexList():
            if idx.isValid():
                self.changePersistentIndex(idx, self.index(new_pos[old[idx.row()]], idx.column()))
        self.layoutChanged.emit()

    def _apply_sort(self, column: int, descending: bool) -> None:
        key = self.columns[column].sort
        present = [r for r in self.rows if key(r) is not None]
        absent = [r for r in self.rows if key(r) is None]
        present.sort(key=key, reverse=descending)
        self.rows = present + absent
