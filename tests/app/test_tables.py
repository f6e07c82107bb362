"""The comparison and runs tables written as CSV, LaTeX (booktabs) and Markdown."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mteval_gui.app.compare import Comparison, significance
from mteval_gui.app.runs import RunRow
from mteval_gui.app.tables import comparison_table, export_comparison, export_runs, runs_table
from mteval_gui.errors import MtevalError
from mteval_gui.io.pubtables import to_csv, to_latex, to_markdown
from mteval_gui.scoring.stats import PairedResult


def _res(metric: str, delta: float, p: float, lo: float, hi: float, p_adj: float | None = None) -> PairedResult:
    return PairedResult(metric, "ar", None, None, delta, p, 1000, lo, hi, 12345, 100, p_adj)


def four_systems(holm: bool = False) -> Comparison:
    """A baseline and three systems on chrF++ (higher is better) and TER (lower is better)."""
    return Comparison(
        baseline="r_base", runs=["r_b", "r_c", "r_d"], test="ar", trials=1000, seed=12345, holm=holm,
        metrics=["chrf_plus_plus", "ter"],
        results={
            "r_b": {"chrf_plus_plus": _res("chrf_plus_plus", 2.5, 0.001, 1.0, 4.0, 0.003),
                    "ter": _res("ter", -2.0, 0.02, -3.5, -0.5, 0.06)},
            "r_c": {"chrf_plus_plus": _res("chrf_plus_plus", -1.0, 0.2, -2.5, 0.5, 0.4),
                    "ter": _res("ter", 1.25, 0.3, -0.5, 3.0, 0.6)},
            "r_d": {"chrf_plus_plus": _res("chrf_plus_plus", -4.75, 0.0004, -6.0, -3.75, 0.0012),
                    "ter": _res("ter", 6.0, 0.001, 4.0, 8.0, 0.002)},
        },
        scores={
            "r_base": {"chrf_plus_plus": (40.0, 38.5, 41.5), "ter": (60.0, 58.0, 62.0)},
            "r_b": {"chrf_plus_plus": (42.5, 41.0, 44.0), "ter": (58.0, 56.0, 60.0)},
            "r_c": {"chrf_plus_plus": (39.0, 37.5, 40.5), "ter": (61.25, 59.0, 63.5)},
            "r_d": {"chrf_plus_plus": (35.25, 33.5, 36.75), "ter": (66.0, 64.0, 68.0)},
        },
        skipped={"bleu": "short segments"},
    )


LABELS = {"r_base": "m2m100_fr_ewe", "r_b": "nllb_600M & co", "r_c": "gpt-4o 100%", "r_d": "madlad#3"}

GOLDEN = Path(__file__).parent / "golden"
# the expected files (every number checked by hand against the comparison above)
EXPECTED_CSV = (GOLDEN / "compare_4_systems.csv").read_bytes().decode("utf-8")
EXPECTED_LATEX = (GOLDEN / "compare_4_systems.tex").read_text(encoding="utf-8")
EXPECTED_MARKDOWN = (GOLDEN / "compare_4_systems.md").read_text(encoding="utf-8")


def test_significance_follows_the_metric_direction_and_the_threshold():
    c = four_systems()
    assert [significance(c, r, "chrf_plus_plus") for r in ("r_base", "r_b", "r_c", "r_d")] == \
        [None, "better", None, "worse"]
    # TER: lower is better, so a negative Δ is better
    assert [significance(c, r, "ter") for r in ("r_b", "r_c", "r_d")] == ["better", None, "worse"]
    # Holm-corrected p-values decide when the comparison is corrected: 0.06 is no longer significant
    assert significance(four_systems(holm=True), "r_b", "ter") is None


def test_comparison_csv_has_one_header_row_and_machine_numbers():
    assert to_csv(comparison_table(four_systems(), LABELS)) == EXPECTED_CSV


def test_comparison_latex_is_booktabs_with_intervals_marks_and_their_legend():
    assert to_latex(comparison_table(four_systems(), LABELS)) == EXPECTED_LATEX


def test_comparison_markdown_is_a_pipe_table():
    assert to_markdown(comparison_table(four_systems(), LABELS)) == EXPECTED_MARKDOWN


def test_holm_notes_and_p_values():
    text = to_markdown(comparison_table(four_systems(holm=True), LABELS))
    assert "p < 0.05, Holm-corrected over the 3 systems per metric." in text
    assert "| nllb_600M & co | 42.50 [41.00, 44.00]† | +2.50 | 0.003 | 58.00 [56.00, 60.00] | −2.00 | 0.060 |" in text


# ----------------------------------------------------------------------------- a LaTeX checker

_SPECIALS = re.compile(r"(?<!\\)[&%$#_^~]")


def latex_table_problems(text: str) -> list[str]:
    """Structural problems of a booktabs table: unbalanced braces or math, rows whose cell count is not
    the column spec's (\\multicolumn spans counted), missing rules, unescaped special characters."""
    problems = []
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    depth = 0
    for ch in re.sub(r"\\[{}]", "", body):
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            problems.append("a closing brace without its opening one")
            break
    if depth > 0:
        problems.append("an opening brace never closed")
    if len(re.findall(r"(?<!\\)\$", body)) % 2:
        problems.append("unbalanced $")
    m = re.search(r"\\begin\{tabular\}\{([lrc]+)\}\n(.*?)\\end\{tabular\}", body, re.S)
    if m is None:
        return [*problems, "no tabular"]
    spec, tab = m.group(1), m.group(2)
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        if tab.count(rule) != 1:
            problems.append(f"{rule} appears {tab.count(rule)} times")
    if not (-1 < tab.find(r"\toprule") < tab.find(r"\midrule") < tab.find(r"\bottomrule")):
        problems.append("rules missing or out of order")
    for line in tab.splitlines():
        if not line.endswith(r"\\"):
            continue
        row = line[:-2]
        cells = re.split(r"(?<!\\)&", row)
        width = sum(int(mc.group(1)) if (mc := re.match(r"\s*\\multicolumn\{(\d+)\}", c)) else 1 for c in cells)
        if width != len(spec):
            problems.append(f"row has {width} columns for the spec's {len(spec)}: {line}")
        for c in cells:
            outside_math = re.sub(r"\$[^$]*\$", "", c)
            if _SPECIALS.search(outside_math.replace(r"\&", "")):
                problems.append(f"unescaped special character in {c!r}")
    return problems


def test_the_latex_checker_finds_what_it_looks_for():
    good = to_latex(comparison_table(four_systems(), LABELS))
    assert latex_table_problems(good) == []
    assert latex_table_problems(good.replace(r"nllb\_600M \& co", "nllb_600M & co")) == [
        "row has 8 columns for the spec's 7: nllb_600M & co & 42.50 [41.00, 44.00]$^{\\dagger}$ & +2.50 & 0.001 "
        "& 58.00 [56.00, 60.00]$^{\\dagger}$ & $-$2.00 & 0.020 \\\\",
        "unescaped special character in 'nllb_600M '"]
    assert latex_table_problems(good.replace(r"\midrule", "")) == [r"\midrule appears 0 times",
                                                                   "rules missing or out of order"]
    assert latex_table_problems(good.replace(r"\caption{", r"\caption{{")) == ["an opening brace never closed"]


def test_latex_of_a_four_system_comparison_and_of_the_runs_table_is_well_formed():
    assert latex_table_problems(to_latex(comparison_table(four_systems(holm=True), LABELS))) == []
    assert latex_table_problems(to_latex(runs_table(run_rows()))) == []


def compile_latex(tables: str, folder: Path) -> None:
    """Compile ``tables`` in an article with booktabs (nothing when pdflatex is not installed)."""
    if shutil.which("pdflatex") is None:
        return
    doc = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n" + tables + "\\end{document}\n"
    (folder / "t.tex").write_text(doc, encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (folder / "t.pdf").stat().st_size > 1000


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_of_a_four_system_comparison_compiles(tmp_path: Path):
    compile_latex(to_latex(comparison_table(four_systems(), LABELS)) + to_latex(runs_table(run_rows())), tmp_path)
    assert (tmp_path / "t.pdf").exists()


# ----------------------------------------------------------------------------- runs table


def run_rows() -> list[RunRow]:
    a = RunRow("run_a", "mafand", "nllb_600M", "zero-shot", "fr-ewe", "scored", 1563, 0, 2,
               composite=0.5125, tier="functional", chrf=31.4567, chrf_ci=(30.25, 32.75),
               composite_ci=(0.5, 0.525), metrics={"exact_match_rate": 0.0125, "fst_acceptance_rate": None},
               total_cost=0.0)
    b = RunRow("run_b", "mafand", "gpt_4o", None, "fr-ewe", "scored", 1563, 3, 0,
               composite=0.75, tier="deployable", chrf=45.0, chrf_ci=(44.0, 46.0),
               composite_ci=(0.74, 0.76), metrics={"exact_match_rate": 0.1, "fst_acceptance_rate": None},
               total_cost=1.23456)
    c = RunRow("run_c", "mafand", "raw_run", None, "fr-ewe", "imported", 1563, 0, 0)
    return [a, b, c]


def test_runs_table_formats():
    t = runs_table(run_rows())
    assert to_csv(t) == (
        "run_id,model,corpus,composite,composite_ci_lower,composite_ci_upper,tier,chrf_plus_plus,"
        "chrf_plus_plus_ci_lower,chrf_plus_plus_ci_upper,exact_match_rate,total_cost_usd,entries\r\n"
        "run_a,nllb_600M · zero-shot,mafand,0.5125,0.5,0.525,functional,31.4567,30.25,32.75,0.0125,0.0,1563\r\n"
        "run_b,gpt_4o,mafand,0.75,0.74,0.76,deployable (pending speaker review),45.0,44.0,46.0,0.1,1.23456,1563\r\n"
        "run_c,raw_run,mafand,,,,,,,,,,1563\r\n")
    assert to_markdown(t).splitlines()[2:7] == [
        "| Model | Composite [95% CI] | Tier | chrF++ [95% CI] | Exact match | Cost (USD) | Entries |",
        "|:---|---:|:---|---:|---:|---:|---:|",
        "| nllb_600M · zero-shot | 0.512 [0.500, 0.525] | functional | 31.46 [30.25, 32.75] | 0.013 | 0.0000 | 1563 |",
        "| gpt_4o | 0.750 [0.740, 0.760] | deployable (pending speaker review) | 45.00 [44.00, 46.00] | 0.100 "
        "| 1.2346 | 1563 |",
        "| raw_run |  |  |  |  |  | 1563 |"]


def test_exports_choose_the_format_by_the_file_name(tmp_path: Path):
    c = four_systems()
    path, fmt = export_comparison(c, tmp_path / "cmp.tex", LABELS)
    assert fmt == "latex" and path.read_text(encoding="utf-8") == EXPECTED_LATEX
    _, fmt = export_comparison(c, tmp_path / "cmp.md", LABELS)
    assert fmt == "markdown"
    _, fmt = export_runs(run_rows(), tmp_path / "runs.txt", "csv")
    assert fmt == "csv" and (tmp_path / "runs.txt").read_text(encoding="utf-8").startswith("run_id,model,")
    with pytest.raises(MtevalError, match=r"runs\.txt: cannot tell the table format from the file name"):
        export_runs(run_rows(), tmp_path / "runs.txt")
