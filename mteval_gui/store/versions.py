"""Corpus versions: accepted variants promoted from speakers' judgments, one new version per promotion.

The ``entries`` table always holds the current version (what scoring reads); ``corpus_versions``
records every version with its sha256, its parent and the variants it added, each with where
it came from (reviewer, run, judgment, basis). The version a corpus was imported as is recorded
too, when the first promotion happens. Run cards keep the ``dataset.version`` and
``dataset.sha256`` they were scored on; rescoring reads the new version.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mteval_gui.errors import StoreError
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace, utcnow

SPEAKER_SUFFIX = "+s"


def next_version(version: str, existing: Sequence[str]) -> str:
    """``1`` -> ``1+s1`` -> ``1+s2``: the imported version with a speaker-revision number."""
    root = version.split(SPEAKER_SUFFIX)[0] or "1"
    n = 1
    while f"{root}{SPEAKER_SUFFIX}{n}" in existing:
        n += 1
    return f"{root}{SPEAKER_SUFFIX}{n}"


def corpus_versions(ws: Workspace, corpus_id: str) -> list[dict[str, Any]]:
    """Every recorded version of a corpus, oldest first (empty before the first promotion)."""
    rows = ws.conn.execute("SELECT * FROM corpus_versions WHERE corpus_id = ? ORDER BY created_at, rowid",
                           (corpus_id,)).fetchall()
    return [{**dict(r), "changes": json.loads(r["changes"] or "[]")} for r in rows]


def speaker_variants(ws: Workspace, corpus_id: str) -> list[dict[str, Any]]:
    """The variants of the current version that came from speakers, with the version that added them."""
    out = []
    for v in corpus_versions(ws, corpus_id):
        out += [{**c, "version": v["version"]} for c in v["changes"]]
    return out


def variant_dialects(ws: Workspace, corpus_id: str) -> dict[str, dict[str, list[str]]]:
    """``{entry_id: {variant: [dialect, …]}}``: the dialects of the reviewers each speaker variant
    was accepted from (sorted; variants promoted without a dialect are left out)."""
    out: dict[str, dict[str, set[str]]] = {}
    for change in speaker_variants(ws, corpus_id):
        if change.get("dialect"):
            out.setdefault(change["entry_id"], {}).setdefault(change["variant"], set()).add(change["dialect"])
    return {e: {v: sorted(d) for v, d in by_variant.items()} for e, by_variant in out.items()}


def add_variants(ws: Workspace, corpus_id: str, additions: Sequence[dict[str, Any]], *,
                 created_by: str | None) -> dict[str, Any]:
    """Add accepted variants as a new version of the corpus, in one transaction.

    ``additions``: ``{"entry_id", "variant", ...provenance}``; one with ``"also": true`` records
    another speaker's acceptance of a variant added before it in the same call (nothing is
    added for it). Returns ``{"old_version", "new_version", "sha256", "added"}``.
    """
    if not additions:
        raise StoreError("no variant to add")
    with ws.transaction() as c:
        row = c.execute("SELECT version, sha256, imported_at FROM corpora WHERE corpus_id = ?", (corpus_id,)).fetchone()
        if row is None:
            raise StoreError(f"no corpus {corpus_id!r} in the workspace")
        old_version = row["version"] or "1"
        known = [r[0] for r in c.execute("SELECT version FROM corpus_versions WHERE corpus_id = ?", (corpus_id,))]
        if not known:
            c.execute("INSERT INTO corpus_versions (corpus_id, version, parent_version, sha256, changes, created_by, "
                      "created_at) VALUES (?,?,?,?,?,?,?)",
                      (corpus_id, old_version, None, row["sha256"], "[]", None, row["imported_at"]))
            known = [old_version]
        added: list[dict[str, Any]] = []
        for a in additions:
            cur = c.execute("SELECT variants FROM entries WHERE corpus_id = ? AND entry_id = ?",
                            (corpus_id, a["entry_id"])).fetchone()
            if cur is None:
                raise StoreError(f"no entry {a['entry_id']!r} in corpus {corpus_id!r}")
            variants = json.loads(cur["variants"] or "[]")
            if a.get("also"):
                if any(b["entry_id"] == a["entry_id"] and b["variant"] == a["variant"] and not b.get("also")
                       for b in added):
                    added.append(dict(a))
                continue
            if a["variant"] in variants:
                continue
            variants.append(a["variant"])
            c.execute("UPDATE entries SET variants = ? WHERE corpus_id = ? AND entry_id = ?",
                      (json.dumps(variants, ensure_ascii=False, sort_keys=True), corpus_id, a["entry_id"]))
            added.append(dict(a))
        if not any(not a.get("also") for a in added):
            raise StoreError("every variant is already in the corpus")
        new_version = next_version(old_version, known)
        sha = repo.corpus_sha256(repo.get_corpus(ws, corpus_id))
        c.execute("UPDATE corpora SET version = ?, sha256 = ? WHERE corpus_id = ?", (new_version, sha, corpus_id))
        c.execute("INSERT INTO corpus_versions (corpus_id, version, parent_version, sha256, changes, created_by, "
                  "created_at) VALUES (?,?,?,?,?,?,?)",
                  (corpus_id, new_version, old_version, sha, json.dumps(added, ensure_ascii=False), created_by,
                   utcnow()))
    return {"old_version": old_version, "new_version": new_version, "sha256": sha, "added": added}
