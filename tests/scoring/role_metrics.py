"""A language standard the application does not ship: a linter for the made-up language ``zzx``.

Its id does not follow any naming pattern the application could guess; only its declared role
(``equivalence_verdict``) says what it is. Resolved as ``tests.scoring.role_metrics:Name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryInput, EntryScore, MetricInfo, ScoringContext

LINTER_ID = "zzx.checker"


class ZzxChecker(BaseMetric):
    """EQUIVALENT when the output has as many words as the reference (class WORD_COUNT), else MISS."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id=LINTER_ID, version="1", display_name="Zzx checker (equivalent match)", scale="0-1",
        needs_reference=True, produces=("equivalent_match_rate", "equivalent_matches"),
        role="equivalence_verdict", label="Zzx checker", labels={"fr": "Vérificateur zzx"}, validation="heuristic",
    )

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for it in items:
            same = len(it.predicted.split()) == len((it.entry.reference or "").split())
            detail = {"verdict": "EQUIVALENT" if same else "MISS", "classes": ["WORD_COUNT"] if same else [],
                      "explanation": "same number of words" if same else "different number of words"}
            out.append(EntryScore(1.0 if same else 0.0, detail=detail))
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        hits = sum(1 for e in per_entry if e.value == 1.0)
        return CorpusScore({"equivalent_match_rate": hits / len(per_entry), "equivalent_matches": hits})


ZZX_CARD = {
    "code": "zzx", "name": "Zzx",
    "evalMetrics": [{"id": LINTER_ID, "python_name": "tests.scoring.role_metrics:ZzxChecker"}],
}
ZZX_ENTRIES = [("e1", "the dog", "a b"), ("e2", "the cat sleeps", "c d e"), ("e3", "we eat", "f g"),
               ("e4", "they sing", "h")]
ZZX_OUTPUTS = ["a b", "c x e", "f", "h i"]


def make_zzx_workspace(path, cards_dir, monkeypatch):
    """A workspace with a 4-entry eng→zzx corpus and one run scored with the zzx card's linter.

    The card lives in ``cards_dir`` (``MTEVAL_CARDS_DIR`` is pointed at it)."""
    import json
    from pathlib import Path

    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo

    Path(cards_dir).mkdir(parents=True, exist_ok=True)
    (Path(cards_dir) / "zzx.json").write_text(json.dumps(ZZX_CARD), encoding="utf-8")
    monkeypatch.setenv("MTEVAL_CARDS_DIR", str(cards_dir))
    ws = Workspace(path)
    repo.add_corpus(ws, Corpus(corpus_id="zz", language_pair=LanguagePair(source="eng", target="zzx"),
                               entries=[Entry(id=i, source=s, reference=r) for i, s, r in ZZX_ENTRIES]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="zrun", model_slug="zmodel"), corpus_id="zz",
                         outputs=[Output(id=e[0], predicted=p) for e, p in zip(ZZX_ENTRIES, ZZX_OUTPUTS, strict=True)]))
    score_workspace_run(ws, "zrun", metrics=["core.exact", "core.equivalent", "core.chrf", "core.length_ratio",
                                             "core.hallucination", LINTER_ID], n_bootstrap=50)
    return ws
