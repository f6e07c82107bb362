"""The user manual builds offline and strictly (every page in the navigation, every link resolved),
its glossary is written from the metric declarations, and no page loads anything from a network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_manual_builds_strictly_offline(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    for page in ("index.html", "getting-started.html", "tour.html", "tasks/review.html", "fr/getting-started.html",
                 "fr/review.html", "reference/deviations.html", "troubleshooting.html", "adding-a-language.html"):
        assert (site / page).is_file(), page
    # read from files: no directory URLs, so links name the page files
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="getting-started.html"' in index
    glossary = (site / "reference" / "metric-glossary.html").read_text(encoding="utf-8")
    for metric_id in ("core.fst", "core.morph", "core.ortho", "core.exact", "core.equivalent", "core.chrf",
                      "core.bleu", "core.ter", "core.length_ratio", "core.code_switching", "core.hallucination",
                      "core.terminology", "core.consistency", "core.compliance", "core.comet",
                      "core.embedding_semantic", "crk.lint", "crk.semantic", "ewe.quality"):
        assert f"<code>{metric_id}</code>" in glossary, metric_id
    # nothing is loaded from a network (no web fonts, scripts, styles or images from elsewhere)
    loaded = re.compile(r'<(?:script|link|img)\b[^>]*(?:src|href)="(?:https?:)?//', re.IGNORECASE)
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not loaded.search(text), page
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page


def test_readme_is_short_and_starts_with_the_two_commands():
    """The README is what a newcomer needs (the manual holds the rest): at most 200 lines, the
    setup-and-run command first and the test command second, each the first code block of its kind."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    blocks = re.findall(r"```bash\n(.*?)```", readme, re.DOTALL)
    assert "pip install -e . && mteval-gui --demo" in blocks[0]
    assert blocks[1].strip() == 'pip install -e ".[dev]" && python -m pytest -q -n 2'
    for page in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (REPO / page).is_file(), page
