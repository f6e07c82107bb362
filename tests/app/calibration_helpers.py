"""A rated study made from this tool's own per-entry metric values: five runs of a French corpus
scored with the light built-in metrics, and three speakers whose ratings are a known weighted sum
of the normalised composite inputs plus noise."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from mteval_gui.app.scoring import score_workspace_run
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.composite import normalise
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J
from mteval_gui.store.results import entry_values_bulk

FR = ["le", "chat", "dort", "sur", "la", "table", "pendant", "que", "les",
      "enfants", "jouent", "dans", "le", "jardin", "avec", "leur", "chien", "noir"]
EN = ["the", "cat", "sleeps", "on", "the", "table", "while", "the",
      "children", "play", "in", "the", "garden", "with", "their", "black", "dog"]
METRICS = ["core.chrf", "core.exact", "core.equivalent", "core.code_switching", "core.hallucination"]
KEYS = {"core.chrf": "chrf_plus_plus", "core.exact": "exact_match_rate", "core.equivalent": "equivalent_match_rate",
        "core.code_switching": "code_switching_rate", "core.hallucination": "hallucination_rate"}
# what the speakers go by (profile B's seed weights over these inputs: .25 .15 .10 .10 .05)
TRUE_WEIGHTS = {"chrf_plus_plus": 0.35, "equivalent_match_rate": 0.05, "exact_match_rate": 0.0,
                "code_switching_rate": 0.3, "hallucination_rate": 0.3}
RATERS = ("ana", "ben", "cat")
N_ENTRIES = 40
N_RUNS = 5


def _variant(rng: random.Random, e: Entry, kind: int) -> str:
    ref, src = e.reference.split(), e.source.split()
    if kind == 1:  # English words left in
        out = list(ref)
        for j in rng.sample(range(len(ref)), rng.randint(1, max(1, len(ref) // 2))):
            out[j] = src[j] if j < len(src) else "the"
        return " ".join(out)
    if kind == 2:  # misspelt
        chars = list(e.reference)
        for _ in range(rng.randint(1, 6)):
            chars[rng.randrange(len(chars))] = rng.choice("aeiouxyz")
        return "".join(chars)
    if kind == 3:  # cut short
        return " ".join(ref[: rng.randint(1, len(ref) - 1)])
    if kind == 4:  # an invented name or date
        return e.reference + " " + rng.choice(["Paris", "Marie Dupont", "en 1987", "Londres 42"])
    if kind == 5:  # an accepted variant
        return e.variants[0]
    return e.reference


def build_study(path: Path, *, noise: float = 0.1, seed: int = 3, language: str = "fra",
                raters: tuple[str, ...] = RATERS, esa_rater: str | None = None) -> Workspace:
    """The workspace at ``path``: corpus ``c`` (40 entries), runs ``sys0``..``sys4`` scored, rated by ``raters``.

    Every rater's adequacy and fluency are ``round(1 + 4 (0.1 + 0.8 y + e))`` clipped to 1-5, ``y``
    the true weighted sum of the entry's normalised inputs and ``e`` normal noise (the ratings
    span 1.4-4.6 before the noise: few are clipped); ``esa_rater`` gives a direct ESA score
    ``round(100 (0.1 + 0.8 y + e))`` instead."""
    rng = random.Random(seed)
    entries = []
    for i in range(N_ENTRIES):
        k = 6 + i % 5
        start = i % (len(FR) - k)
        ref = FR[start:start + k]
        variant = " ".join(ref[:-2] + [ref[-1], ref[-2]])
        entries.append(Entry(id=f"e{i:02d}", source=" ".join(EN[start:start + k]), reference=" ".join(ref),
                             variants=[variant]))
    ws = Workspace(path)
    repo.add_corpus(ws, Corpus(corpus_id="c", version="2", language_pair=LanguagePair(source="eng", target=language),
                               entries=entries))
    for r in range(N_RUNS):
        outputs = [Output(id=e.id, predicted=_variant(rng, e, rng.randrange(6))) for e in entries]
        repo.add_run(ws, Run(meta=RunMeta(run_id=f"sys{r}", model_slug=f"m{r}"), corpus_id="c", outputs=outputs))
        score_workspace_run(ws, f"sys{r}", metrics=METRICS, n_bootstrap=30, seed=7)
    for rid in raters:
        J.add_reviewer(ws, Reviewer(reviewer_id=rid, name=rid.title(), languages=[language]))
    noise_rng = np.random.default_rng(seed)
    for r in range(N_RUNS):
        run_id = f"sys{r}"
        values = entry_values_bulk(ws, run_id, METRICS)
        for e in entries:
            y = 0.1 + 0.8 * sum(TRUE_WEIGHTS[KEYS[m]] * normalise(KEYS[m], values[m][e.id]) for m in METRICS)
            for rid in raters:
                if rid == esa_rater:
                    esa = int(round(100 * min(1.0, max(0.0, y + noise_rng.normal(0, noise)))))
                    J.record_judgment(ws, Judgment(reviewer_id=rid, run_id=run_id, entry_id=e.id, task="A",
                                                   payload={"esa_score": esa}))
                    continue
                a, f = (int(min(5, max(1, round(1 + 4 * (y + noise_rng.normal(0, noise)))))) for _ in range(2))
                J.record_judgment(ws, Judgment(reviewer_id=rid, run_id=run_id, entry_id=e.id, adequacy=a, fluency=f))
    return ws
