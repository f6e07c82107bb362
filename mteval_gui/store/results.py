"""Scoring results in the workspace: the scoring job's sink and readers for the GUI and CLI.

Tables (see :mod:`mteval_gui.store.schema`):

- ``scoring_jobs``: one row per run — configuration, its hash, batch size, state
  (``running`` / ``cancelled`` / ``done``);
- ``scoring_batches``: the batches already committed for that configuration;
- ``entry_metrics``: per (run, metric, entry) the headline ``value`` and the whole
  per-entry result as JSON (``{"value", "values", "detail"}``);
- ``run_metrics``: per (run, metric) availability, reason, corpus values and extra;
- ``runs``: the denormalised LYSS §9.1 columns and the run card JSON.

:class:`ResultsStore` implements :class:`mteval_gui.scoring.sink.ResultSink` by
duck typing (the store does not import the scoring core): each batch is one
transaction, so a crash or a cancel loses at most the batch in flight, and a job started
again with the same configuration hash skips the batches already stored. A job with a
different configuration starts from scratch (the old results of the run are dropped); with
the same one, the results of a metric whose own key changed (``config["metric_keys"]``: its
version, params, the language-card parts or data files it reads) or that the job does not run
are dropped, and the job scores them again.
"""

from __future__ import annotations

import json
import math
import operator
import sqlite3
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from itertools import islice
from typing import Any

import numpy as np

from mteval_gui.domain.runcard import RunCard
from mteval_gui.store.db import Workspace, utcnow
from mteval_gui.store.schema import RUN_CARD_COLUMNS


def _dumps(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)


def _card_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False, default=str)


CARD_PART_BYTES = 1 << 20  # the results of a run card are stored in parts of about this many bytes of text


def _card_summary_text(card: Mapping[str, Any]) -> str:
    """The stored JSON of a run card without its ``results`` items (``"results":[]`` in their place):
    ``runs.run_card``."""
    return _card_json({**card, "results": []} if "results" in card else card)


def _card_parts(card: Mapping[str, Any], part_bytes: int) -> Iterator[str]:
    """The ``results`` items of a run card as JSON arrays of consecutive items, each of about
    ``part_bytes`` characters (one item at least), non-ASCII characters escaped (a large card's
    text is then one byte per character: one Ewe or Cree letter among its results would make
    Python keep a whole part at two bytes per character, one emoji at four).

    The items are encoded one at a time and each is dropped from the card's list once encoded
    (None is left in its place): the JSON form of a million items is never held, nor more than
    one part of their text. Joined with commas inside brackets, the parts' items are
    ``json.dumps`` of the card's items."""
    results = card.get("results")
    if not isinstance(results, Sequence) or isinstance(results, (str, bytes)) or not results:
        return
    listed = results if isinstance(results, list) else None  # a ResultsJson makes its items when read
    pieces: list[str] = []
    size = 0
    for i, item in enumerate(results):
        text = _card_json(item)
        if listed is not None:
            listed[i] = None
        pieces.append(text)
        size += len(text) + 1
        if size >= part_bytes:
            yield "[" + ",".join(pieces) + "]"
            pieces, size = [], 0
    if pieces:
        yield "[" + ",".join(pieces) + "]"


def _card_text(card: Mapping[str, Any]) -> str:
    """The JSON of a run card as one text, its ``results`` items in place (:func:`_card_parts`)."""
    items = ",".join(p[1:-1] for p in _card_parts(card, CARD_PART_BYTES))
    if "results" not in card:
        return _card_json(card)
    slot = f"results slot {uuid.uuid4().hex}"
    before, after = _card_json({**card, "results": slot}).split(_card_json(slot), 1)
    return before + "[" + items + "]" + after


def _write_card(conn: sqlite3.Connection, run_id: str, card: Mapping[str, Any]) -> str:
    """Store a run card's ``results`` items in ``run_card_results`` (parts of about
    :data:`CARD_PART_BYTES`; the run's earlier parts go) and return the JSON of the rest, for
    ``runs.run_card``. A card of any size is stored in values far below SQLite's limit on one
    value (1,000,000,000 bytes as built, which the card of a run of about 800,000 entries
    exceeded whole), and no more than one part of its text is held while it is written."""
    conn.execute("DELETE FROM run_card_results WHERE run_id = ?", (run_id,))
    for index, text in enumerate(_card_parts(card, CARD_PART_BYTES)):
        conn.execute("INSERT INTO run_card_results (run_id, part, items) VALUES (?,?,?)", (run_id, index, text))
    return _card_summary_text(card)


def _get_path(data: Mapping[str, Any], dotted: str) -> Any:
    cur: Any = data
    for part in dotted.split("."):
        if not isinstance(cur, Mapping):
            return None
        cur = cur.get(part)
    return cur


def _kept_metrics(stored_config: str | None, config: Mapping[str, Any]) -> set[str] | None:
    """The metrics whose results stored under ``stored_config`` (JSON; same configuration hash)
    a job with ``config`` reuses: the same key in both ``metric_keys`` (None: ``config`` has no
    keys, every metric's; ``mteval_gui.scoring.sink.kept_metrics``)."""
    if "metric_keys" not in config:
        return None
    try:
        before = json.loads(stored_config or "{}").get("metric_keys") or {}
    except (ValueError, AttributeError):
        before = {}
    return {m for m, key in (config["metric_keys"] or {}).items() if key is not None and before.get(m) == key}


class ResultsStore:
    """The workspace sink of a scoring job (one instance per thread; uses ``ws.conn``).

    ``scoring_config`` (JSON) is stored as the run's ``scoring_config`` when the job begins, in
    the same transaction; when the run card is written, its ``scoring`` block replaces it.
    """

    def __init__(self, ws: Workspace, scoring_config: Mapping[str, Any] | None = None) -> None:
        self.ws = ws
        self.scoring_config = scoring_config

    # -- job -----------------------------------------------------------------

    def begin_job(self, run_id: str, config: dict[str, Any], config_hash: str, batch_size: int,
                  n_batches: int) -> set[int]:
        with self.ws.transaction() as conn:
            row = conn.execute("SELECT config_hash, config FROM scoring_jobs WHERE run_id = ?",
                               (run_id,)).fetchone()
            if row is None or row[0] != config_hash:
                conn.execute("DELETE FROM scoring_batches WHERE run_id = ?", (run_id,))
                conn.execute("DELETE FROM entry_metrics WHERE run_id = ?", (run_id,))
            else:  # same inputs for all: keep the metrics whose own key is unchanged
                keep = _kept_metrics(row[1], config)
                if keep is not None:
                    conn.execute(f"DELETE FROM entry_metrics WHERE run_id = ? AND metric_id NOT IN "
                                 f"({','.join('?' * len(keep))})", (run_id, *sorted(keep)))
            conn.execute(
                "INSERT INTO scoring_jobs (run_id, config, config_hash, batch_size, n_batches, started_at, state)"
                " VALUES (?,?,?,?,?,?,'running') ON CONFLICT(run_id) DO UPDATE SET config=excluded.config,"
                " config_hash=excluded.config_hash, batch_size=excluded.batch_size, n_batches=excluded.n_batches,"
                " started_at=excluded.started_at, finished_at=NULL, state='running'",
                (run_id, _dumps(config), config_hash, batch_size, n_batches, utcnow()),
            )
            conn.execute("UPDATE runs SET status = 'scoring' WHERE run_id = ?", (run_id,))
            if self.scoring_config is not None:
                conn.execute("UPDATE runs SET scoring_config = ? WHERE run_id = ?",
                             (_dumps(dict(self.scoring_config)), run_id))
        return self.done_batches(run_id, config_hash)

    def done_batches(self, run_id: str, config_hash: str) -> set[int]:
        cur = self.ws.conn.execute("SELECT batch_index FROM scoring_batches WHERE run_id = ? AND config_hash = ?",
                                   (run_id, config_hash))
        return {int(r[0]) for r in cur}

    def entry_counts(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, int]:
        ids = list(metric_ids)
        out = dict.fromkeys(ids, 0)
        if ids:
            cur = self.ws.conn.execute(f"SELECT metric_id, COUNT(*) FROM entry_metrics WHERE run_id = ? AND metric_id"
                                       f" IN ({','.join('?' * len(ids))}) GROUP BY metric_id", (run_id, *ids))
            out.update({str(m): int(c) for m, c in cur})
        return out

    def stored_entry_ids(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, set[str]]:
        ids = list(metric_ids)
        out: dict[str, set[str]] = {m: set() for m in ids}
        if not ids:
            return out
        cur = self.ws.conn.execute(f"SELECT metric_id, entry_id FROM entry_metrics WHERE run_id = ? AND metric_id IN "
                                   f"({','.join('?' * len(ids))})", (run_id, *ids))
        for mid, eid in cur:
            out[mid].add(eid)
        return out

    def write_batch(self, run_id: str, batch_index: int, config_hash: str, rows: Sequence[Any]) -> None:
        data = [(run_id, r.entry_id, r.metric_id, r.value, r.text if getattr(r, "text", None) is not None
                 else _dumps(r.data)) for r in rows]
        with self.ws.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?,?)",
                data)
            conn.execute(
                "INSERT OR REPLACE INTO scoring_batches (run_id, batch_index, config_hash, n_entries, done_at)"
                " VALUES (?,?,?,?,?)",
                (run_id, batch_index, config_hash, len({r.entry_id for r in rows}), utcnow()))

    def load_entry_scores(self, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        ids = list(metric_ids)
        out: dict[str, dict[str, dict[str, Any]]] = {m: {} for m in ids}
        if not ids:
            return out
        marks = ",".join("?" * len(ids))
        cur = self.ws.conn.execute(
            f"SELECT metric_id, entry_id, data FROM entry_metrics WHERE run_id = ? AND metric_id IN ({marks})",
            (run_id, *ids))
        for mid, eid, data in cur:
            out[mid][eid] = json.loads(data)
        return out

    def load_entry_texts(self, run_id: str, metric_id: str) -> dict[str, str]:
        """``{entry id: stored JSON text}`` of one metric's per-entry results (not decoded)."""
        cur = self.ws.conn.execute("SELECT entry_id, data FROM entry_metrics WHERE run_id = ? AND metric_id = ?",
                                   (run_id, metric_id))
        return dict(cur.fetchall())

    def write_run(self, run_id: str, run_card: dict[str, Any], metric_rows: Sequence[Any]) -> None:
        """Store the run card (its ``results`` apart, in parts; ``run_card["results"]`` is consumed, see
        :func:`_write_card`), its columns and the metric rows."""
        cols = {col: _get_path(run_card, path) for path, col in RUN_CARD_COLUMNS.items()}
        cols = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in cols.items()}
        sets = ", ".join(f'"{c}" = ?' for c in cols)
        with self.ws.transaction() as conn:
            conn.execute("DELETE FROM run_metrics WHERE run_id = ?", (run_id,))
            conn.executemany(
                'INSERT INTO run_metrics (run_id, metric_id, availability, reason, "values", extra)'
                " VALUES (?,?,?,?,?,?)",
                [
                    (run_id, m.metric_id, m.availability, m.reason, _dumps(m.values), _dumps(m.extra))
                    for m in metric_rows
                ],
            )
            summary = _write_card(conn, run_id, run_card)
            conn.execute(
                f"UPDATE runs SET {sets}, run_card = ?, status = 'scored', scored_at = ? WHERE run_id = ?",
                # microseconds: the time stamp identifies this scoring (app.compare caches by it), and a
                # run rescored within the same second must not look unchanged
                (*cols.values(), summary, datetime.now(UTC).isoformat(timespec="microseconds"), run_id))
            if run_card.get("scoring") is not None:
                conn.execute("UPDATE runs SET scoring_config = ? WHERE run_id = ?",
                             (_dumps(run_card["scoring"]), run_id))

    def mark_job(self, run_id: str, state: str) -> None:
        with self.ws.transaction() as conn:
            conn.execute("UPDATE scoring_jobs SET state = ?, finished_at = ? WHERE run_id = ?",
                         (state, utcnow() if state in ("done", "cancelled", "failed") else None, run_id))
            if state == "cancelled":
                conn.execute("UPDATE runs SET status = 'partly scored' WHERE run_id = ? AND status = 'scoring'",
                             (run_id,))


# --------------------------------------------------------------------------- readers


def entry_values(ws: Workspace, run_id: str, metric_id: str) -> dict[str, float | None]:
    """``{entry_id: headline value}`` of one metric for a run."""
    cur = ws.conn.execute("SELECT entry_id, value FROM entry_metrics WHERE run_id = ? AND metric_id = ?",
                          (run_id, metric_id))
    return dict(cur)


def entry_values_bulk(
    ws: Workspace, run_id: str, metric_ids: Iterable[str] | None = None
) -> dict[str, dict[str, float | None]]:
    """``{metric_id: {entry_id: value}}`` for several (default: all) metrics of a run."""
    sql = "SELECT metric_id, entry_id, value FROM entry_metrics WHERE run_id = ?"
    params: list[Any] = [run_id]
    if metric_ids is not None:
        ids = list(metric_ids)
        if not ids:
            return {}
        sql += f" AND metric_id IN ({','.join('?' * len(ids))})"
        params.extend(ids)
    # in key order: with an index on (run, entry) too, an unordered read could come in entry order
    out: dict[str, dict[str, float | None]] = {}
    for mid, eid, v in ws.conn.execute(sql + " ORDER BY metric_id, entry_id", params):
        out.setdefault(mid, {})[eid] = v
    return out


def entry_value_columns(ws: Workspace, run_id: str, entry_ids: Sequence[str],
                        metric_ids: Iterable[str] | None = None) -> dict[str, np.ndarray]:
    """Per metric a float array aligned with ``entry_ids`` (NaN where there is no value).

    Each metric's values are read in the order of the key (by entry id) as plain tuples; when they
    are those of exactly ``entry_ids`` (the usual case), they are placed by the order of the ids,
    without a lookup per entry."""
    ids = list(entry_ids)
    metrics = metric_ids_with_values(ws, [run_id], like="%") if metric_ids is None else list(dict.fromkeys(metric_ids))
    order: list[Any] = []  # [sorted ids, positions of the sorted ids or None when already sorted], once needed
    out: dict[str, np.ndarray] = {}
    cur = ws.conn.cursor()
    cur.row_factory = None
    try:
        for mid in metrics:
            rows = cur.execute("SELECT entry_id, value FROM entry_metrics WHERE run_id = ? AND metric_id = ?"
                               " ORDER BY entry_id", (run_id, mid)).fetchall()
            if not rows:
                continue
            if len(rows) == len(ids):
                if not order:
                    if all(map(operator.lt, ids, islice(ids, 1, None))):
                        order += [ids, None]
                    else:
                        positions = np.argsort(np.array(ids, dtype=object), kind="stable")
                        order += [[ids[i] for i in positions.tolist()], positions]
                if [r[0] for r in rows] == order[0]:
                    values = np.array([r[1] for r in rows], dtype=float)  # None: NaN
                    if order[1] is not None:
                        arr = np.empty(len(ids))
                        arr[order[1]] = values
                        values = arr
                    out[mid] = values
                    continue
            pos = {eid: i for i, eid in enumerate(ids)}
            arr = np.full(len(ids), np.nan)
            for eid, v in rows:
                i = pos.get(eid)
                if i is not None and v is not None:
                    arr[i] = v
            out[mid] = arr
    finally:
        cur.close()
    return out


def entry_scores(ws: Workspace, run_id: str, metric_id: str) -> dict[str, dict[str, Any]]:
    """``{entry_id: {"value", "values", "detail"}}`` of one metric for a run."""
    cur = ws.conn.execute("SELECT entry_id, data FROM entry_metrics WHERE run_id = ? AND metric_id = ?",
                          (run_id, metric_id))
    return {eid: json.loads(d) for eid, d in cur}


def entry_scores_many(ws: Workspace, run_id: str, metric_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{metric_id: {entry_id: {"value", "values", "detail"}}}`` of several metrics of a run, read in
    one query and decoded in one pass (tens of thousands of small JSON objects: one parse of their
    concatenation instead of one call each)."""
    ids = list(dict.fromkeys(metric_ids))
    if not ids:
        return {}
    rows = ws.conn.execute(f"SELECT metric_id, entry_id, data FROM entry_metrics WHERE run_id = ? "
                           f"AND metric_id IN ({','.join('?' * len(ids))}) ORDER BY metric_id, entry_id",
                           (run_id, *ids)).fetchall()
    decoded = json.loads("[" + ",".join(r[2] for r in rows) + "]") if rows else []
    out: dict[str, dict[str, dict[str, Any]]] = {m: {} for m in ids}
    for (mid, eid, _), d in zip(rows, decoded, strict=True):
        out[mid][eid] = d
    return out


def entry_verdicts(ws: Workspace, run_id: str, metric_id: str) -> dict[str, str | None]:
    """``{entry_id: detail.verdict}`` of one metric (decoded in SQL; e.g. a linter's verdicts)."""
    cur = ws.conn.execute("SELECT entry_id, json_extract(data, '$.detail.verdict') FROM entry_metrics"
                          " WHERE run_id = ? AND metric_id = ?", (run_id, metric_id))
    return dict(cur)


def entry_value_fields(ws: Workspace, run_id: str, metric_id: str, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``{key: {entry_id: values[key]}}`` of one metric (decoded in SQL; e.g. core.fst ``rejected``)."""
    keys = list(keys)
    if not keys:
        return {}
    cols = ", ".join("json_extract(data, ?)" for _ in keys)
    paths = [f'$.values."{k}"' for k in keys]
    cur = ws.conn.execute(f"SELECT entry_id, {cols} FROM entry_metrics WHERE run_id = ? AND metric_id = ?",
                          (*paths, run_id, metric_id))
    out: dict[str, dict[str, Any]] = {k: {} for k in keys}
    for row in cur:
        for k, v in zip(keys, row[1:], strict=True):
            out[k][row[0]] = v
    return out


def metric_ids_with_values(ws: Workspace, run_ids: Sequence[str], *, like: str | None = None) -> list[str]:
    """Metric ids with stored per-entry results in any of ``run_ids`` (with a value unless ``like``
    is given, which matches the id with SQL ``LIKE`` instead).

    The ids are found by seeking the primary key (run, metric, entry) from one metric to the next,
    so a run of a million entries costs a few lookups per metric, not a read of its values."""
    found: set[str] = set()
    for run_id in dict.fromkeys(run_ids):
        last = ""
        first = True
        while True:
            row = ws.conn.execute(
                "SELECT metric_id FROM entry_metrics WHERE run_id = ? AND metric_id > ? ORDER BY metric_id LIMIT 1"
                if not first else
                "SELECT metric_id FROM entry_metrics WHERE run_id = ? AND metric_id >= ? ORDER BY metric_id LIMIT 1",
                (run_id, last)).fetchone()
            if row is None:
                break
            first = False
            last = row[0]
            if like is None:
                if ws.conn.execute("SELECT 1 FROM entry_metrics WHERE run_id = ? AND metric_id = ?"
                                   " AND value IS NOT NULL LIMIT 1", (run_id, last)).fetchone() is not None:
                    found.add(last)
            elif ws.conn.execute("SELECT ? LIKE ?", (last, like)).fetchone()[0]:
                found.add(last)
    return sorted(found)


def entry_scores_with_verdict(ws: Workspace, run_id: str, metric_id: str,
                              verdict: str | None = None) -> dict[str, dict[str, Any]]:
    """Like :func:`entry_scores`, only the entries whose ``detail.verdict`` is ``verdict`` (filtered in
    SQL: on a large run most rows are never decoded)."""
    if verdict is None:
        return entry_scores(ws, run_id, metric_id)
    cur = ws.conn.execute("SELECT entry_id, data FROM entry_metrics WHERE run_id = ? AND metric_id = ?"
                          " AND json_extract(data, '$.detail.verdict') = ?", (run_id, metric_id, verdict))
    return {eid: json.loads(d) for eid, d in cur}


def entry_scores_with_count(ws: Workspace, run_id: str, metric_id: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    """(entry_id, stored result) in corpus order for the entries whose ``values[key]`` is positive
    (or absent: results stored without that count are read as well)."""
    cur = ws.conn.execute(
        "SELECT m.entry_id, m.data FROM entry_metrics m"
        " JOIN runs r ON r.run_id = m.run_id"
        " JOIN entries e ON e.corpus_id = r.corpus_id AND e.entry_id = m.entry_id"
        " WHERE m.run_id = ? AND m.metric_id = ?"
        " AND COALESCE(json_extract(m.data, ?), 1) > 0"
        " ORDER BY e.position", (run_id, metric_id, f'$.values."{key}"'))
    return [(eid, json.loads(d)) for eid, d in cur]


def entry_details(ws: Workspace, run_id: str, entry_id: str) -> dict[str, dict[str, Any]]:
    """Every metric's stored result for one entry: ``{metric_id: {"value", "values", "detail"}}``."""
    # sorted here: an ORDER BY metric_id leads SQLite to the primary key (run, metric, entry) and a
    # read of every value of the run, instead of the (run, entry) index
    rows = ws.conn.execute("SELECT metric_id, data FROM entry_metrics WHERE run_id = ? AND entry_id = ?",
                           (run_id, entry_id)).fetchall()
    return {mid: json.loads(d) for mid, d in sorted(rows, key=lambda r: r[0])}


def load_run_card_dict(ws: Workspace, run_id: str) -> dict[str, Any] | None:
    """The stored run card with its per-entry ``results`` (None when the run was never scored)."""
    row = ws.conn.execute("SELECT run_card FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None or row[0] is None:
        return None
    card = json.loads(row[0])
    if isinstance(card, dict) and (parts := iter_run_card_results(ws, run_id, stored_parts_only=True)) is not None:
        card["results"] = list(parts)
    return card


def iter_run_card_results(ws: Workspace, run_id: str, *,
                          stored_parts_only: bool = False) -> Iterator[dict[str, Any]] | None:
    """The per-entry ``results`` of the stored run card, decoded one stored part (about
    :data:`CARD_PART_BYTES` of text) at a time: a million entries' results are never held.

    None when the card's results are not stored apart (``stored_parts_only``) or the run has no
    card; a card written whole into ``runs.run_card`` (as before the results were stored apart)
    gives its own."""
    first = ws.conn.execute("SELECT 1 FROM run_card_results WHERE run_id = ? LIMIT 1", (run_id,)).fetchone()
    if first is None:
        if stored_parts_only:
            return None
        card = load_run_card_dict(ws, run_id)
        return None if card is None else iter(list(card.get("results") or []))

    def parts() -> Iterator[dict[str, Any]]:
        last = -1
        while True:  # one part read at a time, by key: no cursor is left open between parts
            row = ws.conn.execute("SELECT part, items FROM run_card_results WHERE run_id = ? AND part > ?"
                                  " ORDER BY part LIMIT 1", (run_id, last)).fetchone()
            if row is None:
                return
            last = row[0]
            yield from json.loads(row[1])

    return parts()


def load_run_card_summary(ws: Workspace, run_id: str) -> dict[str, Any] | None:
    """The stored run card without its per-entry ``results`` (a few kilobytes whatever the size of
    the run; a card stored whole has them cut in SQL)."""
    row = ws.conn.execute("SELECT json_remove(run_card, '$.results') FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None or row[0] is None:
        return None
    return json.loads(row[0])


def load_run_card(ws: Workspace, run_id: str) -> RunCard | None:
    """The last run card of a run (None when the run was never scored)."""
    d = load_run_card_dict(ws, run_id)
    return None if d is None else RunCard.model_validate(d)


def run_metric_rows(ws: Workspace, run_id: str) -> list[dict[str, Any]]:
    """Per metric: ``metric_id, availability, reason, values, extra``."""
    cur = ws.conn.execute('SELECT metric_id, availability, reason, "values", extra FROM run_metrics WHERE run_id = ?'
                          " ORDER BY rowid", (run_id,))
    return [{"metric_id": m, "availability": a, "reason": r, "values": json.loads(v), "extra": json.loads(x)}
            for m, a, r, v, x in cur]


def failed_metrics(ws: Workspace, run_id: str) -> list[tuple[str, str | None]]:
    """(metric id, reason) of each metric of the run's last scoring that ``failed``."""
    cur = ws.conn.execute("SELECT metric_id, reason FROM run_metrics WHERE run_id = ? AND availability = 'failed'"
                          " ORDER BY rowid", (run_id,))
    return [(str(m), r) for m, r in cur]


def load_scoring_config(ws: Workspace, run_id: str) -> dict[str, Any] | None:
    """The stored scoring configuration of the run's latest job (None: never recorded)."""
    row = ws.conn.execute("SELECT scoring_config FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None or row[0] is None:
        return None
    return json.loads(row[0])


def scoring_job(ws: Workspace, run_id: str) -> dict[str, Any] | None:
    """The run's scoring job: config, hash, batch size, batches done, state (None if never scored)."""
    row = ws.conn.execute("SELECT * FROM scoring_jobs WHERE run_id = ?", (run_id,)).fetchone()
    if row is None:
        return None
    d = dict(row)
    d["config"] = json.loads(d["config"])
    d["batches_done"] = ws.conn.execute(
        "SELECT COUNT(*) FROM scoring_batches WHERE run_id = ? AND config_hash = ?",
        (run_id, d["config_hash"])).fetchone()[0]
    return d


def clear_results(ws: Workspace, run_id: str) -> None:
    """Forget every scoring result of a run (the next scoring starts from scratch)."""
    with ws.transaction() as conn:
        for table in ("entry_metrics", "run_metrics", "run_statistics", "run_card_results", "scoring_batches",
                      "scoring_jobs"):
            conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))
        cols = ", ".join(f'"{c}" = NULL' for c in RUN_CARD_COLUMNS.values()
                         if c not in ("model_slug", "condition", "elapsed_seconds"))
        conn.execute(f"UPDATE runs SET {cols}, run_card = NULL, scoring_config = NULL, status = 'imported',"
                     " scored_at = NULL WHERE run_id = ?", (run_id,))
