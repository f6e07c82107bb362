"""Scoring memory stays bounded as entries grow: what a job keeps after scoring its batches, the
reference-side store, the in-memory sink and the interval resamples (measured with tracemalloc)."""

from __future__ import annotations

import gc
import json
import pickle
import tracemalloc

import numpy as np
import pytest

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring import assembly, batches, corpus_side, job, merge, stats
from mteval_gui.scoring.job import ScoringJob, ScoringRequest
from mteval_gui.scoring.progress import CancelToken, Throttle
from mteval_gui.scoring.runner import score_run
from mteval_gui.scoring.sink import EntryRow, MemorySink, StoredRow

N = 2_500
METRICS = ["core.exact", "core.chrf", "core.ter"]


def _request(n: int) -> ScoringRequest:
    corpus = Corpus(corpus_id="big", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"The cat number {i} sits on the mat", difficulty=1 + i % 3,
              reference=f"Le chat numéro {i} est assis sur le tapis {i % 7}") for i in range(n)])
    run = Run(meta=RunMeta(run_id="big-run", model_slug="m"), corpus_id="big", outputs=[
        Output(id=f"e{i}", predicted=f"Un chat {i} assis sur le tapis" if i % 4 else corpus.entries[i].reference or "")
        for i in range(n)])
    return ScoringRequest(run_id="big-run", corpus=corpus, run=run, include=METRICS, batch_size=200,
                          n_bootstrap=100)


def _scored(n: int) -> tuple[ScoringJob, MemorySink]:
    """A job whose batches are scored and stored (the stages after them not run yet)."""
    request = _request(n)
    sink = MemorySink()
    report = Throttle(None)
    j = ScoringJob.start(request)
    j.states = batches.resolve_metrics(request)
    batches.prepare(j, report)
    j.config, j.config_hash = batches.config_of(request, j.states)
    batches.score_batches(j, sink, CancelToken(), report)
    return j, sink


def _card(result) -> dict:
    card = result.run_card.model_dump(mode="json")
    card.pop("timestamp")
    for key in ("entries_per_second", "seconds_per_entry"):
        card["scores"].pop(key, None)
    return card


def test_a_large_job_keeps_no_decoded_per_entry_results_and_scores_as_before(monkeypatch):
    monkeypatch.setattr(job, "KEEP_DECODED_ENTRIES", 1_000)  # N entries make a large job
    j, sink = _scored(N)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        batches.aggregate(j, sink)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # the decoded results of the three metrics take ≈ 570 bytes per entry (1.4 MB here, kept
    # until the run card was built); one metric's at a time are read, then dropped
    assert kept < 250_000, f"{kept:,} bytes kept after aggregation"
    assert not j.per_entry.kept
    assert sorted(j.per_entry) == sorted(METRICS)
    chrf = j.per_entry["core.chrf"]
    assert len(chrf) == N and chrf[4].value == pytest.approx(100.0)  # an output equal to its reference
    merge.merge(j)
    large = assembly.assemble(j)
    # the same scores, intervals and results[] as a job that keeps every decoded result
    monkeypatch.setattr(job, "KEEP_DECODED_ENTRIES", 10 * N)
    kept_all = score_run(_request(N))
    assert kept_all.per_entry.kept
    assert _card(large) == _card(kept_all)
    assert large.run_card.results[4].metrics == {"core.exact": 1.0, "core.chrf": 100.0, "core.ter": 0.0}


def test_the_memory_sink_keeps_the_text_of_each_result_only():
    sink = MemorySink()
    sink.begin_job("r", {}, "h", 10, 1)
    data = {"value": 0.5, "values": {}, "detail": {"stats": [1, 2, 3]}}
    sink.write_batch("r", 0, "h", [EntryRow("e1", "m", 0.5, data, json.dumps(data, separators=(",", ":")))])
    assert sink.rows == {"r": {("m", "e1"): StoredRow("e1", "m", 0.5, '{"value":0.5,"values":{},'
                                                                      '"detail":{"stats":[1,2,3]}}')}}
    assert sink.rows["r"][("m", "e1")].data == data
    assert sink.load_entry_scores("r", ["m", "other"]) == {"m": {"e1": data}, "other": {}}


def test_the_reference_side_store_keeps_a_bounded_number_of_entries(monkeypatch):
    monkeypatch.setattr(corpus_side, "MAX_TABLE_ENTRIES", 3)
    store = corpus_side.CorpusSide("c", "v1")
    calls: list[str] = []

    def value(i: int):
        return lambda: calls.append(f"e{i}") or i * 10

    assert [store.get("ns", f"e{i}", ("ref",), value(i)) for i in range(5)] == [0, 10, 20, 30, 40]
    assert sorted(store.table("ns")) == ["e0", "e1", "e2"]
    # kept entries are reused, the others computed again (same values)
    assert [store.get("ns", f"e{i}", ("ref",), value(i)) for i in range(5)] == [0, 10, 20, 30, 40]
    assert calls == ["e0", "e1", "e2", "e3", "e4", "e3", "e4"]
    # an entry kept with other reference texts is replaced, not added
    assert store.get("ns", "e0", ("new ref",), value(9)) == 90 and len(store.table("ns")) == 3


def test_interval_resamples_are_drawn_in_bounded_chunks_with_the_same_intervals():
    n, b = 200_000, 1000
    rng = np.random.default_rng(3)
    s = stats.EntryStats.ratio(rng.integers(0, 5, n).astype(float), np.ones(n))
    tracemalloc.start()
    try:
        ci = stats.bootstrap_ci(s, n_bootstrap=b, seed=12345)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the whole resample matrix would be 1000 × 200,000 × 8 bytes = 1.6 GB
    assert peak < 4 * stats._CHUNK_CELLS * 8, f"peak {peak:,} bytes"
    assert (round(ci.ci_lower, 6), round(ci.ci_upper, 6)) == (1.991315, 2.003422)


def test_entries_and_outputs_read_share_one_fields_set_per_model(tmp_path):
    from mteval_gui.io import read_corpus
    from mteval_gui.store import Workspace, repo
    from tests.app.scoring_helpers import make_workspace

    make_workspace(tmp_path / "ws.sqlite", 3)
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        entries, outputs = repo.get_entries(ws, "c"), repo.get_outputs(ws, "r")
    finally:
        ws.close()
    path = tmp_path / "c.jsonl"
    path.write_text('{"id": "a", "source": "x", "reference": "y"}\n{"id": "b", "source": "z", "reference": "w"}\n',
                    encoding="utf-8")
    read = read_corpus(path, source_lang="eng", target_lang="fra").value.entries
    for models in (entries, outputs, read):
        assert len({id(m.__pydantic_fields_set__) for m in models}) == 1  # 728 bytes each otherwise
        assert all(m.model_fields_set == set(m.__dict__) for m in models)
    assert entries[1].model_dump(exclude_unset=True)["reference"] == "le chat 1 dort"
    assert read[1].model_dump(exclude_unset=True)["source"] == "z"


def _stored_card_text(ws_or_conn, run_id: str = "r") -> tuple[str, list[str]]:
    """The stored text of a run card (``runs.run_card``) and of its results' parts, in order."""
    conn = getattr(ws_or_conn, "conn", ws_or_conn)
    head = conn.execute("SELECT run_card FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0]
    parts = [r[0] for r in conn.execute("SELECT items FROM run_card_results WHERE run_id = ? ORDER BY part",
                                        (run_id,))]
    return head, parts


def _joined(head: str, parts: list[str]) -> str:
    """The card's whole text from its stored pieces (its results in place of ``"results":[]``)."""
    items = ",".join(p[1:-1] for p in parts)
    assert head.count('"results":[]') >= 1
    return head.replace('"results":[]', '"results":[' + items + "]", 1)


def test_a_stored_run_card_is_ascii_text_with_the_same_content(tmp_path):
    from mteval_gui.store import Workspace
    from mteval_gui.store.results import ResultsStore, load_run_card_dict, load_run_card_summary
    from tests.app.scoring_helpers import make_workspace

    make_workspace(tmp_path / "ws.sqlite", 2)
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        card = {"run_id": "r", "scores": {"composite": 0.5}, "results": [{"predicted": "ɖevi nyuie 😀"}]}
        ResultsStore(ws).write_run("r", json.loads(json.dumps(card)), [])
        # one byte per character in memory whatever the results hold; the results apart from the rest
        assert _stored_card_text(ws) == ('{"run_id":"r","scores":{"composite":0.5},"results":[]}',
                                         ['[{"predicted":"\\u0256evi nyuie \\ud83d\\ude00"}]'])
        assert load_run_card_dict(ws, "r") == card
        assert load_run_card_summary(ws, "r") == {"run_id": "r", "scores": {"composite": 0.5}}
    finally:
        ws.close()


def test_the_results_of_a_stored_run_card_are_dropped_as_they_are_encoded(tmp_path):
    """Writing a card held its JSON form (≈ 1.8 kB an item) and its text (≈ 1.2 kB, twice while
    joined) whole; each item is dropped once encoded, and the text is the same."""
    from mteval_gui.store import Workspace
    from mteval_gui.store.results import ResultsStore
    from tests.app.scoring_helpers import make_workspace

    make_workspace(tmp_path / "ws.sqlite", 2)
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        card = {"run_id": "r", "results": [{"entry_id": f"e{i}", "metrics": {"core.exact": i % 2},
                                            "note": "ɖ" * (i % 3), "results": []} for i in range(4)],
                "scores": {"composite": 0.5, "results": "-"}}
        expected = json.dumps(card, ensure_ascii=True, separators=(",", ":"))
        ResultsStore(ws).write_run("r", card, [])
        assert card["results"] == [None, None, None, None]
        head, parts = _stored_card_text(ws)
        assert head == '{"run_id":"r","results":[],"scores":{"composite":0.5,"results":"-"}}'
        assert len(parts) == 1 and _joined(head, parts) == expected
    finally:
        ws.close()


def _assembled_bytes(j: ScoringJob) -> tuple[int, object]:
    """What the run card of an assembled job takes (tracemalloc), and the result."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = assembly.assemble(j)
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before, result
    finally:
        tracemalloc.stop()


def test_a_card_written_from_its_json_form_holds_its_results_once_and_is_the_same_card():
    """Every results[] item was held as a pydantic model and as its JSON form (3.4 + 1.8 kB an entry)
    while the card was written; a request with ``result_models=False`` (the workspace and ``mteval
    evaluate``) keeps the JSON form only, and the card is the same."""
    j, _ = _scored(N)
    batches.aggregate(j, MemorySink())
    merge.merge(j)
    with_models, full = _assembled_bytes(j)
    j.request.result_models = False
    json_only, lean = _assembled_bytes(j)
    assert lean.run_card.results == [] and len(lean.card_json["results"]) == N
    assert lean.card_json["results"] == full.card_json["results"]
    assert {**_card(lean), "results": lean.card_json["results"]} == _card(full)
    # measured: 14.4 MB with the models, 2.1 MB without (2,500 entries; the texts are shared with the corpus)
    assert json_only < 0.3 * with_models, f"{json_only:,} bytes held without the models, {with_models:,} with"


def test_a_workspace_request_holds_its_entries_and_outputs_packed_and_a_batch_decodes_its_own(tmp_path):
    from mteval_gui.app.scoring import build_request
    from mteval_gui.scoring.job import PACK_CHUNK, Items, Packed
    from mteval_gui.store import Workspace, repo
    from tests.app.scoring_helpers import make_workspace

    n = 10 * PACK_CHUNK
    make_workspace(tmp_path / "ws.sqlite", n)
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        request = build_request(ws, "r", metrics=["core.exact"])
        entries, outputs = repo.get_entries(ws, "c"), repo.get_outputs(ws, "r")
    finally:
        ws.close()
    packed, packed_out = request.corpus.entries, request.run.outputs
    assert isinstance(packed, Packed) and isinstance(packed_out, Packed)
    assert len(packed) == n and packed.ids == [e.id for e in entries]
    j = ScoringJob.start(request)
    assert isinstance(j.items, Items) and j.missing == [] and j.unknown == []
    # one batch in the middle: its entries only are decoded (one chunk), equal to those read as models
    batch = j.items[3 * PACK_CHUNK + 5:3 * PACK_CHUNK + 25]
    assert packed.decoded == 1 and packed_out.decoded == 1
    assert [it.index for it in batch] == list(range(3 * PACK_CHUNK + 5, 3 * PACK_CHUNK + 25))
    assert [it.entry for it in batch] == entries[3 * PACK_CHUNK + 5:3 * PACK_CHUNK + 25]
    assert [it.output for it in batch] == outputs[3 * PACK_CHUNK + 5:3 * PACK_CHUNK + 25]
    assert j.items[-1].entry.id == "e639" and j.items[-1].index == n - 1 and list(packed) == entries
    assert j.entry_ids == [e.id for e in entries]
    # held packed, the entries take a fraction of their decoded models
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        again = Packed.pack(e.model_copy() for e in entries)
        size_packed = tracemalloc.get_traced_memory()[0] - base
        copies = [e.model_copy(deep=True) for e in entries]
        size_models = tracemalloc.get_traced_memory()[0] - base - size_packed
    finally:
        tracemalloc.stop()
    assert len(again) == len(copies) == n
    assert size_packed < size_models / 3, (size_packed, size_models)


def test_aggregation_reads_each_result_as_its_text_and_decodes_it_when_read():
    from mteval_gui.scoring.plugins import EntryScore, StoredScore

    data = {"value": 1, "values": {"n": 2}, "detail": {"stats": [1, 2, 3], "verdict": "MISS"}}
    s = StoredScore(json.dumps(data))
    assert (s.value, s.values, s.detail) == (1, {"n": 2}, {"stats": [1, 2, 3], "verdict": "MISS"})
    assert s == EntryScore(1, {"n": 2}, {"stats": [1, 2, 3], "verdict": "MISS"}) == s
    assert s != EntryScore(1, {"n": 2}, {})
    assert s.to_json() == data and "detail" not in vars(s)  # decoded when read, not kept
    s.detail = {"other": True}
    assert s.detail == {"other": True} and s.values == {"n": 2}
    assert StoredScore('{"value":null}').values == {} and StoredScore('{"value":null}').detail == {}


def test_aggregating_a_large_job_holds_one_metric_s_results_as_text(monkeypatch):
    monkeypatch.setattr(job, "KEEP_DECODED_ENTRIES", 1_000)
    j, sink = _scored(N)
    gc.collect()
    tracemalloc.start()
    try:
        batches.aggregate(j, sink)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # measured: 840 bytes an entry; decoded, one metric's results of every entry took 1,810
    assert peak / N < 1_200, f"{peak / N:.0f} bytes an entry at the peak of aggregation"
    assert {mid: st.availability for mid, st in ((s.ref.id, s) for s in j.states)} == dict.fromkeys(METRICS, "ok")


def test_results_are_made_as_the_card_is_written_and_never_all_held(monkeypatch):
    from mteval_gui.scoring.assembly import ResultsJson
    from mteval_gui.store.results import _card_text

    monkeypatch.setattr(job, "KEEP_DECODED_ENTRIES", 1_000)
    # a first job of the same size: what a card costs once per process (imports, schemas, the resample
    # weights kept for this many entries), whatever ran before in this process, is not counted
    small, small_sink = _scored(N)
    small.request.result_models = False
    batches.aggregate(small, small_sink)
    merge.merge(small)
    assembly.assemble(small)
    del small, small_sink
    j, sink = _scored(N)
    j.request.result_models = False
    batches.aggregate(j, sink)
    merge.merge(j)
    gc.collect()
    tracemalloc.start()
    try:
        result = assembly.assemble(j)
        assembled = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    results = result.card_json["results"]
    assert isinstance(results, ResultsJson) and len(results) == N
    # all of results[] in their JSON form took ≈ 1.8 kB an entry
    assert assembled / N < 900, f"{assembled / N:.0f} bytes an entry at the peak of assembly"
    assert results[4]["metrics"] == {"core.exact": 1.0, "core.chrf": 100.0, "core.ter": 0.0}
    assert results[-1]["entry_id"] == f"e{N - 1}" and results[4:6] == [results[4], results[5]]
    listed = list(results)
    assert results._columns is None  # read through: its columns are let go before the card's text is stored
    assert listed[4] == results[4] and len(listed) == N
    # the stored text is that of the card with its results listed
    assert _card_text(result.card_json) == _card_text({**result.card_json, "results": listed})


def test_the_memory_sink_keeps_a_batch_s_texts_compressed_and_a_batch_scored_again_replaces_its_own():
    sink = MemorySink()
    sink.begin_job("r", {}, "h", 2, 2)

    def row(eid: str, mid: str, v: float) -> EntryRow:
        data = {"value": v, "values": {}, "detail": {"verdict": "MISS", "stats": [1, 2, 3, 4, 5, 6]}}
        return EntryRow(eid, mid, v, data)

    sink.write_batch("r", 0, "h", [row("a", "m", 0.5), row("b", "m", 1.0), row("a", "k", 2.0)])
    sink.write_batch("r", 1, "h", [row("c", "m", 0.0)])
    sink.write_batch("r", 0, "h", [row("b", "m", 3.0)])  # a metric's result scored again
    assert sink.entry_counts("r", ["m", "k", "x"]) == {"m": 3, "k": 1, "x": 0}
    assert sink.stored_entry_ids("r", ["m"]) == {"m": {"a", "b", "c"}}
    assert {e: json.loads(t)["value"] for e, t in sink.load_entry_texts("r", "m").items()} == {
        "a": 0.5, "b": 3.0, "c": 0.0}
    assert sink.load_entry_scores("r", ["k"])["k"]["a"]["value"] == 2.0
    assert sink.done_batches("r", "h") == {0, 1}
    many = MemorySink()
    many.begin_job("r", {}, "h", 200, 1)
    rows = [row(f"e{i}", "m", i % 3 / 2) for i in range(2_000)]
    gc.collect()
    tracemalloc.start()
    try:
        many.write_batch("r", 0, "h", rows)
        del rows
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    # each text is 87 bytes: held as strings in a dict they took ≈ 250 bytes an entry
    assert held / 2_000 < 60, f"{held / 2_000:.0f} bytes an entry held"
    assert len(many.load_entry_texts("r", "m")) == 2_000


def test_a_packed_sequence_filled_as_it_is_read_holds_one_chunk_decoded_at_most():
    from mteval_gui.domain.packed import PACK_CHUNK, Packed

    entries = [Entry(id=f"e{i}", source=f"s{i}", reference=f"r{i}") for i in range(2 * PACK_CHUNK + 5)]
    packed: Packed[Entry] = Packed()
    for e in entries[:PACK_CHUNK + 3]:
        packed.append(e)
    # a whole chunk and three models not yet making one: both read, the open part as it is
    assert len(packed) == 67 and packed[66].id == "e66" and packed[-1].id == "e66" and packed[63].id == "e63"
    assert [e.id for e in packed[62:66]] == ["e62", "e63", "e64", "e65"]
    for e in entries[PACK_CHUNK + 3:]:
        packed.append(e)
    assert packed.most_open == PACK_CHUNK  # the open chunk is pickled as soon as it is whole
    assert packed.ids == [f"e{i}" for i in range(133)] and list(packed) == entries
    assert packed[120:133] == entries[120:133] and packed[5] == entries[5]
    with pytest.raises(IndexError):
        packed[133]  # noqa: B018 - the read is the test


def test_text_corpus_and_run_files_are_packed_as_they_are_read(tmp_path):
    from mteval_gui.domain.packed import PACK_CHUNK, Packed
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run

    n = 5 * PACK_CHUNK + 7
    (tmp_path / "src.txt").write_text("".join(f"Le chat {i}.\n" for i in range(n)), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(f"Avu {i}.\n" if i % 9 else "\n" for i in range(n)), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("".join(f"Avu {i % 5}.\n" for i in range(n)), encoding="utf-8")
    plain = read_corpus(tmp_path / "src.txt", ref_path=tmp_path / "ref.txt", source_lang="fra", target_lang="ewe")
    packed = read_corpus(tmp_path / "src.txt", ref_path=tmp_path / "ref.txt", source_lang="fra",
                         target_lang="ewe", packed=True)
    entries = packed.value.entries
    assert isinstance(entries, Packed) and entries.most_open == PACK_CHUNK and entries.decoded == 0
    assert list(entries) == plain.value.entries and len(entries) == 327
    assert entries[9].reference is None and entries[326].source == "Le chat 326."
    assert (packed.lines, packed.warnings) == (plain.lines, plain.warnings)
    assert packed.warnings == ["37 empty reference line(s) imported as reference-free entries"]
    ids = [e.id for e in plain.value.entries]
    run_plain = read_run(tmp_path / "hyp.txt", entry_ids=ids)
    run_packed = read_run(tmp_path / "hyp.txt", entry_ids=ids, packed=True)
    outputs = run_packed.value.outputs
    assert isinstance(outputs, Packed) and outputs.most_open == PACK_CHUNK
    assert list(outputs) == run_plain.value.outputs and outputs[326].predicted == "Avu 1."
    assert run_packed.value.meta == run_plain.value.meta and run_packed.lines == run_plain.lines


def test_a_jsonl_corpus_asked_packed_is_packed_after_reading(tmp_path):
    from mteval_gui.domain.packed import Packed
    from mteval_gui.io.corpus import read_corpus

    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"id": f"x{i}", "source": f"a {i}", "reference": f"b {i}"}) + "\n"
                            for i in range(70)), encoding="utf-8")
    loaded = read_corpus(path, source_lang="fra", target_lang="ewe", packed=True)
    assert isinstance(loaded.value.entries, Packed)
    assert list(loaded.value.entries) == read_corpus(path, source_lang="fra", target_lang="ewe").value.entries


def test_asking_whether_a_large_run_has_a_metric_reads_none_of_its_results():
    from mteval_gui.scoring.job import KEEP_DECODED_ENTRIES, PerEntry
    from mteval_gui.scoring.plugins import EntryScore

    loaded: list[str] = []

    def load(mid: str) -> list[EntryScore | None]:
        loaded.append(mid)
        return [EntryScore(0.5)] * 3

    per_entry = PerEntry(KEEP_DECODED_ENTRIES + 1, load)
    per_entry["core.chrf"] = [EntryScore(0.5)] * 3
    assert "core.chrf" in per_entry and "core.ter" not in per_entry and loaded == []
    assert per_entry.get("core.ter") is None and loaded == []
    assert [s.value for s in per_entry["core.chrf"] if s is not None] == [0.5, 0.5, 0.5]
    assert loaded == ["core.chrf"] and list(per_entry) == ["core.chrf"]


def test_packed_entries_hold_their_chunks_compressed_and_give_back_equal_models():
    from mteval_gui.domain.packed import PACK_CHUNK, Packed

    entries = [Entry(id=f"e{i}", source=f"The cat number {i} sits on the mat", difficulty=1 + i % 3,
                     reference=f"Le chat numéro {i} est assis sur le tapis") for i in range(5 * PACK_CHUNK + 3)]
    packed = Packed.pack(entries)
    pickled = sum(len(pickle.dumps(entries[k:k + PACK_CHUNK], protocol=pickle.HIGHEST_PROTOCOL))
                  for k in range(0, 5 * PACK_CHUNK, PACK_CHUNK))
    # measured: 12,433 bytes held for the five whole chunks, 61,139 pickled
    assert packed.packed_bytes < pickled / 3, (packed.packed_bytes, pickled)
    assert list(packed) == entries and packed[2 * PACK_CHUNK + 7] == entries[2 * PACK_CHUNK + 7]
    assert packed[PACK_CHUNK - 2:PACK_CHUNK + 2] == entries[PACK_CHUNK - 2:PACK_CHUNK + 2]
    assert packed[-1].id == f"e{5 * PACK_CHUNK + 2}"


def _big_card(n: int) -> dict:
    return {"card_version": "1", "run": {"run_id": "r", "note": "Ewe ŋdi"},
            "results": [{"entry_id": f"e{i}", "source": f"La phrase numéro {i} du corpus",
                         "reference": f"Nyagbɔgblɔ {i} le agbalẽ me", "predicted": f"Nya {i} ŋdi",
                         "metrics": {"core.chrf": i / 7, "core.exact": float(i % 2)}} for i in range(n)]}


def test_a_large_run_card_is_stored_in_parts_and_never_held_whole_while_it_is_written(tmp_path, monkeypatch):
    import sqlite3

    from mteval_gui.store import Workspace, results
    from mteval_gui.store.results import ResultsStore, load_run_card_dict, load_run_card_summary
    from tests.app.scoring_helpers import make_workspace

    monkeypatch.setattr(results, "CARD_PART_BYTES", 64_000)  # a megabyte, scaled down like the card
    make_workspace(tmp_path / "ws.sqlite", 3)
    card = _big_card(12_000)
    original = json.loads(json.dumps(card))
    expected = json.dumps(card, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    assert len(expected) > 2_500_000
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        gc.collect()
        tracemalloc.start()
        try:
            ResultsStore(ws).write_run("r", card, [])
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        summary = load_run_card_summary(ws, "r")
        assert load_run_card_dict(ws, "r") == original
    finally:
        ws.close()
    # measured: 0.11 times the text's length (a part, and what writing it takes); 1.01 times when the text
    # was written whole from a file, 2.27 times when it was accumulated in memory and then joined
    assert peak < 0.2 * len(expected), f"peak {peak / len(expected):.2f} times the card's text"
    assert card["results"] == [None] * 12_000  # each item dropped once encoded
    with sqlite3.connect(tmp_path / "ws.sqlite") as conn:
        head, parts = _stored_card_text(conn)
        kinds = {r[0] for r in conn.execute("SELECT typeof(items) FROM run_card_results")}
    assert kinds == {"text"} and len(parts) == len(expected) // 64_000 + 1
    assert max(map(len, parts)) < 64_000 + 300
    assert _joined(head, parts) == expected  # byte for byte the card's JSON, as text
    assert summary == {"card_version": "1", "run": {"run_id": "r", "note": "Ewe ŋdi"}}


def test_a_small_run_card_is_stored_as_the_same_text(tmp_path):
    import sqlite3

    from mteval_gui.store import Workspace
    from mteval_gui.store.results import ResultsStore
    from tests.app.scoring_helpers import make_workspace

    make_workspace(tmp_path / "ws.sqlite", 3)
    card = _big_card(2)
    expected = json.dumps(card, ensure_ascii=True, separators=(",", ":"))
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        ResultsStore(ws).write_run("r", card, [])
    finally:
        ws.close()
    with sqlite3.connect(tmp_path / "ws.sqlite") as conn:
        head, parts = _stored_card_text(conn)
        assert conn.execute("SELECT typeof(run_card) FROM runs").fetchone() == ("text",)
    assert len(parts) == 1 and _joined(head, parts) == expected
    assert '"note":"Ewe \\u014bdi"' in head


def test_a_large_corpus_fills_the_reference_side_tables_and_the_sentence_memos_to_their_bounds_only():
    from mteval_gui import text

    corpus_side.clear()
    text._word_tokens.cache_clear()
    result = score_run(_request(N))
    assert result.run_card.scores.chrf_plus_plus is not None
    stores = [corpus_side.corpus_side(*key) for key in corpus_side.cached_versions()]
    sizes = [len(s.table(ns)) for s in stores for ns in s.namespaces()]
    # every entry's reference statistics were kept before (10,000 a table): ≈ 5 kB an entry over the tables
    assert sizes and max(sizes) == corpus_side.MAX_TABLE_ENTRIES == 2_000
    # the sentence memos keep 4,096 texts (16,384 before)
    for i in range(5_000):
        assert text.word_tokens(f"Nyagbɔgblɔ {i} le agbalẽ me.") == ["Nyagbɔgblɔ", "le", "agbalẽ", "me"]
    assert text._word_tokens.cache_info().currsize == text.TEXT_MEMO == 4_096


def test_a_run_card_larger_than_a_workspace_value_is_stored_and_read_back(tmp_path, monkeypatch):
    """The card of a run of a million entries (≈ 1.2 GB of text) was refused: SQLite stores at most
    1,000,000,000 bytes in one value. Its results are stored in parts far below that."""
    import sqlite3

    from mteval_gui.store import Workspace, results
    from mteval_gui.store.results import ResultsStore, iter_run_card_results, load_run_card_dict
    from tests.app.scoring_helpers import make_workspace

    monkeypatch.setattr(results, "CARD_PART_BYTES", 20_000)  # scaled down with SQLite's limit
    make_workspace(tmp_path / "ws.sqlite", 3)
    card = _big_card(1_000)
    original = json.loads(json.dumps(card))
    assert len(json.dumps(card, ensure_ascii=True, separators=(",", ":"))) > 200_000
    ws = Workspace(tmp_path / "ws.sqlite")
    try:
        ws.conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 100_000)  # SQLite's 1 GB, scaled down
        ResultsStore(ws).write_run("r", card, [])
        assert ws.conn.execute("SELECT status FROM runs WHERE run_id = 'r'").fetchone()[0] == "scored"
        assert load_run_card_dict(ws, "r") == original
        items = iter_run_card_results(ws, "r")
        assert items is not None and next(items) == original["results"][0]
        assert list(items) == original["results"][1:]
    finally:
        ws.close()
