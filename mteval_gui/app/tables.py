"""The comparison and the runs tables as publication tables (CSV, LaTeX with booktabs, Markdown).

:func:`comparison_table` lays out a :class:`~mteval_gui.app.compare.Comparison` the way the
Compare tab shows it: one row per system (the baseline first), per metric its score with the
95 % bootstrap interval and a significance mark (``better``/``worse`` than the baseline by the
paired test, p < 0.05, Holm-corrected when the comparison is), the difference Δ from the baseline
and the p-value; the notes under the table name the test, its trials and seed and the threshold.
:func:`runs_table` lays out rows of the runs table (composite and chrF++ with their intervals,
the tier, the key metrics that have a value, cost and entries).

``mteval export compare`` / ``mteval export runs`` and the GUI's exports call
:func:`export_comparison` / :func:`export_runs`; the format follows the file name (``.csv``,
``.tex``, ``.md``) unless given. The tables are written in English, the language of the papers
they go into.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from mteval_gui.app.compare import SIGNIFICANT, Comparison, significance
from mteval_gui.app.runs import KEY_METRICS, RunRow
from mteval_gui.domain.score_keys import score_key
from mteval_gui.io.pubtables import Cell, PubColumn, PubTable, write_pub_table

TEST_NAMES = {"ar": "approximate randomisation", "bootstrap": "paired bootstrap"}

__all__ = ["comparison_table", "runs_table", "export_comparison", "export_runs", "metric_places", "metric_label"]


def metric_places(key: str) -> int:
    """Decimal places a score key is shown with: 2 on a 0–100 scale, else 4."""
    decl = score_key(key)
    return 2 if decl is not None and decl.scale == "0-100" else 4


def metric_label(key: str) -> str:
    decl = score_key(key)
    return decl.label if decl is not None and decl.label else key.replace("_", " ")


def _p_cell(p: float | None) -> Cell:
    return Cell(p, places=3, floor=0.001)


def comparison_table(c: Comparison, labels: Mapping[str, str] | None = None) -> PubTable:
    """The comparison ``c`` as a table; ``labels`` names the systems (``{run_id: name}``, default the run ids)."""
    labels = labels or {}
    columns = [PubColumn("run_id", "Run", numeric=False, machine_only=True),
               PubColumn("system", "System", numeric=False),
               PubColumn("baseline", "Baseline", numeric=False, machine_only=True)]
    for key in c.metrics:
        group = metric_label(key)
        columns += [PubColumn(key, "Score [95% CI]", group=group), PubColumn(f"{key}_delta", "Δ", group=group),
                    PubColumn(f"{key}_p", "p", group=group)]
    rows: list[list[Cell]] = []
    for run_id in [c.baseline, *c.runs]:
        is_base = run_id == c.baseline
        name = labels.get(run_id, run_id)
        row = [Cell(run_id), Cell(f"{name} (baseline)" if is_base else name), Cell("true" if is_base else "false")]
        for key in c.metrics:
            places = metric_places(key)
            score, lo, hi = c.scores[run_id][key]
            res = None if is_base else c.results[run_id][key]
            mark = None if is_base else significance(c, run_id, key)
            row.append(Cell(score, lo, hi, mark=mark, places=places))  # type: ignore[arg-type]
            if res is None:
                row += [Cell(None), Cell(None)]
            else:
                p = res.p_adjusted if c.holm and res.p_adjusted is not None else res.p_value
                row += [Cell(res.delta, res.ci_lower, res.ci_upper, places=places, signed=True, show_interval=False),
                        _p_cell(p)]
        rows.append(row)
    return PubTable(columns, rows, caption=_comparison_caption(c, labels), label="tab:compare",
                    notes=comparison_notes(c, labels))


def _comparison_caption(c: Comparison, labels: Mapping[str, str]) -> str:
    n = len(c.runs) + 1
    return f"{n} systems compared with the baseline {labels.get(c.baseline, c.baseline)}"


def comparison_notes(c: Comparison, labels: Mapping[str, str]) -> list[str]:
    """What the marks, intervals and Δ of a comparison table mean (written under the table)."""
    test = TEST_NAMES.get(c.test, c.test)
    holm = f", Holm-corrected over the {len(c.runs)} systems per metric" if c.holm else ""
    notes = [
        f"Scores with their 95% percentile-bootstrap interval ({c.trials} resamples, seed {c.seed}); "
        f"Δ = system − baseline ({labels.get(c.baseline, c.baseline)}).",
        f"† significantly better, ‡ significantly worse than the baseline: paired {test} test, "
        f"{c.trials} trials, seed {c.seed}, p < {SIGNIFICANT:g}{holm}.",
    ]
    lower = [metric_label(k) for k in c.metrics if (d := score_key(k)) is not None and not d.higher_is_better]
    if lower:
        notes.append(f"Lower is better for {', '.join(lower)}.")
    for key, why in c.skipped.items():
        notes.append(f"Not compared: {metric_label(key)} ({why}).")
    for cav in c.caveats:
        notes.append(f"Caveat {cav.code}: {cav.message}")
    return notes


def runs_table(rows: Sequence[RunRow]) -> PubTable:
    """Rows of the runs table: model, composite [CI], tier, chrF++ [CI], the key metrics with a value,
    cost and entries."""
    keys = [k for k in KEY_METRICS if any(r.metrics.get(k) is not None for r in rows)]
    columns = [PubColumn("run_id", "Run", numeric=False, machine_only=True),
               PubColumn("model", "Model", numeric=False),
               PubColumn("corpus", "Corpus", numeric=False, machine_only=True),
               PubColumn("composite", "Composite [95% CI]"),
               PubColumn("tier", "Tier", numeric=False),
               PubColumn("chrf_plus_plus", "chrF++ [95% CI]"),
               *(PubColumn(k, metric_label(k)) for k in keys),
               PubColumn("total_cost_usd", "Cost (USD)"),
               PubColumn("entries", "Entries")]
    out: list[list[Cell]] = []
    for r in rows:
        comp_ci = r.composite_ci or (None, None)
        chrf_ci = r.chrf_ci or (None, None)
        out.append([
            Cell(r.run_id), Cell(r.model + (f" · {r.condition}" if r.condition else "")), Cell(r.corpus_id),
            Cell(r.composite, comp_ci[0], comp_ci[1], places=3), Cell(r.tier_display),
            Cell(r.chrf, chrf_ci[0], chrf_ci[1], places=2),
            *(Cell(r.metrics.get(k), places=3) for k in keys),
            Cell(r.total_cost, places=4), Cell(r.entries, places=0),
        ])
    notes = ["Intervals: 95% percentile bootstrap over the entries.",
             "Deployable and fluent tiers stay pending until speakers confirm them."]
    return PubTable(columns, out, caption="Scored runs", label="tab:runs", notes=notes)


def export_comparison(c: Comparison, path: str | Path, labels: Mapping[str, str] | None = None,
                      fmt: str | None = None) -> tuple[Path, str]:
    """Write the comparison table; returns (path, format written)."""
    return write_pub_table(comparison_table(c, labels), path, fmt)


def export_runs(rows: Sequence[RunRow], path: str | Path, fmt: str | None = None) -> tuple[Path, str]:
    """Write rows of the runs table; returns (path, format written)."""
    return write_pub_table(runs_table(rows), path, fmt)
