"""A small French workspace scored with cheap metrics, for the concurrency and kill tests."""

from __future__ import annotations

from pathlib import Path

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.store import Workspace, repo

FAST = {"n_bootstrap": 30, "seed": 7}


def make_workspace(path: Path, n: int = 12, run_id: str = "r") -> None:
    """A corpus of ``n`` entries and one run whose every third output differs from its reference."""
    ws = Workspace(path)
    try:
        repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="fra"),
                                   entries=[Entry(id=f"e{i:03d}", source=f"the cat {i} sleeps",
                                                  reference=f"le chat {i} dort") for i in range(n)]))
        outputs = [Output(id=f"e{i:03d}", predicted=f"le chat {i} dort" if i % 3 else f"un chien {i}")
                   for i in range(n)]
        repo.add_run(ws, Run(meta=RunMeta(run_id=run_id, model_slug="m"), corpus_id="c", outputs=outputs))
    finally:
        ws.close()


def stored_results(path: Path, run_id: str = "r") -> dict:
    """What a scoring job leaves in the workspace, without its time stamps."""
    from mteval_gui.store.results import load_run_card_dict

    ws = Workspace(path)
    try:
        card = load_run_card_dict(ws, run_id)
        entries = sorted(tuple(r) for r in ws.conn.execute(
            "SELECT entry_id, metric_id, value, data FROM entry_metrics WHERE run_id = ?", (run_id,)))
        metrics = sorted(tuple(r) for r in ws.conn.execute(
            'SELECT metric_id, availability, reason, "values", extra FROM run_metrics WHERE run_id = ?', (run_id,)))
    finally:
        ws.close()
    return {"scores": card["scores"] if card else None,
            "availability": card["metric_availability"] if card else None,
            "results": card["results"] if card else None, "entry_metrics": entries, "run_metrics": metrics}
