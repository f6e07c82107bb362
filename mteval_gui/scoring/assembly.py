"""Stage 3 of a scoring job: composite and tier, intervals, breakdowns, caveats, the run card.

:func:`assemble` turns a merged :class:`~mteval_gui.scoring.job.ScoringJob` into a
:class:`~mteval_gui.scoring.job.RunResult`:

- composite, profile and tier (:mod:`~mteval_gui.scoring.composite`), cost and speed;
- percentile-bootstrap intervals (:data:`CI_KEYS`, the composite, per difficulty tier) and
  breakdowns by difficulty and provenance, from the per-entry statistics;
- caveats: computed from the entries, the metrics' own, COMET's coverage;
- each metric's declaration (``metric_info``), its validation level for the language by id and
  by key (``metric_validation``) and whether the composite is an engineering estimate;
- one ``results[]`` item per entry, whose columns come from the metric of the right role
  (the one that supplied the key first);
- the run card, checked against its schema, and one metric row per metric.

The run card is the scoring result only: its ``human_review`` block is empty and its displayed
tier that of a run no speaker has confirmed; a workspace joins the review status of the moment
when it reads a card (:mod:`mteval_gui.app.review_status`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
from pydantic import ValidationError

from mteval_gui import __version__
from mteval_gui.domain.details import Verdict, WordAnalysis
from mteval_gui.domain.metrics import MetricDescriptor, MetricRole
from mteval_gui.domain.run import RunMeta
from mteval_gui.domain.runcard import (
    CI,
    DEFAULT_CONDITION,
    Caveat,
    CompositeCalibration,
    CompositeItem,
    CompositeValidation,
    DatasetInfo,
    EmbeddingPair,
    EntryResult,
    Fingerprint,
    FstInfo,
    RunCard,
    Scores,
    Totals,
)
from mteval_gui.domain.score_keys import BY_NAME, keys_where, ranked
from mteval_gui.scoring import composite as comp
from mteval_gui.scoring import costspeed, merge
from mteval_gui.scoring.job import MetricState, RunResult, ScoringJob, ScoringRequest, json_safe
from mteval_gui.scoring.plugins import EntryScore
from mteval_gui.scoring.runcard import (
    LYSS_SCORE_KEYS,
    RunCardInvalid,
    add_seed_aliases,
    ensure_valid,
    fingerprint,
    harness_fingerprint,
    harness_fingerprint_components,
    validate_run_card,
)
from mteval_gui.scoring.sink import MetricRow
from mteval_gui.scoring.stats import EntryStats, Interval, Quantity, bootstrap_ci, by_group_ci
from mteval_gui.text import NORMALISATION_POLICY

# keys with a bootstrap interval from their per-entry statistics (the composite's is computed apart),
# in the seed's order; those with one per difficulty tier too; those broken down by difficulty and
# provenance; those whose metric's signature is recorded (mteval_gui.domain.score_keys)
CI_KEYS: tuple[str, ...] = tuple(k for k in ranked("interval") if k != "composite")
TIER_CI_KEYS: tuple[str, ...] = tuple(k for k in CI_KEYS if BY_NAME[k].tier_interval)
RESULTS_SCHEMA_SAMPLE = 50  # results[] items checked against the JSON Schema when a card is built (all by pydantic)
BREAKDOWN_KEYS: tuple[str, ...] = keys_where("breakdown")
SIGNATURE_KEYS: tuple[str, ...] = keys_where("signature")
_BULKY_DETAIL = frozenset({"analyses", "words", "stats", "tokens"})


@dataclass
class _Composite:
    profile: str
    value: float | None
    breakdown: list[CompositeItem]
    used: dict[str, float]  # the inputs it counts, with their values
    quantity: Quantity | None  # its per-entry form (intervals, breakdowns)
    caveat: Caveat | None = None  # why there is no composite although some metric has a value
    calibration: CompositeCalibration | None = None  # the card's calibrated weights and tiers, when used
    not_applied: Caveat | None = None  # why the card's calibrated profile was not used


def assemble(job: ScoringJob) -> RunResult:
    """The run card and metric rows of a merged job (see the module docstring)."""
    request = job.request
    cmp = _composite(job)
    info = {st.ref.id: st.info.descriptor(card=request.target_card, builtin=not st.language)
            for st in job.states if st.info is not None}
    validation = metric_validation(info, job.producers)
    if request.result_models:
        card = _run_card(job, cmp, info, validation, entry_results(job))
        checked = ensure_valid(card, results_sample=RESULTS_SCHEMA_SAMPLE)
    else:  # results[] made when read, as JSON: each item is checked by its model, then the model is dropped
        card = _run_card(job, cmp, info, validation, [])
        head = card.model_dump(mode="json")
        results = ResultsJson(job)
        problems = validate_run_card({**head, "results": results[:RESULTS_SCHEMA_SAMPLE]},
                                     results_sample=RESULTS_SCHEMA_SAMPLE)
        if problems:
            raise RunCardInvalid(problems)
        checked = {**head, "results": results}
    return RunResult(card, metric_rows(job, info), job.per_entry, job.entry_stats, job.producers, job.availability,
                     unknown_ids=list(job.unknown), card_json=checked)


# --------------------------------------------------------------------------- composite and intervals


SEED_PROFILE = "seed"  # asks for the seed weights and tiers, whatever the card's default


def calibrated_profile(request: ScoringRequest, profile: str) -> tuple[CompositeCalibration | None, Caveat | None]:
    """The target card's calibrated profile the request asks for (by name, else the card's default):
    used when it weighs the inputs of ``profile`` (A with an analyzer, B without); else a caveat says
    why not. Naming a profile the card does not have is an error."""
    card = request.target_card
    name = request.composite_profile or (card.default_composite_profile if card is not None else None)
    if not name or name == SEED_PROFILE:
        return None, None
    decl = card.composite_profiles.get(name) if card is not None else None
    if decl is None:
        have = ", ".join(sorted(card.composite_profiles)) if card is not None else ""
        raise comp.CompositeError(f"the language card has no composite profile {name!r} (it has: {have or 'none'})")
    if decl.base != profile:
        return None, Caveat(code="composite_profile_not_applied",
                            message=f"the card's calibrated profile {name!r} weighs profile {decl.base}'s inputs; this "
                                    f"run's composite is profile {profile}'s: the seed weights and tiers are used",
                            detail={"profile": name, "base": decl.base, "run_profile": profile})
    return CompositeCalibration(name=name, base=decl.base, weights=dict(decl.weights), tiers=dict(decl.tiers),
                                fitted=(decl.evidence or {}).get("date")), None


def _composite(job: ScoringJob) -> _Composite:
    profile = comp.choose_profile(job.scores)
    calibration, not_applied = calibrated_profile(job.request, profile)
    weights = calibration.weights if calibration is not None else None
    cres = comp.compute_composite(job.scores, profile, weights)
    if cres.value is None:
        return _Composite(profile, None, [], {}, None, comp.not_enough_metrics_caveat(cres), calibration, not_applied)
    used = {item.metric: item.value for item in cres.breakdown}  # the inputs it counted, in profile order
    return _Composite(profile, cres.value, cres.breakdown, used,
                      merge.composite_quantity(profile, used, job.entry_stats, job.n, weights), None, calibration,
                      not_applied)


def _ci(interval: Interval) -> CI:
    return CI(**interval.as_dict())


def _intervals(job: ScoringJob, cmp: _Composite) -> tuple[dict[str, CI], dict[str, dict[str, CI]]]:
    """(intervals by key and of the composite, intervals by difficulty tier)."""
    request = job.request
    seed, b, alpha = request.seed, request.n_bootstrap, request.alpha
    cis: dict[str, CI] = {}
    for key in CI_KEYS:
        s = job.entry_stats.get(key)
        if s is not None and s.entries_scored() > 0:
            cis[key] = _ci(bootstrap_ci(s, n_bootstrap=b, alpha=alpha, seed=seed, n_entries=s.entries_scored()))
    if cmp.quantity is not None and cmp.value is not None:
        iv = bootstrap_ci(cmp.quantity, n_bootstrap=b, alpha=alpha, seed=seed)
        iv.score = cmp.value
        cis["composite"] = _ci(iv)
    difficulties = [it.entry.difficulty for it in job.items]
    by_tier: dict[str, dict[str, CI]] = {}
    for key in TIER_CI_KEYS:
        s = job.entry_stats.get(key)
        if s is None:
            continue
        for label, group_iv in by_group_ci(s, difficulties, n_bootstrap=b, alpha=alpha, seed=seed).items():
            by_tier.setdefault(label, {})[key] = _ci(group_iv)
    return cis, by_tier


def groups_breakdown(labels: Sequence[str | int | None], entry_stats: Mapping[str, EntryStats],
                     composite_q: Quantity | None) -> dict[str, dict[str, Any]]:
    """Per label (difficulty level, provenance): entries, each :data:`BREAKDOWN_KEYS` value, composite."""
    arr = np.array(["" if g is None else str(g) for g in labels], dtype=object)
    out: dict[str, dict[str, Any]] = {}
    for label in sorted({str(g) for g in labels if g is not None}, key=lambda s: (not s.isdigit(), s.zfill(8))):
        mask = arr == label
        row: dict[str, Any] = {"entries": int(mask.sum())}
        for key in BREAKDOWN_KEYS:
            s = entry_stats.get(key)
            if s is not None:
                sub = s.subset(mask)
                row[key] = sub.point() if sub.entries_scored() else None
        if composite_q is not None:
            v = composite_q.subset(mask).point()
            row["composite"] = None if v is None else round(v, comp.ROUND_PLACES)
        out[label] = row
    return out


# --------------------------------------------------------------------------- caveats and validation


def caveats(job: ScoringJob) -> list[Caveat]:
    """Caveats of the entries (source copies, constant outputs, lengths, sample size, errors), the
    metrics' own, COMET's when its model does not cover the language, and the embedding
    similarity's when outputs are in another language or copy their source."""
    sources: list[str] = []
    predicted: list[str] = []
    references: list[str | None] = []
    for it in job.items:  # the texts only: a large run's entries are not all held decoded
        sources.append(it.entry.source)
        predicted.append(it.predicted)
        references.append(it.entry.reference)
    out: list[Caveat] = comp.compute_caveats(sources, predicted, references,
                                             length_ratio=job.scores.get("length_ratio"))
    del sources, predicted, references
    ec = comp.errors_caveat(_errors(job), job.n)
    if ec is not None:
        out.append(ec)
    for st in job.states:
        cs = job.corpus_scores.get(st.ref.id)
        for c in (cs.caveats if cs is not None else []):
            out.append(c if c.code else c.model_copy(update={"code": st.ref.id}))
    comet_cs = job.corpus_scores.get(job.producers.get("comet_score", ""))
    if comet_cs is not None and comet_cs.covered is False and not any(
            c.code.startswith("comet") for c in out):
        out.append(Caveat(code="comet_language_not_covered",
                          message="COMET's encoder does not cover the target language; its score is not reliable",
                          detail={"model": job.scores.get("comet_model")}))
    blind = comp.embedding_language_caveat(job.scores.get("embedding_similarity"), out)
    if blind is not None:
        out.append(blind)
    return out


def metric_validation(info: Mapping[str, MetricDescriptor], producers: Mapping[str, str]) -> dict[str, Any]:
    """Validation level by metric id, and by key (the level of the metric that supplied it)."""
    levels: dict[str, Any] = {mid: d.validation for mid, d in info.items()}
    levels.update({key: info[mid].validation for key, mid in producers.items() if mid in info})
    return levels


def composite_validation(used: Mapping[str, float], levels: Mapping[str, str],
                         language: str) -> CompositeValidation | None:
    """Whether the composite is an engineering estimate: unless every input it counts is
    validated ``external`` for the language, it is."""
    if not used:
        return None
    inputs: dict[str, Any] = {key: levels.get(key, "unvalidated") for key in used}
    weak = {k: v for k, v in inputs.items() if v != "external"}
    if not weak:
        return CompositeValidation(engineering_estimate=False, inputs=inputs,
                                   message=f"every input is validated against human judgments for {language}")
    listed = ", ".join(f"{k} ({v})" for k, v in weak.items())
    return CompositeValidation(
        engineering_estimate=True, inputs=inputs,
        message=f"engineering estimate: not validated against human judgments for {language}: {listed}")


# --------------------------------------------------------------------------- run card


def _errors(job: ScoringJob) -> int:
    return sum(1 for o in job.outputs if o.error) + len(job.missing)


def _scores(job: ScoringJob, cmp: _Composite, total_tokens: Any,
            cost_per_entry: Any) -> Scores:
    n, errors = job.n, _errors(job)
    tier = comp.quality_tier(cmp.value, cmp.calibration.tiers if cmp.calibration is not None else None)
    speed = costspeed.speed_scores(job.outputs, elapsed_seconds=job.request.run.meta.elapsed_seconds, n_entries=n,
                                   total_tokens=total_tokens)
    cis, by_tier = _intervals(job, cmp)
    difficulties = [it.entry.difficulty for it in job.items]
    values: dict[str, Any] = dict.fromkeys(LYSS_SCORE_KEYS)
    values.update(job.scores)
    values.update({
        "composite": cmp.value, "quality_tier": tier,
        "cost_adjusted": costspeed.cost_adjusted(cmp.value, cost_per_entry),
        **speed,
        "confidence_intervals": cis, "confidence_intervals_by_tier": by_tier,
        "by_difficulty": groups_breakdown(difficulties, job.entry_stats, cmp.quantity),
        "by_provenance": groups_breakdown([it.entry.provenance_label for it in job.items], job.entry_stats,
                                          cmp.quantity),
        "total": n, "evaluated": n - errors, "errors": errors,
        "empty_outputs": sum(1 for it in job.items if not it.predicted.strip()), "missing_outputs": len(job.missing),
        "quality_tier_display": comp.tier_display(tier),  # no review: joined when the card is read
    })
    if values.get("comet_model") is None:
        values["comet_model"] = ""
    for ik in ("exact_matches", "equivalent_matches", "fst_accepted"):
        if values.get(ik) is not None:
            values[ik] = int(values[ik])
    add_seed_aliases(values)
    return Scores(**values)


def _signatures(job: ScoringJob) -> dict[str, str]:
    out: dict[str, str] = {}
    for key in SIGNATURE_KEYS:
        cs = job.corpus_scores.get(job.producers.get(key, ""))
        if cs is not None and cs.signature:
            out[key] = cs.signature
    return out


def _fst_info(job: ScoringJob) -> FstInfo:
    """The analyzer files of the metric that supplied FST acceptance (else any ``fst_analysis`` metric)."""
    candidates = [job.producers.get("fst_acceptance_rate")] + [
        s.ref.id for s in job.states if s.info is not None and s.info.role == "fst_analysis"]
    for mid in candidates:
        cs = job.corpus_scores.get(mid or "")
        if cs is not None and cs.analyzer is not None:
            return cs.analyzer.model_copy()
    return FstInfo()


def with_harness_fingerprint(card: RunCard, meta: RunMeta) -> RunCard:
    """A card of an older version (``score_fingerprint`` absent: its ``fingerprint`` is this tool's
    digest) brought to the harness recipe: that digest moves to ``score_fingerprint``, the
    experiment fields come from the run's metadata. Other cards are returned unchanged."""
    if card.score_fingerprint is not None:
        return card
    fields = _experiment(meta)
    data = {**card.model_dump(mode="json"), **fields}
    components = harness_fingerprint_components(data)
    return card.model_copy(update={
        **fields, "score_fingerprint": card.fingerprint,
        "fingerprint": Fingerprint(hash=harness_fingerprint(components), components=components)})


def _experiment(meta: RunMeta) -> dict[str, Any]:
    """The card fields of the harness fingerprint that describe how the run was made: condition
    (:data:`DEFAULT_CONDITION` when the run's file names none), temperature, system prompt hash,
    and for a run read from a harness report its batch size and tools switch, with the harness's
    defaults (25, off); otherwise those two come from the run's metadata, null when absent."""
    extra = meta.model_extra or {}
    config = extra.get("harness_config")
    if isinstance(config, Mapping):
        batch, tools = config.get("batch_size", 25), config.get("tools_enabled", False)
    else:
        batch, tools = extra.get("batch_size"), extra.get("tools_enabled")
    sha = meta.system_prompt_sha256
    if sha is None and meta.system_prompt:
        sha = hashlib.sha256(meta.system_prompt.encode("utf-8")).hexdigest()
    return {
        "condition": meta.condition or DEFAULT_CONDITION, "temperature": meta.temperature,
        "system_prompt_sha256": sha,
        "batch_size": batch if isinstance(batch, int) and not isinstance(batch, bool) else None,
        "tools_enabled": tools if isinstance(tools, bool) else None,
    }


def _run_card(job: ScoringJob, cmp: _Composite, info: dict[str, MetricDescriptor],
              validation: dict[str, Any], results: list[EntryResult]) -> RunCard:
    request = job.request
    corpus, run = request.corpus, request.run
    n = job.n
    tokens = costspeed.token_totals(job.outputs, n)
    costs = costspeed.cost_totals(job.outputs, pricing=run.meta.pricing, n_entries=n,
                                  source_chars=sum(len(it.entry.source) for it in job.items),
                                  total_tokens=tokens["total_tokens"])
    scores = _scores(job, cmp, tokens["total_tokens"], costs["cost_per_entry_usd"])
    signatures = _signatures(job)
    fst = _fst_info(job)
    fp_components = {
        "corpus_sha256": request.corpus_sha256, "run_sha256": run.content_sha256, "config_hash": job.config_hash,
        "language_card_sha256": request.card_sha256, "analyzer_sha256": fst.sha256,
        "app_version": __version__, "sacrebleu_signatures": signatures, "seed": request.seed,
        "n_bootstrap": request.n_bootstrap,
    }
    lp = f"{corpus.language_pair.source}-{corpus.language_pair.target}"
    experiment = _experiment(run.meta)
    fp_harness = harness_fingerprint_components({
        **experiment, "dataset": {"sha256": request.corpus_sha256}, "model_slug": run.meta.model_slug,
        "harness_version": __version__})
    return RunCard(
        run_id=request.run_id, harness_version=__version__,
        timestamp=datetime.now(UTC).isoformat(timespec="seconds"),
        elapsed_seconds=run.meta.elapsed_seconds, model_slug=run.meta.model_slug, model_id=run.meta.model_id,
        **experiment,
        dataset=DatasetInfo(id=corpus.corpus_id, version=corpus.version, language_pair=lp,
                            sha256=request.corpus_sha256, entry_count=n,
                            speaker_variants=list(request.speaker_variants)),
        scores=scores, totals=Totals(**tokens, **costs), corpus_bleu=scores.bleu,
        fingerprint=Fingerprint(hash=harness_fingerprint(fp_harness), components=json_safe(fp_harness)),
        score_fingerprint=Fingerprint(hash=fingerprint(fp_components), components=json_safe(fp_components)),
        sacrebleu_signatures=signatures, normalisation=dict(NORMALISATION_POLICY),
        metric_availability=job.availability, metric_reasons=job.reasons, score_sources=dict(job.producers),
        metric_info=info, metric_validation=validation,
        composite_validation=composite_validation(cmp.used, validation, corpus.language_pair.target),
        composite_profile=cmp.profile, composite_calibration=cmp.calibration, composite_breakdown=cmp.breakdown,
        score_caveats=[*caveats(job), *(c for c in (cmp.caveat, cmp.not_applied) if c is not None)],
        fst=fst, language_card_sha256=request.card_sha256,
        bootstrap_seed=request.seed, results=results,
    )


def metric_rows(job: ScoringJob, info: Mapping[str, MetricDescriptor]) -> list[MetricRow]:
    """One stored row per metric: availability, reason, corpus values, extra (with its declaration
    and the keys it supplied)."""
    rows = []
    for st in job.states:
        cs = job.corpus_scores.get(st.ref.id)
        desc = info.get(st.ref.id)
        rows.append(MetricRow(
            metric_id=st.ref.id, availability=st.availability, reason=st.reason,
            values=json_safe(cs.values) if cs is not None else {},
            extra=json_safe({**(cs.stored_extra() if cs is not None else {}),
                             "version": st.info.version if st.info else None,
                             "display_name": st.info.display_name if st.info else st.ref.id,
                             "descriptor": desc.model_dump(mode="json") if desc is not None else None,
                             "supplies": sorted(k for k, m in job.producers.items() if m == st.ref.id)}),
        ))
    return rows


# --------------------------------------------------------------------------- results[]


def _verdict(e: EntryScore | None) -> Verdict | None:
    """A verdict metric's per-entry detail for the run card (verdict, classes, explanation,
    pairing…), without bulky per-word data (kept in the workspace's entry results). A detail
    that does not fit :class:`Verdict` keeps its verdict name only."""
    if e is None:
        return None
    v = e.detail.get("verdict")
    if v is None:
        return None
    if isinstance(v, Mapping):
        out: dict[str, Any] = dict(v)
    else:
        out = {"verdict": v}
        out.update({k: x for k, x in e.detail.items() if k != "verdict" and k not in _BULKY_DETAIL})
        if e.value is not None:
            out["score"] = e.value
    try:
        return Verdict.model_validate(json_safe(out))
    except ValidationError:
        name = out.get("verdict", out.get("label", out.get("name")))
        return None if name is None else Verdict(verdict=str(name))


def _word_analyses(words: Any) -> list[WordAnalysis] | None:
    """The ``fst_analysis`` metric's words for the run card (None when they are not word analyses)."""
    if not isinstance(words, list):
        return None
    try:
        return [WordAnalysis.model_validate(json_safe(w)) for w in words]
    except ValidationError:
        return None


def pick(job: ScoringJob, role: MetricRole, key: str | None = None, *, language: bool | None = None) -> str | None:
    """The metric of ``role`` whose per-entry results a run-card column shows: the one that
    supplied ``key`` when it has that role, else the first of that role (``language``: only a
    language standard's metric, or only a built-in; such a metric must have run to the end)."""

    def fits(st: MetricState | None) -> bool:
        if st is None or st.info is None or st.info.role != role or st.ref.id not in job.per_entry:
            return False
        return language is None or (st.language == language and st.usable)

    if key is not None and fits(job.state(job.producers.get(key, ""))):
        return job.producers[key]
    return next((s.ref.id for s in job.states if fits(s)), None)


def entry_results(job: ScoringJob) -> list[EntryResult]:
    """One ``results[]`` item per entry, each column from the metric of its role."""
    return list(_entry_results(job))


def entry_results_json(job: ScoringJob) -> list[dict[str, Any]]:
    """:func:`entry_results` in their JSON form, each model dropped once dumped."""
    return list(ResultsJson(job))


class ResultsJson(Sequence[dict[str, Any]]):
    """The ``results[]`` items of a job in their JSON form, made when read (a slice, or one by
    one when iterated: a sink encodes each as it comes), never all held: their JSON form takes
    about 1.8 kB an entry (360 MB for 200,000), their model 3.4 kB. The per-entry columns
    they are made from are taken once, on the first read."""

    def __init__(self, job: ScoringJob) -> None:
        self._job = job
        self._columns: _Columns | None = None

    def _cols(self) -> _Columns:
        if self._columns is None:
            self._columns = _columns(self._job)
        return self._columns

    def __len__(self) -> int:
        return self._job.n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            cols = self._cols()
            start, stop, step = i.indices(len(self))
            its = self._job.items[start:stop] if step == 1 else [self._job.items[k] for k in range(start, stop, step)]
            return [_entry_result(it, cols, k).model_dump(mode="json")
                    for k, it in zip(range(start, stop, step), its, strict=True)]
        n = len(self)
        k = i + n if i < 0 else i
        if not 0 <= k < n:
            raise IndexError(i)
        return _entry_result(self._job.items[k], self._cols(), k).model_dump(mode="json")

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or another such sequence) of the same items, compared one at a time."""
        if not isinstance(other, (list, tuple, ResultsJson)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        cols = self._cols()
        for k, it in enumerate(self._job.items):
            yield _entry_result(it, cols, k).model_dump(mode="json")
        # read through (a sink has encoded every item): the columns are let go before the card's text is
        # stored (taken again if the items are read again)
        self._columns = None


class ValueColumn(Sequence[Any]):
    """One metric's per-entry values held as numbers (9 bytes an entry, not 32): each is given
    back as it was — None, a float, an int; anything else is kept as it is."""

    def __init__(self, values: Sequence[Any]) -> None:
        n = len(values)
        self._numbers = np.zeros(n, dtype=np.float64)
        self._kinds = np.zeros(n, dtype=np.int8)  # 0 None, 1 float, 2 int, 3 other
        self._other: dict[int, Any] = {}
        for i, v in enumerate(values):
            if v is None:
                continue
            if type(v) is float:
                self._numbers[i], self._kinds[i] = v, 1
            elif type(v) is int and abs(v) < 2 ** 53:
                self._numbers[i], self._kinds[i] = v, 2
            else:
                self._other[i] = v
                self._kinds[i] = 3

    def __len__(self) -> int:
        return len(self._kinds)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        kind = self._kinds[i]
        if kind == 0:
            return None
        if kind == 1:
            return float(self._numbers[i])
        if kind == 2:
            return int(self._numbers[i])
        return self._other[i % len(self)]


@dataclass
class _Columns:
    """Per-entry columns of ``results[]``, in corpus order."""

    by_metric: dict[str, Sequence[float | None]]
    exact: Sequence[float | None]
    chrf: Sequence[float | None]
    bleu: Sequence[float | None]
    ter: Sequence[float | None]
    fst_value: Sequence[float | None]
    fst_words: list[Any]
    lint: list[Any]
    generic: list[Any]
    semantic: list[Any]
    embedding: list[Any]


def _entry_result(it: Any, c: _Columns, i: int) -> EntryResult:
    e, o = it.entry, it.output
    exact_v, gv = c.exact[i], c.generic[i]
    return EntryResult(
        entry_id=e.id, source=e.source, reference=e.reference, predicted=it.predicted,
        exact_match=None if exact_v is None else bool(exact_v),
        entry_chrf=c.chrf[i], fst_accepted=c.fst_value[i], fst_analysis=c.fst_words[i],
        lint_verdict=c.lint[i], semantic_verdict=c.semantic[i],
        difficulty=e.difficulty, provenance=e.provenance_label, latency_seconds=o.latency_s,
        usage=o.usage.model_dump(exclude_none=True) if o.usage is not None else None,
        error=o.error,
        equivalence_verdict=None if gv is None else str(gv),
        entry_bleu=c.bleu[i], entry_ter=c.ter[i],
        metrics=json_safe({mid: col[i] for mid, col in c.by_metric.items()}), embedding=c.embedding[i],
    )


def _entry_results(job: ScoringJob) -> Iterator[EntryResult]:
    """The ``results[]`` items one by one."""
    cols = _columns(job)
    for i, it in enumerate(job.items):
        yield _entry_result(it, cols, i)


def _columns(job: ScoringJob) -> _Columns:
    """The columns of ``results[]``, taken one metric at a time (a large run's per-entry results
    are read again for each and not kept: :class:`~mteval_gui.scoring.job.PerEntry`)."""
    n = job.n
    nothing: list[Any] = [None] * n

    def values(mid: str | None) -> Sequence[float | None]:
        lst = job.per_entry.get(mid) if mid is not None else None
        return ValueColumn([e.value if e is not None else None for e in lst]) if lst else nothing

    def details(mid: str | None, fn: Any) -> list[Any]:
        lst = job.per_entry.get(mid) if mid is not None else None
        if not lst:
            return nothing
        same: dict[str, str] = {}  # one copy of each verdict name
        return [same.setdefault(d, d) if isinstance(d, str) else d for d in (fn(e) for e in lst)]

    by_metric = {mid: values(mid) for mid in job.per_entry}

    def column(role: MetricRole, key: str | None = None) -> Sequence[float | None]:
        mid = pick(job, role, key)
        return by_metric.get(mid, nothing) if mid is not None else nothing

    exact, chrf = column("exact", "exact_match_rate"), column("chrf", "chrf_plus_plus")
    bleu, ter = column("bleu", "bleu"), column("ter", "ter")
    fst_mid = pick(job, "fst_analysis", "fst_acceptance_rate")
    fst_value = by_metric.get(fst_mid, nothing) if fst_mid is not None else nothing
    fst_words = details(fst_mid, lambda e: _word_analyses(e.detail.get("analyses")) if e is not None else None)
    lint = details(pick(job, "equivalence_verdict", "equivalent_match_rate", language=True), _verdict)
    generic = details(pick(job, "equivalence_verdict", "equivalent_match_rate", language=False),
                      lambda e: e.detail.get("verdict") if e is not None else None)
    semantic = details(job.producers.get("semantic_score"), _verdict)
    embedding = details(job.producers.get("embedding_similarity"), _embedding_pair)
    return _Columns(by_metric, exact, chrf, bleu, ter, fst_value, fst_words, lint, generic, semantic, embedding)


def _embedding_pair(e: EntryScore | None) -> EmbeddingPair | None:
    if e is None or e.value is None:
        return None
    b = e.values.get("shuffled_cosine") if e.values else None
    return EmbeddingPair(cosine=json_safe(e.value), shuffled_cosine=json_safe(b),
                         shuffled_with=e.detail.get("shuffled_with"))
