"""One-shot evaluation without a workspace: read a corpus file and a run file, score, return the card.

``mteval evaluate`` runs this; the request is built the way a workspace run's is (same cards,
same card hash, same corpus hash), only the results stay in memory. The card's ``results[]`` are
held once, in its JSON form as the runner checked it (:attr:`Evaluation.checked`; the model
``result.run_card`` has none): that is what :meth:`Evaluation.save` writes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.app.overrides import ScoringOverrides
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.corpus import read_corpus
from mteval_gui.io.glossary import read_glossary
from mteval_gui.io.outputs import check_output as check_output  # for the CLI: refused before the work
from mteval_gui.io.runs import read_run
from mteval_gui.scoring.job import entry_ids
from mteval_gui.scoring.parallel import default_workers
from mteval_gui.scoring.runner import (
    DEFAULT_BATCH_SIZE,
    RESULTS_SCHEMA_SAMPLE,
    MemorySink,
    Progress,
    RunResult,
    score_run,
)
from mteval_gui.scoring.stats import DEFAULT_BOOTSTRAP, DEFAULT_SEED
from mteval_gui.store.hashing import corpus_sha256


@dataclass
class Evaluation:
    result: RunResult
    missing: list[str] = field(default_factory=list)  # corpus ids without an output (scored as empty)
    checked: dict[str, Any] | None = None  # the card's JSON form when the runner had checked it
    inputs: list[str | Path] = field(default_factory=list)  # the files read: never written over by save()

    def save(self, path: str | Path) -> Path:
        """Write the run card, checked as the runner checks every card it builds (the pydantic
        model for all of it, the JSON Schema for the card and its first results): a card that
        is still the one the runner checked is written as it is, any other is checked again."""
        from mteval_gui.io.outputs import open_output
        from mteval_gui.scoring.runcard import ensure_valid, run_card_chunks

        card = self.result.run_card
        if self.checked is not None and _unchanged(card, self.checked):
            data: dict[str, Any] = self.checked
        else:
            data = ensure_valid(card, results_sample=RESULTS_SCHEMA_SAMPLE)
            if not card.results and self.checked is not None:  # the results are held in their JSON form only
                data["results"] = self.checked.get("results") or []
        with open_output(path, inputs=self.inputs) as fh:  # in pieces: no second copy of a large card's text
            for chunk in run_card_chunks(data):
                fh.write(chunk)
        return Path(path)


def _unchanged(card: Any, checked: dict[str, Any]) -> bool:
    """Whether ``card``'s JSON form is ``checked``, compared one ``results`` item at a time (a
    second JSON form of a large card's results would take as much memory as the first); a card
    without results models has its results in ``checked`` only."""
    if card.model_dump(mode="json", exclude={"results"}) != {k: v for k, v in checked.items() if k != "results"}:
        return False
    results = checked.get("results") or []
    if not card.results:
        return True
    return len(card.results) == len(results) and all(
        r.model_dump(mode="json") == c for r, c in zip(card.results, results, strict=True))


@dataclass(frozen=True)
class EvaluationInputs:
    """The files of a one-shot evaluation and the languages given for them."""

    corpus: str | Path
    run: str | Path
    ref: str | Path | None = None  # line-aligned references of a plain-text corpus
    glossary: str | Path | None = None
    source_lang: str | None = None
    target_lang: str | None = None

    def paths(self) -> list[str | Path]:
        return [p for p in (self.corpus, self.run, self.ref, self.glossary) if p is not None]


def evaluate_files(inputs: EvaluationInputs, overrides: ScoringOverrides | None = None, *,
                   on_progress: Callable[[Progress], None] | None = None, workers: int | None = None) -> Evaluation:
    """Score ``inputs.run`` against ``inputs.corpus``. Output ids absent from the corpus are an error.

    ``overrides`` are the scoring choices (metrics, exclusions, options, seed, bootstrap samples,
    batch size, metric parameters; unset: the defaults); the glossary is a file of ``inputs``.
    ``workers``: processes that score the entries (default: both cores when there are two)."""
    from mteval_gui.app.analyzer_pins import foreign_analyzer
    from mteval_gui.app.requests import make_request

    o = overrides or ScoringOverrides()
    if o.glossary is not None:
        raise ValueError("a one-shot evaluation reads its glossary from a file: EvaluationInputs.glossary")
    target_lang, source_lang = inputs.target_lang, inputs.source_lang
    # entries and outputs packed as they are read (a file is never held as models: the job decodes a batch
    # at a time, and a helper forked from this process starts without them)
    loaded = read_corpus(inputs.corpus, ref_path=inputs.ref, target_lang=target_lang, source_lang=source_lang,
                         packed=True)
    corpus = loaded.value
    if target_lang:
        corpus.language_pair.target = target_lang
    if source_lang:
        corpus.language_pair.source = source_lang
    ids = entry_ids(corpus.entries)
    run_loaded = read_run(inputs.run, entry_ids=ids, packed=True)
    run = run_loaded.value
    known = set(ids)
    unknown = [u for u in entry_ids(run.outputs) if u not in known]
    if unknown:
        raise InputError([Defect(str(inputs.run), run_loaded.lines.get(u), f"output id {u!r} is not in the corpus")
                          for u in unknown])
    refused = foreign_analyzer(o.options, corpus.language_pair.target) if o.options is not None else None
    if refused is not None:  # an analyzer of another language would judge every word (a wrong profile A)
        raise InputError(Defect(refused[0], None, refused[1]))
    have = set(entry_ids(run.outputs))
    missing = [i for i in ids if i not in have]
    glossary: dict[str, list[str]] = read_glossary(inputs.glossary).value if inputs.glossary else {}
    request = make_request(corpus, run, corpus_sha256=corpus_sha256(corpus), options=o.options or ScoringOptions(),
                           glossary=glossary, metrics=o.metrics, exclude=o.exclude or (), params=o.params,
                           batch_size=o.batch_size or DEFAULT_BATCH_SIZE,
                           seed=DEFAULT_SEED if o.seed is None else o.seed,
                           n_bootstrap=DEFAULT_BOOTSTRAP if o.n_bootstrap is None else o.n_bootstrap)
    del corpus, run, loaded, run_loaded
    request.workers = default_workers() if workers is None else workers
    request.result_models = False  # results[] once, as the JSON the card file is written from
    sink = MemorySink()  # keeps the card as the runner checked it (its JSON form)
    result = score_run(request, on_progress=on_progress, sink=sink)
    return Evaluation(result, missing, sink.cards.get(request.run_id), inputs.paths())
