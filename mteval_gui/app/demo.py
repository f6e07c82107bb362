"""The demo workspace: small Plains Cree and Ewe corpora, two runs each, and a glossary.

The data lives in ``resources/demo`` and was written for this application (it is not a
benchmark): 28 English→Plains Cree verb forms (checked with the strict crk analyzer) and 25
everyday French→Ewe phrases, each with one good and one flawed run in the formats the
importers read (JSONL corpus and runs, TSV corpus, hypothesis text file, JSON glossary).
The flawed runs carry the problems the metrics are meant to catch: missing circumflexes,
English/French copies, look-alike letters, repeated words, empty outputs, provider errors
and an entry missing from the run file.

:func:`build_demo_workspace` is used by ``mteval demo`` and ``mteval-gui --demo``; it is
idempotent (a second call finds everything already imported).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteval_gui.paths import demo_dir, user_data_dir
from mteval_gui.store import Workspace, repo

DEMO_DB_NAME = "demo.sqlite"


@dataclass(frozen=True)
class DemoCorpus:
    corpus_id: str
    file: str
    source_lang: str
    target_lang: str
    runs: tuple[str, ...]
    glossary: str | None = None


DEMO_CORPORA = (
    DemoCorpus("demo-crk-verbs", "crk-verbs.jsonl", "eng", "crk", ("crk-verbs.good.jsonl", "crk-verbs.flawed.jsonl")),
    DemoCorpus("demo-fra-ewe", "fra-ewe-phrases.tsv", "fra", "ewe",
               ("fra-ewe-phrases.good.txt", "fra-ewe-phrases.flawed.jsonl"), "fra-ewe-glossary.json"),
)
# a hypothesis text file carries no metadata: its run id and system name are given here
DEMO_TEXT_RUNS = {"fra-ewe-phrases.good.txt": ("ewe-demo-good", "demo-mt-good")}


def default_demo_path() -> Path:
    return user_data_dir() / DEMO_DB_NAME


def remove_workspace_files(path: str | Path) -> None:
    """Delete a workspace file and its WAL companions (``mteval demo --fresh``)."""
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()


def ensure_demo_workspace(path: str | Path | None = None) -> Path:
    """Build the demo workspace unless it already holds runs; returns its path (``mteval-gui --demo``)."""
    path = Path(path) if path is not None else default_demo_path()
    if path.exists():
        ws = Workspace(path)
        try:
            if repo.list_runs(ws):
                return path
        finally:
            ws.close()
    build_demo_workspace(path).close()
    return path


def build_demo_workspace(path: str | Path | None = None) -> Workspace:
    """Create (or reopen) the demo workspace at ``path`` and import the bundled demo data."""
    from mteval_gui.app.imports import import_corpus_file, import_glossary_file, import_run_file
    from mteval_gui.app.settings import load_settings, save_settings

    ws = Workspace(Path(path) if path is not None else default_demo_path())
    base = demo_dir()
    for dc in DEMO_CORPORA:
        import_corpus_file(ws, base / dc.file, corpus_id=dc.corpus_id, source_lang=dc.source_lang,
                           target_lang=dc.target_lang)
        for run_file in dc.runs:
            run_id, slug = DEMO_TEXT_RUNS.get(run_file, (None, None))
            import_run_file(ws, base / run_file, corpus_id=dc.corpus_id, run_id=run_id, model_slug=slug)
        if dc.glossary:
            g = import_glossary_file(ws, base / dc.glossary, name=f"{dc.corpus_id} glossary")
            settings = load_settings(ws)
            settings.glossaries = {**settings.glossaries, dc.corpus_id: g.id}
            save_settings(ws, settings)
    return ws


def score_demo_workspace(ws: Workspace, *, on_progress: Callable[[Any], None] | None = None,
                         rescore: bool = False) -> list[str]:
    """Score every demo run not scored yet; returns problems to show (empty when all went well)."""
    from mteval_gui.app.metrics import heavy_metric_ids
    from mteval_gui.app.scoring import score_workspace_run

    # metrics that load a model are left out of the demo so that it scores in seconds on any machine
    excluded = heavy_metric_ids()
    problems: list[str] = []
    for row in repo.list_runs(ws):
        if row["has_run_card"] and not rescore:
            continue
        score_workspace_run(ws, row["run_id"], exclude=excluded, on_progress=on_progress)
    return problems
