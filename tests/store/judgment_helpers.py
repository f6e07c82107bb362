"""Minimal corpora, entries and runs inserted with SQL, for judgment and validation tests."""

from __future__ import annotations

from mteval_gui.store import Workspace


def add_corpus(
    ws: Workspace, corpus_id: str, entry_ids: list[str], *, source_lang: str = "eng", target_lang: str = "crk"
) -> None:
    with ws.transaction() as c:
        c.execute(
            "INSERT INTO corpora (corpus_id, version, source_lang, target_lang, sha256, entry_count, imported_at) "
            "VALUES (?, '1', ?, ?, ?, ?, '2024-01-01T00:00:00+00:00')",
            (corpus_id, source_lang, target_lang, "0" * 64, len(entry_ids)),
        )
        for pos, eid in enumerate(entry_ids):
            c.execute(
                "INSERT INTO entries (corpus_id, entry_id, position, source, reference) VALUES (?,?,?,?,?)",
                (corpus_id, eid, pos, f"source {eid}", f"reference {eid}"),
            )


def add_run(ws: Workspace, run_id: str, corpus_id: str, *, tier: str | None = None, model: str | None = None) -> None:
    with ws.transaction() as c:
        c.execute(
            "INSERT INTO runs (run_id, corpus_id, model_slug, content_sha256, imported_at, quality_tier) "
            "VALUES (?, ?, ?, ?, '2024-01-01T00:00:00+00:00', ?)",
            (run_id, corpus_id, model or run_id, run_id.ljust(64, "0"), tier),
        )


def add_entry_metric(ws: Workspace, run_id: str, metric_id: str, values: dict[str, float | None]) -> None:
    with ws.transaction() as c:
        for eid, v in values.items():
            c.execute(
                "INSERT INTO entry_metrics (run_id, entry_id, metric_id, value, data) VALUES (?,?,?,?, '{}')",
                (run_id, eid, metric_id, v),
            )


def add_outputs(ws: Workspace, run_id: str, outputs: dict[str, str]) -> None:
    with ws.transaction() as c:
        for pos, (eid, text) in enumerate(outputs.items()):
            c.execute("INSERT INTO outputs (run_id, entry_id, position, predicted) VALUES (?,?,?,?)",
                      (run_id, eid, pos, text))
