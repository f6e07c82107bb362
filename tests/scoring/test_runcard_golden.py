"""The run card is an exchange format: for the same inputs its JSON text stays byte for byte the
same. The card of a fixed toy run scored with the light built-in metrics and a language plugin is
compared with a stored copy (``golden/toy.runcard.json``), and the stored metric rows with theirs.

Regenerate the stored copies only for an intended change of the format:
``MTEVAL_WRITE_GOLDEN=1 python -m pytest tests/scoring/test_runcard_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from mteval_gui.domain.card import MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta, Usage
from mteval_gui.scoring.job import ScoringRequest
from mteval_gui.scoring.plugins import metrics_for
from mteval_gui.scoring.runcard import run_card_json
from mteval_gui.scoring.runner import score_run

GOLDEN = Path(__file__).parent / "golden"
SOURCES = ["The cat sits on the mat", "Good morning", "Open the door, please", "I have {n} apples",
           "Where is the station?", "Thank you very much", "The river is long and wide", "Yes", "No",
           "We will meet tomorrow at noon", "The children are playing outside", "Water is life"]
REFERENCES = ["Le chat est assis sur le tapis", "Bonjour", "Ouvre la porte, s'il te plaît", "J'ai {n} pommes",
              "Où est la gare ?", "Merci beaucoup", "Le fleuve est long et large", "Oui", "Non",
              "Nous nous verrons demain à midi", "Les enfants jouent dehors", "L'eau, c'est la vie"]
OUTPUTS = ["Le chat est assis sur le tapis", "Bonjour à vous", "Ouvrez la porte s'il vous plaît",
           "J'ai des pommes", "Où est la gare ?", "Merci beaucoup beaucoup beaucoup", "The river is long and wide",
           "Oui", "", "Nous allons nous rencontrer demain à midi", "Les enfants jouent dehors",
           "L'eau est la vie"]
METRICS = ["core.fst", "core.exact", "core.equivalent", "core.chrf", "core.bleu", "core.ter", "core.length_ratio",
           "core.hallucination", "core.terminology", "core.consistency", "core.compliance"]


def _request() -> ScoringRequest:
    corpus = Corpus(corpus_id="toy", version="1", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i:02d}", source=s, reference=r, difficulty=1 + i % 3,
              provenance="tatoeba" if i % 2 else "news",
              terminology={"cat": ["chat"], "door": ["porte"]} if i in (0, 2) else {})
        for i, (s, r) in enumerate(zip(SOURCES, REFERENCES, strict=True))])
    outputs = [Output(id=f"e{i:02d}", predicted=p, latency_s=0.5 + i / 10,
                      usage=Usage(prompt_tokens=10 + i, completion_tokens=5 + i),
                      error="HTTP 503" if i == 8 else None)
               for i, p in enumerate(OUTPUTS)]
    run = Run(meta=RunMeta(run_id="toy-run", model_slug="toy-model", elapsed_seconds=12.0), corpus_id="toy",
              outputs=outputs)
    refs = metrics_for(None, include=METRICS)
    refs.append(MetricRef(id="zzx.letters", python_name="tests.scoring.golden_metrics:LegacyExtraMetric"))
    return ScoringRequest(run_id="toy-run", corpus=corpus, run=run, metrics=refs, batch_size=5, n_bootstrap=100,
                          isolation="none")


def _normalised(text: str) -> str:
    """The card's text with what changes between scorings of the same inputs replaced: the time it
    was made and the application's version."""
    card = json.loads(text)
    lines = text.splitlines(keepends=True)
    for key in ("timestamp", "harness_version"):
        old = f'  "{key}": {json.dumps(card[key])},\n'
        lines = [f'  "{key}": "<{key}>",\n' if line == old else line for line in lines]
    return "".join(lines)


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("MTEVAL_WRITE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_run_card_text_is_unchanged():
    res = score_run(_request())
    _check("toy.runcard.json", _normalised(run_card_json(res.run_card)))


def test_stored_metric_rows_are_unchanged():
    res = score_run(_request())
    rows = [{"metric_id": r.metric_id, "availability": r.availability, "reason": r.reason, "values": r.values,
             "extra": {k: v for k, v in r.extra.items() if k != "version"}} for r in res.metric_rows]
    _check("toy.metric_rows.json", json.dumps(rows, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
