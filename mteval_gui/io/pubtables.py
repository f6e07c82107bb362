"""Publication tables: one table model written as CSV, LaTeX (booktabs) or Markdown.

A :class:`PubTable` is a list of columns and rows of :class:`Cell` values: a number with its
decimal places, an optional interval ``[lo, hi]`` and an optional significance mark
(``better`` or ``worse`` than a baseline), or a text. Each format writes the same table:

- **CSV**: one header row; numbers in machine form (``repr`` of the float, a point as decimal
  separator, no rounding); an interval adds the columns ``<key>_ci_lower`` and ``<key>_ci_upper``,
  a column with marks adds ``<key>_significance`` (``better``, ``worse`` or empty); the notes are
  not written (a CSV file is data).
- **LaTeX**: a ``table`` float with a ``tabular`` ruled by booktabs (``\\toprule``, ``\\midrule``,
  ``\\bottomrule``; ``\\cmidrule`` under column groups), numbers rounded to their places with
  the interval as ``value [lo, hi]``, marks as superscripts (``$^{\\dagger}$`` better,
  ``$^{\\ddagger}$`` worse) explained in the notes under the table; every text is escaped
  (``\\ & % $ # _ { } ~ ^``).
- **Markdown**: a GitHub pipe table (numbers right-aligned), marks † and ‡, the notes below it.

The writers return text; :func:`write_pub_table` writes it as every export is written
(:mod:`mteval_gui.io.outputs`).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mteval_gui.errors import MtevalError
from mteval_gui.io.outputs import write_output

Mark = Literal["better", "worse"]
PUB_FORMATS = ("csv", "latex", "markdown")
_SUFFIXES = {".csv": "csv", ".tex": "latex", ".latex": "latex", ".md": "markdown", ".markdown": "markdown"}
LATEX_MARKS: dict[str, str] = {"better": r"$^{\dagger}$", "worse": r"$^{\ddagger}$"}
TEXT_MARKS: dict[str, str] = {"better": "†", "worse": "‡"}


@dataclass(frozen=True)
class Cell:
    """A table cell: a number (``places`` decimals, ``signed``: with its sign) with an optional
    interval and significance mark, or a text (``value`` a str), or nothing (``None``)."""

    value: float | str | None
    lo: float | None = None
    hi: float | None = None
    mark: Mark | None = None
    places: int = 2
    signed: bool = False
    show_interval: bool = True  # False: the interval goes to CSV only (LaTeX and Markdown show the value)
    floor: float | None = None  # a smaller value is shown as "< floor" (p-values: "< 0.001")


@dataclass(frozen=True)
class PubColumn:
    """A column: ``key`` names it in CSV, ``title`` heads it in LaTeX and Markdown, ``group``
    (e.g. a metric) spans the columns that share it in a header row above."""

    key: str
    title: str
    numeric: bool = True
    group: str | None = None
    machine_only: bool = False  # written to CSV only (a run id beside the system's name)


@dataclass
class PubTable:
    columns: list[PubColumn]
    rows: list[list[Cell]]
    caption: str = ""
    label: str = ""
    notes: list[str] = field(default_factory=list)  # explanations written under the table (LaTeX, Markdown)

    def __post_init__(self) -> None:
        for i, row in enumerate(self.rows):
            if len(row) != len(self.columns):
                raise ValueError(f"row {i + 1} has {len(row)} cells for {len(self.columns)} columns")


def pub_format(path: str | Path, fmt: str | None = None) -> str:
    """The table format: explicit, else from the file name (``.csv``, ``.tex``, ``.md``)."""
    if fmt:
        if fmt not in PUB_FORMATS:
            raise ValueError(f"unknown table format {fmt!r} (one of {', '.join(PUB_FORMATS)})")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise MtevalError(f"{path}: cannot tell the table format from the file name "
                         f"(.csv, .tex or .md; or give the format: {', '.join(PUB_FORMATS)})")
    return _SUFFIXES[suffix]


def render(table: PubTable, fmt: str) -> str:
    if fmt == "csv":
        return to_csv(table)
    if fmt == "latex":
        return to_latex(table)
    if fmt == "markdown":
        return to_markdown(table)
    raise ValueError(f"unknown table format {fmt!r} (one of {', '.join(PUB_FORMATS)})")


def write_pub_table(table: PubTable, path: str | Path, fmt: str | None = None) -> tuple[Path, str]:
    """Write ``table`` to ``path`` in ``fmt`` (default: from the file name); returns (path, format)."""
    fmt = pub_format(path, fmt)
    return write_output(path, render(table, fmt)), fmt


# ----------------------------------------------------------------------------- numbers


def _machine(v: float | None) -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    return repr(float(v))


def _number(v: float | None, places: int, signed: bool = False, minus: str = "−") -> str:
    if v is None or not math.isfinite(v):
        return "—"
    text = f"{v:+.{places}f}" if signed else f"{v:.{places}f}"
    if text.lstrip("+-").strip("0.") == "":  # -0.00 / +0.00 -> 0.00
        text = f"{0:.{places}f}"
    return text.replace("-", minus)


def _cell_text(c: Cell, minus: str, dash: str) -> str:
    """The number with its interval (``value [lo, hi]``), without the mark; a text as it is."""
    if c.value is None:
        return ""
    if isinstance(c.value, str):
        return c.value
    if c.floor is not None and 0 <= c.value < c.floor:
        return f"< {c.floor:g}"
    text = _number(c.value, c.places, c.signed, minus)
    if text == "—":
        return dash
    if c.show_interval and c.lo is not None and c.hi is not None:
        text += f" [{_number(c.lo, c.places, c.signed, minus)}, {_number(c.hi, c.places, c.signed, minus)}]"
    return text


# ----------------------------------------------------------------------------- CSV


def to_csv(table: PubTable) -> str:
    has_ci = [any(r[i].lo is not None or r[i].hi is not None for r in table.rows) for i in range(len(table.columns))]
    has_mark = [any(r[i].mark is not None for r in table.rows) for i in range(len(table.columns))]
    header: list[str] = []
    for i, col in enumerate(table.columns):
        header.append(col.key)
        if has_ci[i]:
            header += [f"{col.key}_ci_lower", f"{col.key}_ci_upper"]
        if has_mark[i]:
            header.append(f"{col.key}_significance")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(header)
    for row in table.rows:
        out: list[str] = []
        for i, c in enumerate(row):
            out.append(c.value if isinstance(c.value, str) else _machine(c.value))
            if has_ci[i]:
                out += [_machine(c.lo), _machine(c.hi)]
            if has_mark[i]:
                out.append(c.mark or "")
        w.writerow(out)
    return buf.getvalue()


# ----------------------------------------------------------------------------- LaTeX

_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
    "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "Δ": r"$\Delta$", "−": "$-$", "<": r"$<$",
    ">": r"$>$", "—": "--",
    "–": "--", "†": r"$^{\dagger}$", "‡": r"$^{\ddagger}$", "≥": r"$\geq$", "≤": r"$\leq$", "±": r"$\pm$",
    "\u202f": "~", "\u00a0": "~",
}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX text: the special characters escaped, a few symbols in math mode."""
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)


def _latex_cell(c: Cell) -> str:
    text = latex_escape(_cell_text(c, "−", "—"))
    if c.mark is not None and text:
        text += LATEX_MARKS[c.mark]
    return text


def _groups(columns: list[PubColumn]) -> list[tuple[str | None, int, int]]:
    """Runs of adjacent columns with the same group: (group, first column 1-based, last column)."""
    out: list[tuple[str | None, int, int]] = []
    for i, col in enumerate(columns, start=1):
        if out and out[-1][0] == col.group and col.group is not None:
            out[-1] = (col.group, out[-1][1], i)
        else:
            out.append((col.group, i, i))
    return out


def _shown(table: PubTable) -> tuple[list[PubColumn], list[list[Cell]]]:
    """The columns and rows LaTeX and Markdown show (without the machine-only columns)."""
    keep = [i for i, c in enumerate(table.columns) if not c.machine_only]
    return [table.columns[i] for i in keep], [[row[i] for i in keep] for row in table.rows]


def to_latex(table: PubTable) -> str:
    columns, rows = _shown(table)
    spec = "".join("r" if c.numeric else "l" for c in columns)
    lines = ["% needs \\usepackage{booktabs} in the preamble",
             "\\begin{table}[htbp]", "\\centering", f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    groups = _groups(columns)
    if any(g is not None for g, _, _ in groups):
        cells, rules = [], []
        for g, first, last in groups:
            span = last - first + 1
            if g is None:
                cells += [""] * span
            else:
                cells.append(f"\\multicolumn{{{span}}}{{c}}{{{latex_escape(g)}}}")
                rules.append(f"\\cmidrule(lr){{{first}-{last}}}")
        lines.append(" & ".join(cells) + " \\\\")
        lines.append(" ".join(rules))
    lines.append(" & ".join(latex_escape(c.title) for c in columns) + " \\\\")
    lines.append("\\midrule")
    for row in rows:
        lines.append(" & ".join(_latex_cell(c) for c in row) + " \\\\")
    lines.append("\\bottomrule")
    lines.append("\\end{tabular}")
    if table.caption:
        lines.append(f"\\caption{{{latex_escape(table.caption)}}}")
    if table.label:
        lines.append(f"\\label{{{table.label}}}")
    if table.notes:
        lines.append("\\par\\smallskip{\\footnotesize")
        lines += [latex_escape(n) + ("\\\\" if i < len(table.notes) - 1 else "") for i, n in enumerate(table.notes)]
        lines.append("}")
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- Markdown


def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_cell(c: Cell) -> str:
    text = _cell_text(c, "−", "—")
    if c.mark is not None and text:
        text += TEXT_MARKS[c.mark]
    return _md_escape(text)


def to_markdown(table: PubTable) -> str:
    def title(col: PubColumn) -> str:
        return _md_escape(f"{col.group} {col.title}" if col.group else col.title)

    columns, rows = _shown(table)
    lines = []
    if table.caption:
        lines += [f"**{_md_escape(table.caption)}**", ""]
    lines.append("| " + " | ".join(title(c) for c in columns) + " |")
    lines.append("|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|")
    for row in rows:
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    if table.notes:
        lines.append("")
        lines += [_md_escape(n) + ("  " if i < len(table.notes) - 1 else "") for i, n in enumerate(table.notes)]
    return "\n".join(lines) + "\n"
