"""Calibrating the composite of a language to its speakers' ratings, and keeping the result in its card.

:func:`calibration_study` gathers, over the scored runs of the given corpora, each rated output's
composite inputs (the per-entry values of the metrics that supplied them, normalised as the
composite normalises them) and the speakers' scores (direct ESA scores where a judgment has one,
else task A adequacy and fluency), and hands them to :func:`mteval_gui.validation.calibration.calibrate`.
Only speakers count: reviewers whose record lists the language. Reviewers excluded by quality
control are left out with the reason (``excluded_reviewers``).

:func:`write_profile` keeps a calibration in the language card as a named composite profile with
its evidence; a bundled or plugin card is copied to the user cards folder first (the user card
then replaces it). Scoring uses a card's profile only when asked for by name or when the card
makes it its default (:func:`card_profile`).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mteval_gui.errors import CardError, MtevalError, StoreError
from mteval_gui.scoring import composite as comp
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.judgments import current_judgments, list_reviewers
from mteval_gui.store.results import entry_scores_many, entry_values_bulk, load_run_card_summary
from mteval_gui.validation.calibration import (
    TIER_RATINGS,
    Calibration,
    CalibrationRefused,
    HumanScore,
    calibrate,
    esa_direct_score,
    task_a_score,
    tier_of,
)

__all__ = ["CalibrationOutcome", "CalibrationRefused", "RunTierChange", "TIER_RATINGS", "calibration_study",
           "card_profile", "write_profile", "PROFILE_NAME"]

PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
Excluded = Mapping[str, str] | Callable[[str], str | None] | None


@dataclass(frozen=True)
class RunTierChange:
    """A run's composite and tier under the seed weights and under the calibrated ones."""

    run_id: str
    seed_composite: float | None
    seed_tier: str
    calibrated_composite: float | None
    calibrated_tier: str

    @property
    def changed(self) -> bool:
        return self.seed_tier != self.calibrated_tier

    def to_json(self) -> dict[str, object]:
        return {"run_id": self.run_id, "seed_composite": self.seed_composite, "seed_tier": self.seed_tier,
                "calibrated_composite": self.calibrated_composite, "calibrated_tier": self.calibrated_tier,
                "changed": self.changed}


@dataclass
class CalibrationOutcome:
    """A calibration with what it was made from and what it would change."""

    language: str
    corpora: list[str]
    corpus_versions: dict[str, dict[str, str | None]]
    calibration: Calibration
    runs: list[RunTierChange] = field(default_factory=list)
    skipped_runs: dict[str, str] = field(default_factory=dict)  # run -> why it does not take part
    date: str = ""

    def evidence(self) -> dict[str, object]:
        return {**self.calibration.evidence, "language": self.language, "corpora": list(self.corpora),
                "corpus_versions": dict(self.corpus_versions), "date": self.date,
                "skipped_runs": dict(self.skipped_runs)}

    def to_json(self) -> dict[str, object]:
        doc = self.calibration.to_json()
        evidence = {**self.evidence(), **doc["evidence"]}  # type: ignore[dict-item]
        evidence["tier_changes"] = [r.to_json() for r in self.runs]
        return {"weights": doc["weights"], "weights_ci": doc["weights_ci"], "tiers": doc["tiers"],
                "tau_b": doc["tau_b"], "evidence": evidence}


def _exclusion(excluded: Excluded) -> Callable[[str], str | None]:
    if excluded is None:
        return lambda _r: None
    if callable(excluded):
        return excluded
    table = dict(excluded)
    return table.get


def _key_values(ws: Workspace, run_id: str, sources: Mapping[str, str], keys: Sequence[str]
                ) -> dict[str, dict[str, float]]:
    """``{entry_id: {key: normalised value}}`` of the composite inputs ``keys`` of one run."""
    by_metric: dict[str, list[str]] = {}
    for k in keys:
        mid = sources.get(k)
        if mid:
            by_metric.setdefault(mid, []).append(k)
    out: dict[str, dict[str, float]] = {}
    single = [m for m, ks in by_metric.items() if len(ks) == 1]
    for mid, values in entry_values_bulk(ws, run_id, single).items():
        key = by_metric[mid][0]
        for eid, v in values.items():
            if v is not None:
                out.setdefault(eid, {})[key] = comp.normalise(key, v)
    several = [m for m, ks in by_metric.items() if len(ks) > 1]
    for mid, rows in entry_scores_many(ws, run_id, several).items():  # a metric's other keys: its "values"
        for eid, data in rows.items():
            for key in by_metric[mid]:
                v = (data.get("values") or {}).get(key)
                if isinstance(v, int | float) and not isinstance(v, bool):
                    out.setdefault(eid, {})[key] = comp.normalise(key, float(v))
    return out


def _human_scores(ws: Workspace, run_id: str) -> list[HumanScore]:
    out = []
    for j in current_judgments(ws, run_id=run_id):
        if j.entry_id is None:
            continue
        esa = j.payload.get("esa_score") if isinstance(j.payload, dict) else None
        if isinstance(esa, int | float) and not isinstance(esa, bool):
            out.append(HumanScore(run_id, j.entry_id, j.reviewer_id, esa_direct_score(esa), "esa"))
        elif j.task == "A":
            v = task_a_score(j.adequacy, j.fluency)
            if v is not None:
                out.append(HumanScore(run_id, j.entry_id, j.reviewer_id, v, "task_a"))
    return out


def calibration_study(ws: Workspace, corpora: Sequence[str], language: str, *, excluded_reviewers: Excluded = None,
                      n_bootstrap: int = 1000, seed: int = 12345, folds: int = 5) -> CalibrationOutcome:
    """Calibrate the composite of ``language`` over the scored runs of ``corpora`` (see the module docstring).

    ``excluded_reviewers`` (None): the reviewers quality control flags
    (:func:`mteval_gui.app.reviewer_qc.excluded_reviewers`), each with its reason; ``{}`` keeps everyone.

    Raises :class:`StoreError` for an unknown corpus or one of another target language, and
    :class:`~mteval_gui.validation.calibration.CalibrationRefused` below the evidence rules."""
    if not corpora:
        raise StoreError("name at least one corpus")
    versions: dict[str, dict[str, str | None]] = {}
    for cid in corpora:
        info = repo.get_corpus_info(ws, cid)
        if info["target_lang"] != language:
            raise StoreError(f"corpus {cid!r} translates into {info['target_lang']!r}, not {language!r}")
        latest = ws.conn.execute("SELECT version FROM corpus_versions WHERE corpus_id = ? ORDER BY created_at DESC,"
                                 " rowid DESC LIMIT 1", (cid,)).fetchone()
        versions[cid] = {"version": info.get("version"), "sha256": info.get("sha256"),
                         "speaker_version": latest[0] if latest else None}
    if excluded_reviewers is None:  # by default the reviewers quality control flags are left out
        from mteval_gui.app.reviewer_qc import excluded_reviewers as flagged

        excluded_reviewers = flagged(ws)
    is_excluded = _exclusion(excluded_reviewers)
    excluded: dict[str, str] = {}
    for r in list_reviewers(ws):
        why = is_excluded(r.reviewer_id)
        if why:
            excluded[r.reviewer_id] = why
        elif language not in (r.languages or []):
            excluded[r.reviewer_id] = f"not a speaker: the reviewer's record does not list {language}"
    cards: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    for cid in corpora:
        for row in repo.list_runs(ws, cid):
            rid = row["run_id"]
            card = load_run_card_summary(ws, rid) if row["has_run_card"] else None
            if card is None:
                skipped[rid] = "not scored"
            else:
                cards[rid] = card
    profiles = {c.get("composite_profile") or comp.choose_profile(c.get("scores") or {}) for c in cards.values()}
    if len(profiles) > 1:
        raise StoreError("the runs were scored with different composite profiles ("
                         + ", ".join(sorted(str(p) for p in profiles)) + "): calibrate the runs with an analyzer "
                         "(profile A) and those without (profile B) apart")
    profile = profiles.pop() if profiles else "B"
    seed_profile = comp.PROFILES[profile]
    inputs: dict[tuple[str, str], dict[str, float]] = {}
    scores: list[HumanScore] = []
    for rid, card in cards.items():
        rated = _human_scores(ws, rid)
        if not rated:
            skipped[rid] = "no speaker ratings"
            continue
        scores.extend(rated)
        for eid, vals in _key_values(ws, rid, card.get("score_sources") or {}, list(seed_profile)).items():
            inputs[(rid, eid)] = vals
    result = calibrate(inputs, scores, seed_profile, profile=profile, excluded_raters=excluded,
                       n_bootstrap=n_bootstrap, folds=folds, seed=seed)
    changes = []
    for rid, card in sorted(cards.items()):
        s = card.get("scores") or {}
        # the seed's composite and tier, also for a run scored with a calibrated profile
        seed_value = comp.compute_composite(s, profile).value
        cal = comp.compute_composite(s, profile, result.weights)
        changes.append(RunTierChange(rid, seed_value, comp.quality_tier(seed_value), cal.value,
                                     tier_of(cal.value, result.thresholds)))
    return CalibrationOutcome(language, list(corpora), versions, result, changes, skipped,
                              datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))


# --------------------------------------------------------------------------- the language card


def profile_entry(outcome: CalibrationOutcome) -> dict[str, Any]:
    """The card's record of a calibration (``composite_profiles[NAME]``)."""
    c = outcome.calibration
    ev = outcome.evidence()
    evidence = {k: ev[k] for k in ("date", "corpora", "corpus_versions", "items", "entries", "ratings", "raters",
                                   "alpha", "alpha_ci", "score_sources", "excluded_raters", "n_bootstrap", "seed")}
    evidence["tau_b"] = {k: v.value for k, v in c.kendall.items()}
    evidence["spearman"] = {k: v.value for k, v in c.spearman.items()}
    evidence["warnings"] = list(c.warnings)
    return {"base": c.profile, "weights": dict(c.weights), "weights_ci": {k: list(v) for k, v in c.weights_ci.items()},
            "tiers": dict(c.thresholds), "evidence": evidence}


def write_profile(outcome: CalibrationOutcome, name: str, *, make_default: bool = False) -> Path:
    """Keep ``outcome`` in its language's card as the composite profile ``name``; returns the card written.

    The card is checked before it replaces the old one (:class:`CardError`, nothing written)."""
    from mteval_gui.cards import find_card, read_card, user_cards_dir

    if not PROFILE_NAME.match(name or ""):
        raise CardError(f"profile name {name!r}: letters, digits, '.', '_' and '-' only (at most 64), "
                        "starting with a letter or digit")
    if name in comp.PROFILES or name == "seed":
        raise CardError(f"profile name {name!r} is a seed profile's; choose another name")
    path, source = find_card(outcome.language)
    data = json.loads(path.read_text(encoding="utf-8"))
    profiles = dict(data.get("composite_profiles") or {})
    profiles[name] = profile_entry(outcome)
    data["composite_profiles"] = profiles
    if make_default:
        data["default_composite_profile"] = name
    folder = user_cards_dir() if source.kind != "user" else path.parent
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{outcome.language}.json"
    fd, tmp = tempfile.mkstemp(prefix=f".{outcome.language}.", suffix=".tmp", dir=str(folder))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        info = read_card(tmp, stem=outcome.language)
        if not info.ok:
            raise CardError("the calibrated card would be invalid", card=str(target), problems=list(info.problems))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def card_profile(language: str | None, name: str | None) -> tuple[str, dict[str, Any]] | None:
    """The calibrated profile scoring uses for ``language``: the one named, else the card's default,
    else None (the seed weights). Raises :class:`MtevalError` when ``name`` is not in the card."""
    from mteval_gui.cards import try_load_card

    card = try_load_card(language) if language else None
    profiles = card.composite_profiles if card is not None else {}
    chosen = name or (card.default_composite_profile if card is not None else None)
    if not chosen:
        return None
    if chosen not in profiles:
        have = ", ".join(sorted(profiles)) or "none"
        raise MtevalError(f"the language card of {language} has no composite profile {chosen!r} (it has: {have})")
    p = profiles[chosen]
    return chosen, {"weights": dict(p.weights), "tiers": dict(p.tiers), "base": p.base}
