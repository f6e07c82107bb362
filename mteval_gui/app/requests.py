"""The scoring request of a run on a corpus (no workspace: ``mteval evaluate`` builds its
request here without loading the store; workspace runs come through
:func:`mteval_gui.app.scoring.build_request`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Corpus
from mteval_gui.domain.run import Run
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import CardError
from mteval_gui.scoring.runner import DEFAULT_BATCH_SIZE, ScoringRequest
from mteval_gui.scoring.stats import DEFAULT_BOOTSTRAP, DEFAULT_SEED

__all__ = ["make_request"]


def _language_card(corpus_id: str, side: str, code: str) -> tuple[LanguageCard | None, str | None]:
    """(card, sha256) of a corpus language; (None, None) when no card exists (generic scoring).

    A code that is not ISO 639-3 and a card that exists but has problems are refused
    (:class:`CardError`): scoring never goes on with a card it silently dropped.
    """
    from mteval_gui.cards import card_info, code_problem

    problem = code_problem(code)
    if problem is not None:
        raise CardError(f"corpus {corpus_id!r}: {side} {problem}; no language card is looked up for it")
    try:
        info = card_info(code)
    except CardError:
        return None, None
    if info.card is None or not info.ok:
        raise CardError(f"the {side} language card cannot be used (fix it or remove it; `mteval cards validate`)",
                        card=str(info.path), problems=list(info.problems))
    return info.card, info.sha256


def make_request(corpus: Corpus, run: Run, *, corpus_sha256: str | None, options: ScoringOptions,
                 glossary: Mapping[str, Sequence[str]] | None = None, metrics: Sequence[str] | None = None,
                 exclude: Sequence[str] = (), params: Mapping[str, Any] | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, seed: int = DEFAULT_SEED,
                 n_bootstrap: int = DEFAULT_BOOTSTRAP) -> ScoringRequest:
    """The :class:`ScoringRequest` of a run on a corpus: the language cards of both sides (and the
    target card's sha256), the options in the form metrics read them. Workspace runs and one-shot
    evaluations are both built here."""
    target, source = corpus.language_pair.target, corpus.language_pair.source
    card, card_sha = _language_card(corpus.corpus_id, "target", target)
    source_card, _ = _language_card(corpus.corpus_id, "source", source)
    return ScoringRequest(
        run_id=run.meta.run_id, corpus=corpus, run=run, target_card=card, source_card=source_card,
        glossary={str(k): list(v) for k, v in (glossary or {}).items()}, include=list(metrics) if metrics else None,
        exclude=tuple(exclude), params=dict(params or {}), options=options.to_context(), batch_size=batch_size,
        seed=seed, n_bootstrap=n_bootstrap, card_sha256=card_sha, corpus_sha256=corpus_sha256,
    )
