"""A language standard the application does not ship: a linter for the made-up language ``zzx``.

Its id does not follow any naming pattern the application could guess; only its declared role
(``equivalence_verdict``) says what it is. Resolved as ``tests.scoring.role_metrics:Name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from mteval_gui.domain.plugin import StandardsPlugin
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


ZZX_ENTRIES = [("e1", "the dog", "a b"), ("e2", "the cat sleeps", "c d e"), ("e3", "we eat", "f g"),
               ("e4", "they sing", "h")]
ZZX_OUTPUTS = ["a b", "c x e", "f", "h i"]
# the plugin package's declaration (its entry point's object); its card is zzx_cards/zzx.json
PLUGIN = StandardsPlugin(name="zzx_standard", packages=["tests.scoring.role_metrics"], cards="zzx_cards")


def install_zzx_plugin(monkeypatch) -> None:
    """Make this module an installed plugin package (entry point ``zzx_standard``) for one test."""
    import importlib.metadata

    from mteval_gui import standards

    found = standards._entry_points()
    ep = importlib.metadata.EntryPoint("zzx_standard", f"{__name__}:PLUGIN", standards.ENTRY_POINT_GROUP)
    monkeypatch.setattr(standards, "_entry_points", lambda: [*found, (ep, "zzx-standard", "1.0", False)])
    standards.refresh_plugins()
    assert standards.installed_plugins().get("zzx_standard") is not None, standards.installed_plugins().problems


def uninstall_zzx_plugin() -> None:
    from mteval_gui import standards

    standards.refresh_plugins()


def make_zzx_workspace(path, monkeypatch):
    """A workspace with a 4-entry eng→zzx corpus and one run scored with the zzx plugin's linter
    (the plugin must be installed, :func:`install_zzx_plugin`)."""
    from mteval_gui.app.scoring import score_workspace_run
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo

    ws = Workspace(path)
    repo.add_corpus(ws, Corpus(corpus_id="zz", language_pair=LanguagePair(source="eng", target="zzx"),
                               entries=[Entry(id=i, source=s, reference=r) for i, s, r in ZZX_ENTRIES]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="zrun", model_slug="zmodel"), corpus_id="zz",
                         outputs=[Output(id=e[0], predicted=p) for e, p in zip(ZZX_ENTRIES, ZZX_OUTPUTS, strict=True)]))
    score_workspace_run(ws, "zrun", metrics=["core.exact", "core.equivalent", "core.chrf", "core.length_ratio",
                                             "core.hallucination", LINTER_ID], n_bootstrap=50)
    return ws


class OddVerdictMetric(BaseMetric):
    """A semantic validator whose per-entry detail does not fit the Verdict model (classes is a string)."""

    info: ClassVar[MetricInfo] = MetricInfo(
        id="zzx.odd", version="1", display_name="Odd", scale="0-1", produces=("semantic_score",))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        return [EntryScore(0.5, detail={"verdict": "PARTIAL", "classes": "not-a-list"}) for _ in items]
