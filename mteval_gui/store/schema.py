"""Workspace schema, one migration per ``PRAGMA user_version`` step.

Tables:
- ``settings``: key -> JSON value (analyzer folder, gloss files, COMET model, default reviewer...).
- ``corpora`` / ``entries``: corpora and their ordered entries (JSON columns for lists/objects).
- ``runs``: one row per system run; carries the denormalised LYSS §9.1 columns and the last run card.
- ``outputs``: per-entry system outputs (``missing`` = id absent from the run file).
- ``glossaries``: named term lists.
- ``entry_metrics``: one row per (run, entry, metric): headline ``value`` plus JSON of all values/detail.
- ``run_metrics``: one row per (run, metric): availability, reason, corpus values, extra.
- ``scoring_jobs`` / ``scoring_batches``: a job's configuration and the batches already committed
  (a resumed job skips them).
- ``fst_cache``: analyses per (analyzer sha256, word form).
- ``reviewers`` / ``judgments``: judgments are an append-only log; an edit adds a version and
  points the previous one at it (``superseded_by``); undo marks the newest ``undone`` and
  restores the previous one.
- ``benchmark_runs`` / ``benchmark_results``: ÈwéBench results per model (``meta``: run metadata, v2).
- ``review_packs``: the offline review packs exported to speakers (v3); ``corpus_versions``: each new
  version of a corpus made by promoting speakers' corrections to variants (v3); ``consent_log``:
  withdrawals of a reviewer's judgments (v3).

v4 repairs judgment payloads holding NaN (older versions wrote them; SQLite's JSON functions
refuse them, which blocked every later judgment of the same reviewer, run and entry).
v5 adds ``run_locks``: the job scoring a run (store/locks.py).
v6 added ``entries_fts`` and ``outputs_fts`` (FTS5 trigram indexes for the entries filter) and
``fts_indexed``; v10 drops them (v6 is now a step that does nothing): the entries filter scans
the loaded table in memory, which measured as fast or faster where it matters and matches
``str.casefold`` exactly (the README's speed table).
v7 adds ``runs.scoring_config``: the scoring configuration of the run's latest job (JSON of
``ScoringConfiguration``), written when the job starts and completed when its run card is stored.
v8 adds ``run_statistics``: the per-entry statistics of each scored run (store/statistics.py),
which comparing runs reads instead of every entry's stored results.
v9 adds ``consent_log.detail`` (JSON, content-free: the judgment and pack ids a withdrawal
deleted, the consent text of a readmission; store/consent.py) and ``review_packs.answers_key``
(the secret key a pack signs its answers with, HMAC-SHA256; NULL for packs made before v9).
v10 drops the full-text indexes of v6.
v14 adds ``run_card_results``: the per-entry ``results`` of each run card, in parts of consecutive
items (a JSON array each, about a megabyte of text), apart from the rest of the card in
``runs.run_card`` (``"results":[]`` there): the card of a run of a million entries is larger than
SQLite stores in one value. The step moves the results of the cards stored before.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Callable
from typing import Any

from mteval_gui.domain.score_keys import SCORE_KEYS

# LYSS §9.1 denormalised run columns: run-card path -> column name (a declared scores key names
# its column, mteval_gui.domain.score_keys; the migration that adds the column is below)
RUN_CARD_COLUMNS: dict[str, str] = {
    **{f"scores.{k.name}": k.runs_column for k in SCORE_KEYS if k.runs_column is not None},
    "totals.total_cost_usd": "total_cost_usd",
    "totals.cost_per_entry_usd": "cost_per_entry_usd",
    "totals.cost_per_source_char": "cost_per_source_char",
    "model_slug": "model_slug",
    "condition": "condition",
    "dataset.id": "dataset_id",
    "dataset.language_pair": "language_pair",
    "fingerprint.hash": "fingerprint_hash",
    "elapsed_seconds": "elapsed_seconds",
}

_V1 = """
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE corpora (
    corpus_id TEXT PRIMARY KEY,
    version TEXT,
    source_lang TEXT NOT NULL,
    target_lang TEXT NOT NULL,
    license TEXT,
    attribution TEXT,
    description TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    sha256 TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    source_path TEXT,
    imported_at TEXT NOT NULL
);
CREATE TABLE entries (
    corpus_id TEXT NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,
    entry_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    source TEXT NOT NULL,
    reference TEXT,
    variants TEXT NOT NULL DEFAULT '[]',
    terminology TEXT NOT NULL DEFAULT '{}',
    difficulty INTEGER,
    domain TEXT,
    register TEXT,
    segment TEXT,
    provenance TEXT,
    phenomena TEXT NOT NULL DEFAULT '[]',
    expected_morphology TEXT NOT NULL DEFAULT '{}',
    metadata TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (corpus_id, entry_id)
);
CREATE UNIQUE INDEX idx_entries_position ON entries(corpus_id, position);
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    corpus_id TEXT NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,
    model_slug TEXT,
    model_id TEXT,
    condition TEXT,
    temperature REAL,
    system_prompt_sha256 TEXT,
    started_at TEXT,
    elapsed_seconds REAL,
    pricing TEXT,
    meta TEXT NOT NULL DEFAULT '{}',
    content_sha256 TEXT NOT NULL,
    source_path TEXT,
    imported_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'imported',
    scored_at TEXT,
    composite_score REAL,
    quality_tier TEXT,
    chrf_plus_plus REAL,
    exact_match_rate REAL,
    fst_acceptance_rate REAL,
    corpus_bleu REAL,
    comet_score REAL,
    total_cost_usd REAL,
    cost_per_entry_usd REAL,
    cost_per_source_char REAL,
    avg_latency_seconds REAL,
    dataset_id TEXT,
    language_pair TEXT,
    fingerprint_hash TEXT,
    equivalent_match_rate REAL,
    semantic_score REAL,
    ter REAL,
    length_ratio REAL,
    code_switching_rate REAL,
    hallucination_rate REAL,
    terminology_adherence REAL,
    tokens_per_second REAL,
    entries_per_minute REAL,
    run_card TEXT
);
CREATE UNIQUE INDEX idx_runs_content ON runs(corpus_id, content_sha256);
CREATE INDEX idx_runs_composite ON runs(composite_score);
CREATE INDEX idx_runs_leaderboard ON runs(dataset_id, chrf_plus_plus);
CREATE INDEX idx_runs_model ON runs(model_slug);
CREATE INDEX idx_runs_fingerprint ON runs(fingerprint_hash);
CREATE TABLE outputs (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    entry_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    predicted TEXT NOT NULL DEFAULT '',
    raw_predicted TEXT,
    latency_s REAL,
    cost_usd REAL,
    cached INTEGER,
    usage TEXT,
    error TEXT,
    missing INTEGER NOT NULL DEFAULT 0,
    extra TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_id, entry_id)
);
CREATE TABLE glossaries (
    glossary_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    terms TEXT NOT NULL,
    source_path TEXT,
    imported_at TEXT NOT NULL
);
CREATE TABLE scoring_jobs (
    run_id TEXT PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,
    config TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    batch_size INTEGER NOT NULL,
    n_batches INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    state TEXT NOT NULL DEFAULT 'running'
);
CREATE TABLE scoring_batches (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    batch_index INTEGER NOT NULL,
    config_hash TEXT NOT NULL,
    n_entries INTEGER NOT NULL,
    done_at TEXT NOT NULL,
    PRIMARY KEY (run_id, batch_index)
);
CREATE TABLE entry_metrics (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    entry_id TEXT NOT NULL,
    metric_id TEXT NOT NULL,
    value REAL,
    data TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_id, metric_id, entry_id)
);
CREATE TABLE run_metrics (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    metric_id TEXT NOT NULL,
    availability TEXT NOT NULL,
    reason TEXT,
    "values" TEXT NOT NULL DEFAULT '{}',
    extra TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_id, metric_id)
);
CREATE TABLE fst_cache (
    analyzer_sha256 TEXT NOT NULL,
    word TEXT NOT NULL,
    analyses TEXT NOT NULL,
    PRIMARY KEY (analyzer_sha256, word)
);
CREATE TABLE reviewers (
    reviewer_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    dialect TEXT,
    languages TEXT NOT NULL DEFAULT '[]',
    consent_scope TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE judgments (
    judgment_id INTEGER PRIMARY KEY AUTOINCREMENT,
    reviewer_id TEXT NOT NULL REFERENCES reviewers(reviewer_id),
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    entry_id TEXT,
    task TEXT NOT NULL DEFAULT 'A',
    adequacy INTEGER CHECK (adequacy BETWEEN 1 AND 5),
    fluency INTEGER CHECK (fluency BETWEEN 1 AND 5),
    note TEXT,
    flagged INTEGER NOT NULL DEFAULT 0,
    payload TEXT NOT NULL DEFAULT '{}',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    superseded_by INTEGER REFERENCES judgments(judgment_id),
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_judgments_key ON judgments(run_id, entry_id, reviewer_id, task);
CREATE TABLE benchmark_runs (
    bench_run_id TEXT PRIMARY KEY,
    suite TEXT NOT NULL,
    suite_sha256 TEXT,
    model TEXT NOT NULL,
    responses_path TEXT,
    score REAL,
    categories TEXT NOT NULL DEFAULT '{}',
    defects TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL
);
CREATE TABLE benchmark_results (
    bench_run_id TEXT NOT NULL REFERENCES benchmark_runs(bench_run_id) ON DELETE CASCADE,
    test_id TEXT NOT NULL,
    category TEXT NOT NULL,
    method TEXT,
    score REAL,
    passed INTEGER,
    response TEXT,
    error TEXT,
    explanation TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (bench_run_id, test_id)
);
"""

# v2: ÈwéBench run metadata (responses sha256, active weight, word-list checksums, normalisation).
_V2 = """
ALTER TABLE benchmark_runs ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
CREATE INDEX idx_benchmark_runs_model ON benchmark_runs(model);
"""

# v3: speakers' review packs, corpus versions (variants promoted from speakers) and the consent log.
# ``review_packs.items``: JSON [[run_id, entry_id, word-or-null], ...] in pack order.
# ``corpus_versions.changes``: JSON [{"entry_id", "variant", "reviewer_id", "run_id", "judgment_id", "basis"}].
# ``consent_log``: when and by whom a reviewer's judgments were withdrawn (never what they were).
_V3 = """
CREATE TABLE review_packs (
    pack_id TEXT PRIMARY KEY,
    reviewer_id TEXT NOT NULL,
    task TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    items TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE TABLE corpus_versions (
    corpus_id TEXT NOT NULL REFERENCES corpora(corpus_id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    parent_version TEXT,
    sha256 TEXT NOT NULL,
    changes TEXT NOT NULL DEFAULT '[]',
    created_by TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (corpus_id, version)
);
CREATE TABLE consent_log (
    event_id INTEGER PRIMARY KEY AUTOINCREMENT,
    reviewer_id TEXT NOT NULL,
    action TEXT NOT NULL,
    done_by TEXT NOT NULL,
    done_at TEXT NOT NULL
);
"""


def finite_json(v: Any) -> Any:
    """``v`` with every NaN or infinity replaced by None (lists and objects walked)."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, list):
        return [finite_json(x) for x in v]
    if isinstance(v, dict):
        return {k: finite_json(x) for k, x in v.items()}
    return v


def repair_payload(raw: str | None) -> str:
    """A judgment payload as strict JSON: NaN and infinities become null; unreadable text is kept as a string."""
    try:
        value = json.loads(raw or "{}")
    except (ValueError, RecursionError):
        return json.dumps({"unreadable_payload": raw}, ensure_ascii=False, sort_keys=True)
    if not isinstance(value, dict):
        value = {"unreadable_payload": raw}
    return json.dumps(finite_json(value), ensure_ascii=False, sort_keys=True, allow_nan=False)


def _v4(conn: sqlite3.Connection) -> None:
    """Judgment payloads that SQLite cannot read as JSON (NaN written by older versions) are repaired."""
    bad = conn.execute("SELECT judgment_id, payload FROM judgments WHERE NOT json_valid(payload)").fetchall()
    for jid, raw in bad:
        conn.execute("UPDATE judgments SET payload = ? WHERE judgment_id = ?", (repair_payload(raw), jid))


# v5: per-run locks (one scoring job per run at a time; see store/locks.py)
_V5 = """
CREATE TABLE run_locks (
    run_id TEXT PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    process_started TEXT,
    purpose TEXT NOT NULL,
    acquired_at TEXT NOT NULL
);
"""


def _v6(conn: sqlite3.Connection) -> None:
    """Formerly the full-text indexes (FTS5 trigram) that v10 drops: nothing to make any more."""


def _v7(conn: sqlite3.Connection) -> None:
    """The scoring configuration stored with each scored run (a column added once)."""
    if "scoring_config" not in {r[1] for r in conn.execute("PRAGMA table_info(runs)")}:
        conn.execute("ALTER TABLE runs ADD COLUMN scoring_config TEXT")


# v8: the per-entry statistics of each scored run (store/statistics.py), stamped with the
# run's scored_at; a matrix is n_rows x n_cols little-endian float64, row-major.
_V8 = """
CREATE TABLE IF NOT EXISTS run_statistics (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    stats_key TEXT NOT NULL,
    scored_at TEXT NOT NULL,
    kind TEXT NOT NULL,
    params TEXT NOT NULL DEFAULT '[]',
    scale REAL NOT NULL DEFAULT 1.0,
    n_rows INTEGER NOT NULL,
    n_cols INTEGER NOT NULL,
    matrix BLOB NOT NULL,
    PRIMARY KEY (run_id, stats_key)
);
"""


def _v9(conn: sqlite3.Connection) -> None:
    """Withdrawals remembered with the ids they deleted; review packs' answer keys (columns added once)."""
    if "detail" not in {r[1] for r in conn.execute("PRAGMA table_info(consent_log)")}:
        conn.execute("ALTER TABLE consent_log ADD COLUMN detail TEXT NOT NULL DEFAULT '{}'")
    if "answers_key" not in {r[1] for r in conn.execute("PRAGMA table_info(review_packs)")}:
        conn.execute("ALTER TABLE review_packs ADD COLUMN answers_key TEXT")


# v10: the full-text indexes of v6 go (an FTS5 table's shadow tables go with it; a workspace
# made where SQLite lacked the trigram tokenizer never had them)
_V10 = """
DROP TABLE IF EXISTS entries_fts;
DROP TABLE IF EXISTS outputs_fts;
DROP TABLE IF EXISTS fts_indexed;
"""

# v11: review campaigns (store/campaigns.py): each one's definition, fixed when it is made
_V11 = """
CREATE TABLE IF NOT EXISTS campaigns (
    campaign_id TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# v12: speakers' ratings of benchmark responses (store/benchmarks.py), append-only like the judgment log:
# a new version supersedes the previous one. No foreign key to benchmark_runs: storing the same scoring again
# replaces its run row under the same id, and the ratings of its responses stay.
_V12 = """
CREATE TABLE IF NOT EXISTS benchmark_judgments (
    judgment_id INTEGER PRIMARY KEY AUTOINCREMENT,
    reviewer_id TEXT NOT NULL REFERENCES reviewers(reviewer_id),
    bench_run_id TEXT NOT NULL,
    test_id TEXT NOT NULL,
    adequacy INTEGER CHECK (adequacy BETWEEN 1 AND 5),
    fluency INTEGER CHECK (fluency BETWEEN 1 AND 5),
    note TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    superseded_by INTEGER REFERENCES benchmark_judgments(judgment_id)
);
CREATE INDEX IF NOT EXISTS idx_benchmark_judgments_key ON benchmark_judgments(bench_run_id, test_id, reviewer_id);
"""

# v13: a run's per-entry values looked up by entry (the review pane, an entry's details): the primary key
# leads with the metric, so without this index such a lookup reads every value of the run
_V13 = """
CREATE INDEX IF NOT EXISTS idx_entry_metrics_entry ON entry_metrics(run_id, entry_id);
"""

# v14: the results of run cards stored apart, in parts (store/results.py); the cards stored whole before are split
_V14 = """
CREATE TABLE IF NOT EXISTS run_card_results (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    items TEXT NOT NULL,
    PRIMARY KEY (run_id, part)
);
"""
V14_PART_BYTES = 1 << 20


def _v14(conn: sqlite3.Connection) -> None:
    """The ``run_card_results`` table, and the results of the run cards stored whole moved there: their
    items' JSON as SQLite reads it (one item at a time), about :data:`V14_PART_BYTES` to a part."""
    conn.execute(_V14)
    runs = [r[0] for r in conn.execute("SELECT run_id FROM runs WHERE run_card IS NOT NULL AND"
                                       " json_type(run_card, '$.results') = 'array' ORDER BY run_id")]
    for run_id in runs:
        part, size = 0, 0
        pieces: list[str] = []
        for (item,) in conn.execute("SELECT CASE WHEN type IN ('object', 'array') THEN value ELSE json_quote(value)"
                                    " END FROM json_each((SELECT run_card FROM runs WHERE run_id = ?), '$.results')",
                                    (run_id,)):
            pieces.append(item)
            size += len(item) + 1
            if size >= V14_PART_BYTES:
                conn.execute("INSERT INTO run_card_results (run_id, part, items) VALUES (?,?,?)",
                             (run_id, part, "[" + ",".join(pieces) + "]"))
                part, size = part + 1, 0
                pieces = []
        if pieces:
            conn.execute("INSERT INTO run_card_results (run_id, part, items) VALUES (?,?,?)",
                         (run_id, part, "[" + ",".join(pieces) + "]"))
        conn.execute("UPDATE runs SET run_card = json_set(run_card, '$.results', json('[]')) WHERE run_id = ?",
                     (run_id,))


Migration = str | Callable[[sqlite3.Connection], None]
# MIGRATIONS[i] brings a database from user_version i to i+1: an SQL script or a function
# run inside the migration's transaction.
MIGRATIONS: list[Migration] = [_V1, _V2, _V3, _v4, _V5, _v6, _v7, _V8, _v9, _V10, _V11, _V12, _V13, _v14]
SCHEMA_VERSION = len(MIGRATIONS)
