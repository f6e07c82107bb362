"""The user manual: where the built one is, and the metric glossary page it is built with.

The manual's sources are the Markdown pages of ``docs/`` with ``mkdocs.yml`` at the repository
root; ``mkdocs build`` writes the site into ``resources/manual/`` (git-ignored), so it travels
with the other bundled resources: inside the package of a wheel built after it, and in the
PyInstaller bundle (``packaging/build.py`` builds it first). The site is made to be read from
files (no directory URLs, no web fonts, nothing loaded from a network), so the GUI opens
``index.html`` as a ``file:`` URL.

- :func:`find_manual` — the built manual's start page, or why there is none and how to build it.
- :func:`glossary_markdown` — the *Metric glossary* page, written at build time from the
  declarations of every built-in metric and of each installed language standard (the
  ``scripts/manual_hooks.py`` build hook calls it), so it never drifts from the code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mteval_gui.app.metrics import GlossaryEntry, metric_glossary
from mteval_gui.paths import resources_dir

__all__ = ["BUILD_COMMAND", "ManualLocation", "find_manual", "glossary_markdown", "manual_dir"]

BUILD_COMMAND = 'pip install -e ".[docs]" && mkdocs build'


def manual_dir() -> Path:
    """Where ``mkdocs build`` writes the manual and where the application looks for it."""
    return resources_dir() / "manual"


@dataclass(frozen=True)
class ManualLocation:
    """Where the built manual's start page is looked for (``expected``) and whether it is there."""

    expected: Path

    @property
    def index(self) -> Path | None:
        """The start page, or ``None`` when the manual is not built."""
        return self.expected if self.expected.is_file() else None

    @property
    def problem(self) -> str:
        """Why there is no manual and how to build it ("" when it is there)."""
        if self.index is not None:
            return ""
        return (f"The user manual is not built: {self.expected} does not exist. In a source checkout, build it "
                f"from the repository folder with: {BUILD_COMMAND}")


def find_manual(folder: Path | None = None) -> ManualLocation:
    """The start page of the built manual in ``folder`` (default :func:`manual_dir`)."""
    folder = manual_dir() if folder is None else folder
    return ManualLocation((folder / "index.html").resolve())


_SCALES = {"0-1": "0–1", "0-100": "0–100", "0-inf": "0 and up", "count": "a count"}
_LEVELS = {
    "external": "shown to agree with speakers' judgments for the language (a study or speaker data)",
    "proxy": "validated against human judgments for other languages or tasks, used here as a stand-in",
    "heuristic": "rules written from linguistic knowledge, not yet measured against human judgments",
    "unvalidated": "no evidence yet",
}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _entry_markdown(e: GlossaryEntry) -> list[str]:
    d = e.descriptor
    needs = [w for w, on in (("a reference", e.needs_reference), ("a morphological analyzer", e.needs_fst)) if on]
    where = "built in" if d.builtin else f"language standard ({', '.join(e.languages) or 'no installed card uses it'})"
    facts = [
        ("Id", f"`{d.id}` · {where}"),
        ("Scale", f"{_SCALES.get(d.scale, d.scale)}, {'higher' if d.higher_is_better else 'lower'} is better"),
        ("Needs", ", ".join(needs) if needs else "nothing more than the output"),
        ("Run-card keys", ", ".join(f"`{k}`" for k in d.produces) or "none (per-entry values only)"),
        ("Validated", f"{d.validation} — {_LEVELS.get(d.validation, '')}"),
    ]
    if d.heavy:
        facts.append(("Model", "loads a model: runs only with `--heavy` or when named with `--metrics`"))
    lines = [f"### {_cell(d.label)}", "", _cell(e.description) or "(no description declared)", ""]
    lines += [f"- **{k}**: {_cell(v)}" for k, v in facts]
    return [*lines, ""]


def glossary_markdown(entries: list[GlossaryEntry] | None = None) -> str:
    """The glossary page: every metric the application can run, from its own declaration."""
    entries = metric_glossary() if entries is None else entries
    builtin = [e for e in entries if e.descriptor.builtin]
    standards = [e for e in entries if not e.descriptor.builtin]
    out = [
        "# Metric glossary", "",
        "Every metric this version can run, written from the metrics' own declarations when the manual "
        "was built (the same text as *Help → Metric glossary*). *Validated* is the metric's own "
        "declaration; a language card may raise or lower it for its language, and each run card records "
        "the level its values were computed with. The composite is an engineering estimate wherever its "
        "parts are not validated for the language.", "",
        "Validation levels, from strongest to weakest:", "",
    ]
    out += [f"- **{level}** — {text}" for level, text in _LEVELS.items()]
    out += ["", f"## Built-in metrics ({len(builtin)})", ""]
    for e in builtin:
        out += _entry_markdown(e)
    out += [f"## Metrics of the language standards ({len(standards)})", ""]
    if not standards:
        out += ["No language standard with metrics of its own was installed when this manual was built.", ""]
    for e in standards:
        out += _entry_markdown(e)
    return "\n".join(out)
