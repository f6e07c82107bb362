"""Discovery of metric plugins from language cards (DESIGN §4: discovery is data).

:func:`discover` reads every card's ``evalMetrics`` and checks each reference **without
importing the plugin**: the reference must be well formed (:func:`plugins.check_ref`), its
module file must exist (located through the package folders on ``sys.path``, importing no
plugin code), and its id must not clash with a built-in. Problems are returned per card,
never raised, so one broken card or plugin cannot hide the others. Plugins are imported
only when a metric is used (:func:`plugins.resolve`).
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.scoring.plugins import BUILTIN_METRICS, check_ref


@dataclass
class CardMetrics:
    """The metric references of one card and what is wrong with them."""

    code: str
    refs: list[MetricRef] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # metric ids whose module file is absent

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Discovery:
    builtins: list[MetricRef]
    cards: dict[str, CardMetrics]

    @property
    def errors(self) -> dict[str, list[str]]:
        return {code: cm.errors for code, cm in self.cards.items() if cm.errors}

    def all_refs(self) -> list[tuple[str | None, MetricRef]]:
        """(card code or None for built-ins, reference) for every locatable metric."""
        out: list[tuple[str | None, MetricRef]] = [(None, r) for r in self.builtins]
        for code, cm in sorted(self.cards.items()):
            out.extend((code, r) for r in cm.refs if r.id not in cm.missing)
        return out


def _module_file(module_name: str) -> Path | None:
    """Locate a module's source file without importing it (nor its parent packages)."""
    parts = module_name.split(".")
    search: list[str] | None = None
    for i, part in enumerate(parts):
        spec = importlib.machinery.PathFinder.find_spec(part, sys.path if i == 0 else search)
        if spec is None:
            return None
        if i == len(parts) - 1:
            return Path(spec.origin) if spec.origin and spec.origin not in ("built-in", "frozen") else Path(".")
        locs = spec.submodule_search_locations
        if locs is None:
            return None
        search = list(locs)
    return None


def validation_problems(card: LanguageCard) -> list[str]:
    """``metric_validation`` entries that name no metric (neither built in nor in the card's ``evalMetrics``)."""
    from mteval_gui.scoring import builtins as _  # noqa: F401  (registers BUILTIN_METRICS)

    known = {r.id for r in BUILTIN_METRICS} | {r.id for r in card.eval_metrics}
    return [f"metric_validation.{metric_id}: no such metric (neither built in nor in evalMetrics)"
            for metric_id in card.metric_validation if metric_id not in known]


def check_card_refs(card: LanguageCard) -> CardMetrics:
    cm = CardMetrics(code=card.code)
    builtin_ids = {r.id for r in BUILTIN_METRICS}
    seen: set[str] = set()
    for ref in card.eval_metrics:
        problems = check_ref(ref)
        if ref.id in builtin_ids:
            problems.append(f"metric {ref.id}: id clashes with a built-in metric")
        if ref.id in seen:
            problems.append(f"metric {ref.id}: declared twice")
        seen.add(ref.id)
        if problems:
            cm.errors.extend(problems)
            continue
        module_name = ref.python_name.partition(":")[0]
        if _module_file(module_name) is None:
            cm.errors.append(f"metric {ref.id}: module {module_name} not found")
            cm.missing.append(ref.id)
        cm.refs.append(ref)
    cm.errors.extend(validation_problems(card))
    return cm


def discover(cards: Iterable[LanguageCard] | Mapping[str, LanguageCard],
             broken: Mapping[str, Sequence[str]] | None = None) -> Discovery:
    """Check the metric references of ``cards``; ``broken`` lists the problems of cards that did not load.

    The cards are read by the caller (:func:`mteval_gui.app.standards.discover_metrics` reads
    every bundled, user and plugin card): the scoring core never reads card files.
    """
    from mteval_gui.scoring import builtins as _  # noqa: F401  (registers BUILTIN_METRICS)

    result: dict[str, CardMetrics] = {code: CardMetrics(code=code, errors=list(problems))
                                      for code, problems in (broken or {}).items()}
    values = cards.values() if isinstance(cards, Mapping) else cards
    for card in values:
        result[card.code] = check_card_refs(card)
    return Discovery(builtins=list(BUILTIN_METRICS), cards=dict(sorted(result.items())))
