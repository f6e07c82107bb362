"""The user manual as the application sees it: where the built site is, and the glossary page."""

from __future__ import annotations

from mteval_gui.app import manual
from mteval_gui.app.manual import BUILD_COMMAND, find_manual, glossary_markdown
from mteval_gui.app.metrics import GlossaryEntry
from mteval_gui.domain.metrics import MetricDescriptor

BUILTIN_IDS = ["core.fst", "core.morph", "core.ortho", "core.exact", "core.equivalent", "core.chrf", "core.bleu",
               "core.ter", "core.length_ratio", "core.code_switching", "core.hallucination", "core.terminology",
               "core.consistency", "core.compliance", "core.comet", "core.embedding_semantic"]


def test_find_manual_finds_the_built_start_page(tmp_path):
    (tmp_path / "index.html").write_text("<html></html>", encoding="utf-8")
    found = find_manual(tmp_path)
    assert found.index == (tmp_path / "index.html").resolve()
    assert found.problem == ""


def test_find_manual_says_how_to_build_a_missing_manual(tmp_path):
    found = find_manual(tmp_path / "manual")
    assert found.index is None
    assert found.expected == (tmp_path / "manual" / "index.html").resolve()
    assert found.problem == (
        f"The user manual is not built: {(tmp_path / 'manual' / 'index.html').resolve()} does not exist. In a source "
        'checkout, build it from the repository folder with: pip install -e ".[docs]" && mkdocs build')
    assert BUILD_COMMAND == 'pip install -e ".[docs]" && mkdocs build'


def test_the_manual_is_looked_for_among_the_bundled_resources(monkeypatch, tmp_path):
    monkeypatch.setattr(manual, "resources_dir", lambda: tmp_path)
    assert manual.manual_dir() == tmp_path / "manual"
    assert find_manual().expected == (tmp_path / "manual" / "index.html").resolve()


def test_glossary_lists_every_builtin_metric_id():
    from mteval_gui.scoring.plugins import metrics_for

    assert [r.id for r in metrics_for(None)] == BUILTIN_IDS
    text = glossary_markdown()
    for metric_id in BUILTIN_IDS:
        assert f"- **Id**: `{metric_id}` · built in\n" in text
    assert "## Built-in metrics (16)\n" in text
    # the bundled language standards' metrics, with the cards that use them
    assert "- **Id**: `crk.lint` · language standard (crk)\n" in text
    assert "- **Id**: `ewe.quality` · language standard (ewe)\n" in text


def test_glossary_entry_is_written_from_the_declaration():
    entry = GlossaryEntry(
        descriptor=MetricDescriptor(id="xx.pipes", label="Pipes | bars", scale="0-inf", higher_is_better=False,
                                    produces=["pipe_rate"], heavy=True, builtin=False, validation="proxy"),
        description="Counts  pipes |\n in outputs.", needs_reference=True, needs_fst=False, languages=("xxx",))
    text = glossary_markdown([entry])
    assert "## Built-in metrics (0)\n\n## Metrics of the language standards (1)\n" in text
    assert ("### Pipes \\| bars\n\nCounts pipes \\| in outputs.\n\n"
            "- **Id**: `xx.pipes` · language standard (xxx)\n"
            "- **Scale**: 0 and up, lower is better\n"
            "- **Needs**: a reference\n"
            "- **Run-card keys**: `pipe_rate`\n"
            "- **Validated**: proxy — validated against human judgments for other languages or tasks, used here as a "
            "stand-in\n"
            "- **Model**: loads a model: runs only with `--heavy` or when named with `--metrics`\n") in text
