"""Composite score, quality tiers and score caveats (SPEC §5, LYSS §4–5).

- Every component is normalised to [0, 1] (chrF++/100, 1 − code-switching, 1 − hallucination,
  others as they are) and clamped; a NaN or infinite value is an error, never silently
  dropped.
- Profile A applies when an analyzer ran (``fst_acceptance_rate`` is a number), else
  Profile B. ``composite = Σ w·v / Σ w`` over the profile's metrics that have a value
  (renormalisation), rounded to 4 places; null when none has a value.
- ``morphological_accuracy`` enters only when ``morph_coverage ≥ 0.25``.
- **Not enough metrics**: when the metrics with a value carry less than
  :data:`MIN_WEIGHT_COVERAGE` (30 %) of the profile's weight, there is no composite and no
  tier, and the run card says why with the caveat ``composite_not_enough_metrics``:
  ``--metrics core.code_switching`` alone carries 0.10 of profile B, and a composite of it
  would present 1 − code-switching as quality; the behavioural metrics together (code-switching,
  hallucination, terminology, orthography) carry 0.25 of B and 0.15 of A. The threshold is the
  largest that keeps SPEC §5's check values composites (chrF++ and exact match carry 0.35 of
  B; FST, chrF++ and exact match 0.45 of A). The default metric set carries 0.70 of profile B
  without a semantic metric and 0.80–0.95 of profile A.
- The tier is read from the rounded composite: ≥ 0.85 fluent, ≥ 0.70 deployable, ≥ 0.50
  functional, ≥ 0.30 emerging, else baseline; null → unscored. Deployable and fluent are
  displayed "pending speaker review" until a review confirms the run.
- Caveats are computed from the entries and shown next to any composite.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mteval_gui.domain import score_keys
from mteval_gui.domain.runcard import Caveat, CompositeItem
from mteval_gui.errors import MtevalError
from mteval_gui.text import match_key

if TYPE_CHECKING:
    from numpy.typing import NDArray

PROFILES: dict[str, dict[str, float]] = score_keys.PROFILES  # the weights (SPEC §5), declared with the keys
PROFILE_A: dict[str, float] = PROFILES["A"]
PROFILE_B: dict[str, float] = PROFILES["B"]
# composite inputs are turned so that 1 is perfect, and 0-100 scales brought to 0-1
INVERTED = score_keys.lower_is_better()
SCALED_100 = frozenset(score_keys.keys_where_scale("0-100"))
MORPH_MIN_COVERAGE = 0.25
MIN_WEIGHT_COVERAGE = 0.30  # share of the profile's weight the metrics with a value must carry
ROUND_PLACES = 4

TIERS: tuple[tuple[float, str], ...] = ((0.85, "fluent"), (0.70, "deployable"), (0.50, "functional"),
                                        (0.30, "emerging"), (0.0, "baseline"))
REVIEW_GATED_TIERS = frozenset({"deployable", "fluent"})

# caveat thresholds
SOURCE_COPY_SHARE = 0.5
NEAR_CONSTANT_SHARE = 0.2
NEAR_CONSTANT_MIN = 3
LENGTH_DEFLATION = 0.75
LENGTH_INFLATION = 1.5
SMALL_SAMPLE = 30
WRONG_LANGUAGE_SHARE = 0.2  # share of entries wholly in another language than the target
SHORT_SEGMENT_TOKENS = 4  # BLEU is flagged when the median reference has fewer tokens


class CompositeError(MtevalError):
    """A composite input is not a finite number."""


def normalise(key: str, value: float) -> float:
    """A metric value on [0, 1], 1 = perfect. Raises CompositeError on NaN/inf."""
    v = float(value)
    if math.isnan(v) or math.isinf(v):
        raise CompositeError(f"{key}: value {value!r} is not a finite number; the composite cannot be computed")
    if key in SCALED_100:
        v = v / 100.0
    if key in INVERTED:
        v = 1.0 - v
    return min(1.0, max(0.0, v))


def choose_profile(scores: Mapping[str, Any]) -> str:
    """``A`` when an analyzer ran (an FST acceptance value exists), else ``B``."""
    return "A" if scores.get("fst_acceptance_rate") is not None else "B"


@dataclass
class CompositeResult:
    value: float | None
    profile: str
    breakdown: list[CompositeItem] = field(default_factory=list)
    excluded: dict[str, str] = field(default_factory=dict)  # metric -> why it did not count
    raw_value: float | None = None  # before rounding
    weight_coverage: float = 0.0  # share of the profile's weight carried by the metrics with a value

    @property
    def not_enough_metrics(self) -> bool:
        """Some metric has a value, but they carry less than :data:`MIN_WEIGHT_COVERAGE` of the weight."""
        return self.value is None and self.weight_coverage > 0.0


def composite_inputs(scores: Mapping[str, Any], profile: str,
                     weights: Mapping[str, float] | None = None) -> tuple[dict[str, float], dict[str, str]]:
    """The profile's metrics that count, with their raw values; and why the others do not."""
    weights = PROFILES[profile] if weights is None else weights
    used: dict[str, float] = {}
    excluded: dict[str, str] = {}
    for key in weights:
        v = scores.get(key)
        if v is None:
            excluded[key] = "no value"
            continue
        if key == "morphological_accuracy":
            cov = scores.get("morph_coverage")
            if cov is None or float(cov) < MORPH_MIN_COVERAGE:
                excluded[key] = f"morph_coverage {cov if cov is None else round(float(cov), 4)} < {MORPH_MIN_COVERAGE}"
                continue
        used[key] = float(v)
    return used, excluded


def compute_composite(scores: Mapping[str, Any], profile: str | None = None,
                      weights: Mapping[str, float] | None = None) -> CompositeResult:
    """Weighted, renormalised composite with each metric's weight share and contribution.

    ``weights`` (a language card's calibrated profile) replace the seed profile's; the rules of
    the profile (renormalisation, morphology's coverage, the 30 % weight floor) are the same."""
    profile = profile or choose_profile(scores)
    if profile not in PROFILES:
        raise CompositeError(f"unknown composite profile {profile!r}")
    weights = dict(PROFILES[profile]) if weights is None else dict(weights)
    used, excluded = composite_inputs(scores, profile, weights)
    if not used:
        return CompositeResult(None, profile, [], excluded)
    norm = {k: normalise(k, v) for k, v in used.items()}
    total_w = sum(weights[k] for k in used)
    coverage = total_w / sum(weights.values())
    if coverage < MIN_WEIGHT_COVERAGE - 1e-9:
        return CompositeResult(None, profile, [], excluded, None, coverage)
    raw = sum(weights[k] * norm[k] for k in used) / total_w
    items = [
        CompositeItem(metric=k, value=used[k], normalised=norm[k], weight=weights[k],
                      weight_share=weights[k] / total_w, contribution=weights[k] * norm[k] / total_w)
        for k in weights if k in used
    ]
    return CompositeResult(round(raw, ROUND_PLACES), profile, items, excluded, raw, coverage)


def not_enough_metrics_caveat(result: CompositeResult) -> Caveat | None:
    """``composite_not_enough_metrics`` when the metrics with a value carry too little of the profile's weight."""
    if not result.not_enough_metrics:
        return None
    weights = PROFILES[result.profile]
    have = sorted(k for k in weights if k not in result.excluded)
    return Caveat(code="composite_not_enough_metrics",
                  message=f"not enough metrics for a composite: {', '.join(have)} "
                          f"{'carry' if len(have) > 1 else 'carries'} "
                          f"{result.weight_coverage:.0%} of profile {result.profile}'s weight "
                          f"(< {MIN_WEIGHT_COVERAGE:.0%}); no composite and no tier",
                  detail={"profile": result.profile, "metrics": have,
                          "weight_coverage": round(result.weight_coverage, 4), "threshold": MIN_WEIGHT_COVERAGE})


def composite_vectorised(values: Mapping[str, NDArray[Any]], profile: str,
                         weights: Mapping[str, float] | None = None) -> NDArray[Any]:
    """Vectorised composite (unrounded) for bootstrap resamples: ``values`` are RAW metric
    values per resample (shape ``(k,)``); non-finite resample values drop out of that resample.
    ``weights`` replace the profile's (a calibrated profile)."""
    import numpy as np  # only resampling needs it: reading a run card does not

    weights = PROFILES[profile] if weights is None else weights
    num: NDArray[Any] | None = None
    den: NDArray[Any] | None = None
    for key, arr in values.items():
        a = np.asarray(arr, dtype=np.float64)
        if key in SCALED_100:
            a = a / 100.0
        if key in INVERTED:
            a = 1.0 - a
        ok = np.isfinite(a)
        a = np.clip(np.where(ok, a, 0.0), 0.0, 1.0)
        w = weights[key] * ok
        num = w * a if num is None else num + w * a
        den = w if den is None else den + w
    if num is None or den is None:
        return np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def quality_tier(value: float | None, thresholds: Mapping[str, float] | None = None) -> str:
    """Tier label of a (rounded) composite; ``unscored`` for null. ``thresholds`` (tier -> lowest
    composite, a language card's calibrated tiers) replace :data:`TIERS`."""
    if value is None:
        return "unscored"
    table = TIERS if thresholds is None else tuple(sorted(((float(t), k) for k, t in thresholds.items()),
                                                          reverse=True))
    for threshold, label in table:
        if value >= threshold:
            return label
    return "baseline"


def tier_display(tier: str | None, confirmed: bool | None = None) -> str:
    """How a tier is shown: deployable/fluent stay "pending speaker review" until confirmed."""
    if not tier:
        return "unscored"
    if tier in REVIEW_GATED_TIERS:
        if confirmed is True:
            return f"{tier} (confirmed by speaker review)"
        if confirmed is False:
            return f"{tier} (not confirmed by speaker review)"
        return f"{tier} (pending speaker review)"
    return tier


# ----------------------------------------------------------------------------- caveats


def compute_caveats(sources: Sequence[str], outputs: Sequence[str], references: Sequence[str | None], *,
                    length_ratio: float | None = None) -> list[Caveat]:
    """Caveats of one run (SPEC §5). Inputs are aligned per entry; empty output = ``""``."""
    n = len(sources)
    caveats: list[Caveat] = []
    if n == 0:
        return caveats
    out_keys = [match_key(o) for o in outputs]
    src_keys = [match_key(s) for s in sources]
    ref_keys = [match_key(r) if r else "" for r in references]
    copies = sum(1 for o, s in zip(out_keys, src_keys, strict=True) if o and o == s)
    if copies / n >= SOURCE_COPY_SHARE:
        caveats.append(Caveat(code="source_copy",
                              message=f"{copies} of {n} outputs ({copies / n:.0%}) copy their source",
                              detail={"copies": copies, "entries": n, "share": copies / n}))
    counts = Counter(k for k in out_keys if k)
    if counts:
        modal, _ = counts.most_common(1)[0]
        # entries where the modal output is not justified by the entry's own reference
        reused = [i for i, k in enumerate(out_keys) if k == modal and ref_keys[i] != modal]
        distinct_sources = len({src_keys[i] for i in reused})
        if len(reused) >= NEAR_CONSTANT_MIN and distinct_sources >= NEAR_CONSTANT_MIN \
                and len(reused) / n >= NEAR_CONSTANT_SHARE:
            shown = next(outputs[i] for i in reused)
            caveats.append(
                Caveat(
                    code="near_constant_output",
                    message=f"one output is reused for {len(reused)} of {n} different sources: {shown[:60]!r}",
                    detail={"output": shown, "entries": len(reused), "share": len(reused) / n},
                )
            )
    if length_ratio is not None and math.isfinite(length_ratio):
        if length_ratio < LENGTH_DEFLATION:
            caveats.append(
                Caveat(
                    code="length_deflation",
                    message=f"outputs are short: mean length ratio {length_ratio:.2f} < {LENGTH_DEFLATION}",
                    detail={"length_ratio": length_ratio, "threshold": LENGTH_DEFLATION},
                )
            )
        elif length_ratio > LENGTH_INFLATION:
            caveats.append(
                Caveat(
                    code="length_inflation",
                    message=f"outputs are long: mean length ratio {length_ratio:.2f} > {LENGTH_INFLATION}",
                    detail={"length_ratio": length_ratio, "threshold": LENGTH_INFLATION},
                )
            )
    if n < SMALL_SAMPLE:
        caveats.append(Caveat(code="small_sample", message=f"only {n} entries (< {SMALL_SAMPLE}); intervals are wide",
                              detail={"entries": n, "threshold": SMALL_SAMPLE}))
    return caveats


def wrong_language_caveat(wrong: int, total: int, by_language: Mapping[str, int],
                          target: str) -> Caveat | None:
    """``wrong_language_output`` when ≥ 20 % of the entries are wholly in another language than the target."""
    if total <= 0 or wrong / total < WRONG_LANGUAGE_SHARE:
        return None
    langs = ", ".join(f"{code} ({count})" for code, count in sorted(by_language.items(), key=lambda kv: -kv[1]))
    return Caveat(code="wrong_language_output",
                  message=f"{wrong} of {total} outputs ({wrong / total:.0%}) are wholly in another language than "
                          f"{target}: {langs}; they count 1.0 in code_switching_rate",
                  detail={"entries": wrong, "total": total, "share": wrong / total, "by_language": dict(by_language),
                          "threshold": WRONG_LANGUAGE_SHARE, "target": target})


EMBEDDING_BLIND_TO = ("wrong_language_output", "source_copy")


def embedding_language_caveat(embedding_similarity: float | None, caveats: Sequence[Caveat]) -> Caveat | None:
    """``embedding_blind_to_language`` beside a calibrated embedding similarity when the run's outputs
    are in another language or copy their source: multilingual embeddings place a sentence and its
    translation close together, so such outputs still score well (a French copy of the French source
    scores 0.399 on 300 MAFAND fr→ewe lines, the best Ewe system 0.600)."""
    if embedding_similarity is None:
        return None
    because = [c for c in caveats if c.code in EMBEDDING_BLIND_TO]
    if not because:
        return None
    why = "; ".join(c.message for c in because)
    return Caveat(code="embedding_blind_to_language",
                  message=f"embedding similarity {embedding_similarity:.3f} does not see the language of the outputs "
                          f"({why}): multilingual embeddings score a copy or a translation in another language as "
                          f"similar",
                  detail={"metric": "embedding_similarity", "because": [c.code for c in because]})


def short_segments_caveat(median_tokens: float | None) -> Caveat | None:
    """``short_segments`` when the median reference has fewer than 4 tokens (BLEU's 4-grams rarely exist)."""
    if median_tokens is None or median_tokens >= SHORT_SEGMENT_TOKENS:
        return None
    return Caveat(code="short_segments",
                  message=f"the median reference has {median_tokens:g} token{'s' if median_tokens != 1 else ''} "
                          f"(< {SHORT_SEGMENT_TOKENS}): BLEU's 4-grams hardly exist in such segments, so BLEU says "
                          f"little; it is left out of comparisons and of validation correlations unless asked for",
                  detail={"median_reference_tokens": median_tokens, "threshold": SHORT_SEGMENT_TOKENS,
                          "metric": "bleu"})


def has_short_segments(card: Mapping[str, Any]) -> Caveat | None:
    """The ``short_segments`` caveat of a run card (dict form), if it has one."""
    for c in card.get("score_caveats") or []:
        code = c.get("code") if isinstance(c, Mapping) else getattr(c, "code", None)
        if code == "short_segments":
            return c if isinstance(c, Caveat) else Caveat.model_validate(c)
    return None


def errors_caveat(errors: int, total: int) -> Caveat | None:
    if errors <= 0:
        return None
    return Caveat(code="errors_scored_empty",
                  message=f"{errors} of {total} entries failed or are missing; they are scored as empty outputs",
                  detail={"errors": errors, "entries": total})


def composite_metric_set(card: Mapping[str, Any]) -> tuple[str | None, frozenset[str]]:
    """(profile, metrics that counted) of a run card dict or RunCard-like mapping."""
    profile = card.get("composite_profile")
    items = card.get("composite_breakdown") or []
    return profile, frozenset(i["metric"] if isinstance(i, Mapping) else i.metric for i in items)


def coverage_differs_caveat(cards: Mapping[str, Mapping[str, Any]]) -> Caveat | None:
    """``metric_coverage_differs`` when compared runs' composites count different metrics."""
    sets = {run_id: composite_metric_set(c) for run_id, c in cards.items()}
    distinct = set(sets.values())
    if len(distinct) <= 1:
        return None
    union = frozenset().union(*(s for _p, s in distinct))
    detail = {run_id: {"profile": p, "missing": sorted(union - s)} for run_id, (p, s) in sets.items()}
    return Caveat(
        code="metric_coverage_differs",
        message="the compared composites do not count the same metrics; compare shared metrics with paired tests",
        detail=detail,
    )
