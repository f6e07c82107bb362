"""The metric-vs-human validation study: agreement, correlations with CIs, progress.

:func:`validation_study` pairs the current Task A ratings of runs (:func:`~mteval_gui.app.review.ratings`)
with the stored per-entry values of their metrics and hands them to
:func:`mteval_gui.validation.study.run_study`, which works on plain data.
"""

from __future__ import annotations

from collections.abc import Sequence

from mteval_gui.app.review import ratings, require_runs
from mteval_gui.errors import StoreError
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import entry_values_bulk, metric_ids_with_values
from mteval_gui.validation.study import Item, StudyResult, run_study

__all__ = ["available_metrics", "metric_values", "validation_study"]


def metric_values(ws: Workspace, run_ids: Sequence[str],
                  metric_ids: Sequence[str] | None = None) -> dict[str, dict[Item, float | None]]:
    """``{metric_id: {(run_id, entry_id): value}}`` from the stored per-entry results."""
    out: dict[str, dict[Item, float | None]] = {}
    for run_id in run_ids:
        for metric_id, values in entry_values_bulk(ws, run_id, metric_ids).items():
            bucket = out.setdefault(metric_id, {})
            for entry_id, value in values.items():
                bucket[(run_id, entry_id)] = value
    return out


def available_metrics(ws: Workspace, run_ids: Sequence[str]) -> list[str]:
    """Metric ids with per-entry values in any of the runs."""
    return metric_ids_with_values(ws, run_ids)


def validation_study(
    ws: Workspace,
    run_ids: Sequence[str],
    metric_ids: Sequence[str] | None = None,
    *,
    aspect: str = "adequacy",
    n_bootstrap: int = 1000,
    seed: int = 12345,
    short_bleu: bool = False,
) -> StudyResult:
    """The metric-vs-human study over the runs' current Task A ratings.

    BLEU is left out (listed in ``excluded`` with the reason) when one of the runs has the
    caveat ``short_segments``, unless ``short_bleu`` is true."""
    require_runs(ws, run_ids)
    if metric_ids is not None:
        known = set(available_metrics(ws, run_ids))
        missing = [m for m in metric_ids if m not in known]
        if missing:
            raise StoreError(
                f"no per-entry values for metric{'s' if len(missing) > 1 else ''} {', '.join(missing)} in "
                f"{', '.join(run_ids)} (available: {', '.join(sorted(known)) or 'none; score the runs first'})"
            )
    rated = ratings(ws, run_ids)
    # only rated items take part: read the values of the runs that have ratings, and list every
    # metric of the runs all the same (without rated items its correlations are undefined)
    rated_runs = sorted({r.run_id for r in rated})
    values = metric_values(ws, rated_runs, metric_ids) if rated_runs else {}
    for mid in (metric_ids if metric_ids is not None else available_metrics(ws, run_ids)):
        values.setdefault(mid, {})
    excluded: dict[str, str] = {}
    if not short_bleu:
        from mteval_gui.app.compare import short_segments_reason
        from mteval_gui.store.results import load_run_card_summary

        # caveats and score sources only: the per-entry results of 16 large runs took 0.7 s to decode
        cards = {r: c for r in run_ids if (c := load_run_card_summary(ws, r)) is not None}
        why = short_segments_reason(cards)
        if why is not None:
            for card in cards.values():
                bleu_id = (card.get("score_sources") or {}).get("bleu")
                if bleu_id:
                    excluded[str(bleu_id)] = why
    return run_study(rated, values, aspect=aspect, n_bootstrap=n_bootstrap, seed=seed, excluded=excluded)
