"""Speakers' answers flow back into the corpus as accepted variants, in a new corpus version.

What is promoted (from the current judgments of the runs, tasks A and B):

- ``correction``: a speaker's corrected translation;
- ``adequacy5``: an output a speaker rated adequacy 5 (Task A);
- ``task_b``: an output a speaker judged of the same meaning and natural (Task B: Yes / Yes).

A candidate equal (after :func:`mteval_gui.text.match_key`) to the entry's reference or to an
accepted variant is left out, and so is one that no variant may be (over 10,000 characters,
control characters, nothing visible: :func:`mteval_gui.domain.judgments.correction_problems`,
the rule every correction meets when it is recorded or imported). :func:`promote_variants`
writes one new version per corpus (``1`` -> ``1+s1``; :mod:`mteval_gui.store.versions`);
earlier run cards keep naming the version and sha256 they were scored on, rescoring uses the
new variants, and the new run card lists the variants that came from speakers (``dataset.speaker_variants``).

Each promoted variant records the dialect of the reviewer it came from (their reviewer record,
at the time of the promotion): a variant accepted by speakers of one dialect is marked so in
the corpus version (:func:`variant_dialects`), and the review pane shows it beside the variant.
When speakers of several dialects give the same text in one promotion, it is added once and
each other dialect's speaker is recorded beside it (``also: true``): the variant is marked as
accepted for each of their dialects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mteval_gui.domain.judgments import correction_problems, judgment_correction
from mteval_gui.errors import MtevalError, StoreError
from mteval_gui.store import judgments as jstore
from mteval_gui.store import repo, versions
from mteval_gui.store.db import Workspace
from mteval_gui.text import match_key, nfc

BASES = ("correction", "adequacy5", "task_b")
__all__ = ["BASES", "Candidate", "Promotion", "promotion_candidates", "promote_variants", "corpus_versions",
           "speaker_variants", "variant_dialects"]
corpus_versions = versions.corpus_versions
speaker_variants = versions.speaker_variants
variant_dialects = versions.variant_dialects


@dataclass(frozen=True)
class Candidate:
    corpus_id: str
    entry_id: str
    variant: str
    basis: str
    reviewer_id: str
    run_id: str
    judgment_id: int | None
    dialect: str | None = None  # the reviewer's dialect when the variant was promoted


@dataclass
class Promotion:
    corpus_id: str
    old_version: str
    new_version: str | None
    added: list[Candidate] = field(default_factory=list)
    skipped: list[tuple[Candidate, str]] = field(default_factory=list)
    # the same text as a variant added by this promotion, from a speaker of another dialect:
    # recorded (the variant is accepted for that dialect too), not added twice
    also: list[Candidate] = field(default_factory=list)


def promotion_candidates(ws: Workspace, run_ids: Sequence[str], *, bases: Sequence[str] = BASES,
                         reviewer_id: str | None = None, entry_ids: Sequence[str] | None = None) -> list[Candidate]:
    """What the runs' current judgments would add, in judgment order (not yet checked against the corpus)."""
    unknown = [b for b in bases if b not in BASES]
    if unknown:
        raise MtevalError(f"unknown basis {', '.join(unknown)} (one of {', '.join(BASES)})")
    wanted = set(entry_ids) if entry_ids is not None else None
    dialects: dict[str, str | None] = {}

    def dialect(reviewer_id: str) -> str | None:
        if reviewer_id not in dialects:
            r = jstore.get_reviewer(ws, reviewer_id)
            dialects[reviewer_id] = r.dialect if r is not None else None
        return dialects[reviewer_id]

    out: list[Candidate] = []
    for run_id in run_ids:
        if not repo.run_exists(ws, run_id):
            raise StoreError(f"unknown run {run_id!r}")
        corpus_id = repo.get_run_info(ws, run_id)["corpus_id"]
        outputs: dict[str, str] = {}

        def output(entry_id: str, run_id: str = run_id, outputs: dict[str, str] = outputs) -> str:
            if entry_id not in outputs:
                o = repo.get_output(ws, run_id, entry_id)
                outputs[entry_id] = "" if o.error else nfc(o.predicted or "").strip()
            return outputs[entry_id]

        for j in jstore.current_judgments(ws, run_id=run_id, reviewer_id=reviewer_id):
            if j.entry_id is None or j.task not in ("A", "B") or (wanted is not None and j.entry_id not in wanted):
                continue
            found: list[tuple[str, str]] = []
            correction = judgment_correction(j)
            if "correction" in bases and correction:
                found.append(("correction", correction))
            if "adequacy5" in bases and j.task == "A" and j.adequacy == 5:
                found.append(("adequacy5", output(j.entry_id)))
            if ("task_b" in bases and j.task == "B" and j.payload.get("same_meaning") == "Yes"
                    and j.payload.get("natural") == "Yes"):
                found.append(("task_b", output(j.entry_id)))
            out += [Candidate(corpus_id, j.entry_id, text, basis, j.reviewer_id, run_id, j.judgment_id,
                              dialect(j.reviewer_id))
                    for basis, text in found if text]
    return out


def promote_variants(ws: Workspace, run_ids: Sequence[str], *, bases: Sequence[str] = BASES,
                     reviewer_id: str | None = None, entry_ids: Sequence[str] | None = None,
                     by: str | None = None, dry_run: bool = False) -> list[Promotion]:
    """Turn the candidates into accepted variants: one new version per corpus touched."""
    candidates = promotion_candidates(ws, run_ids, bases=bases, reviewer_id=reviewer_id, entry_ids=entry_ids)
    by_corpus: dict[str, list[Candidate]] = {}
    for run_id in run_ids:
        by_corpus.setdefault(repo.get_run_info(ws, run_id)["corpus_id"], [])
    for cand in candidates:
        by_corpus[cand.corpus_id].append(cand)
    out = []
    for corpus_id, cands in by_corpus.items():
        info = repo.get_corpus_info(ws, corpus_id)
        promo = Promotion(corpus_id, info["version"] or "1", None)
        seen: dict[str, set[str]] = {}
        dialects: dict[tuple[str, str], set[str | None]] = {}  # (entry, key) added here -> its dialects
        for cand in cands:
            if cand.entry_id not in seen:
                entry = repo.get_entry(ws, corpus_id, cand.entry_id)
                seen[cand.entry_id] = {match_key(r) for r in entry.references()}
            problems = correction_problems(cand.variant, "the text")
            if problems:  # stored before corrections were checked, or an output no variant may be
                promo.skipped.append((cand, "; ".join(problems)))
                continue
            key = match_key(cand.variant)
            if key in seen[cand.entry_id]:
                given = dialects.get((cand.entry_id, key))
                if given is not None and cand.dialect and cand.dialect not in given:
                    given.add(cand.dialect)
                    promo.also.append(cand)
                    continue
                promo.skipped.append((cand, "already the reference or an accepted variant"))
                continue
            seen[cand.entry_id].add(key)
            dialects[(cand.entry_id, key)] = {cand.dialect}
            promo.added.append(cand)
        if promo.added and not dry_run:
            first = {(c.entry_id, match_key(c.variant)): c.variant for c in promo.added}
            done = versions.add_variants(ws, corpus_id, [
                {k: v for k, v in asdict(c).items() if k != "corpus_id"} for c in promo.added] + [
                {**{k: v for k, v in asdict(c).items() if k != "corpus_id"},
                 "variant": first[(c.entry_id, match_key(c.variant))], "also": True} for c in promo.also],
                created_by=by)
            promo.new_version = done["new_version"]
        out.append(promo)
    return out


def promotion_json(p: Promotion) -> dict[str, Any]:
    return {"corpus_id": p.corpus_id, "old_version": p.old_version, "new_version": p.new_version,
            "added": [asdict(c) for c in p.added], "also": [asdict(c) for c in p.also],
            "skipped": [{**asdict(c), "reason": why} for c, why in p.skipped]}
