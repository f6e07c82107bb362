"""Metric declarations for the interfaces: a run's metrics by role, their labels and formats.

The interfaces never name a metric id: they ask for the metric of a *role* (the verdict
column is the ``equivalence_verdict`` metric, the FST panel the ``fst_analysis`` metric …)
and show its declared label, display format and validation level
(:class:`~mteval_gui.domain.metrics.MetricDescriptor`).

- :func:`describe` — one metric's declaration from the registry (built-ins and the metrics
  the language cards declare; a plugin is imported on first use, then cached).
- :func:`run_metrics` — the metrics of one run: the declarations recorded with its results
  (``run_metrics`` rows, written with the run card), else those of its scoring job while it
  is being scored, and which metric supplied each run-card key (``score_sources``).
- :func:`heavy_metric_ids` — metrics that load a model (left out of the demo).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from pydantic import ValidationError

from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.metrics import MetricDescriptor, MetricRole, unknown_descriptor
from mteval_gui.errors import MtevalError, PluginError
from mteval_gui.standards import class_ref_problem
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace

__all__ = ["GlossaryEntry", "MetricDescriptor", "RunMetrics", "builtin_descriptors", "describe", "heavy_metric_ids",
           "metric_glossary", "run_metrics"]


@lru_cache(maxsize=8)
def _registry(cards: str) -> dict[str, tuple[MetricRef, bool]]:
    """metric id -> (reference, built-in?) for the built-ins and every valid card's ``evalMetrics``
    (``cards``: the card sources, the cache key)."""
    from mteval_gui.cards import list_cards
    from mteval_gui.scoring.plugins import metrics_for

    out: dict[str, tuple[MetricRef, bool]] = {r.id: (r, True) for r in metrics_for(None)}
    for info in list_cards():
        if info.card is not None:
            for ref in info.card.eval_metrics:
                out.setdefault(ref.id, (ref, False))
    return out


@lru_cache(maxsize=512)
def _describe(metric_id: str, python_name: str | None, lang: str | None, cards: str) -> MetricDescriptor:
    from mteval_gui.cards import try_load_card
    from mteval_gui.scoring.plugins import MetricInfo, builtin_ids, resolve

    found = _registry(cards).get(metric_id)
    if python_name is not None and (found is None or found[0].python_name != python_name):
        found = (MetricRef(id=metric_id, python_name=python_name), metric_id in builtin_ids())
    if found is None:
        return unknown_descriptor(metric_id)
    ref, builtin = found
    if class_ref_problem(ref.python_name) is not None:  # stored data names it: import only what is installed
        return unknown_descriptor(metric_id)
    try:
        cls = resolve(ref)
    except PluginError:
        return unknown_descriptor(metric_id)
    card: LanguageCard | None = try_load_card(lang) if lang else None
    info: MetricInfo = getattr(cls, "info")  # noqa: B009  (checked by resolve)
    return info.descriptor(card=card, builtin=builtin)


def describe(metric_id: str, *, python_name: str | None = None, lang: str | None = None) -> MetricDescriptor:
    """The declaration of a metric (validation level for ``lang`` when given).

    A metric the registry does not know and ``python_name`` does not locate gets a descriptor
    labelled with its id (role ``other``).
    """
    from mteval_gui.cards import card_sources

    sources = "|".join(f"{s.kind}:{s.folder}" for s in card_sources())
    return _describe(metric_id, python_name, lang, sources)


def builtin_descriptors() -> list[MetricDescriptor]:
    """Every built-in metric's declaration, in scoring order."""
    from mteval_gui.scoring.plugins import metrics_for

    return [describe(r.id) for r in metrics_for(None)]


def heavy_metric_ids() -> tuple[str, ...]:
    """Built-in metrics that load a model (COMET, embeddings)."""
    return tuple(d.id for d in builtin_descriptors() if d.heavy)


@dataclass
class RunMetrics:
    """The metrics of one run, by id (in scoring order), with the keys each one supplied."""

    run_id: str
    descriptors: dict[str, MetricDescriptor] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # scores key -> metric id (score_sources)

    def descriptor(self, metric_id: str) -> MetricDescriptor:
        d = self.descriptors.get(metric_id)
        return d if d is not None else describe(metric_id)

    def by_role(self, role: MetricRole, *, builtin: bool | None = None) -> list[str]:
        """Metric ids of ``role``: a language standard's metrics before the built-ins, and within
        each, the metric that supplied a run-card key first."""
        supplied = set(self.sources.values())
        ids = [m for m, d in self.descriptors.items()
               if d.role == role and (builtin is None or d.builtin == builtin)]
        return sorted(ids, key=lambda m: (self.descriptors[m].builtin, m not in supplied))

    def first(self, role: MetricRole, *, builtin: bool | None = None) -> str | None:
        ids = self.by_role(role, builtin=builtin)
        return ids[0] if ids else None

    def validation(self, metric_id: str) -> str:
        return self.descriptor(metric_id).validation


def _target_lang(ws: Workspace, run_id: str) -> str | None:
    try:
        corpus_id = repo.get_run_info(ws, run_id)["corpus_id"]
        return str(repo.get_corpus_info(ws, corpus_id)["target_lang"])
    except (KeyError, MtevalError):
        return None


def run_metrics(ws: Workspace, run_id: str, extra_ids: Iterable[str] = ()) -> RunMetrics:
    """The metrics of a run: recorded declarations first, then the scoring job's, then ``extra_ids``
    (e.g. metrics that only have stored per-entry values), described from the registry. A run
    with neither a record nor a job lists the metrics it has stored results of."""
    from mteval_gui.store.results import metric_ids_with_values, run_metric_rows, scoring_job

    out = RunMetrics(run_id)
    lang: list[str | None] = []

    def lang_of() -> str | None:
        if not lang:
            lang.append(_target_lang(ws, run_id))
        return lang[0]

    for row in run_metric_rows(ws, run_id):
        mid = str(row["metric_id"])
        extra = row.get("extra") or {}
        recorded = extra.get("descriptor") if isinstance(extra, dict) else None
        desc: MetricDescriptor | None = None
        if isinstance(recorded, dict):
            try:
                desc = MetricDescriptor.model_validate(recorded)
            except ValidationError:
                desc = None
        out.descriptors[mid] = desc if desc is not None else describe(mid, lang=lang_of())
        for key in (extra.get("supplies") or []) if isinstance(extra, dict) else []:
            out.sources[str(key)] = mid
    job = scoring_job(ws, run_id)
    for m in (job or {}).get("config", {}).get("metrics", []) if job else []:
        mid = str(m.get("id"))
        if mid not in out.descriptors:
            out.descriptors[mid] = describe(mid, python_name=m.get("python_name"), lang=lang_of())
    wanted = list(extra_ids)
    if not out.descriptors:  # neither recorded nor being scored: the metrics with stored results
        wanted += metric_ids_with_values(ws, [run_id], like="%")
    for mid in wanted:
        if mid not in out.descriptors:
            out.descriptors[mid] = describe(mid, lang=lang_of())
    return out


@dataclass(frozen=True)
class GlossaryEntry:
    """One metric as the Help glossary explains it."""

    descriptor: MetricDescriptor
    description: str  # what it measures (English, as the metric declares it)
    needs_reference: bool
    needs_fst: bool
    languages: tuple[str, ...]  # the language cards that use a standard's metric (() for built-ins)


def metric_glossary() -> list[GlossaryEntry]:
    """Every metric the application can run — the built-ins in scoring order, then each
    installed language standard's metrics — with what it measures, its scale, its direction and
    how far it has been validated (the metric's own declaration; a card may raise or lower it
    for its language, which the run card then records)."""
    from mteval_gui.cards import card_sources, list_cards
    from mteval_gui.scoring.plugins import MetricInfo, resolve

    sources = "|".join(f"{s.kind}:{s.folder}" for s in card_sources())
    users: dict[str, set[str]] = {}
    for card_info in list_cards():
        if card_info.card is not None:
            for ref in card_info.card.eval_metrics:
                users.setdefault(ref.id, set()).add(card_info.card.code)
    out: list[GlossaryEntry] = []
    for metric_id, (ref, builtin) in _registry(sources).items():
        if class_ref_problem(ref.python_name) is not None:
            continue
        try:
            cls = resolve(ref)
        except PluginError:
            continue
        info: MetricInfo = getattr(cls, "info")  # noqa: B009  (checked by resolve)
        out.append(GlossaryEntry(
            descriptor=info.descriptor(card=None, builtin=builtin), description=info.description,
            needs_reference=info.needs_reference, needs_fst=info.needs_fst,
            languages=() if builtin else tuple(sorted(users.get(metric_id, ())))))
    return sorted(out, key=lambda e: not e.descriptor.builtin)  # stable: scoring order within each
