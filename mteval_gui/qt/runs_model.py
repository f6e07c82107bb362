"""Item model of the runs table: one row per run, sortable inside the model.

Columns show the composite with its tier (a deployable or fluent tier carries the
"pending speaker review" badge until a speaker confirms it), chrF++ with its bootstrap
interval, the key metrics, metric coverage, caveat badges (explained in tooltips), cost
and speed. Tooltips explain every number's provenance.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject

from mteval_gui.app.runs import RunRow
from mteval_gui.domain.score_keys import SCORE_KEYS, ScoreKey
from mteval_gui.qt.labels import (
    TIER_COLOURS,
    caveat_explanation,
    caveat_title,
    pending_review_label,
    score_label,
    tier_description,
    tier_label,
    validation_explanation,
    validation_label,
)
from mteval_gui.qt.table_model import KEY_ROLE, SORT_ROLE, Column, ColumnTableModel

RUN_ID_ROLE = KEY_ROLE
__all__ = ["RUN_ID_ROLE", "SORT_ROLE", "RunsModel"]

_ALWAYS_SHOWN = ("run", "model", "corpus", "composite", "tier", "chrf", "entries")
_GREY = "#888888"

# the columns of declared scores keys (mteval_gui.domain.score_keys): column key -> declaration
_KEY_COLUMNS: dict[str, ScoreKey] = {k.table.key: k for k in SCORE_KEYS if k.table is not None}
# their titles, listed so that the French translation covers them (a test checks every declared one is)
COLUMN_TITLES = (
    QT_TRANSLATE_NOOP("RunsModel", "Exact"),
    QT_TRANSLATE_NOOP("RunsModel", "Equiv."),
    QT_TRANSLATE_NOOP("RunsModel", "FST"),
    QT_TRANSLATE_NOOP("RunsModel", "Semantic"),
    QT_TRANSLATE_NOOP("RunsModel", "COMET"),
    QT_TRANSLATE_NOOP("RunsModel", "Code-sw."),
    QT_TRANSLATE_NOOP("RunsModel", "Halluc."),
    QT_TRANSLATE_NOOP("RunsModel", "Cost-adj."),
)

# column -> the run-card scores key it shows (its validation level is shown beside the value and
# explained in the tooltip)
SCORE_KEY_OF_COLUMN = {"chrf": "chrf_plus_plus", **{col: k.name for col, k in _KEY_COLUMNS.items()}}


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f} %"


def _num(v: float | None, digits: int = 3) -> str:
    return "" if v is None else f"{v:.{digits}f}"


class RunsModel(ColumnTableModel[RunRow]):
    def __init__(self, parent: QObject | None = None):
        super().__init__(key=lambda r: r.run_id, parent=parent)
        self.set_columns(self._make_columns())

    def _make_columns(self) -> list[Column[RunRow]]:
        def m(k: str):
            return lambda r: r.metrics.get(k)

        def col(key: str, title: str, value, numeric: bool = True, **kw) -> Column[RunRow]:
            return Column(key, title, value, text=lambda r: self._display(key, r),
                          tooltip=lambda r: self._tooltip(key, r),
                          foreground=lambda r: self._foreground(key, r),
                          header_tip=self._header_tip(key) or "", numeric=numeric, **kw)

        return [
            col("run", self.tr("Run"), lambda r: r.run_id.casefold(), False),
            col("model", self.tr("Model"), lambda r: r.model.casefold(), False),
            col("corpus", self.tr("Corpus"), lambda r: r.corpus_id.casefold(), False),
            col("composite", score_label("composite"), lambda r: r.composite, bold=True),
            col("tier", score_label("quality_tier"), lambda r: r.composite, False, bold=True),
            col("chrf", self.tr("chrF++ [95 % CI]"), lambda r: r.chrf),
            col("caveats", self.tr("Caveats"), lambda r: len(r.caveats) if r.scored else None, False),
            col("coverage", self.tr("Coverage"), lambda r: (r.coverage[0] / r.coverage[1]) if r.coverage[1] else None),
            *(col(c, QCoreApplication.translate("RunsModel", k.table.title), m(k.name))
              for c, k in _KEY_COLUMNS.items() if k.table is not None),
            col("cost", self.tr("Cost (USD)"), lambda r: r.total_cost),
            col("speed", self.tr("Entries/min"), lambda r: r.entries_per_minute),
            col("errors", self.tr("Errors"), lambda r: r.errors),
            col("entries", self.tr("Entries"), lambda r: r.entries),
        ]

    def column_is_empty(self, column: int) -> bool:
        """True for a metric column no run has a value in (hidden to keep the table readable)."""
        col = self.columns[column]
        if col.key in _ALWAYS_SHOWN:
            return False
        return all(self._display(col.key, r) == "" for r in self.rows)

    def _foreground(self, key: str, r: RunRow) -> str | None:
        if key == "tier" and r.tier:
            return TIER_COLOURS.get(r.tier, "#333333")
        if key == "caveats" and r.caveats or key == "composite" and r.scored and r.stale:
            return "#a05a00"
        if not r.scored and key not in ("run", "model", "corpus", "errors", "entries"):
            return _GREY
        return None

    def _header_tip(self, key: str) -> str | None:
        tips = {
            **{c: score_label(k.name) + ("" if k.higher_is_better else " — " + self.tr("lower is better."))
               for c, k in _KEY_COLUMNS.items()},
            "caveats": self.tr("Warnings about what the scores can and cannot show; hover a cell for details."),
            "composite": self.tr("Weighted mean of the available normalised metrics (SPEC §5); "
                                 "profile A when an analyzer ran."),
            "tier": self.tr("fluent ≥ 0.85, deployable ≥ 0.70, functional ≥ 0.50, emerging ≥ 0.30, else baseline. "
                            "Deployable and fluent stay pending until a speaker review confirms them."),
            "chrf": self.tr("Corpus chrF++ (sacrebleu, word order 2) with its 95 % percentile-bootstrap interval."),
            "coverage": self.tr("Metrics that produced a value / metrics attempted."),
        }
        return tips.get(key)

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
            # "unspecified" is the run cards' default condition (the harness's leaderboard needs one)
            condition = self.tr("unspecified") if r.condition == "unspecified" else r.condition
            return r.model + (f" · {condition}" if condition else "")
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
        decl = _KEY_COLUMNS.get(key)
        if decl is not None and decl.table is not None:
            value = r.metrics.get(decl.name)
            return _pct(value) if decl.table.percent else _num(value)
        if key == "coverage":
            ok, total = r.coverage
            return f"{ok}/{total}" if total else ""
        if key == "caveats":
            return "  ".join(f"⚠ {caveat_title(code)}" for code, _ in r.caveats)
        if key == "cost":
            return "" if r.total_cost is None else f"{r.total_cost:.4f}"
        if key == "speed":
            speed = r.entries_per_minute
            return "" if speed is None or not math.isfinite(speed) else f"{speed:.1f}"
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

    def _configuration_lines(self, r: RunRow) -> list[str]:
        """How the run was scored (its stored configuration): metric set, analyzer and gloss files with
        their sha256, COMET model, glossary and options."""
        c = r.scoring
        if c is None:
            return []
        lines = [self.tr("Scored with:")]
        metrics = ", ".join(c.metrics) if c.metrics is not None else self.tr("every metric that applies")
        if c.exclude:
            metrics += " " + self.tr("(except {0})").format(", ".join(c.exclude))
        lines.append("  • " + self.tr("metrics: {0}").format(metrics))
        for f in c.files:
            sha = f.sha256[:12] if f.sha256 else self.tr("file missing")
            if f.role == "analyzer":
                what = self.tr("{0} analyzer ({1})").format(f.kind or "", f.language)
            else:
                what = self.tr("gloss file ({0})").format(f.language)
            lines.append(f"  • {what}: {f.path} · sha256 {sha}")
        if not any(f.role == "analyzer" for f in c.files):
            lines.append("  • " + self.tr("analyzer: none"))
        if not any(f.role == "gloss" for f in c.files):
            lines.append("  • " + self.tr("gloss files: none"))
        if c.comet_model:
            lines.append("  • " + self.tr("COMET model: {0}").format(c.comet_model))
        elif c.options.comet_model:
            lines.append("  • " + self.tr("COMET model (when COMET runs): {0}").format(c.options.comet_model))
        if c.glossary:
            lines.append("  • " + self.tr("glossary: {0}").format(c.glossary))
        switches = [label for on, label in ((c.options.multi_ref, self.tr("multi-reference")),
                                            (c.options.heavy, self.tr("model-based metrics"))) if on]
        if switches:
            lines.append("  • " + self.tr("options: {0}").format(", ".join(switches)))
        if c.n_bootstrap is not None and c.seed is not None:
            lines.append("  • " + self.tr("{0} bootstrap resamples, seed {1}").format(c.n_bootstrap, c.seed))
        if not c.recorded:
            lines.append("  " + self.tr("(recovered from the scoring job of an older version)"))
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
            lines = self._freshness_lines(r) + self._configuration_lines(r) if key == "composite" else []
            if key == "tier" and r.tier:  # what a speaker typically sees at this tier (LYSS §5)
                lines += [f"{tier_label(r.tier)}: {tier_description(r.tier)}", ""]
            lines.append(self.tr("Profile {0}").format(r.profile or "—"))
            if r.calibration is not None:
                c = r.calibration
                lines.append(self.tr("Weights and tiers of the language card's calibrated profile {0}").format(c.name)
                             + (self.tr(" (fitted {0})").format(c.fitted[:10]) if c.fitted else ""))
                lines.append(self.tr("Tiers: {0}").format(", ".join(
                    f"{tier_label(t)} ≥ {v:.3f}" for t, v in sorted(c.tiers.items(), key=lambda kv: -kv[1]))))
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
