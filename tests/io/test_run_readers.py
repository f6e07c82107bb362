"""Run readers (SPEC §1.2), glossary readers (§1.3) and previews."""

from __future__ import annotations

import json

import pytest

from mteval_gui.errors import InputError
from mteval_gui.io import preview, read_glossary, read_run


def write(path, text):
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_jsonl_run_with_metadata_line(tmp_path):
    p = write(tmp_path / "r.jsonl", "\n".join([
        json.dumps({"run": {"run_id": "r1", "model_slug": "m", "temperature": 0.3, "corpus_id": "c1",
                            "pricing": {"prompt_per_1k": 0.1, "completion_per_1k": 0.2}}}),
        json.dumps({"id": "a", "predicted": "nipa\u0302w", "latency_s": 1.5, "cost_usd": 0.001, "cached": 1,
                    "usage": {"prompt_tokens": 10, "completion_tokens": 2}, "tool_calls": 0}),
        json.dumps({"id": 2, "predicted": None, "error": "HTTP 503 from provider"}),
    ]))
    loaded = read_run(p)
    run = loaded.value
    assert loaded.format == "jsonl"
    assert run.meta.run_id == "r1" and run.meta.model_slug == "m" and run.meta.temperature == 0.3
    assert run.meta.pricing.prompt_per_1k == 0.1
    assert loaded.hints["corpus_id"] == "c1" and loaded.hints["declared_run_id"] == "r1"
    a, b = run.outputs
    assert (a.id, a.predicted, a.latency_s, a.cost_usd, a.cached) == ("a", "nipâw", 1.5, 0.001, True)
    assert a.usage.prompt_tokens == 10 and a.usage.total_tokens == 12
    assert a.model_extra == {"tool_calls": 0}
    assert (b.id, b.predicted, b.error) == ("2", "", "HTTP 503 from provider")
    assert loaded.lines == {"a": 2, "2": 3}


def test_run_id_override_and_default(tmp_path):
    p = write(tmp_path / "sys-A.jsonl", '{"id": "a", "predicted": "x"}\n')
    assert read_run(p).value.meta.run_id == "sys-A"
    loaded = read_run(p, run_id="mine")
    assert loaded.value.meta.run_id == "mine"
    assert "declared_run_id" not in loaded.hints


def test_json_run_object_and_list(tmp_path):
    p = write(tmp_path / "r.json", json.dumps({"run": {"run_id": "x"}, "outputs": [{"id": "a", "predicted": "y"}]}))
    assert read_run(p).value.meta.run_id == "x"
    p2 = write(tmp_path / "r2.json", json.dumps([{"id": "a", "hypothesis": "y"}]))
    assert read_run(p2).value.outputs[0].predicted == "y"


def test_hypothesis_text_aligned_with_corpus(tmp_path):
    p = write(tmp_path / "m2m_fr_ewe.txt", "Akpe.\n\nŊdi")
    run = read_run(p, entry_ids=["1", "2", "3"]).value
    assert [(o.id, o.predicted) for o in run.outputs] == [("1", "Akpe."), ("2", ""), ("3", "Ŋdi")]
    assert run.meta.model_slug == "m2m_fr_ewe"


def test_hypothesis_line_count_mismatch(tmp_path):
    p = write(tmp_path / "h.txt", "a\nb\n")
    with pytest.raises(InputError) as ei:
        read_run(p, entry_ids=["1", "2", "3"])
    assert [str(d) for d in ei.value.defects] == [
        f"{p}:3: line-count mismatch: the file has 2 lines but the corpus has 3 entries"
    ]


def test_hypothesis_needs_corpus(tmp_path):
    p = write(tmp_path / "h.txt", "a\n")
    with pytest.raises(InputError, match="choose the corpus"):
        read_run(p)


def test_harness_report_as_run(tmp_path):
    report = {
        "run_id": "run_x",
        "config": {
            "corpus_path": "d/eng-cym-dev-v1.json",
            "model": "google/g",
            "_model_id": "google/g-001",
            "prompt_version": "naive",
            "temperature": 0.0,
        },
        "overall": {"corpus_chrf": 50.0},
        "entries": [
            {
                "id": "t1",
                "source": "Hi",
                "expected": "Helo",
                "predicted": "Shwmae",
                "raw_predicted": "Shwmae",
                "latency_s": 0.2,
                "cost_usd": 0.001,
                "error": None,
                "chrf_score": 10.0,
                "tool_call_count": 0,
            },
            {"id": "t2", "source": "Bye", "expected": "Hwyl", "predicted": "", "error": "timeout"},
        ],
    }
    loaded = read_run(write(tmp_path / "x_report.json", json.dumps(report)))
    run = loaded.value
    assert loaded.format == "harness-report"
    m = run.meta
    assert (m.run_id, m.model_slug, m.model_id, m.condition, m.temperature) == (
        "run_x",
        "google/g",
        "google/g-001",
        "naive",
        0.0,
    )
    assert m.model_extra["harness_overall"] == {"corpus_chrf": 50.0}
    assert loaded.hints["corpus_path"] == "d/eng-cym-dev-v1.json"
    assert loaded.hints["sources"] == {"t1": "Hi", "t2": "Bye"}
    t1, t2 = run.outputs
    assert (t1.predicted, t1.raw_predicted, t1.latency_s, t1.model_extra) == (
        "Shwmae",
        "Shwmae",
        0.2,
        {"tool_call_count": 0},
    )
    assert (t2.predicted, t2.error) == ("", "timeout")


def test_harness_report_with_an_outputs_key_reads_every_entry_at_its_line(tmp_path):
    text = ('{"config": {"model": "m"},\n'
            ' "outputs": [1],\n'
            ' "entries": [\n'
            '  {"id": "a", "predicted": "x"},\n'
            '  {"id": "b", "predicted": "y"}\n'
            ' ]}\n')
    loaded = read_run(write(tmp_path / "r_report.json", text))
    assert loaded.format == "harness-report"
    assert [o.id for o in loaded.value.outputs] == ["a", "b"]
    assert loaded.lines == {"a": 4, "b": 5}


def test_run_defects_collected(tmp_path):
    p = write(tmp_path / "r.jsonl", "\n".join([
        '{"run": {"run_id": "r", "temperature": "hot"}}',
        '{"id": "a", "predicted": "x"}',
        '{"id": "a", "predicted": "y"}',
        '{"predicted": "z"}',
        '{"id": "b", "predicted": 3, "latency_s": "slow"}',
        '{"id": "c", "predicted": "w"',
    ]))
    with pytest.raises(InputError) as ei:
        read_run(p)
    assert [str(d) for d in ei.value.defects] == [
        f"{p}:1: run metadata temperature: Input should be a valid number, unable to parse string as a number",
        f"{p}:3: duplicate id 'a' (first at line 2)",
        f"{p}:4: missing id",
        f"{p}:5: output 'b': predicted must be a string or null, got number",
        f"{p}:5: output 'b': latency_s must be a number, got 'slow'",
        f"{p}:6:29: invalid JSON: Expecting ',' delimiter",
    ]


def test_glossary_json_and_tsv(tmp_path):
    j = write(tmp_path / "g.json", json.dumps({"water": ["nipiy"], "sleep": "nipâw"}, ensure_ascii=False))
    assert read_glossary(j).value == {"water": ["nipiy"], "sleep": ["nipâw"]}
    t = write(tmp_path / "g.tsv", "# comment\nterm\ttargets\nwater\tnipiy\nhouse\twâskahikan|wâskahikanis\n")
    assert read_glossary(t).value == {"water": ["nipiy"], "house": ["wâskahikan", "wâskahikanis"]}


def test_glossary_defects(tmp_path):
    t = write(tmp_path / "g.tsv", "water\tnipiy\nbroken line\nwater\tx\n \tx\nhouse\t\n")
    with pytest.raises(InputError) as ei:
        read_glossary(t)
    assert [str(d) for d in ei.value.defects] == [
        f"{t}:2: expected 'term<TAB>target|target'",
        f"{t}:3: term 'water' appears twice (first at line 1)",
        f"{t}:4: empty term",
        f"{t}:5: term 'house': no target",
    ]
    j = write(tmp_path / "g.json", '{\n "a": ["x"],\n "b": 3\n}')
    with pytest.raises(InputError) as ei:
        read_glossary(j)
    assert [str(d) for d in ei.value.defects] == [f"{j}:3: term 'b': targets must be a string or a list of strings"]


def test_preview_jsonl_run_and_tsv_corpus(tmp_path):
    lines = ['{"run": {"run_id": "r"}}'] + [json.dumps({"id": str(i), "predicted": f"p{i}"}) for i in range(30)]
    pv = preview(write(tmp_path / "r.jsonl", "\n".join(lines) + "\n"), n=5)
    assert (pv.format, pv.kind, pv.total, len(pv.rows), pv.meta) == ("jsonl", "run", 30, 5, {"run_id": "r"})
    assert pv.columns == ["id", "predicted"]
    pv = preview(write(tmp_path / "c.tsv", "id\tsource\n1\ta\n2\tb\n"), n=1)
    assert (pv.format, pv.kind, pv.total, pv.rows) == ("tsv", "corpus", 2, [{"id": "1", "source": "a"}])


def test_preview_lists_defects_without_raising(tmp_path):
    pv = preview(write(tmp_path / "c.jsonl", '{"id": 1, "source": "a"}\n{oops\n'), n=5)
    assert pv.kind == "corpus" and len(pv.rows) == 1
    assert [str(d) for d in pv.defects] == [
        f"{tmp_path / 'c.jsonl'}:2:2: invalid JSON: Expecting property name enclosed in double quotes"
    ]


def test_constructed_models_equal_validated_models(tmp_path):
    from mteval_gui.domain.corpus import Entry
    from mteval_gui.domain.run import Output
    from mteval_gui.io import read_corpus
    from mteval_gui.paths import demo_dir

    corpus = read_corpus(demo_dir() / "crk-verbs.jsonl").value
    for e in corpus.entries:
        assert Entry.model_validate(e.model_dump()) == e
    run = read_run(demo_dir() / "crk-verbs.good.jsonl").value
    p = write(
        tmp_path / "x.jsonl",
        '{"id": "a", "predicted": "x", "usage": {"prompt_tokens": 3, "extra_tokens": 1}, "note": 1}\n',
    )
    for o in run.outputs + read_run(p).value.outputs:
        again = Output.model_validate(o.model_dump())
        assert again == o
        assert again.model_extra == o.model_extra
        if o.usage is not None:
            assert again.usage.model_extra == o.usage.model_extra


# ----------------------------------------------------------------- OpenAI usage, elapsed time

def test_openai_nested_usage_counts_are_read(tmp_path):
    from mteval_gui.scoring.costspeed import token_totals

    usage = {"prompt_tokens": 40, "completion_tokens": 300, "total_tokens": 340,
             "completion_tokens_details": {"reasoning_tokens": 250, "accepted_prediction_tokens": 0},
             "prompt_tokens_details": {"cached_tokens": 32, "audio_tokens": 0}}
    p = write(tmp_path / "r.jsonl", "\n".join([
        json.dumps({"id": "a", "predicted": "x", "usage": usage}),
        json.dumps({"id": "b", "predicted": "y", "usage": {**usage, "reasoning_tokens": 250}}),  # flat and nested agree
    ]))
    a, b = read_run(p).value.outputs
    assert (a.usage.reasoning_tokens, a.usage.cached_tokens, a.usage.total_tokens) == (250, 32, 340)
    assert a.usage.model_extra["completion_tokens_details"] == {"reasoning_tokens": 250,
                                                                "accepted_prediction_tokens": 0}
    totals = token_totals([a, b], 2)
    assert (totals["reasoning_tokens"], totals["cached_tokens"]) == (500, 64)


def test_openai_nested_usage_that_contradicts_the_flat_count_is_refused(tmp_path):
    p = write(tmp_path / "r.jsonl", "\n".join([
        json.dumps({"id": "a", "predicted": "x",
                    "usage": {"reasoning_tokens": 5, "completion_tokens_details": {"reasoning_tokens": 7}}}),
        json.dumps({"id": "b", "predicted": "x", "usage": {"prompt_tokens_details": [32]}}),
        json.dumps({"id": "c", "predicted": "x", "usage": {"completion_tokens_details": {"reasoning_tokens": "9"}}}),
    ]))
    with pytest.raises(InputError) as exc:
        read_run(p)
    assert [str(d) for d in exc.value.defects] == [
        f"{p}:1: output 'a': usage.reasoning_tokens (5) differs from "
        "usage.completion_tokens_details.reasoning_tokens (7)",
        f"{p}:2: output 'b': usage.prompt_tokens_details must be an object, got list",
        f"{p}:3: output 'c': usage.completion_tokens_details.reasoning_tokens must be a count from 0 to 2^63-1, "
        "got '9'",
    ]


def test_elapsed_seconds_from_started_and_ended_at(tmp_path):
    head = {"run_id": "r1", "started_at": "2026-12-02T09:00:00Z", "ended_at": "2026-12-02T09:02:30.5Z"}
    p = write(tmp_path / "r.jsonl", json.dumps({"run": head}) + '\n{"id": "a", "predicted": "x"}\n')
    assert read_run(p).value.meta.elapsed_seconds == 150.5
    q = write(tmp_path / "r.json", json.dumps({"meta": {**head, "ended_at": "2026-12-02T10:00:00+01:00"},
                                               "outputs": [{"id": "a", "predicted": "x"}]}))
    assert read_run(q).value.meta.elapsed_seconds == 0.0
    given = write(tmp_path / "g.jsonl", json.dumps({"run": {**head, "elapsed_seconds": 99.0}})
                  + '\n{"id": "a", "predicted": "x"}\n')
    assert read_run(given).value.meta.elapsed_seconds == 99.0  # a given value is never replaced
    alone = write(tmp_path / "s.jsonl", json.dumps({"run": {"started_at": "2026-12-02T09:00:00Z"}})
                  + '\n{"id": "a", "predicted": "x"}\n')
    assert read_run(alone).value.meta.elapsed_seconds is None


def test_ended_before_started_or_not_a_time_is_refused(tmp_path):
    for head, message in (
        ({"started_at": "2026-12-02T09:00:00Z", "ended_at": "2026-12-02T08:59:00Z"},
         "run metadata ended_at (2026-12-02T08:59:00Z) is before started_at (2026-12-02T09:00:00Z)"),
        ({"started_at": "2026-12-02T09:00:00Z", "ended_at": "later"},
         "run metadata ended_at must be an ISO 8601 time (2026-12-02T09:15:00Z), got 'later'"),
        ({"started_at": "2026-12-02T09:00:00", "ended_at": "2026-12-02T09:01:00Z"},
         "run metadata started_at and ended_at must both give a time zone or both not"),
    ):
        p = write(tmp_path / "r.jsonl", json.dumps({"run": head}) + '\n{"id": "a", "predicted": "x"}\n')
        with pytest.raises(InputError) as exc:
            read_run(p)
        assert [str(d) for d in exc.value.defects] == [f"{p}:1: {message}"]
